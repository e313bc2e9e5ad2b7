// Hostile input through the JS API (issue 10): wrong types at every field, extreme
// sizes and shapes, regex bombs. Every case returns a result or throws an Error with a
// code; none traps; the costly shapes scale linearly (asserted as ratios of two sizes
// measured in the same process, not as absolute times).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const api = require(join(pkgDir, "node", "citeproof.js"));
const { validate, parseCitations, fromAny, validateBatch, locateQuote, CitationStream, renderHtml } = api;
const CODES = new Set(["invalid_input", "too_large", "invalid_option", "unknown_provider_format"]);

/** Runs `f`: a value, or an Error with a known code. Anything else fails the test. */
function survives(f, what) {
  try {
    return f();
  } catch (error) {
    assert.ok(error instanceof Error, `${what}: threw a non-Error ${error}`);
    assert.ok(!(error instanceof WebAssembly.RuntimeError), `${what}: trapped: ${error.message}`);
    assert.ok(CODES.has(error.code), `${what}: no known code on "${error.message}"`);
    return error;
  }
}

const WEIRD = [undefined, null, true, 0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 53 + 2, 1e308, "", "x", "\ud800", "\0",
  [], [null], [1, "a"], {}, { length: 3 }, () => 1, Symbol("s"), 10n, new Date(0), /re/, new Uint8Array(2)];

const BASE = {
  answer: "Water boils at 100 °C [1]. Tokyo [2].",
  sources: [{ title: "B", url: "https://b.example/", text: "Water boils at 100 °C." }, { id: "t", text: "Tokyo." }],
  citations: [{ source: 1, quote: "Water boils", lineRange: [1, 1], relevance: 0.9 }],
};
const FIELDS = [
  ["answer"], ["sources"], ["sources", 0], ["sources", 0, "text"], ["sources", 0, "index"], ["sources", 0, "relevance"],
  ["sources", 0, "chapter"], ["sources", 0, "firstLine"], ["citations"], ["citations", 0], ["citations", 0, "source"],
  ["citations", 0, "quote"], ["citations", 0, "lineRange"], ["citations", 0, "relevance"], ["citations", 0, "span"],
  ["citations", 0, "evidenceIdx"], ["question"], ["mode"], ["topK"], ["warnings"],
];
const OPTIONS = ["policy", "renumber", "offsets", "maxEditRatio", "supportThreshold", "quoteLength", "markerPatterns", "maxAnswerChars", "maxSources"];

function withField(path, value) {
  const copy = structuredClone(BASE);
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]] = value;
  return copy;
}

/** A report without its timing, for comparing two runs. */
const untimed = ({ timingMs, ...report }) => report;

test("a wrong value at every input and option field: a report or a coded Error", () => {
  const before = untimed(validate(BASE));
  let cases = 0;
  for (const path of FIELDS) {
    for (const value of WEIRD) {
      const result = survives(() => validate(withField(path, value)), `input.${path.join(".")} = ${String(value)}`);
      if (!(result instanceof Error)) assert.ok(["pass", "warn", "fail"].includes(result.status));
      cases++;
    }
  }
  for (const option of OPTIONS) {
    for (const value of WEIRD) {
      survives(() => validate(BASE, { [option]: value }), `options.${option} = ${String(value)}`);
      cases++;
    }
  }
  for (const value of WEIRD) {
    survives(() => parseCitations(value), `parseCitations(${String(value)})`);
    survives(() => fromAny(value), `fromAny(${String(value)})`);
    survives(() => validateBatch(value), `validateBatch(${String(value)})`);
    survives(() => locateQuote(value, "source"), `locateQuote(${String(value)})`);
    survives(() => new CitationStream(value), `new CitationStream(${String(value)})`);
    cases += 5;
  }
  assert.ok(cases > 700, `${cases} cases`);
  assert.deepEqual(untimed(validate(BASE)), before, "the instance works as before afterwards");
});

/** Milliseconds `f` takes when run `times` times in a row. */
function timed(f, times) {
  const start = performance.now();
  for (let i = 0; i < times; i++) f();
  return performance.now() - start;
}

const median = (samples) => [...samples].sort((a, b) => a - b)[samples.length >> 1];

/**
 * Asserts issue 21's goal: 8× the input costs at most 10× the time. Each size runs as
 * often as makes the 1× case take at least 5 ms (timer resolution and one-off pauses
 * stay small against that), the two sizes alternate seven times, and the medians are
 * compared. Each shape is a subtest of `t` (one slow shape does not hide the others'
 * figures), with its ratio in the diagnostics.
 */
