// Issue 5's measurements, side by side in one run:
// 1. `validate` on a typical request (2 KB answer, 10 sources x 1 KB, 8 markers, 4
//    quotes of which 1 approximate) through the wasm API in Node, marshalling included,
//    with the native time (cargo bench --bench validate) beside it;
// 2. approximate quote location, citeproof `locateQuote` vs the npm package
//    `levenshtein-search`, on 2,000 quote/passage pairs from data/expertqa with 0-10%
//    random edits; both must agree on every distance. Quotes are 40-120 characters:
//    levenshtein-search enumerates every match within the distance and exhausts a 4 GB
//    heap on a 300-character quote with 30 edits, so longer quotes are timed for
//    citeproof alone;
// 3. claim support on a Chinese request (benches/chinese-request.json: ten passages of
//    about 0.9 KB and an answer of 1.6 KB citing eight of them, written for this bench),
//    where a letter is a word: 1.9× the words per KB of the typical request's sources.
//    Its KB are bytes of UTF-8, as the typical request's (nearly all ASCII) are.
//
//   node benches/validate.mjs [--no-native]     (needs pkg/node: node scripts/build-pkg.mjs node)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { citeproof, dataset as data, median, root } from "./common.mjs";

const { validate, locateQuote } = citeproof();
const { fuzzySearch } = createRequire(import.meta.url)("levenshtein-search");

let seed = 0x9e3779b9;
function random() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const letters = "abcdefghijklmnopqrstuvwxyz";
/** `count` random single-letter substitutions, insertions and deletions (no spaces). */
function edit(text, count) {
  let out = text;
  for (let i = 0; i < count; i++) {
    const at = 1 + Math.floor(random() * (out.length - 2));
    const letter = letters[Math.floor(random() * 26)];
    const op = Math.floor(random() * 3);
    if (op === 0) out = out.slice(0, at) + letter + out.slice(at + 1);
    else if (op === 1) out = out.slice(0, at) + letter + out.slice(at);
    else out = out.slice(0, at) + out.slice(at + 1);
  }
  return out;
}

// ---- 1. a typical request -------------------------------------------------------------
const answers = data("answers-val.jsonl");
const passages = answers.flatMap((a) => a.sources.map((s) => s.text).filter((t) => t && t.length >= 1000));
const sources = passages.slice(0, 10).map((text, i) => ({ title: `Source ${i + 1}`, url: `https://example.org/${i + 1}`, text: text.slice(0, 1000) }));
const sentences = answers.flatMap((a) => a.answer.replace(/\s*\[\d+\]/g, "").split(/(?<=\.)\s+/)).filter((s) => s.length > 60);
let answer = "";
for (let i = 0; answer.length < 2000; i++) {
  answer += `${sentences[i]}${i < 8 ? ` [${(i % 10) + 1}]` : ""} `;
}
const quote = (i) => sources[i].text.slice(200, 330);
const typical = {
  answer: answer.trim(),
  sources,
  citations: [
    { source: 1, quote: quote(0) },
    { source: 2, quote: quote(1) },
    { source: 3, quote: quote(2) },
    { source: 4, quote: edit(quote(3), 6) },
    ...[5, 6, 7, 8].map((source) => ({ source })),
  ],
};
// The second typical request, as a provider adapter gives it: no markers in the text,
// 8 declared citations with exact spans (UTF-16) over the cited sentences, 4 of them
// with quotes (one approximate).
let plain = "";
const spans = [];
for (let i = 0; plain.length < 2000; i++) {
  if (i < 8) spans.push({ start: plain.length, end: plain.length + sentences[i].length });
  plain += `${sentences[i]} `;
}
const declaredOnly = {
  answer: plain.trim(),
  sources,
  citations: spans.map((span, i) => ({
    source: i + 1,
    span,
    ...(i < 4 ? { quote: i === 3 ? edit(quote(3), 6) : quote(i) } : {}),
  })),
};
const report = validate(typical);
const approximate = report.citations.filter((c) => c.quote?.match === "approximate").length;
if (report.markers.length !== 8 || approximate !== 1) throw new Error(`typical request is off: ${report.markers.length} markers, ${approximate} approximate`);
for (let i = 0; i < 2000; i++) validate(typical);
const validateSamples = [];
for (let i = 0; i < 5000; i++) {
  const start = process.hrtime.bigint();
  validate(typical);
  validateSamples.push(Number(process.hrtime.bigint() - start) / 1000);
}
const wasmMedian = median(validateSamples);

