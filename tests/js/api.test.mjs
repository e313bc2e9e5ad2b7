// The JS API of the built package (pkg/node), as a Node user calls it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { parseCitations, CitationParser } = require(join(pkgDir, "node", "citeproof.js"));

test("spans are UTF-16 indices: slice gives the marker for emoji, CJK and CRLF", () => {
  const answers = [
    "Family 👩‍👩‍👧 photo [1] and 🇫🇷 flag[2].",
    "東京は首都です【1】。大阪［2］も[3, 4]。",
    "one [1]\r\ntwo 𝔘 [^2^]\r\n```\r\nx[9]\r\n```\r\ne\u0301[3]",
  ];
  for (const answer of answers) {
    const markers = parseCitations(answer);
    assert.ok(markers.length >= 2, answer);
    for (const m of markers) assert.equal(answer.slice(m.span.start, m.span.end), m.raw);
  }
});

test("utf8 and codepoint offsets are selectable", () => {
  const text = "😀 [1]";
  assert.deepEqual(parseCitations(text, { offsets: "utf8" })[0].span, { start: 5, end: 8 });
  assert.deepEqual(parseCitations(text, { offsets: "codepoint" })[0].span, { start: 2, end: 5 });
  assert.deepEqual(parseCitations(text)[0].span, { start: 3, end: 6 });
});

test("markers carry refs, kind and raw as plain objects", () => {
  const [m] = parseCitations("claim [Sources: 2, 5]");
  assert.deepEqual(m, { span: { start: 6, end: 21 }, refs: [2, 5], kind: "labeled", raw: "[Sources: 2, 5]" });
});

test("bad arguments throw an Error with a stable code and the field path", () => {
  const cases = [
    [() => parseCitations(42), "invalid_input", /^text:/],
    [() => parseCitations(undefined), "invalid_input", /^text:/],
    [() => parseCitations("x", "utf8"), "invalid_option", /^options:/],
    [() => parseCitations("x", { offsets: "bytes" }), "invalid_option", /^options\.offsets:/],
    [() => parseCitations("x", { markerPatterns: "x" }), "invalid_option", /^options\.markerPatterns:/],
    [() => parseCitations("x", { markerPatterns: ["(?P<refs>\\d+)", "["] }), "invalid_option", /^options\.markerPatterns\[1\]:/],
    [() => parseCitations("x", { markerPatterns: ["\\d+"] }), "invalid_option", /refs/],
    [() => parseCitations("x", { sourceIds: [1] }), "invalid_option", /^options\.sourceIds\[0\]:/],
    [() => new CitationParser({ offsets: 16 }), "invalid_option", /^options\.offsets:/],
  ];
  for (const [call, code, message] of cases) {
    assert.throws(call, (e) => e instanceof Error && e.code === code && message.test(e.message));
  }
});

test("a CitationParser reuses its compiled patterns", () => {
  const parser = new CitationParser({ markerPatterns: ["\\{\\{(?P<refs>\\d+)\\}\\}"], offsets: "codepoint" });
  assert.deepEqual(parser.parse("😀 {{7}}").map((m) => [m.kind, m.refs, m.span.start]), [["custom", [7], 2]]);
  assert.deepEqual(parser.parse("[1]").map((m) => m.kind), ["numeric"]);
  parser.free();
});

test("on real answers every [n] a plain regex finds is a marker, with the same span", () => {
  const lines = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8").trim().split("\n");
  let total = 0;
  for (const line of lines) {
    const { answer } = JSON.parse(line);
    const ours = new Set(parseCitations(answer).map((m) => `${m.span.start}:${m.span.end}`));
    for (const match of answer.matchAll(/\[(\d+)\]/g)) {
      assert.ok(ours.has(`${match.index}:${match.index + match[0].length}`), `missed ${match[0]} at ${match.index}`);
      total++;
    }
  }
  assert.ok(total > 500, `corpus has markers (${total})`);
});

test("OpenAI's private-use-area citation tokens are markers whose refs are source ids (issue 21)", () => {
  const text = "Rain 😀 falls.\uE200cite\uE202turn0search0\uE202L2-L4\uE201 Done.";
  const [marker] = parseCitations(text);
  assert.equal(marker.kind, "private_use");
  assert.deepEqual(marker.refs, ["turn0search0"]);
  assert.equal(text.slice(marker.span.start, marker.span.end), "\uE200cite\uE202turn0search0\uE202L2-L4\uE201");
  assert.deepEqual(parseCitations("a\uE200navlist\uE202turn0search0\uE201"), []);
});
