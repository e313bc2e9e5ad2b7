// validate / CitationValidator through the built package (pkg/node).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, CitationValidator, CitationStream } = require(join(pkgDir, "node", "citeproof.js"));

const fixtureDir = join(root, "tests", "fixtures", "specs");
for (const file of readdirSync(fixtureDir).filter((f) => f.endsWith(".json"))) {
  test(`spec fixture ${file} has the outcome the spec describes`, () => {
    const { input, expect } = JSON.parse(readFileSync(join(fixtureDir, file), "utf8"));
    const report = validate(input);
    assert.equal(report.status, expect.status);
    const codes = (severity) => report.findings.filter((f) => f.severity === severity).map((f) => f.code);
    assert.deepEqual(codes("error"), expect.errors);
    assert.deepEqual(codes("warning"), expect.warnings);
    if ("valid" in expect) assert.equal(report.citations.every((c) => c.valid), expect.valid);
    if ("qualityScore" in expect) assert.equal(report.citations[0].qualityScore, expect.qualityScore);
    for (const field of ["cleanedAnswer", "confidence", "uncertain"]) {
      if (field in expect) assert.equal(report[field], expect[field], field);
    }
  });
}

test("every answer span is a UTF-16 index and every quote span indexes its source", () => {
  const input = {
    answer: "東京 😀 is the capital [1]. The 👩‍👩‍👧 live in Osaka【2】 and 🇫🇷 [9].\r\nDone [2].",
    sources: [
      { title: "Tokyo", text: "Intro 😀. Tokyo is the capital of Japan." },
      { title: "Osaka", text: "大阪 😀 people live in Osaka." },
    ],
    citations: [
      { source: 1, quote: "Tokyo is the capital" },
      { source: 2, quote: "people live in osaka" },
    ],
  };
  const report = validate(input);
  for (const m of report.markers) assert.equal(input.answer.slice(m.span.start, m.span.end), m.raw);
  for (const f of report.findings.filter((f) => f.span)) {
    assert.equal(input.answer.slice(f.span.start, f.span.end), "[9]");
  }
  const [tokyo, osaka] = report.citations;
  assert.equal(input.sources[0].text.slice(tokyo.quote.span.start, tokyo.quote.span.end), "Tokyo is the capital");
  assert.equal(osaka.quote.match, "normalized");
  assert.equal(input.sources[1].text.slice(osaka.quote.span.start, osaka.quote.span.end), "people live in Osaka");
  assert.equal(report.cleanedAnswer, input.answer.replace(" [9]", ""));
  const rebuilt = report.segments.map((s) => (s.type === "text" ? s.text : s.label)).join("");
  assert.equal(rebuilt, report.cleanedAnswer);
});

test("offsets: utf8 and codepoint units apply to the report too", () => {
  const input = { answer: "😀 claim here [1].", sources: [{ text: "x" }] };
  assert.deepEqual(validate(input, { offsets: "utf8" }).markers[0].span, { start: 16, end: 19 });
  assert.deepEqual(validate(input, { offsets: "codepoint" }).markers[0].span, { start: 13, end: 16 });
});

test("snake_case fields and spec payload shapes are read", () => {
  const report = validate({
    answer: "FastAPI is a modern web framework.",
    sources: [{ chunk_id: "c1", page_content: "FastAPI is a modern web framework for building APIs." }],
    citations: [{ chunk_id: "c1", snippet: "modern web framework", evidence_idx: 0, alignment_score: 0.9, span_in_answer: "FastAPI is", relevance_score: 0.8 }],
  });
  assert.equal(report.status, "pass");
  assert.equal(report.citations[0].quote.match, "exact");
});

