// Rendering a report (or streamed segments) for people: a small markdown subset with
// citation chips, as a tree (`citationTree`, which the React components map to
// elements) or as an HTML string (`renderHtml`). Safe by construction: text is only
// ever escaped, and a URL becomes a link only when it parses as http: or https:.
// Plain JS: the package's entries export these next to the binding's exports
// (scripts/build-pkg.mjs), without a call into the module.
import { MAX_LIST_ITEMS, SOURCE_NAMES, TYPE_BOOLEAN, TYPE_REVOKED, codedError, fieldOf, listItems, tooManyItems, typeCode } from "./untrusted.js";

// The fields of a source a card shows; its other fields are not read.
const DISPLAYED = ["title", "url", "slug", "text"];

const CHIP = "\uFFFC"; // stands for the next chip while the markdown is parsed

/**
 * Reads the caller's values for the renderer, once and into plain values, before it
 * draws: a field that is not a string, number or boolean reads as absent, and so does
 * anything but an array where a list belongs (the renderer draws what it can). Refused,
 * with the field's path: a revoked Proxy anywhere (`code`) and a list of more than
 * `MAX_LIST_ITEMS` items (too_large, before any item is read).
 */
function reader(code) {
  const check = (value, path) => {
    if (typeCode(value) === TYPE_REVOKED) throw codedError(code, path, "expected a value, got revoked Proxy");
    return value;
  };
  const field = (holder, name, path) => check(fieldOf(holder, name), `${path}.${name}`);
  // string, number or boolean
  const scalar = (value) => (typeCode(value) <= TYPE_BOOLEAN ? value : undefined);
  return {
    check,
    field,
    /** A string, number or boolean field. */
    scalar: (holder, name, path) => scalar(field(holder, name, path)),
    /** A list field: `item(value, path)` of each item. */
    list(holder, name, path, item) {
      const at = `${path}.${name}`;
      const items = listItems(field(holder, name, path), MAX_LIST_ITEMS);
      if (typeof items === "number" && items >= 0) {
        throw tooManyItems(at, items);
      }
      if (!Array.isArray(items)) return [];
      return items.map((value, i) => item(check(value, `${at}[${i}]`), `${at}[${i}]`));
    },
    /** A list field of strings, numbers or booleans. */
    scalars(holder, name, path) {
      return this.list(holder, name, path, scalar);
    },
  };
}

/**
 * What the renderer draws from: the report's segments, the first quote of each cited
 * source, by its position (its span in the source's text, or, unverified, its text as stated), the
 * evidence sentences of each chip's citations (`chipEvidence`), and the sources of
 * `options` (null for a falsy one).
 */
function readArguments(report, options) {
  const input = reader("invalid_input");
  const option = reader("invalid_option");
  input.check(report, "report");
  option.check(options, "options");
  const segments = input.list(report, "segments", "report", (value, path) => {
    const segment = { refs: input.scalars(value, "refs", path), sourcePositions: input.scalars(value, "sourcePositions", path) };
    for (const name of ["type", "text", "label", "sourceIndex", "title", "url", "valid"]) {
      segment[name] = input.scalar(value, name, path);
    }
    return segment;
  });
  const quotes = new Map();
  const cited = [];
  input.list(report, "citations", "report", (value, path) => {
    const position = input.scalar(value, "sourcePosition", path);
    const sentence = input.scalar(input.field(value, "evidence", path), "text", `${path}.evidence`);
    cited.push({
      marker: input.scalar(value, "marker", path),
      resolved: position != null,
      evidence: typeof sentence === "string" ? sentence : null,
    });
    const quote = input.field(value, "quote", path);
    const span = input.field(quote, "span", `${path}.quote`);
    if (position == null || quotes.has(position)) return;
    if (span) {
      const at = `${path}.quote.span`;
      quotes.set(position, { start: input.scalar(span, "start", at), end: input.scalar(span, "end", at) });
    } else if (input.scalar(quote, "match", `${path}.quote`) === "unverified") {
      // No source text to locate it in: the card shows the quote as the provider states it.
      const stated = input.scalar(value, "quoteText", path);
      if (typeof stated === "string") quotes.set(position, { stated });
    }
  });
  const sources = option.list(options, "sources", "options", (value, path) => {
    if (!value) return null;
    const source = {};
    for (const name of DISPLAYED) {
      // Under the first of its names present (`doc_title`, `page_content`, …).
      for (const alias of SOURCE_NAMES[name]) {
        source[name] = option.scalar(value, alias, path);
        if (source[name] !== undefined && source[name] !== null) break;
      }
    }
    return source;
  });
  const markers = input.list(report, "markers", "report", () => null).length;
  return { segments, quotes, evidence: chipEvidence(segments, cited, markers), sources };
}

