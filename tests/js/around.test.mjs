// formatContext, citationSchema, validateRequest, repairPrompt, rejectionResponse,
// auditRecord, Metrics and validateBatch through the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const cp = require(join(pkgDir, "node", "citeproof.js"));

test("formatContext numbers sources and cuts texts at code points (spec 002)", () => {
  const context = cp.formatContext(
    [
      { doc_title: "history.md", text: "Litecoin was created by Charlie Lee in 2011." },
      { text: "😀".repeat(600) },
    ],
    { maxChars: 20 },
  );
  assert.equal(context, `[1] Litecoin was created (Source: history.md)\n\n[2] ${"😀".repeat(20)} (Source: Untitled)`);
  assert.equal(cp.formatContext([{ text: "x".repeat(900) }]).length, "[1] ".length + 500 + " (Source: Untitled)".length);
  assert.throws(() => cp.formatContext([], { maxChars: -1 }), (e) => e.code === "invalid_option");
  // Source lists are read like validate's sources, with the path of a bad one.
  assert.throws(() => cp.formatContext("not a list"), { code: "invalid_input", message: /^sources: expected an array of sources/ });
  assert.throws(() => cp.formatContext([{ text: "ok" }, { text: 5 }]), { code: "invalid_input", message: /^sources\[1\]\.text: expected a string, got number/ });
  assert.throws(() => cp.formatContext([{ text: "ok" }, 7]), { code: "invalid_input", message: /^sources\[1\]: expected an object, got number/ });
});

test("the specs' example outputs validate against citationSchema, and broken ones do not", () => {
  const ajv = new Ajv2020({ strict: false });
  const check = (style, value) => ajv.validate(cp.citationSchema({ style }), value);
  // spec 002: StructuredRAGResponse's example
  const indexed = { answer: "Litecoin was created by Charlie Lee in 2011 [1]. It uses the Scrypt algorithm [2].", citations: [1, 2], confidence: 0.95, missing_information: null };
  assert.ok(check("indexed", indexed), JSON.stringify(ajv.errors));
  assert.ok(!check("indexed", { ...indexed, citations: [0] }), "index 0 violates minimum 1");
  // spec 003: the suggested response shape with the worked example's valid citation
  const chunks = { answer: "FastAPI is a modern web framework.", citations: [{ doc_id: "d1", chunk_id: "chunk_001", snippet: "modern web framework for building APIs" }], mode: "answer" };
  assert.ok(check("chunks", chunks), JSON.stringify(ajv.errors));
  assert.ok(!check("chunks", { ...chunks, mode: "chat" }));
  // spec 004: the perfect citation
  const enhanced = { answer: "브루넬레스키의 원근법 원리를 도입", citations: [{ source: "Renaissance Art History", relevance: 0.92, quote: "브루넬레스키의 원근법...", evidence_idx: 1, alignment_score: 0.85, span_in_answer: "브루넬레스키의 원근법 원리를 도입" }] };
  assert.ok(check("enhanced", enhanced), JSON.stringify(ajv.errors));
  assert.ok(!check("enhanced", { answer: "x", citations: [{ source: "S", relevance: 1.5, quote: "q" }] }));
  assert.deepEqual(cp.citationSchema(), cp.citationSchema({ style: "indexed" }));
  assert.throws(() => cp.citationSchema({ style: "xml" }), (e) => e.code === "invalid_option");
});

test("validateRequest follows spec 000's question boundaries", () => {
  const sources = [{ text: "t" }];
  const codes = (question) => cp.validateRequest({ question, sources }).map((f) => f.code);
  assert.deepEqual(codes(""), ["request_invalid"], "empty");
  assert.deepEqual(codes("   "), ["request_invalid"], "blank after trim");
  assert.deepEqual(codes("a"), [], "1 character");
  assert.deepEqual(codes("q".repeat(2000)), [], "2000 characters");
  assert.deepEqual(codes("q".repeat(2001)), ["request_invalid"], "2001 characters");
  const bad = cp.validateRequest({ question: "ok?", sources: [{ relevance_score: 1.2, text: "t" }, {}] });
  assert.deepEqual(bad.map((f) => f.message.split(":")[0]), ["sources[0].relevance", "sources[1]"]);
});

const input = {
  question: "Who created Litecoin?",
  sessionId: "s-1",
  responseId: "r-1",
  modelVersion: "qwen2.5-7b",
  topK: 3,
  answer: "Litecoin 😀 was created by Charlie Lee in 2011 [1]. It uses Scrypt [4].",
  sources: [
    { chunk_id: "chunk_001", text: "Litecoin was created by Charlie Lee in 2011." },
    { chunk_id: "chunk_002", text: "Litecoin uses the Scrypt algorithm." },
  ],
  citations: [{ source: 1, quote: "created by Charlie Lee", line_range: "1-1" }],
};

