// useCitationStream on the SSE bodies an `/api/chat` route returns, in a React app built
// with Vite and run in headless Chromium: recorded OpenAI Chat Completions and Anthropic
// Messages streams (tests/fixtures/providers/recorded, real traffic), the same formats
// with markers cut across events, and the AI SDK's UI message stream as `ai` itself writes
// it (`toUIMessageStreamResponse`, over its mock model). The hook reads each one's text
// (`citeproofTransform`'s reader), shows no frame as prose in any render, and refuses an
// SSE body of another format with a coded error.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { buildReactApp, launchChromium, pageResult, pkgDir, root, serveStatic } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const recorded = (name) => readFileSync(join(root, "tests", "fixtures", "providers", "recorded", name), "utf8").split("\n").filter((l) => l.trim());

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const DELTAS = ["Water boils at 1", "00 °C [", "1]. Tokyo is Japan's capital 【", "2】. The moon is cheese [", "7]. 😀 a[0] ", "done."];
const ANSWER = DELTAS.join("");

const openai = (deltas) =>
  deltas.map((content) => `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`).join("") +
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
const anthropic = (deltas) =>
  [
    { type: "message_start", message: { id: "m1", role: "assistant", content: [] } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...deltas.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" } },
    { type: "message_stop" },
  ].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

/** The UI message stream body the AI SDK writes for a `useChat` route answering `deltas`. */
async function aiSdk(deltas) {
  const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t1" },
          ...deltas.map((delta) => ({ type: "text-delta", id: "t1", delta })),
          { type: "text-end", id: "t1" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ],
      }),
    }),
  });
  return streamText({ model, prompt: "q" }).toUIMessageStreamResponse().text();
}

// Recorded traffic: the wire adds `data: ` (and Anthropic's `event:` line) to each payload.
const openaiRecorded = recorded("openai-chat-text.chunks.txt");
const anthropicRecorded = recorded("anthropic-text.chunks.txt");
const recordedAnswer = (lines, text) => lines.map((l) => text(JSON.parse(l)) ?? "").join("");
const BODIES = {
  openai: { body: openai(DELTAS), answer: ANSWER },
  anthropic: { body: anthropic(DELTAS), answer: ANSWER },
  aiSdk: { body: await aiSdk(DELTAS), answer: ANSWER },
  openaiRecorded: {
    body: openaiRecorded.map((l) => `data: ${l}\n\n`).join("") + "data: [DONE]\n\n",
    answer: recordedAnswer(openaiRecorded, (e) => e.choices?.[0]?.delta?.content),
    sources: [],
  },
  anthropicRecorded: {
    body: anthropicRecorded.map((l) => `event: ${JSON.parse(l).type}\ndata: ${l}\n\n`).join(""),
    answer: recordedAnswer(anthropicRecorded, (e) => (e.delta?.type === "text_delta" ? e.delta.text : null)),
    sources: [],
  },
  plainText: { body: ANSWER, answer: ANSWER },
  // SSE of no format citeproof reads (an app's own events): refused, never prose.
  otherSse: { body: Array.from({ length: 6 }, (_, i) => `event: token\ndata: ${JSON.stringify({ token: `word${i} [${i}` })}\n\n`).join(""), answer: null },
};

const APP = `
import { useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { useCitationStream } from "citeproof/react";

const BODIES = ${JSON.stringify(BODIES)};
const SOURCES = ${JSON.stringify(SOURCES)};
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
/** A fetch Response whose body comes in pieces of 7 bytes (at most 100 pieces): events and characters are cut. */
function response(text) {
  const bytes = new TextEncoder().encode(text);
  const size = Math.max(7, Math.ceil(bytes.length / 100));
  let at = 0;
  return new Response(new ReadableStream({
    async pull(controller) {
      await tick();
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += size));
    },
  }));
}
const responses = Object.fromEntries(Object.keys(BODIES).map((name) => [name, response(BODIES[name].body)]));

const results = (window.__results = {});
function Streamed({ name }) {
  const state = useCitationStream(responses[name], { input: { sources: BODIES[name].sources ?? SOURCES } });
  const seen = useRef([]);
  seen.current.push(state.text);
  useEffect(() => {
    if (!state.done || results[name]) return;
    results[name] = { text: state.text, seen: seen.current, status: state.report?.status ?? null, error: state.error ? state.error.code ?? String(state.error) : null, message: state.error?.message ?? null };
    if (Object.keys(results).length === Object.keys(BODIES).length) document.body.dataset.result = JSON.stringify(results);
  }, [state.done]);
  return null;
}

createRoot(document.getElementById("root")).render(<>{Object.keys(BODIES).map((name) => <Streamed key={name} name={name} />)}</>);
`;

let browser;
let server;
let results;
before(async () => {
  server = await serveStatic(buildReactApp("sse-hook-app", APP));
  browser = await launchChromium();
  results = await pageResult(browser, `${server.url}/index.html`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

for (const name of Object.keys(BODIES).filter((n) => BODIES[n].answer !== null)) {
  test(`${name}: the answer's text, cleaned as validate cleans it, and no frame shown as prose`, () => {
    const { answer, sources = SOURCES } = BODIES[name];
    assert.ok(answer.length > 20, "the body has an answer");
    // Policy "flag" by default, as <CitedAnswer>: one look for a static and a streamed answer.
    const expected = validate({ answer, sources }, { policy: "flag" });
    const result = results[name];
    assert.equal(result.error, null, result.message);
    assert.equal(result.text, expected.cleanedAnswer);
    assert.equal(result.status, expected.status);
    for (const text of result.seen) {
      assert.ok(expected.cleanedAnswer.startsWith(text), `a render showed ${JSON.stringify(text)}`);
      assert.doesNotMatch(text, /data:|"type"|\{"/, "no frame as prose");
    }
  });
}

test("an SSE body of another format is refused with a coded error that says what to pass", () => {
  const result = results.otherSse;
  assert.equal(result.error, "invalid_input");
  assert.match(result.message, /SSE body of no format citeproof reads .*pass the answer's text deltas/);
  assert.deepEqual([...new Set(result.seen)], [""], "nothing of it was shown");
});
