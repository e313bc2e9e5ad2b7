// citeproof/remark in unified pipelines (remark-parse + remark-gfm + remark-rehype +
// rehype-stringify) and in react-markdown and Streamdown rendered on the server: chips
// at the report's exact spans, and nothing else changed. The differential check: the
// HTML with the plugin, each chip written back as its marker text, is byte for byte the
// HTML remark-gfm makes of the cleaned answer alone, on every real answer of
// data/expertqa and on answers with tables, task lists, strikethrough, images, code in
// lists, emoji, CJK and CRLF.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkRehype from "remark-rehype";
import rehypeStringify from "rehype-stringify";
import { pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { validate, citationChips } = require(join(pkgDir, "node", "citeproof.js"));
const { default: remarkCiteproof, chipOf, rehypeCiteproof } = await import(join(pkgDir, "remark.js"));
const { createElement: h } = await import("react");
const { renderToStaticMarkup } = await import("react-dom/server");
const { default: Markdown } = await import("react-markdown");
const { CitationChip } = await import(join(pkgDir, "react.js"));

/** The HTML of `markdown` through remark-gfm, with the plugin when `settings` are given. */
function html(markdown, settings) {
  const processor = unified().use(remarkParse).use(remarkGfm);
  if (settings) processor.use(remarkCiteproof, settings);
  return String(processor.use(remarkRehype).use(rehypeStringify).processSync(markdown));
}

const CHIP_HTML = /<sup class="citeproof-chip">([^<]*)<\/sup>/g;

/** `chipped` with each chip written back as the label of the chip at its place. */
function unchipped(chipped, chips) {
  let i = 0;
  return chipped.replace(CHIP_HTML, (_, badge) => {
    const chip = chips[i++];
    assert.equal(badge, chip.badge.replace(/&/g, "&#x26;"), "chips in order");
    return chip.label.replace(/&/g, "&#x26;").replace(/</g, "&#x3C;");
  });
}

const sources = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
  { title: "Kyoto", url: "https://example.org/kyoto", text: "Kyoto was the capital for a thousand years." },
];

const GFM_ANSWER = [
  "# Facts 😀",
  "",
  "Water _boils_ at 100 °C [1] and ~~never~~ rarely freezes [2].",
  "",
  "| city | fact |",
  "|---|---|",
  "| Tokyo | capital [2] |",
  "| Kyoto 京都 | old capital【3†source】 |",
  "",
  "- [x] checked [1]",
  "- [ ] open item, see `arr[1]` in code",
  "- a list item with code:",
  "",
  "  ```js",
  "  const x = arr[2];",
  "  ```",
  "",
  "![a chart](https://example.org/chart.png) shows it [3].",
  "",
  "A link [to docs](https://docs.test/a) and an escaped \\* star [1, 2].",
].join("\n");

test("chips sit at the report's spans: paragraphs, table cells, task lists; code and links untouched", () => {
  const report = validate({ answer: GFM_ANSWER, sources });
  const out = html(report.cleanedAnswer, { report, sources });
  assert.match(out, /<td>capital <sup class="citeproof-chip">2<\/sup><\/td>/);
  assert.match(out, /<td>old capital<sup class="citeproof-chip">3<\/sup><\/td>/);
  assert.match(out, /<em>boils<\/em> at 100 °C <sup class="citeproof-chip">1<\/sup> and <del>never<\/del>/);
  assert.match(out, /checked <sup class="citeproof-chip">1<\/sup>/);
  assert.match(out, /<code>arr\[1\]<\/code>/);
  assert.match(out, /const x = arr\[2\];/);
  assert.match(out, /<img src="https:\/\/example.org\/chart.png" alt="a chart"> shows it <sup class="citeproof-chip">3<\/sup>/);
  assert.match(out, /escaped \* star <sup class="citeproof-chip">1, 2<\/sup>/, "a group reads 1, 2");
  assert.equal(out.match(CHIP_HTML).length, citationChips(report, { sources }).length);
});

