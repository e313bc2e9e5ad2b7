// Provider traffic as the vendors recorded it (tests/fixtures/providers/recorded: real
// responses and streams from public SDK test fixtures, origins in origins.json). What
// each must yield comes from tests/reference/providers-expect.mjs, which reads the raw
// JSON by the providers' documented semantics and shares no code with the adapters.
// Each fixture goes through its adapter and through fromAny: no throw, the same Input
// from both, the answer the provider wrote, spans that slice to the text each citation
// covers, every cited source resolved, stated quotes kept, and no offset_mismatch (every
// recorded offset here is right: the expectation script checks them against the
// provider's own copy of the text where it gives one).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { ADAPTER, pkgDir } from "./helpers.mjs";
import { expectFor, listFixtures, originOf, readFixture } from "../reference/providers-expect.mjs";

const require = createRequire(import.meta.url);
const pkg = require(join(pkgDir, "node", "citeproof.js"));
const { validate, fromAny } = pkg;


/** The response as an adapter takes it: a stream's events as a list, else the object. */
function response(file) {
  const text = readFixture(file);
  if (!file.endsWith(".chunks.txt")) return JSON.parse(text);
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

// The APIs the adapters claim; the corpus also holds traffic of others (the Gemini
// Interactions API, xAI) and the cassettes the Gemini files were taken from.
const claimed = listFixtures().filter((file) => {
  const { provider } = originOf(file);
  return ADAPTER[provider] && !file.endsWith(".yaml") && !file.startsWith("gemini-interactions");
});

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
    assert.equal(input.provider, expected.provider);
    assert.deepEqual(pkg[ADAPTER[expected.provider]](recorded), input, "fromAny and the named adapter");
    assert.equal(input.answer, expected.answer);
    const report = validate(input, { requireCitations: false });
    assert.deepEqual(report.findings.filter((f) => f.code === "offset_mismatch"), []);

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
