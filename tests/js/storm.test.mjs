// Hostile input through the JS API (issue 10): wrong types at every field, extreme
// sizes and shapes, regex bombs. Every case returns a result or throws an Error with a
// code; none traps; the costly shapes scale linearly (asserted as ratios of two sizes
// measured in the same process, not as absolute times).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { execFileSync, spawnSync } from "node:child_process";
import { pkgDir, root } from "./helpers.mjs";
import { assertLinear } from "./linear.mjs";
import { HOSTILE, LARGE, claimFor } from "./hostile.mjs";

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

/** Pushes `deltas` through a stream over `sources` and asserts its report's marker count. */
function streamAll(sources, deltas, markers) {
  const stream = new CitationStream({ sources }, { maxAnswerChars: 5e6 });
  for (const d of deltas) stream.push(d);
  assert.equal(stream.finish().report.markers.length, markers);
  stream.free();
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

test("costly shapes scale linearly: many markers, long answers, deep brackets, regex bombs", async (t) => {
  const sources = [{ text: "Some text." }];
  // The report-building shapes (validate over tens of thousands of markers) take 8.2-9.9x
  // for 8x natively, but up to 20x through wasm: materialising a report of 80,000
  // citations is about 600,000 JS objects, and V8's garbage collector took half the time
  // in a profile (docs/perf-log.md, "Inline constructs at a paragraph's end…"). So they
  // keep 10x the input in at most 25x the time (quadratic would be 100x).
  const reports = { grow: 10, limit: 25 };
  await assertLinear(t, "10k/100k markers", (k) => {
    const answer = "Claim [1] and [2]. ".repeat(5_000 * k);
    return { run: () => assert.equal(validate({ answer, sources }, { maxAnswerChars: 5e6 }).markers.length, 10_000 * k) };
  }, reports);
  // Shapes that were quadratic once: a claim per marker, markers past the list,
  // one claim holding every marker, a marker per line.
  for (const [what, unit] of [
    ["a sentence per marker", "Fact one [1]. "],
    ["out-of-range markers", "Fact [9]. "],
    ["one claim, every marker", "x [1]"],
    ["a marker per line", "Fact [1]\n"],
  ]) {
    await assertLinear(t, `10k/100k: ${what}`, (k) => {
      const answer = unit.repeat(10_000 * k);
      return { run: () => assert.equal(validate({ answer, sources }, { maxAnswerChars: 5e6 }).markers.length, 10_000 * k) };
    }, reports);
  }
  // A report of as many citations as markers above: natively 8.7-9.4x for 8x (memory
  // bound: a third of the time is allocation and copying), through wasm 8.5-9.2x alone
  // and 11.0-11.4x alternating with the small case in this harness (issue 22's session).
  await assertLinear(t, "2k/20k declared citations with spans", (k) => {
    const answer = "Claim here. ".repeat(2_000 * k);
    const citations = Array.from({ length: 2_000 * k }, (_, i) => ({ source: 1, span: { start: 12 * i, end: 12 * i + 11 } }));
    return { run: () => assert.equal(validate({ answer, sources, citations }, { maxAnswerChars: 5e6 }).summary.citationCoverage, 1) };
  }, reports);
  // Declared citations merged with the markers: a scan of every marker use per declared
  // citation made n of each cost n² (3.7x for 2x, a review). Two shapes: declared
  // citations of a source no marker names (each scanned them all), and declared
  // citations at the markers' spans (each scanned those before it).
  await assertLinear(t, "4k/40k declared citations of a source no marker names", (k) => {
    const n = 4_000 * k;
    const answer = "Claim here [1]. ".repeat(n);
    const citations = Array.from({ length: n }, () => ({ source: 2 }));
    const two = [{ text: "Claim here." }, { text: "Other text." }];
    return { run: () => assert.equal(validate({ answer, sources: two, citations }, { maxAnswerChars: 5e6 }).citations.length, 2 * n) };
  }, reports);
  // Sources that do not exist are matched by label in a scan, within a limit.
  await assertLinear(t, "4k/40k declared citations of missing sources, in the markers' reverse order", (k) => {
    const n = 4_000 * k;
    const answer = Array.from({ length: n }, (_, i) => `Claim [${100_000 + i}].`).join(" ");
    const citations = Array.from({ length: n }, (_, i) => ({ source: 100_000 + n - 1 - i }));
    return { run: () => assert.ok(validate({ answer, sources, citations }, { maxAnswerChars: 5e6 }).citations.length >= n) };
  }, reports);
  await assertLinear(t, "4k/40k declared citations at the markers' spans", (k) => {
    const n = 4_000 * k;
    const answer = "Claim here [1]. ".repeat(n);
    const citations = Array.from({ length: n }, (_, i) => ({ source: 1, span: { start: 16 * i + 11, end: 16 * i + 14 } }));
    return {
      run: () => {
        const report = validate({ answer, sources, citations }, { maxAnswerChars: 5e6 });
        assert.equal(report.citations.length, n);
        assert.equal(report.citations.at(-1).declared, n - 1);
      },
    };
  }, reports);
  // A code span opened by two backticks and never closed: each later push holding a
  // backtick decided everything since the opener again (30x for 8x, a review; 12.7x for
  // 4x on the build before). Only a run of two can close it, and a push is now read for
  // one.
  await assertLinear(t, "2k/16k pushes of a code span each after an unclosed double-backtick run", (k) => {
    const deltas = ["Intro [1] ``open ", ...Array.from({ length: 2_000 * k }, () => "x `y` [1] ")];
    return { run: () => streamAll(sources, deltas, 1 + 2_000 * k) };
  });
  // Deltas each ending on a code span's opener or closer: a closer at the text's end
  // leaves its span open until the next push, which went back to the first checkpoint
  // and decided every span since again (15.0x for 8x). A push that goes back now leaves
  // the checkpoint at what is still open after it.
  await assertLinear(t, "1k/8k code spans, their opener and closer each ending a delta", (k) => {
    const deltas = Array.from({ length: 1_000 * k }, () => ["x `", "y`", " [1] "]).flat();
    return { run: () => streamAll(sources, deltas, 1_000 * k) };
  });
  await assertLinear(t, "10k/80k markers pushed through a stream", (k) => {
    const deltas = "Fact [1] more. ".repeat(10_000 * k).match(/.{1,20}/gs);
    return { run: () => streamAll(sources, deltas, 10_000 * k) };
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
  // Declared citations with a spanInAnswer, absent from the answer or found in it: each
  // was searched for in the whole answer, four times when absent, and each found span
  // in every claim (61x and 24x for 8x: 0.7 s → 41.8 s absent). Now a found span cites the
  // claims it overlaps where it first occurs over one, and the searches share the request's
  // budget: n spans in an answer of length n cost n² until they have read 32 MiB and
  // 16 × the request's text (as quotes do, above): the larger size here reaches that,
  // the smaller comes near.
  for (const where of ["absent from", "found in"]) {
    await assertLinear(t, `1k/8k spanInAnswer ${where} an answer of as many claims`, (k) => {
      const n = 1_000 * k;
      const answer = Array.from({ length: n }, (_, i) => `Claim number ${i} holds for the whole of this long sentence.`).join(" ");
      const span = (i) => (where === "found in" ? `Claim number ${n - 1 - i} holds` : `Missing words ${i} here`);
      const citations = Array.from({ length: n }, (_, i) => ({ source: 1, spanInAnswer: span(i) }));
      const input = { answer, sources: [{ text: "Claim number holds." }], citations };
      return {
        run: () => {
          const report = validate(input, { maxAnswerChars: 5e6, supportThreshold: 0.5 });
          assert.equal(report.citations.length, n);
        },
      };
    });
  }
  // Chapter-and-section markers naming the last of many sources with chapters: each was
  // resolved by a scan of the sources (19x for 8x); the index has them by key now.
  await assertLinear(t, "2.5k/20k section markers over 1.25k/10k sources with chapters", (k) => {
    const n = 1_250 * k;
    const chaptered = Array.from({ length: n }, (_, i) => ({ chapter: `c${i}`, section: 1, text: "t" }));
    const answer = `Chapter c${n - 1}, Section 1. `.repeat(2_500 * k);
    return {
      run: () => {
        const report = validate({ answer, sources: chaptered }, { maxAnswerChars: 5e6 });
        assert.equal(report.citations.at(-1).sourceIndex, n);
      },
    };
  });
});

// Issue 36: an Anthropic search_result_location names its result by `source` and
// `search_result_index` and its blocks by a range that must hold the quote. A range far
// longer than its quote is not searched, and a result named by a wrong index is found
// through a map of the sources: n citations of a result of n blocks, or of the last of n
// results by index 0, cost n, not n² (the Rust adapters through wasm, and the JS ones).
const jsProviders = await import(pathToFileURL(join(pkgDir, "providers.js")));
function searchResultCitations(n, kind) {
  const block = (text) => ({ type: "text", text });
  const long = { type: "search_result", source: "kb/long", title: "Long", content: Array.from({ length: n }, (_, i) => block(`Block ${i} text.`)) };
  const results = Array.from({ length: n }, (_, i) => ({ type: "search_result", source: `kb/${i}`, title: `R${i}`, content: [block(`Result ${i}.`)] }));
  const citation = kind === "long range"
    ? { type: "search_result_location", source: "kb/long", title: "Long", cited_text: "words in no block", search_result_index: 0, start_block_index: 0, end_block_index: n }
    : { type: "search_result_location", source: `kb/${n - 1}`, title: `R${n - 1}`, cited_text: `Result ${n - 1}.`, search_result_index: 0, start_block_index: 0, end_block_index: 1 };
  return {
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: [long, ...results] },
      { type: "text", text: "Cited.", citations: Array.from({ length: n }, () => citation) },
    ],
  };
}
test("Anthropic search_result_location citations scale linearly: a long cited range, a result named by a wrong index", async (t) => {
  for (const kind of ["long range", "wrong index"]) {
    for (const [name, adapt] of [["wasm", fromAny], ["js", jsProviders.fromAny]]) {
      await assertLinear(t, `1k/8k citations, ${kind} (${name})`, (k) => {
        const response = searchResultCitations(1_000 * k, kind);
        return {
          run: () => {
            const input = adapt(response);
            assert.equal(input.citations.length, 1_000 * k);
            assert.equal(input.warnings, undefined);
          },
        };
      });
    }
  }
});

// The caller's sources are read once by their keys (URL, id, doc id, chunk id), and a
// Perplexity response's search results by their URL: n citations of the last of n given
// sources by its URL, or n `citations` URLs of n `search_results` listed in the other
// order, cost n, not n² (each citation searched every source or result before).
test("citations by URL scale linearly: of the caller's sources, of Perplexity's search results", async (t) => {
  const response = (n) => ({
    content: [{
      type: "text",
      text: "Cited.",
      citations: Array.from({ length: n }, () => ({ type: "web_search_result_location", url: `https://example.org/${n - 1}`, title: "Last", cited_text: "Last." })),
    }],
  });
  const sources = (n) => Array.from({ length: n }, (_, i) => ({ url: `https://example.org/${i}`, text: i === n - 1 ? "Last." : `Source ${i}.` }));
  for (const [name, adapt] of [["wasm", fromAny], ["js", jsProviders.fromAny]]) {
    await assertLinear(t, `1k/8k citations of 1k/8k sources (${name})`, (k) => {
      const [json, given] = [response(1_000 * k), sources(1_000 * k)];
      return {
        run: () => {
          const input = adapt(json, given);
          assert.equal(input.citations.length, 1_000 * k);
          assert.equal(input.citations.at(-1).source, 1_000 * k);
        },
      };
    });
    await assertLinear(t, `1k/8k citations URLs of 1k/8k search results (Perplexity, ${name})`, (k) => {
      const urls = Array.from({ length: 1_000 * k }, (_, i) => `https://example.org/${i}`);
      const json = {
        id: "pplx-1",
        model: "sonar",
        object: "chat.completion",
        citations: urls,
        search_results: urls.map((url, i) => ({ url, title: `Result ${i}`, snippet: `Snippet ${i}.` })).reverse(),
        choices: [{ index: 0, message: { role: "assistant", content: "Cited [1]." }, finish_reason: "stop" }],
      };
      return {
        run: () => {
          const input = adapt(json);
          assert.equal(input.sources.length, 1_000 * k);
          assert.equal(input.sources.at(-1).title, `Result ${1_000 * k - 1}`);
        },
      };
    });
  }
});

// n `citations` naming the URL of one search result of n/4 fields and an n-character
// snippet: the Rust adapter read the result's fields per citation (n², a search of its
// keys each time), and both copied the snippet per citation (n² characters for
// validation to read). The result now gives its title and text to its first four
// citations; later repeats carry the URL alone, as a URL without a result does. (500
// and 4,000 citations: at 4,000 and 32,000, making the sources alone took 10-11x in V8,
// its collections growing with them, whichever adapter made them.)
test("a Perplexity citations list repeating one URL scales linearly and copies its result four times", async (t) => {
  for (const [name, adapt] of [["wasm", fromAny], ["js", jsProviders.fromAny]]) {
    await assertLinear(t, `500/4k citations of one result of 125/1k fields (Perplexity, ${name})`, (k) => {
      const n = 500 * k;
      // The fields before the ones read: a search of the keys stops at the one it finds.
      const result = {};
      for (let i = 0; i < 125 * k; i++) result[`field${i}`] = i;
      Object.assign(result, { url: "https://example.org/one", title: "One", snippet: "s".repeat(n) });
      const json = {
        id: "pplx-1",
        model: "sonar",
        object: "chat.completion",
        citations: Array.from({ length: n }, () => result.url),
        search_results: [result],
        choices: [{ index: 0, message: { role: "assistant", content: "Cited [1] [5]." }, finish_reason: "stop" }],
      };
      return {
        run: () => {
          const input = adapt(json);
          assert.equal(input.sources.length, n);
          assert.deepEqual(input.sources.slice(3, 5), [
            { url: result.url, title: "One", text: result.snippet },
            { url: result.url },
          ]);
          assert.equal(input.sources.filter((s) => s.text !== undefined).length, 4);
        },
      };
    });
  }
});

// More lookups that were a search per item (twenty-fifth session): the UTF-16 offsets of
// quotes in one long source (a map of the source per citation, now one per source), an
// audit record's cited ids (a search of the list per citation), a response's parts of
// unknown types (a search of the names seen per part), and documents cited by title
// alone (a search of the caller's sources per citation). Each grows its items and its
// long text 8x: n², not n, before. And the offsets of n citations in a long part (an
// offset map of the part per citation in the Rust adapters; in JS, per citation when they
// alternate between parts).
const jsEdge = await import(pathToFileURL(join(pkgDir, "edge", "index.js")));
test("per-item lookups scale linearly: quotes in one long source, audit ids, unknown parts, documents by title", async (t) => {
  await assertLinear(t, "500/4k quotes in one source of 25/200 KB, UTF-16 offsets", (k) => {
    const text = "lörem ïpsum dolor sit amet. ".repeat(900 * k);
    const n = 500 * k;
    const input = { answer: "Claim one. ".repeat(n), sources: [{ text }], citations: Array.from({ length: n }, (_, i) => ({ source: 1, quote: "dolor sit amet", span: { start: i * 11, end: i * 11 + 10 } })) };
    return { run: () => assert.equal(validate(input, { supportThreshold: 0 }).citations.length, n) };
  });
  // Quotes absent from their source each read it in full, twice (exact, then
  // approximate): n of them in one source of length n cost n² until the request's reads
  // reach 32 MiB and 16 × its text; past that, a quote is unverified with a warning.
  await assertLinear(t, "500/4k quotes absent from one source of 25/200 KB", (k) => {
    const text = "lörem ïpsum dolor sit amet. ".repeat(900 * k);
    const n = 500 * k;
    const input = { answer: "Claim one. ".repeat(n), sources: [{ text }], citations: Array.from({ length: n }, (_, i) => ({ source: 1, quote: `quick brown fox jumps ${i}`, span: { start: i * 11, end: i * 11 + 10 } })) };
    return {
      run: () => {
        const report = validate(input, { supportThreshold: 0 });
        assert.equal(report.citations.length, n);
        assert.equal(report.citations[0].quote.match, "none");
        assert.equal(report.citations.at(-1).quote.match, k === 1 ? "none" : "unverified");
      },
    };
  });
  for (const [name, record] of [["wasm", api.auditRecord], ["js", jsEdge.auditRecord]]) {
    await assertLinear(t, `audit record of 1k/8k sources, each cited (${name})`, (k) => {
      const n = 1_000 * k;
      const input = { answer: Array.from({ length: n }, (_, i) => `Fact ${i} [${i + 1}].`).join(" "), sources: Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, text: `Fact ${i}.` })) };
      const report = validate(input, { supportThreshold: 0 });
      return { run: () => assert.equal(record(report, { input }).retrieval.cited_ids.length, n) };
    });
  }
  // One sentence carrying n markers is n citations of one claim of about 4n characters:
  // the record copied it whole into each (n², 86x for 8x in the Rust record). In UTF-8
  // offsets, the JS record walked the answer from its start for each claim (57x).
  for (const [name, record] of [["wasm", api.auditRecord], ["js", jsEdge.auditRecord]]) {
    await assertLinear(t, `audit record of one sentence carrying 20k/160k markers (${name})`, (k) => {
      const n = 20_000 * k;
      const input = { answer: `Ünïcode claim carrying one source${" [1]".repeat(n)}.`, sources: [{ id: "doc-1", text: "Ünïcode claim." }] };
      const report = validate(input, { supportThreshold: 0 });
      return {
        run: () => {
          const { citations } = record(report, { input });
          assert.equal(citations.length, n);
          assert.equal(citations[0].claim, input.answer);
          assert.equal(citations.at(-1).claim, `${[...input.answer].slice(0, 80).join("")}…`);
        },
      };
    });
    await assertLinear(t, `audit record of 4k/32k claims in UTF-8 offsets (${name})`, (k) => {
      const n = 4_000 * k;
      const input = { answer: Array.from({ length: n }, (_, i) => `Fäct ${i} [1].`).join(" "), sources: [{ id: "doc-1", text: "Fäct." }] };
      const report = validate(input, { supportThreshold: 0, offsets: "utf8" });
      return {
        run: () => {
          const { citations } = record(report, { input, offsets: "utf8" });
          assert.equal(citations.length, n);
          assert.equal(citations.at(-1).claim, `Fäct ${n - 1} [1].`);
        },
      };
    });
  }
  for (const [name, adapt] of [["wasm", fromAny], ["js", jsProviders.fromAny]]) {
    // Offsets that miss their text were searched for in the whole part (OpenAI's URL too,
    // before its offsets were read): n citations of a part of length n cost n² (21-54x
    // for 8x). They are searched for within 32 KiB of the offsets.
    // The offsets are at least 32 KiB from the text's ends: every search reads 64 KiB.
    await assertLinear(t, `250/2k Gemini supports missing their text in a part of 200 KB/1.6 MB (${name})`, (k) => {
      const n = 250 * k;
      const text = "Wässer kocht bei 100 °C. ".repeat(8_000 * k);
      const json = {
        candidates: [{
          content: { role: "model", parts: [{ text }] },
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.org/water", title: "Water" } }],
            groundingSupports: Array.from({ length: n }, (_, i) => ({ segment: { startIndex: 40_000 + i * 400, endIndex: 40_009 + i * 400, text: `Eis ${i} schmilzt` }, groundingChunkIndices: [0] })),
          },
        }],
      };
      return { run: () => assert.equal(adapt(json).warnings.length, n) };
    });
    await assertLinear(t, `250/2k OpenAI url_citations of URLs not in a text of 200 KB/1.6 MB (${name})`, (k) => {
      const n = 250 * k;
      const text = "Wässer kocht bei 100 °C. ".repeat(8_000 * k);
      const annotations = Array.from({ length: n }, (_, i) => ({ type: "url_citation", url: `https://example.org/${i}`, title: `${i}`, start_index: 40_000 + i * 400, end_index: 40_009 + i * 400 }));
      const json = { object: "response", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations }] }] };
      return {
        run: () => {
          const input = adapt(json);
          assert.equal(input.citations.length, n);
          assert.equal(input.warnings, undefined);
        },
      };
    });
    await assertLinear(t, `2k/16k parts of as many unknown types (${name})`, (k) => {
      const json = { type: "message", role: "assistant", content: [{ type: "text", text: "Answer." }, ...Array.from({ length: 2_000 * k }, (_, i) => ({ type: `future_block_${i}` }))] };
      return { run: () => assert.equal(adapt(json).warnings.length, 1) };
    });
    await assertLinear(t, `1k/8k Gemini supports alternating between two parts of 25/200 KB (${name})`, (k) => {
      const n = 1_000 * k;
      // Two parts of different texts: a map kept for the last text alone was made again
      // for each support.
      const said = "Wässer kocht";
      const [first, second] = ["bei 100 °C. ", "auf dem Herd. "].map((rest) => `${said} ${rest}`.repeat(1_000 * k));
      const json = {
        candidates: [{
          content: { role: "model", parts: [{ text: first }, { text: second }] },
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.org/water", title: "Water" } }],
            groundingSupports: Array.from({ length: n }, (_, i) => ({ segment: { partIndex: i % 2, startIndex: 0, endIndex: Buffer.byteLength(said), text: said }, groundingChunkIndices: [0] })),
          },
        }],
      };
      return {
        run: () => {
          const input = adapt(json);
          assert.equal(input.citations.length, n);
          assert.equal(input.warnings, undefined);
        },
      };
    });
    await assertLinear(t, `1k/8k citations by title of the last of 1k/8k documents (${name})`, (k) => {
      const n = 1_000 * k;
      const sources = Array.from({ length: n }, (_, i) => ({ title: `Document ${i}`, text: `Text ${i}.` }));
      const citation = { type: "char_location", cited_text: `Text ${n - 1}.`, document_title: `Document ${n - 1}`, start_char_index: 0, end_char_index: 5 };
      const json = { content: [{ type: "text", text: "Cited.", citations: Array.from({ length: n }, () => citation) }] };
      return { run: () => assert.equal(adapt(json, sources).citations.at(-1).source, n) };
    });
  }
});

