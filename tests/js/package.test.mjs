// The packed npm package installed into a fresh project, imported the way each row of
// the README's runtime table says: Node ESM, Node CJS, a Vite build in Chromium, the
// web target in Chromium without a bundler, and the workerd export under wrangler dev.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync, cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium, openChips, pageResult, pkgDir, root, serveStatic, startWrangler, tempDir } from "./helpers.mjs";

const ANSWER = "東京は首都です【1】。Family 👩‍👩‍👧 [2], `code[3]` and [4-5].";
// What every runtime must print: the raw markers, each equal to answer.slice(span).
const EXPECTED = [["【1】", [1]], ["[2]", [2]], ["[4-5]", [4, 5]]];
const project = tempDir("citeproof-consumer-");
const bin = (name) => join(root, "node_modules", ".bin", name);
let browser;

/** The consumer-side check, written once and inlined into every runtime's code. */
const CHECK = `(parse) => {
  const answer = ${JSON.stringify(ANSWER)};
  return parse(answer).map((m) => {
    if (answer.slice(m.span.start, m.span.end) !== m.raw) throw new Error("bad span " + JSON.stringify(m));
    return [m.raw, m.refs];
  });
}`;

/** A Gemini response as the adapter reads it, and the check on what it yields. */
const GEMINI = {
  candidates: [{
    content: { parts: [{ text: "Spain won Euro 2024." }] },
    groundingMetadata: {
      groundingChunks: [{ web: { uri: "https://uefa.example/", title: "UEFA" } }],
      groundingSupports: [{ segment: { endIndex: 20, text: "Spain won Euro 2024." }, groundingChunkIndices: [0] }],
    },
  }],
};
const PROVIDER_CHECK = `(fromAny, validate, auditRecord) => {
  const input = fromAny(${JSON.stringify(GEMINI)});
  const report = validate(input);
  return [input.provider, report.status, report.citations[0].span, auditRecord(report, { input }).validation_result.status];
}`;
const PROVIDED = ["gemini", "pass", { start: 0, end: 20 }, "PASS"];

/** The stream check: a response body through citeproofTransform (Vite/Chromium, workerd). */
const STREAM_CHECK = `async (citeproofTransform) => {
  const transform = citeproofTransform({ sources: [{ title: "Boiling" }] });
  const body = new Response("Water boils [1]. The moon is cheese [9].").body.pipeThrough(transform);
  return [await new Response(body).text(), (await transform.report).status];
}`;
const STREAMED = ["Water boils [1]. The moon is cheese.", "fail"];

