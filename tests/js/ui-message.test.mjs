// citeproof/ai's UI message transform through the AI SDK itself: the `ai` package
// (a devDependency, exact version) streams its own mock language model with
// `streamText`, turns it into the UI message stream a `useChat` route returns
// (`toUIMessageStream`), and `readUIMessageStream` builds the messages `useChat` would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { createUIMessageStream, generateText, readUIMessageStream, simulateReadableStream, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { pkgDir } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const { citeproofMiddleware, citeproofUIMessageTransform, getReport } = await import(join(pkgDir, "ai.js"));

const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
// [7] names no source; emoji and CJK brackets before and among the markers.
const ANSWER = "🌡️ Water boils at 100 °C [1]. The moon is made of cheese [7]. Tokyo is Japan's capital 【2】.\r\nDone [1][2].";

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finishReason = { unified: "stop", raw: "stop" };

/** A mock model streaming `text` in deltas of `size` code points (so markers are cut). */
function model(text, size) {
  const deltas = [...text.matchAll(new RegExp(`[\\s\\S]{1,${size}}`, "gu"))].map(([delta]) => ({ type: "text-delta", id: "t1", delta }));
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t1" }, ...deltas, { type: "text-end", id: "t1" }, { type: "finish", finishReason, usage }],
      }),
    }),
  });
}

/** Every chunk of the UI message stream of `text` through the transform. */
async function uiChunks(text, size, config) {
  const result = streamText({ model: model(text, size), prompt: "q" });
  const chunks = [];
  for await (const chunk of result.toUIMessageStream().pipeThrough(citeproofUIMessageTransform(config))) chunks.push(chunk);
  return chunks;
}

/** Half a marker at the end of `text`: `[` or `【` and digits with no closer yet. */
const HALF_MARKER = /(\[|【)\d*$/u;

for (const size of [1, 2, 3, 7]) {
  for (const policy of [undefined, "clean"]) {
    test(`deltas of ${size} code points, policy ${policy ?? "default (flag)"}: cleaned deltas, never half a marker, the report in a data-citations part`, async () => {
      const options = policy ? { policy } : undefined;
      const expected = validate({ answer: ANSWER, sources: SOURCES }, { policy: "flag", ...options });
      const chunks = await uiChunks(ANSWER, size, { sources: SOURCES, options });
      let shown = "";
      for (const chunk of chunks.filter((c) => c.type === "text-delta")) {
        shown += chunk.delta;
        assert.doesNotMatch(shown, HALF_MARKER, `half a marker shown: ${JSON.stringify(shown)}`);
      }
      assert.equal(shown, expected.cleanedAnswer);
      const parts = chunks.filter((c) => c.type === "data-citations");
      assert.equal(parts.length, 2, "the sources' cards first, then the report");
      assert.deepEqual(parts[0], { type: "data-citations", id: "citeproof", data: { sources: SOURCES.map(({ title, url }) => ({ title, url })), report: null } });
      assert.ok(chunks.indexOf(parts[0]) < chunks.findIndex((c) => c.type === "text-start"), "the cards come before the text");
      const { report } = parts[1].data;
      assert.equal(chunks.indexOf(parts[1]), chunks.findIndex((c) => c.type === "finish") - 1, "the report right before finish");
      assert.equal(report.status, expected.status);
      assert.deepEqual(report.citations.filter((c) => !c.valid).map((c) => c.label), ["7"], "[7] names no source");
      assert.deepEqual(report.segments, expected.segments);
      assert.deepEqual(report.citations.map((c) => [c.label, c.valid, ANSWER.slice(c.span.start, c.span.end)]), expected.citations.map((c) => [c.label, c.valid, ANSWER.slice(c.span.start, c.span.end)]));
      assert.equal(policy === "clean", !shown.includes("[7]"), "only the clean policy removes the marker that names no source");

      // The message useChat builds from the stream: its text, and the report getReport reads.
      let message;
      for await (const m of readUIMessageStream({ stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }) })) message = m;
      assert.equal(message.parts.filter((p) => p.type === "text").map((p) => p.text).join(""), expected.cleanedAnswer);
      assert.equal(message.parts.filter((p) => p.type === "data-citations").length, 1, "useChat keeps one part: the report replaced the cards");
      assert.deepEqual(getReport(message), report);
    });
  }
}

