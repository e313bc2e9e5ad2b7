// Prints, per entry of the package, the wasm module a browser downloads for it (and the
// JS it imports), and fails when a module is above its budget; measured with GNU
// `gzip -9` (Node's zlib, a Chromium fork, compresses this file about 2.4 % worse).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

// Ceilings, gzip -9, each the last measurement rounded up to the next KiB, so that any
// growth is a decision written down here and in BENCHMARKS.md (the figures and their
// history: docs/perf-log.md). A build that lost talc or the `browser` profile exceeds them.
//
// The full module of Node, workerd and Deno (web/, node/): every feature. Raised for
// issue 36's adapter fixes and issue 35's scoring, which browsers do not load.
const BUDGET_GZIP = 208 * 1024;
// The browser core with markerPatterns (bundler-patterns/: citeproof/patterns in a
// browser, the one entry that is a module of its own): regex-lite on top of the core.
const PATTERNS_BUDGET_GZIP = 135 * 1024;
// The core, which every other browser entry loads (`citeproof`, `/react`, `/edge`, `/full`):
// parse, validate (quotes, claim support), stream and render. Issue 35's ceiling: the
// core does not grow past 114 KiB; the goal is 100 KB.
const CORE_BUDGET_GZIP = 114 * 1024;
const CORE_GOAL = 100_000;

// Per entry, what a browser downloads: the wasm module it instantiates and the package's
// JS files it imports (followed from the entry through relative imports and the
// package's own exports, with the conditions a bundler for the browser uses). Node,
// workerd and Deno load the full module from web/ and node/.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const CONDITIONS = ["browser", "import", "default"];

/** The file of the package's export `subpath` for a browser bundler. */
function exported(subpath) {
  let target = manifest.exports[subpath];
  while (typeof target === "object") target = target[Object.keys(target).find((c) => CONDITIONS.includes(c))];
  return join(pkg, target);
}

/** The package's JS files `entry` imports, itself included, and the wasm modules among them. */
function graph(entry) {
  const files = new Set();
  const wasm = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*["']([^"']+)["']/g)) {
      if (spec.endsWith(".wasm")) wasm.add(join(dirname(file), spec));
      else if (spec.startsWith(".")) visit(join(dirname(file), spec));
      else if (spec === "citeproof" || spec.startsWith("citeproof/")) visit(exported(spec.replace(/^citeproof/, ".")));
    }
  };
  visit(exported(entry));
  return { files: [...files], wasm: [...wasm] };
}

const gzipSize = (file) => execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 64 * 1024 * 1024 }).length;
const entries = [
  [".", CORE_BUDGET_GZIP, CORE_GOAL],
  ["./react", CORE_BUDGET_GZIP, CORE_GOAL],
  ["./providers", CORE_BUDGET_GZIP, CORE_GOAL],
  ["./edge", 0], // plain JS in a browser: no wasm of its own
  ["./full", CORE_BUDGET_GZIP, CORE_GOAL],
  ["./patterns", PATTERNS_BUDGET_GZIP],
];
let over = false;
for (const [entry, budget, goal] of entries) {
  const { files, wasm } = graph(entry);
  const wasmGzip = wasm.reduce((sum, file) => sum + gzipSize(file), 0);
  const jsGzip = files.reduce((sum, file) => sum + gzipSize(file), 0);
  const name = `citeproof${entry.slice(1)}`;
  console.log(
    `${name} in a browser: wasm ${wasmGzip} B gzip -9 (${wasm.map((f) => f.slice(pkg.length + 1)).join(", ") || "none"}; budget ${budget} B` +
      `${goal ? `, goal ${goal} B` : ""}), JS ${jsGzip} B gzip -9 (${files.length} files)`,
  );
  if (wasmGzip > budget) {
    console.error(`  over budget by ${wasmGzip - budget} B`);
    over = true;
  }
}
// Per combination of entries an app imports, the wasm modules a browser downloads (issue
// 34: one per app). The provider adapters and the edge helpers are plain JS (pkg/providers/,
// pkg/edge/) and `citeproof/full` is the core with the edge helpers, so every entry but
// `citeproof/patterns` loads the module `citeproof` gives, and any mix of them is one
// module (or none: citeproof/edge alone): each combination marked `one` fails the check
// when it loads more. The one
// documented exception (`two`, printed): `citeproof/patterns` beside an entry that imports
// `citeproof`, as `citeproof/react` does (tests/js/one-module.test.mjs builds both kinds).
const COMBINATIONS = [
  [["./react"], "one"],
  [["./providers"], "one"],
  [["./edge"], "one"],
  [["./full"], "one"],
  [["./patterns"], "one"],
  [["./react", "./providers"], "one"],
  [["./react", "./remark"], "one"],
  [["./react", "./edge"], "one"],
  [["./react", "./full"], "one"],
  [["./edge", "."], "one"],
  [["./full", "./providers"], "one"],
  [["./full", "./edge"], "one"],
  [["./react", "./providers", "./remark", "./ai"], "one"],
  [["./react", "./full", "./edge", "./providers", "./remark", "./ai", "."], "one"],
  [["./react", "./patterns"], "two"],
];
for (const [combination, expected] of COMBINATIONS) {
  const modules = [...new Set(combination.flatMap((entry) => graph(entry).wasm))];
  const names = combination.map((entry) => `citeproof${entry.slice(1)}`).join(" + ");
  const gzip = modules.reduce((sum, file) => sum + gzipSize(file), 0);
  // `one`: at most one (citeproof/edge alone, plain JS, loads none).
  const fine = expected === "one" ? modules.length <= 1 : modules.length === 2;
  const verdict = !fine ? ` (expected ${expected}: FAIL)` : expected === "two" ? " (the documented case of two)" : "";
  console.log(`${names} in a browser: ${modules.length} wasm module${modules.length === 1 ? "" : "s"}, ${gzip} B gzip -9${verdict}`);
  if (!fine) over = true;
}
const full = join(pkg, "web", "citeproof_bg.wasm");
console.log(`the full module for Node, workerd and Deno (web/): ${gzipSize(full)} B gzip -9 (budget ${BUDGET_GZIP} B)`);
if (gzipSize(full) > BUDGET_GZIP) {
  console.error("  over budget");
  over = true;
}
if (over) process.exit(1);
