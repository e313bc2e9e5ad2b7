// citeproof/remark: a remark plugin that puts citation chips into the markdown tree of
// any unified pipeline (react-markdown, Streamdown, remark-rehype + rehype-stringify).
//
// The markdown a pipeline parses is the cleaned answer (`report.cleanedAnswer`, or the
// text a stream released): every chip of the report sits there at an exact UTF-16 range,
// the marker's text as it stands. mdast positions are UTF-16 offsets into the same
// string, so each chip replaces exactly that range of the text node (or the link node)
// holding it. Nothing is re-parsed and no marker is looked for again: the report decides.
import { citationChips, validate } from "citeproof";

/** The mdast node type of a chip; it becomes a hast `<sup>` (see `chipNode`). */
export const CHIP_NODE = "citeproofChip";

// Nodes whose text is not prose: a marker never stands in them (citeproof reads markdown
// as CommonMark does), and the plugin never changes them.
const LEFT_ALONE = new Set([
  "code",
  "inlineCode",
  "html",
  "definition",
  "footnoteDefinition",
  "footnoteReference",
  "image",
  "imageReference",
  "math",
  "inlineMath",
  "yaml",
  "toml",
]);
// Nodes whose text a chip may replace whole (a marker written as a link, `[1](url)`),
// but never enters.
const WHOLE_ONLY = new Set(["link", "linkReference"]);

