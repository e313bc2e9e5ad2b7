// Prints each wasm module's size and fails above its budget, measured with GNU `gzip -9`
// (Node's zlib, a Chromium fork, compresses this file about 2.4 % worse).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

// Issue 4's ceiling was 150 KiB; the six provider adapters and their JSON reader
// (issue 9) measured +22 KB gzip, so it went to 176 KiB; issue 10's cuts brought the
// module to 162.3 KiB and the ceiling to 168 KiB. Issue 21's CommonMark-conformant
// markdown context (HTML blocks, the link grammar, multi-line definitions, paragraph
// ends: +10.4 KB), the stream's revisions and the input limits of every list (+4.8 KB)
// measured 169.5 → 184.7 KB gzip, so the ceiling went to 182 KiB. Streams that resume a
// never-closed fence, HTML block or markup where they stopped, and read definitions line
// by line (linear instead of quadratic, issue 21) measured +2.4 KB; what recorded
// provider traffic needs (issue 22: OpenAI Responses events and web-search sources,
// Perplexity chunks, Cohere stream events, the AI SDK's stream parts and citations,
// Anthropic's non-text blocks and fetched pages, Gemini maps, quotes kept unverified,
// a stream's report with the citations its events declare) +6.4 KB, less 0.4 KB from
// wasm-opt --converge: 191 KiB. Issue 23's package fixes measured +1.8 KB (194,690 →
// 196,464 B): bad values shown in error messages, unknown options refused (the names a
// reader asked for, checked in untrusted.js), `withoutRevisions()` for the AI SDK
// middleware; so 193 KiB until issue 25 moves the adapters out of the browser entry.
// Issue 24's claim support measured +2.2 KB (196,464 → 198,713 B): the `judge` hook of
// validateAsync (+0.9 KB), evidence sentences on citations and cards, support scored by
// default for `misattributed` (each claim's citations scored as one run), markers
// outside every claim scored on the text before them; after −1.9 KB from claim 5-grams
// deduplicated through a hash set instead of a generic sort. So 195 KiB. Issue 22's
// forward-compatible adapters (the types each provider documents, every other one
// counted in one `unknown_content` warning) measured +2.2 KB (198,366 → 200,571 B, after
// the type lists went from `&[&str]` to one string each and the type read borrowed):
// 196 KiB. Issue 21's markdown fixes found by the differential harness's paragraph-end
// documents (inline raw HTML and `<code>`/`<pre>` content end with their paragraph, link
// text goes on past an unclosed backtick run, an HTML block's brackets are never links)
// measured +0.8 KB (200,597 → 201,408 B): 197 KiB. The goal stays 100 KB (issue 25's lean
// browser entry).
const BUDGET_GZIP = 197 * 1024;
// The module the lean browser entry will load (issue 25), built by `node
// scripts/build-pkg.mjs web --no-default-features --out target/pkg-browser`: parse,
// validate (quotes, claim support), stream and render, without the provider adapters,
// the edge helpers and markerPatterns. Its ceiling guards what the cargo features cut
// (first measured at 140,779 B, against 198,367 B for the full module); the goal is 100 KB.
const BROWSER_BUDGET_GZIP = 141 * 1024;
const BROWSER_GOAL = 100_000;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const modules = [
  ["the full module (pkg/web; Node, workerd, the CLI, and for now the browser too)", join(root, "pkg", "web", "citeproof_bg.wasm"), BUDGET_GZIP],
  ["the browser core (target/pkg-browser/web)", join(root, "target", "pkg-browser", "web", "citeproof_bg.wasm"), BROWSER_BUDGET_GZIP],
];
let over = false;
for (const [name, file, budget] of modules) {
  const raw = readFileSync(file).length;
  const gzip = execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 64 * 1024 * 1024 }).length;
  const goal = budget === BROWSER_BUDGET_GZIP ? `; goal ${BROWSER_GOAL} B` : "";
  console.log(`${name}: ${raw} B raw, ${gzip} B gzip -9 (budget ${budget} B${goal})`);
  if (gzip > budget) {
    console.error(`  over budget by ${gzip - budget} B`);
    over = true;
  }
}
if (over) process.exit(1);
