// How many wasm modules a Vite + React app downloads, built against the package installed
// in the app's node_modules (Vite resolves its browser exports as in a real app) and run
// in headless Chromium. With the provider adapters beside citeproof/react (they are plain
// JS) and the README's plain Vite config: the core alone, and the page works (chips from
// a fromVercelAI input). With the edge helpers beside it: the core and the full module;
// with the README's config for such apps (`citeproof` aliased to `citeproof/full`): the
// full module alone, and the page works.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPackage, launchChromium, pkgDir, root, serveStatic } from "./helpers.mjs";

const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
/** The README's code block whose first line is `// <file><rest>` with `rest` containing `what`. */
function block(file, what) {
  const found = [...readme.matchAll(/^```jsx?\n\/\/ (\S+?):?( [^\n]*)?\n([\s\S]*?)^```$/gm)].find((m) => m[1] === file && (m[2] ?? "").includes(what));
  assert.ok(found, `README block ${file} ${what}`);
  return found[3];
}
const PLAIN = block("vite.config.js", "");
const ONE_MODULE = block("vite.config.js", "one wasm module");

const RENDER = `import { createRoot } from "react-dom/client";
import { CitedAnswer } from "citeproof/react";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
`;
const WITH_PROVIDERS = `${RENDER}import { fromVercelAI } from "citeproof/providers";
const input = fromVercelAI({ parts: [{ type: "text", text: "Water boils at 100 °C at sea level [1]. Cheese [4]." }] }, sources);
createRoot(document.getElementById("root")).render(<CitedAnswer answer={input.answer} sources={input.sources} />);
`;
const WITH_EDGE = `${RENDER}import { formatContext } from "citeproof/edge";
document.title = formatContext(sources).slice(0, 20);
createRoot(document.getElementById("root")).render(<CitedAnswer answer="Water boils at 100 °C at sea level [1]. Cheese [4]." sources={sources} />);
`;

/** Builds `main` with `config` as vite.config.js; returns the dist dir. */
function build(name, config, main) {
  const dir = join(root, "target", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  installPackage(dir, { skip: ["node", "web", "bin"] });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="/main.jsx"></script></body>`);
  writeFileSync(join(dir, "main.jsx"), main);
  writeFileSync(join(dir, "vite.config.js"), config);
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn"], { cwd: dir, stdio: "pipe" });
  return join(dir, "dist");
}

/** The wasm modules a built app ships, by which of the package's modules they are. */
function shipped(dist) {
  const core = readFileSync(join(pkgDir, "bundler", "citeproof_bg.wasm"));
  const full = readFileSync(join(pkgDir, "bundler-full", "citeproof_bg.wasm"));
  return readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".wasm")).map((f) => {
    const bytes = readFileSync(join(dist, "assets", f));
    return bytes.equals(core) ? "core" : bytes.equals(full) ? "full" : `unknown ${f}`;
  }).sort();
}

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Opens the built app and returns its chips' badges and validity. */
async function chips(dist) {
  const server = await serveStatic(dist);
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/index.html`);
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(1).waitFor({ timeout: 15000 });
    return await badges.evaluateAll((all) => all.map((b) => [b.textContent, b.dataset.valid]));
  } finally {
    await page.close();
    await server.close();
  }
}

test("citeproof/react + citeproof/providers with the plain Vite config: the core alone, and it works", async () => {
  const dist = build("one-module-plain", PLAIN, WITH_PROVIDERS);
  assert.deepEqual(shipped(dist), ["core"]);
  assert.deepEqual(await chips(dist), [["1", "true"], ["4", "false"]]);
});

test("citeproof/react + citeproof/edge with the plain Vite config: two modules (the README says so)", () => {
  assert.deepEqual(shipped(build("one-module-edge-plain", PLAIN, WITH_EDGE)), ["core", "full"]);
});

test("citeproof/react + citeproof/edge with the README's one-module config: the full module alone, and it works", async () => {
  const dist = build("one-module-alias", ONE_MODULE, WITH_EDGE);
  assert.deepEqual(shipped(dist), ["full"]);
  assert.deepEqual(await chips(dist), [["1", "true"], ["4", "false"]]);
});
