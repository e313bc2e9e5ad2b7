// The npm package's provider adapters are plain JS (pkg/providers/, docs/architecture.md
// §9); the crate's are Rust (src/providers/), exported by the full wasm module. Both read
// the same shapes, so they are held to the same results: on every vendored recording
// (tests/fixtures/providers/**), on each with its offsets asked in every unit, and on
// thousands of mutations of them (a value replaced by one of another type, a list cut),
// the two give deep-equal `Input`s and `validate` reports, or throw the same code and
// message. A difference names the recording and the first path where the two part,
// which tells what to port from one to the other. And validate(fromX(r)) never throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { ADAPTER, pkgDir, random, root, slots } from "./helpers.mjs";
import { listFixtures, originOf, readFixture } from "../reference/providers-expect.mjs";

const require = createRequire(import.meta.url);
const wasm = require(join(pkgDir, "node", "citeproof.js"));
const js = await import(pathToFileURL(join(pkgDir, "providers.js")));
const NAMES = [...new Set(Object.values(ADAPTER)), "fromAny"];

/** The recordings: `[name, response, sources]`. */
function recordings() {
  const dir = join(root, "tests", "fixtures", "providers");
  const made = readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.includes(".expect."))
    .map((f) => {
      const fixture = JSON.parse(readFileSync(join(dir, f), "utf8"));
      return [f, fixture.chunks ?? fixture, fixture._sources];
    });
  // (`anthropic-citations.sources.json` is the documents some requests sent, not a response.)
  const recorded = listFixtures()
    .filter((f) => ADAPTER[originOf(f).provider] && !f.endsWith(".yaml") && originOf(f).form !== "sources")
    .map((f) => {
      const text = readFixture(f);
      const response = f.endsWith(".chunks.txt")
        ? text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))
        : JSON.parse(text);
      return [`recorded/${f}`, response, undefined];
    });
  // Those responses again with the documents sent, as their caller has them: their
  // citations name a document by its title alone.
  const documents = Object.entries(JSON.parse(readFixture("anthropic-citations.sources.json"))).map(([f, sources]) => [
    `recorded/${f} with the documents sent`,
    JSON.parse(readFixture(f)),
    sources,
  ]);
  return [...made, ...recorded, ...documents];
}

