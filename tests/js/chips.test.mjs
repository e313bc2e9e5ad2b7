// The chip kit in a real browser: <CitedAnswer> and its components, built with Vite and
// driven by Playwright in headless Chromium. A custom Chip built on useChip, the card
// kept inside the viewport at the right edge, tap to open and tap outside to close on a
// touch screen, and the "Sources" list: only cited sources, once each, in first-cited
// order, labelled as their chips.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { buildReactApp, launchChromium, serveStatic } from "./helpers.mjs";

const SOURCES = [
  { title: "Alpha", url: "https://alpha.example/a", text: "Alpha text." },
  { title: "Beta", url: "https://beta.example/b", text: "Beta text." },
  { title: "Gamma", url: "https://gamma.example/c", text: "Gamma text." },
  { title: "Delta (never cited)", url: "https://delta.example/d", text: "Delta text." },
];
// Cites 3, then 1, then 3 again, then 9 (no such source): the list is Gamma, Alpha.
const ANSWER = "First claim [3]. Second claim [1]. Third claim [3]. Fourth claim [9].";
// Set right-aligned, so that its chip sits at the right edge of the viewport.
const EDGE = "A claim near the edge [2].";

const APP = `
import { createRoot } from "react-dom/client";
import { CitedAnswer, useChip } from "citeproof/react";
import "citeproof/react.css";

const SOURCES = ${JSON.stringify(SOURCES)};
function MyChip({ chip }) {
  const { open, rootProps, buttonProps, cardProps, close } = useChip(chip);
  return (
    <span {...rootProps} className="my-chip">
      <button {...buttonProps} className="my-chip__button">({chip.badge})</button>
      {open && <span {...cardProps} className="my-card">{chip.sources[0]?.title}<button onClick={close}>x</button></span>}
    </span>
  );
}
const views = {
  plain: () => <CitedAnswer answer={${JSON.stringify(ANSWER)}} sources={SOURCES} />,
  custom: () => <CitedAnswer answer={${JSON.stringify(ANSWER)}} sources={SOURCES} components={{ Chip: MyChip, SourceList: ({ sources }) => <p id="mine">{sources.map((s) => s.label).join(",")}</p> }} />,
  edge: () => <CitedAnswer className="edge" answer={${JSON.stringify(EDGE)}} sources={SOURCES} sourceList={false} />,
};
const View = views[location.hash.slice(1)];
createRoot(document.getElementById("root")).render(<View />);
`;

let browser;
let server;
before(async () => {
  const head = `<meta name="viewport" content="width=device-width"><style>body { margin: 8px } .edge { text-align: right }</style>`;
  server = await serveStatic(buildReactApp("chips-app", APP, { head }));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page showing view `name` in a context with `options` (viewport, touch). */
async function open(name, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url}/index.html#${name}`);
  await page.locator("button").first().waitFor({ timeout: 15000 });
  return { page, errors, close: () => context.close() };
}

test("the Sources list: cited sources only, each once, in first-cited order, labelled as the chips", async () => {
  const { page, errors, close } = await open("plain");
  try {
    const badges = await page.locator(".citeproof-chip__badge").allTextContents();
    assert.deepEqual(badges, ["3", "1", "3", "9"]);
    const items = page.locator(".citeproof-sources li");
    assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => [li.dataset.label, li.querySelector("a")?.textContent, li.querySelector("a")?.href])), [
      ["3", "Gamma", "https://gamma.example/c"],
      ["1", "Alpha", "https://alpha.example/a"],
    ]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("components: a custom Chip built on useChip, and a custom SourceList", async () => {
  const { page, errors, close } = await open("custom");
  try {
    const buttons = page.locator(".my-chip__button");
    assert.deepEqual(await buttons.allTextContents(), ["(3)", "(1)", "(3)", "(9)"]);
    assert.equal(await page.locator(".citeproof-chip").count(), 0, "no default chip is rendered");
    assert.deepEqual(await buttons.evaluateAll((all) => all.map((b) => [b.getAttribute("aria-label"), b.dataset.valid])), [
      ["Citation 3", "true"], ["Citation 1", "true"], ["Citation 3", "true"], ["Citation 9 (not verified)", "false"],
    ]);
    await buttons.nth(1).click();
    const card = page.locator(".my-card");
    assert.equal(await card.textContent(), "Alphax");
    assert.equal(await buttons.nth(1).getAttribute("aria-controls"), await card.getAttribute("id"));
    await page.keyboard.press("Escape");
    assert.equal(await card.count(), 0, "Escape closes the card");
    assert.equal(await page.locator("#mine").textContent(), "3,1");
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a card opened at the right edge stays inside the viewport", async () => {
  for (const width of [360, 420, 600]) {
    const { page, close } = await open("edge", { viewport: { width, height: 700 } });
    try {
      const badge = page.locator(".citeproof-chip__badge").last();
      const chipBox = await badge.boundingBox();
      assert.ok(chipBox.x + chipBox.width > width - 60, `the chip sits at the right edge (x ${chipBox.x} of ${width})`);
      await badge.click();
      const box = await page.locator(".citeproof-card").boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `card ${box.x}..${box.x + box.width} inside 0..${width}`);
    } finally {
      await close();
    }
  }
});

test("touch: a tap opens the card, a tap outside closes it, a tap on the chip toggles it", async () => {
  const { page, close } = await open("plain", { viewport: { width: 390, height: 700 }, hasTouch: true, isMobile: true });
  try {
    const badge = page.locator(".citeproof-chip__badge").nth(1);
    const card = page.locator(".citeproof-card");
    await badge.tap();
    assert.equal(await card.count(), 1, "open after a tap");
    assert.match(await card.textContent(), /Alpha/);
    await page.touchscreen.tap(2, 2); // the page's corner, outside the chip and its card
    assert.equal(await card.count(), 0, "closed by a tap outside");
    await badge.tap();
    assert.equal(await card.count(), 1, "open again");
    await badge.tap();
    assert.equal(await card.count(), 0, "a second tap on the chip closes it");
  } finally {
    await close();
  }
});
