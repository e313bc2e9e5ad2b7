// What the Node benchmarks share: the repository root, the built package, the ExpertQA
// data beside the repository, and the median.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The package's Node build (pkg/node: `node scripts/build-pkg.mjs node`), or the one in
 * `$CITEPROOF_PKG/node` (relative to the repository root): the browser core is measured with
 * `node scripts/build-pkg.mjs node --no-default-features --out target/pkg-core` and
 * `CITEPROOF_PKG=target/pkg-core node benches/stream.mjs`.
 */
export const citeproof = () =>
  createRequire(import.meta.url)(join(resolve(root, process.env.CITEPROOF_PKG || "pkg"), "node", "citeproof.js"));

/** The rows of `data/expertqa/<file>` (JSON lines). */
export function dataset(file) {
  return readFileSync(join(root, "data", "expertqa", file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The median of `samples` (the upper one of an even count). */
export function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
