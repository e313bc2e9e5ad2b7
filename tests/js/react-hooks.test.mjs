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
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { build as esbuild } from "esbuild";
import { existsSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { installPackage, launchChromium, root, serveStatic, tempDir } from "./helpers.mjs";

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
  installPackage(dir, { skip: ["node", "web", "bin", "bundler-patterns"] });
  // React and nothing else besides the package.
  for (const name of ["react", "react-dom", "scheduler"]) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="/main.jsx"></script></body>`);
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
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Builds `main` in the app directory: Vite's exit status and output. */
function build(main) {
  writeFileSync(join(dir, "main.jsx"), main);
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
  writeFileSync(join(dir, "main.jsx"), main);
  try {
    await esbuild({
      entryPoints: [join(dir, "main.jsx")], bundle: true, write: false, platform: "browser", format: "esm",
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
