// `citeproof/edge` in a browser is plain JS (pkg/edge/, docs/architecture.md §9); in
// Node, workerd and Deno it is the full module's Rust (wasm/src/api/edge.rs over
// src/audit.rs, src/metrics.rs, src/prompt.rs). Both are held to the same results here:
// on real answers (ExpertQA's 153, the spec examples, every vendored provider recording
// through its adapter), each validated in every offset unit, every helper gives the same
// value (the same JSON to the byte); on seeded mutations of those reports, contexts and
// inputs (a value replaced by one of another type, a list cut) and on a list of bad
// arguments (revoked Proxies, throwing getters, a field under two names, a list claiming
// 2^32 − 1 items), the same value or the same error code and message. A difference names
// the case and the first path where the two part.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { pkgDir, random, root, slots } from "./helpers.mjs";
import { listFixtures, originOf, readFixture } from "../reference/providers-expect.mjs";

const require = createRequire(import.meta.url);
const wasm = require(join(pkgDir, "node", "citeproof.js"));
const js = await import(pathToFileURL(join(pkgDir, "edge", "index.js")));
const UNITS = ["utf16", "utf8", "codepoint"];

/** Real inputs: `[label, input]`. */
function inputs() {
  const expertqa = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
    .map(({ id, question, answer, sources }) => [`expertqa ${id}`, { answer, question, sources, sessionId: `s-${id}`, topK: sources.length }]);
  const specs = readdirSync(join(root, "tests", "fixtures", "specs")).map((f) => [
    `spec ${f}`,
    JSON.parse(readFileSync(join(root, "tests", "fixtures", "specs", f), "utf8")).input,
  ]);
  const recorded = listFixtures()
    .filter((f) => !f.endsWith(".yaml") && originOf(f).form !== "sources")
    .flatMap((f) => {
      const text = readFixture(f);
      const response = f.endsWith(".chunks.txt")
        ? text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))
        : JSON.parse(text);
      try {
        return [[`recorded ${f}`, wasm.fromAny(response)]];
      } catch {
        return []; // not a provider response an adapter reads
      }
    });
  return [...expertqa, ...specs, ...recorded];
}

/** What a call gives: `{ value }` or `{ error: { code, message } }`. */
function outcome(call) {
  try {
    return { value: call() };
  } catch (error) {
    return { error: { code: error.code, message: error.message } };
  }
}

