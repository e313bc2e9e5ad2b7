// A real `useChat` app (@ai-sdk/react, built with Vite) in headless Chromium against a
// route on 127.0.0.1 whose model is the AI SDK's mock (`MockLanguageModelV4`), its
// answer streamed in deltas of 1-3 code points so that markers are cut. The app renders
// with Streamdown (streaming mode, its remend on) the text `useCitedMessage` released,
// the chips placed inside it by citeproof/remark. A MutationObserver takes a snapshot of
// the answer at every mutation (each batch React commits, so every state the page could
// paint): no snapshot may show `[` + digits without its `]`, or a marker as text rather
// than a chip; every chip sits inside Streamdown's markdown (a paragraph, list item or
// table cell), not beside it; and no chip may appear that a later snapshot no longer has
// at the same place.
//
// Two routes: `/api/chat` pipes the UI message stream through citeproof/ai's
// `citeproofUIMessageTransform` (cleaned deltas, the sources' cards and the report in a
// `data-citations` part); `/api/chat?raw` sends the SDK's stream as it is, so the hook
// alone keeps half markers off the screen (the app gives it the sources).
//
// The README's page is the template's whole `src/App.tsx`: it type-checks under strict
// TypeScript (the repository's tsc, TS 7, as the `npm create vite` react-ts template's
// `tsc -b` would), and at `/?page` its `App` runs as written: a question typed in its
// form and sent gets the answer with its chips.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { extname, join, normalize } from "node:path";
import { convertToModelMessages, createUIMessageStreamResponse, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { buildReactApp, launchChromium, pkgDir, root, typeCheckAsTemplate } from "./helpers.mjs";

const { citationChips, validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
// Markdown with markers split across deltas, one naming no source ([7]), CJK brackets,
// a group, emoji, a list and a GFM table.
const ANSWER =
  "Water boils at **100 °C** at sea level [1]. The moon is made of cheese [7].\n\n" +
  "- Tokyo is Japan's capital 【2】\n- 🌡️ both facts [1][2]\n\n" +
  "| fact | where |\n|---|---|\n| boils at 100 °C [1] | sea level |\n| the capital [2] | Tokyo |\n\nThat is all [2].";

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finishReason = { unified: "stop", raw: "stop" };

/** The mock model: ANSWER in deltas of 1, 2, 3, 1, 2, 3… code points, 8 ms apart. */
function model() {
  const points = [...ANSWER];
  const deltas = [];
  for (let at = 0, size = 1; at < points.length; at += size, size = (size % 3) + 1) deltas.push(points.slice(at, at + size).join(""));
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunkDelayInMs: 8,
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t1" },
          ...deltas.map((delta) => ({ type: "text-delta", id: "t1", delta })),
          { type: "text-end", id: "t1" },
          { type: "finish", finishReason, usage },
        ],
      }),
    }),
  });
}