test("auditRecord has spec 001's fields verbatim plus spec 003's retrieval ids", () => {
  const report = cp.validate(input);
  const record = cp.auditRecord(report, { input, auditId: "a-1", timestamp: "2026-11-23T00:00:00Z" });
  assert.deepEqual(Object.keys(record).sort(), [
    "audit_id", "citations", "model_version", "processing_time_ms", "query", "response_id", "retrieval", "session_id", "timestamp", "validation_result",
  ]);
  assert.deepEqual(record.validation_result, {
    status: "REJECT", citations_validated: 1, citations_failed: 1, hallucinations_detected: 1, confidence_score: report.confidence,
  });
  assert.deepEqual(record.citations[0], {
    claim: "Litecoin 😀 was created by Charlie Lee in 2011 [1].", source: "chunk_001", line_range: "1-1", validation_status: "VALID", semantic_score: null,
  });
  // Claim support is opt-in: spec 001's semantic_score is its score when it runs, null otherwise.
  const scored = cp.validate(input, { misattributionMargin: 0.25 });
  const support = scored.citations[0].support;
  assert.ok(support > 0.5, `support ${support}`);
  assert.equal(cp.auditRecord(scored, { input }).citations[0].semantic_score, support);
  assert.equal(record.citations[1].validation_status, "INVALID");
  assert.deepEqual(record.retrieval, { top_k: 3, retrieved_ids: ["chunk_001", "chunk_002"], cited_ids: ["chunk_001"] });
  assert.equal(record.query, input.question);
  assert.equal(record.processing_time_ms, report.timingMs);
  const generated = cp.auditRecord(report, { input });
  assert.match(generated.audit_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(!Number.isNaN(Date.parse(generated.timestamp)));
});

test("rejectionResponse has spec 001's shape; repairPrompt names the failures and the allowed ids", () => {
  const report = cp.validate(input);
  const rejection = cp.rejectionResponse(report, { auditId: "a-9" });
  assert.deepEqual(Object.keys(rejection), ["status", "reason", "suggestion", "partial_response", "audit_id"]);
  assert.equal(rejection.status, "rejected");
  assert.match(rejection.reason, /source 4 does not exist/);
  assert.equal(rejection.partial_response, report.cleanedAnswer);
  assert.equal(rejection.audit_id, "a-9");
  const prompt = cp.repairPrompt(report, { input });
  assert.match(prompt, /^Return the same answer, but fix citations so that every citation names one of: chunk_001, chunk_002\./);
  assert.match(prompt, /- source 4 does not exist/);
  assert.match(prompt, /Return ONLY JSON, exactly this object and nothing before or after it: \{"answer": "<the whole corrected answer>"\}$/);
  // Without ctx.input no ids are known: the clause that would name them is left out, not written empty.
  const bare = cp.repairPrompt(report);
  assert.match(bare, /^Return the same answer, but fix citations\. Quotes/);
  assert.doesNotMatch(bare, /names one of/);
  assert.equal(cp.repairPrompt(report, { input: { ...input, sources: [] } }), bare);
  assert.throws(() => cp.rejectionResponse({ status: "bad" }), (e) => e.code === "invalid_input" && /^report/.test(e.message));
});

test("Metrics renders an exposition that promtool check metrics accepts", () => {
  const metrics = new cp.Metrics();
  for (const i of [input, { answer: "Fine claim [1].", sources: [{ text: "t" }] }]) metrics.record(cp.validate(i));
  const text = metrics.render();
  assert.match(text, /citation_validation_total\{status="fail"\} 1\n/);
  assert.match(text, /citation_validation_total\{status="pass"\} 1\n/);
  assert.match(text, /citation_hallucinations_total 1\n/);
  assert.match(text, /citation_validation_duration_seconds_count 2\n/);
  // promtool reads the exposition on stdin; lint problems make it exit non-zero.
  execFileSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
});

test("validateBatch returns every report, the counts and the worst status", () => {
  const result = cp.validateBatch([input, { answer: "Fine claim [1].", sources: [{ text: "t" }] }]);
  assert.equal(result.reports.length, 2);
  assert.deepEqual(result.summary, { total: 2, pass: 1, warn: 0, fail: 1, hallucinations: 1 });
  assert.equal(result.status, "fail");
  assert.throws(() => cp.validateBatch([input, { answer: 1 }]), (e) => e.code === "invalid_input" && /^inputs\[1\]\.answer:/.test(e.message));
});
