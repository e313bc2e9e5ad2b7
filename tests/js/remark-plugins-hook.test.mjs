// useRemarkPlugins in Streamdown (a Vite + React production build in headless Chromium):
// an answer of five paragraphs, each with markers, streams as a `useChat` message growing
// by a few characters per update (each committed with `flushSync`), then ends with
// `done`. Streamdown renders each block on its own and keeps a block whose text and
// `remarkPlugins` are the same (by identity); a counting `p` component records which
// paragraphs each update renders. With useRemarkPlugins, a paragraph the answer has
// moved past is not rendered again until the report comes (a new array, every block
// once more); with the plugins rebuilt per update, as the recipe did before, it is
// rendered on every update (the control: what the test would see if the hook did
// nothing). The same holds when the sources are the message's `source-url` parts (new
// objects on every update, as useChat gives them). Every way, after every update the
// chips on screen are those of the hook's segments so far, and at the end the report's.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { buildReactApp, launchChromium, pageResult, pkgDir, serveStatic } from "./helpers.mjs";

const { citationChips, validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
  { title: "Moon", url: "https://example.org/moon", text: "The Moon orbits the Earth." },
];
const PARAGRAPHS = [
  "P0 🌡️ Water boils at **100 °C** at sea level [1].",
  "P1 Tokyo is the capital of Japan 【2】, and the Moon orbits the Earth [3].",
  "P2 The moon is made of cheese [7], which no source says.",
  "P3 東京は日本の首都です [2]. Both facts [1][2].",
  "P4 That is all [3].",
];
const ANSWER = PARAGRAPHS.join("\n\n");
const REPORT = validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag" });
const STEP = 5;

const APP = `
import { useMemo } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Streamdown, defaultRehypePlugins, defaultRemarkPlugins } from "streamdown";
import remarkCiteproof, { rehypeCiteproof } from "citeproof/remark";
import { CitationChip, useCitedMessage, useRemarkPlugins } from "citeproof/react";
import { citationChips } from "citeproof";

const ANSWER = ${JSON.stringify(ANSWER)};
const SOURCES = ${JSON.stringify(SOURCES)};
const remarkDefaults = Object.values(defaultRemarkPlugins);
const rehypePlugins = [...Object.values(defaultRehypePlugins), rehypeCiteproof];

// Each paragraph rendered (by its "Pn" prefix), with the text the hook had released then
// and whether its report had come.
let rendered = [];
const textOf = (node) => node.type === "text" ? node.value : (node.children ?? []).map(textOf).join("");
function P({ node, children }) {
  rendered.push({ p: textOf(node).slice(0, 2), text: cited.text, report: Boolean(cited.report) });
  return <p>{children}</p>;
}
const components = { sup: CitationChip, p: P };
let cited = null;

function Hooked({ message, done }) {
  cited = useCitedMessage(message, { sources: SOURCES, done });
  const remarkPlugins = useRemarkPlugins(cited, remarkDefaults);
  return <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={!done}>{cited.text}</Streamdown>;
}

// No sources given: the hook takes the message's source-url parts, new objects per update.
function Declared({ message, done }) {
  cited = useCitedMessage(message, { done });
  const remarkPlugins = useRemarkPlugins(cited, remarkDefaults);
  return <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={!done}>{cited.text}</Streamdown>;
}

function Rebuilt({ message, done }) {
  cited = useCitedMessage(message, { sources: SOURCES, done });
  const remarkPlugins = useMemo(
    () => [...remarkDefaults, [remarkCiteproof, { report: { segments: cited.segments }, sources: cited.sources }]],
    [cited.segments, cited.sources],
  );
  return <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={!done}>{cited.text}</Streamdown>;
}

const channel = new MessageChannel();
const yieldTask = () => new Promise((resolve) => {
  channel.port1.onmessage = resolve;
  channel.port2.postMessage(null);
});
// Each chip as badge:valid, on screen and as citationChips makes them from the segments.
const chipsShown = () =>
  [...document.querySelectorAll(".citeproof-chip")].map((c) => c.querySelector(".citeproof-chip__badge").textContent + ":" + !c.classList.contains("citeproof-chip--invalid"));
const chipsOf = (segments) => citationChips({ segments }, { sources: cited.sources }).map((c) => c.badge + ":" + c.valid);

const root = createRoot(document.getElementById("root"));
/**
 * Streams ANSWER through View: the paragraphs rendered, and per update the text released,
 * the chips on screen and those of the hook's segments. The hook's state follows each
 * update in a task of its own: the page yields until it has rendered.
 */
async function run(View) {
  rendered = [];
  const updates = [];
  for (let end = ${STEP}; ; end += ${STEP}) {
    const done = end >= ANSWER.length;
    const declared = SOURCES.map(({ url, title }, i) => ({ type: "source-url", sourceId: "s" + i, url, title }));
    const text = { type: "text", text: ANSWER.slice(0, end) };
    const message = { id: View.name, role: "assistant", parts: View === Declared ? [...declared, text] : [text] };
    flushSync(() => root.render(<View key={View.name} message={message} done={done} />));
    for (let i = 0; i < 50 && (done ? !cited.report : cited.text.length < end - 8); i++) await yieldTask();
    await yieldTask();
    updates.push({ text: cited.text, chips: chipsShown(), expected: chipsOf(cited.segments) });
    if (done) break;
  }
  return { updates, rendered, report: cited.report ? cited.report.status : null };
}

const result = { hooked: await run(Hooked), declared: await run(Declared), rebuilt: await run(Rebuilt) };
document.body.dataset.result = JSON.stringify(result);
`;

