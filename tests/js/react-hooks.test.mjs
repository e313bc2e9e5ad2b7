// react-markdown and remark-gfm are optional peers of the package: only `<CitedAnswer>`
// (citeproof/react) renders markdown with them. An app that shows chips in a renderer of
// its own imports the hooks and `CitationChip` from citeproof/react/hooks, which needs
// React alone. Here such an app is built with Vite in a directory whose node_modules
// holds the package (installPackage), React and nothing else (outside the repository, so
// no parent node_modules lends it react-markdown), and run in headless Chromium: its
// chips work. Then both entries through esbuild (wrangler's bundler, installed with it),
// which (as webpack) refuses an import it cannot resolve: citeproof/react/hooks bundles,
// and the same app taking the hooks from citeproof/react fails, naming react-markdown:
// what an app that used only the hooks met before this entry, and proof that the setup
// lacks the peers. (Vite 8 builds that app: it puts a stub that throws in place of a
// missing optional peer, and production tree-shaking drops it with <CitedAnswer>.)
// The READMEs' hooks-only recipe (useCitationStream → useCitations → CitationChip, no
// markdown renderer) is built in the same app and run on a response streamed in chunks
// of 1-3 code points: its blocks and chips, and no half marker in any frame.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { build as esbuild } from "esbuild";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { installPackage, launchChromium, pkgDir, recipe, root, serveStatic, tempDir } from "./helpers.mjs";

