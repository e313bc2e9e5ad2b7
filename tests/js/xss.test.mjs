// The XSS corpus in headless Chromium (issue 10): every case of xss-payloads.mjs rendered
// by `renderHtml` (through innerHTML) and by `<CitedAnswer>` (React), every chip card
// opened, on a page built with Vite like an app that installed the package.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launchChromium, root, serveStatic } from "./helpers.mjs";

let browser;
let server;

before(async () => {
  const config = join(root, "tests", "js", "xss-page", "vite.config.mjs");
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build", "--config", config], { stdio: "pipe" });
  server = await serveStatic(join(root, "target", "xss-page"));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("hostile answers, titles, URLs and quotes: zero executions and zero unsafe hrefs in Chromium", async () => {
  const page = await browser.newPage();
  const dialogs = [];
  const errors = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  // Payloads point at x.test and evil.test: a request to anything but the test server
  // would mean markup was interpreted; record and refuse it.
  const foreign = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url)) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => document.body.dataset.result !== undefined, null, { timeout: 60000 });
  const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
  assert.deepEqual(errors, [], "no page errors");
  assert.ok(result.cases >= 100, `${result.cases} cases`);
  assert.ok(result.chipsOpened >= result.cases, `${result.chipsOpened} chip cards opened`);
  assert.ok(result.links > 0, `${result.links} links checked`);
  assert.deepEqual(result.problems, [], `${result.problemCount} unsafe nodes or attributes`);
  assert.deepEqual(dialogs, [], "no script ran (alert)");
  assert.equal(result.pwned, null);
  assert.deepEqual(foreign, [], "no request left the page's origin");
  await page.close();
});
