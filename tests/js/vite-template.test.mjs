// The package README's recipe for the stock `npm create vite` react-ts template:
// create-vite 9.3.0's files (tests/fixtures/create-vite-react-ts, vendored unmodified),
// the README's edits applied as written (vite.config.ts, tsconfig.node.json, src/App.tsx),
// citeproof installed in the app's node_modules. The template's `npm run build` must pass:
// `tsc -b` with TypeScript 7, which the template pins (and this repository's `tsc` is), and
// `vite build`; the built app shows its chips in headless Chromium. Without the tsconfig.node.json edit, `tsc -b`
// fails as the README says.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPackage, launchChromium, openChips, pkgDir, root } from "./helpers.mjs";

const template = join(root, "tests", "fixtures", "create-vite-react-ts");
const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
const at = readme.indexOf("## The `npm create vite` react-ts template");
const section = readme.slice(at, readme.indexOf("\n## ", at + 1));
/** The README's code blocks whose first line names a file: `{ name: body }`. */
const blocks = Object.fromEntries([...section.matchAll(/^```\w+\n\/\/ ([^\s:]+)[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
const bin = (name) => join(root, "node_modules", ".bin", name);

/** The template in target/<name> with the README's edits (`nodeEdit`: the tsconfig.node.json one). */
function app(name, { nodeEdit = true } = {}) {
  const dir = join(root, "target", name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  installPackage(dir, { skip: ["web", "bin"] });
  writeFileSync(join(dir, "vite.config.ts"), blocks["vite.config.ts"]);
  writeFileSync(join(dir, "src", "App.tsx"), blocks["src/App.tsx"]);
  for (const project of ["tsconfig.app.json", "tsconfig.node.json"]) {
    let config = readFileSync(join(dir, project), "utf8");
    if (project === "tsconfig.node.json" && nodeEdit) {
      assert.ok(config.includes('"module": "nodenext",'), "the template's line the README replaces");
      config = config.replace('"module": "nodenext",', blocks["tsconfig.node.json"].trim().split("\n").join("\n    "));
    }
    writeFileSync(join(dir, project), config);
  }
  return dir;
}

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

test("the README names the three edits, and docs/guide.md has the same", () => {
  assert.deepEqual(Object.keys(blocks), ["vite.config.ts", "tsconfig.node.json", "src/App.tsx"]);
  assert.match(readFileSync(join(template, "package.json"), "utf8"), /"build": "tsc -b && vite build"/);
  const main = readFileSync(join(root, "docs", "guide.md"), "utf8");
  for (const [name, body] of Object.entries(blocks)) assert.ok(main.includes(body), `docs/guide.md has the same ${name}`);
});

test("the template with the README's edits: tsc -b and vite build pass, and the page shows chips", async () => {
  const dir = app("vite-template-app");
  execFileSync(bin("tsc"), ["-b"], { cwd: dir, stdio: "pipe" });
  execFileSync(bin("vite"), ["build", "--logLevel", "warn"], { cwd: dir, stdio: "pipe" });
  const { badges, close } = await openChips(browser, join(dir, "dist"), 2);
  await close();
  assert.deepEqual(badges, [["1", "true"], ["3", "false"]]);
});

test("without the tsconfig.node.json edit, tsc -b fails on vite.config.ts (TS2349), as the README says", () => {
  const dir = app("vite-template-app-unedited", { nodeEdit: false });
  let output = "";
  try {
    execFileSync(bin("tsc"), ["-b"], { cwd: dir, stdio: "pipe", encoding: "utf8" });
  } catch (e) {
    output = String(e.stdout) + String(e.stderr);
  }
  assert.match(output, /vite\.config\.ts.*error TS2349/);
});