test("without sources, the source-url parts the model declares are the ones cited", async () => {
  const boil = { type: "source", sourceType: "url", id: "s1", url: "https://example.org/boil", title: "Boiling" };
  const m = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          boil,
          { type: "text-start", id: "t1" },
          ...["Water boils [", "1] and [", "2]."].map((delta) => ({ type: "text-delta", id: "t1", delta })),
          { type: "text-end", id: "t1" },
          { type: "finish", finishReason, usage },
        ],
      }),
    }),
  });
  const chunks = [];
  for await (const chunk of streamText({ model: m, prompt: "q" }).toUIMessageStream({ sendSources: true }).pipeThrough(citeproofUIMessageTransform({ options: { policy: "clean" } }))) chunks.push(chunk);
  assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "Water boils [1] and.");
  const [cards, last] = chunks.filter((c) => c.type === "data-citations");
  assert.deepEqual(cards.data.sources, [{ title: "Boiling", url: "https://example.org/boil" }]);
  assert.deepEqual(last.data.report.citations.map((c) => [c.label, c.valid]), [["1", true], ["2", false]]);
});

test("createUIMessageStream: a stream written by hand goes through, other parts untouched", async () => {
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: "data-weather", data: { city: "Tokyo" } });
      writer.write({ type: "text-start", id: "a" });
      for (const delta of ["Tokyo is the capital [", "2", "]."]) writer.write({ type: "text-delta", id: "a", delta });
      writer.write({ type: "text-end", id: "a" });
    },
  });
  const chunks = [];
  for await (const chunk of stream.pipeThrough(citeproofUIMessageTransform({ sources: SOURCES }))) chunks.push(chunk);
  assert.deepEqual(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta), ["Tokyo is the capital", " [2]."]);
  assert.ok(chunks.some((c) => c.type === "data-weather" && c.data.city === "Tokyo"));
  const last = chunks.filter((c) => c.type === "data-citations").at(-1);
  assert.equal(last.data.report.status, "pass", "the report comes before finish, or at the stream's end");
});

test("no config, undefined or null, is the transform of {}: no sources, policy flag", async () => {
  const expected = validate({ answer: ANSWER }, { policy: "flag" });
  for (const config of [undefined, null]) {
    const chunks = await uiChunks(ANSWER, 3, config);
    const shown = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
    assert.equal(shown, expected.cleanedAnswer, String(config));
    assert.equal(chunks.filter((c) => c.type === "data-citations").at(-1).data.report.status, expected.status);
  }
});

test("bad configuration throws coded errors", () => {
  assert.throws(() => citeproofUIMessageTransform(5), { code: "invalid_option", message: /^config: expected an object/ });
  assert.throws(() => citeproofUIMessageTransform({ sources: "x" }), { code: "invalid_option" });
  assert.throws(() => citeproofUIMessageTransform({ onReport: 1 }), { code: "invalid_option" });
  assert.throws(() => citeproofUIMessageTransform({ options: { renumber: true } }), { code: "invalid_option" });
  assert.throws(() => citeproofUIMessageTransform({ options: { policy: "nope" } }), { code: "invalid_option" });
  // Refused when the transform is made, not at the first text block.
  assert.throws(() => citeproofUIMessageTransform({ options: { markerPatterns: ["<(?P<refs>\\d+)>"] } }), {
    code: "invalid_option",
    message: /^options\.markerPatterns: custom marker patterns are not supported by streams/,
  });
});

test("getReport: generateText's result, streamText's promise, and nothing where there is none", async () => {
  const generated = await generateText({
    model: wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => ({ content: [{ type: "text", text: "Tokyo [2]." }], finishReason, usage, warnings: [] }) }),
      middleware: citeproofMiddleware({ sources: SOURCES }),
    }),
    prompt: "q",
  });
  assert.equal(getReport(generated).citations[0].label, "2");
  const streamed = streamText({ model: wrapLanguageModel({ model: model("Tokyo [2].", 2), middleware: citeproofMiddleware({ sources: SOURCES }) }), prompt: "q" });
  await streamed.consumeStream();
  assert.equal((await getReport(streamed)).citations[0].label, "2");
  assert.equal(getReport({ providerMetadata: {} }), undefined);
  assert.equal(getReport({ parts: [{ type: "text", text: "x" }] }), undefined);
  assert.equal(getReport(null), undefined);
});

