// The React demo (www/), built with Vite and served on 127.0.0.1, driven in headless
// Chromium: chips, their cards, streaming without half markers, hostile input inert.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { launchChromium, pkgDir, root, serveStatic } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const examples = JSON.parse(readFileSync(join(root, "www", "src", "examples.json"), "utf8")).examples;

const dist = join(root, "target", "www", "dist");
const screenshots = join(root, "target", "www");
let browser;
let server;

before(async () => {
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build", "--config", join(root, "www", "vite.config.mjs")], { stdio: "pipe" });
  mkdirSync(screenshots, { recursive: true });
  server = await serveStatic(dist);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page on the demo; collects page errors and dialogs (an alert would be an XSS). */
async function open() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = { errors: [], dialogs: [] };
  page.on("pageerror", (e) => problems.errors.push(String(e)));
  page.on("dialog", async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  await page.goto(`${server.url}/index.html`);
  await page.waitForSelector('[data-testid="gate"]');
  return { page, problems };
}

test("chips render for every kept marker, and clicking one opens its card with the right source and its evidence sentence", async () => {
  const { page, problems } = await open();
  const answer = page.locator('[data-testid="answer"]');
  const chips = answer.locator(".citeproof-chip__badge");
  assert.ok((await chips.count()) >= 3, "the real answer has several chips");
  const first = chips.first();
  const badge = await first.textContent();
  await first.click();
  const card = answer.locator('[role="dialog"]');
  await card.waitFor();
  assert.equal(await first.getAttribute("aria-expanded"), "true");
  const sources = JSON.parse(await page.locator('[data-testid="sources-input"]').inputValue());
  const label = badge.split(" ")[0];
  const source = sources.find((s, i) => String(s.index ?? i + 1) === label);
  assert.equal(await card.locator(".citeproof-card__title").textContent(), source.title);
  if (source.url) assert.equal(await card.locator("a").getAttribute("href"), new URL(source.url).href);
  // No quote was declared: the card shows the cited source's sentence that best matches
  // the claim, as the report's citation of it gives it.
  const evidence = await card.locator(".citeproof-card__evidence").textContent();
  assert.ok(source.text.includes(evidence) && evidence.length > 20, evidence);
  // The demo ticks `misattributed` claims (opt-in in the library), which scores support.
  const report = validate({ answer: await page.locator('[data-testid="answer-input"]').inputValue(), sources }, { misattributionMargin: 0.3 });
  assert.ok(report.citations.some((c) => String(c.sourceIndex) === label && c.evidence?.text === evidence), evidence);
  assert.match(await card.locator(".citeproof-card__status").textContent(), /best matches the claim/);
  await page.keyboard.press("Escape");
  await card.waitFor({ state: "detached" });
  await page.screenshot({ path: join(screenshots, "demo.png"), fullPage: true });
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

test("chips work from the keyboard: Tab focuses a badge and shows its card, Escape hides it", async () => {
  const { page, problems } = await open();
  const answer = page.locator('[data-testid="answer"]');
  const first = answer.locator(".citeproof-chip__badge").first();
  await first.focus();
  await page.keyboard.press("Tab"); // on to the next badge (or a link in the card)
  await page.keyboard.press("Shift+Tab"); // and back: focus alone opens the card
  assert.equal(await page.evaluate(() => document.activeElement?.className), "citeproof-chip__badge");
  const card = answer.locator('[role="dialog"]');
  await card.waitFor();
  assert.equal(await first.getAttribute("aria-expanded"), "true");
  assert.equal(await first.getAttribute("aria-controls"), await card.getAttribute("id"));
  assert.match(await first.getAttribute("aria-label"), /^Citation \d/);
  await page.keyboard.press("Escape");
  await card.waitFor({ state: "detached" });
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

test("a broken answer shows its gate (as validate gives it), the findings and a cleaned answer without the bad markers", async () => {
  const { page, problems } = await open();
  const broken = examples.find((e) => e.id === "real-broken");
  const expected = validate({ answer: broken.answer, sources: broken.sources });
  assert.notEqual(expected.status, "pass");
  await page.selectOption('[data-testid="example"]', "real-broken");
  await page.waitForSelector(`[data-testid="gate"][data-status="${expected.status}"]`);
  const findings = await page.locator('[data-testid="findings"]').textContent();
  assert.match(findings, /out_of_range/);
  assert.match(findings, /zero_index/);
  const cleaned = await page.locator('[data-testid="cleaned"]').textContent();
  assert.equal(cleaned, expected.cleanedAnswer);
  assert.doesNotMatch(cleaned, /\[0\]|\[9\]/);
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

test("the demo ticks misattributed claims (opt-in in the library) and the support box adds unsupported ones, as validate gives them", async () => {
  const { page, problems } = await open();
  const answer = "The Eiffel Tower was completed in 1889 for the World Fair in Paris [2]. Berlin is the capital of Germany [1].";
  const sources = [
    { title: "Eiffel", text: "The Eiffel Tower was completed in 1889 for the World Fair in Paris." },
    { title: "Berlin", text: "Berlin is the capital of Germany and its largest city." },
  ];
  await page.fill('[data-testid="answer-input"]', answer);
  await page.fill('[data-testid="sources-input"]', JSON.stringify(sources));
  const findings = page.locator('[data-testid="findings"]');
  const margin = { misattributionMargin: 0.3 };
  assert.deepEqual(validate({ answer, sources }).findings, [], "opt-in in the library");
  const byDefault = validate({ answer, sources }, margin);
  assert.deepEqual(byDefault.findings.map((f) => f.code), ["misattributed", "misattributed"]);
  await page.waitForFunction(() => /misattributed/.test(document.querySelector('[data-testid="findings"]')?.textContent ?? ""));
  assert.deepEqual(
    await findings.locator("li").allTextContents(),
    byDefault.findings.map((f) => `${f.code} ${f.message}`),
  );
  await page.getByLabel("unsupported and uncited claims").check();
  const expected = validate({ answer, sources }, { supportThreshold: 0.5, ...margin });
  assert.ok(expected.findings.some((f) => f.code === "unsupported_claim"));
  await page.waitForFunction(() => /unsupported_claim/.test(document.querySelector('[data-testid="findings"]')?.textContent ?? ""));
  const items = await findings.locator("li").allTextContents();
  assert.deepEqual(
    items,
    expected.findings.map((f) => `${f.code} ${f.message}`),
  );
  assert.match(items.join("\n"), /did you mean \[1\]\?/);
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

/**
 * Clicks "Stream it" and returns the streamed answer's text after every DOM change, once
 * the stream is done.
 */
async function streamWithSnapshots(page) {
  await page.evaluate(() => {
    window.__snapshots = [];
    new MutationObserver(() => {
      const node = document.querySelector('[data-testid="stream-answer"]');
      if (node) window.__snapshots.push(node.textContent);
    }).observe(document.getElementById("app"), { subtree: true, childList: true, characterData: true });
  });
  await page.click('[data-testid="stream"]');
  await page.waitForSelector('[data-testid="stream-state"][data-state="done"]', { timeout: 20000 });
  return page.evaluate(() => window.__snapshots);
}

test("stream mode never shows a partial marker and ends with the same report", async () => {
  const { page, problems } = await open();
  await page.selectOption('[data-testid="example"]', "unicode");
  const oneShot = await page.locator('[data-testid="answer"]').textContent();
  const snapshots = await streamWithSnapshots(page);
  assert.ok(snapshots.length > 5, `the answer streamed in pieces (${snapshots.length} snapshots)`);
  for (const text of snapshots) {
    assert.doesNotMatch(text, /[[【［][^\]】］]*$/, `half a marker shown: ${JSON.stringify(text)}`);
    assert.doesNotMatch(text, /[\uD800-\uDBFF]$/, "half a surrogate pair shown");
  }
  assert.equal(await page.locator('[data-testid="stream-answer"]').textContent(), oneShot);
  await page.screenshot({ path: join(screenshots, "demo-stream.png"), fullPage: true });
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

test("a markdown answer with a table, code in a list and strikethrough streams in with chips in its cells", async () => {
  const { page, problems } = await open();
  await page.selectOption('[data-testid="example"]', "gfm");
  const answer = page.locator('[data-testid="answer"]');
  await answer.locator("table").waitFor();
  const cells = async (where) =>
    where.locator("td").evaluateAll((tds) => tds.map((td) => td.querySelector(".citeproof-chip__badge")?.textContent ?? null));
  assert.deepEqual(await cells(answer), [null, "1", null, "2"]);
  assert.equal(await answer.locator("td em").textContent(), "thousand");
  assert.match(await answer.locator("ol li pre code").textContent(), /parseCitations\(answer\); \/\/ arr\[1\] stays code/);
  assert.equal(await answer.locator("del").textContent(), "Osaka was never the capital.");
  assert.deepEqual(await answer.locator(".citeproof-chip__badge").allTextContents(), ["1", "2", "1, 2"]);
  const oneShot = await answer.innerHTML();
  const snapshots = await streamWithSnapshots(page);
  assert.ok(snapshots.length > 5, `the answer streamed in pieces (${snapshots.length} snapshots)`);
  for (const text of snapshots) assert.doesNotMatch(text, /\[[\d, ]*$/, `half a marker shown: ${JSON.stringify(text)}`);
  const streamed = page.locator('[data-testid="stream-answer"]');
  assert.deepEqual(await cells(streamed), [null, "1", null, "2"]);
  assert.equal(await streamed.innerHTML(), oneShot, "the streamed answer ends as the one-shot one");
  await streamed.locator("td .citeproof-chip__badge").first().click();
  assert.equal(await streamed.locator('[role="dialog"] .citeproof-card__title').textContent(), "Tokyo");
  await page.screenshot({ path: join(screenshots, "demo-gfm-stream.png"), fullPage: true });
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});

test("hostile answers and sources render inert: no dialog, no script, no javascript: link", async () => {
  const { page, problems } = await open();
  const scriptsBefore = await page.locator("script").count();
  await page.selectOption('[data-testid="example"]', "xss");
  await page.waitForSelector('[data-testid="gate"]');
  const answer = page.locator('[data-testid="answer"]');
  for (const badge of await answer.locator(".citeproof-chip__badge").all()) {
    await badge.click(); // open every card: titles and URLs are rendered there
    await badge.click();
  }
  await answer.locator(".citeproof-chip__badge").first().click();
  await page.click('[data-testid="stream"]');
  await page.waitForSelector('[data-testid="stream-state"][data-state="done"]', { timeout: 20000 });
  await page.waitForTimeout(200);
  assert.equal(await page.locator("script").count(), scriptsBefore, "no script element was added");
  assert.equal(await page.locator("#app img").count(), 0, "no img element was created");
  const hrefs = await page.locator("#app a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  for (const href of hrefs) assert.match(href, /^https?:\/\//, `unsafe href ${href}`);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(problems, { errors: [], dialogs: [] });
  await page.close();
});
