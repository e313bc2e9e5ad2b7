// Issue 10's cold-start measurement: how long from having the .wasm bytes to a module
// that answers, in Node and in headless Chromium. Every sample is a fresh process (Node)
// or a fresh browser context (Chromium), so no compiled code is reused; the bytes are
// read before the clock starts (a CDN or the disk decides that part, not citeproof).
//
//   node benches/instantiate.mjs     (needs pkg/web: node scripts/build-pkg.mjs web)
//
// Prints, per runtime, the median and worst of: instantiate (compile + instantiate + the
// glue's start-up, `initSync` / `await init`; the compile part alone in brackets), and
// the first `validate` call after it (V8 compiles functions lazily, on first call).
// V8 compiles on background threads too: run it on an otherwise idle machine. Chromium
// is measured twice: the synchronous path Node uses, and the asynchronous one.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { root } from "./common.mjs";
import { launchChromium, serveStatic, tempDir } from "../tests/js/helpers.mjs";

const web = join(root, "pkg", "web");
const SAMPLES = Number(process.env.SAMPLES ?? 15);

const FIRST_CALL_INPUT = {
  answer: "Water boils at 100 °C at sea level [1]. Tokyo is the capital of Japan [2].",
  sources: [{ text: "Water boils at 100 °C at sea level." }, { text: "Tokyo is the capital of Japan." }],
};

/** Runs in a fresh Node process: prints `{instantiate, firstCall}` in ms. */
const NODE_SAMPLE = `
const { readFileSync } = await import("node:fs");
const glue = await import(${JSON.stringify(join(web, "citeproof.js"))});
const bytes = readFileSync(${JSON.stringify(join(web, "citeproof_bg.wasm"))});
const t0 = performance.now();
const module = new WebAssembly.Module(bytes);
const compiled = performance.now();
glue.initSync({ module });
const t1 = performance.now();
const report = glue.validate(${JSON.stringify(FIRST_CALL_INPUT)});
const t2 = performance.now();
if (report.citations.length !== 2) throw new Error("unexpected report");
console.log(JSON.stringify({ compile: compiled - t0, instantiate: t1 - t0, firstCall: t2 - t1 }));
`;

/**
 * The page a Chromium sample loads: fetches the bytes, then times init and one call.
 * `?sync`: `new WebAssembly.Module` + `initSync`, as in Node; otherwise the async path
 * (`WebAssembly.compile` + `await init`), which also waits for the tasks that resolve
 * its promises.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><body><script type="module">
import init, { initSync, validate } from "./citeproof.js";
const sync = location.search === "?sync";
const bytes = await (await fetch("./citeproof_bg.wasm")).arrayBuffer();
const t0 = performance.now();
const module = sync ? new WebAssembly.Module(bytes) : await WebAssembly.compile(bytes);
const compiled = performance.now();
if (sync) initSync({ module });
else await init({ module_or_path: module });
const t1 = performance.now();
const report = validate(${JSON.stringify(FIRST_CALL_INPUT)});
const t2 = performance.now();
document.body.dataset.result = JSON.stringify(
  report.citations.length === 2
    ? { compile: compiled - t0, instantiate: t1 - t0, firstCall: t2 - t1 }
    : { error: "unexpected report" },
);
</script>`;

function summary(samples, key) {
  const values = samples.map((s) => s[key]).sort((a, b) => a - b);
  return `median ${values[values.length >> 1].toFixed(2)} ms, worst ${values[values.length - 1].toFixed(2)} ms`;
}

function nodeSamples() {
  const samples = [];
  for (let i = 0; i < SAMPLES; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", NODE_SAMPLE], { encoding: "utf8" });
    samples.push(JSON.parse(out));
  }
  return samples;
}

async function chromiumSamples(query) {
  // A copy of the package directory plus the page, served on 127.0.0.1.
  const dir = tempDir("citeproof-instantiate-");
  cpSync(web, dir, { recursive: true });
  writeFileSync(join(dir, "bench.html"), PAGE);
  const server = await serveStatic(dir);
  const url = `${server.url}/bench.html${query}`;
  const browser = await launchChromium();
  const samples = [];
  try {
    for (let i = 0; i < SAMPLES; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => document.body?.dataset.result !== undefined, null, { timeout: 15000 });
      const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
      if (result.error) throw new Error(result.error);
      samples.push(result);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

const size = readFileSync(join(web, "citeproof_bg.wasm")).length;
const chromiumVersion = execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
console.log(`${cpus()[0].model} (${cpus().length} cores), Node ${process.version}, ${chromiumVersion}`);
console.log(`pkg/web/citeproof_bg.wasm: ${size} B; ${SAMPLES} cold samples per runtime (goal: instantiate ≤ 5 ms)`);
const node = nodeSamples();
console.log(`Node            instantiate: ${summary(node, "instantiate")} (compile ${summary(node, "compile")}); first validate: ${summary(node, "firstCall")}`);
for (const [label, query] of [["Chromium, sync ", "?sync"], ["Chromium, async", ""]]) {
  const chromium = await chromiumSamples(query);
  console.log(`${label} instantiate: ${summary(chromium, "instantiate")} (compile ${summary(chromium, "compile")}); first validate: ${summary(chromium, "firstCall")}`);
}
