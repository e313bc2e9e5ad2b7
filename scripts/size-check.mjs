// Prints the shipped wasm's size and fails above the budget (gzip -9).
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_GZIP = 150 * 1024; // issue 4's ceiling; the goal is 100 KB
const file = join(dirname(fileURLToPath(import.meta.url)), "..", "pkg", "web", "citeproof_bg.wasm");
const bytes = readFileSync(file);
const gzip = gzipSync(bytes, { level: 9 }).length;
console.log(`wasm size: ${bytes.length} B raw, ${gzip} B gzip -9 (budget ${BUDGET_GZIP} B)`);
if (gzip > BUDGET_GZIP) {
  console.error(`wasm over budget by ${gzip - BUDGET_GZIP} B`);
  process.exit(1);
}
