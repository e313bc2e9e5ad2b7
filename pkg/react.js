// citeproof/react: <CitedAnswer>, <CitationChip> and useCitationStream.
//
// Rendering goes through `citationTree` (the same tree `renderHtml` writes out), mapped
// to React elements: text is only ever passed as children (React escapes it), and a
// link exists only where the tree has a checked http(s) `href`. No innerHTML anywhere.
import { createElement as h, Fragment, useEffect, useId, useMemo, useRef, useState } from "react";
import { CitationStream, citationTree, validate } from "citeproof";

const cx = (...names) => names.filter(Boolean).join(" ");

/**
 * What a valid chip's card says was checked for the source shown: that the citation
 * names a retrieved source, and whether its quote was found in the source's text.
 */
function checkedOf(source) {
  if (!source?.quote) return "Checked: names a retrieved source";
  return source.quoteChecked
    ? "Checked: names a retrieved source; the quote is in its text"
    : "Checked: names a retrieved source; quote as stated (no source text to check it against)";
}

/** A chip's card: title, hostname link, the located quote, validity; pages through a group. */
function ChipCard({ chip, id, page, setPage }) {
  const source = chip.sources[page] ?? chip.sources[0];
  const count = chip.sources.length;
  return h(
    "div",
    { id, role: "dialog", "aria-label": `Source ${source?.label ?? chip.badge}`, className: "citeproof-card" },
    count > 1 &&
      h(
        "div",
        { className: "citeproof-card__pager" },
        h("button", { type: "button", "aria-label": "Previous source", onClick: () => setPage((page + count - 1) % count) }, "‹"),
        h("span", null, `${page + 1}/${count}`),
        h("button", { type: "button", "aria-label": "Next source", onClick: () => setPage((page + 1) % count) }, "›"),
      ),
    h("div", { className: "citeproof-card__title" }, source?.title || `Source ${source?.label ?? ""}`),
    source?.href &&
      h("a", { className: "citeproof-card__link", href: source.href, target: "_blank", rel: "noopener noreferrer nofollow" }, source.host ?? source.href),
    source?.quote && h("blockquote", { className: "citeproof-card__quote" }, source.quote),
    h(
      "div",
      { className: cx("citeproof-card__status", !chip.valid && "citeproof-card__status--invalid") },
      chip.valid ? checkedOf(source) : chip.reason ?? "Not verified",
    ),
  );
}

/**
 * A citation chip: a small badge after the claim; hover, focus or click opens its card.
 * Escape closes it. Invalid chips get `citeproof-chip--invalid` and say why.
 */
export function CitationChip({ chip, className }) {
  const [open, setOpen] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [page, setPage] = useState(0);
  const id = useId();
  const show = open || pinned;
  return h(
    "span",
    {
      className: cx("citeproof-chip", !chip.valid && "citeproof-chip--invalid", className),
      onMouseEnter: () => setOpen(true),
      onMouseLeave: () => setOpen(false),
      onFocus: () => setOpen(true),
      onBlur: (e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) {
          setOpen(false);
          setPinned(false);
        }
      },
      onKeyDown: (e) => {
        if (e.key === "Escape") {
          setOpen(false);
          setPinned(false);
        }
      },
    },
    h(
      "button",
      {
        type: "button",
        className: "citeproof-chip__badge",
        "aria-expanded": show,
        "aria-controls": show ? id : undefined,
        "aria-label": chip.valid ? `Citation ${chip.badge}` : `Citation ${chip.badge} (not verified)`,
        "data-valid": String(chip.valid),
        onClick: () => setPinned(!pinned),
      },
      chip.badge,
    ),
    show && h(ChipCard, { chip, id, page, setPage }),
  );
}

function Inline({ nodes }) {
  return nodes.map((node, i) => {
    switch (node.type) {
      case "text": return h(Fragment, { key: i }, node.text);
      case "break": return h("br", { key: i });
      case "code": return h("code", { key: i }, node.text);
      case "strong": return h("strong", { key: i }, h(Inline, { nodes: node.children }));
      case "em": return h("em", { key: i }, h(Inline, { nodes: node.children }));
      case "span": return h(Fragment, { key: i }, h(Inline, { nodes: node.children }));
      case "link":
        return h("a", { key: i, href: node.href, target: "_blank", rel: "noopener noreferrer nofollow" }, h(Inline, { nodes: node.children }));
      case "chip": return h(CitationChip, { key: i, chip: node.chip });
      default: return null;
    }
  });
}

function Blocks({ nodes }) {
  return nodes.map((node, i) => {
    switch (node.type) {
      case "paragraph": return h("p", { key: i }, h(Inline, { nodes: node.children }));
      case "heading": return h(`h${Math.min(Math.max(node.level, 1), 6)}`, { key: i }, h(Inline, { nodes: node.children }));
      case "quote": return h("blockquote", { key: i }, h(Blocks, { nodes: node.children }));
      case "code": return h("pre", { key: i }, h("code", null, node.text));
      case "list":
        return h(node.ordered ? "ol" : "ul", { key: i }, node.items.map((item, j) => h("li", { key: j }, h(Inline, { nodes: item }))));
      default: return null;
    }
  });
}

/**
 * A markdown answer with citation chips. Give it a `report` (from `validate` or a
 * stream), or `segments` (from `useCitationStream`), or an `answer` with its `sources`
 * to validate here. `sources` adds titles, links and quotes to the cards.
 */
