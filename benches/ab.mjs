// Two or more builds of the package, alternated in one process: the ratio of their
// medians is what a change (or a build setting) costs, free of the machine's drift
// between runs. The jobs: parse every real answer, push a 10 KB answer into a stream in
// 20-character deltas (making and freeing the stream included), and the typical
// `validate` without and with claim support, and a Chinese request
// (benches/chinese-request.json) with claim support. Package directories are relative to the
// working directory.
//
//   node benches/ab.mjs <old pkg dir> [<new pkg dir>, default pkg/]
//   node benches/ab.mjs <pkg dir> <pkg dir> <pkg dir> ...   (ratios to the first)
//   node benches/ab.mjs --repeat <job> <n> <pkg dir>      (one job n times, untimed)
//
// `--repeat` is for counting instructions where the machine's load makes wall time
// useless: `valgrind --tool=callgrind node benches/ab.mjs --repeat stream 40 pkg`, less
// the same with n = 0 (the process and the data set up), per build. Jobs: parse, stream,
// validate (without support), defaults, support (claim support opted in), chinese (the
// Chinese request, support opted in).
//
// An old build: `git worktree add /tmp/old <commit> && ln -s "$PWD/node_modules"
// /tmp/old/node_modules && (cd /tmp/old && node scripts/build-pkg.mjs node --out /tmp/old-pkg)`.
// The browser core as a Node build: `node scripts/build-pkg.mjs node --no-default-features
// --out target/pkg-core`. The request is the one benches/validate.mjs writes to
// target/bench-typical-request.json.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataset, median, root } from "./common.mjs";

const require = createRequire(import.meta.url);
const repeat = process.argv[2] === "--repeat" ? process.argv.slice(3, 5) : undefined;
const dirs = process.argv.slice(repeat ? 5 : 2);
if (dirs.length === 0) throw new Error("usage: node benches/ab.mjs <old pkg dir> [<new pkg dir> ...]");
if (dirs.length === 1 && !repeat) dirs.push(join(root, "pkg"));
const builds = dirs.map((dir) => require(join(resolve(dir), "node", "citeproof.js")));
const typical = JSON.parse(readFileSync(join(root, "target", "bench-typical-request.json"), "utf8"));
const chinese = JSON.parse(readFileSync(join(root, "benches", "chinese-request.json"), "utf8"));

const rows = dataset("answers-val.jsonl");
const answers = rows.map((row) => row.answer);
let long = "";
for (let i = 0; long.length < 10_000; i++) long += answers[i] + "\n\n";
const deltas = [];
for (let at = 0; at < long.length; at += 20) deltas.push(long.slice(at, at + 20));

/** Each job runs `calls` units per sample; a sample's time is divided by `calls`. */
const jobs = [
  ["parse", "parse, the 153 real answers (µs per answer)", answers.length, (citeproof) => {
    for (const answer of answers) citeproof.parseCitations(answer);
  }],
  ["stream", "stream, 10 KB in 20-character pushes (µs per push)", deltas.length, (citeproof) => {
    const stream = new citeproof.CitationStream({ sources: rows[0].sources });
    for (const delta of deltas) stream.push(delta);
    stream.free();
  }],
  ["validate", "typical validate, misattributionMargin: false (µs)", 40, (citeproof) => {
    for (let i = 0; i < 40; i++) citeproof.validate(typical, { misattributionMargin: false });
  }],
  ["defaults", "typical validate, defaults (µs)", 8, (citeproof) => {
    for (let i = 0; i < 8; i++) citeproof.validate(typical, {});
  }],
  ["support", "typical validate, claim support opted in (misattributionMargin: 0.3) (µs)", 8, (citeproof) => {
    for (let i = 0; i < 8; i++) citeproof.validate(typical, { misattributionMargin: 0.3 });
  }],
  ["chinese", "a Chinese request, claim support opted in (misattributionMargin: 0.3) (µs)", 4, (citeproof) => {
    for (let i = 0; i < 4; i++) citeproof.validate(chinese, { misattributionMargin: 0.3 });
  }],
];

if (repeat) {
  const [key, times] = repeat;
  const found = jobs.find(([k]) => k === key);
  if (!found || !(Number(times) >= 0)) throw new Error(`--repeat <${jobs.map(([k]) => k).join("|")}> <n> <pkg dir>`);
  for (let i = 0; i < Number(times); i++) found[3](builds[0]);
  process.exit(0);
}

for (const [, name, calls, job] of jobs) {
  for (const build of builds) for (let i = 0; i < 20; i++) job(build);
  const samples = builds.map(() => []);
  for (let round = 0; round < 40; round++) {
    // Each round starts with another build, so none always runs first.
    for (let k = 0; k < builds.length; k++) {
      const which = (k + round) % builds.length;
      const started = performance.now();
      job(builds[which]);
      samples[which].push(((performance.now() - started) * 1000) / calls);
    }
  }
  const medians = samples.map(median);
  const cells = dirs.map((dir, i) => `${dir} ${medians[i].toFixed(2)}${i ? ` (${(medians[i] / medians[0]).toFixed(3)}×)` : ""}`);
  console.log(`${name}: ${cells.join(", ")}`);
}