// Issue 35: claim support scores each claim against the sources it cites and a bounded
// set of candidates from an index of the request's terms (src/support/), never against
// every source, so the hostile shapes (tests/js/hostile.mjs), which gave no answer in
// 10-30 s before, are linear.

// Each shape is asserted linear with support on: 8x the input takes at most 10x the time,
// through wasm (wall time, below) and natively (instructions, the test after it).
//
// Two causes made the shapes of one claim per source superlinear through wasm (10.6-15.3x
// on a loaded 2-core VM, 10.0-11.9x quiet) while their instructions grew about 8.7x: a
// claim's year, held by 1 in 100 sources, brought more candidates as the request grew (5
// blended at 500, 9 at 4,000), now cut by CANDIDATE_SHARE; and the claims' vocabulary and
// the term index were sized by their hashes counted with repeats (170,890 for 21,558
// distinct at 4,000: a 4 MB table and a 1 MB filter outside the cache), now by the
// distinct ones (HashList::distinct).
//
// The sizes timed through wasm. A wall-time ratio measures the algorithm only while both
// sizes run in the same memory regime. With one claim per source, a request of 4,000 holds
// about 13 MB of wasm memory (2.7 MB at 500) besides its JS report; above about 2,000
// sources the time per claim rises with the host's cache, not with the work: at 500/4,000,
// all cited took 9.4-9.6x on a quiet day and 9.6-10.5x with the host's neighbours busy
// (CI failed it in all three trials on 581a01b, which a clean-clone run had passed at
// 9.58x), while its instructions grow 8.58x; at 250/2,000 it takes 7.8-9.0x in the same
// minutes, ids 7.6-9.2x (docs/perf-log.md, "The storm's 4,000 sources: the host's cache"). One
// sentence citing every source is timed at 500/4,000: until the eighteenth session its
// markers were read as words of the claim, which below about 350 sources was shorter than
// MAX_CLAIM_BYTES, so each citation's cost grew with the request (250/2,000 took 10.9x);
// the claim is now read without them. The instruction counts below keep every shape at
// 500/4,000.
test("claim support scales linearly: every hostile shape", async (t) => {
  for (const [what, { make, timedFrom: from }] of Object.entries(HOSTILE)) {
    await assertLinear(t, `${from}/${(8 * from).toLocaleString("en")} sources: ${what}`, (k) => {
      const input = make(from * k);
      return {
        run: () => {
          const report = validate(input, LARGE);
          assert.equal(report.citations.length, from * k);
          assert.ok(report.citations.every((c) => typeof c.support === "number"), "every citation scored");
        },
      };
    });
  }
});