export function CitedAnswer({ report, segments, answer, sources, options, className }) {
  const validated = useMemo(
    // "flag" unless told otherwise: a UI that checks citations shows what it flags.
    () => (report || segments || answer == null ? null : validate({ answer, sources: sources ?? [] }, { policy: "flag", ...options })),
    [report, segments, answer, sources, options],
  );
  const tree = useMemo(
    () => citationTree(report ?? validated ?? { segments: segments ?? [] }, { sources }),
    [report, validated, segments, sources],
  );
  return h("div", { className: cx("citeproof-answer", className) }, h(Blocks, { nodes: tree }));
}

/** Text deltas from a Response, a ReadableStream (bytes or strings) or an async iterable. */
async function* textDeltas(source) {
  const body = typeof Response !== "undefined" && source instanceof Response ? source.body : source;
  if (body && typeof body.getReader === "function") {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield typeof value === "string" ? value : decoder.decode(value, { stream: true });
      }
      const rest = decoder.decode();
      if (rest) yield rest;
    } finally {
      reader.releaseLock();
    }
    return;
  }
  if (body && typeof body[Symbol.asyncIterator] === "function") {
    for await (const delta of body) yield String(delta);
    return;
  }
  throw Object.assign(new Error("source: expected a Response, a ReadableStream or an async iterable of text"), {
    code: "invalid_input",
  });
}

/**
 * Each source's one reading: a Response, a ReadableStream or an async generator can be
 * read once, but React runs an effect again for the same source (StrictMode mounts,
 * cleans up and mounts again; a remount does the same). The first effect starts
 * reading the source to its end; every effect run replays what was read and follows
 * the rest. Kept while the source object lives.
 */
const readings = new WeakMap();

function readingOf(source) {
  let reading = readings.get(source);
  if (!reading) {
    reading = { deltas: [], done: false, error: null, waiting: [] };
    readings.set(source, reading);
    const wake = () => reading.waiting.splice(0).forEach((resolve) => resolve());
    (async () => {
      try {
        for await (const delta of textDeltas(source)) {
          reading.deltas.push(delta);
          wake();
        }
      } catch (error) {
        reading.error = error;
      }
      reading.done = true;
      wake();
    })();
  }
  return reading;
}

/** The deltas of `reading` from the first: those read so far, then each as it comes. */
async function* replay(reading) {
  for (let next = 0; ; ) {
    while (next < reading.deltas.length) yield reading.deltas[next++];
    if (reading.error) throw reading.error;
    if (reading.done) return;
    await new Promise((resolve) => reading.waiting.push(resolve));
  }
}

/** Cuts released text into segments at the chips' spans. */
function segmentsOf(text, chips) {
  const segments = [];
  let at = 0;
  for (const chip of chips) {
    if (chip.span.start > at) segments.push({ type: "text", text: text.slice(at, chip.span.start) });
    segments.push(chip.segment);
    at = chip.span.end;
  }
  if (text.length > at) segments.push({ type: "text", text: text.slice(at) });
  return segments;
}

/**
 * A stream chunk applied to the hook's state: a `revise` event replaces the text from its
 * start and voids the chips and findings from there on; then chips, findings and text are
 * appended.
 */
function applyChunk(state, text, events) {
  let { text: shown, chips, findings } = state;
  for (const e of events) {
    if (e.type === "revise") {
      shown = shown.slice(0, e.span.start) + e.text;
      chips = chips.filter((c) => c.span.end <= e.span.start);
      findings = findings.filter((f) => !f.span || f.span.start < e.answerStart);
    } else if (e.type === "cite") chips = [...chips, e];
    else findings = [...findings, e];
  }
  return { ...state, text: shown + text, chips, findings };
}

/**
 * Streams a plain-text answer through a CitationStream: `{ text, segments, chips,
 * findings, report, done, error }`, updated per delta. `segments` never holds half a
 * marker; once done they are the report's. `input` (sources, citations) and `options`
 * are read when `source` changes. A source is read once, to its end, however often the
 * component mounts (StrictMode, remounts); to stop a response, abort its fetch.
 */
export function useCitationStream(source, { input, options } = {}) {
  const [state, setState] = useState({ text: "", chips: [], findings: [], report: null, done: false, error: null });
  const config = useRef({ input, options });
  config.current = { input, options };
  useEffect(() => {
    setState({ text: "", chips: [], findings: [], report: null, done: !source, error: null });
    if (!source) return undefined;
    let cancelled = false;
    (async () => {
      let stream;
      try {
        stream = new CitationStream(config.current.input ?? {}, config.current.options);
        for await (const delta of replay(readingOf(source))) {
          if (cancelled) return;
          const { text, events } = stream.push(delta);
          if (!text && !events.length) continue;
          setState((s) => applyChunk(s, text, events));
        }
        if (cancelled) return;
        const end = stream.finish();
        setState((s) => ({ ...applyChunk(s, end.text, end.revise ? [end.revise] : []), report: end.report, done: true }));
      } catch (error) {
        if (!cancelled) setState((s) => ({ ...s, error, done: true }));
      } finally {
        stream?.free(); // its memory back now, not when the collector gets to it
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [source]);
  const segments = useMemo(
    () => (state.report ? state.report.segments : segmentsOf(state.text, state.chips)),
    [state.report, state.text, state.chips],
  );
  return { ...state, segments };
}
