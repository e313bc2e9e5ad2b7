// useCitationStream under React StrictMode in development, where React mounts each
// component, cleans its effects up and mounts it again: the hook's effect runs twice for
// the same source. A Response, a ReadableStream and an async generator can each be read
// only once; all three must still end with the whole answer, validated. Built with Vite
// in development mode (React's development build) and run in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { launchChromium, pageResult, pkgDir, root, serveStatic } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const SOURCES = [{ title: "Boiling", text: "Water boils at 100 °C at sea level." }];
const DELTAS = ["Water boils at 1", "00 °C [", "1]. The moon is chee", "se [7]. 😀", " Done."];
const expected = validate({ answer: DELTAS.join(""), sources: SOURCES });

// Each kind of source is made once, outside React, as an app would get it from fetch or
// an SDK; every effect run of its component reads that same object.
const APP = `
import { StrictMode, useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { useCitationStream } from "citeproof/react";

const SOURCES = ${JSON.stringify(SOURCES)};
const DELTAS = ${JSON.stringify(DELTAS)};
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const sources = {
  response: new Response(new ReadableStream({
    async pull(controller) {
      const next = DELTAS[this.at = (this.at ?? -1) + 1];
      await tick();
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  })),
  readableStream: new ReadableStream({
    async pull(controller) {
      const next = DELTAS[this.at = (this.at ?? -1) + 1];
      await tick();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  }),
  asyncIterable: (async function* () {
    for (const delta of DELTAS) {
      await tick();
      yield delta;
    }
  })(),
};

const results = {};
const effectRuns = {};
function Streamed({ name }) {
  const state = useCitationStream(sources[name], { input: { sources: SOURCES } });
  const counted = useRef(false);
  useEffect(() => {
    // Counts this component's effect runs: StrictMode in development runs it twice.
    effectRuns[name] = (effectRuns[name] ?? 0) + 1;
  }, []);
  useEffect(() => {
    if (!state.done || counted.current) return;
    counted.current = true;
    results[name] = { text: state.text, status: state.report?.status ?? null, error: state.error ? String(state.error) : null };
    if (Object.keys(results).length === 3) document.body.dataset.result = JSON.stringify({ results, effectRuns, dev: import.meta.env.DEV });
  }, [state.done]);
  return null;
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <Streamed name="response" />
    <Streamed name="readableStream" />
    <Streamed name="asyncIterable" />
  </StrictMode>,
);
`;

let browser;
let server;
before(async () => {
  const dir = join(root, "target", "strictmode-app");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="./main.jsx"></script></body>`);
  writeFileSync(join(dir, "main.jsx"), APP);
  const pkg = (file) => JSON.stringify(join(pkgDir, file));
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
export default {
  plugins: [react(), wasm()],
  resolve: {
    alias: [
      { find: /^citeproof$/, replacement: ${pkg("bundler/citeproof.js")} },
      { find: /^citeproof\\/react$/, replacement: ${pkg("react.js")} },
    ],
    dedupe: ["react", "react-dom"],
  },
  build: { target: "esnext", minify: false },
  logLevel: "warn",
};
`,
  );
  // NODE_ENV=development: Vite bundles React's development build, where StrictMode
  // runs effects twice.
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build", "--mode", "development"], {
    cwd: dir,
    stdio: "pipe",
    env: { ...process.env, NODE_ENV: "development" },
  });
  server = await serveStatic(join(dir, "dist"));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("StrictMode (development): a Response, a ReadableStream and an async iterable each stream to the whole answer", async () => {
  const { results, effectRuns, dev } = await pageResult(browser, `${server.url}/index.html`);
  assert.equal(dev, true, "built in development mode");
  for (const name of ["response", "readableStream", "asyncIterable"]) {
    assert.equal(effectRuns[name], 2, `${name}: StrictMode ran the effects twice`);
    assert.deepEqual(results[name], { text: expected.cleanedAnswer, status: expected.status, error: null }, name);
  }
});