// Claim support on the same request. It is opt-in (issue 35, docs/support.md): the
// defaults score nothing; `misattributionMargin: 0.3` scores every cited claim against
// its sources and a few candidates and gives it its evidence sentence. Per claim = the
// difference / the scored citations.
const scored = { misattributionMargin: 0.3 };
const unscored = { misattributionMargin: false };
const cited = validate(typical, scored).citations.filter((c) => c.support != null).length;
const timeOf = (options, request = typical) => {
  for (let i = 0; i < 300; i++) validate(request, options);
  const samples = [];
  for (let i = 0; i < 2000; i++) {
    const start = process.hrtime.bigint();
    validate(request, options);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return median(samples);
};
const withDefaults = timeOf(undefined);
const withSupport = timeOf(scored);
const withoutSupport = timeOf(unscored);
const declaredReport = validate(declaredOnly);
if (declaredReport.citations.length !== 8 || declaredReport.markers.length !== 0) throw new Error("the declared request is not what it claims");
const declaredDefaults = timeOf(undefined, declaredOnly);
const declaredWith = timeOf(scored, declaredOnly);
const declaredWithout = timeOf(unscored, declaredOnly);

// Where support's time goes (a diagnostic; the goal is the per-claim figure above): the
// same answer and sources cut nine ways (2, 4, 6 or 8 cited claims over the 10 KB of
// sources; 8 over sources cut to 250, 500 or 750 characters each; 2 over sources cut to
// 250 or 500), support's time (opted in less off) fitted by least squares as a cost per
// KB of source text, a cost per scored claim and a constant.
const markedAnswer = (claims) => {
  let text = "";
  for (let i = 0; text.length < 2000; i++) text += `${sentences[i]}${i < claims ? ` [${(i % 10) + 1}]` : ""} `;
  return text.trim();
};
const cuts = [
  ...[2, 4, 6, 8].map((claims) => [claims, 1000]),
  ...[250, 500, 750].map((chars) => [8, chars]),
  ...[250, 500].map((chars) => [2, chars]),
].map(([claims, chars]) => {
  const request = { answer: markedAnswer(claims), sources: sources.map((s) => ({ ...s, text: s.text.slice(0, chars) })) };
  const kb = request.sources.reduce((sum, s) => sum + s.text.length, 0) / 1000;
  const scoredClaims = validate(request, scored).citations.filter((c) => c.support != null).length;
  return [kb, scoredClaims, timeOf(scored, request) - timeOf(unscored, request)];
});
/** Least squares of `rows` ([x1, x2, y]) as y = a·x1 + b·x2 + c: [a, b, c]. */
function fit(rows) {
  const xs = rows.map(([x1, x2]) => [x1, x2, 1]);
  const m = [0, 1, 2].map((i) => [...[0, 1, 2].map((j) => xs.reduce((sum, x) => sum + x[i] * x[j], 0)), xs.reduce((sum, x, n) => sum + x[i] * rows[n][2], 0)]);
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 3; k++) {
      if (k === i) continue;
      const f = m[k][i] / m[i][i];
      for (let j = i; j < 4; j++) m[k][j] -= f * m[i][j];
    }
  }
  return m.map((row, i) => row[3] / row[i]);
}
const [perKb, perClaim, fixed] = fit(cuts);
// The same on real answers: the 153 ExpertQA answers with the sources each was written
// from, whose claims share far more with their sources than the typical request's
// (support on less off, over the whole set, median of 15 rounds).
const realScored = answers.reduce((n, a) => n + validate(a, scored).citations.filter((c) => c.support != null).length, 0);
const realKb = answers.reduce((n, a) => n + a.sources.reduce((m, s) => m + (s.text?.length ?? 0), 0), 0) / 1000;
const allAnswers = (options) => {
  const start = process.hrtime.bigint();
  for (const a of answers) validate(a, options);
  return Number(process.hrtime.bigint() - start) / 1000;
};
for (let i = 0; i < 10; i++) allAnswers(scored), allAnswers(unscored);
const realRounds = [];
for (let i = 0; i < 15; i++) realRounds.push(allAnswers(scored) - allAnswers(unscored));
const realSupport = median(realRounds);

