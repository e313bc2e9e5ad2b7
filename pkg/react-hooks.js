// citeproof/react/hooks: the headless chip kit (useCitations, useChip, useCardPlacement)
// with the default <CitationChip>, useCitationStream, useCitedMessage and
// useRemarkPlugins. It needs React alone: an app that renders markdown with its own
// renderer (Streamdown, react-markdown) or none imports from here without installing
// react-markdown or remark-gfm, which citeproof/react's <CitedAnswer> needs
// (docs/architecture.md §9).
import { createElement as h, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { CitationStream, citationChips, citationTree, citeproofTransform } from "citeproof";
import remarkCiteproof, { chipOf } from "./remark.js";

const cx = (...names) => names.filter(Boolean).join(" ");

/**
 * What a valid chip's card says was checked for the source shown: that the citation
 * names a retrieved source, whether its quote was found in the source's text, or, with
 * no quote, that the sentence shown is the source's best match for the claim.
 */
function checkedOf(source) {
  if (!source?.quote) {
    return source?.evidence
      ? "Checked: names a retrieved source; above, its sentence that best matches the claim"
      : "Checked: names a retrieved source";
  }
  return source.quoteChecked
    ? "Checked: names a retrieved source; the quote is in its text"
    : "Checked: names a retrieved source; quote as stated (no source text to check it against)";
}

/**
 * A hook's options or config: `{}` for `undefined` or `null`; anything but an object is
 * an `invalid_option` Error naming the hook.
 */
function hookOptions(options, hook) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") {
    throw Object.assign(new Error(`${hook}: expected an options object, got ${typeof options}`), { code: "invalid_option" });
  }
  return options;
}

/**
 * The tree of a report (or a stream's segments) with its chips, and the cited sources
 * for a "Sources" list: only sources some chip names, each once, in the order first
 * cited, labelled as their chips are. `{ blocks, chips, sources }`; render `blocks`
 * yourself, or give `<CitedAnswer>` your components.
 */
export function useCitations(report, options) {
  const { sources } = hookOptions(options, "useCitations");
  const blocks = useMemo(() => citationTree(report ?? { segments: [] }, { sources }), [report, sources]);
  return useMemo(() => {
    const chips = [];
    const walk = (nodes) => {
      for (const node of nodes ?? []) {
        if (node.type === "chip") chips.push(node.chip);
        walk(node.children);
        for (const item of node.items ?? []) walk(item);
      }
    };
    walk(blocks);
    return { blocks, chips, sources: citedSources(chips) };
  }, [blocks]);
}

/**
 * The sources `chips` name and found, each once by label, in the order first cited: a
 * "Sources" list for chips from `citationChips` (`useCitations` gives it for a report).
 */
export function citedSources(chips) {
  const byLabel = new Map();
  for (const chip of chips) {
    for (const source of chip.sources) if (source.found && !byLabel.has(source.label)) byLabel.set(source.label, source);
  }
  return [...byLabel.values()];
}

/**
 * One chip's behaviour as props, for any chip component: `{ open, page, setPage, close,
 * rootProps, buttonProps, cardProps }`. Hover with a mouse or keyboard focus opens the
 * card; a click or a tap pins it open or closes it; Escape, or a tap or click outside,
 * closes it. Spread `rootProps` on the element around the button and the card.
 */
