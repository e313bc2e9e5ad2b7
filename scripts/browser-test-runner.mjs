// Cargo runner for the wasm32 browser tests: serves the test binary with
// wasm-bindgen-test-runner's own page (its interactive mode) and drives that page in
// headless Debian Chromium through Playwright, then prints the page's output and exits
// with the tests' status.
//
//   CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="node scripts/browser-test-runner.mjs" \
//     cargo test --target wasm32-unknown-unknown --test wasm
//
// Why not `wasm-pack test --headless --chrome`: its chromedriver session hung now and then
// on this machine (the page never loaded; the same binary passed when run again). The
// cause turned out to be the runner's server (see the request queue below).
import { spawn } from "node:child_process";
import { launchChromium } from "../tests/js/helpers.mjs";

const wasm = process.argv[2];
if (!wasm) throw new Error("usage: browser-test-runner.mjs <test.wasm> [args]");
const port = 19000 + Math.floor(Math.random() * 2000);
const server = spawn("wasm-bindgen-test-runner", [wasm, ...process.argv.slice(3)], {
  env: { ...process.env, WASM_BINDGEN_USE_BROWSER: "1", NO_HEADLESS: "1", WASM_BINDGEN_TEST_ADDRESS: `127.0.0.1:${port}` },
  stdio: ["ignore", "pipe", "inherit"],
});
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));

let status = 1;
let browser;
try {
  for (let i = 0; !serverLog.includes("available at") && i < 200; i++) {
    if (server.exitCode !== null) throw new Error(`wasm-bindgen-test-runner exited:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  browser = await launchChromium();
  // The runner's server now and then never answers one of several requests Chromium
  // sends it at once (seen: the page's snippet modules pending forever, "Loading
  // scripts..."). So every request goes through Playwright one at a time, each retried
  // if it takes more than 15 s.
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  let queue = Promise.resolve();
  await page.route("**/*", (route) => {
    queue = queue.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await route.fulfill({ response: await route.fetch({ timeout: 15000 }) });
          return;
        } catch (error) {
          if (attempt === 3) return route.abort().catch(() => {});
        }
      }
    });
  });
  // Not waiting for "load": the module script runs every test before "load" fires.
  await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: "commit" });
  await page.waitForFunction(() => /test result: /.test(document.getElementById("output")?.textContent ?? ""), null, { timeout: 120000 });
  const output = await page.locator("#output").textContent();
  console.log(output);
  if (errors.length) console.error(`page errors: ${errors.join("; ")}`);
  status = /test result: ok/.test(output) && !errors.length ? 0 : 1;
} catch (error) {
  console.error(`browser tests did not finish: ${error.message}\n${serverLog}`);
} finally {
  await browser?.close();
  server.kill();
}
process.exit(status);
