// validateAsync's `judge` hook with stand-in judges: what it is handed (each claim with
// the sources its support reads: those it cites and at most 8 others sharing its words,
// in one call; a bounded number of pairs however many sources), how its probabilities
// are blended, a judge that is always right (the report follows it where the words
// mislead), bad judges (clear errors), and a judge together with `embed`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, validateAsync } = require(join(pkgDir, "node", "citeproof.js"));

// The first source repeats the claim's words and denies it; the second says it in other
// words. Labels are the sources' own `index` (7 and 9), the third source has no text.
const sources = [
  { index: 7, title: "Rumour", text: "It is false that the Berlin Wall fell in 1989; the wall fell much later, people say." },
  { index: 9, title: "History", text: "In November 1989 the barrier dividing the German capital was opened and torn down." },
  { index: 11, title: "Link only", url: "https://example.org" },
];
const answer = "The Berlin Wall fell in 1989 [7]. Crowds tore down the barrier dividing the German capital [9].";
const input = { answer, sources };

/** The truth for this answer: each claim is supported by the History passage only. */
const truth = (pair) => (pair.passage === sources[1].text ? 1 : 0);

/** Runs validateAsync on `input` with a judge answering `answer(pair)`; the pairs it got. */
async function pairsJudged(input, options = {}, answer = () => 0.5) {
  const calls = [];
  await validateAsync(input, {
    ...options,
    judge: async (pairs) => {
      calls.push(pairs);
      return pairs.map(answer);
    },
  });
  assert.equal(calls.length, 1);
  return calls[0];
}

test("judge is called once with each cited claim paired with the sources its support reads, its cited ones first", async () => {
  // Each claim without its marker. The first cites 7 and shares "1989" with 9; the second
  // cites 9 and shares no word with 7, which its support never reads; the third source
  // has no text.
  const [first, second] = ["The Berlin Wall fell in 1989.", "Crowds tore down the barrier dividing the German capital."];
  assert.deepEqual(await pairsJudged(input), [
    { claim: first, passage: sources[0].text, sourceIndex: 7 },
    { claim: first, passage: sources[1].text, sourceIndex: 9 },
    { claim: second, passage: sources[1].text, sourceIndex: 9 },
  ]);
});

test("the judge's pairs grow with the claims, not with claims × sources", async () => {
  // 30 of 300 sources share the claim's words: the cited one and 8 others are judged.
  const many = Array.from({ length: 300 }, (_, i) => ({
    text: i % 10 === 0 ? `Page ${i}: the Eiffel Tower in Paris was completed in 1889.` : `Page ${i}: rice is cooked in water.`,
  }));
  const one = await pairsJudged({ answer: "The Eiffel Tower was completed in 1889 [201].", sources: many });
  assert.equal(one.length, 9, JSON.stringify(one.map((p) => p.sourceIndex)));
  assert.equal(one[0].sourceIndex, 201, "the cited source first");
  assert.ok(one.slice(1).every((p) => (p.sourceIndex - 1) % 10 === 0), "the others share its words");
  assert.ok(one.every((p) => p.claim === "The Eiffel Tower was completed in 1889."));
  // 40 claims over 4,000 sources: at most their cited source and 8 more each (160,000
  // pairs if every claim met every source).
  const sources = Array.from({ length: 4000 }, (_, i) => ({ text: `Record ${i} notes that item${i} weighs ${i} grams and ships from depot${i % 7}.` }));
  const answer = Array.from({ length: 40 }, (_, c) => `Item${c * 97} weighs ${c * 97} grams [${c * 97 + 1}].`).join(" ");
  const pairs = await pairsJudged({ answer, sources });
  assert.ok(pairs.length >= 40 && pairs.length <= 40 * 9, `${pairs.length} pairs`);
  for (let c = 0; c < 40; c++) {
    assert.ok(pairs.some((p) => p.sourceIndex === c * 97 + 1 && p.claim === `Item${c * 97} weighs ${c * 97} grams.`), `claim ${c} with its cited source`);
  }
});

test("a sentence the answer repeats is judged once per source, and its verdict counts for every repetition", async () => {
  const repeated = { answer: "The Berlin Wall fell in 1989 [7]. The Berlin Wall fell in 1989 [9]. The Berlin Wall fell in 1989 [7].", sources };
  const pairs = await pairsJudged(repeated, {}, truth);
  assert.deepEqual(
    pairs.map((p) => [p.claim, p.sourceIndex]),
    [["The Berlin Wall fell in 1989.", 7], ["The Berlin Wall fell in 1989.", 9]],
  );
  const report = await validateAsync(repeated, { judge: async (asked) => asked.map(truth) });
  // The History passage (9) is right for every repetition; the Rumour (7) wrong for each.
  const [first, second, third] = report.citations.map((c) => c.support);
  assert.ok(second >= 2 / 3 && first <= 1 / 3 && third === first, `${first} ${second} ${third}`);
  const texts = [];
  await validateAsync(repeated, { embed: async (t) => (texts.push(...t), t.map(() => [1, 0])) });
  assert.deepEqual(texts, ["The Berlin Wall fell in 1989.", ...sources.filter((s) => s.text).map((s) => s.text), ""]);
});