function codedError(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * The plugin: `[remarkCiteproof, { report, sources, options }]` in `remarkPlugins`.
 * With a `report` (from `validate`, a stream's `finish`, or `{ segments }` from
 * `useCitationStream`), the markdown must be its cleaned answer; with only `sources`,
 * the markdown is the answer as written and is validated here (`options`, policy
 * `"flag"` unless told otherwise). Chips become `<sup>` elements: render them with
 * `components={{ sup: CitationChip }}` (citeproof/react), or read `chipOf(node)`.
 */
export default function remarkCiteproof(settings) {
  readSettings(settings); // a bad setting fails where the pipeline is put together
  return (tree, file) => {
    if (file?.value == null) {
      // unified's processSync("") leaves an empty file without a value: nothing to place.
      if (tree?.children?.length === 0) return;
      throw codedError("invalid_input", "remarkCiteproof: no markdown in the file: give run() the file the tree was parsed from");
    }
    const markdown = String(file.value);
    // Read again on each run: a renderer that keeps its processor while the settings'
    // report grows (Streamdown with useRemarkPlugins) places the chips of the report now.
    const plan = planOf(readSettings(settings), markdown);
    const placed = new Map();
    if (plan.edits.length) placeEdits(tree, plan.edits, markdown, placed);
    // For rehypeCiteproof, after a step that rebuilds the tree (see there).
    if (file?.data) file.data.citeproofChips = placed;
  };
}

/**
 * A rehype plugin for pipelines that rebuild the HTML tree after remark-rehype, as
 * rehype-raw does (Streamdown runs it, then rehype-sanitize): put it last in
 * `rehypePlugins` and it gives each chip's `<sup>` its chip again. A chip is found by
 * where it starts in the markdown, which the rebuilt tree keeps; raw HTML in the answer
 * cannot make one (a chip's place holds its marker's text, and the chips live in the
 * file's data, not in anything the markdown says).
 */
export function rehypeCiteproof() {
  return (tree, file) => {
    const placed = file?.data?.citeproofChips;
    if (!placed?.size) return;
    const visit = (node) => {
      if (node.type === "element" && node.tagName === "sup") {
        const chip = placed.get(node.position?.start?.offset);
        if (chip) {
          node.data = { ...node.data, citeproofChip: chip };
          return;
        }
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
  };
}

/** The plugin's settings, checked: `{ report, sources, options }`. */
function readSettings(settings) {
  if (settings == null) throw codedError("invalid_option", "remarkCiteproof: expected { report } or { sources }");
  if (typeof settings !== "object") throw codedError("invalid_option", "remarkCiteproof: settings must be an object");
  const { report, sources, options } = settings;
  if (report != null && (typeof report !== "object" || !Array.isArray(report.segments))) {
    throw codedError("invalid_option", "remarkCiteproof: report must be a report or { segments } (from validate, a stream or useCitationStream)");
  }
  if (sources != null && !Array.isArray(sources)) throw codedError("invalid_option", "remarkCiteproof: sources must be an array");
  if (options != null && typeof options !== "object") throw codedError("invalid_option", "remarkCiteproof: options must be an object");
  if (report == null && sources == null) {
    throw codedError("invalid_option", "remarkCiteproof: give a report (or { segments }) or the sources to validate the markdown against");
  }
  return { report: report ?? null, sources: sources ?? undefined, options: options ?? {} };
}

/**
 * The edits to make in `markdown`: `{ start, end, chip }` in UTF-16 units, in order;
 * `chip` null removes the range (a marker the policy removes).
 */
function planOf({ report, sources, options }, markdown) {
  if (report) return reportPlan(report, sources, markdown);
  return validatedPlan(markdown, sources, options);
}

/** Chips at the cite segments of a report whose cleaned answer `markdown` is (or a block of). */
function reportPlan(report, sources, markdown) {
  const chips = citationChips(report, { sources });
  const spans = [];
  let text = "";
  for (const segment of report.segments) {
    if (segment?.type === "cite") {
      const label = String(segment.label ?? "");
      spans.push([text.length, text.length + label.length]);
      text += label;
    } else {
      text += String(segment?.text ?? "");
    }
  }
  const { base, length } = locate(markdown, text);
  const edits = [];
  spans.forEach(([start, end], i) => {
    if (start >= base && end <= base + length) edits.push({ start: start - base, end: end - base, chip: chips[i] });
  });
  return { edits };
}

/**
 * Where `markdown` sits in the whole `text`: all of it, or one block of it (Streamdown
 * renders each block of an answer through the plugins on its own), or, for the block
 * being written, its longest start found in `text` (a renderer may close a construct
 * that is still open, as Streamdown's remend does). `{ base, length }`: the markdown's
 * first `length` units are `text`'s from `base`. Throws when not even its first
 * character is there: the markdown is not the report's.
 */
function locate(markdown, text) {
  if (markdown === text) return { base: 0, length: text.length };
  const whole = text.indexOf(markdown);
  if (whole >= 0) return { base: whole, length: markdown.length };
  // The longest start of `markdown` in `text`: if a start of length k is there, so is
  // every shorter one, so a binary search finds it.
  let low = 0;
  let high = markdown.length;
  let base = -1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const at = text.indexOf(markdown.slice(0, mid));
    if (at >= 0) {
      low = mid;
      base = at;
    } else {
      high = mid - 1;
    }
  }
  if (low === 0 && markdown.trim()) {
    throw codedError(
      "invalid_input",
      "remarkCiteproof: the markdown is not the report's cleaned answer; render report.cleanedAnswer (or the text the stream released)",
    );
  }
  return { base: Math.max(base, 0), length: low };
}

/**
 * Validates `markdown` (the answer as written) against `sources` and plans its chips at
 * the markers' spans: kept markers become chips, markers the policy removes are removed
 * with the space the cleaned answer drops with them. Checked: the markdown with the
 * edits made is the report's cleaned answer, else `internal_error`.
 */
function validatedPlan(markdown, sources, options) {
  const report = validate({ answer: markdown, sources }, { policy: "flag", ...options, offsets: "utf16" });
  const chips = citationChips(report, { sources });
  const resolved = new Set();
  for (const c of report.citations) if (typeof c.marker === "number" && c.sourcePosition != null) resolved.add(c.marker);
  const flag = (options.policy ?? "flag") === "flag";
  const edits = [];
  let next = 0;
  let last = 0; // end of what the previous edit covered
  report.markers.forEach((marker, i) => {
    const { start, end } = marker.span;
    if (flag || resolved.has(i)) {
      edits.push({ start, end, chip: chips[next++] });
      last = end;
      return;
    }
    // As the cleaned answer drops it: with the space before it, or, at the start of a
    // line with none before, the space after it.
    let from = start;
    let to = end;
    if (start > last && markdown[start - 1] === " ") from = start - 1;
    else if ((start === 0 || markdown[start - 1] === "\n") && markdown[end] === " ") to = end + 1;
    edits.push({ start: from, end: to, chip: null });
    last = to;
  });
  let cleaned = "";
  let at = 0;
  for (const edit of edits) {
    cleaned += markdown.slice(at, edit.start) + (edit.chip ? edit.chip.label : "");
    at = edit.end;
  }
  cleaned += markdown.slice(at);
  if (next !== chips.length || cleaned !== report.cleanedAnswer) {
    throw codedError("internal_error", "remarkCiteproof: the chips found do not make the report's cleaned answer");
  }
  return { edits };
}

/** The mdast node of a chip: a `<sup class="citeproof-chip">` showing its badge. */
function chipNode(chip, position) {
  return {
    type: CHIP_NODE,
    chip,
    position,
    data: {
      hName: "sup",
      hProperties: { className: ["citeproof-chip"] },
      // The chip rides on its text node: sanitizers (rehype-sanitize, as Streamdown
      // runs it) rebuild elements and their properties but keep a node's `data`.
      hChildren: [{ type: "text", value: chip.badge, data: { citeproofChip: chip } }],
    },
  };
}

/**
 * The chip a hast `<sup>` made by the plugin carries (react-markdown and Streamdown
 * give components the hast `node`), or null for any other element. It rides on the
 * `<sup>`'s text (remark-rehype keeps a node's `data` there), or, in a tree rebuilt
 * since, on the `<sup>` itself (`rehypeCiteproof`).
 */
export function chipOf(node) {
  const own = node?.data?.citeproofChip;
  if (own && typeof own === "object") return own;
  for (const child of node?.children ?? []) {
    const chip = child?.data?.citeproofChip;
    if (chip && typeof chip === "object") return chip;
  }
  return null;
}

/** Makes the `edits` (sorted, in `markdown`'s UTF-16 units) in the tree parsed from it. */
function placeEdits(tree, edits, markdown, placed) {
  const pointAt = pointsIn(markdown);
  const starts = edits.map((e) => e.start);
  /** The edits inside [from, to): a range of indices into `edits`. */
  const inside = (from, to) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    let last = lo;
    while (last < edits.length && edits[last].end <= to) last += 1;
    return [lo, last];
  };
  const offsetsOf = (node) => {
    const from = node?.position?.start?.offset;
    const to = node?.position?.end?.offset;
    return typeof from === "number" && typeof to === "number" ? [from, to] : null;
  };
  const visit = (parent) => {
    if (!Array.isArray(parent.children)) return;
    const out = [];
    let changed = false;
    const children = parent.children;
    for (let i = 0; i < children.length; i += 1) {
      const child = children[i];
      if (!offsetsOf(child)) {
        // A run of nodes without positions: what a transform after parsing made (GFM's
        // autolink literals split the text around a bare URL). Its source lies between
        // its positioned neighbours (or the parent's bounds).
        let j = i;
        while (j < children.length && !offsetsOf(children[j])) j += 1;
        const run = children.slice(i, j);
        const parentAt = offsetsOf(parent);
        const runFrom = offsetsOf(children[i - 1])?.[1] ?? parentAt?.[0];
        const runTo = offsetsOf(children[j])?.[0] ?? parentAt?.[1];
        const [first, last] = typeof runFrom === "number" && typeof runTo === "number" ? inside(runFrom, runTo) : [0, 0];
        if (first < last) {
          out.push(...splitRun(run, runFrom, runTo, edits.slice(first, last), markdown, pointAt, placed));
          changed = true;
        } else {
          run.forEach(visit);
          out.push(...run);
        }
        i = j - 1;
        continue;
      }
      const [from, to] = offsetsOf(child);
      const [first, last] = inside(from, to);
      if (first === last || LEFT_ALONE.has(child.type)) {
        out.push(child);
      } else if (WHOLE_ONLY.has(child.type)) {
        const edit = edits[first];
        if (last - first === 1 && edit.start === from && edit.end === to) {
          if (edit.chip) {
            out.push(chipNode(edit.chip, child.position));
            placed.set(from, edit.chip);
          }
          changed = true;
        } else {
          out.push(child);
        }
      } else if (child.type === "text") {
        out.push(...splitText(child, edits.slice(first, last), markdown, pointAt, placed));
        changed = true;
      } else {
        visit(child);
        out.push(child);
      }
    }
    if (changed) parent.children = out;
  };
  visit(tree);
}

/**
 * A text node cut at `edits` (all inside it): text, chip, text, … . The node's value is
 * its source with escapes and character references decoded and line-start indentation
 * dropped, so each edit's source range is mapped to the value (`valueOffsets`) and
 * checked: the value there must read as the source does (the marker's own text, see
 * `nearest`); an edit that does not is left as text.
 */
function splitText(node, edits, markdown, pointAt, placed) {
  const from = node.position.start.offset;
  const source = markdown.slice(from, node.position.end.offset);
  const value = node.value;
  const map = valueOffsets(source, value);
  const cuts = [];
  let at = 0;
  for (const edit of edits) {
    const start = nearest(value, markdown.slice(edit.start, edit.end), map[edit.start - from], at);
    if (start < 0) continue;
    cuts.push({ start, edit });
    at = start + edit.end - edit.start;
  }
  return cutText(value, cuts, markdown, pointAt, placed);
}

/**
 * A run of sibling nodes without positions, whose source is `markdown` from `from` to
 * `to`, with `edits` made in its text nodes: the run's text (its nodes' text, in order)
 * is mapped to that source as one text node's is, and each edit lands in the text node
 * that holds its marker whole. Other nodes of the run stay as they are.
 */
function splitRun(run, from, to, edits, markdown, pointAt, placed) {
  const texts = run.map(textOf);
  const value = texts.join("");
  const map = valueOffsets(markdown.slice(from, to), value);
  const cuts = run.map(() => []);
  let at = 0;
  for (const edit of edits) {
    const start = nearest(value, markdown.slice(edit.start, edit.end), map[edit.start - from], at);
    if (start < 0) continue;
    const end = start + edit.end - edit.start;
    let offset = 0;
    for (const [k, node] of run.entries()) {
      if (node.type === "text" && start >= offset && end <= offset + texts[k].length) {
        cuts[k].push({ start: start - offset, edit });
        at = end;
        break;
      }
      offset += texts[k].length;
    }
  }
  return run.flatMap((node, k) => (cuts[k].length ? cutText(node.value, cuts[k], markdown, pointAt, placed) : [node]));
}

/** The text a node shows: its value, or its children's text. */
function textOf(node) {
  if (typeof node.value === "string") return node.value;
  return (node.children ?? []).map(textOf).join("");
}

/**
 * `value` cut at `cuts` (`{ start, edit }`, in order, each the edit's marker text at
 * `start` in `value`): text, chip, text, … (a removal leaves no chip).
 */
function cutText(value, cuts, markdown, pointAt, placed) {
  const parts = [];
  let at = 0;
  for (const { start, edit } of cuts) {
    if (start > at) parts.push(textPart(value.slice(at, start)));
    if (edit.chip) {
      parts.push(chipNode(edit.chip, { start: pointAt(edit.start), end: pointAt(edit.end) }));
      placed.set(edit.start, edit.chip);
    }
    at = start + edit.end - edit.start;
  }
  if (at < value.length) parts.push(textPart(value.slice(at)));
  return parts;
}

/**
 * Where `raw` (a marker's text, which a text node holds verbatim) starts in `value`: at
 * `hint` (the mapped offset) or, when a reference the mapping cannot size moved it, at
 * the occurrence nearest to it, not before `from`; -1 when there is none within a few
 * units (the edit is then left as text).
 */
function nearest(value, raw, hint, from) {
  if (hint >= from && value.startsWith(raw, hint)) return hint;
  const slack = 8;
  let best = -1;
  for (let at = value.indexOf(raw, Math.max(from, hint - slack)); at >= 0 && at <= hint + slack; at = value.indexOf(raw, at + 1)) {
    if (best < 0 || Math.abs(at - hint) < Math.abs(best - hint)) best = at;
  }
  return best;
}

function textPart(value) {
  return { type: "text", value };
}

/** `offset => { line, column, offset }` in `markdown` (1-based line and column, as unist). */
function pointsIn(markdown) {
  let lineStarts = null;
  return (offset) => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let i = markdown.indexOf("\n"); i >= 0; i = markdown.indexOf("\n", i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1, offset };
  };
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const REFERENCE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;

/**
 * For each offset of `source` (a text node's markdown), the offset of `value` (its
 * text) it corresponds to: a backslash escape reads as its character, a character
 * reference as what it decodes to, and whitespace the parser dropped (indentation at a
 * line start, spaces before a line end) as nothing.
 */
function valueOffsets(source, value) {
  const map = new Int32Array(source.length + 1);
  let i = 0;
  let j = 0;
  while (i < source.length) {
    map[i] = j;
    const c = source[i];
    if (c === value[j]) {
      i += 1;
      j += 1;
    } else if (c === "\\" && ESCAPABLE.test(source[i + 1] ?? "") && source[i + 1] === value[j]) {
      map[i + 1] = j;
      i += 2;
      j += 1;
    } else if (c === "&" && REFERENCE.test(source.slice(i, i + 40))) {
      const ref = REFERENCE.exec(source.slice(i, i + 40))[0];
      // A numeric reference's width is known; a named one is one or two code points
      // (`&ngE;` is two): as wide as the value runs before it meets the source again.
      let width = ref.startsWith("&#") ? String.fromCodePoint(decodeNumeric(ref)).length : value.codePointAt(j) > 0xffff ? 2 : 1;
      const after = source[i + ref.length];
      if (!ref.startsWith("&#") && after !== undefined && value[j + width] !== after) {
        const second = value.codePointAt(j + width);
        const more = second > 0xffff ? 2 : 1;
        if (value[j + width + more] === after) width += more;
      }
      for (let k = 0; k < ref.length; k += 1) map[i + k] = j;
      i += ref.length;
      j += Math.min(width, value.length - j);
    } else {
      i += 1; // dropped by the parser
    }
  }
  map[source.length] = Math.min(j, value.length);
  return map;
}

function decodeNumeric(ref) {
  const hex = ref[2] === "x" || ref[2] === "X";
  const code = Number.parseInt(ref.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? code : 0xfffd;
}