test("differential: with each chip written back as its marker, the HTML is remark-gfm's of the cleaned answer", () => {
  const cases = [GFM_ANSWER, GFM_ANSWER.replace(/\n/g, "\r\n"), "Tab\tthen [1]\n\n  indented [2] &amp; after &copy; [3]\n\n> quoted [1]\n> [2] at a line start"];
  for (const answer of cases) {
    for (const policy of ["flag", "clean"]) {
      const report = validate({ answer, sources: sources.slice(0, 2) }, { policy });
      const chips = citationChips(report, { sources });
      const chipped = html(report.cleanedAnswer, { report, sources });
      assert.equal(chipped.match(CHIP_HTML)?.length ?? 0, chips.length, `every chip placed (${policy}): ${JSON.stringify(answer)}`);
      assert.equal(unchipped(chipped, chips), html(report.cleanedAnswer), `${policy}: ${JSON.stringify(answer)}`);
    }
  }
});

test("differential on every real answer of data/expertqa (both policies)", () => {
  const lines = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8").split("\n").filter(Boolean);
  assert.ok(lines.length > 100);
  let placed = 0;
  for (const line of lines) {
    const { id, answer, sources: retrieved } = JSON.parse(line);
    for (const policy of ["flag", "clean"]) {
      const report = validate({ answer, sources: retrieved }, { policy });
      const chips = citationChips(report, { sources: retrieved });
      const chipped = html(report.cleanedAnswer, { report, sources: retrieved });
      const count = chipped.match(CHIP_HTML)?.length ?? 0;
      assert.equal(count, chips.length, `${id} (${policy}): every chip placed`);
      assert.equal(unchipped(chipped, chips), html(report.cleanedAnswer), `${id} (${policy})`);
      placed += count;
    }
  }
  assert.ok(placed > 1000, `${placed} chips placed`);
});

test("with only sources, the markdown as written is validated: flag keeps invalid chips, clean removes them", () => {
  const answer = "Tokyo is the capital [2]. The moon is cheese [9].\n\n| a | b |\n|---|---|\n| x [1] | y [9] |";
  const flagged = html(answer, { sources });
  assert.match(flagged, /capital <sup class="citeproof-chip">2<\/sup>/);
  assert.match(flagged, /cheese <sup class="citeproof-chip">9<\/sup>/);
  const cleaned = html(answer, { sources, options: { policy: "clean" } });
  const report = validate({ answer, sources }, { policy: "clean" });
  assert.doesNotMatch(cleaned, /\[9\]|>9</);
  assert.equal(unchipped(cleaned, citationChips(report, { sources })), html(report.cleanedAnswer), "the same as the cleaned answer");
});

test("a block of the answer (as Streamdown renders each block) gets its own chips", () => {
  const report = validate({ answer: "First [1].\n\nSecond [2].\n\nThird [3].", sources });
  const block = report.cleanedAnswer.split("\n\n")[1];
  assert.equal(html(block, { report, sources }), '<p>Second <sup class="citeproof-chip">2</sup>.</p>');
  // The block being written, closed by the renderer (as remend does): chips in its known start.
  assert.equal(html("Third [3] **x**", { report, sources }), '<p>Third <sup class="citeproof-chip">3</sup> <strong>x</strong></p>');
});

test("a stream's { segments } (useCitationStream) place chips in its text", () => {
  const report = validate({ answer: "Water boils [1]. Tokyo [2].", sources });
  const out = html(report.cleanedAnswer, { report: { segments: report.segments }, sources });
  assert.equal(out, '<p>Water boils <sup class="citeproof-chip">1</sup>. Tokyo <sup class="citeproof-chip">2</sup>.</p>');
});