/**
 * For each chip (cite segment, in order), the evidence sentence of each card (ref, in
 * order). A report's chips are its markers in order: all of them under the `flag`
 * policy (as many chips as markers), else those with a ref that resolved. A chip's
 * cards are its marker's citations in order: all of them when it shows every ref, else
 * the resolved ones (renumbered or not). A stream's `{ segments }` carry no citations.
 */
function chipEvidence(segments, cited, markers) {
  const chips = segments.filter((s) => s.type === "cite");
  const byMarker = [];
  for (const c of cited) if (typeof c.marker === "number") (byMarker[c.marker] ??= []).push(c);
  const shown = byMarker.filter((list) => list && (chips.length === markers || list.some((c) => c.resolved)));
  return chips.map((chip, j) => {
    const list = shown[j] ?? [];
    const cards = chip.refs.length === list.length ? list : list.filter((c) => c.resolved);
    return cards.map((c) => c.evidence);
  });
}

/** `url` normalised when it is an http(s) URL, otherwise null. */
function safeUrl(url) {
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

function hostname(href) {
  try {
    return new URL(href).hostname.replace(/^www\./, "");
  } catch {
    return null;
  }
}

/**
 * The sources a chip names, for its card: title, safe link, the quote (located in the
 * source's text, `quoteChecked`, or as stated when unverified) and the evidence sentence
 * of the chip's citation of it. Each ref's source is the one at its position in
 * `sources` (`segment.sourcePositions`), the one validation resolved it to, whatever its
 * label; `quotes`: from `readArguments`; `evidence`: this chip's, one per ref.
 */
function chipDetails(segment, sources, quotes, evidence = []) {
  const refs = segment.refs.length ? segment.refs : [String(segment.sourceIndex ?? "")];
  const positions = segment.sourcePositions.map((p) => (Number.isInteger(p) && p >= 0 ? p : null));
  // The segment's own title and URL are those of its first retrieved source.
  const first = positions.find((p) => p !== null);
  const cards = refs.map((label, k) => {
    const position = positions[k] ?? null;
    const source = position === null ? null : sources[position];
    const isFirst = position !== null && position === first;
    const href = safeUrl(source?.url ?? (isFirst ? segment.url : null));
    const cited = quotes.get(position);
    const text = source?.text;
    const located = cited?.stated == null && typeof text === "string";
    const quote = cited ? (located ? text.slice(cited.start, cited.end) : cited.stated ?? null) : null;
    return {
      label: String(label),
      found: position !== null,
      title: String(source?.title ?? (isFirst ? segment.title ?? "" : "")),
      href,
      host: href ? hostname(href) : null,
      quote,
      // Whether the quote was found in the source's text (else it is as stated).
      quoteChecked: quote != null && located,
      evidence: evidence[k] ?? null,
    };
  });
  const missing = cards.filter((c) => !c.found).map((c) => c.label);
  return {
    label: String(segment.label ?? ""),
    badge: badgeOf(refs.map(String)),
    valid: segment.valid !== false,
    reason: segment.valid === false
      ? missing.length
        ? `Cites ${missing.map((l) => `[${l}]`).join(", ")}, which ${missing.length > 1 ? "were" : "was"} not among the retrieved sources.`
        : "This citation did not pass validation."
      : null,
    sources: cards,
  };
}

/**
 * What a chip shows: its labels as a reader writes a list of them, "1", "1, 2", "1, 2, 3";
 * a longer group its first two and how many more, "1, 2 +3 more" (the card pages through
 * them all).
 */
function badgeOf(labels) {
  if (labels.length <= 3) return labels.join(", ");
  return `${labels[0]}, ${labels[1]} +${labels.length - 2} more`;
}

/**
 * The chip of each `cite` segment of a report (or of `{ segments }` from a stream), in
 * order: what `citationTree` puts in its chip nodes, for renderers that place the chips
 * themselves (citeproof/remark).
 */
export function citationChips(report, options) {
  const { segments, quotes, evidence, sources } = readArguments(report, options);
  return segments.filter((s) => s.type === "cite").map((segment, j) => chipDetails(segment, sources, quotes, evidence[j]));
}

function inline(text, chips) {
  const out = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ type: "text", text: plain });
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && /[!-/:-@[-`{-~]/.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === CHIP) {
      flush();
      out.push({ type: "chip", chip: chips.shift() });
      i += 1;
      continue;
    }
    if (c === "\n") {
      flush();
      out.push({ type: "break" });
      i += 1;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))[0];
      const close = text.indexOf(run, i + run.length);
      if (close > 0 && !text.slice(i + run.length, close).includes(CHIP)) {
        flush();
        out.push({ type: "code", text: text.slice(i + run.length, close) });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if ((c === "*" && text[i + 1] === "*") || (c === "_" && text[i + 1] === "_")) {
      const close = text.indexOf(c + c, i + 2);
      if (close > i + 2) {
        flush();
        out.push({ type: "strong", children: inline(text.slice(i + 2, close), chips) });
        i = close + 2;
        continue;
      }
    }
    if (c === "*" && text[i + 1] !== " " && text[i + 1] !== "*") {
      const close = text.indexOf("*", i + 1);
      if (close > i + 1 && text[close - 1] !== " ") {
        flush();
        out.push({ type: "em", children: inline(text.slice(i + 1, close), chips) });
        i = close + 1;
        continue;
      }
    }
    if (c === "[") {
      const link = /^\[([^\]\n]*)\]\(([^)\s\uFFFC]*)(?:\s+"[^"\n]*")?\)/.exec(text.slice(i));
      if (link) {
        flush();
        const children = inline(link[1], chips);
        const href = safeUrl(link[2]);
        out.push(href ? { type: "link", href, children } : { type: "span", children });
        i += link[0].length;
        continue;
      }
    }
    if ((c === "h" || c === "H") && /^https?:\/\//i.test(text.slice(i, i + 8)) && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? "")) {
      const raw = /^[^\s<]+/.exec(text.slice(i))[0].replace(/[.,;:!?)\]'"]+$/, "").split(CHIP)[0];
      const href = safeUrl(raw);
      if (href) {
        flush();
        out.push({ type: "link", href, children: [{ type: "text", text: raw }] });
        i += raw.length;
        continue;
      }
    }
    plain += c;
    i += 1;
  }
  flush();
  return out;
}

function blocks(lines, chips) {
  const out = [];
  let i = 0;
  const isBlank = (line) => !line.trim();
  const listItem = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const startsBlock = (line) =>
    /^\s{0,3}(```|~~~|#{1,6}\s|>)/.test(line) || listItem.test(line);
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !new RegExp(`^\\s{0,3}${fence[1][0]}{${fence[1].length},}\\s*$`).test(lines[i])) body.push(lines[i++]);
      i += 1;
      // A chip cannot sit in code (markers in code are not markers); drop stray ones.
      const text = body.join("\n");
      for (const _ of text.matchAll(new RegExp(CHIP, "g"))) chips.shift();
      out.push({ type: "code", lang: fence[2] || null, text: text.replaceAll(CHIP, "") });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push({ type: "heading", level: heading[1].length, children: inline(heading[2], chips) });
      i += 1;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s{0,3}>\s?/, ""));
      out.push({ type: "quote", children: blocks(quoted, chips) });
      continue;
    }
    const item = listItem.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]);
      const items = [];
      while (i < lines.length) {
        const next = listItem.exec(lines[i]);
        if (next && /\d/.test(next[1]) === ordered) {
          items.push([next[2]]);
          i += 1;
        } else if (items.length && !isBlank(lines[i]) && /^\s+/.test(lines[i]) && !startsBlock(lines[i])) {
          items.at(-1).push(lines[i].trim());
          i += 1;
        } else break;
      }
      out.push({ type: "list", ordered, items: items.map((parts) => inline(parts.join("\n"), chips)) });
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]))) para.push(lines[i++]);
    out.push({ type: "paragraph", children: inline(para.join("\n"), chips) });
  }
  return out;
}

