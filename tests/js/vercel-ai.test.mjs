// The Vercel AI SDK as it really produces its results and stream parts: the `ai` package
// (a devDependency, exact version) runs generateText and streamText over its own mock
// language model, and what it hands the app goes through fromVercelAI and fromAny: the
// package's JS adapters (citeproof/providers) and the full module's Rust ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { generateText, streamText, simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const wasm = require(join(pkgDir, "node", "citeproof.js"));
const { validate } = wasm;
const IMPLEMENTATIONS = [
  ["citeproof/providers (JS)", await import(join(pkgDir, "providers.js"))],
  ["the full module (Rust)", wasm],
];

const boil = { type: "source", sourceType: "url", id: "s1", url: "https://example.org/boil", title: "Boiling" };
const tokyo = { type: "source", sourceType: "url", id: "s2", url: "https://example.org/japan", title: "Japan" };
// Emoji and accents before the cited spans: the SDK's indices are JS string (UTF-16) ones.
const TEXT = "🌡️ Water boils at 100 °C. Tokyo is Japan's capital.";
const cite = (source, sentence, citedText) => {
  const startIndex = TEXT.indexOf(sentence);
  return { source, startIndex, endIndex: startIndex + sentence.length, citedText };
};
const CITATIONS = [
  cite(boil, "Water boils at 100 °C.", "Water boils at 100 °C at sea level."),
  cite(tokyo, "Tokyo is Japan's capital.", "Tokyo is the capital of Japan."),
];
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finish = { unified: "stop", raw: "stop" };

function model(citations = CITATIONS) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: TEXT, citations }, boil, tokyo],
      finishReason: finish,
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          boil,
          tokyo,
          { type: "text-start", id: "t1" },
          ...TEXT.match(/.{1,5}/gu).map((delta) => ({ type: "text-delta", id: "t1", delta })),
          { type: "text-end", id: "t1", citations },
          { type: "finish", finishReason: finish, usage },
        ],
      }),
    }),
  });
}

/** The cited answer text and source URL of each declared citation, and its stated quote. */
function cited(input) {
  const report = validate(input);
  return (input.citations ?? []).map((c, d) => {
    const result = report.citations.find((r) => r.declared === d);
    return [input.answer.slice(c.span.start, c.span.end), input.sources[result.sourceIndex - 1].url, result.quoteText];
  });
}

const EXPECTED = [
  ["Water boils at 100 °C.", "https://example.org/boil", "Water boils at 100 °C at sea level."],
  ["Tokyo is Japan's capital.", "https://example.org/japan", "Tokyo is the capital of Japan."],
];

for (const [impl, { fromVercelAI, fromAny }] of IMPLEMENTATIONS) {
  test(`${impl}: streamText's fullStream parts: text deltas, sources and the citations of text-end`, async () => {
    const result = streamText({ model: model(), prompt: "q" });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    assert.ok(parts.some((p) => p.type === "text-delta" && typeof p.text === "string"), "the SDK's own part shape");
    const input = fromVercelAI(parts);
    assert.deepEqual(fromAny(parts), input);
    assert.equal(input.answer, await result.text);
    assert.deepEqual(cited(input), EXPECTED);
    assert.equal(validate(input).status, "pass");
    assert.deepEqual(input.warnings ?? [], [], "every part type the SDK sends is known");

    // Parts of types a later SDK might add are read past and counted in one warning.
    const future = [{ type: "future-part", id: "t1", text: "not answer text" }, ...parts, { type: "future-part" }, { type: "x-other" }];
    const read = fromVercelAI(future);
    assert.equal(read.answer, input.answer);
    assert.deepEqual(read.citations, input.citations);
    assert.deepEqual(read.warnings.map((w) => [w.code, w.severity]), [["unknown_content", "warning"]]);
    assert.match(read.warnings[0].message, /^read past 3 parts of the response .*\(part "future-part" ×2, part "x-other"\)/);
    const report = validate(read);
    assert.equal(report.status, "pass", "a warning, no effect on the gate");
    assert.deepEqual(report.findings.map((f) => f.code), ["unknown_content"]);
  });

  test(`${impl}: generateText's result: text parts with citations, and sources`, async () => {
    const result = await generateText({ model: model(), prompt: "q" });
    const given = { text: result.text, content: result.content, sources: result.sources };
    const input = fromVercelAI(given);
    assert.deepEqual(fromAny(given), input);
    assert.equal(input.answer, TEXT);
    assert.deepEqual(cited(input), EXPECTED);
    assert.deepEqual(input.warnings ?? [], [], "every content part type the SDK returns is known");
  });

  test(`${impl}: a UI message stream (toUIMessageStream): text deltas and source-url parts`, async () => {
    const result = streamText({ model: model(), prompt: "q" });
    const chunks = [];
    for await (const chunk of result.toUIMessageStream({ sendSources: true })) chunks.push(chunk);
    assert.ok(chunks.some((c) => c.type === "source-url"), "the SDK sends the sources");
    const input = fromVercelAI(chunks);
    assert.deepEqual(fromAny(chunks), input);
    assert.equal(input.answer, TEXT);
    assert.deepEqual(input.sources.map((s) => s.url), [boil.url, tokyo.url]);
    assert.deepEqual(input.warnings ?? [], [], "every chunk type the SDK sends is known");
  });

  test(`${impl}: a citation whose offsets fall outside its text is placed nowhere and warned, not thrown`, async () => {
    const wrong = [{ ...CITATIONS[0], startIndex: 500, endIndex: 520 }];
    const result = streamText({ model: model(wrong), prompt: "q" });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    const input = fromVercelAI(parts);
    assert.equal(input.citations.length, 1);
    assert.equal(input.citations[0].span, undefined);
    assert.ok(validate(input).findings.some((f) => f.code === "offset_mismatch"));
  });

  test(`${impl}: the UI message stream's newer chunks (custom, reasoning-file, steering-message, reset-step) are known`, () => {
    const chunks = [
      { type: "start" },
      { type: "start-step" },
      { type: "custom", kind: "acme.progress" },
      { type: "reasoning-file", url: "https://example.org/r.png", mediaType: "image/png" },
      { type: "steering-message", id: "u2", parts: [{ type: "text", text: "shorter, please" }] },
      { type: "reset-step" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Water boils at 100 °C." },
      { type: "text-end", id: "t" },
      { type: "finish-step" },
      { type: "finish" },
    ];
    const input = fromVercelAI(chunks);
    assert.equal(input.answer, "Water boils at 100 °C.");
    assert.deepEqual(input.warnings ?? [], [], JSON.stringify(input.warnings));
  });
}