/** The first path where `a` and `b` differ, with both values there; undefined when deep-equal. */
function firstDifference(a, b, path = "") {
  if (Object.is(a, b)) return undefined;
  const kind = (v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  if (kind(a) !== kind(b) || kind(a) !== "object" && kind(a) !== "array") return { path: path || "(top)", js: a, rust: b };
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const found = firstDifference(a[key], b[key], kind(a) === "array" ? `${path}[${key}]` : `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** What a call gives: `{ value }` or `{ error: { code, message } }`. */
function outcome(call) {
  try {
    return { value: call() };
  } catch (error) {
    return { error: { code: error.code, message: error.message } };
  }
}

const show = (v) => {
  // (A sparse list of 2^32 − 1 items has no JSON a string can hold.)
  if (Array.isArray(v) && v.length > 1000) return `[${v.length} items]`;
  try {
    return JSON.stringify(v)?.slice(0, 300);
  } catch {
    return String(v);
  }
};

/**
 * Asserts that the JS and Rust adapter `name` agree on `response`: the same Input (the
 * caller's sources aside: the JS adapter keeps them as given, the Rust one as it read
 * them, and `validate` reads both the same), the same report, or the same error.
 */
function agree(label, name, response, sources, options) {
  const ours = outcome(() => js[name](response, sources, options));
  const theirs = outcome(() => wasm[name](response, sources, options));
  const fail = (what, d) =>
    assert.fail(`${label}, ${name}: ${what} differ at ${d.path}: JS ${show(d.js)}, Rust ${show(d.rust)}`);
  // With the caller's sources, the Rust adapter says in the Input's warnings what
  // `validate` says of the JS one's (a source's text given twice, differently).
  const comparable = (input) => {
    if (!sources) return input;
    const warnings = input.warnings?.filter((w) => w.code !== "source_text_differs");
    return { ...input, sources: undefined, warnings: warnings?.length ? warnings : undefined };
  };
  const outcomeDiff = firstDifference(ours.error ?? comparable(ours.value), theirs.error ?? comparable(theirs.value));
  if (outcomeDiff) fail(ours.error || theirs.error ? "outcomes (error or Input)" : "Inputs", outcomeDiff);
  if (ours.error) return;
  if (sources) assert.deepEqual(ours.value.sources, sources, `${label}, ${name}: the caller's sources, as given`);
  // Fields in the same order too: the same JSON to the byte.
  else assert.equal(JSON.stringify(ours.value), JSON.stringify(theirs.value), `${label}, ${name}: the same JSON`);
  // validate(fromX(r)) never throws, and the report is Rust's.
  const options_ = { requireCitations: false, ...(options?.offsets ? { offsets: options.offsets } : {}) };
  const report = validate(ours.value, options_);
  const expected = validate(theirs.value, options_);
  // `timingMs` is the clock's.
  const byCode = (r) => ({ ...r, timingMs: undefined, findings: [...r.findings].sort((x, y) => (x.code + x.message < y.code + y.message ? -1 : 1)) });
  const reportDiff = firstDifference(byCode(report), byCode(expected));
  if (reportDiff) fail("reports", reportDiff);
}

/** `validate`, which must not throw on an adapter's Input. */
function validate(input, options) {
  try {
    return wasm.validate(input, options);
  } catch (error) {
    assert.fail(`validate threw ${error.code}: ${error.message} on ${show(input)}`);
  }
}

const all = recordings();

test("the corpus: every provider's recordings", () => {
  const providers = new Set(all.map(([, r, s]) => wasm.fromAny(r, s).provider));
  assert.deepEqual([...providers].sort(), ["anthropic", "bedrock", "cohere", "gemini", "openai", "perplexity", "vercel-ai"]);
});

for (const [label, response, sources] of all) {
  test(`${label}: the JS and Rust adapters give the same Input, report and errors`, () => {
    for (const name of NAMES) {
      agree(label, name, response, sources);
      for (const offsets of ["utf8", "codepoint"]) agree(`${label} (offsets ${offsets})`, name, response, sources, { offsets });
    }
  });
}

test("every recording with the caller's sources (reordered, one left out, ids under an alias, labelled by index): the same", () => {
  for (const [label, response] of all) {
    const listed = outcome(() => wasm.fromAny(response)).value?.sources ?? [];
    // The response's own sources as a caller would have retrieved them: the last first, the
    // first left out (its citations name a source the caller lacks), every other id as
    // `doc_id`, labels from 10.
    const sources = listed
      .slice(1)
      .reverse()
      .map(({ id, ...rest }, i) => ({ ...rest, ...(id === undefined ? {} : i % 2 ? { doc_id: id } : { id }), index: 10 + i }));
    for (const name of NAMES) agree(`${label} with its sources given`, name, response, sources);
  }
});

// Offsets that miss their text are searched for within 32 KiB (UTF-8) of them: around
// the window's edges, in text of one- to four-byte characters, both place the same span.
test("offsets that miss, their text at the edges of the 32 KiB searched: the same", () => {
  const said = "Wässer kocht 😀.";
  let compared = 0;
  for (const fill of ["a", "ü", "水", "😀"]) {
    const bytes = Buffer.byteLength(fill);
    for (const shift of [-2, -1, 0, 1, 2, 5]) {
      const before = fill.repeat(Math.max(0, Math.floor(32_768 / bytes) + shift));
      const text = `${before}${said} ${"b".repeat(40_000)}`;
      const gemini = {
        candidates: [{
          content: { role: "model", parts: [{ text }] },
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.org/water", title: "Water" } }],
            groundingSupports: [{ segment: { startIndex: 0, endIndex: Buffer.byteLength(said), text: said }, groundingChunkIndices: [0] }],
          },
        }],
      };
      agree(`gemini, ${fill} x ${before.length}`, "fromGemini", gemini);
      const [warning] = js.fromGemini(gemini).warnings;
      assert.equal(warning.span !== undefined, Buffer.byteLength(before) <= 32_768, `${fill} x ${before.length}: found`);
      const url = "https://example.org/water";
      const openai = {
        object: "response",
        output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: `${before}([Water](${url})) ${"b".repeat(40_000)}`, annotations: [{ type: "url_citation", url, title: "Water", start_index: 0, end_index: 5 }] }] }],
      };
      agree(`openai, ${fill} x ${before.length}`, "fromOpenAI", openai);
      compared += 2;
    }
  }
  assert.equal(compared, 48);
  // The window's start inside a character: the text at the start, the offsets 32 KiB
  // (and a few bytes) after it, so that the window begins in "Wä" or just past it.
  for (const fill of ["a", "水"]) {
    for (const shift of [-1, 0, 1, 2, 3, 4]) {
      const text = `${said} ${fill.repeat(40_000)}`;
      const at = 32_768 + shift;
      const gemini = {
        candidates: [{
          content: { role: "model", parts: [{ text }] },
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.org/water", title: "Water" } }],
            groundingSupports: [{ segment: { startIndex: at, endIndex: at + 3, text: said }, groundingChunkIndices: [0] }],
          },
        }],
      };
      agree(`gemini, window from byte ${shift}`, "fromGemini", gemini);
      const [warning] = js.fromGemini(gemini).warnings;
      // (Offsets inside a 水 are no place at all: searched for from the text's start.)
      if (fill === "a") assert.equal(warning.span !== undefined, shift <= 0, `window from byte ${shift}: found`);
    }
  }
});

