// useCitationStream under React StrictMode in development, where React mounts each
// component, cleans its effects up and mounts it again: the hook's effect runs twice for
// the same source. A Response, a ReadableStream and an async generator can each be read
// only once; all three must still end with the whole answer, validated. Built with Vite
// in development mode (React's development build) and run in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { buildReactApp, launchChromium, pageResult, pkgDir, serveStatic } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const SOURCES = [{ title: "Boiling", text: "Water boils at 100 °C at sea level." }];
const DELTAS = ["Water boils at 1", "00 °C [", "1]. The moon is chee", "se [7]. 😀", " Done."];
// The hook's default policy is "flag", as <CitedAnswer>'s (README, "One look").
const expected = validate({ answer: DELTAS.join(""), sources: SOURCES }, { policy: "flag" });

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
  notAStream: "not a stream",
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
    results[name] = { text: state.text, status: state.report?.status ?? null, error: state.error ? state.error.code ?? String(state.error) : null };
    if (Object.keys(results).length === 4) document.body.dataset.result = JSON.stringify({ results, effectRuns, dev: import.meta.env.DEV });
  }, [state.done]);
  return null;
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <Streamed name="response" />
    <Streamed name="readableStream" />
    <Streamed name="asyncIterable" />
    <Streamed name="notAStream" />
  </StrictMode>,
);
`;

let browser;
let server;
before(async () => {
  // React's development build: StrictMode runs each effect twice.
  server = await serveStatic(buildReactApp("strictmode-app", APP, { development: true }));
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
  // A source that is not a stream is the hook's coded error, not the engine's.
  assert.deepEqual(results.notAStream, { text: "", status: null, error: "invalid_input" });
});
