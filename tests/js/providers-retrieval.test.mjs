// Sources as retrieval code hands them out, passed to validate as they come: a source
// whose text is under two of its accepted names (LangChain's `page_content`, a search
// index's `content` beside a `snippet` or `excerpt`) is read by one precedence, the full
// text before an excerpt or snippet (src/model/input.rs, TEXT_NAMES), in JS as in the CLI
// (serde: tests/sources.rs, tests/js/cli.test.mjs). Equal values are one text; different
// ones give a `source_text_differs` warning, never an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, fromAnthropic } = require(join(pkgDir, "node", "citeproof.js"));

const page = "Paris is the capital of France. It lies on the Seine.";
const answer = "Paris is the capital of France [1].";
const quoted = (source) => ({ answer, sources: [source], citations: [{ source: 1, quote: "It lies on the Seine." }] });

test("a text given under two names with the same value validates as one text, with no finding about it", () => {
  for (const source of [
    { text: page, excerpt: page },
    { content: page, snippet: page },
    { page_content: page, text: page },
  ]) {
    const report = validate(quoted(source));
    assert.equal(report.status, "pass", JSON.stringify(source));
    assert.deepEqual(report.findings, []);
    assert.equal(report.citations[0].quote.match, "exact");
  }
});

test("the full text wins over an excerpt or snippet, and the difference is a warning", () => {
  // An Azure AI Search / Vertex AI Search hit as apps flatten it: the chunk's `content`
  // and the engine's `snippet` of it (which does not hold the quote).
  const report = validate(quoted({ title: "Paris", snippet: "Paris is the capital…", content: page }));
  assert.equal(report.status, "pass", "a warning about the input, not about a citation: the gate is unchanged");
  assert.deepEqual(report.findings.map((f) => [f.code, f.severity]), [["source_text_differs", "warning"]]);
  assert.equal(
    report.findings[0].message,
    "source 1 has `content` and `snippet` with different texts; `content` is read (the full text wins over an excerpt or snippet)",
  );
  assert.equal(report.citations[0].quote.match, "exact", "the quote is located in the full text");
  // The same precedence over every pair of names, whatever the key order.
  const pairs = [
    [{ excerpt: "Paris", page_content: page }, "page_content", "excerpt"],
    [{ snippet: "Paris", text: page }, "text", "snippet"],
    [{ content: "x", text: page }, "text", "content"],
  ];
  for (const [source, kept, other] of pairs) {
    const r = validate(quoted(source));
    assert.equal(r.citations[0].quote.match, "exact", kept);
    assert.match(r.findings[0].message, new RegExp(`has \`${kept}\` and \`${other}\``));
  }
});

test("a snippet alone is the source's text", () => {
  const report = validate(quoted({ url: "https://example.org/paris", snippet: page }));
  assert.equal(report.status, "pass");
  assert.equal(report.citations[0].quote.match, "exact");
});

test("a LangChain Document and a LlamaIndex node's dict validate as they are", () => {
  // Document.model_dump(): page_content, metadata, type; TextNode.dict(): id_, text, metadata, …
  const langchain = { id: null, metadata: { source: "paris.txt" }, page_content: page, type: "Document" };
  const llamaindex = { id_: "n1", embedding: null, metadata: {}, text: page, mimetype: "text/plain", start_char_idx: 0, end_char_idx: page.length };
  for (const source of [langchain, llamaindex]) assert.equal(validate(quoted(source)).status, "pass");
});

test("a text of the wrong type under the name read first is still an invalid_input error", () => {
  assert.throws(() => validate(quoted({ content: 3, snippet: page })), (e) => e.code === "invalid_input" && /sources\[0\]\.content: expected a string/.test(e.message));
});

test("an adapter given the caller's sources reads them the same way", () => {
  const response = {
    type: "message",
    content: [{ type: "text", text: "Paris is the capital of France.", citations: [{ type: "char_location", cited_text: "It lies on the Seine.", document_index: 0, start_char_index: 32, end_char_index: 53 }] }],
  };
  const input = fromAnthropic(response, [{ content: page, snippet: "Paris…" }]);
  const report = validate(input, { requireCitations: false });
  assert.equal(report.citations[0].quote.match, "exact");
  assert.deepEqual(report.findings.map((f) => f.code), ["source_text_differs"]);
});

