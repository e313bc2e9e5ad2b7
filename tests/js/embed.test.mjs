// validateAsync with a deterministic stand-in embedder: the plumbing (one call, the texts
// passed, the vectors' cosines blended into support) and its errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, validateAsync } = require(join(pkgDir, "node", "citeproof.js"));

const sources = [
  { title: "Eiffel", text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris." },
  { title: "Berlin", text: "The Berlin Wall divided the city from 1961 until it fell in November 1989." },
];
const input = { answer: "The Eiffel Tower was completed in 1889 [1]. The Berlin Wall fell in 1989 [1].", sources };

/** A stand-in embedder: `vectorOf(text)` per text, recording every call. */
function recorder(vectorOf) {
  const calls = [];
  const embed = async (texts) => {
    calls.push(texts);
    return texts.map(vectorOf);
  };
  return { calls, embed };
}

test("embed is called once with the cited claims (without their markers), then every source text", async () => {
  const { calls, embed } = recorder(() => new Float32Array([1, 0, 0]));
  await validateAsync(input, { embed });
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0], [
    "The Eiffel Tower was completed in 1889.",
    "The Berlin Wall fell in 1989.",
    sources[0].text,
    sources[1].text,
  ]);
});

test("cosines are blended half and half into the lexical support", async () => {
  const lexical = validate(input, { supportThreshold: 0.5 }).citations.map((c) => c.support);
  const same = await validateAsync(input, { embed: recorder(() => [1, 2, 3]).embed, misattributionMargin: 0.25 });
  const orthogonal = await validateAsync(input, {
    embed: recorder((t) => (sources.some((s) => s.text === t) ? [1, 0] : [0, 1])).embed,
  });
  const round = (x) => Math.round(x * 1000) / 1000;
  assert.deepEqual(same.citations.map((c) => c.support), lexical.map((l) => round(0.5 * l + 0.5)));
  assert.deepEqual(orthogonal.citations.map((c) => c.support), lexical.map((l) => round(0.5 * l)));
  // Orthogonal vectors halve every score: both claims fall below the default 0.5.
  assert.deepEqual(orthogonal.findings.map((f) => f.code), ["unsupported_claim", "unsupported_claim"]);
  // Identical vectors (cosine 1) lift both to at least 0.5, so nothing is unsupported,
  // but the lexical difference still names the better source for the Berlin claim.
  assert.deepEqual(same.findings.map((f) => f.code), ["misattributed"]);
  assert.match(same.findings[0].message, /^did you mean \[2\]\?/);
});

test("a vector holding NaN or an infinity counts as cosine 0, as orthogonal vectors do", async () => {
  const lexical = validate(input, { supportThreshold: 0.5 }).citations.map((c) => c.support);
  const round = (x) => Math.round(x * 1000) / 1000;
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
    const report = await validateAsync(input, {
      embed: recorder((t) => new Float32Array(sources.some((s) => s.text === t) ? [1, 0] : [bad, 1])).embed,
    });
    assert.deepEqual(report.citations.map((c) => c.support), lexical.map((l) => round(0.5 * l)), `${bad}`);
  }
});

test("a bag-of-words embedder lets the right source win and names it", async () => {
  const vocabulary = new Map();
  const bag = (text) => {
    const v = new Float32Array(256);
    for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      if (!vocabulary.has(w)) vocabulary.set(w, vocabulary.size % 256);
      v[vocabulary.get(w)] += 1;
    }
    return v;
  };
  const report = await validateAsync(input, { embed: recorder(bag).embed, misattributionMargin: 0.25 });
  const [eiffel, wall] = report.citations;
  assert.ok(eiffel.support >= 0.5 && wall.support < 0.5, `${eiffel.support} ${wall.support}`);
  assert.ok(report.findings.some((f) => f.code === "misattributed" && /did you mean \[2\]/.test(f.message)));
});

test("bad embedders and options fail with codes", async () => {
  assert.throws(() => validateAsync(input, {}), (e) => e.code === "invalid_option" && e.message === "options: expected an embed or a judge function");
  assert.throws(() => validateAsync(input, { embed: "model" }), (e) => e.code === "invalid_option" && /^options\.embed: expected a function/.test(e.message));
  await assert.rejects(validateAsync(input, { embed: async () => [[1]] }), (e) => e.code === "invalid_input" && /^embed:/.test(e.message));
  await assert.rejects(validateAsync(input, { embed: async (t) => t.map(() => "nope") }), (e) => e.code === "invalid_input" && /^embed\[0\]:/.test(e.message));
  await assert.rejects(validateAsync(input, { embed: async () => { throw new Error("model offline"); } }), /model offline/);
  // Items that are no numbers, and vectors of two lengths, are a broken embedder: read
  // as NaN and as mismatched dimensions, every cosine would be 0, with no error.
  for (const item of ["0.5", {}, null, true, 1n]) {
    await assert.rejects(
      validateAsync(input, { embed: async (t) => t.map((_, i) => (i === 1 ? [item, 1] : [1, 0])) }),
      (e) => e.code === "invalid_input" && e.message.startsWith("embed[1]: expected a Float32Array or an array of numbers"),
      `${typeof item}`,
    );
  }
  await assert.rejects(
    validateAsync(input, { embed: async (t) => t.map((_, i) => (i === 2 ? [1, 0, 0] : [1, 0])) }),
    (e) => e.code === "invalid_input" && e.message === "embed[2]: expected 2 numbers, as embed[0] has, got 3",
  );
  // An empty vector (an embedder's answer for an empty text) counts as cosine 0.
  const empty = await validateAsync(input, { embed: async (t) => t.map((_, i) => (i === 0 ? [] : [1, 0])) });
  assert.equal(empty.citations.length, 2);
  // The instance still works afterwards.
  assert.equal((await validateAsync(input, { embed: async (t) => t.map(() => [1]) })).markers.length, 2);
});
