// The edge helpers in plain JS (pkg/edge/, citeproof/edge in a browser) against the full
// module's Rust ones (citeproof/edge in Node, workerd, Deno), in one process, on the
// reports of ExpertQA's 153 real answers: time per call of each, and the ratio JS / Rust.
//
//   node benches/edge.mjs     (needs pkg/node and pkg/edge: node scripts/build-pkg.mjs)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { pkgDir, root } from "../tests/js/helpers.mjs";

const rust = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const js = await import(pathToFileURL(join(pkgDir, "edge", "index.js")));

const cases = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => {
    const { id, question, answer, sources } = JSON.parse(line);
    const input = { answer, question, sources, sessionId: id };
    return { input, report: rust.validate(input, { requireCitations: false }) };
  });

const CALLS = {
  auditRecord: (h, { input, report }) => h.auditRecord(report, { input, auditId: "a", timestamp: "t" }),
  repairPrompt: (h, { input, report }) => h.repairPrompt(report, { input }),
  rejectionResponse: (h, { report }) => h.rejectionResponse(report, { auditId: "a" }),
  formatContext: (h, { input }) => h.formatContext(input.sources),
  validateRequest: (h, { input }) => h.validateRequest(input),
  "Metrics.record": (h, { report }, metrics) => metrics.record(report),
};

/** Microseconds per call of `call` over every case, the best of 5 rounds. */
function time(helpers, call) {
  const metrics = new helpers.Metrics();
  for (const c of cases) call(helpers, c, metrics); // warm-up
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 4; i++) for (const c of cases) call(helpers, c, metrics);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / (4 * cases.length));
  }
  return best;
}

console.log(`the edge helpers on ${cases.length} ExpertQA reports, µs per call (best of 5), Node ${process.version}`);
console.log("| helper | JS | Rust (wasm) | JS / Rust |");
console.log("|---|---|---|---|");
for (const [name, call] of Object.entries(CALLS)) {
  const [a, b] = [time(js, call), time(rust, call)];
  console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} |`);
}