test("a judge may answer with a typed array (a model's output), as ArrayLike<number> allows", async () => {
  const asArray = await validateAsync(input, { judge: async (pairs) => pairs.map(truth) });
  const asTyped = await validateAsync(input, { judge: async (pairs) => Float32Array.from(pairs.map(truth)) });
  assert.deepEqual(asTyped.citations.map((c) => c.support), asArray.citations.map((c) => c.support));
  await assert.rejects(
    validateAsync(input, { judge: async () => new Float32Array([0.5]) }),
    (e) => e.code === "invalid_input" && /^judge: expected an array of 3 probabilities/.test(e.message),
  );
});

test("a judge's probability weighs twice the lexical score", async () => {
  const lexical = validate(input, { supportThreshold: 0.5 }).citations.map((c) => c.support);
  const sure = await validateAsync(input, { judge: async (pairs) => pairs.map(() => 1) });
  const round = (x) => Math.round(x * 1000) / 1000;
  assert.deepEqual(sure.citations.map((c) => c.support), lexical.map((l) => round((l + 2) / 3)));
  const synchronous = await validateAsync(input, { judge: (pairs) => pairs.map(() => 0) });
  assert.deepEqual(synchronous.citations.map((c) => c.support), lexical.map((l) => round(l / 3)));
});

test("with a judge that is always right, the report follows it where the words mislead", async () => {
  // By words alone the denial wins: the wrong citation passes and the right passage is
  // no better by the margin.
  const lexical = validate(input, { supportThreshold: 0.5, misattributionMargin: 0.25 });
  assert.equal(lexical.citations[0].warnings.length, 0, JSON.stringify(lexical.citations[0].warnings));
  const report = await validateAsync(input, { judge: async (pairs) => pairs.map(truth), misattributionMargin: 0.25 });
  const [wall, crowds] = report.citations;
  assert.deepEqual(wall.warnings.map((w) => w.code), ["unsupported_claim", "misattributed"]);
  assert.match(wall.warnings[1].message, /^did you mean \[9\]\?/);
  assert.deepEqual(crowds.warnings, []);
  assert.ok(crowds.support >= 2 / 3 && wall.support <= 1 / 3, `${crowds.support} ${wall.support}`);
  assert.equal(crowds.evidence.text, sources[1].text);
});

test("a judge and an embedder together: a cosine weighs 1, a probability 2, the lexical score 1", async () => {
  const lexical = validate(input, { supportThreshold: 0.5 }).citations.map((c) => c.support);
  const report = await validateAsync(input, {
    embed: async (texts) => texts.map(() => [1, 0]),
    judge: async (pairs) => pairs.map(truth),
  });
  const round = (x) => Math.round(x * 1000) / 1000;
  assert.deepEqual(report.citations.map((c) => c.support), [round((lexical[0] + 1 + 0) / 4), round((lexical[1] + 1 + 2) / 4)]);
});

test("bad judges fail with codes, and the next call works", async () => {
  const refuses = (judge, path, message) =>
    assert.rejects(validateAsync(input, { judge }), (e) => e.code === "invalid_input" && e.message.startsWith(`${path}: `) && message.test(e.message));
  await refuses(async () => [0.5], "judge", /expected an array of 3 probabilities, one per pair/);
  await refuses(async () => "yes", "judge", /expected an array of 3 probabilities/);
  await refuses(async (pairs) => pairs.map(() => 1.5), "judge[0]", /expected a probability from 0 to 1, got 1\.5/);
  await refuses(async (pairs) => pairs.map((_, i) => (i === 2 ? Number.NaN : 0)), "judge[2]", /got NaN/);
  await refuses(async (pairs) => pairs.map(() => "0.9"), "judge[0]", /got string/);
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  await refuses(() => revoked.proxy, "judge", /revoked Proxy/);
  await assert.rejects(validateAsync(input, { judge: async () => { throw new Error("judge offline"); } }), /judge offline/);
  assert.throws(() => validateAsync(input, { judge: 1 }), (e) => e.code === "invalid_option" && /^options\.judge: expected a function \(pairs\) => Promise<probabilities>/.test(e.message));
  assert.equal((await validateAsync(input, { judge: async (pairs) => pairs.map(() => 1) })).markers.length, 2);
});
