// Differential harness: does `parseCitations` agree with reference CommonMark parsers
// (commonmark.js, and markdown-it as a second opinion) on whether a `[N]` injected at a
// given position is a visible prose citation marker?
//
// For every document (CommonMark spec examples, real answers) and every injection point,
// the reference decides from its AST where the injected marker ended up (prose, code,
// link text, …); our parser decides from its spans. Positions where the two references
// disagree are ambiguities of the reference itself and are left out; positions where the
// project's grammar deliberately differs from CommonMark are counted under a named
// exception (EXCEPTIONS below), which says what our parser must answer there instead.
//
//   node tests/reference/markdown.mjs [--docs spec|answers|all] [--stride N] [--json out.json]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as commonmark from "commonmark";
import markdownit from "markdown-it";
import { parseFragment } from "parse5";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// ExpertQA's real answers, vendored with their licence (data/expertqa/README.md).
export const answersPath = join(root, "data", "expertqa", "answers-val.jsonl");

/** The package's parser (pkg/node, built by scripts/build-pkg.mjs). */
export function loadParser() {
  return require(join(root, "pkg", "node", "citeproof.js")).parseCitations;
}

// ---------------------------------------------------------------------------------------
// Documents

/**
 * Inline constructs cut by the end of their paragraph: each opener, then each way a
 * paragraph ends (or goes on), then the closer that would have ended it. CommonMark ends
 * every inline construct with its paragraph; the references decide where each injected
 * marker lands.
 */
export function boundaryDocs() {
  const openers = [
    ["<!a", ">"], ["<?a", "?>"], ["<!--", "-->"], ["<![CDATA[", "]]>"], ["`", "`"],
    ["<a href=\"", "\">"], ["[x", "](u)"], ["[x](<u", ">)"], ["<code>", "</code>"],
  ];
  const breaks = ["\n", "\n\n", "\n```\n", "\n# h\n", "\n> q\n", "\n- i\n", "\n---\n", "\n<div>\n", "\n   \n"];
  const docs = [];
  for (const [open, close] of openers) {
    for (const cut of breaks) {
      const text = `a ${open} b c${cut}d ${close} e`;
      docs.push({ set: "boundaries", id: `boundary ${JSON.stringify(open)} ${JSON.stringify(cut)}`, text });
    }
  }
  return docs;
}

/** `{ set, id, text }` for the spec examples and/or the real answers (`which`: spec|answers|all). */
export function collectDocs(which = "all") {
  const docs = which === "all" ? boundaryDocs() : [];
  if (which === "spec" || which === "all") {
    // The spec package writes tabs as `→` (its visible-tab convention) and never uses the
    // arrow for anything else.
    for (const t of require("commonmark-spec").tests) {
      docs.push({ set: "spec", id: `spec #${t.number} (${t.section})`, text: t.markdown.replaceAll("→", "\t") });
    }
  }
  if (which === "answers" || which === "all") {
    for (const line of readFileSync(answersPath, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const { id, answer } = JSON.parse(line);
      docs.push({ set: "answers", id, text: answer });
    }
  }
  return docs;
}

/** The number to inject: one whose digits occur nowhere in `doc`, so the marker is unique. */
export function markerNumber(doc) {
  let n = 987;
  while (doc.includes(String(n))) n++;
  return n;
}

/** Injection points: UTF-16 indices 0..len, never between the halves of a surrogate pair. */
export function* injectionPoints(doc, stride = 1) {
  for (let p = 0; p <= doc.length; p += stride) {
    const high = doc.charCodeAt(p - 1);
    const low = doc.charCodeAt(p);
    if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) continue;
    yield p;
  }
}

// ---------------------------------------------------------------------------------------
// Reference verdicts: `{ verdict, wholeLinkText }`, where `wholeLinkText` says the
// enclosing link's entire text is the marker (`[[N]](url)`).
//
//   prose             in a text run outside links and images
//   escaped           prose, but the marker's `[` is backslash-escaped
//   link_text         in the text of a link
//   image             anywhere in an image's alt text, or an image whose alt text is `N`
//   link_from_marker  a link whose text is exactly `N`: the marker's brackets were its own
//   link_dest         in a link/image destination or title (autolinks included: their
//                     destination is their text)
//   code_inline, code_fenced (incl. the info string), code_indented, html_inline
//   html_block        in an HTML block's markup or in its code/script/style content
//   html_text         in an HTML block's text, which a browser shows (parse5 decides)
//   consumed          nowhere in the AST (a link reference definition swallowed it)

