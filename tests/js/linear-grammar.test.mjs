// Issue 21's adversarial families of the markdown grammar, parsed and streamed, each
// in linear time. A file of its own, so a process of its own: the report-building
// shapes of storm.test.mjs grow the module's memory to hundreds of megabytes, and a
// heap left in that state measured 0.4x more for the same stream family (8.0 -> 8.4).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";
import { assertLinear } from "./linear.mjs";

const require = createRequire(import.meta.url);
const { parseCitations, CitationStream } = require(join(pkgDir, "node", "citeproof.js"));

// Issue 21: the CommonMark grammar's constructs, each opened and never closed (or nested)
// many times, then one marker: every look-ahead is bounded or remembered, so parsing
// stays linear and the marker after them is still found. The first family was
// quadratic (16,000 `【` took 70 ms, 64,000 took 750 ms). The units hold no markers of
// their own: building many marker objects is measured by the shapes above.
test("the markdown grammar's adversarial families parse in linear time (issue 21)", async (t) => {
  for (const [what, unit, count] of [
    ["lenticular openers", "【", 16_000],
    ["unclosed attribute values", '<a href="x y ', 4_000],
    ["unclosed comments", "a <!-- b ", 4_000],
    ["HTML block lines", "<div>\ntext y\n", 4_000],
    ["nested link texts", "[a [b [c ", 3_000],
    ["unclosed destinations", "[a](b (c ", 4_000],
    ["definitions over two lines", "[a]:\n/u 'x\n", 4_000],
    ["private-use tokens without a stop", "\uE200cite\uE202x ", 4_000],
    ["backtick runs of every length", "`a ``b ```c y ", 3_000],
    ["code spans cut by a list item", "a `b\n- c y\n", 4_000],
    ["autolink-shaped openers", "<ab:cd y ", 4_000],
    ["reference links to no definition", "[x [y]][z] ", 4_000],
    // Openers whose one closer comes after the last paragraph's end: each paragraph's
    // opener must not search the whole text again for it.
    ["comments closed only past their paragraph", "x <!-- a\n\n", 4_000],
    ["instructions closed only past their paragraph", "x <?a a\n\n", 4_000],
    ["code elements closed only past their paragraph", "x <code> a\n\n", 4_000],
  ]) {
    await assertLinear(t, what, (k) => {
      const answer = `${unit.repeat(count * k)}\n\nEnd [1]. --> ?> </code>`;
      return { run: () => assert.equal(parseCitations(answer).at(-1)?.raw, "[1]") };
    });
  }
  // Issue 21 measured 50,000 `<code>` tags in 7-character deltas at over 10 s: each push
  // decided everything after the first, never closed, opener again. The same held for a
  // fence, an HTML block or a piece of markup in one that had not ended (each push looked
  // for its end from its start), and for brackets that may be shortcut references (each
  // push read the definitions of the whole answer again).
  for (const [what, unit, cited, start = ""] of [
    ["a stream over <code> tags that never close", "<code>x ", 1],
    ["a stream over comments that never close", "a <!-- b ", 1],
    ["a stream inside a fence that never closes", "code [x] line\n", 0, "```\n"],
    ["a stream inside a fence in a list item", "   code [x]\n", 1, "1. ```\n"],
    ["a stream inside one long line of code", "code [x] ", 0, "```\n"],
    ["a stream inside an HTML comment block", "a [x] <!-- b\n", 0, "<!-- x\n"],
    ["a stream inside a <div> block without a blank line", "a [x] b <i>c</i>\n", 1, "<div>\n"],
    ["a stream inside a <pre> block", "a [x] b\n", 0, "<pre>\n"],
    ["a stream inside a tag whose attribute never closes", "a [x] b\n", 0, '<div>\n<a title="'],
    ["a stream of lines with shortcut-reference brackets", "a [x] b\n", 1],
    ["a stream of one line with shortcut-reference brackets", "a [x] b ", 1],
    // A line of marks may be a thematic break (or list markers) until a byte says
    // otherwise: the stream decides it when the line ends, not by reading it again at
    // each push (a line of dashes was quadratic before: 80,000 took 2.1 s natively).
    ["a stream of one long line of dashes", "-----", 1],
    ["a stream of one long line of underscores", "_____", 1],
    // A line of list markers or quotes may still open a fence or a definition until
    // its content starts: the stream asks again from the last marker it read, not from
    // the line's start (160 KB of `* ` took 1.3 s natively before, 11x 40 KB).
    ["a stream of one long line of nested list markers", "* ", 1],
    ["a stream of one long line of nested ordered list markers", "1. ", 1],
    ["a stream of one long line of nested block quotes", "> ", 1],
    ["a stream of one long line of quoted list markers", "> - ", 1],
  ]) {
    await assertLinear(t, what, (k) => {
      const answer = `${start}${unit.repeat(2_000 * k)} [9] end.`;
      const deltas = answer.match(/[\s\S]{1,7}/g);
      return {
        run: () => {
          const stream = new CitationStream({ sources: [{}] });
          for (const delta of deltas) stream.push(delta);
          // `[9]` ends the text: a marker, but in code and markup that run to the end.
          assert.equal(stream.finish().report.markers.length, cited, what);
          // Freed as README says: a finished stream left to the collector keeps its
          // answer in the module's memory, and hundreds of them measured 10-12x here.
          stream.free();
        },
      };
    });
  }
});