/**
 * The render tree of a report (or of `{ segments }` from a stream): blocks of
 * paragraphs, headings, lists, quotes and code, their inline text, code, emphasis, safe
 * links and chips. `options.sources` adds titles, links and quotes to the chips' cards;
 * the report's citations add their evidence sentences.
 * Lists hold at most `MAX_LIST_ITEMS` items.
 */
export function citationTree(report, options) {
  const { segments, quotes, evidence, sources } = readArguments(report, options);
  const chips = [];
  let text = "";
  for (const segment of segments) {
    if (segment.type === "cite") {
      chips.push(chipDetails(segment, sources, quotes, evidence[chips.length]));
      text += CHIP;
    } else {
      text += String(segment.text ?? "").replaceAll(CHIP, "\uFFFD");
    }
  }
  return blocks(text.split(/\r?\n/), chips);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function inlineHtml(nodes) {
  return nodes.map((node) => {
    switch (node.type) {
      case "text": return escapeHtml(node.text);
      case "break": return "<br>";
      case "code": return `<code>${escapeHtml(node.text)}</code>`;
      case "strong": return `<strong>${inlineHtml(node.children)}</strong>`;
      case "em": return `<em>${inlineHtml(node.children)}</em>`;
      case "span": return inlineHtml(node.children);
      case "link": return `<a href="${escapeHtml(node.href)}" rel="noopener noreferrer nofollow">${inlineHtml(node.children)}</a>`;
      case "chip": return chipHtml(node.chip);
      default: return "";
    }
  }).join("");
}

function chipHtml(chip) {
  const first = chip.sources[0];
  const title = chip.valid
    ? chip.sources.map((s) => s.title || s.host || `Source ${s.label}`).join(" · ")
    : chip.reason;
  const cls = `citeproof-chip${chip.valid ? "" : " citeproof-chip--invalid"}`;
  const badge = escapeHtml(chip.badge);
  const inner = first?.href && chip.valid
    ? `<a href="${escapeHtml(first.href)}" rel="noopener noreferrer nofollow">${badge}</a>`
    : badge;
  return `<sup class="${cls}" title="${escapeHtml(title)}">${inner}</sup>`;
}

function blockHtml(nodes) {
  return nodes.map((node) => {
    switch (node.type) {
      case "paragraph": return `<p>${inlineHtml(node.children)}</p>`;
      case "heading": return `<h${node.level}>${inlineHtml(node.children)}</h${node.level}>`;
      case "quote": return `<blockquote>${blockHtml(node.children)}</blockquote>`;
      case "code": return `<pre><code>${escapeHtml(node.text)}</code></pre>`;
      case "list": {
        const tag = node.ordered ? "ol" : "ul";
        return `<${tag}>${node.items.map((item) => `<li>${inlineHtml(item)}</li>`).join("")}</${tag}>`;
      }
      default: return "";
    }
  }).join("\n");
}

/** The report's cleaned answer as safe HTML with citation chips (see `citationTree`). */
export function renderHtml(report, options) {
  return `<div class="citeproof-answer">${blockHtml(citationTree(report, options))}</div>`;
}