test("unusable settings and a markdown that is not the report's are coded errors", () => {
  const report = validate({ answer: "Water [1].", sources });
  for (const settings of [undefined, null, "x", {}, { report: null }, { options: { policy: "clean" } }, { report: 3 }, { report: {} }, { sources: "x" }, { sources, options: 2 }]) {
    assert.throws(() => remarkCiteproof(settings), (e) => e.code === "invalid_option", JSON.stringify(settings));
  }
  assert.throws(() => html("Something else entirely", { report, sources }), (e) => e.code === "invalid_input");
});

test("react-markdown: components={{ sup: CitationChip }} renders the chips; other <sup> stay", () => {
  const report = validate({ answer: "| a | b |\n|---|---|\n| Tokyo [2] | boils [1] |\n\nMoon [9].", sources }, { policy: "flag" });
  const markup = renderToStaticMarkup(
    h(Markdown, { remarkPlugins: [remarkGfm, [remarkCiteproof, { report, sources }]], components: { sup: CitationChip } }, report.cleanedAnswer),
  );
  assert.match(markup, /<td>Tokyo <span class="citeproof-chip"><button type="button" class="citeproof-chip__badge" aria-expanded="false" aria-label="Citation 2" data-valid="true">2<\/button><\/span><\/td>/);
  assert.match(markup, /Moon <span class="citeproof-chip citeproof-chip--invalid"><button[^>]*aria-label="Citation 9 \(not verified\)" data-valid="false">9<\/button>/);
  const plain = renderToStaticMarkup(h(CitationChip, { node: { type: "element", tagName: "sup", children: [] }, children: "2" }));
  assert.equal(plain, "<sup>2</sup>");
  const tree = unified().use(remarkParse).use(remarkCiteproof, { report, sources }).use(remarkRehype);
  const hast = tree.runSync(tree.parse(report.cleanedAnswer), report.cleanedAnswer);
  assert.throws(() => tree.runSync(tree.parse(report.cleanedAnswer)), (e) => e.code === "invalid_input", "a tree without its markdown");
  // An empty answer (a stream's first state, an answer cleaned to nothing) is no error:
  // processSync("") leaves the file without a value, and there is nothing to place.
  for (const settings of [{ report: validate({ answer: "" }) }, { report: { segments: [] } }, { sources }]) {
    assert.equal(html("", settings), "", JSON.stringify(settings));
  }
  const sups = [];
  const walk = (n) => (n.tagName === "sup" ? sups.push(n) : (n.children ?? []).forEach(walk));
  walk(hast);
  assert.deepEqual(sups.map((n) => chipOf(n)?.badge), ["2", "1", "9"]);
  assert.equal(chipOf(sups[2]).reason, "Cites [9], which was not among the retrieved sources.");
});

test("Streamdown (static): its rehype-raw rebuilds the tree, rehypeCiteproof gives the chips back; raw HTML makes none", async () => {
  const { Streamdown, defaultRehypePlugins } = await import("streamdown");
  const answer = "Tokyo is the capital [2].\n\n| a | b |\n|---|---|\n| x [1] | y |\n\nA forged <sup>9</sup> chip.";
  const report = validate({ answer, sources });
  const markup = renderToStaticMarkup(
    h(
      Streamdown,
      {
        mode: "static",
        remarkPlugins: [remarkGfm, [remarkCiteproof, { report, sources }]],
        rehypePlugins: [...Object.values(defaultRehypePlugins), rehypeCiteproof],
        components: { sup: CitationChip },
      },
      report.cleanedAnswer,
    ),
  );
  assert.match(markup, /capital <span class="citeproof-chip"><button[^>]*aria-label="Citation 2"[^>]*>2<\/button><\/span>/);
  assert.match(markup, /x <span class="citeproof-chip"><button[^>]*>1<\/button><\/span>/);
  assert.match(markup, /A forged <sup>9<\/sup> chip/);
  assert.equal(markup.match(/citeproof-chip__badge/g).length, 2);
});