function assertLinear(t, what, make) {
  return t.test(what, (shape) => {
    const small = make(1);
    const large = make(8);
    small.run(); // warm-up: compilation and first-call costs
    large.run();
    let times = 1;
    while (timed(small.run, times) < 5) times *= 2;
    const smallMs = [];
    const largeMs = [];
    for (let i = 0; i < 7; i++) {
      smallMs.push(timed(small.run, times));
      largeMs.push(timed(large.run, times));
    }
    const ratio = median(largeMs) / median(smallMs);
    shape.diagnostic(`8x the input took ${ratio.toFixed(2)}x the time (${times} run(s) per sample)`);
    assert.ok(ratio <= 10, `${what}: 8x the input took ${ratio.toFixed(1)}x the time`);
  });
}

test("costly shapes scale linearly: many markers, long answers, deep brackets, regex bombs", async (t) => {
  const sources = [{ text: "Some text." }];
  await assertLinear(t, "10k/80k markers", (k) => {
    const answer = "Claim [1] and [2]. ".repeat(5_000 * k);
    return { run: () => assert.equal(validate({ answer, sources }, { maxAnswerChars: 5e6 }).markers.length, 10_000 * k) };
  });
  // Shapes that were quadratic once: a claim per marker, markers past the list,
  // one claim holding every marker, a marker per line.
  for (const [what, unit] of [
    ["a sentence per marker", "Fact one [1]. "],
    ["out-of-range markers", "Fact [9]. "],
    ["one claim, every marker", "x [1]"],
    ["a marker per line", "Fact [1]\n"],
  ]) {
    await assertLinear(t, `10k/80k: ${what}`, (k) => {
      const answer = unit.repeat(10_000 * k);
      return { run: () => assert.equal(validate({ answer, sources }, { maxAnswerChars: 5e6 }).markers.length, 10_000 * k) };
    });
  }
  await assertLinear(t, "2k/16k declared citations with spans", (k) => {
    const answer = "Claim here. ".repeat(2_000 * k);
    const citations = Array.from({ length: 2_000 * k }, (_, i) => ({ source: 1, span: { start: 12 * i, end: 12 * i + 11 } }));
    return { run: () => assert.equal(validate({ answer, sources, citations }, { maxAnswerChars: 5e6 }).summary.citationCoverage, 1) };
  });
  await assertLinear(t, "10k/80k markers pushed through a stream", (k) => {
    const deltas = "Fact [1] more. ".repeat(10_000 * k).match(/.{1,20}/gs);
    return {
      run: () => {
        const stream = new CitationStream({ sources }, { maxAnswerChars: 5e6 });
        for (const d of deltas) stream.push(d);
        assert.equal(stream.finish().report.markers.length, 10_000 * k);
      },
    };
  });
  await assertLinear(t, "1/8 MB answer", (k) => {
    const answer = "Words without any marker at all, just text. ".repeat(23_000 * k);
    return { run: () => validate({ answer, sources }, { maxAnswerChars: 2e7, requireCitations: false }) };
  });
  await assertLinear(t, "unclosed brackets", (k) => {
    const answer = "[".repeat(20_000 * k) + "1]";
    return { run: () => parseCitations(answer) };
  });
  await assertLinear(t, "unclosed code spans and links", (k) => {
    const answer = "`x [1] ](".repeat(10_000 * k);
    return { run: () => parseCitations(answer) };
  });
  await assertLinear(t, "regex-bomb markerPatterns", (k) => {
    const answer = "a".repeat(20_000 * k) + "!";
    return { run: () => parseCitations(answer, { markerPatterns: ["(?P<refs>(a+)+)b"] }) };
  });
  await assertLinear(t, "many sources", (k) => {
    const many = Array.from({ length: 500 * k }, (_, i) => ({ id: `s${i}`, text: `text ${i}` }));
    return { run: () => validate({ answer: "Claim [s1] [1] [400].", sources: many }) };
  });
});

test("deep nesting and huge provider responses are refused or read, never a stack overflow", () => {
  let deep = {};
  for (let i = 0; i < 5_000; i++) deep = { candidates: [deep] };
  survives(() => fromAny(deep), "5,000-deep response");
  let nested = [];
  for (let i = 0; i < 100_000; i++) nested = [nested];
  survives(() => fromAny({ choices: [{ message: { content: "x" } }], citations: nested }), "100,000-deep array");
  const big = { choices: [{ message: { content: "Claim [1]. ".repeat(200_000) } }], citations: ["https://a.example/"] };
  const input = survives(() => api.fromPerplexity(big), "2 MB Perplexity answer");
  assert.equal(input.answer.length, 2_200_000);
  assert.equal(validate({ answer: "ok [1]", sources: [{}] }).status, "pass");
});

test("lone surrogates, NUL bytes and control characters round-trip where they are legal", () => {
  const answer = "a\ud800b [1] \0 c\udfff [2]\u0007.";
  const report = validate({ answer, sources: [{}, {}] });
  assert.equal(report.markers.length, 2);
  for (const m of report.markers) assert.match(answer.slice(m.span.start, m.span.end), /^\[\d\]$/);
  assert.equal(typeof renderHtml(report), "string");
});
