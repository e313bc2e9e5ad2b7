// The README's demo: validate the bundled example answer with the built npm package and
// print its markers (with UTF-16 spans), the findings, the gate and the cleaned answer.
//
//   node examples/demo.mjs [answer.json]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { validate } = createRequire(import.meta.url)(join(here, "..", "pkg", "node", "citeproof.js"));
const file = process.argv[2] ?? join(here, "example-answer.json");
const input = JSON.parse(readFileSync(file, "utf8"));
const { answer, sources } = input;

console.log(`Question: ${input.question}\n`);
const report = validate(input);
console.log(`${report.markers.length} citation markers (spans are JS string indices):`);
for (const m of report.markers) {
  const context = answer.slice(Math.max(0, m.span.start - 30), m.span.start).replace(/\s+/g, " ");
  const named = m.refs.map((ref) => sources.find((s) => s.index === ref)?.url ?? `no source ${ref} among ${sources.length}`);
  console.log(`  ${m.raw.padEnd(6)} ${String(m.span.start).padStart(5)}..${String(m.span.end).padEnd(5)} ${m.kind.padEnd(8)} …${context}`);
  for (const line of named) console.log(`         -> ${line}`);
}
console.log(`\nfindings:`);
for (const f of report.findings) {
  const at = f.span ? ` at ${answer.slice(f.span.start, f.span.end)}` : "";
  console.log(`  ${f.severity.padEnd(7)} ${f.code}${at}: ${f.message}`);
}
const s = report.summary;
console.log(`\ngate: ${report.status} — ${s.valid}/${s.total} citations valid, coverage ${s.citationCoverage}, confidence ${report.confidence}${report.uncertain ? " (uncertain)" : ""}, ${report.timingMs.toFixed(2)} ms`);
console.log(`\ncleaned answer:\n${report.cleanedAnswer}`);