// <CitedAnswer> and citeproof/markdown's renderHtml render through the same stack: their
// markup, canonicalised by parse5 (the
// HTML parser browsers follow), with each chip written back as its marker, no link
// attributes but href, attributes in one order, images as remark-gfm writes them and no whitespace between
// blocks (line ends only), is remark-gfm's HTML of the cleaned answer.
const { parseFragment, serialize } = await import("parse5");
const { CitedAnswer } = await import(join(pkgDir, "react.js"));
const { renderHtml: renderGfm } = await import(join(pkgDir, "markdown.js"));

/** `html` parsed and written back by parse5, after `edit` of each element. */
function canonical(html, edit = () => {}) {
  const fragment = parseFragment(html);
  const walk = (node) => {
    for (const [i, child] of [...(node.childNodes ?? [])].entries()) {
      const replaced = child.tagName ? edit(child) : null;
      if (replaced) {
        node.childNodes[i] = { ...replaced, parentNode: node };
        continue;
      }
      child.attrs?.sort((a, b) => (a.name < b.name ? -1 : 1));
      if (child.nodeName === "#text" && !child.value.trim() && child.value.includes("\n") && node.nodeName !== "pre" && node.nodeName !== "code") {
        child.value = "";
      }
      walk(child);
    }
  };
  walk(fragment);
  return serialize(fragment);
}

/** `markup` (an answer's div) is remark-gfm's HTML of `report`'s cleaned answer, chips written back. */
function matchesRemark(markup, report, chips, context) {
  let next = 0;
  const ours = canonical(markup.replace(/^<div class="citeproof-answer">|<\/div>$/g, ""), (el) => {
    const cls = el.attrs.find((a) => a.name === "class")?.value;
    // A chip: <CitedAnswer>'s <span>, or renderHtml's <sup>.
    if (["citeproof-chip", "citeproof-chip citeproof-chip--invalid"].includes(cls) && ["span", "sup"].includes(el.tagName)) {
      return { nodeName: "#text", value: chips[next++].label };
    }
    if (el.tagName === "a" && cls === "citeproof-image") {
      const href = el.attrs.find((a) => a.name === "href").value;
      return { nodeName: "img", tagName: "img", attrs: [{ name: "alt", value: el.childNodes[0]?.value ?? "" }, { name: "src", value: href }], childNodes: [], namespaceURI: el.namespaceURI };
    }
    if (el.tagName === "a") el.attrs = el.attrs.filter((a) => a.name === "href");
    return null;
  });
  assert.equal(next, chips.length, `${context}: every chip rendered`);
  assert.equal(ours, canonical(html(report.cleanedAnswer)), context);
}

function citedAnswerMatchesRemark(report, given, context) {
  const markup = renderToStaticMarkup(h(CitedAnswer, { report, sources: given, sourceList: false }));
  matchesRemark(markup, report, citationChips(report, { sources: given }), `CitedAnswer ${context}`);
  matchesRemark(renderGfm(report, { sources: given }), report, citationChips(report, { sources: given }), `renderHtml ${context}`);
}

test("<CitedAnswer>: GFM tables, emphasis, strikethrough, task lists, code in lists, as remark-gfm renders them", () => {
  const report = validate({ answer: GFM_ANSWER, sources }, { policy: "flag" });
  const markup = renderToStaticMarkup(h(CitedAnswer, { report, sources, sourceList: false }));
  assert.match(markup, /<table>/);
  assert.match(markup, /<td>capital <span class="citeproof-chip"><button/);
  assert.match(markup, /<em>boils<\/em>/);
  assert.match(markup, /<del>never<\/del>/);
  assert.match(markup, /<li>\s*<p>a list item with code:<\/p>\s*<pre><code class="language-js">const x = arr\[2\];\n<\/code><\/pre>\s*<\/li>/);
  assert.match(markup, /<a class="citeproof-image" href="https:\/\/example.org\/chart.png" target="_blank" rel="noopener noreferrer nofollow">a chart<\/a>/);
  assert.match(markup, /<input type="checkbox" disabled="" checked=""\/>/);
  citedAnswerMatchesRemark(report, sources, "GFM answer");
});