const verdict = (name, wholeLinkText = false) => ({ verdict: name, wholeLinkText });

const cmParser = new commonmark.Parser();

/**
 * commonmark.js's verdict on where marker `m` (= `[n]`, injected at `p`) ended up in
 * `doc`, plus `within`: the list item or block quote holding it, to describe the context.
 */
export function commonmarkVerdict(doc, p, m, n) {
  const digits = String(n);
  const ancestor = (node, type) => {
    for (let a = node; a; a = a.parent) if (a.type === type) return a;
    return null;
  };
  const found = (node, name, wholeLinkText) => {
    let within = null;
    for (let a = node; a && !within; a = a.parent) {
      within = a.type === "item" ? "list item" : a.type === "block_quote" ? "block quote" : null;
    }
    const htmlType = name === "html_block" ? htmlBlockType(node.literal) : undefined;
    return { ...verdict(name, wholeLinkText), within, htmlType };
  };
  // commonmark.js emits `[`, `]` and the text between as separate sibling text nodes, so
  // the marker is only visible in a run of adjacent text siblings.
  // `element`: a `<code>` or `<pre>` that an inline tag before the run opened and one
  // after it closes, among the same siblings (what a browser shows as code).
  const verbatimTag = (node) => node?.type === "html_inline" && /^<(\/?)(code|pre)\b/i.exec(node.literal);
  const closedLater = (node, name) => {
    for (let next = node; next; next = next.next) {
      const tag = verbatimTag(next);
      if (tag && tag[1] && tag[2].toLowerCase() === name) return true;
    }
    return false;
  };
  const findInChildren = (parent) => {
    let run = "";
    let open = null;
    for (let child = parent.firstChild; ; child = child.next) {
      if (child?.type === "text") {
        run += child.literal;
        continue;
      }
      if (run.includes(m)) {
        const link = ancestor(parent, "link");
        if (link) return found(parent, "link_text", plainText(link) === m);
        const hit = found(parent, backslashEscaped(doc, p) ? "escaped" : "prose");
        return open && closedLater(child, open) ? { ...hit, element: open } : hit;
      }
      run = "";
      if (!child) return null;
      const tag = verbatimTag(child);
      if (tag) open = tag[1] ? null : tag[2].toLowerCase();
      const hit = findInNode(child);
      if (hit) return hit;
    }
  };
  const findInNode = (node) => {
    switch (node.type) {
      case "code":
        return node.literal.includes(m) ? found(node, "code_inline") : null;
      case "code_block":
        if (!node.literal.includes(m) && !node.info?.includes(m)) return null;
        return found(node, node.info !== null ? "code_fenced" : "code_indented");
      case "html_inline":
        return node.literal.includes(m) ? found(node, node.type) : null;
      case "html_block":
        return node.literal.includes(m) ? found(node, htmlBlockVerdict(node.literal, m)) : null;
      case "link":
      case "image": {
        if (node.destination.includes(digits) || node.title.includes(digits)) return found(node, "link_dest");
        const text = plainText(node);
        // Alt text is rendered as plain text, whatever inline syntax it holds; an image
        // is never a marker, also when its alt text is the marker's number.
        if (node.type === "image") return text.includes(m) || text === digits ? found(node, "image") : null;
        if (text === digits) return found(node, "link_from_marker");
        return findInChildren(node);
      }
      default:
        return node.isContainer ? findInChildren(node) : null;
    }
  };
  return findInChildren(cmParser.parse(doc)) ?? { ...verdict("consumed"), within: null };
}

// The tag names of the spec's HTML block start condition 6 (section 4.6).
const BLOCK_TAGS = new Set(
  ("address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt " +
    "fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li " +
    "link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th " +
    "thead title tr track ul").split(" "),
);

