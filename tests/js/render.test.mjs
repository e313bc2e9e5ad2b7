// renderHtml, citationTree and the React components (server-rendered with react-dom)
// through the built package: markdown with chips, and hostile input rendered inert.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir } from "./helpers.mjs";
import { URL_PAYLOADS, hostileCases } from "./xss-payloads.mjs";

const require = createRequire(import.meta.url);
const { validate, renderHtml, citationTree } = require(join(pkgDir, "node", "citeproof.js"));
const { createElement } = await import("react");
const { renderToStaticMarkup } = await import("react-dom/server");
const { parseFragment } = await import("parse5");
const { CitedAnswer, useCitations, useCitationStream, useCitedMessage } = await import(join(pkgDir, "react.js"));
const { renderHtml: renderGfm } = await import(join(pkgDir, "markdown.js"));

// GFM adds tables, strikethrough, rules, task-list checkboxes (disabled) and footnotes
// (in-page links, ids, aria-describedby).
const TAGS = new Set(["div", "section", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "code", "blockquote", "strong", "em", "a", "br", "sup", "span", "button", "table", "thead", "tbody", "tr", "th", "td", "del", "hr", "input"]);
const ATTRIBUTES = new Set(["class", "title", "href", "rel", "target", "type", "aria-expanded", "aria-label", "data-valid", "data-label", "align", "disabled", "checked", "id", "aria-describedby", "data-footnote-ref", "data-footnotes", "data-footnote-backref"]);

/**
 * Every tag and attribute is one the renderers write, and every href is http(s) (or an
 * in-page footnote): `html` read by parse5, as a browser reads it.
 */
