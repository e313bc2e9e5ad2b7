// The wasm memory one `validate` of each hostile shape of issue 35 leaves the instance
// holding (tests/js/hostile.mjs; claim support on), at 500, 4,000 and 10,000 sources:
// `memoryBytes()` before and after, in a fresh Node process per request (a wasm memory
// never shrinks, so one instance would report the largest request so far).
//   node benches/hostile-memory.mjs [sizes, comma-separated, e.g. 500,4000]
// What grows past the host's cache here is why the storm test times the all-cited and ids
// shapes at 250/2,000, not 500/4,000 (one sentence citing all at 500/4,000, for its claim
// cap; docs/perf-log.md, "The storm's 4,000 sources: the host's cache").
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { citeproof } from "./common.mjs";
import { HOSTILE, LARGE } from "../tests/js/hostile.mjs";

const [mode, shape, size] = process.argv.slice(2);
if (mode === "--one") {
  // The child: one request, then the memory it left.
  const { validate, memoryBytes } = citeproof();
  const input = HOSTILE[shape].make(Number(size));
  const before = memoryBytes();
  const report = validate(input, LARGE);
  if (report.citations.length !== Number(size)) {
    throw new Error(`${shape} at ${size} sources: ${report.citations.length} citations, expected ${size}`);
  }
  console.log(JSON.stringify({ before, after: memoryBytes() }));
} else {
  const sizes = (mode ?? "500,4000,10000").split(",").map(Number);
  if (!sizes.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(`sizes: positive whole numbers separated by commas (e.g. 500,4000), not "${mode}"`);
  }
  const mb = (n) => (n / 1e6).toFixed(1);
  console.log(`${"shape".padEnd(40)}${"sources".padStart(7)}  wasm MB before -> after`);
  for (const what of Object.keys(HOSTILE)) {
    for (const n of sizes) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--one", what, String(n)], { encoding: "utf8" });
      const { before, after } = JSON.parse(out);
      console.log(`${what.padEnd(40)}${String(n).padStart(7)}  ${mb(before).padStart(6)} -> ${mb(after)}`);
    }
  }
}