/** Which of the spec's seven HTML block start conditions opened a block (from its text). */
function htmlBlockType(literal) {
  const start = literal.trimStart();
  if (/^<(?:pre|script|style|textarea)(?:[\s>]|$)/i.test(start)) return 1;
  if (start.startsWith("<!--")) return 2;
  if (start.startsWith("<?")) return 3;
  if (start.startsWith("<![CDATA[")) return 5;
  if (/^<![A-Za-z]/.test(start)) return 4;
  return BLOCK_TAGS.has(start.match(/^<\/?([A-Za-z][A-Za-z0-9-]*)/)?.[1].toLowerCase()) ? 6 : 7;
}

// Elements whose text content is code or never shown (docs/markers.md, "Markup").
const NOT_PROSE_ELEMENTS = new Set(["script", "style", "textarea", "title", "pre", "code", "template"]);

/**
 * Where marker `m` sits in an HTML block's `literal`, as a browser's HTML parser (parse5,
 * spec-compliant) reads it: `html_text` in text a browser shows, `html_block` in markup
 * (a tag, an attribute, a comment) or in code/script/style content.
 */
function htmlBlockVerdict(literal, m) {
  const start = literal.indexOf(m);
  const end = start + m.length;
  const inText = (node, hidden) => {
    const here = hidden || NOT_PROSE_ELEMENTS.has(node.nodeName);
    const at = node.sourceCodeLocation;
    // parse5 merges the text around a dropped tag into one node whose location spans
    // the tag, so the node must also hold the marker's text.
    if (node.nodeName === "#text" && at && at.startOffset <= start && end <= at.endOffset) {
      return !here && node.value.includes(m);
    }
    return (node.childNodes ?? []).some((child) => inText(child, here)) ||
      (node.content ? inText(node.content, here) : false);
  };
  return inText(parseFragment(literal, { sourceCodeLocationInfo: true }), false) ? "html_text" : "html_block";
}

/** The text a commonmark.js link shows, or an image's alt text. */
function plainText(node) {
  let text = "";
  const walker = node.walker();
  for (let e = walker.next(); e; e = walker.next()) {
    if (e.entering && (e.node.type === "text" || e.node.type === "code")) text += e.node.literal;
  }
  return text;
}

/**
 * An odd run of backslashes right before `p` escapes the marker's `[`. A textual rule,
 * because commonmark.js leaves no trace of an escape in its AST. It is only asked when the
 * marker landed in prose text, where a backslash right before it cannot be literal (code
 * spans, HTML and autolinks end in their own delimiter); markdown-it, which marks escapes,
 * cross-checks it.
 */
function backslashEscaped(doc, p) {
  let run = 0;
  while (doc[p - 1 - run] === "\\") run++;
  return run % 2 === 1;
}

// markdown-it with its CommonMark preset. `text_join` is off so that escapes stay visible
// as `text_special` tokens (it would merge them into the surrounding text).
const mdCommonmark = markdownit("commonmark");
mdCommonmark.disable("text_join");

/** markdown-it's verdict, same vocabulary as commonmarkVerdict. */
export function markdownItVerdict(doc, m, n) {
  const digits = String(n);
  for (const token of mdCommonmark.parse(doc, {})) {
    if (token.type === "fence" && (token.content.includes(m) || token.info.includes(m))) {
      return verdict("code_fenced");
    }
    if (token.type === "code_block" && token.content.includes(m)) return verdict("code_indented");
    if (token.type === "html_block" && token.content.includes(m)) return verdict(htmlBlockVerdict(token.content, m));
    if (token.type === "inline") {
      const found = markdownItInline(token.children, m, digits);
      if (found) return found;
    }
  }
  return verdict("consumed");
}

