// The README's demo: parse the bundled example answer with the built npm package and
// print every citation marker with its UTF-16 span and the source it names.
//
//   node examples/demo.mjs [answer.json]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { parseCitations } = createRequire(import.meta.url)(join(here, "..", "pkg", "node", "citeproof.js"));
const file = process.argv[2] ?? join(here, "example-answer.json");
const { question, answer, sources } = JSON.parse(readFileSync(file, "utf8"));

console.log(`Question: ${question}\n`);
const markers = parseCitations(answer);
console.log(`${markers.length} citation markers (spans are JS string indices):`);
for (const m of markers) {
  const named = m.refs.map((ref) => {
    const source = sources.find((s) => s.index === ref);
    return source ? `[${ref}] ${source.url}` : `[${ref}] no such source among ${sources.length}`;
  });
  const context = answer.slice(Math.max(0, m.span.start - 30), m.span.start).replace(/\s+/g, " ");
  console.log(`  ${m.raw.padEnd(6)} ${String(m.span.start).padStart(5)}..${String(m.span.end).padEnd(5)} ${m.kind.padEnd(8)} …${context}`);
  for (const line of named) console.log(`         -> ${line}`);
}