export function useChip(chip) {
  const [hovered, setHovered] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [page, setPage] = useState(0);
  const id = useId();
  const root = useRef(null);
  const open = hovered || pinned;
  const close = () => {
    setHovered(false);
    setPinned(false);
  };
  useEffect(() => {
    if (!open) return undefined;
    const away = (e) => root.current && !root.current.contains(e.target) && close();
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  const label = chip.valid ? `Citation ${chip.badge}` : `Citation ${chip.badge} (not verified)`;
  return {
    open,
    page,
    setPage,
    close,
    rootProps: {
      ref: root,
      // A touch has no hover: a tap is a click, which pins and unpins.
      onPointerEnter: (e) => e.pointerType === "mouse" && setHovered(true),
      onPointerLeave: (e) => e.pointerType === "mouse" && !pinned && setHovered(false),
      // Focus from the keyboard opens it; the focus a click or tap gives does not.
      onFocus: (e) => e.target.matches?.(":focus-visible") && setHovered(true),
      onBlur: (e) => !e.currentTarget.contains(e.relatedTarget) && close(),
      onKeyDown: (e) => e.key === "Escape" && close(),
    },
    buttonProps: {
      type: "button",
      "aria-expanded": open,
      "aria-controls": open ? id : undefined,
      "aria-label": label,
      "data-valid": String(chip.valid),
      // Pins a card that hover opened; closes a pinned one.
      onClick: () => (pinned ? close() : setPinned(true)),
    },
    cardProps: { id, role: "dialog", "aria-label": `Source ${chip.sources[page]?.label ?? chip.badge}` },
  };
}

/**
 * Keeps an open card (positioned under its chip) inside the viewport: shifted left when
 * it would cross the right edge, shown above the chip when there is no room below and
 * there is above. Returns the class to add (`"citeproof-card--above"` or "") and sets
 * the shift on the element's style.
 */
export function useCardPlacement(ref, open, margin = 8) {
  const [above, setAbove] = useState(false);
  useLayoutEffect(() => {
    const card = ref.current;
    if (!open || !card) return;
    card.style.translate = "";
    const box = card.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const overflow = box.right - (width - margin);
    if (overflow > 0) card.style.translate = `${-Math.min(overflow, box.left - margin)}px 0`;
    const height = document.documentElement.clientHeight;
    const chip = card.parentElement?.getBoundingClientRect();
    setAbove(box.bottom > height - margin && chip != null && chip.top - box.height - margin >= 0);
  }, [open, ref]);
  return above ? "citeproof-card--above" : "";
}

/**
 * The default card: title, hostname link, the quote (or, with none, the evidence
 * sentence), what was checked; pages through a group.
 */
function ChipCard({ chip, source, page, count, setPage, cardProps }) {
  const ref = useRef(null);
  const placement = useCardPlacement(ref, true);
  return h(
    "div",
    { ...cardProps, ref, className: cx("citeproof-card", placement) },
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
    source?.quote
      ? h("blockquote", { className: "citeproof-card__quote" }, source.quote)
      : source?.evidence && h("blockquote", { className: "citeproof-card__quote citeproof-card__evidence" }, source.evidence),
    h(
      "div",
      { className: cx("citeproof-card__status", !chip.valid && "citeproof-card__status--invalid") },
      chip.valid ? checkedOf(source) : chip.reason ?? "Not verified",
    ),
  );
}

/**
 * A citation chip: a small badge after the claim that opens its card (see `useChip`).
 * Invalid chips get `citeproof-chip--invalid` and say why (`chip.reason`). `Card`
 * replaces the card. Also a `sup` component for react-markdown and Streamdown
 * (`components={{ sup: CitationChip }}` with citeproof/remark): it takes the chip from
 * the hast `node` the plugin made, and renders any other `<sup>` as it was.
 */
export function CitationChip({ chip, node, className, Card = ChipCard, children, ...rest }) {
  const shown = chip ?? chipOf(node);
  if (!shown) return h("sup", { ...rest, className }, children);
  // The `<sup>` of citeproof/remark comes with the class the chip's root has anyway.
  const extra = className?.split(/\s+/).filter((name) => name && name !== "citeproof-chip").join(" ");
  return h(ChipView, { chip: shown, className: extra || undefined, Card });
}

function ChipView({ chip, className, Card }) {
  const { open, page, setPage, rootProps, buttonProps, cardProps } = useChip(chip);
  const count = chip.sources.length;
  const source = chip.sources[page] ?? chip.sources[0];
  return h(
    "span",
    { ...rootProps, className: cx("citeproof-chip", !chip.valid && "citeproof-chip--invalid", className) },
    h("button", { type: "button", className: "citeproof-chip__badge", ...buttonProps }, chip.badge),
    open && h(Card, { chip, source, page, count, setPage, cardProps }),
  );
}

/**
 * Text deltas from a Response, a ReadableStream (bytes or strings) or an async iterable;
 * `bytes()` is called when the source gives bytes (a response body, whose format is
 * then detected).
 */
async function* textDeltas(source, bytes) {
  const body = typeof Response !== "undefined" && source instanceof Response ? source.body : source;
  if (body && typeof body.getReader === "function") {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (typeof value !== "string") bytes();
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
  // Only objects can be kept (and read once); anything else fails in textDeltas.
  const kept = source !== null && (typeof source === "object" || typeof source === "function");
  let reading = kept ? readings.get(source) : undefined;
  if (!reading) {
    reading = { deltas: [], bytes: false, done: false, error: null, waiting: [] };
    if (kept) readings.set(source, reading);
    const wake = () => reading.waiting.splice(0).forEach((resolve) => resolve());
    (async () => {
      try {
        for await (const delta of textDeltas(source, () => (reading.bytes = true))) {
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

/** The error for an SSE body of no format citeproof reads. */
const unreadSse = () =>
  Object.assign(
    new Error(
      "source: an SSE body of no format citeproof reads (OpenAI Chat Completions, Anthropic Messages, the AI SDK's UI message stream); " +
        "pass the answer's text deltas (an async iterable of strings), or for a useChat message use useCitedMessage",
    ),
    { code: "invalid_input" },
  );

/**
 * Streams an answer through `citeproofTransform`'s reader: `{ text, segments, chips,
 * findings, report, done, error }`, updated per delta. A source of bytes (a Response, a
 * `fetch` body) is read as the transform reads it: OpenAI or Anthropic SSE, the AI SDK's
 * UI message stream SSE, NDJSON or plain text, detected from its first bytes; an SSE
 * body of another format ends in an `invalid_input` error, never shown as prose. A
 * source of strings is the answer's text. `segments` never holds half a marker; once done
 * they are the report's. `input` (sources, citations) and `options` (policy `"flag"`
 * unless they say otherwise; `format` to name the body's) are read when `source`
 * changes. A source is read once, to its end, however often the component mounts
 * (StrictMode, remounts); to stop a response, abort its fetch.
 */
export function useCitationStream(source, given) {
  const { input, options } = hookOptions(given, "useCitationStream");
  const [state, setState] = useState({ text: "", chips: [], findings: [], report: null, done: false, error: null });
  const config = useRef({ input, options });
  config.current = { input, options };
  useEffect(() => {
    setState({ text: "", chips: [], findings: [], report: null, done: !source, error: null });
    if (!source) return undefined;
    let cancelled = false;
    let writer = null;
    let ended = false;
    (async () => {
      const chunks = [];
      let transform = null;
      const open = (bytes) => {
        const { input, options } = config.current;
        transform = citeproofTransform(input ?? {}, { policy: "flag", ...(bytes ? {} : { format: "text" }), ...options });
        transform.onChunk = (chunk) => chunks.push(chunk);
        writer = transform.writable.getWriter();
        transform.readable.pipeTo(new WritableStream()).catch(() => {}); // its body: not shown
      };
      const apply = () => {
        const taken = chunks.splice(0);
        if (cancelled || !taken.length) return;
        const report = taken.find((c) => c.report)?.report ?? null;
        setState((s) => {
          for (const { text, events } of taken) s = applyChunk(s, text, events);
          return report ? { ...s, report, done: true } : s;
        });
      };
      try {
        const reading = readingOf(source);
        for await (const delta of replay(reading)) {
          if (cancelled) return;
          if (!transform) open(reading.bytes);
          await writer.write(delta);
          if (transform.format === "sse") throw unreadSse();
          apply();
        }
        if (cancelled) return;
        if (!transform) open(false);
        ended = true;
        await writer.close();
        apply();
      } catch (error) {
        if (writer && !ended) {
          ended = true;
          writer.close().catch(() => {}); // frees the stream, unless the error ended it
        }
        if (!cancelled) setState((s) => ({ ...s, error, done: true }));
      }
    })();
    return () => {
      cancelled = true;
      // Its memory back now, not when the collector gets to it: ending the transform
      // frees its CitationStream.
      if (writer && !ended) writer.close().catch(() => {});
    };
  }, [source]);
  const segments = useMemo(
    () => (state.report ? state.report.segments : segmentsOf(state.text, state.chips)),
    [state.report, state.text, state.chips],
  );
  return { ...state, segments };
}

/** The text of a `useChat` message: its text parts joined, in order. */
function messageText(message) {
  let text = "";
  for (const part of message?.parts ?? []) if (part?.type === "text" && typeof part.text === "string") text += part.text;
  return text;
}

/** The data of the message's last `data-citations` part (citeproof/ai's transform writes it). */
function citationsData(message) {
  const parts = message?.parts ?? [];
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i]?.type === "data-citations") return parts[i].data ?? null;
  return null;
}

/** The sources the message's own `source-url` / `source-document` parts declare. */
function declaredSources(message) {
  return (message?.parts ?? [])
    .filter((p) => p?.type === "source-url" || p?.type === "source-document")
    .map((p) => ({ id: p.sourceId, url: p.url, title: p.title }));
}

const EMPTY = { text: "", chips: [], findings: [], report: null, error: null };

/**
 * A `useChat` message (`{ id, parts }`, as the AI SDK's UI messages are) as a cited
 * answer: `{ text, segments, chips, findings, report, sources, done, error }`, for
 * `<CitedAnswer segments report sources>` or a markdown renderer fed `text`. Each update
 * feeds only the message's new text into a CitationStream, so `text` and `segments`
 * never hold half a marker. The sources: `config.sources`, else the cards of the
 * message's `data-citations` part (citeproof/ai's `citeproofUIMessageTransform`), else
 * its `source-url` parts. The report: the one that part carries once the answer ended;
 * else, with `config.done` (e.g. `status === "ready"`), the stream's own. If the text
 * changes other than by growing (a new message, a step reset), it is read again from its
 * start. Policy `"flag"` unless `config.options` says otherwise.
 */
export function useCitedMessage(message, config) {
  const { sources, options, done = false } = hookOptions(config, "useCitedMessage");
  const text = messageText(message);
  const data = citationsData(message);
  const found = sources ?? data?.sources ?? declaredSources(message);
  const knownKey = JSON.stringify(found);
  // The same array while the sources say the same: `message` is a new object per update,
  // and a renderer memoised on the sources (useRemarkPlugins) would render every block again.
  const known = useMemo(() => found, [knownKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const optionsKey = JSON.stringify(options ?? null);
  const reading = useRef(null); // { stream, fed, key }
  const [state, setState] = useState(EMPTY);
  useEffect(() => {
    const key = `${message?.id ?? ""}\u0000${knownKey}\u0000${optionsKey}`;
    let current = reading.current;
    // Read again from the start: another message, sources or options; text that did not
    // grow (a step reset); text that came after the end.
    if (current && (current.key !== key || !text.startsWith(current.fed) || (current.ended && text !== current.fed))) {
      current.stream?.free();
      current = null;
    }
    const fresh = !current;
    try {
      if (fresh) {
        current = { stream: null, fed: "", key, ended: false };
        reading.current = current;
        current.stream = new CitationStream({ sources: known }, { policy: "flag", ...options, requireCitations: false });
      }
      const delta = text.slice(current.fed.length);
      const events = [];
      let released = "";
      let report = null;
      if (delta && !current.ended) {
        const chunk = current.stream.push(delta);
        released += chunk.text;
        events.push(...chunk.events);
        current.fed = text;
      }
      if (done && !current.ended) {
        const end = current.stream.finish();
        current.stream.free();
        current.stream = null;
        current.ended = true;
        released += end.text;
        if (end.revise) events.push(end.revise);
        report = end.report;
      }
      if (fresh) setState(applyChunk({ ...EMPTY, report }, released, events));
      else if (released || events.length || report) setState((s) => ({ ...applyChunk(s, released, events), report: report ?? s.report }));
    } catch (error) {
      // Bad options or sources: the hook's error, and nothing more is read until they change.
      current.stream?.free();
      current.stream = null;
      current.ended = true;
      current.fed = text;
      setState({ ...EMPTY, error });
    }
  }, [text, done, knownKey, optionsKey, message?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  // Its memory back on unmount (StrictMode's second mount reads the message again).
  useEffect(
    () => () => {
      reading.current?.stream?.free();
      reading.current = null;
    },
    [],
  );
  const report = data?.report ?? state.report;
  const segments = useMemo(() => (report ? report.segments : segmentsOf(state.text, state.chips)), [report, state.text, state.chips]);
  return { text: report ? report.cleanedAnswer : state.text, segments, chips: state.chips, findings: state.findings, report, sources: known, done: Boolean(report), error: state.error };
}

const NONE = Object.freeze([]);
let holders = 0; // settings made by useRemarkPlugins so far

/**
 * The `remarkPlugins` for a streamed answer in Streamdown (or react-markdown): `plugins`
 * (Streamdown's defaults, say), then `remarkCiteproof` with the `segments` and `sources`
 * that `useCitedMessage` or `useCitationStream` return. Streamdown renders each block of
 * the answer on its own and keeps a block whose text and plugins are the same (compared
 * by identity): the array returned keeps its identity while the answer only grows, so an
 * update renders only the blocks whose text changed, and the plugin, which reads its
 * settings each time it runs, gives them the chips of the segments as they are now. A
 * change to what was already shown (the report replacing the stream's segments, a
 * revision, other sources or plugins) gives a new array, and every block renders again.
 */
export function useRemarkPlugins(cited, plugins = NONE) {
  const segments = cited?.segments ?? NONE;
  const sources = cited?.sources;
  const held = useRef(null);
  const last = held.current;
  if (last && last.sources === sources && sameItems(last.plugins, plugins) && grows(last.segments, segments)) {
    last.settings.report = { segments };
    last.segments = segments;
    return last.remarkPlugins;
  }
  // Streamdown keys its cache of processors by `JSON.stringify` of the plugins' options:
  // the settings write themselves as their holder's number, so one processor serves the
  // answer while it grows (the plugin reads the settings as they are when it runs),
  // rather than the whole report written out and a processor built per update.
  const holder = ++holders;
  const settings = { report: { segments }, sources, toJSON: () => ({ citeproofSettings: holder }) };
  held.current = { settings, sources, plugins, segments, remarkPlugins: [...plugins, [remarkCiteproof, settings]] };
  return held.current.remarkPlugins;
}

/** Whether two lists hold the same items (by identity), in the same order. */
function sameItems(a, b) {
  return a === b || (a.length === b.length && a.every((item, i) => item === b[i]));
}

/**
 * Whether the segments `next` are `previous` with more added: the same segments (a cite
 * segment the same object, a text segment the same text, the last one's text perhaps
 * longer), then new ones. Then every chip already shown is as it was.
 */
function grows(previous, next) {
  if (previous === next) return true;
  if (next.length < previous.length) return false;
  const end = previous.length - 1;
  return previous.every((segment, i) => {
    const now = next[i];
    if (segment === now) return true;
    if (segment?.type !== "text" || now?.type !== "text") return false;
    return i === end ? String(now.text).startsWith(segment.text) : now.text === segment.text;
  });
}