/** The first path where `a` and `b` differ; undefined when deep-equal. */
function firstDifference(a, b, path = "") {
  if (Object.is(a, b)) return undefined;
  const kind = (v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  if (kind(a) !== kind(b) || (kind(a) !== "object" && kind(a) !== "array")) return { path: path || "(top)", js: a, rust: b };
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const found = firstDifference(a[key], b[key], `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

const show = (v) => {
  try {
    return JSON.stringify(v)?.slice(0, 300);
  } catch {
    return typeof v; // a revoked Proxy, a BigInt
  }
};

/** Asserts that `call(helpers)` gives the same with the JS helpers and the Rust ones. */
function agree(label, call) {
  const ours = outcome(() => call(js));
  const theirs = outcome(() => call(wasm));
  const d = firstDifference(ours.error ?? ours.value, theirs.error ?? theirs.value);
  if (d) assert.fail(`${label}: differ at ${d.path}: JS ${show(d.js)}, Rust ${show(d.rust)}`);
  if (ours.value !== undefined) assert.equal(JSON.stringify(ours.value), JSON.stringify(theirs.value), `${label}: the same JSON`);
  return ours;
}

/** Every helper on one report and its context; `repaired` a second report for `Metrics`. */
function agreeOnAll(label, report, ctx, repaired) {
  const fixed = ctx !== null && typeof ctx === "object" && !Array.isArray(ctx) ? { auditId: "audit-1", timestamp: "2026-11-28T00:00:00.000Z", ...ctx } : ctx;
  // Without a context, the id and time are a random UUID and now: checked for their form.
  const made = (record) => {
    if (record?.audit_id === undefined || fixed?.auditId !== undefined) return record;
    assert.match(record.audit_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    if (record.timestamp !== undefined) assert.ok(Math.abs(Date.parse(record.timestamp) - Date.now()) < 60_000, record.timestamp);
    return { ...record, audit_id: "random", ...(record.timestamp === undefined ? {} : { timestamp: "now" }) };
  };
  agree(`${label}: auditRecord`, (h) => made(h.auditRecord(report, fixed)));
  agree(`${label}: rejectionResponse`, (h) => made(h.rejectionResponse(report, fixed)));
  agree(`${label}: repairPrompt`, (h) => h.repairPrompt(report, ctx));
  agree(`${label}: Metrics`, (h) => {
    const metrics = new h.Metrics();
    const errors = [];
    for (const [a, b] of [[report], [report, repaired], [repaired, report], [repaired]]) {
      try {
        metrics.record(a, b);
      } catch (error) {
        errors.push(`${error.code}: ${error.message}`);
      }
    }
    return { errors, text: metrics.render() };
  });
}

const all = inputs();

test("the corpus: ExpertQA, the spec examples and every provider's recordings", () => {
  assert.ok(all.filter(([l]) => l.startsWith("expertqa")).length === 153);
  assert.ok(all.filter(([l]) => l.startsWith("recorded")).length >= 40, `${all.length} inputs`);
});

test("real answers, validated in every offset unit: every helper gives the same", () => {
  for (const [label, input] of all) {
    agree(`${label}: validateRequest`, (h) => h.validateRequest(input));
    agree(`${label}: formatContext`, (h) => h.formatContext(input.sources ?? [], { maxChars: 120 }));
    agree(`${label}: formatContext (default)`, (h) => h.formatContext(input.sources ?? []));
    for (const offsets of UNITS) {
      const report = wasm.validate(input, { offsets, requireCitations: false });
      const strict = wasm.validate(input, { offsets, policy: "strict" });
      agreeOnAll(`${label} (${offsets})`, report, { input, offsets }, strict);
    }
  }
  for (const style of [undefined, "indexed", "chunks", "enhanced"]) {
    agree(`citationSchema ${style}`, (h) => h.citationSchema(style && { style }));
  }
});

test("an audit record's claims cut past its allowance: the same in every offset unit", () => {
  // One sentence carrying 20,000 markers is 20,000 claims of 80,000 characters: whole
  // four times, then cut to 80 characters (code points: the emoji are two UTF-16 units).
  const answer = `😀 Wässer 😀 kocht 😀${" [1]".repeat(20_000)}. Eis 😀 schmilzt [1].`;
  const input = { answer, sources: [{ id: "doc-1", text: "Wässer kocht. Eis schmilzt." }] };
  for (const offsets of UNITS) {
    const report = wasm.validate(input, { offsets });
    const record = agree(`cut claims (${offsets}): auditRecord`, (h) => h.auditRecord(report, { input, offsets, auditId: "a", timestamp: "t" }));
    const claims = record.value.citations.map((c) => c.claim);
    assert.equal(claims.filter((c) => c.endsWith("…")).length, 20_000 - 4);
    assert.equal(claims[4], `${[...answer].slice(0, 80).join("")}…`);
    assert.equal(claims.at(-1), "Eis 😀 schmilzt [1].");
  }
});

const REPLACEMENTS = [null, undefined, 0, -1, 1.5, NaN, 1e20, 2 ** 32, "", "x", "3-7", " 2 - 9 ", "\ud800", "😀".repeat(50), [], [4, 9], {}, true, { start: 1, end: 2 }];

test("mutated reports, contexts and inputs: the same value or the same error", () => {
  const next = random(34);
  let compared = 0;
  for (const [label, input] of all.filter((_, i) => i % 3 === 0)) {
    const offsets = UNITS[Math.floor(next() * UNITS.length)];
    const report = wasm.validate(input, { offsets, requireCitations: false });
    for (let round = 0; round < 12; round++) {
      const copy = structuredClone({ report, ctx: { input, offsets }, sources: input.sources ?? [] });
      const places = slots(copy);
      const made = [];
      for (let c = 1 + Math.floor(next() * 3); c > 0; c--) {
        const [parent, key] = places[Math.floor(next() * places.length)];
        if (Array.isArray(parent[key]) && next() < 0.3) {
          parent[key] = parent[key].slice(0, Math.floor(next() * parent[key].length));
          made.push(`${key} cut`);
        } else {
          parent[key] = structuredClone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
          made.push(`${key} = ${show(parent[key])}`);
        }
      }
      const name = `${label} with ${made.join(", ")}`;
      agreeOnAll(name, copy.report, copy.ctx, report);
      agree(`${name}: validateRequest`, (h) => h.validateRequest(copy.ctx.input));
      agree(`${name}: formatContext`, (h) => h.formatContext(copy.sources, { maxChars: 40 }));
      compared += 6;
    }
  }
  assert.ok(compared > 2000, `${compared} comparisons`);
});

test("bad arguments: the same error code and message from both", () => {
  const report = wasm.validate({ answer: "Paris [1].", sources: [{ text: "Paris is in France." }] });
  const input = { answer: "Paris [1].", sources: [{ text: "Paris is in France." }] };
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = Object.defineProperty({}, "status", {
    enumerable: true,
    get() {
      throw new Error("getter");
    },
  });
  const huge = new Proxy([], { get: (t, k) => (k === "length" ? 2 ** 32 - 1 : t[k]) });
  // An array whose length cannot be read: its type named in the error as the Rust reader
  // names it (regression: the JS helpers had a type name of their own for it).
  const unreadable = new Proxy([], {
    get(t, k) {
      if (k === "length") throw new Error("length");
      return t[k];
    },
  });
  const reports = [null, 5, "report", [], {}, { status: "ok" }, revoked(), throwing, { ...report, citations: huge }, { ...report, citations: [5] },
    { ...report, citations: [{ errors: [{ message: 5 }] }] }, { ...report, summary: [] }, { ...report, summary: { hallucinations: -1 } },
    { ...report, citations: [{ claim: { start: 1.5 } }] }, { ...report, timingMs: "1" }, { ...report, confidence: null }, { ...report, citations: revoked() },
    { ...report, citations: unreadable }];
  const contexts = [undefined, null, 5, "ctx", [], { offsets: "bytes" }, { offsets: 8 }, { auditId: 5 }, { timestamp: [] }, { input: 5 }, { input: {} },
    { input: { answer: 5 } }, { input: { ...input, question: "q", query: "q" } }, { input: { ...input, sources: huge } }, { input: { ...input, sources: [5] } },
    { input: { ...input, sources: [{ text: "a", content: "b", index: 1.5 }] } }, { input: { ...input, sources: [{ chapter: 2.5 }] } },
    { input: { ...input, citations: [{ lineRange: revoked() }] } }, { input: { ...input, citations: [{ source: 1, index: 2 }] } },
    { input: { ...input, warnings: [{ code: "nope" }] } }, { input: { ...input, warnings: [{ code: "unknown_content", span: 5 }] } },
    { input: { ...input, topK: -1 } }, { input: revoked() }, { input: { ...input, sources: revoked() } }];
  for (const r of reports) for (const ctx of contexts) agreeOnAll(`${show(r)} ${show(ctx)}`, r, ctx, report);
  for (const sources of [null, 5, {}, [5], [null], huge, unreadable, revoked(), [{ text: 5 }], [{ title: "a", doc_title: "b" }]]) {
    for (const options of [undefined, null, 5, { maxChars: -1 }, { maxChars: 1.5 }, { maxChars: "9" }, revoked()]) {
      agree(`formatContext ${show(sources)} ${show(options)}`, (h) => h.formatContext(sources, options));
    }
  }
  for (const request of [null, 5, [], {}, { question: 5 }, { question: "q", query: "r" }, { question: "q", sources: 5 }, { question: "q", sources: [{ relevance: "x" }] }, revoked()]) {
    agree(`validateRequest ${show(request)}`, (h) => h.validateRequest(request));
  }
  for (const options of [null, 5, [], { style: 5 }, { style: "other" }, revoked()]) agree(`citationSchema ${show(options)}`, (h) => h.citationSchema(options));
});
