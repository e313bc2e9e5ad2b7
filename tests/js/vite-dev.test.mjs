// Vite's dev server (`vite`, not `vite build`) with citeproof installed in the app's
// node_modules, as `npm i` puts it, in headless Chromium. Without vite-plugin-wasm, Vite
// pre-bundles the glue into a copy that the wasm instance does not call back, and the
// page died with "Cannot read properties of undefined (reading '__wbindgen_externrefs')";
// now the error has `code` `wasm_not_loaded` and names the plugin to add. With the
// README's `plugins: [react(), wasm()]`, the same app shows its chips in dev. `vite build`
// without the plugin works in Vite 8 (Rolldown bundles the wasm import; Vite 7's Rollup
// refused it), as the npm README says: the built app shows its chips.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, installPackage, launchChromium, openChips, root } from "./helpers.mjs";

const dir = join(root, "target", "vite-dev-app");
const MAIN = `import { createRoot } from "react-dom/client";
import { CitedAnswer } from "citeproof/react";
import "citeproof/react.css";

const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
const answer = "Water boils at 100 °C at sea level [1]. The moon is made of cheese [3].";

createRoot(document.getElementById("root")).render(<CitedAnswer answer={answer} sources={sources} />);
`;

let browser;
before(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "src"), { recursive: true });
  // The package as installed: its browser files in the app's own node_modules.
  installPackage(dir, { skip: ["node", "web", "bin"] });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body>`);
  writeFileSync(join(dir, "src", "main.jsx"), MAIN);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Runs `vite` (dev) in the app with `plugins` on a free port; resolves to `{ url, stop }`. */
async function devServer(plugins) {
  const port = await freePort();
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
export default { plugins: [${plugins}], cacheDir: ".vite", server: { host: "127.0.0.1", port: ${port}, strictPort: true }, logLevel: "warn" };
`,
  );
  rmSync(join(dir, ".vite"), { recursive: true, force: true });
  const child = spawn(join(root, "node_modules", ".bin", "vite"), [], { cwd: dir, detached: true, stdio: "ignore" });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120 && child.exitCode === null; i++) {
    try {
      await fetch(url);
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  stop();
  throw new Error("vite dev did not start");
}

test("Vite dev without vite-plugin-wasm: a coded error that names the plugin", async () => {
  const server = await devServer("react()");
  const page = await browser.newPage();
  try {
    const error = new Promise((resolve) => page.on("pageerror", resolve));
    await page.goto(server.url);
    const thrown = await Promise.race([error, new Promise((_, reject) => setTimeout(() => reject(new Error("no page error")), 20000))]);
    assert.match(thrown.message, /citeproof_bg\.wasm was not loaded as a WebAssembly ES module\. With Vite \(build and dev\), add vite-plugin-wasm/);
    assert.doesNotMatch(thrown.message, /__wbindgen_externrefs/);
  } finally {
    await page.close();
    server.stop();
  }
});

test("Vite dev with the README's plugins: [react(), wasm()]: the chips render", async () => {
  const server = await devServer("react(), wasm()");
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(server.url);
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(1).waitFor({ timeout: 20000 });
    assert.deepEqual(await badges.evaluateAll((all) => all.map((b) => [b.textContent, b.dataset.valid])), [["1", "true"], ["3", "false"]]);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    server.stop();
  }
});

test("Vite 8 build (and so preview) without vite-plugin-wasm: the built app shows its chips", async () => {
  writeFileSync(join(dir, "vite.config.mjs"), `import react from "@vitejs/plugin-react";\nexport default { plugins: [react()], build: { target: "esnext" }, logLevel: "warn" };\n`);
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build"], { cwd: dir, stdio: "pipe" });
  const { badges, errors, close } = await openChips(browser, join(dir, "dist"), 2);
  try {
    assert.deepEqual(badges, [["1", "true"], ["3", "false"]]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