const REPLACEMENTS = [null, 0, -1, 1.5, 1e20, "", "x", "https://a.example/", "😀", [], {}, true, { type: "text" }];

test("mutated recordings: the JS and Rust adapters give the same Input, report and errors", () => {
  const next = random(34);
  let compared = 0;
  for (const [label, response, sources] of all) {
    for (let round = 0; round < 40; round++) {
      const copy = structuredClone(response);
      const places = slots(copy);
      const changes = 1 + Math.floor(next() * 3);
      const made = [];
      for (let c = 0; c < changes && places.length > 0; c++) {
        const [parent, key] = places[Math.floor(next() * places.length)];
        if (Array.isArray(parent[key]) && next() < 0.3) {
          parent[key] = parent[key].slice(0, Math.floor(next() * parent[key].length));
          made.push(`${key} cut`);
        } else {
          const value = REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)];
          parent[key] = structuredClone(value);
          made.push(`${key} = ${show(value)}`);
        }
      }
      for (const name of [NAMES[Math.floor(next() * (NAMES.length - 1))], "fromAny"]) {
        agree(`${label} with ${made.join(", ")}`, name, copy, sources);
        compared++;
      }
    }
  }
  assert.ok(compared > 2000, `${compared} comparisons`);
});

test("bad arguments: the same error code and message from both", () => {
  const chat = { choices: [{ message: { content: "x" } }] };
  const cases = [
    [null],
    [5],
    ["text"],
    [{}],
    [[]],
    [[1, 2]],
    [{ candidates: [] }],
    [{ choices: [] }],
    [{ choices: [{}] }],
    [{ object: "chat.completion.chunk", choices: [] }],
    [{ candidates: [{ content: { parts: [{ text: "a" }] }, groundingMetadata: { groundingSupports: [{}] } }] }],
    [{ candidates: [{ content: { parts: [{ text: "a" }] }, groundingMetadata: { groundingSupports: [{ segment: { partIndex: 3, endIndex: 1 } }] } }] }],
    [[{ candidates: [{ content: { parts: [{ text: "a" }] } }] }, { candidates: [] }]],
    [{ output: [{ type: "message", content: [{ type: "output_text" }] }] }],
    [{ choices: [{ message: {} }], citations: ["https://a.example/"] }],
    [chat, 5],
    [chat, "sources"],
    [chat, {}],
    // Sources the wasm adapters refuse by their length or an item: the JS ones read a
    // sparse list's length once (spread, 2^32 − 1 holes took the process's memory).
    [chat, Object.assign([], { length: 2 ** 32 - 1 })],
    [chat, Object.assign([], { length: 2_000_000 })],
    [chat, Object.assign([], { length: 3 })],
    ...[null, 5, "s", [], () => 1].map((item) => [chat, [{ text: "a" }, item]]),
    // Two bad arguments: the sources are read first by both.
    [{}, [5]],
    [{}, Object.assign([], { length: 2_000_000 })],
    [chat, undefined, 5],
    [chat, undefined, []],
    [chat, undefined, { offsets: "bytes" }],
    [chat, undefined, { offsets: 8 }],
    [chat, undefined, { offset: "utf8" }],
    [chat, undefined, { offsets: "utf8", extra: 1 }],
    [chat, null, null],
    [{ toJSON: () => ({ choices: [{ message: { content: "via toJSON" } }] }) }],
    [{ big: 1n }],
    [Object.assign([], { length: 2_000_000 })],
    // Nested around the Rust JSON reader's limit (a value in 256 containers is read, in
    // 257 refused at its byte), after strings with brackets, quotes, escapes, non-ASCII.
    ...[253, 254, 255, 256].flatMap((n) => {
      const nest = (inner, wrap) => Array.from({ length: n }).reduce(wrap, inner);
      const chatWith = (x) => ({ choices: [{ message: { content: 'é 🐈 "[{\\', extra: "【\u2028]}", x } }] });
      return [
        [chatWith(nest(1, (v) => [v]))],
        [chatWith(nest([], (v) => [v]))],
        [chatWith(nest('s"]', (v) => ({ 'k"{': v })))],
        [[chatWith(1), nest(2, (v) => [1, { a: "x", b: v }])]],
      ];
    }),
  ];
  for (const [response, sources, options] of cases) {
    for (const name of NAMES) agree(`${show(response)} ${show(sources)} ${show(options)}`, name, response, sources, options);
  }
});