let browser;
let server;
let result;
before(async () => {
  server = await serveStatic(buildReactApp("remark-plugins-hook-app", APP));
  browser = await launchChromium();
  result = await pageResult(browser, `${server.url}/index.html`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Per paragraph, how often it was rendered once the text had reached two paragraphs past it, before the report. */
function rendersPast(rendered) {
  return PARAGRAPHS.map((_, k) => rendered.filter((r) => r.p === `P${k}` && !r.report && r.text.includes(`P${k + 2}`)).length);
}

test("with useRemarkPlugins, Streamdown renders a paragraph the answer moved past again only when the report comes", () => {
  const { rendered, report } = result.hooked;
  assert.equal(report, REPORT.status);
  assert.deepEqual(rendersPast(rendered).slice(0, 3), [0, 0, 0]);
  // The report gives a new array: every paragraph is rendered once more, with its chips.
  const afterReport = rendered.filter((r) => r.report).map((r) => r.p);
  assert.deepEqual([...new Set(afterReport)].sort(), PARAGRAPHS.map((_, k) => `P${k}`));
});

test("the same when the sources are the message's source-url parts, new objects on every update", () => {
  const { rendered, report } = result.declared;
  assert.notEqual(report, null, "the report came"); // "warn": the parts give no source text to check against
  assert.deepEqual(rendersPast(rendered).slice(0, 3), [0, 0, 0]);
});

test("the control: with the plugins rebuilt per update, every paragraph is rendered again on every update", () => {
  const counts = rendersPast(result.rebuilt.rendered);
  // Rendered on each update past it: the answer moves past P2 four updates before its end.
  for (const [k, n] of counts.slice(0, 3).entries()) assert.ok(n >= 4, `P${k} rendered ${n} times after the answer moved past it`);
});

test("after every update the chips on screen are those of the hook's segments; at the end, the report's", () => {
  const reportChips = citationChips(REPORT, { sources: SOURCES }).map((c) => `${c.badge}:${c.valid}`);
  assert.ok(reportChips.some((c) => c.endsWith(":false")), "an invalid chip among them");
  for (const name of ["hooked", "declared", "rebuilt"]) {
    const { updates } = result[name];
    for (const [i, u] of updates.entries()) assert.deepEqual(u.chips, u.expected, `${name}, update ${i} (${JSON.stringify(u.text.slice(-30))})`);
    assert.equal(updates.at(-1).text, REPORT.cleanedAnswer);
    assert.deepEqual(updates.at(-1).chips, reportChips, name);
  }
});
