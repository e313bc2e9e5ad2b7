// Typical `validate` through two builds of the package, alternated in one process: the
// ratio of their medians is what a change cost, free of the machine's drift between runs.
//
//   node benches/ab.mjs <old pkg dir> [<new pkg dir>, default pkg/]
//
// An old build: `git worktree add /tmp/old <commit> && ln -s "$PWD/node_modules"
// /tmp/old/node_modules && (cd /tmp/old && node scripts/build-pkg.mjs node --out /tmp/old-pkg)`.
// The request is the one benches/validate.mjs writes to target/bench-typical-request.json.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [oldDir, newDir = join(root, "pkg")] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: node benches/ab.mjs <old pkg dir> [<new pkg dir>]");
const builds = { old: require(join(resolve(oldDir), "node", "citeproof.js")), new: require(join(resolve(newDir), "node", "citeproof.js")) };
const typical = JSON.parse(readFileSync(join(root, "target", "bench-typical-request.json"), "utf8"));
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

for (const [name, options, calls] of [["misattributionMargin: false", { misattributionMargin: false }, 400], ["defaults", {}, 50]]) {
  for (const build of Object.values(builds)) for (let i = 0; i < 3000; i++) build.validate(typical, options);
  const samples = { old: [], new: [] };
  for (let round = 0; round < 40; round++) {
    const order = round % 2 ? ["old", "new"] : ["new", "old"];
    for (const which of order) {
      const started = performance.now();
      for (let i = 0; i < calls; i++) builds[which].validate(typical, options);
      samples[which].push(((performance.now() - started) * 1000) / calls);
    }
  }
  const [old, now] = [median(samples.old), median(samples.new)];
  console.log(`typical validate, ${name}: old ${old.toFixed(1)} µs, new ${now.toFixed(1)} µs, new/old ${(now / old).toFixed(3)}`);
}