const { citationChips, validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const HOOKS_APP = `import { createRoot } from "react-dom/client";
import { validate } from "citeproof";
import { CitationChip, useCitations } from "citeproof/react/hooks";
import "citeproof/react.css";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
const report = validate({ answer: "Water boils at 100 °C at sea level [1]. Cheese [4].", sources }, { policy: "flag" });
function Answer() {
  const { chips, sources: cited } = useCitations(report, { sources });
  return <p>{chips.map((chip, i) => <CitationChip key={i} chip={chip} />)}<span id="cited">{cited.map((s) => s.title).join(",")}</span></p>;
}
createRoot(document.getElementById("root")).render(<Answer />);
`;
let dir;
let browser;
before(async () => {
  dir = tempDir("citeproof-react-hooks-");
  installPackage(dir, { skip: ["node", "web", "bin"] });
  // React and nothing else besides the package.
  for (const name of ["react", "react-dom", "scheduler"]) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="/main.tsx"></script></body>`);
  const plugin = (name, file) => JSON.stringify(pathToFileURL(join(root, "node_modules", name, file)).href);
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import react from ${plugin("@vitejs/plugin-react", "dist/index.js")};
import wasm from ${plugin("vite-plugin-wasm", "exports/import.mjs")};
export default { plugins: [react(), wasm()], build: { target: "esnext" }, logLevel: "warn" };\n`,
  );
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Builds `main` in the app directory: Vite's exit status and output. */
function build(main) {
  writeFileSync(join(dir, "main.tsx"), main);
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  return spawnSync(join(root, "node_modules", ".bin", "vite"), ["build"], { cwd: dir, encoding: "utf8" });
}

test("the app has React and the package, and no react-markdown or remark-gfm to resolve", () => {
  assert.ok(existsSync(join(dir, "node_modules", "react")));
  for (const name of ["react-markdown", "remark-gfm"]) assert.ok(!existsSync(join(dir, "node_modules", name)), name);
});

test("citeproof/react/hooks without react-markdown or remark-gfm: the app builds and its chips work in Chromium", async () => {
  const built = build(HOOKS_APP);
  assert.equal(built.status, 0, built.stderr);
  const server = await serveStatic(join(dir, "dist"));
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(`${server.url}/index.html`);
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(1).waitFor({ timeout: 15000 });
    assert.deepEqual(await badges.evaluateAll((all) => all.map((b) => [b.textContent, b.dataset.valid])), [["1", "true"], ["4", "false"]]);
    assert.equal(await page.locator("#cited").textContent(), "Boiling");
    // The card opens on hover, as in <CitedAnswer>.
    await badges.nth(0).hover();
    await page.locator(".citeproof-card").first().waitFor({ timeout: 5000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

/** Bundles `main` with esbuild for a browser (the wasm left external): `{ errors }`. */
async function bundle(main) {
  writeFileSync(join(dir, "main.tsx"), main);
  try {
    await esbuild({
      entryPoints: [join(dir, "main.tsx")], bundle: true, write: false, platform: "browser", format: "esm",
      jsx: "automatic", external: ["*.wasm", "*.css"], logLevel: "silent", absWorkingDir: dir,
    });
    return { errors: [] };
  } catch (error) {
    return { errors: error.errors.map((e) => e.text) };
  }
}

test("esbuild: citeproof/react/hooks bundles without the peers; the hooks from citeproof/react do not", async () => {
  assert.deepEqual(await bundle(HOOKS_APP), { errors: [] });
  const { errors } = await bundle(HOOKS_APP.replace('"citeproof/react/hooks"', '"citeproof/react"'));
  assert.deepEqual(errors.sort(), ['Could not resolve "react-markdown"', 'Could not resolve "remark-gfm"']);
});

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
// A heading, emphasis, a list, a quote with code, CJK brackets, a group, emoji, and [4]
// that names no source.
const ANSWER =
  "## Boiling\n\nWater boils at **100 °C** at sea level [1].\n\n- 🌡️ Tokyo is the capital of Japan 【2】\n- both [1][2]\n- the moon is cheese [4]\n\n> `arr[1]` is code [1].\n";

test("the READMEs' hooks-only recipe: streamed blocks and chips without a markdown renderer, no half marker in any frame", async () => {
  const code = recipe("pkg/README.md", "hooks-only");
  assert.equal(recipe("docs/guide.md", "hooks-only"), code, "the guide and the npm README show the same recipe");
  const points = [...ANSWER];
  const chunks = [];
  for (let at = 0, size = 1; at < points.length; at += size, size = (size % 3) + 1) chunks.push(points.slice(at, at + size).join(""));
  const built = build(`${code}
import { createRoot } from "react-dom/client";
const chunks = ${JSON.stringify(chunks)};
const bytes = new TextEncoder();
// The route's response: plain text, a chunk every 5 ms.
const response = new Response(new ReadableStream({
  async pull(controller) {
    await new Promise((r) => setTimeout(r, 5));
    const chunk = chunks.shift();
    if (chunk === undefined) controller.close();
    else controller.enqueue(bytes.encode(chunk));
  },
}), { headers: { "content-type": "text/plain; charset=utf-8" } });
createRoot(document.getElementById("root")).render(<Answer response={response} sources={${JSON.stringify(SOURCES)}} />);
`);
  assert.equal(built.status, 0, built.stderr);
  const server = await serveStatic(join(dir, "dist"));
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Every state the page could paint: the answer's text, each chip written as ⟨badge⟩.
  await page.addInitScript(() => {
    window.__frames = [];
    new MutationObserver(() => {
      const answer = document.querySelector("#root > div");
      if (!answer) return;
      const copy = answer.cloneNode(true);
      for (const chip of copy.querySelectorAll(".citeproof-chip")) chip.replaceWith(`⟨${chip.querySelector(".citeproof-chip__badge")?.textContent}⟩`);
      window.__frames.push(copy.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  try {
    await page.goto(`${server.url}/index.html`);
    await page.locator("#root > div[aria-busy=false]").waitFor({ timeout: 15000 });
    const expected = citationChips(validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag" }), { sources: SOURCES });
    const badges = page.locator(".citeproof-chip__badge");
    assert.deepEqual(await badges.evaluateAll((all) => all.map((b) => `${b.textContent}:${b.dataset.valid}`)), expected.map((c) => `${c.badge}:${c.valid}`));
    assert.ok(expected.some((c) => !c.valid), "[4] is an invalid chip");
    // The blocks, drawn by the recipe: heading, bold, list items with their chips, the quote's code.
    const shape = await page.evaluate(() => {
      const root = document.querySelector("#root > div");
      const chips = (el) => [...el.querySelectorAll(".citeproof-chip__badge")].map((b) => b.textContent);
      return {
        heading: root.querySelector("h2")?.textContent,
        strong: root.querySelector("p strong")?.textContent,
        items: [...root.querySelectorAll("ul > li")].map(chips),
        code: root.querySelector("blockquote code")?.textContent,
      };
    });
    assert.deepEqual(shape, { heading: "Boiling", strong: "100 °C", items: [["2"], ["1", "2"], ["4"]], code: "arr[1]" });
    // The invalid chip's card says why.
    await badges.nth(expected.findIndex((c) => !c.valid)).hover();
    assert.match(await page.locator(".citeproof-card").first().textContent({ timeout: 5000 }), /not among the retrieved sources/);
    const frames = await page.evaluate(() => window.__frames);
    const grew = frames.filter((f, i) => i > 0 && f.length > frames[i - 1].length).length;
    assert.ok(grew > 10, `the answer streamed in many steps (${grew})`);
    for (const [i, frame] of frames.entries()) {
      assert.doesNotMatch(frame, /\[\d*(?![\d\]])|【\d*(?![\d】])/u, `frame ${i} shows half a marker: ${JSON.stringify(frame)}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});
