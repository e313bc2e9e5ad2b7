// Provider traffic as the vendors recorded it (tests/fixtures/providers/recorded: real
// responses and streams from public SDK test fixtures, origins in origins.json). What
// each must yield comes from tests/reference/providers-expect.mjs, which reads the raw
// JSON by the providers' documented semantics and shares no code with the adapters.
// Each fixture goes through its adapter and through fromAny: no throw, the same Input
// from both, the answer the provider wrote, spans that slice to the text each citation
// covers, every cited source resolved, stated quotes kept, and no offset_mismatch (every
// recorded offset here is right: the expectation script checks them against the
// provider's own copy of the text where it gives one), and no unknown_content (every
// recorded part is of a type its provider documents). Then each, with parts of types to
// come added, is read the same, with those parts counted in one warning.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { ADAPTER, pkgDir } from "./helpers.mjs";
import { expectFor, listFixtures, originOf, readFixture } from "../reference/providers-expect.mjs";

const require = createRequire(import.meta.url);
const pkg = require(join(pkgDir, "node", "citeproof.js"));
const { validate, fromAny, fromAnthropic } = pkg;


/** The response as an adapter takes it: a stream's events as a list, else the object. */
function response(file) {
  const text = readFixture(file);
  if (!file.endsWith(".chunks.txt")) return JSON.parse(text);
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

// The APIs the adapters claim (every one in the corpus: xAI's Responses API is read by
// the OpenAI adapter), not the cassettes the Gemini files were taken from.
// (`anthropic-citations.sources.json` is the documents some requests sent, not a response.)
const claimed = listFixtures().filter(
  (file) => ADAPTER[originOf(file).provider] && !file.endsWith(".yaml") && originOf(file).form !== "sources",
);

/** The name the adapter reports for a recording's provider. */
const reportedAs = (provider) => (provider === "xai" ? "openai" : provider);

test("the corpus covers every provider and both forms the adapters claim", () => {
  const forms = new Set(claimed.map((file) => `${originOf(file).provider} ${originOf(file).form}`));
  // The AI SDK's own output is tested through the `ai` package itself (vercel-ai.test.mjs).
  for (const provider of Object.keys(ADAPTER).filter((p) => p !== "vercel-ai")) {
    assert.ok(forms.has(`${provider} response`), `${provider} response`);
    if (provider !== "cohere") assert.ok(forms.has(`${provider} stream`), `${provider} stream`);
  }
});

for (const file of claimed) {
  test(`${file} (${originOf(file).repo}): read as the provider recorded it`, () => {
    const expected = expectFor(file);
    const recorded = response(file);
    const input = fromAny(recorded);
    assert.equal(input.provider, reportedAs(expected.provider));
    assert.deepEqual(pkg[ADAPTER[expected.provider]](recorded), input, "fromAny and the named adapter");
    assert.equal(input.answer, expected.answer);
    const report = validate(input, { requireCitations: false });
    // No adapter warning: the offsets are right and every part's type is known.
    const adapterWarnings = ["offset_mismatch", "unknown_content"];
    assert.deepEqual(report.findings.filter((f) => adapterWarnings.includes(f.code)), []);

    // The sources: every one the response lists or cites, by URL.
    const urls = new Set(input.sources.map((s) => s.url));
    for (const source of expected.sources) if (source.url) assert.ok(urls.has(source.url), `source ${source.url}`);

    if (expected.provider === "perplexity") {
      // The `[n]` markers are the citations: each resolves to a listed source.
      assert.ok(report.citations.length > 0);
      for (const c of report.citations) assert.ok(c.valid && c.sourceIndex >= 1, `[${c.label}]`);
      return;
    }
    // Declared citations: one per span and source, with the span's text and the
    // source's URL (multisets: the order within one span may differ).
    const key = (spanText, url, quote) => JSON.stringify([spanText, url ?? null, quote ?? null]);
    const got = (input.citations ?? []).map((c, d) => {
      const result = report.citations.find((r) => r.declared === d);
      const span = c.span ? input.answer.slice(c.span.start, c.span.end) : null;
      const source = result?.sourceIndex ? input.sources[result.sourceIndex - 1] : null;
      assert.ok(source, `declared citation ${d} resolves to a source`);
      return key(span, source.url, result.quoteText);
    });
    const want = expected.citations.map((c) => key(c.spanText, c.url, c.citedText));
    assert.deepEqual(got.sort(), want.sort());
  });
}

/** A recorded stream as its SSE body: each event under its type, as the API sends it. */
const sse = (events) => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

test("citeproofTransform over the recorded Anthropic web-search SSE: the answer passes, with its declared citations", async () => {
  const events = response("anthropic-web-search.chunks.txt");
  const expected = validate(fromAny(events));
  assert.equal(expected.status, "pass");
  const body = sse(events);
  // Cut at arbitrary places, as a network does (a multi-byte character cut too).
  const bytes = new TextEncoder().encode(body);
  const cuts = [];
  for (let at = 0; at < bytes.length; at += 997) cuts.push(bytes.slice(at, at + 997));
  const transform = pkg.citeproofTransform({ sources: [] });
  const out = new Response(new ReadableStream({ start(c) { cuts.forEach((b) => c.enqueue(b)); c.close(); } }).pipeThrough(transform));
  const text = await out.text();
  const report = await transform.report;
  assert.equal(report.status, "pass", JSON.stringify(report.findings));
  assert.deepEqual(report.citations.map((c) => [c.span, c.quoteText, c.valid]), expected.citations.map((c) => [c.span, c.quoteText, c.valid]));
  // The text deltas the transform sent make the whole answer, and the citations event
  // ends the stream with the same report.
  const sent = text.split("\n\n").filter((b) => b.includes('"text_delta"')).map((b) => JSON.parse(b.slice(b.indexOf("data:") + 5)).delta.text).join("");
  assert.equal(sent, fromAny(events).answer);
  const last = text.trim().split("\n\n").find((b) => b.startsWith("event: citations"));
  assert.equal(JSON.parse(last.slice(last.indexOf("data:") + 5)).report.status, "pass");
});

/**
 * The recorded response with parts of types no adapter knows put where its API has typed
 * parts (as a later API version might send them): the response and what the warning
 * must name. Perplexity's chunks carry no typed parts: null.
 */
function withFutureTypes(provider, recorded) {
  const r = structuredClone(recorded);
  const stream = Array.isArray(r);
  const parts = [];
  const put = (list, item, name) => {
    if (!list) return;
    list.push(item);
    parts.push(name);
  };
  if (provider === "anthropic" && stream) {
    r.splice(1, 0, { type: "future_event" },
      { type: "content_block_start", index: 90, content_block: { type: "future_block" } },
      { type: "content_block_delta", index: 90, delta: { type: "future_delta", future: "x" } });
    parts.push('event "future_event"', 'content block "future_block"', 'delta "future_delta"');
  } else if (provider === "anthropic" && !r.type) {
    // A bare `{ content }` is taken for Anthropic's only when every block is of a type
    // the Messages API names (so no other list of blocks reads as an empty answer):
    // fromAnthropic reads past one to come (the cookbook test below), fromAny does not.
    return null;
  } else if (provider === "anthropic") {
    put(r.content, { type: "future_block", text: "not answer text" }, 'content block "future_block"');
  } else if (provider === "openai" && stream && r[0].object === "chat.completion.chunk") {
    const annotation = { type: "future_annotation", start_index: 0, end_index: 1 };
    r.push({ ...r[0], choices: [{ index: 0, delta: { annotations: [annotation] } }] });
    parts.push('annotation "future_annotation"');
  } else if (provider === "openai" && !r.output && !stream) {
    put((r.choices[0].message.annotations ??= []), { type: "future_annotation" }, 'annotation "future_annotation"');
  } else if (provider === "openai") {
    const response = stream ? r.findLast((e) => e.type === "response.completed").response : r;
    if (stream) put(r, { type: "future.event" }, 'event "future.event"');
    const message = response.output.find((item) => item.type === "message");
    put(message.content.find((p) => p.type === "output_text").annotations, { type: "future_annotation" }, 'annotation "future_annotation"');
    put(message.content, { type: "future_part", text: "not answer text" }, 'content part "future_part"');
    put(response.output, { type: "future_item" }, 'output item "future_item"');
  } else if (provider === "gemini" && stream && r[0].event_type) {
    r.splice(1, 0, { event_type: "future.event" }, { index: 90, delta: { type: "future_delta" }, event_type: "step.delta" });
    parts.push('event "future.event"', 'delta "future_delta"');
  } else if (provider === "gemini" && r.steps) {
    put(r.steps, { type: "future_step", text: "not answer text" }, 'step "future_step"');
    const text = r.steps.find((s) => s.type === "model_output").content.find((b) => b.type === "text");
    put(text.annotations, { type: "future_annotation", start_index: 0, end_index: 1 }, 'annotation "future_annotation"');
  } else if (provider === "gemini") {
    const candidates = (stream ? r : [r]).map((chunk) => chunk.candidates[0]);
    put(candidates[0].content.parts, { futurePart: { text: "not answer text" } }, 'part "futurePart"');
    const grounded = candidates.findLast((c) => c.groundingMetadata?.groundingChunks);
    const chunk = { futureChunk: { uri: "https://future.example/", title: "Future" } };
    put(grounded?.groundingMetadata.groundingChunks, chunk, 'grounding chunk "futureChunk"');
  } else if (provider === "bedrock" && stream) {
    r.splice(1, 0, { futureEvent: {} }, { contentBlockDelta: { contentBlockIndex: 90, delta: { futureDelta: "x" } } });
    parts.push('event "futureEvent"', 'delta "futureDelta"');
  } else if (provider === "bedrock") {
    put(r.output.message.content, { futureBlock: { text: "not answer text" } }, 'content block "futureBlock"');
  } else if (provider === "cohere" && stream) {
    r.splice(1, 0, { type: "future-event" });
    parts.push('event "future-event"');
  } else if (provider === "cohere") {
    put(r.message.content, { type: "future_part", text: "not answer text" }, 'content part "future_part"');
    put(r.message.citations?.[0]?.sources, { type: "future_source", id: "future" }, 'citation source "future_source"');
  } else {
    return null;
  }
  return { response: r, parts };
}

for (const file of claimed) {
  const { provider } = originOf(file);
  const future = withFutureTypes(reportedAs(provider), response(file));
  if (!future) continue;
  test(`${file}: parts of types to come are read past and counted in one warning`, () => {
    const before = fromAny(response(file));
    assert.deepEqual(before.warnings?.filter((w) => w.code === "unknown_content") ?? [], [], "the recorded types are all known");
    const after = fromAny(future.response);
    assert.deepEqual(pkg[ADAPTER[provider]](future.response), after, "fromAny and the named adapter");
    assert.equal(after.answer, before.answer);
    assert.deepEqual(after.citations, before.citations);
    // A grounding chunk of a kind to come is still a source (supports name chunks by
    // position): it is listed after the others.
    assert.deepEqual(after.sources.slice(0, before.sources.length), before.sources);
    const extra = after.sources.slice(before.sources.length).map((s) => s.url);
    assert.deepEqual(extra, future.parts.some((p) => p.startsWith("grounding chunk")) ? ["https://future.example/"] : []);

    const counted = after.warnings.filter((w) => w.code === "unknown_content");
    assert.equal(counted.length, 1, "one warning for all of them");
    const n = future.parts.length;
    assert.match(counted[0].message, new RegExp(`^read past ${n} parts? of the response `));
    for (const part of future.parts) assert.ok(counted[0].message.includes(part), `${part} in: ${counted[0].message}`);
    const report = validate(after, { requireCitations: false });
    assert.equal(report.findings.filter((f) => f.code === "unknown_content").length, 1, "the warning reaches the report");
    assert.equal(report.findings.find((f) => f.code === "unknown_content").severity, "warning");
    assert.equal(report.status, validate(before, { requireCitations: false }).status, "no effect on the gate");
  });
}

// The property the adapters owe every recording: validate(fromX(r)) never throws, and
// reports no error the recording does not justify. The one error a recording can justify
// here is `no_citations`, for an answer whose provider cited nothing.
for (const file of claimed) {
  test(`${file}: validate(fromX(recording)) never throws and reports no error the recording does not justify`, () => {
    const { provider } = originOf(file);
    const recorded = response(file);
    const expected = expectFor(file);
    for (const input of [fromAny(recorded), pkg[ADAPTER[provider]](recorded)]) {
      for (const options of [undefined, { requireCitations: false }]) {
        const report = validate(input, options);
        const errors = report.findings.filter((f) => f.severity === "error").map((f) => f.code);
        const cites = report.citations.filter((c) => c.errors?.length).map((c) => c.errors.map((e) => e.code));
        const justified = expected.citations.length === 0 && report.markers.length === 0 ? ["no_citations"] : [];
        assert.deepEqual(errors.filter((code) => !justified.includes(code)), [], JSON.stringify(report.findings));
        assert.deepEqual(cites, [], "no citation carries an error");
      }
    }
  });
}

/** The recorded Anthropic web-search response. */
const anthropicSearch = () => response("anthropic-web-search.json");

test("an Anthropic citation with an empty cited_text is a citation without a quote, which validate accepts (regression)", () => {
  // No recording with `cited_text: ""` is public; the recorded response with one of its
  // web_search_result_location citations emptied, as the issue met it live.
  const r = anthropicSearch();
  const citation = r.content.find((b) => b.citations?.length).citations[0];
  citation.cited_text = "";
  const input = fromAnthropic(r);
  const before = fromAnthropic(anthropicSearch());
  assert.equal(input.citations.length, before.citations.length);
  assert.equal(input.citations[0].quote, undefined, "no empty quote");
  assert.deepEqual(input.citations.slice(1), before.citations.slice(1));
  const report = validate(input);
  assert.deepEqual(report.findings.filter((f) => f.severity === "error"), []);
  assert.equal(report.status, validate(before).status);
});

test("fromAny reads a bare { content } of Anthropic blocks as fromAnthropic reads the message (regression)", () => {
  const r = anthropicSearch();
  const bare = fromAny({ content: r.content });
  assert.equal(bare.provider, "anthropic");
  const whole = fromAnthropic(r);
  delete whole.responseId;
  delete whole.modelVersion;
  assert.deepEqual(bare, { ...whole, provider: "anthropic" });
  assert.deepEqual(fromAnthropic({ content: r.content }), bare);
  // OpenAI Assistants content (text blocks whose `text` is an object) is not taken for it.
  assert.notEqual(fromAny({ object: "thread.message", content: [{ type: "text", text: { value: "x", annotations: [] } }] }).provider, "anthropic");
});

test("a response of no known shape throws unknown_provider_format, never reads as an empty answer (regression: Bedrock taken for OpenAI)", () => {
  for (const shape of [{ output: { message: { role: "assistant" } } }, { output: { text: "x" } }, { content: [{ type: "future_block" }] }, {}]) {
    assert.throws(() => fromAny(shape), (e) => e.code === "unknown_provider_format", JSON.stringify(shape));
  }
  assert.equal(fromAny(response("bedrock-citations.json")).provider, "bedrock");
});

test("OpenRouter's start_index = end_index = 0 is no position: citations without a span, and no offset_mismatch (regression)", () => {
  const input = fromAny(response("openrouter-web-search.json"));
  assert.equal(input.provider, "openai");
  assert.equal(input.citations.length, 5);
  assert.ok(input.citations.every((c) => c.span === undefined));
  assert.deepEqual((input.warnings ?? []).map((w) => w.code), []);
});

test("xAI's [[n]](url) links annotated with their URL are the provider's numbers, not positions in the source list (regression)", () => {
  // No public recording has xAI's inline citations with offsets (the vendored xAI
  // responses were made with them off); this is the form docs.x.ai/developers/tools/citations
  // documents, with the recorded response's URLs: `[[N]](url)` links, each annotated.
  const recorded = response("xai-web-search.json");
  const message = recorded.output.find((item) => item.type === "message");
  const part = message.content[0];
  const links = [["xAI was founded by Elon Musk in July 2023 ", 2, "https://x.ai/company"], [". It builds Grok ", 1, "https://x.ai/"], [".", 3, null]];
  let text = "";
  part.annotations = [];
  for (const [prose, n, url] of links) {
    text += prose;
    if (!url) continue;
    const link = `[[${n}]](${url})`;
    part.annotations.push({ type: "url_citation", url, start_index: text.length, end_index: text.length + link.length, title: String(n) });
    text += link;
  }
  part.text = text;
  const input = fromAny(recorded);
  assert.deepEqual(input.sources.map((s) => s.url), ["https://x.ai/company", "https://x.ai/"]);
  const report = validate(input);
  assert.deepEqual(report.findings.filter((f) => f.severity === "error"), []);
  assert.deepEqual(report.findings.map((f) => f.code).filter((c) => c === "declared_unused" || c === "not_declared"), []);
  // Each link resolves to the source its annotation names, whatever number it shows.
  assert.deepEqual(report.citations.map((c) => [input.answer.slice(c.span.start, c.span.end), input.sources[c.sourceIndex - 1].url]), [
    ["[[2]](https://x.ai/company)", "https://x.ai/company"],
    ["[[1]](https://x.ai/)", "https://x.ai/"],
  ]);
  // A link nobody annotated keeps its number: [[3]] is past the two sources.
  const unannotated = { ...input, answer: `${input.answer} More [[3]](https://example.org/).` };
  const findings = validate(unannotated).findings.map((f) => f.code);
  assert.ok(findings.includes("out_of_range"), findings.join());
});

test("Cohere citations of the thinking (THINKING_CONTENT) or the tool plan (PLAN) cite no answer text: read past, not misplaced", () => {
  // No public recording has them; the recorded response with a thinking part put first
  // and one citation of each kind added (docs.cohere.com: `type`, `content_index`).
  const r = response("cohere-citations.json");
  const before = pkg.fromCohere(response("cohere-citations.json"));
  const thinking = "The document lists three benefits.";
  r.message.content.unshift({ type: "thinking", thinking });
  const source = r.message.citations[0].sources;
  r.message.citations.push(
    { start: 4, end: 12, text: "document", sources: source, type: "THINKING_CONTENT", content_index: 0 },
    { start: 0, end: 3, text: "I w", sources: source, type: "PLAN" },
  );
  const input = fromAny(r);
  assert.equal(input.answer, before.answer);
  assert.deepEqual(input.citations, before.citations);
  assert.deepEqual(input.warnings ?? [], []);
  // A citation type still to come is read past and counted.
  r.message.citations.push({ start: 0, end: 3, text: "The", sources: source, type: "FUTURE_CONTENT" });
  assert.match(fromAny(r).warnings[0].message, /citation "FUTURE_CONTENT"/);
});

test("Perplexity's search_results beside citations: the markers number citations, and each source takes its search result's title and snippet", () => {
  // No public recording has both lists; the recorded response with `search_results` added
  // for its `citations` (docs.perplexity.ai: title, url, date, snippet), in another order.
  const r = response("perplexity-citations.json");
  const before = pkg.fromPerplexity(response("perplexity-citations.json"));
  r.search_results = [...r.citations].reverse().map((url, i) => ({ title: `Result ${i}`, url, date: "2026-11-01", snippet: `Snippet of ${url}` }));
  const input = fromAny(r);
  assert.equal(input.provider, "perplexity");
  assert.deepEqual(input.sources.map((s) => s.url), r.citations);
  assert.deepEqual(input.sources.map((s) => s.text), r.citations.map((url) => `Snippet of ${url}`));
  assert.ok(input.sources.every((s) => /^Result \d+$/.test(s.title)));
  const report = validate(input, { requireCitations: false });
  const cited = (i) => report.citations.map((c) => i.sources[c.sourceIndex - 1].url);
  assert.deepEqual(cited(input), cited(before), "each [n] names the same URL as with citations alone");
});

test("Anthropic document citations (char_location, content_block_location) with the documents sent: each quote is found where it is, in the document of its title", () => {
  // Recorded by Anthropic's citations cookbook, which printed each citation's type,
  // cited_text and document_title but not its document_index: the document is the one
  // of that title (the first document holds none of the quotes).
  const documents = JSON.parse(readFixture("anthropic-citations.sources.json"));
  for (const [file, sources] of Object.entries(documents)) {
    const recorded = response(file);
    const stated = recorded.content.flatMap((b) => b.citations ?? []);
    const input = fromAnthropic(recorded, sources);
    assert.deepEqual(fromAny(recorded, sources), input);
    const report = validate(input);
    assert.equal(report.status, "pass", `${file}: ${JSON.stringify(report.findings)}`);
    assert.equal(report.citations.length, stated.length);
    report.citations.forEach((c, i) => {
      const source = sources[c.sourcePosition];
      assert.equal(source.title, stated[i].document_title, file);
      // JS string indices of the cited text in its document, exactly.
      const at = source.text.indexOf(stated[i].cited_text);
      assert.equal(c.quote.match, "exact");
      assert.deepEqual([c.quote.span.start, c.quote.span.end], [at, at + stated[i].cited_text.length], file);
      assert.equal(c.quoteText, stated[i].cited_text);
    });
  }
  // The bare content's blocks are all of documented types; one of a type to come is
  // read past by the named adapter and counted.
  const bare = { content: [...response("anthropic-citations-text.json").content, { type: "future_block" }] };
  assert.match(fromAnthropic(bare).warnings.find((w) => w.code === "unknown_content").message, /content block "future_block"/);
});

test("Anthropic PDF page citations (page_location) without the PDF's text: one source per document title, quotes kept unverified, nothing fails", () => {
  for (const file of ["anthropic-citations-pdf.json", "anthropic-citations-pdf-letter.json"]) {
    const recorded = response(file);
    const input = fromAnthropic(recorded);
    const titles = new Set(recorded.content.flatMap((b) => b.citations ?? []).map((c) => c.document_title));
    assert.deepEqual(input.sources.map((s) => s.title), [...titles]);
    const report = validate(input);
    assert.equal(report.status, "pass", JSON.stringify(report.findings));
    assert.ok(report.citations.every((c) => c.valid && c.quote.match === "unverified"));
  }
});