function markdownItInline(children, m, digits) {
  const hasDigits = (token, name) => token.attrGet(name)?.includes(digits);
  let link = null; // inside link_open … link_close: the text it shows, whether it holds the marker
  // A run of adjacent text tokens, and the run offsets of backslash-escaped characters.
  let run = "";
  let escapes = new Set();
  const endRun = () => {
    const at = run.indexOf(m);
    const escaped = escapes.has(at);
    run = "";
    escapes = new Set();
    return at < 0 ? null : escaped ? "escaped" : "prose";
  };
  for (const token of [...children, null]) {
    if (token?.type === "text" || token?.type === "text_special") {
      if (token.type === "text_special" && token.info === "escape") escapes.add(run.length);
      run += token.content;
      if (link) link.text += token.content;
      continue;
    }
    const hit = endRun();
    if (hit && !link) return verdict(hit);
    if (hit) link.found = true;
    switch (token?.type) {
      case undefined:
        return null;
      case "code_inline":
        if (token.content.includes(m)) return verdict("code_inline");
        if (link) link.text += token.content;
        break;
      case "html_inline":
        if (token.content.includes(m)) return verdict("html_inline");
        break;
      case "image": {
        if (hasDigits(token, "src") || hasDigits(token, "title")) return verdict("link_dest");
        // `content` is the raw label source; the alt text comes from the parsed children.
        const alt = inlineText(token.children);
        if (alt.includes(m) || alt === digits) return verdict("image");
        if (link) link.text += alt;
        break;
      }
      case "link_open":
        if (hasDigits(token, "href") || hasDigits(token, "title")) return verdict("link_dest");
        link = { text: "", found: false };
        break;
      case "link_close":
        if (link.text === digits) return verdict("link_from_marker");
        if (link.found) return verdict("link_text", link.text === m);
        link = null;
        break;
    }
  }
}

/** The plain text of markdown-it inline tokens, as an image's alt attribute shows it. */
function inlineText(tokens) {
  let text = "";
  for (const t of tokens) {
    if (t.type === "text" || t.type === "text_special" || t.type === "code_inline") text += t.content;
    else if (t.type === "image") text += inlineText(t.children);
  }
  return text;
}

// markdown-it in CommonMark mode plus GFM-style bare-URL autolinks (linkify-it).
const mdLinkify = markdownit("commonmark", { linkify: true }).enable("linkify");

/** markdown-it's linkify turns a bare URL that takes in (part of) the marker into a link. */
export function gluedToBareUrl(doc, n) {
  if (!mdLinkify.linkify.test(doc)) return false; // cheap: most documents hold no URL
  const digits = String(n);
  for (const token of mdLinkify.parse(doc, {})) {
    if (token.type !== "inline") continue;
    let linkified = false;
    for (const child of token.children) {
      if (child.type === "link_open") linkified = child.markup === "linkify";
      else if (child.type === "link_close") linkified = false;
      else if (linkified && child.content.includes(digits)) return true;
    }
  }
  return false;
}

// A line shaped like a link reference definition, after up to three spaces of indentation
// and block-quote markers.
const DEFINITION_LINE = /^ {0,3}(?:> ?)*\[[^[\]]+\]:/;

// A definition-shaped line indented four or more spaces (CommonMark: indented code).
const INDENTED_DEFINITION = /^ {4,}\[[^[\]]+\]:/m;

