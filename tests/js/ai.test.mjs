// citeproof/ai through the AI SDK itself: the `ai` package (a devDependency, exact
// version) wraps its own mock language model with the middleware and runs generateText
// and streamText, each with an answer that passes and one that fails.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { generateText, readUIMessageStream, simulateReadableStream, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { pkgDir } from "./helpers.mjs";

const { fromVercelAI, validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const AI = await import(join(pkgDir, "ai.js"));
const { citeproofMiddleware, getReport } = AI;
const { CitedAnswer } = await import(join(pkgDir, "react.js"));
const { createElement } = await import("react");
const { renderToStaticMarkup } = await import("react-dom/server");

// The sources the app retrieved and put in the prompt: [1] and [2].
const SOURCES = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const PASSING = "Water boils at 100 °C [1]. Tokyo is Japan's capital 【2】. 😀";
// [7] names no source: out_of_range, removed by the default policy, and the answer fails.
const FAILING = "Water boils at 100 °C [1]. The moon is made of cheese [7]. Tokyo is Japan's capital [2].";

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finishReason = { unified: "stop", raw: "stop" };

/** A mock model answering `text`, streamed in `size`-character deltas. */
function model(text, { size = 3, citations } = {}) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: "text", text, ...(citations ? { citations } : {}) }], finishReason, usage, warnings: [] }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t1" },
          ...[...text.matchAll(new RegExp(`[\\s\\S]{1,${size}}`, "gu"))].map(([delta]) => ({ type: "text-delta", id: "t1", delta })),
          { type: "text-end", id: "t1", ...(citations ? { citations } : {}) },
          { type: "finish", finishReason, usage },
        ],
      }),
    }),
  });
}

const wrapped = (text, config = { sources: SOURCES }, modelOptions) =>
  wrapLanguageModel({ model: model(text, modelOptions), middleware: citeproofMiddleware(config) });

for (const [name, text] of [["pass", PASSING], ["fail", FAILING]]) {
  const expected = validate({ answer: text, sources: SOURCES });

  test(`generateText (${name}): the text cleaned, the report in providerMetadata`, async () => {
    assert.equal(expected.status, name);
    const reports = [];
    const result = await generateText({ model: wrapped(text, { sources: SOURCES, onReport: (r) => reports.push(r) }), prompt: "q" });
    assert.equal(result.text, expected.cleanedAnswer);
    const report = result.providerMetadata.citeproof.report;
    assert.equal(report.status, name);
    assert.deepEqual(report.findings, expected.findings);
    assert.deepEqual(reports.map((r) => r.status), [name]);
  });

  test(`streamText (${name}): deltas cleaned and never half a marker, the report on finish`, async () => {
    const result = streamText({ model: wrapped(text), prompt: "q" });
    const deltas = [];
    for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text);
    assert.equal(deltas.join(""), expected.cleanedAnswer);
    assert.equal(await result.text, expected.cleanedAnswer);
    for (const delta of deltas) assert.doesNotMatch(delta, /\[\d*$|【\d*$/, `a delta ends in half a marker: ${JSON.stringify(delta)}`);
    const report = (await result.providerMetadata).citeproof.report;
    assert.equal(report.status, name);
    assert.deepEqual(report.findings, expected.findings);
  });
}

test("streamed one character at a time, the text is the cleaned answer", async () => {
  const result = streamText({ model: wrapped(FAILING, { sources: SOURCES }, { size: 1 }), prompt: "q" });
  assert.equal(await result.text, validate({ answer: FAILING, sources: SOURCES }).cleanedAnswer);
});

test("a lone surrogate in the model's text (half an emoji) reads as U+FFFD, as validate reads it", async () => {
  for (const text of ["Tokyo \uD800 is Japan's capital [2].", "Tokyo is Japan's capital [2]. \uDE00", "\uD83D[7] Water boils at 100 °C [1]."]) {
    const expected = validate({ answer: text, sources: SOURCES });
    assert.match(expected.cleanedAnswer, /\uFFFD/);
    const generated = await generateText({ model: wrapped(text), prompt: "q" });
    assert.equal(generated.text, expected.cleanedAnswer, JSON.stringify(text));
    const streamed = streamText({ model: wrapped(text, { sources: SOURCES }, { size: 1 }), prompt: "q" });
    assert.equal(await streamed.text, expected.cleanedAnswer, JSON.stringify(text));
    assert.deepEqual((await streamed.providerMetadata).citeproof.report.findings, expected.findings);
  }
});

test("options that are no object are invalid_option when the middleware or the transform is made", () => {
  const { citeproofUIMessageTransform } = AI;
  for (const options of [0, Number.NaN, "abc", Symbol("x"), 10n, [], true]) {
    for (const make of [citeproofMiddleware, citeproofUIMessageTransform]) {
      assert.throws(() => make({ sources: SOURCES, options }), (e) => e.code === "invalid_option" && /^options: expected an object/.test(e.message), `${make.name} ${String(options)}`);
    }
  }
  assert.equal(typeof citeproofMiddleware({ sources: SOURCES, options: null }).wrapGenerate, "function");
});

test("a call without the SDK's shapes is a coded error; a list is read by its length first", async () => {
  const middleware = citeproofMiddleware({ sources: SOURCES });
  const huge = () => Object.assign([], { length: 2 ** 32 - 1 });
  await assert.rejects(middleware.wrapGenerate({}), (e) => e.code === "invalid_input" && /^wrapGenerate: /.test(e.message));
  await assert.rejects(middleware.wrapStream({}), (e) => e.code === "invalid_input" && /^wrapStream: /.test(e.message));
  await assert.rejects(middleware.wrapGenerate({ doGenerate: async () => undefined }), (e) => e.code === "invalid_input" && /result\.content/.test(e.message));
  await assert.rejects(middleware.wrapGenerate({ doGenerate: async () => ({ content: huge() }) }), (e) => e.code === "too_large");
  assert.throws(() => getReport({ parts: huge() }), (e) => e.code === "too_large" && /^result\.parts: 4294967295 items/.test(e.message));
  // A result whose content holds no text part is the model's, untouched.
  const noText = { content: [null, { type: "source", sourceType: "url", id: "s", url: SOURCES[0].url }] };
  assert.equal(await middleware.wrapGenerate({ doGenerate: async () => noText }), noText);
});

