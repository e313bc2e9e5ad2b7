// Parse throughput through the wasm API in Node, side by side with a JS baseline that
// only matches /\[(\d+)\]/g (the specs' approach), with a JS peer that does the same job
// as citeproof (markdown-it, then that regex on its text tokens outside links: what a JS
// app needs to skip code and links), and with the native crate, in one run.
//
//   node benches/parse.mjs            (needs pkg/node: node scripts/build-pkg.mjs node)
//   node benches/parse.mjs --no-native
//   node benches/parse.mjs --baseline OTHER/pkg/node/citeproof.js   (another build, e.g. the
//        last commit's, measured in the same rounds: a regression check)
//
// The last wasm row is not a parser: it copies each answer into a buffer with
// `TextEncoder.encodeInto` and nothing else — the least any parser in wasm pays.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import MarkdownIt from "markdown-it";
import { citeproof, dataset, root } from "./common.mjs";

const { parseCitations, CitationParser } = citeproof();
const answers = dataset("answers-val.jsonl").map((row) => row.answer);
const bytes = answers.reduce((n, a) => n + Buffer.byteLength(a), 0);

/** The naive baseline a user would write: the same marker objects, one regex. */
function naiveParse(text) {
  const out = [];
  for (const m of text.matchAll(/\[(\d+)\]/g)) {
    out.push({ span: { start: m.index, end: m.index + m[0].length }, refs: [Number(m[1])], kind: "numeric", raw: m[0] });
  }
  return out;
}

/**
 * The JS peer: markdown-it's tokens (code spans, fences and code blocks are not text),
 * the regex on each text token outside a link. No spans: markdown-it gives none for
 * inline text, which is one thing citeproof adds.
 */
const md = new MarkdownIt();
function markdownItParse(text) {
  const out = [];
  for (const block of md.parse(text, {})) {
    if (block.type !== "inline") continue;
    let inLink = 0;
    for (const token of block.children) {
      if (token.type === "link_open") inLink++;
      else if (token.type === "link_close") inLink--;
      else if (token.type === "text" && inLink === 0) {
        for (const m of token.content.matchAll(/\[(\d+)\]/g)) out.push({ refs: [Number(m[1])], kind: "numeric", raw: m[0] });
      }
    }
  }
  return out;
}

/**
 * The floor of any parser in wasm: copying the answer into the module's memory as UTF-8
 * (what the binding does first), with no scanning and no objects built.
 */
const encoder = new TextEncoder();
const copyTarget = new Uint8Array(3 * Math.max(...answers.map((a) => a.length)));
const copyOnly = (a) => ({ length: encoder.encodeInto(a, copyTarget).written });

const parser = new CitationParser();
const contenders = {
  "naive JS regex": (a) => naiveParse(a),
  "JS peer: markdown-it + the regex on text outside links": (a) => markdownItParse(a),
  "citeproof wasm parseCitations": (a) => parseCitations(a),
  "citeproof wasm CitationParser": (a) => parser.parse(a),
  "floor: the UTF-8 copy into wasm alone (encodeInto)": copyOnly,
};
const baselineAt = process.argv.indexOf("--baseline");
if (baselineAt > 0) {
  const other = createRequire(import.meta.url)(resolve(process.argv[baselineAt + 1]));
  contenders["baseline build parseCitations"] = (a) => other.parseCitations(a);
}

/** Seconds per pass over all answers: the median of rounds of ≥ 200 ms, interleaved. */
function measure() {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  let sink = 0;
  for (let round = 0; round < 15; round++) {
    for (const [name, fn] of Object.entries(contenders)) {
      let passes = 0;
      const start = process.hrtime.bigint();
      let elapsed = 0;
      while (elapsed < 0.2) {
        for (const a of answers) sink += fn(a).length;
        passes++;
        elapsed = Number(process.hrtime.bigint() - start) / 1e9;
      }
      samples[name].push(elapsed / passes);
    }
  }
  if (sink === 0) throw new Error("nothing parsed");
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.sort((a, b) => a - b)[v.length >> 1]]));
}

for (const fn of Object.values(contenders)) for (const a of answers) fn(a); // warm-up
const perPass = measure();
const rows = Object.entries(perPass).map(([name, secs]) => ({
  name,
  mbPerS: bytes / secs / 1e6,
  answersPerS: answers.length / secs,
}));
if (!process.argv.includes("--no-native")) {
  const out = execFileSync("cargo", ["bench", "--quiet", "--bench", "parse", "--", "--json"], { cwd: root, encoding: "utf8" });
  const native = JSON.parse(out.trim().split("\n").pop());
  rows.push({ name: "citeproof native (Rust)", mbPerS: native.mbPerS, answersPerS: native.answersPerS });
}
const baseline = rows[0].mbPerS;
const peer = rows[1].mbPerS;
console.log(`parse throughput, ${answers.length} ExpertQA answers (${bytes} B), ${cpus()[0].model}, node ${process.version}`);
console.log("| contender | MB/s | answers/s | × naive regex | × JS peer |");
console.log("|---|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.name} | ${r.mbPerS.toFixed(1)} | ${Math.round(r.answersPerS)} | ${(r.mbPerS / baseline).toFixed(2)} | ${(r.mbPerS / peer).toFixed(2)} |`);
}