test("<CitedAnswer> and citeproof/markdown renderHtml: differential on every real answer of data/expertqa", () => {
  const lines = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8").split("\n").filter(Boolean);
  for (const line of lines) {
    const { id, answer, sources: retrieved } = JSON.parse(line);
    citedAnswerMatchesRemark(validate({ answer, sources: retrieved }, { policy: "flag" }), retrieved, id);
  }
});

/** How many of the chips of `segments` sit inside a code or raw HTML node of `markdown`'s mdast. */
function chipsInCode(markdown, segments) {
  const spans = [];
  let at = 0;
  for (const segment of segments) {
    const length = (segment.type === "cite" ? segment.label : segment.text).length;
    if (segment.type === "cite") spans.push([at, at + length]);
    at += length;
  }
  const ranges = [];
  const walk = (node) => {
    if (["code", "inlineCode", "html"].includes(node.type)) ranges.push([node.position.start.offset, node.position.end.offset]);
    else (node.children ?? []).forEach(walk);
  };
  walk(unified().use(remarkParse).use(remarkGfm).runSync(unified().use(remarkParse).use(remarkGfm).parse(markdown)));
  return spans.filter(([start, end]) => ranges.some(([from, to]) => from <= start && end <= to)).length;
}

test("differential on the GFM spec's 673 examples, a marker at the end and at the start of every line", () => {
  const examples = JSON.parse(readFileSync(join(root, "data", "gfm-spec", "examples.json"), "utf8"));
  assert.equal(examples.length, 673);
  assert.equal(examples.filter((e) => e.extension).length, 24);
  const one = [{ title: "One", url: "https://example.org/1", text: "one" }];
  let placed = 0;
  let left = 0;
  for (const { example, markdown } of examples) {
    const variants = [
      markdown,
      markdown.replace(/([^\n])(?=\n)/g, "$1 [1]"),
      markdown.replace(/^(?=[^\n])/gm, "[1] "),
    ];
    for (const [v, answer] of variants.entries()) {
      const report = validate({ answer, sources: one }, { policy: "flag" });
      const chips = citationChips(report, { sources: one });
      const chipped = html(report.cleanedAnswer, { report, sources: one });
      const count = chipped.match(CHIP_HTML)?.length ?? 0;
      // Every chip is placed but those in code or raw HTML to CommonMark: citeproof reads
      // indented text as prose (its named exception, tests/reference/markdown.mjs), and
      // the plugin leaves a code or HTML node as it is, the marker written in it.
      const inCode = chipsInCode(report.cleanedAnswer, report.segments);
      assert.equal(count + inCode, chips.length, `example ${example}, variant ${v}: chips placed`);
      // All chips here are "[1]", so the ones placed write back in order.
      assert.equal(unchipped(chipped, chips.slice(0, count)), html(report.cleanedAnswer), `example ${example}, variant ${v}`);
      placed += count;
      left += inCode;
    }
  }
  assert.ok(placed > 2000, `${placed} chips placed`);
  assert.ok(left < placed / 10, `${left} chips left in code or raw HTML`);
});

test("chips after a bare URL or e-mail (GFM autolink literals, whose split text has no position)", () => {
  const answer = "See https://example.org/boil for more [1]. Mail foo\\+x@bar.example.com or www.example.com [2]!\n\n<foo\\+@bar.example.com> [1]";
  const report = validate({ answer, sources });
  const chips = citationChips(report, { sources });
  const out = html(report.cleanedAnswer, { report, sources });
  assert.match(out, /<a href="https:\/\/example.org\/boil">https:\/\/example.org\/boil<\/a> for more <sup class="citeproof-chip">1<\/sup>\./);
  assert.match(out, /www.example.com<\/a> <sup class="citeproof-chip">2<\/sup>!/);
  assert.equal(out.match(CHIP_HTML).length, 3);
  assert.equal(unchipped(out, chips), html(report.cleanedAnswer));
});
