// useCitedMessage in a React app (built with Vite, React's development build under
// StrictMode, headless Chromium), given messages shaped as `useChat` gives them: a text
// part growing by a few characters per update, markers cut between updates. Every render
// is recorded: `text` never holds half a marker and is always a prefix of the cleaned
// answer; `done` ends the hook's own stream with the report; a `data-citations` part
// brings the sources and the report; a text that shrinks (a step reset) is read again;
// bad options are the hook's coded error.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { buildReactApp, launchChromium, pageResult, pkgDir, serveStatic } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const ANSWER = "🌡️ Water boils at 100 °C [1]. The moon is cheese [7].\r\nTokyo is Japan's capital 【2】 [1][2].";
const REPORT = validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag" });
const CARDS = SOURCES.map(({ title, url }) => ({ title, url }));

const APP = `
import { StrictMode, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { useCitedMessage } from "citeproof/react";

const ANSWER = ${JSON.stringify(ANSWER)};
const SOURCES = ${JSON.stringify(SOURCES)};
const CARDS = ${JSON.stringify(CARDS)};
const REPORT = ${JSON.stringify(REPORT)};
const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
const points = [...ANSWER];
const text = (n) => points.slice(0, n).join("");

// Each case: the messages to show, one per update, and the hook's config.
const CASES = {
  // The client has the sources; the stream ends with done.
  ownSources: { config: { sources: SOURCES }, doneAtEnd: true, messages: points.map((_, i) => ({ id: "m", parts: [{ type: "text", text: text(i + 1) }] })) },
  // citeproof/ai's parts: the cards first, the report at the end.
  dataPart: {
    config: {},
    messages: [
      ...points.map((_, i) => ({ id: "m", parts: [{ type: "data-citations", id: "citeproof", data: { sources: CARDS, report: null } }, { type: "text", text: text(i + 1) }] })),
      { id: "m", parts: [{ type: "data-citations", id: "citeproof", data: { sources: CARDS, report: REPORT } }, { type: "text", text: REPORT.cleanedAnswer }] },
    ],
  },
  // Half the answer, then a step reset (the text shrinks), then the whole answer.
  reset: {
    config: { sources: SOURCES },
    doneAtEnd: true,
    messages: [
      ...points.slice(0, 30).map((_, i) => ({ id: "m", parts: [{ type: "text", text: "Draft [2] and more [" + text(i + 1) }] })),
      ...points.map((_, i) => ({ id: "m", parts: [{ type: "text", text: text(i + 1) }] })),
    ],
  },
  badOptions: { config: { sources: SOURCES, options: { policy: "nope" } }, expectError: true, messages: [{ id: "m", parts: [{ type: "text", text: "Water [1]." }] }] },
};

const results = {};
function Case({ name }) {
  const { config, messages, doneAtEnd, expectError } = CASES[name];
  const [at, setAt] = useState(0);
  const [done, setDone] = useState(false);
  const cited = useCitedMessage(messages[at], { ...config, done });
  const seen = useRef([]);
  seen.current.push(cited.text);
  useEffect(() => {
    if (at < messages.length - 1) tick().then(() => setAt(at + 1));
    else if (doneAtEnd && !done) tick().then(() => setDone(true));
  }, [at, done]);
  useEffect(() => {
    const finished = cited.error || (!expectError && at === messages.length - 1 && (cited.report || !doneAtEnd));
    if (!finished || results[name]) return;
    results[name] = {
      text: cited.text,
      seen: seen.current,
      chips: cited.segments.filter((s) => s.type === "cite").map((s) => [s.label, s.valid]),
      report: cited.report ? { status: cited.report.status, cleanedAnswer: cited.report.cleanedAnswer } : null,
      sources: cited.sources.map((s) => s.title),
      error: cited.error ? cited.error.code : null,
    };
    if (Object.keys(results).length === Object.keys(CASES).length) document.body.dataset.result = JSON.stringify(results);
  });
  return null;
}

createRoot(document.getElementById("root")).render(
  <StrictMode>{Object.keys(CASES).map((name) => <Case key={name} name={name} />)}</StrictMode>,
);
`;

let browser;
let server;
let results;
before(async () => {
  server = await serveStatic(buildReactApp("cited-message-app", APP, { development: true }));
  browser = await launchChromium();
  results = await pageResult(browser, `${server.url}/index.html`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** `[` + digits without their `]`, or a bracket at the end (digits may follow). */
const HALF_MARKER = /(\[\d+(?![\d\]])|\[$|【\d+(?![\d】])|【$)/u;
const CHIPS = REPORT.segments.filter((s) => s.type === "cite").map((s) => [s.label, s.valid]);

for (const name of ["ownSources", "dataPart", "reset"]) {
  test(`${name}: never half a marker, and the report's text and chips at the end`, () => {
    const result = results[name];
    assert.equal(result.error, null);
    assert.equal(result.text, REPORT.cleanedAnswer);
    assert.deepEqual(result.report, { status: REPORT.status, cleanedAnswer: REPORT.cleanedAnswer });
    assert.deepEqual(result.chips, CHIPS);
    assert.deepEqual(result.sources, ["Boiling", "Japan"]);
    assert.ok(result.seen.length > [...ANSWER].length, `rendered per update (${result.seen.length})`);
    for (const text of result.seen) assert.doesNotMatch(text, HALF_MARKER, `a render showed ${JSON.stringify(text)}`);
    if (name !== "reset") for (const text of result.seen) assert.ok(REPORT.cleanedAnswer.startsWith(text), `not a prefix: ${JSON.stringify(text)}`);
  });
}

test("reset: the draft was shown, then read again from the start", () => {
  const { seen } = results.reset;
  const draft = seen.findLastIndex((t) => t.startsWith("Draft [2] and more"));
  assert.ok(draft >= 0, "the draft streamed, its marker [2] whole");
  assert.ok(seen.slice(draft + 1).some((t) => t === "" || REPORT.cleanedAnswer.startsWith(t)), "then the answer from its start");
});

test("bad options: the hook's coded error, nothing shown", () => {
  assert.equal(results.badOptions.error, "invalid_option");
  assert.equal(results.badOptions.text, "");
});