// A fence-shaped line indented four or more spaces (CommonMark: indented code).
const INDENTED_FENCE = /^ {4,}(?:`{3,}|~{3,})/m;

/** Start and end (exclusive, before the line break) of the line holding index `p`. */
function lineBounds(doc, p) {
  const start = Math.max(doc.lastIndexOf("\n", p - 1), doc.lastIndexOf("\r", p - 1)) + 1;
  const length = doc.slice(p).search(/[\r\n]/);
  return { start, end: length < 0 ? doc.length : p + length };
}

function lineAt(doc, p) {
  const { start, end } = lineBounds(doc, p);
  return doc.slice(start, end);
}

// ---------------------------------------------------------------------------------------
// Our verdict

/**
 * `exact`: a marker spans exactly the injected one; `covering`: a larger marker contains
 * it (`[N](url)`, `[[N]](url)`); `partial`: a marker overlaps it without containing it;
 * `none`: no marker touches it.
 */
export function oursVerdict(markers, p, end) {
  let verdict = "none";
  for (const { span } of markers) {
    if (span.start === p && span.end === end) return "exact";
    if (span.start <= p && span.end >= end) verdict = "covering";
    else if (span.start < end && span.end > p && verdict === "none") verdict = "partial";
  }
  return verdict;
}

// ---------------------------------------------------------------------------------------
// Where the project's grammar deliberately differs from CommonMark. Checked in this order,
// first match wins; each is decided from the references or a textual rule, never from our
// parser. `expect`: what our parser must say there (null: the reference cannot judge, so
// anything goes; the outcome is still tallied).

export const EXCEPTIONS = [
  {
    name: "indented_code_is_prose",
    reason: "four-space-indented text is read as prose: in LLM answers it is list continuation far more often than code",
    applies: (c) => c.ref.verdict === "code_indented",
    expect: null,
  },
  {
    name: "indented_fence_is_a_fence",
    reason: "a fence line indented four or more spaces still opens or closes a fence (it continues a list item, as indented text does)",
    applies: (c) => INDENTED_FENCE.test(c.doc.slice(0, lineBounds(c.doc, c.p).start)) || INDENTED_FENCE.test(lineAt(c.doc, c.p)),
    expect: null,
  },
  {
    name: "indented_definition_defines",
    reason: "a definition indented four or more spaces defines its label (indented text is prose to us, so it is no code block)",
    applies: (c) => c.ref.verdict === "prose" && INDENTED_DEFINITION.test(c.doc),
    expect: null,
  },
  {
    name: "definition_shaped_line",
    reason: "a `[label]:` line is a definition to us even where CommonMark keeps it as paragraph text",
    applies: (c) => ["prose", "link_from_marker"].includes(c.ref.verdict) && DEFINITION_LINE.test(lineAt(c.doc, c.p)),
    expect: ["none"],
  },
  {
    name: "link_whose_text_is_marker",
    reason: "`[N](url)` and `[[N]](url)` are one link marker whose span covers the whole link",
    applies: (c) => c.ref.verdict === "link_from_marker" || (c.ref.verdict === "link_text" && c.ref.wholeLinkText),
    expect: ["covering"],
  },
  {
    name: "link_text",
    reason: "a marker inside other link text is part of the link, not a citation",
    applies: (c) => c.ref.verdict === "link_text",
    expect: ["none"],
  },
  {
    name: "glued_to_bare_url",
    reason: "a bracket glued to a bare URL is part of the URL (GFM autolinks, here markdown-it's linkify)",
    applies: (c) => c.ref.verdict === "prose" && gluedToBareUrl(c.doc, c.n),
    expect: ["none"],
  },
  {
    name: "html_block_text",
    reason: "text between the tags of an HTML block is shown when the HTML renders (parse5 decides what is text): a marker there cites; markup never does",
    applies: (c) => c.ref.verdict === "html_text",
    expect: ["exact"],
  },
  {
    name: "code_element_text",
    reason: "text between `<code>` and `</code>` (or `<pre>` … `</pre>`) in one paragraph is code: a browser shows it as code; CommonMark passes the tags through and keeps the text between as text",
    applies: (c) => c.ref.verdict === "prose" && c.ref.element !== undefined,
    expect: ["none"],
  },
  {
    name: "escaped",
    reason: "a backslash-escaped bracket is literal text, not a marker",
    applies: (c) => c.ref.verdict === "escaped",
    expect: ["none"],
  },
];

// ---------------------------------------------------------------------------------------
// The run

/** The text from the blank line before `p` and from `end` to the blank line after it. */
function paragraphAround(doc, p, end) {
  let start = 0;
  let stop = doc.length;
  for (const blank of doc.matchAll(/\n[ \t]*\r?\n/g)) {
    if (blank.index + blank[0].length <= p) start = blank.index + blank[0].length;
    else if (blank.index >= end) {
      stop = blank.index;
      break;
    }
  }
  return { before: doc.slice(start, p), after: doc.slice(end, stop) };
}

/**
 * A short description of the syntax around the marker, to group disagreements by their
 * likely cause: the innermost construct it sits in (first match wins, judged within its
 * paragraph), else what precedes it; then a following `(`, `[` or `:` (which can make it a
 * link or a definition) and the list item or block quote that holds it. `within` and
 * `htmlType` (the HTML block's start condition) come from commonmarkVerdict.
 */
export function contextTag(doc, p, end, { within, htmlType }) {
  const { before, after } = paragraphAround(doc, p, end);
  const lineBefore = before.match(/[^\r\n]*$/)[0];
  const closesLater = (ch) => after.includes(ch);
  let bracketDepth = 0;
  for (const ch of before.replace(/\\./g, "")) bracketDepth = Math.max(0, bracketDepth + (ch === "[") - (ch === "]"));
  const inTag = /<\/?[A-Za-z][^<>]*$/.test(before) && /^[^<]*>/.test(after);
  let cue;
  if (htmlType) cue = `${inTag ? "in a tag" : "between tags"} in an html block of type ${htmlType}`;
  else if (/<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\s]*$/.test(before) && closesLater(">")) cue = "in <scheme:…>";
  else if (/\]\(\s*<[^<>]*$/.test(before) && closesLater(">")) cue = "in ](<…>)";
  else if (inTag) cue = "in html tag";
  else if (/^ {0,3}(?:> ?)*\[[^\]]*\]:/m.test(before)) cue = "in definition-shaped paragraph";
  else if (/\]\([^)]*$/.test(before) && closesLater(")")) cue = "in ](…)";
  else if (bracketDepth > 0 && closingBracket(after) >= 0) {
    // Which link form the brackets would make: inline, full/collapsed reference, or shortcut.
    const follower = after[closingBracket(after) + 1];
    cue = follower === "(" ? "inside [ ](…)" : follower === "[" ? "inside [ ][…]" : "inside [ ]";
  } else if ((before.match(/`/g) ?? []).length % 2 === 1) cue = "after an unclosed `";
  else if (/[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s<>]*$/.test(lineBefore)) cue = "glued to a URL";
  else if (/^[ \t>]*$/.test(lineBefore)) cue = "at line start";
  else if (/^[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+$/.test(lineBefore)) cue = "after list marker";
  else {
    const prev = lineBefore.match(/(\*+|_+|.)$/u)[1];
    cue = /[\p{L}\p{N}]/u.test(prev) ? "after word" : /\s/.test(prev) ? "after space" : `after ${prev}`;
  }
  const tags = [cue];
  const next = after.match(/^[([:]/);
  if (next) tags.push(`before ${next[0]}`);
  if (within) tags.push(`in ${within}`);
  return tags.join(", ");
}

/** Index in `text` of the `]` closing a `[` opened before it, or -1. */
function closingBracket(text) {
  let depth = 1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

function snippet(doc, p, end) {
  return JSON.stringify(doc.slice(Math.max(0, p - 40), end + 40));
}

/**
 * Runs the comparison over `docs` with `parseCitations`. Returns totals per document set,
 * exception tallies, reference ambiguities and the disagreement classes (all instances).
 */
export function runHarness(docs, { parseCitations, stride = 1 }) {
  const sets = {};
  const exceptions = Object.fromEntries(EXCEPTIONS.map((e) => [e.name, { count: 0, ours: {} }]));
  const ambiguities = { count: 0, pairs: {}, examples: [] };
  const classes = new Map();
  const started = performance.now();
  for (const doc of docs) {
    const totals = (sets[doc.set] ??= { docs: 0, positions: 0, ambiguous: 0, excepted: 0, unexpected: 0, compared: 0, agree: 0 });
    totals.docs++;
    const n = markerNumber(doc.text);
    const m = `[${n}]`;
    for (const p of injectionPoints(doc.text, stride)) {
      totals.positions++;
      const text = doc.text.slice(0, p) + m + doc.text.slice(p);
      const end = p + m.length;
      const ref = commonmarkVerdict(text, p, m, n);
      const second = markdownItVerdict(text, m, n);
      if (ref.verdict !== second.verdict || ref.wholeLinkText !== second.wholeLinkText) {
        totals.ambiguous++;
        ambiguities.count++;
        const pair = `commonmark.js ${describe(ref)} / markdown-it ${describe(second)}`;
        ambiguities.pairs[pair] = (ambiguities.pairs[pair] ?? 0) + 1;
        if (ambiguities.examples.filter((e) => e.pair === pair).length < 3) {
          ambiguities.examples.push({ pair, id: doc.id, p, snippet: snippet(text, p, end) });
        }
        continue;
      }
      const ours = oursVerdict(parseCitations(text), p, end);
      const exception = EXCEPTIONS.find((e) => e.applies({ ref, doc: text, p, n }));
      let refLabel = ref.verdict;
      if (exception) {
        totals.excepted++;
        const tally = exceptions[exception.name];
        tally.count++;
        tally.ours[ours] = (tally.ours[ours] ?? 0) + 1;
        if (!exception.expect || exception.expect.includes(ours)) continue;
        // Not what the exception allows: a disagreement, labelled with the exception.
        totals.unexpected++;
        refLabel = `${exception.name} (${ref.verdict})`;
      } else {
        totals.compared++;
        if (ref.verdict === "prose" ? ours === "exact" : ours === "none") {
          totals.agree++;
          continue;
        }
      }
      const tag = contextTag(text, p, end, ref);
      const key = `${refLabel} × ${ours} × ${tag}`;
      if (!classes.has(key)) classes.set(key, { key, ref: refLabel, ours, tag, count: 0, instances: [] });
      const cls = classes.get(key);
      cls.count++;
      cls.instances.push({ set: doc.set, id: doc.id, p, snippet: snippet(text, p, end) });
    }
  }
  const overall = { docs: 0, positions: 0, ambiguous: 0, excepted: 0, unexpected: 0, compared: 0, agree: 0 };
  for (const t of Object.values(sets)) for (const k of Object.keys(overall)) overall[k] += t[k];
  for (const t of [overall, ...Object.values(sets)]) t.agreement = t.compared ? t.agree / t.compared : 1;
  return {
    stride,
    seconds: (performance.now() - started) / 1000,
    overall,
    sets,
    exceptions,
    ambiguities,
    classes: [...classes.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
  };
}

function describe(v) {
  return v.wholeLinkText ? `${v.verdict} (whole link text)` : v.verdict;
}

/** The human-readable report: totals, exceptions, ambiguities, classes with 5 examples each. */
export function formatReport(result, { examples = 5 } = {}) {
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  const lines = [];
  const row = (name, t) =>
    `${name.padEnd(8)} docs ${t.docs}, positions ${t.positions}, ambiguous ${t.ambiguous}, ` +
    `excepted ${t.excepted} (${t.unexpected} not as expected), compared ${t.compared}: ` +
    `agree ${t.agree} (${pct(t.agreement)}), disagree ${t.compared - t.agree}`;
  lines.push(`stride ${result.stride}, ${result.seconds.toFixed(1)} s`);
  for (const [name, t] of Object.entries(result.sets)) lines.push(row(name, t));
  lines.push(row("overall", result.overall));
  lines.push("", "named exceptions (count; what our parser said):");
  for (const e of EXCEPTIONS) {
    const t = result.exceptions[e.name];
    lines.push(`  ${e.name}: ${t.count} ${JSON.stringify(t.ours)} — expect ${e.expect?.join("|") ?? "anything"}; ${e.reason}`);
  }
  lines.push("", `reference ambiguities (commonmark.js ≠ markdown-it): ${result.ambiguities.count}`);
  for (const [pair, count] of Object.entries(result.ambiguities.pairs).sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${count}  ${pair}`);
    for (const e of result.ambiguities.examples.filter((x) => x.pair === pair)) lines.push(`      ${e.id} @${e.p}: ${e.snippet}`);
  }
  const total = result.classes.reduce((sum, c) => sum + c.count, 0);
  lines.push("", `disagreements: ${total} in ${result.classes.length} classes (reference × ours × context):`);
  for (const c of result.classes) {
    lines.push(`  ${c.count}  ${c.key}`);
    for (const e of c.instances.slice(0, examples)) lines.push(`      ${e.id} @${e.p}: ${e.snippet}`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------
// CLI

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i < 0 ? fallback : args[i + 1];
  };
  const which = option("--docs", "all");
  const stride = Number(option("--stride", "1"));
  const jsonOut = option("--json", null);
  if (!["spec", "answers", "all"].includes(which) || !Number.isInteger(stride) || stride < 1) {
    console.error("usage: node tests/reference/markdown.mjs [--docs spec|answers|all] [--stride N] [--json out.json]");
    process.exit(2);
  }
  const result = runHarness(collectDocs(which), { parseCitations: loadParser(), stride });
  console.log(formatReport(result));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 1));
}