test("declared citations (v7 text parts) keep pointing at their text after markers are removed", async () => {
  const text = "Cheese [7] is made of milk. Water boils at 100 °C.";
  const sentence = "Water boils at 100 °C.";
  const start = text.indexOf(sentence);
  const citations = [{ source: { type: "source", sourceType: "url", id: "s1", url: SOURCES[0].url, title: "Boiling" }, startIndex: start, endIndex: start + sentence.length }];
  const generated = await generateText({ model: wrapped(text, { sources: SOURCES }, { citations }), prompt: "q" });
  const part = generated.content.find((p) => p.type === "text");
  assert.equal(part.text, "Cheese is made of milk. Water boils at 100 °C.");
  const moved = part.citations[0];
  assert.equal(part.text.slice(moved.startIndex, moved.endIndex), sentence);

  const streamed = streamText({ model: wrapped(text, { sources: SOURCES }, { citations }), prompt: "q" });
  let end;
  for await (const p of streamed.fullStream) if (p.type === "text-end") end = p;
  const shown = await streamed.text;
  assert.equal(shown, part.text);
  assert.equal(shown.slice(end.citations[0].startIndex, end.citations[0].endIndex), sentence);
});

test("bad configuration is a coded Error when the middleware is made", () => {
  for (const [config, path] of [
    [5, /^config: expected an object/],
    ["sources", /^config: expected an object/],
    [{ sources: "x" }, /^sources:/],
    [{ options: { renumber: true } }, /^options\.renumber:/],
    [{ options: { polcy: "clean" } }, /^options\.polcy: unknown option \(did you mean "policy"\?\)/],
    [{ onReport: 3 }, /^onReport:/],
  ]) {
    assert.throws(() => citeproofMiddleware(config), (e) => e.code === "invalid_option" && path.test(e.message), JSON.stringify(config));
  }
});

test("markerPatterns work for generateText; a streamed answer refuses them with a coded error", async () => {
  const config = { sources: SOURCES, options: { markerPatterns: ["<(?P<refs>\\d+)>"] } };
  const answer = "Water boils at 100 °C <1>.";
  const expected = validate({ answer, sources: SOURCES }, config.options);
  // With the pattern "<1>" cites the first source; without it, the answer cites nothing.
  assert.equal(expected.citations.length, 1);
  assert.equal(validate({ answer, sources: SOURCES }).citations.length, 0);
  const { text, providerMetadata } = await generateText({ model: wrapped(answer, config), prompt: "q" });
  assert.equal(text, expected.cleanedAnswer);
  assert.equal(providerMetadata.citeproof.report.status, expected.status);
  assert.equal(providerMetadata.citeproof.report.citations.length, 1);
  // Streamed, the answer's CitationStream refuses them: the stream ends in the coded error.
  await assert.rejects(
    async () => {
      for await (const p of streamText({ model: wrapped(answer, config), prompt: "q" }).fullStream) {
        if (p.type === "error") throw p.error;
      }
    },
    (e) => e.code === "invalid_option" && /^options\.markerPatterns:/.test(e.message),
  );
});

test("no config, undefined or null, is the middleware of {}: no sources, the default policy", async () => {
  const expected = validate({ answer: PASSING });
  for (const config of [undefined, null]) {
    const middleware = citeproofMiddleware(config);
    const { text, providerMetadata } = await generateText({ model: wrapLanguageModel({ model: model(PASSING), middleware }), prompt: "q" });
    assert.equal(text, expected.cleanedAnswer, String(config));
    assert.equal(providerMetadata.citeproof.report.status, expected.status);
  }
});

test("a UI message, as useChat holds it, renders with chips through fromVercelAI (the README's example)", async () => {
  // A web-search answer: the model's own source parts, streamed to the UI.
  const web = [
    { type: "source", sourceType: "url", id: "w1", url: "https://example.org/boil", title: "Boiling" },
    { type: "source", sourceType: "url", id: "w2", url: "https://example.org/japan", title: "Japan" },
  ];
  const text = "Water boils at 100 °C [1]. Tokyo is Japan's capital [2]. Mars [5].";
  const streaming = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          ...web,
          { type: "text-start", id: "t1" },
          { type: "text-delta", id: "t1", delta: text },
          { type: "text-end", id: "t1" },
          { type: "finish", finishReason, usage },
        ],
      }),
    }),
  });
  const result = streamText({ model: streaming, prompt: "q" });
  let message;
  for await (const m of readUIMessageStream({ stream: result.toUIMessageStream({ sendSources: true }) })) message = m;
  assert.deepEqual(message.parts.filter((p) => p.type === "source-url").map((p) => p.url), web.map((w) => w.url));
  const input = fromVercelAI(message);
  const report = validate(input, { policy: "flag" });
  const markup = renderToStaticMarkup(createElement(CitedAnswer, { report, sources: input.sources }));
  const badges = [...markup.matchAll(/data-valid="(\w+)">([^<]+)<\/button>/g)].map((m) => [m[2], m[1]]);
  assert.deepEqual(badges, [["1", "true"], ["2", "true"], ["5", "false"]]);
  assert.equal(report.status, "fail");
});