// The package README's recipe, as written: its route (the first code block of the
// section after its install line) and its page (the second, TSX), run here with the mock model.
const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
const at = readme.indexOf("## useChat (AI SDK 7) + Streamdown");
const section = readme.slice(at, readme.indexOf("\n## ", at + 1));
const [ROUTE, PAGE] = [...section.matchAll(/^```(?:jsx?|tsx)\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

const APP = `${PAGE}
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { DefaultChatTransport } from "ai";

// The raw route sends no data-citations part: this app's own Answer gives the hook the sources.
const raw = location.search.includes("raw");
const SOURCES = ${JSON.stringify(SOURCES)};
// As the README's Answer (its rehypePlugins and components), the hook given the sources.
function RawAnswer({ message, status }) {
  const cited = useCitedMessage(message, { sources: SOURCES, done: status === "ready" });
  const remarkPlugins = useRemarkPlugins(cited, Object.values(defaultRemarkPlugins));
  return (
    <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={status === "streaming"}>
      {cited.text}
    </Streamdown>
  );
}
const Shown = raw ? RawAnswer : Answer;
const transport = new DefaultChatTransport({ api: "/api/chat" + location.search });

// Sends its question on mount and marks its status and answer for the snapshots; at
// /?page the README's App runs instead.
function Harness() {
  const { messages, sendMessage, status } = useChat({ transport });
  useEffect(() => void sendMessage({ text: "How hot does water boil?" }), []);
  return (
    <main data-status={status}>
      {messages.filter((m) => m.role === "assistant").map((m) => <article key={m.id} data-role="answer"><Shown message={m} status={status} /></article>)}
    </main>
  );
}

createRoot(document.getElementById("root")).render(location.search.includes("page") ? <App /> : <Harness />);
`;

// Before the app runs: a snapshot of the answer at every mutation batch: its text with
// each chip written as ⟨badge⟩, and each chip: `badge:valid`, the markdown block holding
// it (tag name, or null when the chip is not inside Streamdown's markdown) and that
// block's text before it.
const OBSERVE = () => {
  window.__snapshots = [];
  const take = () => {
    const answer = document.querySelector("[data-role=answer]");
    if (!answer) return;
    const copy = answer.cloneNode(true);
    const markdown = copy.firstElementChild; // Streamdown's root
    const chips = [];
    for (const chip of copy.querySelectorAll(".citeproof-chip")) {
      const badge = chip.querySelector(".citeproof-chip__badge");
      const block = chip.parentElement.closest("p, li, td, th");
      const inside = block && markdown.contains(block) ? block : null;
      let before = null;
      if (inside) {
        const range = document.createRange();
        range.setStart(inside, 0);
        range.setEndBefore(chip);
        before = range.toString();
      }
      chips.push({ chip: `${badge?.textContent}:${badge?.dataset.valid}`, block: inside?.tagName.toLowerCase() ?? null, before });
      chip.replaceWith(`⟨${badge?.textContent}⟩`);
    }
    window.__snapshots.push({ text: copy.textContent, chips });
  };
  new MutationObserver(take).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
};

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };
let server;
let url;
let browser;

let POST;
before(async () => {
  // The README's route as a module: its rag.js (your retrieval, model and prompt) given here.
  const dir = join(root, "target", "usechat-route");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "route.mjs");
  writeFileSync(join(dir, "rag.mjs"), "export const { retrieve, model, prompt } = globalThis.__recipe;\n");
  assert.ok(ROUTE.includes('from "./rag.js";'), "the route imports your rag.js");
  const routeCode = ROUTE.replace('"citeproof/ai"', JSON.stringify(pathToFileURL(join(pkgDir, "ai.js")).href)).replace('"./rag.js"', '"./rag.mjs"');
  writeFileSync(file, routeCode);
  globalThis.__recipe = { retrieve: async () => SOURCES, model: model(), prompt: (sources) => `Cite these ${sources.length} sources as [n].` };
  ({ POST } = await import(pathToFileURL(file).href));
  const dist = buildReactApp("usechat-app", APP, { entry: "main.tsx" });
  server = createServer(async (req, res) => {
    const { pathname, search } = new URL(req.url, "http://x");
    if (pathname === "/api/chat" && req.method === "POST") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const { messages } = JSON.parse(body);
      const request = new Request("http://127.0.0.1/api/chat", { method: "POST", body, headers: { "content-type": "application/json" } });
      const response = search.includes("raw")
        ? createUIMessageStreamResponse({ stream: streamText({ model: model(), messages: await convertToModelMessages(messages) }).toUIMessageStream() })
        : await POST(request); // the README's route
      res.writeHead(response.status, Object.fromEntries(response.headers));
      for await (const bytes of response.body) res.write(bytes);
      res.end();
      return;
    }
    let file = join(dist, normalize(pathname));
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(await readFile(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Half a marker: an opening bracket and digits, then neither a digit nor its closer. */
const HALF_MARKER = /(\[\d*(?![\d\]])|【\d*(?![\d】]))/u;
/** A whole marker shown as text, not as a chip. */
const MARKER_AS_TEXT = /\[\d+\]|【\d+】/u;

for (const route of ["", "?raw"]) {
  test(`useChat${route ? " (raw SDK stream)" : " + citeproofUIMessageTransform"} + Streamdown: chips inside its markdown, no half marker and no chip that disappears, in any frame`, async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.addInitScript(OBSERVE);
    await page.goto(`${url}/${route}`);
    await page.waitForSelector("main[data-status=ready] [data-role=answer]", { timeout: 20000 }).catch((e) => {
      throw new Error(`${e.message}; page errors: ${errors.join("; ")}`);
    });
    await page.waitForTimeout(300); // the renders after the stream's end (the hook's report)
    const snapshots = await page.evaluate(() => window.__snapshots);
    // Streamdown rendered the markdown: the bold, the list's two items, the table's cells.
    const rendered = await page.evaluate(() => {
      const md = document.querySelector("[data-role=answer]");
      return { strong: md.querySelector("[data-streamdown=strong]")?.textContent, items: md.querySelectorAll("[data-streamdown=list-item]").length, cells: md.querySelectorAll("[data-streamdown=table-cell]").length };
    });
    await page.close();
    assert.deepEqual(rendered, { strong: "100 °C", items: 2, cells: 4 });
    assert.deepEqual(errors, []);

    const expected = validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag" });
    const last = snapshots.at(-1);
    // The markdown rendered (bold and list markers gone), each marker a chip in its place
    // (policy flag: [7] too).
    assert.equal(last.text, "Water boils at 100 °C at sea level ⟨1⟩. The moon is made of cheese ⟨7⟩.\nTokyo is Japan's capital ⟨2⟩\n🌡️ both facts ⟨1⟩⟨2⟩\nfactwhereboils at 100 °C ⟨1⟩sea levelthe capital ⟨2⟩TokyoThat is all ⟨2⟩.");
    assert.ok(snapshots.length > 20, `the answer streamed (${snapshots.length} snapshots)`);
    const grew = snapshots.filter((s, i) => i > 0 && s.text.length > snapshots[i - 1].text.length).length;
    assert.ok(grew > 10, `the text grew in many steps (${grew})`);
    for (const [i, s] of snapshots.entries()) {
      assert.doesNotMatch(s.text, HALF_MARKER, `snapshot ${i} shows half a marker: ${JSON.stringify(s.text)}`);
      assert.doesNotMatch(s.text, MARKER_AS_TEXT, `snapshot ${i} shows a marker as text, not a chip: ${JSON.stringify(s.text)}`);
    }

    // Chips: the report's, in order; [7] invalid; each inside Streamdown's markdown after
    // its claim: the paragraph, the list items, the table's cells, the last paragraph.
    assert.deepEqual(last.chips.map((c) => c.chip), citationChips(expected, { sources: SOURCES }).map((c) => `${c.badge}:${c.valid}`));
    assert.ok(last.chips.some((c) => c.chip.endsWith(":false")), "the marker that names no source is a flagged chip");
    assert.deepEqual(
      last.chips.map((c) => [c.block, c.before]),
      [
        ["p", "Water boils at 100 °C at sea level "],
        ["p", "Water boils at 100 °C at sea level ⟨1⟩. The moon is made of cheese "],
        ["li", "Tokyo is Japan's capital "],
        ["li", "🌡️ both facts "],
        ["li", "🌡️ both facts ⟨1⟩"],
        ["td", "boils at 100 °C "],
        ["td", "the capital "],
        ["p", "That is all "],
      ],
    );
    // In every frame: each chip inside the markdown, and none that a later frame does not
    // have at the same place (a chip seen is a chip kept).
    for (const [i, s] of snapshots.entries()) {
      for (const c of s.chips) assert.ok(c.block, `snapshot ${i}: chip ${c.chip} is not inside Streamdown's markdown`);
      assert.deepEqual(s.chips, last.chips.slice(0, s.chips.length), `snapshot ${i}: chips ${JSON.stringify(s.chips)} are not a prefix of the final ones`);
    }
  });
}

