// CitationStream through the built package (pkg/node): random answers cut at random
// UTF-16 points (surrogate pairs included) against one-shot `validate`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, CitationStream } = require(join(pkgDir, "node", "citeproof.js"));

const PIECES = [
  "Water", " boils", " ", "\n", "\n\n", "\r\n", "日本語", "😀", "👩‍👩‍👧", "é", ".", "[1]", "[2]",
  "[9]", "[1, 2]", "[^2^]", "[abc]", "【1】", "【7†source】", "(Source 1)", "Chapter 1, Section 2",
  "[1](https://x.io)", "[9](https://x.io)", "[text][9]", "[9]: https://d.io", "`", "```\n",
  "<code>", "</code>", "https://example.com/a[9]", "- [ ] ", "[", "]", "【", "<",
];

const sources = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 degrees." },
  { id: "abc", title: "Japan", text: "Tokyo is the capital." },
  { chapter: "1", section: 2, text: "Chapter text." },
];

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts `text` at random UTF-16 indices, possibly between the halves of a surrogate pair. */
function cut(text, random) {
  const points = [0, text.length];
  for (let i = Math.floor(random() * 10); i > 0; i--) points.push(Math.floor(random() * text.length));
  points.sort((a, b) => a - b);
  return points.slice(1).map((end, i) => text.slice(points[i], end));
}

const withoutTiming = ({ timingMs, ...report }) => report;

test("streamed text, revisions applied, ends as validate's cleanedAnswer, a prefix of it until something is revisable; the reports are equal", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const random = rng(seed);
    const answer = Array.from({ length: Math.floor(random() * 30) }, () => PIECES[Math.floor(random() * PIECES.length)]).join("");
    const options = { policy: ["clean", "flag", "strict"][seed % 3], renumber: seed % 4 === 0 };
    const expected = validate({ answer, sources }, options);
    const stream = new CitationStream({ sources }, options);
    let shown = "";
    let revised = false;
    for (const delta of cut(answer, random)) {
      const { text, events } = stream.push(delta);
      for (const event of events) {
        if (event.type !== "revise") continue;
        shown = shown.slice(0, event.span.start) + event.text;
        revised = true;
      }
      shown += text;
      assert.equal(shown, stream.released, `seed ${seed}: revisions applied, the shown text is the released text`);
      if (!revised && !stream.revisable) {
        assert.ok(expected.cleanedAnswer.startsWith(shown), `seed ${seed}: ${JSON.stringify(shown)} is not a prefix of ${JSON.stringify(expected.cleanedAnswer)}`);
      }
      for (const event of events) {
        if (event.type === "cite") {
          assert.equal(shown.slice(event.span.start, event.span.end), event.segment.label, `seed ${seed}: chip span`);
          assert.equal(answer.slice(event.answerSpan.start, event.answerSpan.end).length > 0, true);
        }
      }
    }
    const revisable = stream.revisable;
    const end = stream.finish();
    if (end.revise) {
      assert.ok(revisable, `seed ${seed}: finish revised text that was not open`);
      shown = shown.slice(0, end.revise.span.start) + end.revise.text;
    }
    assert.equal(shown + end.text, expected.cleanedAnswer, `seed ${seed}`);
    assert.deepEqual(withoutTiming(end.report), withoutTiming(expected), `seed ${seed}`);
  }
});

test("a chip appears as soon as its marker is complete, with UTF-16 spans after emoji", () => {
  const stream = new CitationStream({ sources }, {});
  assert.equal(stream.push("😀 Water boils [").text, "😀 Water boils");
  const { text, events } = stream.push("1] at 100 degrees");
  assert.equal(text, " [1] at 100 degrees");
  assert.equal(events.length, 1);
  const [chip] = events;
  assert.equal(chip.type, "cite");
  assert.deepEqual(chip.span, { start: 15, end: 18 });
  assert.equal(stream.released.slice(chip.span.start, chip.span.end), "[1]");
  assert.deepEqual(chip.answerSpan, { start: 15, end: 18 });
  assert.equal(chip.segment.title, "Boiling");
  assert.equal(chip.segment.valid, true);
  // The event's segment is the final report's chip, fields in the same order.
  const chips = stream.finish().report.segments.filter((s) => s.type === "cite");
  assert.equal(JSON.stringify(chip.segment), JSON.stringify(chips[0]));
  assert.deepEqual(Object.keys(chip), ["type", "segment", "span", "answerSpan"]);
});