function assertInert(html, context) {
  const walk = (node) => {
    for (const child of node.childNodes ?? []) {
      if (child.tagName) {
        assert.ok(TAGS.has(child.tagName), `${context}: unexpected <${child.tagName}> in ${html}`);
        for (const { name, value } of child.attrs) {
          assert.ok(ATTRIBUTES.has(name), `${context}: unexpected attribute ${name} in ${html}`);
          if (name === "href") assert.match(value, /^(https?:\/\/|#)/, `${context}: href ${value}`);
          if (name === "type") assert.match(value, /^(button|checkbox)$/, `${context}: type ${value}`);
        }
      }
      walk(child);
    }
  };
  walk(parseFragment(html));
}

// Evidence sentences come with claim support, which is opt-in (docs/support.md).
const scored = { misattributionMargin: 0.25 };

const sources = [
  { title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];

test("renderHtml: markdown blocks with chips, links and badges", () => {
  const report = validate(
    { answer: "# Facts\n\nWater **boils** at 100 °C [1].\n\n- Tokyo is the capital [2]\n- Both [1, 2]\n\nSee `code` and [docs](https://docs.test/a).", sources },
  );
  const html = renderHtml(report, { sources });
  assert.match(html, /<h1>Facts<\/h1>/);
  assert.match(html, /<strong>boils<\/strong>/);
  assert.match(html, /<sup class="citeproof-chip" title="Boiling"><a href="https:\/\/example.org\/boil" rel="noopener noreferrer nofollow">1<\/a><\/sup>/);
  assert.match(html, /<ul><li>Tokyo is the capital /);
  assert.match(html, />1, 2</, "a group badge reads as a list");
  assert.match(html, /<code>code<\/code>/);
  assert.match(html, /<a href="https:\/\/docs.test\/a"/);
  assertInert(html, "markdown");
});

test("citationTree: chips carry titles, safe links, located quotes and why they are invalid", () => {
  const report = validate(
    {
      answer: "Water boils at 100 °C [1]. The moon [3].",
      sources,
      citations: [{ source: 1, quote: "boils at 100 °C" }],
    },
    { policy: "flag", ...scored },
  );
  const chips = citationTree(report, { sources }).flatMap((b) => b.children).filter((n) => n.type === "chip").map((n) => n.chip);
  assert.equal(chips.length, 2);
  assert.deepEqual(chips[0].sources[0], {
    label: "1", found: true, title: "Boiling", href: "https://example.org/boil", host: "example.org", quote: "boils at 100 °C", quoteChecked: true,
    evidence: "Water boils at 100 °C at sea level.",
  });
  assert.equal(chips[1].valid, false);
  assert.match(chips[1].reason, /\[3\], which was not among the retrieved sources/);
});

test("each chip's card gets the evidence sentence of its own claim, also when two claims cite one source", () => {
  const manual = [{ title: "Water", text: "Water boils at 100 °C at sea level. Ice melts at 0 °C. 😀 Salt lowers the freezing point." }];
  const answer = "Salt lowers the freezing point of water [1]. Ice melts at zero degrees [1]. Tokyo is big [1].";
  assert.ok(validate({ answer, sources: manual }).citations.every((c) => c.evidence === undefined), "none by default");
  const report = validate({ answer, sources: manual }, { policy: "flag", ...scored });
  const [salt, ice, tokyo] = report.citations;
  assert.equal(salt.evidence.text, "Salt lowers the freezing point.");
  assert.equal(ice.evidence.text, "Ice melts at 0 °C.");
  assert.equal(tokyo.evidence, undefined, "no sentence shares a word with the claim");
  // UTF-16 offsets into the source's text, past an emoji.
  assert.equal(manual[0].text.slice(salt.evidence.span.start, salt.evidence.span.end), salt.evidence.text);
  const chips = citationTree(report, { sources: manual }).flatMap((b) => b.children).filter((n) => n.type === "chip");
  assert.deepEqual(chips.map((n) => n.chip.sources[0].evidence), [salt.evidence.text, ice.evidence.text, null]);
});

test("a card shows the source validation resolved: after renumbering, and when two sources share a label", () => {
  const chipsOf = (report, given) => citationTree(report, { sources: given }).flatMap((b) => b.children).filter((n) => n.type === "chip").map((n) => n.chip);
  // Renumbered, [2] becomes [1]; its card is still the second source, with its quote.
  const two = [
    { title: "Paris", text: "Paris is the capital of France." },
    { title: "Bern", url: "https://example.org/bern", text: "Bern is the capital of Switzerland." },
  ];
  const renumbered = validate({ answer: "Bern is the capital [2].", sources: two, citations: [{ source: 2, quote: "capital of Switzerland" }] }, { renumber: true });
  assert.equal(renumbered.cleanedAnswer, "Bern is the capital [1].");
  assert.deepEqual(renumbered.segments[1].sourcePositions, [1]);
  const [card] = chipsOf(renumbered, two)[0].sources;
  assert.equal(card.label, "1");
  assert.equal(card.title, "Bern");
  assert.equal(card.href, "https://example.org/bern");
  assert.equal(card.quote, "capital of Switzerland");
  // Two sources labelled 1: validation takes the first, and so does its card.
  const twins = [
    { index: 1, title: "First", text: "Bern is the capital of Switzerland." },
    { index: 1, title: "Second", text: "Paris is big." },
  ];
  const report = validate({ answer: "Bern is the capital [1].", sources: twins }, scored);
  assert.equal(report.citations[0].sourcePosition, 0);
  const [twin] = chipsOf(report, twins)[0].sources;
  assert.equal(twin.title, "First");
  assert.equal(twin.evidence, "Bern is the capital of Switzerland.");
  // Under `flag`, a ref that resolved to nothing has no position and no card source.
  const flagged = validate({ answer: "Bern [1, 7].", sources: two }, { policy: "flag" });
  assert.deepEqual(flagged.segments[1].sourcePositions, [0, null]);
  assert.deepEqual(chipsOf(flagged, two)[0].sources.map((c) => [c.title, c.found]), [["Paris", true], ["", false]]);
});

test("a source given under the input's other names (doc_title, page_content) shows its title, quote and evidence on the card", () => {
  const snake = [{ doc_title: "Boiling", url: "https://example.org/boil", page_content: "Water boils at 100 °C at sea level." }];
  const report = validate({ answer: "Water boils at 100 °C [1].", sources: snake, citations: [{ source: 1, quote: "boils at 100 °C" }] }, { policy: "flag", ...scored });
  assert.equal(report.citations[0].quote.match, "exact", "validate reads page_content");
  const [card] = citationTree(report, { sources: snake }).flatMap((b) => b.children).filter((n) => n.type === "chip").map((n) => n.chip.sources[0]);
  assert.equal(card.title, "Boiling");
  assert.equal(card.quote, "boils at 100 °C");
  assert.equal(card.quoteChecked, true);
  assert.equal(card.evidence, "Water boils at 100 °C at sea level.");
});

test("an unverified quote (a web source without text) is no finding, and the card shows it as stated", () => {
  const web = [{ title: "Paris", url: "https://example.org/paris" }];
  const input = { answer: "Paris is the capital of France [1].", sources: web, citations: [{ source: 1, quote: "Paris is the capital" }] };
  const report = validate(input);
  assert.equal(report.status, "pass");
  assert.deepEqual(report.findings, []);
  assert.deepEqual(report.citations[0].quote, { match: "unverified" });
  assert.equal(report.citations[0].quoteText, "Paris is the capital");
  const chips = citationTree(report, { sources: web }).flatMap((b) => b.children).filter((n) => n.type === "chip");
  assert.equal(chips[0].chip.sources[0].quote, "Paris is the capital");
  assert.equal(chips[0].chip.sources[0].quoteChecked, false, "stated, not found in a text");
  // With the source's text the same quote is looked for: not found is a finding, and the
  // card shows no quote rather than the model's claim.
  const withText = [{ ...web[0], text: "Lyon is a large city." }];
  const checked = validate({ ...input, sources: withText }, { policy: "flag" });
  assert.ok(checked.findings.some((f) => f.code === "quote_not_found"));
  const card = citationTree(checked, { sources: withText }).flatMap((b) => b.children).find((n) => n.type === "chip");
  assert.equal(card.chip.sources[0].quote, null);
});

test("hostile answers, titles, URLs and quotes render inert in renderHtml and <CitedAnswer>", () => {
  let cases = 0;
  for (const { context, report, sources: hostile } of hostileCases(validate)) {
    assertInert(renderHtml(report, { sources: hostile }), `renderHtml ${context}`);
    const markup = renderToStaticMarkup(createElement(CitedAnswer, { report, sources: hostile }));
    assertInert(markup, `CitedAnswer ${context}`);
    assertInert(renderGfm(report, { sources: hostile }), `citeproof/markdown renderHtml ${context}`);
    cases += 1;
  }
  for (const url of URL_PAYLOADS) {
    const report = validate({ answer: `Fact [1]. [x](${url})`, sources: [{ title: "t", url }] });
    const tree = JSON.stringify(citationTree(report, { sources: [{ title: "t", url }] }));
    assert.doesNotMatch(tree, /"href":"(?!https?:)/i, `unsafe href from ${JSON.stringify(url)}`);
    cases += 1;
  }
  assert.ok(cases >= 250, `${cases} cases`);
});

test("<CitedAnswer> validates an answer itself when given answer and sources", () => {
  const markup = renderToStaticMarkup(createElement(CitedAnswer, { answer: "Water boils [1]. Moon [9].", sources }));
  assert.match(markup, /<button type="button" class="citeproof-chip__badge" aria-expanded="false" aria-label="Citation 1" data-valid="true">1<\/button>/);
  // By default it flags rather than removes: [9] names no source, and its chip says so.
  assert.match(markup, /aria-label="Citation 9 \(not verified\)" data-valid="false">9<\/button>/);
  const cleaned = renderToStaticMarkup(createElement(CitedAnswer, { answer: "Water boils [1]. Moon [9].", sources, options: { policy: "clean" } }));
  assert.doesNotMatch(cleaned, /9/, "policy clean removes the invalid marker");
  assertInert(markup, "answer");
});

test("a group's badge reads as a list: up to three labels, then the first two and how many more", () => {
  const five = Array.from({ length: 5 }, (_, i) => ({ title: `S${i + 1}`, url: `https://s${i + 1}.example/`, text: "x" }));
  const badges = (answer) => citationTree(validate({ answer, sources: five }), { sources: five })
    .flatMap((b) => b.children)
    .filter((n) => n.type === "chip")
    .map((n) => n.chip.badge);
  assert.deepEqual(badges("One [1]. Three [1, 2, 3]. Five [1, 2, 3, 4, 5]."), ["1", "1, 2, 3", "1, 2 +3 more"]);
});

test("citeproof/markdown renderHtml: GFM with chips, links only for http(s), images as links, raw HTML not rendered", () => {
  const answer = [
    "| city | fact |",
    "|---|---|",
    "| Tokyo | the capital [2] |",
    "",
    "Water _boils_ ~~never~~ at 100 °C [1]. Moon [9].",
    "",
    "- [x] done [1, 2]",
    "- code in a list:",
    "",
    "  ```",
    "  arr[1]",
    "  ```",
    "",
    "![chart](https://example.org/c.png) [bad](javascript:alert(1)) <b onclick=x>raw</b> [docs](https://docs.test/a)",
  ].join("\n");
  const report = validate({ answer, sources }, { policy: "flag" });
  const html = renderGfm(report, { sources });
  assert.match(html, /^<div class="citeproof-answer">/);
  assert.match(html, /<td>the capital <sup class="citeproof-chip" title="Japan"><a href="https:\/\/example.org\/japan" rel="noopener noreferrer nofollow">2<\/a><\/sup><\/td>/);
  assert.match(html, /<em>boils<\/em> <del>never<\/del>/);
  assert.match(html, /Moon <sup class="citeproof-chip citeproof-chip--invalid" title="Cites \[9\], which was not among the retrieved sources.">9<\/sup>/);
  assert.match(html, /<input type="checkbox" checked disabled> done <sup class="citeproof-chip" title="Boiling · Japan">/);
  assert.match(html, /<li>\s*<p>code in a list:<\/p>\s*<pre><code>arr\[1\]\n<\/code><\/pre>\s*<\/li>/);
  assert.match(html, /<a class="citeproof-image" href="https:\/\/example.org\/c.png" rel="noopener noreferrer nofollow">chart<\/a>/);
  assert.match(html, /<span>bad<\/span>/);
  assert.doesNotMatch(html, /onclick|<b>/);
  assert.match(html, /<a href="https:\/\/docs.test\/a" rel="noopener noreferrer nofollow">docs<\/a>/);
  assertInert(html, "GFM");
  assert.throws(() => renderGfm(null), (e) => e.code === "invalid_input");
  assert.throws(() => renderGfm({ segments: 3 }), (e) => e.code === "invalid_input");
});

test("citeproof/markdown renderHtml draws a stream's { segments } as it draws the report", () => {
  const report = validate({ answer: "| a | b |\n|---|---|\n| x [1] | y [2] |", sources });
  assert.equal(renderGfm({ segments: report.segments }, { sources }), renderGfm(report, { sources }));
});

test("citeproof/markdown renderHtml draws an empty answer as the core does: the empty container", () => {
  const empty = '<div class="citeproof-answer"></div>';
  // A stream's first state, an empty answer, an answer whose one marker the policy removed.
  for (const report of [{ segments: [] }, validate({ answer: "" }), validate({ answer: "[9]", sources })]) {
    assert.equal(renderHtml(report, { sources }), empty, "the core");
    assert.equal(renderGfm(report, { sources }), empty, JSON.stringify(report.segments));
    assert.equal(renderGfm(report), empty);
  }
});

test("citeproof/markdown renderHtml reads the segments' length first: a sparse list past the limit is too_large, as the core says", () => {
  const report = { segments: Object.assign([], { length: 2 ** 32 - 1 }) };
  const core = (() => {
    try {
      renderHtml(report);
    } catch (e) {
      return e;
    }
  })();
  assert.throws(() => renderGfm(report), (e) => e.code === "too_large" && e.message === core.message);
});

test("the hooks and <CitedAnswer> take null options as none; other non-objects are invalid_option", () => {
  const report = validate({ answer: "Water boils [1].", sources: [{ title: "Boiling", text: "Water boils." }] });
  const render = (f) => renderToStaticMarkup(createElement(() => createElement("i", null, JSON.stringify(f()))));
  assert.equal(render(() => useCitations(report, null).chips.length), render(() => useCitations(report).chips.length));
  assert.equal(render(() => useCitationStream(null, null).done), render(() => useCitationStream(null).done));
  const message = { id: "m", role: "assistant", parts: [{ type: "text", text: "Water boils [1]." }] };
  assert.equal(render(() => useCitedMessage(message, null).text), render(() => useCitedMessage(message).text));
  for (const [name, f] of [["useCitations", () => useCitations(report, 5)], ["useCitationStream", () => useCitationStream(null, "x")], ["useCitedMessage", () => useCitedMessage(message, true)]]) {
    assert.throws(() => render(f), (e) => e.code === "invalid_option" && e.message.startsWith(`${name}: expected an options object`), name);
  }
  const answer = (components) => renderToStaticMarkup(createElement(CitedAnswer, { report, components }));
  assert.equal(answer(null), answer(undefined));
});