test("citeproofTransform on a UI message stream body (toUIMessageStreamResponse): still a stream useChat reads, cleaned, with the report", async () => {
  const { citeproofTransform } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
  const body = await streamText({ model: model(ANSWER, 2), prompt: "q" }).toUIMessageStreamResponse().text();
  const bytes = new TextEncoder().encode(body);
  const transform = citeproofTransform({ sources: SOURCES }, { policy: "clean" });
  const cut = new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.slice(i, i + 5));
      c.close();
    },
  });
  const out = await new Response(cut.pipeThrough(transform)).text();
  assert.equal(transform.format, "ai-sdk");
  const datas = out.split("\n\n").filter((b) => b.startsWith("data: ")).map((b) => b.slice(6));
  assert.equal(datas.at(-1), "[DONE]");
  const chunks = datas.slice(0, -1).map((d) => JSON.parse(d));
  let shown = "";
  for (const chunk of chunks.filter((c) => c.type === "text-delta")) {
    shown += chunk.delta;
    assert.doesNotMatch(shown, HALF_MARKER);
  }
  const expected = validate({ answer: ANSWER, sources: SOURCES }, { policy: "clean" });
  assert.equal(shown, expected.cleanedAnswer);
  // Every text-delta inside its block: the held tail came before text-end.
  const ends = chunks.findIndex((c) => c.type === "text-end");
  assert.ok(chunks.slice(ends + 1).every((c) => c.type !== "text-delta"), "no delta after text-end");
  let message;
  for await (const m of readUIMessageStream({ stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }) })) message = m;
  assert.equal(message.parts.filter((p) => p.type === "text").map((p) => p.text).join(""), expected.cleanedAnswer);
  assert.equal(getReport(message).cleanedAnswer, expected.cleanedAnswer);
  assert.equal(getReport(message).status, expected.status);
});

test("reset-step: the step's parts leave the message and the report, the retried step is what is checked", async () => {
  // The AI SDK's `reset-step` chunk: the client drops every part the current step added
  // (here a declared source, the data-citations part announced, and text citing it).
  const moon = { type: "source-url", sourceId: "m", url: "https://example.org/moon", title: "Moon" };
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: "start-step" });
      writer.write(moon);
      writer.write({ type: "text-start", id: "a" });
      writer.write({ type: "text-delta", id: "a", delta: "The moon is made of cheese [1" });
      writer.write({ type: "reset-step" });
      writer.write({ type: "text-start", id: "b" });
      for (const delta of ["Tokyo is the capital [", "2", "]."]) writer.write({ type: "text-delta", id: "b", delta });
      writer.write({ type: "text-end", id: "b" });
      writer.write({ type: "finish-step" });
    },
  });
  let report;
  const chunks = [];
  for await (const chunk of stream.pipeThrough(citeproofUIMessageTransform({ onReport: (r) => (report = r) }))) chunks.push(chunk);
  let message;
  for await (const m of readUIMessageStream({ stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }) })) message = m;
  assert.equal(message.parts.filter((p) => p.type === "text").map((p) => p.text).join(""), "Tokyo is the capital [2].");
  assert.equal(message.parts.filter((p) => p.type === "source-url").length, 0, "the reset step's source is gone");
  assert.equal(message.parts.filter((p) => p.type === "data-citations").length, 1);
  // The report is of the retried step alone: its answer, and no source (the moon's left
  // with its step), so [2] is out of range, with "no sources were retrieved"; the reset
  // chunk is no unknown part.
  assert.deepEqual(getReport(message), JSON.parse(JSON.stringify(report)));
  assert.equal(report.cleanedAnswer, "Tokyo is the capital [2].");
  assert.deepEqual(report.findings.map((f) => f.code), ["out_of_range"]);
  assert.match(report.findings[0].message, /no sources were retrieved/);
});