test("bad input throws an Error with a code and the field path, never a trap", () => {
  const cases = [
    [undefined, undefined, "invalid_input", /^input:/],
    ["text", undefined, "invalid_input", /^input:/],
    [{ sources: [] }, undefined, "invalid_input", /^input\.answer: missing/],
    [{ answer: 3 }, undefined, "invalid_input", /^input\.answer:/],
    [{ answer: "x", sources: {} }, undefined, "invalid_input", /^input\.sources:/],
    [{ answer: "x", sources: [{ relevance: "high" }] }, undefined, "invalid_input", /^input\.sources\[0\]\.relevance:/],
    [{ answer: "x", sources: [{ relevance: NaN }] }, undefined, "invalid_input", /^input\.sources\[0\]\.relevance:/],
    [{ answer: "x", sources: [{}, { index: -1 }] }, undefined, "invalid_input", /^input\.sources\[1\]\.index:/],
    [{ answer: "x", citations: [true] }, undefined, "invalid_input", /^input\.citations/],
    [{ answer: "x".repeat(10_000_001) }, undefined, "too_large", /^input\.answer:/],
    [{ answer: "x", sources: Array.from({ length: 20_000 }, () => ({})) }, undefined, "too_large", /^input\.sources:/],
    [{ answer: "x" }, { policy: "nuke" }, "invalid_option", /^options\.policy:/],
    [{ answer: "x" }, { maxEditRatio: 3 }, "invalid_option", /^options\.maxEditRatio:/],
    [{ answer: "x" }, { markerPatterns: ["("] }, "invalid_option", /^options\.markerPatterns\[0\]:/],
    [{ answer: "x" }, { offsets: "bytes" }, "invalid_option", /^options\.offsets:/],
  ];
  for (const [input, options, code, message] of cases) {
    assert.throws(
      () => validate(input, options),
      (e) => e instanceof Error && e.code === code && message.test(e.message),
      `${JSON.stringify(input)?.slice(0, 60)} / ${JSON.stringify(options)}`,
    );
  }
  // After all of that the instance still works.
  assert.equal(validate({ answer: "Fine claim here [1].", sources: [{ text: "t" }] }).status, "pass");
});

