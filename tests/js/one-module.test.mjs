// How many wasm modules a Vite + React app downloads (issue 34: one, whatever mix of
// entries it imports), built with the README's plain Vite config against the package
// installed in the app's node_modules (Vite resolves its browser exports as in a real
// app) and run in headless Chromium. citeproof/react beside citeproof/providers,
// citeproof/edge or citeproof/full: the core alone, and the page works (chips, and the
// helpers' results on the page). citeproof/patterns beside citeproof/react, with no alias:
// the core alone too (the patterns run on re2js, plain JS), and markerPatterns work. And a
// stream's declared citations count in the browser core: useCitationStream over an
// Anthropic and an OpenAI SSE body reports them as Node's full module does.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { installPackage, launchChromium, pkgDir, root, serveStatic } from "./helpers.mjs";

const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
/** The README's code block whose first line is `// <file><rest>` with `rest` containing `what`. */
function block(file, what) {
  const found = [...readme.matchAll(/^```jsx?\n\/\/ (\S+?):?( [^\n]*)?\n([\s\S]*?)^```$/gm)].find((m) => m[1] === file && (m[2] ?? "").includes(what));
  assert.ok(found, `README block ${file} ${what}`);
  return found[3];
}
const PLAIN = block("vite.config.js", "");

const RENDER = `import { createRoot } from "react-dom/client";
import { CitedAnswer } from "citeproof/react";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
`;
const WITH_PROVIDERS = `${RENDER}import { fromVercelAI } from "citeproof/providers";
const input = fromVercelAI({ parts: [{ type: "text", text: "Water boils at 100 °C at sea level [1]. Cheese [4]." }] }, sources);
createRoot(document.getElementById("root")).render(<CitedAnswer answer={input.answer} sources={input.sources} />);
`;
const WITH_EDGE = `${RENDER}import { formatContext, Metrics } from "citeproof/edge";
const metrics = new Metrics();
document.title = formatContext(sources).slice(0, 20);
createRoot(document.getElementById("root")).render(<CitedAnswer answer="Water boils at 100 °C at sea level [1]. Cheese [4]." sources={sources} />);
`;
const WITH_FULL = `${RENDER}import { validate, auditRecord } from "citeproof/full";
const input = { answer: "Water boils at 100 °C at sea level [1]. Cheese [4].", sources };
document.title = auditRecord(validate(input), { input, auditId: "a" }).validation_result.status;
createRoot(document.getElementById("root")).render(<CitedAnswer answer={input.answer} sources={sources} />);
`;
const WITH_PATTERNS = `${RENDER}import { validate } from "citeproof/patterns";
const report = validate({ answer: "Water boils 😀 <<1>> \`<<2>>\` <<3>>.", sources }, { markerPatterns: ["<<(?P<refs>[0-9]+)>>"] });
document.title = report.markers.map((m) => m.raw + " " + m.span.start).join(", ") + " / " + report.citations.map((c) => c.valid).join(" ");
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
  return readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".wasm")).map((f) => {
    const bytes = readFileSync(join(dist, "assets", f));
    return bytes.equals(core) ? "core" : `unknown ${f}`;
  }).sort();
}

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Opens the built app: its chips' badges and validity, and its title. */
async function chips(dist) {
  const server = await serveStatic(dist);
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/index.html`);
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(1).waitFor({ timeout: 15000 });
    return { chips: await badges.evaluateAll((all) => all.map((b) => [b.textContent, b.dataset.valid])), title: await page.title() };
  } finally {
    await page.close();
    await server.close();
  }
}

const CHIPS = [["1", "true"], ["4", "false"]];

test("citeproof/react + citeproof/providers: the core alone, and it works", async () => {
  const dist = build("one-module-plain", PLAIN, WITH_PROVIDERS);
  assert.deepEqual(shipped(dist), ["core"]);
  assert.deepEqual(await chips(dist), { chips: CHIPS, title: "" });
});

test("citeproof/react + citeproof/edge: the core alone, and the JS helpers work", async () => {
  const dist = build("one-module-edge", PLAIN, WITH_EDGE);
  assert.deepEqual(shipped(dist), ["core"]);
  assert.deepEqual(await chips(dist), { chips: CHIPS, title: "[1] Water boils at 1" });
});

test("citeproof/react + citeproof/full: the core alone, and validate + auditRecord work", async () => {
  const dist = build("one-module-full", PLAIN, WITH_FULL);
  assert.deepEqual(shipped(dist), ["core"]);
  assert.deepEqual(await chips(dist), { chips: CHIPS, title: "REJECT" });
});

test("citeproof/react + citeproof/patterns, no alias: the core alone, and markerPatterns work on re2js", async () => {
  const dist = build("one-module-patterns", PLAIN, WITH_PATTERNS);
  assert.deepEqual(shipped(dist), ["core"]);
  // UTF-16 offsets past the emoji; the marker in a code span is not one.
  assert.deepEqual(await chips(dist), { chips: CHIPS, title: "<<1>> 15, <<3>> 29 / true false" });
});

// The SSE bodies of tests/fixtures/providers, through the hook a streaming React app uses.
const SSE = Object.fromEntries(
  ["anthropic-stream.sse", "openai-chat-stream.sse"].map((f) => [f, readFileSync(join(root, "tests", "fixtures", "providers", f), "utf8")]),
);
const WITH_SSE = `import { createRoot } from "react-dom/client";
import { useCitationStream } from "citeproof/react/hooks";
const bodies = ${JSON.stringify(SSE)};
const reports = {};
function Answer({ name }) {
  const [response] = React.useState(() => new Response(bodies[name]));
  const { text, report, error } = useCitationStream(response);
  React.useEffect(() => {
    if (!report && !error) return;
    reports[name] = error ? { error: error.code } : report.citations;
    if (Object.keys(reports).length === Object.keys(bodies).length) document.title = JSON.stringify(reports);
  }, [report, error]);
  return <p>{text}</p>;
}
createRoot(document.getElementById("root")).render(<>{Object.keys(bodies).map((name) => <Answer key={name} name={name} />)}</>);
`.replace('import { createRoot } from "react-dom/client";', 'import React from "react";\nimport { createRoot } from "react-dom/client";');

/** The citations of `body`'s report through Node's full module (the Rust adapters read its events). */
async function nodeCitations(body) {
  const { citeproofTransform } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
  const transform = citeproofTransform({}, { policy: "flag" });
  await new Response(body).body.pipeThrough(transform).pipeTo(new WritableStream());
  return (await transform.report).citations;
}

test("citeproof/react/hooks on Anthropic and OpenAI SSE: the core alone, and the declared citations count as in Node", async () => {
  const dist = build("one-module-sse", PLAIN, WITH_SSE);
  assert.deepEqual(shipped(dist), ["core"]);
  const server = await serveStatic(dist);
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => document.title !== "", null, { timeout: 15000 });
    const reports = JSON.parse(await page.title());
    for (const [name, body] of Object.entries(SSE)) {
      const expected = await nodeCitations(body);
      assert.ok(expected.some((c) => c.declared != null), `${name}: Node counts a declared citation`);
      assert.deepEqual(reports[name], expected, name);
    }
  } finally {
    await page.close();
    await server.close();
  }
});