test("an invalid marker is removed and reported as a finding event", () => {
  const stream = new CitationStream({ sources });
  const { text, events } = stream.push("Water boils [9] at 100 °C.");
  assert.equal(text, "Water boils at 100 °C.");
  assert.deepEqual(events.map((e) => [e.type, e.code, e.severity]), [["finding", "out_of_range", "error"]]);
  assert.deepEqual(events[0].span, { start: 12, end: 15 });
  assert.deepEqual(Object.keys(events[0]), ["code", "severity", "message", "span", "type"]);
  const end = stream.finish();
  assert.equal(end.report.status, "fail");
});

test("a surrogate pair split between deltas is joined, never turned into U+FFFD", () => {
  const stream = new CitationStream({ sources });
  const emoji = "😀";
  let shown = stream.push(`Fact ${emoji[0]}`).text;
  shown += stream.push(`${emoji[1]} [1].`).text;
  shown += stream.finish().text;
  assert.equal(shown, "Fact 😀 [1].");
});

test("bad arguments throw coded errors", () => {
  assert.throws(() => new CitationStream({ sources: 3 }), { code: "invalid_input" });
  assert.throws(() => new CitationStream({ sources }, { markerPatterns: ["(?P<refs>x)"] }), { code: "invalid_option" });
  const stream = new CitationStream({ sources });
  assert.throws(() => stream.push(42), { code: "invalid_input" });
  stream.finish();
  assert.throws(() => stream.push("more"), { code: "invalid_input" });
  assert.throws(() => stream.finish(), { code: "invalid_input" });
  const small = new CitationStream({ sources }, { maxAnswerChars: 5 });
  assert.throws(() => small.push("too long"), { code: "too_large" });
});

/** Applies `{ text, events }` chunks the way the `revise` event documents. */
function applyChunks(stream, deltas) {
  let shown = "";
  let revisions = 0;
  for (const delta of deltas) {
    const { text, events } = stream.push(delta);
    for (const event of events) {
      if (event.type !== "revise") continue;
      assert.equal(event.span.end, shown.length, "a revision runs to the end of the shown text");
      shown = shown.slice(0, event.span.start) + event.text;
      revisions++;
    }
    shown += text;
    assert.equal(shown, stream.released);
  }
  return { shown, revisions };
}

test("a late definition revises the released text; UTF-16 spans after emoji (issue 21)", () => {
  const answer = `😀 See [the table][9] here 👩‍👩‍👧.${" Filler text.".repeat(40)}\n\n[9]: https://a.example/t\n`;
  const expected = validate({ answer, sources });
  const stream = new CitationStream({ sources });
  const deltas = answer.match(/[\s\S]{1,7}/gu);
  const { shown, revisions } = applyChunks(stream, deltas);
  const end = stream.finish();
  assert.equal(end.revise, undefined);
  assert.equal(shown + end.text, expected.cleanedAnswer);
  assert.ok(revisions >= 1, "the definition turned [9] into a label after it was released");
  assert.ok(expected.cleanedAnswer.includes("[the table][9]"));
});

test("a 20 KB answer with a label whose definition may still come is never held back more than 256 characters", () => {
  const answer = `Salt [42] and [NaCl][KCl]. See [the table][9] too.${" More words about salts.".repeat(850)}`;
  const stream = new CitationStream({ sources });
  let shown = 0;
  let received = 0;
  let maxHeld = 0;
  for (const delta of answer.match(/[\s\S]{1,7}/g)) {
    received += delta.length;
    shown += stream.push(delta).text.length;
    maxHeld = Math.max(maxHeld, received - shown);
    // What the stream itself reports: beyond the construct being written, at most 256 bytes.
    const { releasedThrough, undecidedFrom } = stream.held;
    assert.ok((undecidedFrom ?? received) - releasedThrough <= 257, `held ${JSON.stringify(stream.held)}`);
  }
  // Released text is cleaned (removed markers shorten it), so the gap counts them too.
  assert.ok(maxHeld <= 256 + 16, `held ${maxHeld} characters`);
  stream.finish();
});