test("the README's page, as written, type-checks as the react-ts template's src/App.tsx (strict, TS 7)", () => {
  // The template's own tsconfig.app.json (create-vite 9.3.0, vendored; TS 7 is strict by
  // default), the page in place of its src/; types from pkg/ as the package's exports
  // give them, ai, @ai-sdk/react, streamdown and vite/client from node_modules.
  const checked = typeCheckAsTemplate("usechat-types", PAGE, "App.tsx");
  assert.equal(checked.status, 0, checked.output);
  // The check has teeth: the page untyped, as it was, fails as the newcomer's did.
  const untypedPage = PAGE.replace(/\(\{ message, status \}: [^)]*\)/, "({ message, status })").replace('(p.type === "text" ? p.text : "")', "p.text");
  const untyped = typeCheckAsTemplate("usechat-types", untypedPage, "App.tsx");
  assert.match(untyped.output, /TS7031/);
  assert.match(untyped.output, /TS2339/);
});

test("the README's page as written: a question typed in its form and sent, the answer comes with its chips", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(`${url}/?page`);
    await page.fill("form input", "How hot does water boil?");
    await page.click("form button[type=submit]");
    const expected = citationChips(validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag" }), { sources: SOURCES });
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(expected.length - 1).waitFor({ timeout: 20000 });
    await page.locator("form button[type=submit]:not([disabled])").waitFor({ timeout: 20000 }); // status ready
    assert.deepEqual(await badges.evaluateAll((all) => all.map((b) => `${b.textContent}:${b.dataset.valid}`)), expected.map((c) => `${c.badge}:${c.valid}`));
    assert.equal(await page.locator("main > p").first().textContent(), "How hot does water boil?");
    assert.equal(await page.inputValue("form input"), "");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("docs/guide.md's useChat recipe is the package README's (route and page)", () => {
  const main = readFileSync(join(root, "docs", "guide.md"), "utf8");
  assert.ok(main.includes(ROUTE), "the route");
  assert.ok(main.includes(PAGE), "the page");
  const install = "```sh\nnpm i citeproof ai@7 @ai-sdk/react@4 streamdown\n```";
  assert.ok(section.includes(install) && main.includes(install), "the install line, majors pinned");
});