// The same shapes natively at 500 and 4,000 sources, counted in instructions under
// valgrind's callgrind (`examples/hostile_support`, the same inputs): a count no load and
// no cache moves, so the algorithm's growth is asserted at the larger sizes too. It took
// 8.58x (all cited), 7.47x (one sentence) and 8.47x (ids) at 581a01b.
test("claim support's instructions scale linearly natively: every hostile shape, 500/4,000 sources (callgrind)", (t) => {
  const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
  assert.equal(valgrind.status, 0, "valgrind is missing: bash scripts/setup.sh installs it (apt)");
  execFileSync("cargo", ["build", "--release", "--quiet", "--example", "hostile_support"], { cwd: root, stdio: "inherit" });
  const binary = join(root, "target", "release", "examples", "hostile_support");
  const count = (shape, n) => {
    const run = spawnSync("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", binary, shape, String(n)], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^${shape} ${n}: ${n} citations$`, "m"), "every citation made");
    const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
    assert.ok(refs, `no instruction count in: ${run.stderr}`);
    return Number(refs[1].replaceAll(",", ""));
  };
  for (const [what, { example: shape }] of Object.entries(HOSTILE)) {
    const small = count(shape, 500);
    const large = count(shape, 4000);
    const ratio = large / small;
    t.diagnostic(`${what}: ${small.toLocaleString("en")} -> ${large.toLocaleString("en")} instructions, ${ratio.toFixed(2)}x for 8x`);
    assert.ok(ratio <= 10, `${what}: 8x the input took ${ratio.toFixed(2)}x the instructions`);
  }
});

/**
 * Issue 35's stated budget for one hostile request at the default limit of 10,000
 * sources, through wasm with support on: 5 s on a 2-core VM, where the shapes took
 * 58-261 ms (and 314-462 ms in the CI run of 301bc30, before a claim's markers stopped
 * being read as its words; docs/support.md, "Bounded work"). Far above what they take,
 * so that a busy host does not fail it, and far below what a cost growing with claims ×
 * sources (10,000 × 10,000 pairs) would take.
 */
const HOSTILE_BUDGET_MS = 5_000;

test("10,000 sources (the default limit), each hostile shape: every citation scored within the budget, the own source found", (t) => {
  for (const [what, { make }] of Object.entries(HOSTILE)) {
    const input = make(10_000);
    const started = performance.now();
    const report = validate(input, LARGE);
    const ms = performance.now() - started;
    t.diagnostic(`${what}: ${ms.toFixed(0)} ms`);
    assert.ok(ms <= HOSTILE_BUDGET_MS, `${what}: ${ms.toFixed(0)} ms, over the ${HOSTILE_BUDGET_MS} ms budget`);
    assert.equal(report.citations.length, 10_000);
    assert.ok(report.citations.every((c) => typeof c.support === "number"), what);
  }
  // The candidates come from the index of the request's terms: a claim cited to the
  // wrong one of 10,000 sources is still told which source it means.
  const input = HOSTILE["every source cited by its own claim"].make(10_000);
  input.answer = input.answer.replace(`${claimFor(7_000)} [7001]`, `${claimFor(7_000)} [42]`);
  const moved = validate(input, LARGE).citations.find((c) => String(c.label) === "42" && c.claim && input.answer.slice(c.claim.start, c.claim.end).includes("item7000"));
  assert.ok(moved, "the moved citation");
  const finding = moved.warnings.find((w) => w.code === "misattributed");
  assert.ok(finding && finding.message.includes("[7001]"), JSON.stringify(moved.warnings));
});

test("10,000 sources through validateAsync with a judge: the judge gets a bounded number of pairs, within the budget", async (t) => {
  for (const [what, { make }] of Object.entries(HOSTILE)) {
    const input = make(10_000);
    let pairs = 0;
    const started = performance.now();
    const report = await api.validateAsync(input, {
      ...LARGE,
      judge: (asked) => {
        pairs = asked.length;
        return asked.map(() => 0.5);
      },
    });
    const ms = performance.now() - started;
    t.diagnostic(`${what}: ${pairs.toLocaleString("en")} pairs judged, ${ms.toFixed(0)} ms`);
    assert.ok(ms <= HOSTILE_BUDGET_MS, `${what}: ${ms.toFixed(0)} ms, over the ${HOSTILE_BUDGET_MS} ms budget`);
    assert.equal(report.citations.length, 10_000);
    assert.ok(report.citations.every((c) => typeof c.support === "number"), what);
    // Each cited source once, and at most 8 others per claim: never claims × sources.
    assert.ok(pairs >= 10_000 && pairs <= 10_000 + 8 * 10_000, `${what}: ${pairs} pairs`);
  }
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

// ---- Issue 21: lengths and limits before any element, revoked Proxies, throwing getters

/** A sparse array of 2^32 − 1 items, all holes but the last. */
function sparse() {
  const list = [];
  list[2 ** 32 - 2] = {};
  return list;
}

/** An array Proxy claiming `length` items; `reads` counts the items read through it. */
function claiming(length, item = () => ({})) {
  const proxy = new Proxy([], {
    get(target, key, receiver) {
      if (key === "length") return length;
      if (typeof key === "string" && /^\d+$/.test(key)) {
        proxy.reads += 1;
        return item(Number(key));
      }
      return Reflect.get(target, key, receiver);
    },
  });
  proxy.reads = 0;
  return proxy;
}

function revoked(target = {}) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/** Runs `f` within `ms`: a value, or an Error with a known code (`survives`). */
function bounded(f, what, ms = 1000) {
  const start = performance.now();
  const result = survives(f, what);
  const took = performance.now() - start;
  assert.ok(took < ms, `${what}: took ${took.toFixed(0)} ms`);
  return result;
}

/** Asserts that `f` throws an Error with `code` whose message starts with `path: `. */
function refuses(f, code, path, what) {
  const error = bounded(f, what);
  assert.ok(error instanceof Error, `${what}: gave a value, not an Error`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(error.message.startsWith(`${path}: `), `${what}: "${error.message}" does not start with ${path}`);
}

const REPORT = validate(BASE);
const RESPONSE = { choices: [{ message: { content: "Claim [1]." } }], citations: ["https://a.example/"] };

/**
 * Every list the API reads, as [what, call with `list` in place, path]: with a hostile
 * `list` each must throw too_large naming the path.
 */
const LISTS = [
  ["validate sources", (list) => validate({ answer: "a [1]", sources: list }), "input.sources"],
  ["validate citations", (list) => validate({ ...BASE, citations: list }), "input.citations"],
  ["validate warnings", (list) => validate({ ...BASE, warnings: list }), "input.warnings"],
  ["validate markerPatterns", (list) => validate(BASE, { markerPatterns: list }), "options.markerPatterns"],
  ["validateBatch inputs", (list) => validateBatch(list), "inputs"],
  ["validateBatch inputs[1].sources", (list) => validateBatch([BASE, { answer: "a", sources: list }]), "inputs[1].sources"],
  ["CitationStream sources", (list) => new CitationStream({ sources: list }), "input.sources"],
  ["CitationValidator citations", (list) => new api.CitationValidator().validate({ ...BASE, citations: list }), "input.citations"],
  ["citeproofTransform sources", (list) => api.citeproofTransform({ sources: list }), "input.sources"],
  ["parseCitations sourceIds", (list) => parseCitations("a [1]", { sourceIds: list }), "options.sourceIds"],
  ["parseCitations sources", (list) => parseCitations("a [1]", { sources: list }), "options.sources"],
  ["CitationParser markerPatterns", (list) => new api.CitationParser({ markerPatterns: list }), "options.markerPatterns"],
  ["formatContext", (list) => api.formatContext(list), "sources"],
  ["validateRequest sources", (list) => api.validateRequest({ question: "Why?", sources: list }), "request.sources"],
  ["fromAny sources", (list) => fromAny(RESPONSE, list), "sources"],
  ["fromAny response array", (list) => fromAny({ ...RESPONSE, citations: list }), "response.citations"],
  ["fromGemini nested array", (list) => api.fromGemini({ candidates: [{ content: { parts: list } }] }), "response.candidates[0].content.parts"],
  ["auditRecord report.citations", (list) => api.auditRecord({ ...REPORT, citations: list }), "report.citations"],
  ["auditRecord ctx.input.sources", (list) => api.auditRecord(REPORT, { input: { answer: "a", sources: list } }), "ctx.input.sources"],
  ["repairPrompt errors", (list) => api.repairPrompt({ ...REPORT, citations: [{ ...REPORT.citations[0], errors: list }] }), "report.citations[0].errors"],
  ["rejectionResponse report.citations", (list) => api.rejectionResponse({ ...REPORT, citations: list }), "report.citations"],
  ["Metrics.record report.citations", (list) => new api.Metrics().record({ ...REPORT, citations: list }), "report.citations"],
  ["renderHtml segments", (list) => renderHtml({ segments: list }), "report.segments"],
  ["renderHtml citations", (list) => renderHtml({ ...REPORT, citations: list }), "report.citations"],
  ["renderHtml sources", (list) => renderHtml(REPORT, { sources: list }), "options.sources"],
  ["citationTree refs", (list) => api.citationTree({ segments: [{ type: "cite", label: "[1]", refs: list }] }), "report.segments[0].refs"],
];

test("a sparse array or an Array of 2^32 - 1 items is refused as too_large by every list, before it is walked", () => {
  for (const [what, call, path] of LISTS) {
    refuses(() => call(sparse()), "too_large", path, `${what}: sparse`);
    refuses(() => call(new Array(2 ** 32 - 1)), "too_large", path, `${what}: new Array(2 ** 32 - 1)`);
  }
  assert.equal(validate(BASE).status, REPORT.status, "the instance works as before afterwards");
});

test("a Proxy claiming 2^32 - 1 items is refused without one item read", () => {
  for (const [what, call, path] of LISTS) {
    const list = claiming(2 ** 32 - 1);
    refuses(() => call(list), "too_large", path, `${what}: Proxy`);
    assert.equal(list.reads, 0, `${what}: read ${list.reads} items`);
  }
  // A line range is two numbers: a Proxy claiming more is a finding, and no item is read.
  const range = claiming(2 ** 32 - 1, () => 1);
  const report = validate({ ...BASE, citations: [{ source: 1, lineRange: range }] });
  assert.ok(report.findings.some((f) => f.code === "line_range_invalid"), "as for [1, 2, 3]");
  assert.equal(range.reads, 0);
});

test("a list at its limit is read item by item, once each; one more item and none is read", () => {
  const at = claiming(5);
  const report = validate({ answer: "Claim [5].", sources: at }, { maxSources: 5 });
  assert.equal(at.reads, 5, "each source read once");
  assert.equal(report.citations[0].sourceIndex, 5);
  const over = claiming(6);
  refuses(() => validate({ answer: "Claim [5].", sources: over }, { maxSources: 5 }), "too_large", "input.sources", "6 sources, maxSources 5");
  assert.equal(over.reads, 0);
  // Without an option of its own, a list holds at most 1,000,000 items (README, "Limits").
  const citations = claiming(1_000_001, () => 1);
  refuses(() => validate({ ...BASE, citations }), "too_large", "input.citations", "1,000,001 citations");
  assert.equal(citations.reads, 0);
  const patterns = Array.from({ length: 101 }, (_, i) => `\\{(?P<refs>\\d+)\\}${i}`);
  refuses(() => parseCitations("{1}0", { markerPatterns: patterns }), "too_large", "options.markerPatterns", "101 markerPatterns");
  assert.equal(parseCitations("{1}0", { markerPatterns: patterns.slice(0, 100) }).length, 1);
});

test("an answer or a delta over twice maxAnswerChars units is too_large uncopied; the stream goes on", () => {
  refuses(() => validate({ answer: "x".repeat(201), sources: [{}] }, { maxAnswerChars: 100 }), "too_large", "input.answer", "201 units");
  // Up to twice the limit in units, the characters are counted: 150 astral characters
  // are 300 units but 150 characters.
  assert.equal(validate({ answer: "😀".repeat(100), sources: [{}] }, { maxAnswerChars: 100, requireCitations: false }).status, "pass");
  refuses(() => validate({ answer: "😀".repeat(101), sources: [{}] }, { maxAnswerChars: 100 }), "too_large", "input.answer", "101 astral characters");
  const stream = new CitationStream({ sources: [{}] }, { maxAnswerChars: 100 });
  refuses(() => stream.push("x".repeat(201)), "too_large", "answer", "a 201-unit delta");
  assert.equal(stream.push("Claim [1].").text + stream.finish().text, "Claim [1].");
});

test("a revoked Proxy as an argument is an Error with a code and the argument's name", () => {
  const gone = revoked();
  const list = revoked([]);
  const report = REPORT;
  const cases = [
    [() => validate(gone), "invalid_input", "input"],
    [() => validate(BASE, gone), "invalid_option", "options"],
    [() => new api.CitationValidator(gone), "invalid_option", "options"],
    [() => new api.CitationValidator().validate(gone), "invalid_input", "input"],
    [() => validateBatch(list), "invalid_input", "inputs"],
    [() => validateBatch([BASE, gone]), "invalid_input", "inputs[1]"],
    [() => parseCitations("a [1]", gone), "invalid_option", "options"],
    [() => new api.CitationParser(gone), "invalid_option", "options"],
    [() => new CitationStream(gone), "invalid_input", "input"],
    [() => new CitationStream({}, gone), "invalid_option", "options"],
    [() => api.citeproofTransform(gone), "invalid_input", "input"],
    [() => api.citeproofTransform({}, gone), "invalid_option", "options"],
    [() => api.formatContext(list), "invalid_input", "sources"],
    [() => api.formatContext([], gone), "invalid_option", "options"],
    [() => api.citationSchema(gone), "invalid_option", "options"],
    [() => api.validateRequest(gone), "invalid_input", "request"],
    [() => api.repairPrompt(gone), "invalid_input", "report"],
    [() => api.repairPrompt(report, gone), "invalid_option", "ctx"],
    [() => api.rejectionResponse(gone), "invalid_input", "report"],
    [() => api.rejectionResponse(report, gone), "invalid_option", "ctx"],
    [() => api.auditRecord(gone), "invalid_input", "report"],
    [() => api.auditRecord(report, gone), "invalid_option", "ctx"],
    [() => new api.Metrics().record(gone), "invalid_input", "report"],
    [() => new api.Metrics().record(report, gone), "invalid_input", "repairedFrom"],
    [() => locateQuote("a", "a", gone), "invalid_option", "options"],
    [() => renderHtml(gone), "invalid_input", "report"],
    [() => renderHtml(report, gone), "invalid_option", "options"],
    [() => api.citationTree(gone), "invalid_input", "report"],
    [() => fromAny(gone), "invalid_input", "response"],
    [() => fromAny(RESPONSE, list), "invalid_input", "sources"],
    [() => fromAny(RESPONSE, undefined, gone), "invalid_option", "options"],
    [() => api.validateAsync(BASE, gone), "invalid_option", "options"],
    [() => api.validateAsync(BASE, { embed: revoked(() => []) }), "invalid_option", "options.embed"],
  ];
  for (const adapter of ["fromAnthropic", "fromOpenAI", "fromGemini", "fromCohere", "fromPerplexity", "fromVercelAI"]) {
    cases.push([() => api[adapter](gone), "invalid_input", "response"]);
  }
  for (const [call, code, path] of cases) refuses(call, code, path, `${call}`);
  assert.equal(validate(BASE).status, REPORT.status, "the instance works as before afterwards");
});

test("a revoked Proxy at any field is an Error with a code and the field's path", () => {
  const pathOf = (keys) => keys.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("");
  for (const keys of FIELDS) {
    const path = `input${pathOf(keys)}`;
    refuses(() => validate(withField(keys, revoked())), "invalid_input", path, path);
    refuses(() => new CitationStream(withField(keys, revoked())), "invalid_input", path, `stream ${path}`);
    refuses(() => validateBatch([BASE, withField(keys, revoked())]), "invalid_input", `inputs[1]${pathOf(keys)}`, `batch ${path}`);
  }
  for (const option of OPTIONS) {
    refuses(() => validate(BASE, { [option]: revoked() }), "invalid_option", `options.${option}`, `options.${option}`);
  }
  refuses(() => validate(BASE, { markerPatterns: ["(?P<refs>\\d)", revoked()] }), "invalid_option", "options.markerPatterns[1]", "a pattern");
  refuses(() => parseCitations("a", { sources: [{ id: revoked() }] }), "invalid_option", "options.sources[0].id", "a parse source id");
  refuses(() => api.formatContext([{}, { text: revoked() }]), "invalid_input", "sources[1].text", "formatContext");
  refuses(() => fromAny({ choices: [{ message: { content: "a [1]" } }], citations: ["https://a/", revoked()] }), "invalid_input", "response.citations[1]", "response");
  refuses(() => fromAny({ choices: [{ message: revoked() }] }), "invalid_input", "response.choices[0].message", "response message");
  refuses(() => api.auditRecord({ ...REPORT, citations: [revoked()] }), "invalid_input", "report.citations[0]", "auditRecord");
  refuses(() => api.auditRecord(REPORT, { input: { answer: "a", sources: [revoked()] } }), "invalid_input", "ctx.input.sources[0]", "ctx.input");
  refuses(() => api.repairPrompt({ ...REPORT, status: revoked() }), "invalid_input", "report.status", "report.status");
  refuses(() => renderHtml({ segments: [{ type: "text", text: "a" }, revoked()] }), "invalid_input", "report.segments[1]", "a segment");
  refuses(() => renderHtml({ segments: [{ type: "text", text: revoked() }] }), "invalid_input", "report.segments[0].text", "a segment's text");
  refuses(() => renderHtml(REPORT, { sources: [{ title: revoked() }] }), "invalid_option", "options.sources[0].title", "a source's title");
  refuses(() => api.citeproofTransform({ sources: [{ title: revoked() }] }), "invalid_input", "input.sources[0].title", "a transform source");
  refuses(() => api.citeproofTransform({}, { format: revoked() }), "invalid_option", "options.format", "the transform format");
});

test("a revoked Proxy or a hostile list from embed rejects validateAsync with a code", async () => {
  const input = { answer: "Water boils at 100 °C [1].", sources: [{ text: "Water boils at 100 °C." }] };
  const rejects = async (embed, code, path, what) => {
    await assert.rejects(api.validateAsync(input, { embed }), (e) => e instanceof Error && e.code === code && e.message.startsWith(`${path}: `), what);
  };
  await rejects(() => revoked([]), "invalid_input", "embed", "a revoked result");
  await rejects(async () => sparse(), "invalid_input", "embed", "a sparse result");
  await rejects(async (texts) => texts.map(() => revoked([])), "invalid_input", "embed[0]", "a revoked vector");
  await rejects(async (texts) => texts.map(() => sparse()), "too_large", "embed[0]", "a sparse vector");
  const vector = claiming(2 ** 32 - 1, () => 0.5);
  await rejects(async (texts) => texts.map(() => vector), "too_large", "embed[0]", "a Proxy vector");
  assert.equal(vector.reads, 0);
  const report = await api.validateAsync(input, { embed: async (texts) => texts.map(() => [1, 0]) });
  assert.equal(report.status, "pass", "the instance works as before afterwards");
});

/** `copy` with the field at `keys` turned into a getter that throws. */
function withThrowingGetter(keys) {
  const copy = structuredClone(BASE);
  let holder = copy;
  for (const key of keys.slice(0, -1)) holder = holder[key];
  Object.defineProperty(holder, keys[keys.length - 1], {
    get() {
      throw new Error("not loaded");
    },
    enumerable: true,
  });
  return copy;
}

/** A validate result as comparable data: the report without timing, or the error. */
function outcome(f) {
  try {
    return untimed(f());
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

test("a getter that throws at any field reads as if the field were absent", () => {
  for (const keys of FIELDS) {
    const absent = structuredClone(BASE);
    let holder = absent;
    for (const key of keys.slice(0, -1)) holder = holder[key];
    delete holder[keys[keys.length - 1]];
    const what = `input.${keys.join(".")}`;
    const expected = outcome(() => validate(absent));
    assert.deepEqual(bounded(() => outcome(() => validate(withThrowingGetter(keys))), what), expected, what);
  }
  // Outside validate: a report, options and sources read field by field, the renderer,
  // the transform's sources and an adapter's response.
  const report = { ...REPORT };
  Object.defineProperty(report, "cleanedAnswer", { get() { throw new Error("gone"); } });
  assert.equal(api.rejectionResponse(report).partial_response, "", "an absent cleanedAnswer");
  const options = { policy: "flag" };
  Object.defineProperty(options, "renumber", { get() { throw new Error("gone"); } });
  assert.deepEqual(untimed(validate(BASE, options)), untimed(validate(BASE, { policy: "flag" })));
  const segment = { type: "text" };
  Object.defineProperty(segment, "text", { get() { throw new Error("gone"); } });
  assert.equal(renderHtml({ segments: [segment, { type: "text", text: "kept" }] }), renderHtml({ segments: [{ type: "text" }, { type: "text", text: "kept" }] }));
  const input = { answer: "Claim [1].", get sources() { throw new Error("gone"); } };
  assert.ok(bounded(() => api.citeproofTransform(input), "a transform whose sources throw") instanceof TransformStream);
  const response = { ...RESPONSE, get citations() { throw new Error("gone"); } };
  refuses(() => fromAny(response), "invalid_input", "response", "a response getter that throws");
});
