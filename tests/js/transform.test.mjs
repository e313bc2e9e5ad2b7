// citeproofTransform through the built package (pkg/node): plain text, OpenAI and
// Anthropic SSE and NDJSON bodies, cut at every byte boundary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, citeproofTransform, memoryBytes } = require(join(pkgDir, "node", "citeproof.js"));

const sources = [
  { title: "Boiling", url: "https://example.org/boil", slug: "boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const answer = "Water boils at 100 °C [1]. Tokyo is Japan's capital 【2】. The moon is cheese [7]. 😀";
const deltas = ["Water boils at 1", "00 °C [", "1]. Tokyo is Japan's capital 【", "2】. The moon is cheese [", "7]. 😀"];
const expected = validate({ answer, sources });

/** Runs `chunks` through a fresh transform; resolves to the output text and the report. */
async function run(chunks, options) {
  const transform = citeproofTransform({ sources }, options);
  const body = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let out = "";
  const decoder = new TextDecoder();
  for await (const piece of body.pipeThrough(transform)) {
    out += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
  }
  return { out, report: await transform.report };
}

/** Every way of cutting `bytes` in two, plus one byte at a time. */
function* cuttings(bytes) {
  for (let i = 1; i < bytes.length; i++) yield [bytes.slice(0, i), bytes.slice(i)];
  yield Array.from(bytes, (b) => Uint8Array.of(b));
}

function sseEvents(text) {
  return text.split("\n\n").filter((b) => b.trim()).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
    const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
    return { event, data };
  });
}

test("plain text deltas come out cleaned and the report equals validate's", async () => {
  const { out, report } = await run(deltas);
  assert.equal(out, expected.cleanedAnswer);
  assert.equal(report.cleanedAnswer, expected.cleanedAnswer);
  assert.equal(report.status, expected.status);
});

const openaiBody = [
  ...deltas.map((content, i) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: i === 0 ? { role: "assistant", content } : { content }, finish_reason: null }] })}\n\n`),
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
  "data: [DONE]\n\n",
].join("");

test("OpenAI Chat Completions SSE: cleaned deltas, then a citations event, then [DONE], at every byte cut", async () => {
  const bytes = new TextEncoder().encode(openaiBody);
  for (const chunks of cuttings(bytes)) {
    const { out, report } = await run(chunks);
    const events = sseEvents(out);
    assert.equal(events.at(-1).data, "[DONE]");
    const citations = events.find((e) => e.event === "citations");
    assert.ok(citations, "a citations event");
    const payload = JSON.parse(citations.data);
    assert.deepEqual(payload.citations, [
      { index: 1, title: "Boiling", url: "https://example.org/boil", slug: "boil" },
      { index: 2, title: "Japan", url: "https://example.org/japan", slug: null },
    ]);
    assert.equal(payload.status, "citations");
    assert.equal(payload.report.status, "fail");
    const text = events
      .filter((e) => e.event === "message" && e.data !== "[DONE]")
      .map((e) => JSON.parse(e.data).choices[0].delta.content ?? "")
      .join("");
    assert.equal(text, expected.cleanedAnswer);
    assert.ok(!/\[\d*$|【\d*$/.test(text.slice(0, 10)));
    assert.equal(report.cleanedAnswer, expected.cleanedAnswer);
    const roles = events.filter((e) => e.event === "message" && e.data !== "[DONE]").map((e) => JSON.parse(e.data).choices[0].delta.role);
    assert.equal(roles[0], "assistant", "other delta fields pass through");
  }
});

const anthropicBody = [
  ["message_start", { type: "message_start", message: { id: "m1", role: "assistant", content: [] } }],
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ["ping", { type: "ping" }],
  ...deltas.map((text) => ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }]),
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["ping", { type: "ping" }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 30 } }],
  ["message_stop", { type: "message_stop" }],
].map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");

test("Anthropic Messages SSE: the tail goes before content_block_stop, citations before message_delta", async () => {
  const bytes = new TextEncoder().encode(anthropicBody);
  for (const chunks of cuttings(bytes)) {
    const { out } = await run(chunks);
    const events = sseEvents(out);
    const names = events.map((e) => e.event);
    const text = events
      .filter((e) => e.event === "content_block_delta")
      .map((e) => JSON.parse(e.data).delta.text)
      .join("");
    assert.equal(text, expected.cleanedAnswer);
    const stop = names.indexOf("content_block_stop");
    assert.ok(names.lastIndexOf("content_block_delta") < stop, names.join());
    assert.ok(stop < names.indexOf("citations") && names.indexOf("citations") < names.indexOf("message_delta"), names.join());
    assert.equal(names.at(-1), "message_stop");
  }
});

test("NDJSON: text fields cleaned, tail on the done line, then a citations line", async () => {
  const lines = [...deltas.map((response) => JSON.stringify({ model: "m", response, done: false })), JSON.stringify({ model: "m", response: "", done: true })];
  const { out } = await run([lines.join("\n") + "\n"]);
  const objects = out.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(objects.filter((o) => "response" in o).map((o) => o.response).join(""), expected.cleanedAnswer);
  assert.equal(objects.at(-1).event, "citations");
  assert.equal(objects.at(-1).data.report.cleanedAnswer, expected.cleanedAnswer);
});

test("bytes in, bytes out; strings in, strings out; the whole answer once ended", async () => {
  for (const [chunk, type] of [[new TextEncoder().encode("Water boils [1] here."), Uint8Array], ["Water boils [1] here.", String]]) {
    const transform = citeproofTransform({ sources });
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    assert.equal(transform.answer, null);
    writer.write(chunk);
    writer.close();
    const first = await reader.read();
    assert.ok(type === String ? typeof first.value === "string" : first.value instanceof type);
    while (!(await reader.read()).done);
    await transform.report;
    assert.equal(transform.answer, "Water boils [1] here.");
  }
});

test("bad options and malformed events are coded errors", async () => {
  assert.throws(() => citeproofTransform({ sources }, { format: "xml" }), { code: "invalid_option" });
  await assert.rejects(run(["data: {not json\n\n"], { format: "openai" }), { code: "invalid_input" });
  await assert.rejects(run([42]), { code: "invalid_input" });
});

test("a transform gives its stream's memory back when the body ends", async () => {
  // 300 KB of answer: a stream left to the collector would hold that and its cleaned
  // text (about 600 KB) in the module's memory until the engine finalized it.
  const long = [..."Water boils at 100 °C [1]. ".repeat(11_000)].join("").match(/[\s\S]{1,4096}/g);
  for (let i = 0; i < 3; i++) await run(long);
  const before = memoryBytes();
  for (let i = 0; i < 20; i++) assert.equal((await run(long)).report.markers.length, 11_000);
  assert.equal(memoryBytes(), before, "20 more transforms grew the module's memory");
});