let tarball;
before(async () => {
  tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", project, pkgDir], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  // Its one dependency, re2js (citeproof/patterns in a browser), comes from npm's cache,
  // which the repository's own install filled.
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefer-offline", join(project, tarball)], { cwd: project });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

test("Node ESM: import { parseCitations } from 'citeproof'", () => {
  const file = join(project, "esm.mjs");
  writeFileSync(file, `import { parseCitations } from "citeproof";\nconsole.log(JSON.stringify((${CHECK})(parseCitations)));`);
  assert.deepEqual(JSON.parse(execFileSync("node", [file], { cwd: project, encoding: "utf8" })), EXPECTED);
});

test("Node CJS: require('citeproof')", () => {
  const file = join(project, "cjs.cjs");
  writeFileSync(file, `const { parseCitations } = require("citeproof");\nconsole.log(JSON.stringify((${CHECK})(parseCitations)));`);
  assert.deepEqual(JSON.parse(execFileSync("node", [file], { cwd: project, encoding: "utf8" })), EXPECTED);
});

test("Node: citeproof/edge is citeproof's own; citeproof/providers, plain JS, gives what citeproof's adapters give", () => {
  const file = join(project, "subpaths.mjs");
  writeFileSync(
    file,
    `import * as main from "citeproof";
import { fromAny } from "citeproof/providers";
import { auditRecord } from "citeproof/edge";
import * as full from "citeproof/full";
import * as patterns from "citeproof/patterns";
const response = ${JSON.stringify(GEMINI)};
const same = JSON.stringify(fromAny(response)) === JSON.stringify(main.fromAny(response)) && fromAny !== main.fromAny &&
  auditRecord === main.auditRecord && full.validate === main.validate && patterns.validate === main.validate;
console.log(JSON.stringify({ same, checked: (${PROVIDER_CHECK})(fromAny, main.validate, auditRecord) }));`,
  );
  assert.deepEqual(JSON.parse(execFileSync("node", [file], { cwd: project, encoding: "utf8" })), { same: true, checked: PROVIDED });
  const cjs = join(project, "subpaths.cjs");
  writeFileSync(
    cjs,
    `const { fromGemini } = require("citeproof/providers");\nconst response = ${JSON.stringify(GEMINI)};\n` +
      `console.log(String(JSON.stringify(fromGemini(response)) === JSON.stringify(require("citeproof").fromGemini(response))));`,
  );
  assert.equal(execFileSync("node", [cjs], { cwd: project, encoding: "utf8" }).trim(), "true");
});

test("TypeScript sees what each runtime loads: the core for bundlers, everything for Node", () => {
  const dir = join(project, "ts");
  mkdirSync(dir, { recursive: true });
  const tsc = (file, resolution) => {
    const config = {
      compilerOptions: {
        strict: true, noEmit: true, target: "ES2022", lib: ["ESNext", "DOM"], skipLibCheck: false, types: [],
        ...(resolution === "bundler" ? { module: "ESNext", moduleResolution: "Bundler" } : { module: "Node16", moduleResolution: "Node16" }),
      },
      files: [file],
    };
    writeFileSync(join(dir, `tsconfig.${resolution}.json`), JSON.stringify(config));
    return spawnSync(bin("tsc"), ["-p", join(dir, `tsconfig.${resolution}.json`)], { cwd: dir, encoding: "utf8" });
  };
  writeFileSync(
    join(dir, "portable.mts"),
    `import { validate, type Report } from "citeproof";
import { fromAny } from "citeproof/providers";
import { auditRecord } from "citeproof/edge";
import { Metrics, validate as validateFull } from "citeproof/full";
const report: Report = validate(fromAny({}));
auditRecord(report, {});
new Metrics().record(validateFull({ answer: "x", sources: [] }));\n`,
  );
  writeFileSync(join(dir, "adapter-from-main.mts"), `import { fromAny } from "citeproof";\nfromAny({});\n`);
  for (const resolution of ["bundler", "node16"]) {
    const ok = tsc("portable.mts", resolution);
    assert.equal(ok.status, 0, `${resolution}: ${ok.stdout}`);
  }
  // A bundler resolves \`citeproof\` to the core, whose types have no adapters; Node's has.
  const bundler = tsc("adapter-from-main.mts", "bundler");
  assert.notEqual(bundler.status, 0);
  assert.match(bundler.stdout, /has no exported member '?fromAny'?/);
  const node = tsc("adapter-from-main.mts", "node16");
  assert.equal(node.status, 0, node.stdout);
});

test("the installed package's bin runs `citeproof check --gate`", () => {
  const file = join(project, "answers.jsonl");
  writeFileSync(file, `${JSON.stringify({ answer: "A fine claim [1].", sources: [{ text: "t" }] })}\n`);
  const out = execFileSync(join(project, "node_modules", ".bin", "citeproof"), ["check", file, "--gate"], { encoding: "utf8" });
  assert.match(out, /1 reports: 1 pass, 0 warn, 0 fail; 0 hallucinated citations; 0 unreadable lines; verdict: pass\n$/);
});

test("web target in Chromium without a bundler: init() then parse", async () => {
  const dir = join(project, "web-page");
  mkdirSync(dir, { recursive: true });
  cpSync(join(project, "node_modules", "citeproof"), join(dir, "citeproof"), { recursive: true });
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><body><script type="module">
import init, { parseCitations } from "./citeproof/web/citeproof.js";
await init();
document.body.dataset.result = JSON.stringify((${CHECK})(parseCitations));
</script></body>`,
  );
  const server = await serveStatic(dir);
  try {
    assert.deepEqual(await pageResult(browser, `${server.url}/index.html`), EXPECTED);
  } finally {
    await server.close();
  }
});

/** Builds `main` (an app's main.js) with Vite and vite-plugin-wasm; returns its dist dir. */
function viteBuild(name, main) {
  const dir = join(project, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><script type="module" src="./main.js"></script></body>`);
  writeFileSync(join(dir, "main.js"), main);
  const plugin = pathToFileURL(join(root, "node_modules", "vite-plugin-wasm", "exports", "import.mjs")).href;
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import wasm from ${JSON.stringify(plugin)};\nexport default { plugins: [wasm()], build: { target: "esnext" }, logLevel: "warn" };\n`,
  );
  execFileSync(bin("vite"), ["build"], { cwd: dir, stdio: "pipe" });
  return join(dir, "dist");
}

/** The wasm modules a built app downloads, by which of the package's modules they are. */
function wasmShipped(dist) {
  const assets = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".wasm"));
  const core = readFileSync(join(pkgDir, "bundler", "citeproof_bg.wasm"));
  return assets.map((f) => {
    const bytes = readFileSync(join(dist, "assets", f));
    return bytes.equals(core) ? "core" : `unknown ${f}`;
  });
}

test("Vite build (bundler target) runs in Chromium, and ships the core module alone", async () => {
  const dist = viteBuild(
    "vite-app",
    `import { parseCitations, citeproofTransform } from "citeproof";
const streamed = await (${STREAM_CHECK})(citeproofTransform);
document.body.dataset.result = JSON.stringify({ markers: (${CHECK})(parseCitations), streamed });\n`,
  );
  // An app that does not import citeproof/providers or citeproof/edge never downloads them.
  assert.deepEqual(wasmShipped(dist), ["core"]);
  const server = await serveStatic(dist);
  try {
    assert.deepEqual(await pageResult(browser, `${server.url}/index.html`), { markers: EXPECTED, streamed: STREAMED });
  } finally {
    await server.close();
  }
});

test("Vite build importing citeproof/providers and citeproof/edge runs in Chromium, on the core alone", async () => {
  const dist = viteBuild(
    "vite-app-providers",
    `import { validate } from "citeproof";
import { fromAny } from "citeproof/providers";
import { auditRecord } from "citeproof/edge";
document.body.dataset.result = JSON.stringify((${PROVIDER_CHECK})(fromAny, validate, auditRecord));\n`,
  );
  // The adapters and the edge helpers are plain JS in a browser: one module (issue 34).
  assert.deepEqual(wasmShipped(dist), ["core"]);
  const server = await serveStatic(dist);
  try {
    assert.deepEqual(await pageResult(browser, `${server.url}/index.html`), PROVIDED);
  } finally {
    await server.close();
  }
});

test("the tarball carries the README written for npm users", () => {
  const files = execFileSync("tar", ["tzf", join(project, tarball)], { encoding: "utf8" }).split("\n");
  assert.ok(files.includes("package/README.md"), "package/README.md in the tarball");
  assert.match(readFileSync(join(project, "node_modules", "citeproof", "README.md"), "utf8"), /^## Vite \+ React$/m);
});

test("the tarball carries the guide, the figures and the edge worker example, and every relative link in its docs resolves", () => {
  const files = execFileSync("tar", ["tzf", join(project, tarball)], { encoding: "utf8" }).split("\n");
  for (const file of ["docs/guide.md", "docs/markers.md", "BENCHMARKS.md", "examples/edge-worker/src/index.js", "examples/edge-worker/wrangler.toml"]) {
    assert.ok(files.includes(`package/${file}`), `package/${file} in the tarball`);
  }
  const installed = join(project, "node_modules", "citeproof");
  let links = 0;
  for (const doc of ["README.md", "docs/guide.md", "docs/markers.md", "BENCHMARKS.md"]) {
    const text = readFileSync(join(installed, doc), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s#:]*[./][^)\s#:]*)(?:#[^)\s]*)?\)/g)) {
      links++;
      assert.ok(existsSync(join(installed, dirname(doc), target)), `${doc} links to ${target}, not in the package`);
    }
  }
  assert.ok(links >= 6, `${links} relative links checked`);
  // The guide's edge worker link, as the npm README's, points into the package.
  assert.match(readFileSync(join(installed, "docs", "guide.md"), "utf8"), /\]\(\.\.\/examples\/edge-worker\/src\/index\.js\)/);
});

test("the npm README's Vite + React quickstart, as written, builds and shows chips in Chromium", async () => {
  // Its files are the README's code blocks whose first line names them (`// vite.config.js`);
  // the packages its `npm i` lines name come from this repository's node_modules.
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Vite + React"), readme.indexOf("\n## ", readme.indexOf("## Vite + React") + 1));
  const installs = [...section.matchAll(/^npm i (?:-D )?(.+)$/gm)].flatMap((m) => m[1].split(" "));
  assert.deepEqual(installs, ["citeproof", "react", "react-dom", "react-markdown", "remark-gfm", "vite", "@vitejs/plugin-react", "vite-plugin-wasm"]);
  const dir = join(project, "vite-react-app");
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const name of installs.filter((n) => n !== "citeproof")) {
    mkdirSync(join(project, "node_modules", dirname(name)), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(project, "node_modules", name));
  }
  const files = [...section.matchAll(/^```jsx?\n\/\/ (\S+)\n([\s\S]*?)^```$/gm)];
  assert.deepEqual(files.map((m) => m[1]), ["vite.config.js", "src/main.jsx"]);
  for (const [, name, body] of files) writeFileSync(join(dir, name), body);
  // What `npm create vite` gives every React app.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body>`);
  execFileSync(bin("vite"), ["build", "--logLevel", "warn"], { cwd: dir, stdio: "pipe" });
  const { page, badges, close } = await openChips(browser, join(dir, "dist"), 2);
  try {
    // [1] names the source; [3] names none, and CitedAnswer flags it rather than dropping it.
    assert.deepEqual(badges, [["1", "true"], ["3", "false"]]);
    await page.locator(".citeproof-chip__badge").nth(0).click();
    assert.match(await page.locator(".citeproof-card").textContent(), /Boiling.*example\.org.*Checked: names a retrieved source/);
  } finally {
    await close();
  }
});

test("workerd: the 'workerd' export condition under wrangler dev on 127.0.0.1", async () => {
  const dir = join(project, "worker");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "index.js"),
    `import { parseCitations, citeproofTransform, validate } from "citeproof";
import { fromAny } from "citeproof/providers";
import { auditRecord } from "citeproof/edge";
export default {
  fetch: async () => Response.json({
    markers: (${CHECK})(parseCitations),
    streamed: await (${STREAM_CHECK})(citeproofTransform),
    provided: (${PROVIDER_CHECK})(fromAny, validate, auditRecord),
  }),
};\n`,
  );
  writeFileSync(join(dir, "wrangler.toml"), `name = "citeproof-test"\nmain = "src/index.js"\ncompatibility_date = "2025-01-01"\n`);
  const worker = await startWrangler(dir);
  try {
    const body = await (await fetch(`${worker.url}/`)).json();
    assert.deepEqual(body, { markers: EXPECTED, streamed: STREAMED, provided: PROVIDED }, `wrangler log:\n${worker.log()}`);
  } finally {
    worker.stop();
  }
});
