// Issue 7's measurement: CitationStream through the wasm API in Node. Answers of 1 KB,
// 10 KB and 100 KB (real ExpertQA answers with their markers, repeated) are pushed in
// 20-character deltas; prints µs per push, the whole stream (pushes + finish) against
// one-shot `validate` on the same text, and µs per KB to show the cost is linear.
//
// Last, it counts `revise` events on technical answers with inline code.
//
//   node benches/stream.mjs        (needs pkg/node: node scripts/build-pkg.mjs node)
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { citeproof, dataset, median, root } from "./common.mjs";

const { validate, CitationStream } = citeproof();
const answers = dataset("answers-val.jsonl");
const sources = answers[0].sources;

/** About `bytes` of real answer text (answers joined by blank lines). */
function answerOf(bytes) {
  let text = "";
  for (let i = 0; text.length < bytes; i = (i + 1) % answers.length) text += answers[i].answer + "\n\n";
  return text.slice(0, bytes);
}

function deltas(text, size) {
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** Median wall time in ms of `run` over repetitions filling about `budgetMs`. */
function time(run, budgetMs = 1500) {
  run();
  const samples = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || samples.length < 5) {
    const t = performance.now();
    run();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

console.log(`CitationStream, 20-character deltas, through the wasm API (Node ${process.version}, ${cpus()[0].model})`);
console.log("answer   pushes   µs/push   stream ms   validate ms   stream/validate   stream µs/KB");
for (const size of [1_000, 10_000, 100_000]) {
  const answer = answerOf(size);
  const pieces = deltas(answer, 20);
  const streamMs = time(() => {
    const stream = new CitationStream({ sources });
    for (const piece of pieces) stream.push(piece);
    const end = stream.finish();
    if (!end.report) throw new Error("no report");
    stream.free();
  });
  // The pushes alone: the stream is made (sources read) outside the timed part.
  const pushSamples = [];
  for (let run = 0; run < 40; run++) {
    const stream = new CitationStream({ sources });
    const t = performance.now();
    for (const piece of pieces) stream.push(piece);
    pushSamples.push(performance.now() - t);
    stream.free();
  }
  const pushUs = (median(pushSamples.slice(5)) * 1000) / pieces.length;
  const validateMs = time(() => validate({ answer, sources }));
  console.log(
    `${String(size / 1000).padStart(4)} KB ${String(pieces.length).padStart(8)} ${pushUs.toFixed(2).padStart(9)} ${streamMs.toFixed(2).padStart(11)} ${validateMs.toFixed(2).padStart(13)} ${(streamMs / validateMs).toFixed(2).padStart(17)} ${((streamMs * 1000) / (size / 1000)).toFixed(0).padStart(14)}`,
  );
}

// Issue 21: how much a push holds back. For each answer, pushed in 7-character deltas,
// the most held after any push beyond the construct still being written (what the 256-
// byte bound is about) and in all (the construct included).
const FAMILIES = {
  "real answers, 10 KB": answerOf(10_000),
  "a label whose definition may come ([42] and [NaCl][KCl], [t][9]), 20 KB": `Salt [42] and [NaCl][KCl]. See [the table][9].${" More words about salts.".repeat(850)}`,
  "an unclosed <code> early, then invalid markers, 20 KB": `<code>x ${"Claim [9] here. ".repeat(1250)}`,
  "an unclosed backtick early, then invalid markers, 20 KB": `Run \`ls ${"Claim [9] here. ".repeat(1250)}`,
  "a stray [ every 300 bytes, 20 KB": `${"An aside [like this one".padEnd(300, " more")}`.repeat(67),
  "a link with a 1.5 KB destination": `See [the doc](https://a.example/${"x".repeat(1500)}) [9] after.`,
};
console.log("\nheld back after any push (UTF-16 units), 7-character deltas");
console.log("| answer | length | max beyond the construct | max in all | revisions |");
console.log("|---|---|---|---|---|");
for (const [name, answer] of Object.entries(FAMILIES)) {
  const stream = new CitationStream({ sources });
  let beyond = 0;
  let all = 0;
  let revisions = 0;
  for (const piece of deltas(answer, 7)) {
    const { events } = stream.push(piece);
    revisions += events.filter((e) => e.type === "revise").length;
    const { releasedThrough, undecidedFrom } = stream.held;
    const received = stream.answer.length;
    beyond = Math.max(beyond, (undecidedFrom ?? received) - releasedThrough);
    all = Math.max(all, received - releasedThrough);
  }
  stream.finish();
  stream.free();
  console.log(`| ${name} | ${answer.length} | ${beyond} | ${all} | ${revisions} |`);
}

// Issue 36: `revise` events (released text taken back: a flash in the UI) on technical
// answers with inline code (data/alpaca-eval-code: 288 real model answers with backticks,
// 25 with brackets inside inline code such as `v[0]`), pushed in 1-, 7- and 20-character
// deltas, with three sources (so `[0]` or `[4]` would be removed as markers), plain and
// renumbering. The ExpertQA answers above carry markers but rarely code.
const coded = readFileSync(join(root, "data", "alpaca-eval-code", "answers-with-code.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line).answer);
console.log(`\nrevisions on ${coded.length} technical answers with inline code`);
console.log("| deltas | options | answers revised | revise events |");
console.log("|---|---|---|---|");
for (const size of [1, 7, 20]) {
  for (const options of [{}, { renumber: true }]) {
    let revisedAnswers = 0;
    let revisions = 0;
    for (const answer of coded) {
      const stream = new CitationStream({ sources: [{}, {}, {}] }, options);
      let count = 0;
      for (const piece of deltas(answer, size)) count += stream.push(piece).events.filter((e) => e.type === "revise").length;
      if (stream.finish().revise) count += 1;
      stream.free();
      revisions += count;
      revisedAnswers += count > 0 ? 1 : 0;
    }
    console.log(`| ${size} | ${JSON.stringify(options)} | ${revisedAnswers} | ${revisions} |`);
  }
}