// ---- 3. a Chinese request ---------------------------------------------------------------
const chinese = JSON.parse(readFileSync(join(root, "benches", "chinese-request.json"), "utf8"));
const chineseScored = validate(chinese, scored).citations.filter((c) => c.support != null).length;
if (chineseScored !== 8) throw new Error(`the Chinese request scores ${chineseScored} citations, not 8`);
const chineseKb = chinese.sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0) / 1000;
const chineseWith = timeOf(scored, chinese);
const chineseWithout = timeOf(unscored, chinese);

let nativeMedian = null;
if (!process.argv.includes("--no-native")) {
  const file = join(root, "target", "bench-typical-request.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(typical));
  const out = execFileSync("cargo", ["bench", "--quiet", "--bench", "validate", "--", file], { cwd: root, encoding: "utf8" });
  nativeMedian = JSON.parse(out.trim().split("\n").pop()).medianUs;
}

// ---- 2. approximate location vs levenshtein-search --------------------------------------
// Passages are folded first (lower case, one space, no emphasis/quote/dash variants) so
// both contenders compare the same characters: citeproof's normalisation is then a no-op.
const fold = (t) => t.toLowerCase().replace(/[*_`'"‘’“”–—-]/g, "").replace(/\s+/g, " ").trim();
const support = data("support-val.jsonl");
const pairs = [];
for (let pass = 0; pairs.length < 2000; pass++) for (const row of support) {
  const passage = fold(row.evidence);
  if (passage.length < 400) continue;
  const length = 40 + Math.floor(random() * 80);
  const start = Math.floor(random() * (passage.length - length));
  const original = passage.slice(start, start + length).trim();
  const edits = Math.floor(random() * (0.1 * original.length + 1));
  // Folded again: an edit can leave two spaces, which citeproof would fold and count.
  pairs.push({ quote: fold(edit(original, edits)), source: passage });
  if (pairs.length === 2000) break;
}
// The least distance, as a user of levenshtein-search gets it cheaply: the first
// distance at which any match exists (enumerating all matches is far slower).
const levenshteinBest = ({ quote, source }) => {
  for (let d = 0; d <= Math.floor(0.1 * quote.length); d++) {
    if (!fuzzySearch(quote, source, d).next().done) return d;
  }
  return null;
};
const citeproofBest = ({ quote, source }) => locateQuote(quote, source, { maxEditRatio: 0.1 }).distance ?? null;
let agree = 0;
for (const pair of pairs) if (levenshteinBest(pair) === citeproofBest(pair)) agree++;

function throughput(fn) {
  const rounds = [];
  for (let r = 0; r < 7; r++) {
    const start = process.hrtime.bigint();
    let done = 0;
    while (Number(process.hrtime.bigint() - start) < 3e8) {
      for (const pair of pairs.slice(0, 200)) fn(pair);
      done += 200;
    }
    rounds.push(done / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  return median(rounds);
}
const ours = throughput(citeproofBest);
const longPairs = [];
for (const row of support) {
  const passage = fold(row.evidence);
  if (passage.length < 600) continue;
  const length = 200 + Math.floor(random() * 300);
  const start = Math.floor(random() * (passage.length - length));
  const original = passage.slice(start, start + length).trim();
  longPairs.push({ quote: edit(original, Math.floor(random() * (0.1 * original.length + 1))), source: passage });
  if (longPairs.length === 200) break;
}
const longFound = longPairs.filter((p) => citeproofBest(p) !== null).length;
const longRounds = [];
for (let r = 0; r < 5; r++) {
  const start = process.hrtime.bigint();
  for (const pair of longPairs) citeproofBest(pair);
  longRounds.push(longPairs.length / (Number(process.hrtime.bigint() - start) / 1e9));
}
const theirs = throughput(levenshteinBest);

console.log(`citeproof validate & locate, ${cpus()[0].model}, node ${process.version}`);
console.log(`typical validate (${typical.answer.length} chars, 10 sources, 8 markers, 4 quotes / 1 approximate):`);
console.log(`  wasm via JS API: median ${wasmMedian.toFixed(1)} µs${nativeMedian === null ? "" : `; native: median ${nativeMedian.toFixed(1)} µs`}`);
console.log(`  defaults ${withDefaults.toFixed(1)} µs vs without support ${withoutSupport.toFixed(1)} µs: ${(withDefaults / withoutSupport).toFixed(2)}x (goal <= 2x)`);
console.log(`  claim support opted in (misattributionMargin: 0.3): ${withSupport.toFixed(1)} µs, ${(withSupport / withoutSupport).toFixed(2)}x; ${cited} scored citations: ${((withSupport - withoutSupport) / cited).toFixed(1)} µs per claim`);
console.log(`  support's time fitted over ${cuts.length} cuts of it (2-8 scored claims, 2.5-10 KB of sources; a diagnostic): ${perKb.toFixed(1)} µs per KB of source text + ${perClaim.toFixed(1)} µs per scored claim ${fixed < 0 ? "-" : "+"} ${Math.abs(fixed).toFixed(1)} µs`);
console.log(`  the ${answers.length} real ExpertQA answers with their sources (${realKb.toFixed(0)} KB, ${realScored} scored citations): support ${(realSupport / answers.length).toFixed(1)} µs an answer, ${(realSupport / realScored).toFixed(1)} µs per scored citation`);
console.log(`  a Chinese request (${Buffer.byteLength(chinese.answer)} B answer, ${chinese.sources.length} sources, ${chineseKb.toFixed(1)} KB, ${chineseScored} cited claims): without support ${chineseWithout.toFixed(1)} µs, opted in ${chineseWith.toFixed(1)} µs, ${(chineseWith / chineseWithout).toFixed(2)}x; ${((chineseWith - chineseWithout) / chineseScored).toFixed(1)} µs per claim, ${((chineseWith - chineseWithout) / chineseScored / ((withSupport - withoutSupport) / cited)).toFixed(2)}x the typical request's`);
console.log(`typical validate with declared citations (${declaredOnly.answer.length} chars, 10 sources, no markers, 8 declared citations with spans, 4 quotes / 1 approximate):`);
console.log(`  defaults ${declaredDefaults.toFixed(1)} µs vs without support ${declaredWithout.toFixed(1)} µs: ${(declaredDefaults / declaredWithout).toFixed(2)}x; opted in ${declaredWith.toFixed(1)} µs, ${(declaredWith / declaredWithout).toFixed(2)}x`);
console.log(`approximate location, ${pairs.length} pairs, distances agree on ${agree}/${pairs.length}:`);
console.log(`  citeproof locateQuote: ${Math.round(ours)} pairs/s`);
console.log(`  levenshtein-search:    ${Math.round(theirs)} pairs/s`);
console.log(`  ratio: ${(ours / theirs).toFixed(1)}x`);
console.log(`long quotes (200-500 chars, 0-10% edits), citeproof alone: ${Math.round(median(longRounds))} pairs/s, ${longFound}/${longPairs.length} found`);
if (agree !== pairs.length) process.exitCode = 1;
