// citeproof/remark in real apps: the guide's react-markdown recipe and its custom chip,
// taken from docs/guide.md as written, and Streamdown (static) with a table, each built with
// Vite and driven by Playwright in headless Chromium. Chips sit in table cells, are pills
// outside <CitedAnswer> (react.css), and a click opens the chip's card; an invalid chip
// says why.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { buildReactApp, launchChromium, recipe, serveStatic } from "./helpers.mjs";

const STREAMDOWN_APP = `
import { createRoot } from "react-dom/client";
import { Streamdown, defaultRehypePlugins } from "streamdown";
import remarkGfm from "remark-gfm";
import { validate } from "citeproof";
import remarkCiteproof, { rehypeCiteproof } from "citeproof/remark";
import { CitationChip } from "citeproof/react";
import "citeproof/react.css";

const sources = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const answer = "Facts:\\n\\n| fact | where |\\n|---|---|\\n| Water boils [1] | sea level |\\n| Tokyo [2] | Japan |\\n\\n- code in a list:\\n\\n  \`\`\`js\\n  arr[1]\\n  \`\`\`\\n\\nForged <sup>7</sup> and cheese [3].";
const report = validate({ answer, sources }, { policy: "flag" });
createRoot(document.getElementById("root")).render(
  <Streamdown
    mode="static"
    remarkPlugins={[remarkGfm, [remarkCiteproof, { report, sources }]]}
    rehypePlugins={[...Object.values(defaultRehypePlugins), rehypeCiteproof]}
    components={{ sup: CitationChip }}
  >
    {report.cleanedAnswer}
  </Streamdown>,
);
`;

let browser;
const servers = {};
before(async () => {
  const markdown = recipe("docs/guide.md", "react-markdown");
  assert.equal(recipe("pkg/README.md", "react-markdown"), markdown, "the guide and the npm README show the same recipe");
  servers.markdown = await serveStatic(buildReactApp("md-recipe-app", markdown, { entry: "main.tsx" }));
  servers.custom = await serveStatic(buildReactApp("md-custom-chip-app", recipe("docs/guide.md", "custom-chip"), { entry: "main.tsx" }));
  servers.streamdown = await serveStatic(buildReactApp("md-streamdown-app", STREAMDOWN_APP));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  for (const server of Object.values(servers)) await server.close();
});

async function open(name) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${servers[name].url}/index.html`);
  await page.locator("button").first().waitFor({ timeout: 15000 });
  return { page, errors };
}

test("react-markdown recipe: chips in table cells, pills outside <CitedAnswer>, a click opens the card", async () => {
  const { page, errors } = await open("markdown");
  try {
    const cells = await page.locator("td").evaluateAll((tds) => tds.map((td) => td.querySelector(".citeproof-chip__badge")?.textContent ?? null));
    assert.deepEqual(cells, ["1", null, "2", null]);
    const badge = page.locator("td .citeproof-chip__badge").first();
    const look = await badge.evaluate((el) => {
      const style = getComputedStyle(el);
      return { radius: parseFloat(style.borderTopLeftRadius), background: style.backgroundColor, position: getComputedStyle(el.parentElement).position };
    });
    assert.ok(look.radius > 4, `a pill: radius ${look.radius}`);
    assert.equal(look.background, "rgb(238, 242, 255)");
    assert.equal(look.position, "relative");
    await badge.click();
    const card = page.getByRole("dialog");
    await card.waitFor();
    assert.match(await card.textContent(), /Boiling/);
    assert.equal(await card.locator("a").getAttribute("href"), "https://example.org/boil");
    const invalid = page.locator('.citeproof-chip__badge[data-valid="false"]');
    assert.equal(await invalid.textContent(), "3");
    await invalid.click();
    await page.getByText("Cites [3], which was not among the retrieved sources.").waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("custom chip recipe: valid and invalid states, the invalid card shows chip.reason", async () => {
  const { page, errors } = await open("custom");
  try {
    assert.deepEqual(await page.locator(".my-chip button").evaluateAll((bs) => bs.map((b) => [b.textContent, b.className])), [
      ["1", "my-chip--ok"],
      ["3", "my-chip--invalid"],
    ]);
    await page.locator(".my-chip--invalid").click();
    assert.equal(await page.locator(".my-card").textContent(), "Cites [3], which was not among the retrieved sources.");
    await page.locator(".my-chip--ok").click();
    assert.equal(await page.locator(".my-card").first().textContent(), "Boiling");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("Streamdown (static): chips in table cells through its sanitizer, code in a list untouched, raw <sup> not a chip", async () => {
  const { page, errors } = await open("streamdown");
  try {
    await page.locator("td .citeproof-chip__badge").first().waitFor({ timeout: 15000 });
    const cells = await page.locator("td").evaluateAll((tds) => tds.map((td) => td.querySelector(".citeproof-chip__badge")?.textContent ?? null));
    assert.deepEqual(cells, ["1", null, "2", null]);
    assert.deepEqual(await page.locator(".citeproof-chip__badge").allTextContents(), ["1", "2", "3"]);
    assert.match(await page.locator("li pre, li [data-streamdown='code-block']").first().textContent(), /arr\[1\]/);
    assert.equal(await page.locator("sup").filter({ hasText: "7" }).count(), 1, "the forged <sup> stays a plain sup");
    await page.locator("td .citeproof-chip__badge").nth(1).click();
    const card = page.getByRole("dialog");
    await card.waitFor();
    assert.match(await card.textContent(), /Japan/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