test("Anthropic search_result blocks as the caller's sources: search_result_location citations resolve to them", () => {
  // tests/fixtures/providers/anthropic-search-results.json (hand-written from Anthropic's
  // documented shapes): by URL, by id, and by search_result_index when the `source` is
  // not in the list; each cited_text found in the blocks it names.
  const fixture = JSON.parse(readFileSync(join(root, "tests", "fixtures", "providers", "anthropic-search-results.json"), "utf8"));
  const input = fromAnthropic(fixture, fixture._sources);
  assert.deepEqual(input.citations.map((c) => c.source), [1, 2, 2]);
  const report = validate(input);
  assert.equal(report.status, "pass");
  assert.deepEqual(report.findings, []);
  assert.deepEqual(report.citations.map((c) => [c.sourceIndex, c.quote.match]), [[1, "normalized"], [2, "exact"], [2, "exact"]]);
  // Spans in UTF-16: the 🔑 citation's span slices to its text block.
  const first = report.citations[0].span;
  assert.equal(input.answer.slice(first.start, first.end), "Jede Anfrage braucht einen Schlüssel 🔑, höchstens 1000 pro Stunde");
  // A block that is no text block is refused, as the CLI refuses it.
  const image = { type: "search_result", source: "kb/1", title: "x", content: [{ type: "image", source: {} }] };
  assert.throws(() => validate({ answer: "A [1].", sources: [image] }), { code: "invalid_input" });
});

test("search_result blocks a custom tool returned, in a conversation's blocks, are the sources with their text", () => {
  const fixture = JSON.parse(readFileSync(join(root, "tests", "fixtures", "providers", "anthropic-search-results-tool.json"), "utf8"));
  const input = fromAnthropic(fixture);
  assert.deepEqual(input.sources.map((s) => [s.url ?? s.id, s.title]), [
    ["https://docs.company.com/product-guide", "Produkthandbuch"],
    ["kb/troubleshooting", "トラブルシューティング"],
  ]);
  assert.equal(input.sources[0].text, "Der Standard-Timeout ist 30 s ⏱️.\n\nEr lässt sich zwischen 10 und 120 s einstellen.");
  const report = validate(input);
  assert.deepEqual(report.findings, []);
  assert.deepEqual(report.citations.map((c) => [c.sourceIndex, c.quote.match]), [[1, "normalized"], [2, "exact"]]);
  const second = report.citations[1].span;
  assert.equal(input.answer.slice(second.start, second.end), "タイムアウトはネットワーク遅延で起きます");
});

test("search_result_index counts the results across messages and tool results; a cited block range must hold its quote (JS adapter and wasm alike)", async () => {
  // tests/fixtures/providers/anthropic-search-results-conversation.json (hand-written: no
  // public recording of search_result_location exists that we found): results 0 and 2
  // come from one page (one `source`); citation 2 names result 2, citations 3 and 4 name
  // blocks that do not hold their quotes (end_block_index is exclusive).
  const providers = await import(pathToFileURL(join(pkgDir, "providers.js")));
  const fixture = JSON.parse(readFileSync(join(root, "tests", "fixtures", "providers", "anthropic-search-results-conversation.json"), "utf8"));
  for (const [name, adapt] of [["js", providers.fromAnthropic], ["wasm", fromAnthropic]]) {
    for (const sources of [fixture._sources, undefined]) {
      const input = adapt(fixture, sources);
      assert.deepEqual(input.citations.map((c) => c.source), [1, 3, 2, 2], name);
      const report = validate(input);
      assert.deepEqual(report.findings.filter((f) => f.severity === "error"), [], name);
      assert.deepEqual(report.citations.map((c) => c.quote.match), ["exact", "exact", "exact", "exact"], name);
      const warned = input.warnings.map((w) => [w.code, w.message, input.answer.slice(w.span.start, w.span.end)]);
      assert.deepEqual(warned, [
        ["offset_mismatch", "blocks 1..2 (end exclusive) of search result 1, which has 2, do not hold the quote", "Der Starter-Plan kostet 10 € im Monat"],
        ["offset_mismatch", "blocks 1..3 (end exclusive) of search result 1, which has 2, do not hold the quote", "Enterprise auf Anfrage"],
      ], name);
    }
  }
});