test("fields are read from plain objects, null-prototype objects and class instances alike", () => {
  const plain = {
    answer: "Water boils at 100 °C [1]. Tokyo is the capital [2]. Mars is red [3].",
    sources: [{ text: "Water boils at 100 °C." }, { title: "Tokyo", text: "Tokyo is the capital." }],
    citations: [{ source: 1, quote: "boils at 100" }, { source: 2 }],
  };
  const reportOf = (input, options) => JSON.stringify({ ...validate(input, options), timingMs: 0 });
  const expected = reportOf(plain, { policy: "flag" });
  assert.match(expected, /out_of_range/);
  assert.match(expected, /"quote":\{"span"/);
  // Own fields of an object without a prototype.
  const bare = (object) => Object.assign(Object.create(null), object);
  const nullProto = bare({ ...plain, sources: plain.sources.map(bare), citations: plain.citations.map(bare) });
  assert.equal(reportOf(nullProto, bare({ policy: "flag" })), expected);
  // Getters on a class's prototype, and a field set as non-enumerable.
  class Source {
    #text;
    constructor(text) {
      this.#text = text;
    }
    get text() {
      return this.#text;
    }
  }
  class Request {
    get answer() {
      return plain.answer;
    }
  }
  const request = Object.assign(new Request(), { sources: [new Source(plain.sources[0].text), plain.sources[1]] });
  Object.defineProperty(request, "citations", { value: plain.citations, enumerable: false });
  assert.equal(reportOf(request, { policy: "flag" }), expected);
  // Objects with many more fields than the reader knows (read one field at a time).
  const junk = (object) => Object.assign(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x${i}`, i])), object);
  const crowded = junk({ ...plain, sources: plain.sources.map(junk), citations: plain.citations.map(junk) });
  assert.equal(reportOf(crowded, { policy: "flag" }), expected);
  // Options are not data: a field the reader does not know is a mistake, and named.
  assert.throws(() => validate(plain, junk({ policy: "flag" })), { code: "invalid_option", message: /^options\.x0: unknown option \(known: offsets, policy, / });
  // A plain object's field read from its own properties only: a wrong type there is an
  // error with its path.
  assert.throws(() => validate({ ...plain, sources: [{ text: 5 }] }), { code: "invalid_input", message: /^input\.sources\[0\]\.text: expected a string, got number/ });
});

test("a source's and a citation's fields are read under each of their names", () => {
  const answer = "Water boils at 100 °C [1].";
  const cite = (source) => validate({ answer, sources: [source], citations: [{ source: 1, quote: "boils at 100" }] }, { policy: "flag" });
  const text = "Water boils at 100 °C.";
  for (const name of ["text", "content", "excerpt", "page_content"]) {
    const report = cite({ [name]: text, title: "T" });
    assert.equal(report.citations[0].quote?.match, "exact", name);
  }
  for (const name of ["title", "doc_title", "section_title"]) {
    assert.equal(cite({ text, [name]: "The title" }).segments[1].title, "The title", name);
  }
  // Null counts as absent (two names present are refused: the test below); a getter that
  // throws reads as absent and the next name is tried.
  assert.equal(cite({ text, title: null, doc_title: "second", section_title: null }).segments[1].title, "second");
  const throwing = {
    get text() {
      throw new Error("not loaded");
    },
    content: text,
    get title() {
      throw new Error("no title");
    },
    section_title: "third",
  };
  const report = cite(throwing);
  assert.equal(report.citations[0].quote?.match, "exact");
  assert.equal(report.segments[1].title, "third");
  // A wrong type under a later name is an error with that name in its path.
  assert.throws(() => cite({ text: undefined, content: 7 }), { code: "invalid_input", message: /^input\.sources\[0\]\.content: expected a string, got number/ });
  // A declared citation's fields likewise.
  const declare = (citation) => validate({ answer, sources: [{ text }], citations: [citation] }).citations[0];
  for (const [source, quote] of [["source", "quote"], ["index", "snippet"], ["source", "cited_text"]]) {
    const citation = declare({ [source]: 1, [quote]: "boils at 100" });
    assert.equal(citation.sourceIndex, 1, source);
    assert.equal(citation.quote?.match, "exact", quote);
  }
  const lazy = {
    get source() {
      throw new Error("not yet");
    },
    index: 1,
    quote: null,
    snippet: "boils at 100",
  };
  assert.equal(declare(lazy).quote?.match, "exact");
  // A citation's bad field is a finding (spec 004), named by its first name.
  assert.match(declare({ index: 1, cited_text: 3 }).errors[0].message, /^quote: expected a string, got number/);
});

test("a getter that throws reads as absent; a getter that calls validate again works", () => {
  const throwing = {
    sources: [{ text: "Water boils at 100 °C." }],
    get answer() {
      throw new Error("no answer here");
    },
  };
  assert.throws(() => validate(throwing), { code: "invalid_input", message: /^input\.answer: missing/ });
  // A source whose text getter validates another answer while the first is being read
  // (the reader must not hold its buffers across the call out to JS).
  const inner = { answer: "Tokyo is the capital of Japan [1].", sources: [{ text: "Tokyo is the capital of Japan." }] };
  let innerReport;
  let reads = 0;
  // Longer than any string read before: the reader's buffer grows on the way.
  const text = `${"Padding before the fact. ".repeat(8000)}Water boils at 100 °C, the source says.`;
  const reentrant = {
    answer: "Water boils at 100 °C here [1].",
    sources: [
      {
        get text() {
          reads += 1;
          innerReport = validate(inner);
          return text;
        },
      },
    ],
    citations: [{ source: 1, quote: "boils at 100 °C" }],
  };
  const outer = validate(reentrant);
  assert.equal(reads, 1, "the getter runs once");
  assert.equal(outer.citations[0].quote.match, "exact");
  assert.equal(reentrant.sources[0].text.slice(outer.citations[0].quote.span.start, outer.citations[0].quote.span.end), "boils at 100 °C");
  assert.equal(innerReport.status, validate(inner).status);
  assert.deepEqual(innerReport.markers, validate(inner).markers);
});

test("wrong types inside a declared citation are findings (spec 004), not errors", () => {
  const report = validate({
    answer: "A claim that is cited here.",
    sources: [{ title: "S", text: "t" }],
    citations: [{ source: "S", relevance: "high", alignment_score: [1], evidence_idx: 1.5 }],
  });
  assert.deepEqual(report.findings.filter((f) => f.code === "invalid_field").length, 3);
  assert.equal(report.status, "fail");
});

test("lone surrogates are read as U+FFFD without shifting UTF-16 offsets", () => {
  const answer = "bad \uD800 half [1] and \uDC00 [2]";
  const report = validate({ answer, sources: [{ text: "a" }, { text: "b" }] });
  for (const m of report.markers) assert.equal(answer.slice(m.span.start, m.span.end), m.raw);
});

test("a CitationValidator applies its options to every answer", () => {
  const validator = new CitationValidator({ policy: "flag", renumber: true });
  const input = { answer: "Claim one here [2]. Claim two here [5].", sources: [{ text: "a" }, { text: "b" }] };
  const report = validator.validate(input);
  assert.equal(report.cleanedAnswer, input.answer, "flag leaves the answer untouched");
  assert.deepEqual(report.segments.filter((s) => s.type === "cite").map((s) => s.valid), [true, false]);
  assert.ok(report.timingMs >= 0);
  validator.free();
});

test("claim support: opt-in; misattributed (named) with misattributionMargin, unsupported and uncited with supportThreshold, none with misattributionMargin: false; evidence sentences", () => {
  const sources = [
    { title: "Eiffel", text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris. It was designed by the engineering company of Gustave Eiffel and is made of wrought iron." },
    { title: "Berlin", text: "Berlin is the capital and largest city of Germany. The Berlin Wall divided the city from 1961 until it fell in November 1989, leading to German reunification in 1990." },
  ];
  const answer = "The Berlin Wall fell in November 1989 [1]. The tower in Paris was completed in 1889 [1]. Berlin is the largest city of Germany.";
  const byDefault = validate({ answer, sources });
  assert.deepEqual(byDefault.findings, [], "opt-in");
  assert.ok(byDefault.citations.every((c) => c.support === undefined && c.evidence === undefined), "not scored by default");
  const margin = { misattributionMargin: 0.25 };
  const misattributed = validate({ answer, sources }, margin);
  assert.deepEqual(misattributed.findings.map((f) => f.code), ["misattributed"]);
  assert.match(misattributed.findings[0].message, /^did you mean \[2\]\?/);
  // Each scored citation carries its source's best-matching sentence, located in the
  // source's text in UTF-16 units.
  const { evidence } = misattributed.citations[1];
  assert.equal(evidence.text, "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.");
  assert.equal(sources[0].text.slice(evidence.span.start, evidence.span.end), evidence.text);
  const off = validate({ answer, sources }, { misattributionMargin: false });
  assert.ok(off.citations.every((c) => c.support === undefined && c.evidence === undefined), "off");
  assert.deepEqual(off.findings, []);
  assert.throws(() => validate({ answer, sources }, { misattributionMargin: true }), (e) => e.code === "invalid_option" && /misattributionMargin: expected a number from 0 to 1, or false/.test(e.message));
  const report = validate({ answer, sources }, { supportThreshold: 0.5, ...margin });
  assert.deepEqual(report.findings.map((f) => f.code), ["unsupported_claim", "misattributed", "uncited_claim"]);
  assert.match(report.findings[1].message, /^did you mean \[2\]\?/);
  const [wall, tower] = report.citations;
  assert.ok(wall.support < 0.5 && tower.support >= 0.5, `${wall.support} ${tower.support}`);
  assert.equal(report.status, "warn");
});

test("memory stays flat over repeated validate calls after warm-up", async () => {
  const { memoryBytes } = require(join(pkgDir, "node", "citeproof.js"));
  const answers = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const run = (n) => {
    for (let i = 0; i < n; i++) validate(answers[i % answers.length], i % 2 ? { supportThreshold: 0.5 } : undefined);
  };
  run(3 * answers.length); // every input size seen: the allocator has its high-water mark
  const before = memoryBytes();
  run(20 * answers.length);
  assert.equal(memoryBytes(), before, "linear memory grew: something is kept between calls");
});

test("a field given under two of its names is refused, naming both (as the CLI's serde refuses it)", () => {
  const refused = (input, path, names) =>
    assert.throws(
      () => validate(input),
      (e) => e.code === "invalid_input" && e.message === `input.${path}: given twice, as \`${names[0]}\` and as \`${names[1]}\`: give one`,
      path,
    );
  // (A source's text is the exception, read by precedence: tests/js/providers-retrieval.test.mjs.)
  refused({ answer: "x [1]", sources: [{ doc_title: "a", section_title: "b" }] }, "sources[0].doc_title", ["doc_title", "section_title"]);
  refused({ answer: "x [1]", sources: [{}], citations: [{ source: 1, claim: "a", claim_text: "b" }] }, "citations[0].claim", ["claim", "claim_text"]);
  refused({ answer: "x [1]", sources: [{}], citations: [{ span: { start: 0, end: 1 }, source: 1, index: 1 }] }, "citations[0].source", ["source", "index"]);
  refused({ answer: "x", sources: [], topK: 3, top_k: 3 }, "topK", ["topK", "top_k"]);
  // null under the other name is absent, as everywhere.
  assert.equal(validate({ answer: "x [1]", sources: [{ text: "a", content: null }] }).status, "pass");
});

test("sources labelled from 0 (index: 0): [0] names the first in a marker, a stream and a declared citation", () => {
  const sources = [{ index: 0, text: "Water boils at 100 °C." }, { index: 1, text: "Tokyo is the capital." }];
  const answer = "Water boils at 100 °C [0]. Tokyo is the capital [1].";
  const report = validate({ answer, sources });
  assert.deepEqual(report.findings, []);
  assert.deepEqual(report.citations.map((c) => c.sourceIndex), [0, 1]);
  const stream = new CitationStream({ sources });
  stream.push(answer);
  const streamed = stream.finish().report;
  assert.deepEqual(streamed.findings, []);
  assert.deepEqual(streamed.citations.map((c) => c.sourceIndex), [0, 1]);
  const declared = validate({ answer, sources, citations: [{ source: 0, quote: "boils at 100" }, { source: 1 }] }, { policy: "flag" });
  assert.deepEqual(declared.findings, []);
  assert.equal(declared.citations[0].declared, 0);
  assert.equal(declared.citations[0].quote.match, "exact");
  // Without a source labelled 0, [0] is zero_index, as before.
  assert.deepEqual(validate({ answer, sources: [{ text: "a" }, { text: "b" }] }).findings.map((f) => f.code), ["zero_index"]);
});


test("sources' own labels: a label two sources have is a warning, an out-of-range message names the labels, a stream says the same", () => {
  const sources = [{ index: 3, text: "Water boils at 100 °C." }, { index: 3, text: "Tokyo is the capital." }, { index: 9, text: "Rust is a language." }];
  const report = validate({ answer: "Water boils at 100 °C [3]. Tokyo is the capital [4].", sources });
  const outOfRange = "source 4 does not exist: 3 sources were retrieved, labelled 3 to 9 (not every number between)";
  assert.deepEqual(report.findings.map((f) => [f.code, f.severity, f.message]), [
    ["out_of_range", "error", outOfRange],
    ["duplicate_label", "warning", "sources[0] and sources[1] are both labelled 3 (a source's label is its index, else its position + 1); citations of 3 name sources[0]"],
  ]);
  assert.equal(report.citations[0].sourcePosition, 0);
  const stream = new CitationStream({ sources });
  stream.push("Tokyo is the capital [4].");
  const streamed = stream.finish().report;
  assert.ok(streamed.findings.some((f) => f.message === outOfRange), JSON.stringify(streamed.findings));
});

test("relevances outside 0–1 (BM25 scores) are one warning, and confidence reads none of them", () => {
  const answer = "Water boils at 100 °C [1].";
  const report = validate({ answer, sources: [{ text: "Water boils at 100 °C.", relevance: 14.2 }, { text: "b", relevance_score: 0.5 }, { text: "c", relevance: 3 }] });
  assert.deepEqual(report.findings.map((f) => [f.code, f.severity, f.message]), [
    ["invalid_field", "warning", "sources[0].relevance: 14.2 is outside 0–1 (and 1 more outside it); the relevances are on another scale, and confidence reads none of them"],
  ]);
  // 0.7 + 0.1 for grounded citations, as with no relevance; reading 0.5 alone would give 0.6.
  assert.equal(report.confidence, 0.8);
  assert.equal(report.status, "pass");
  // In 0–1, they are read: a mean of 0.5 gives 0.5 + 0.1.
  assert.equal(validate({ answer, sources: [{ text: "Water boils at 100 °C.", relevance: 0.5 }] }).confidence, 0.6);
});
