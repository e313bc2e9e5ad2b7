// `citeproofTransform`: a TransformStream that reads a response body (plain text, OpenAI
// or Anthropic SSE, the AI SDK's UI message stream SSE, NDJSON), cleans its text deltas
// through a CitationStream and ends with a `citations` event (spec 002, plus `report`).
// Plain JS that each entry exports (scripts/build-pkg.mjs); only the text enters wasm.
import { MAX_LIST_ITEMS, TYPE_OBJECT, VALIDATE_OPTIONS, codedError, fieldOf, listItems, sourceField, typeCode, unknownField } from "./untrusted.js";

const FORMATS = ["auto", "text", "openai", "anthropic", "ai-sdk", "ndjson"];

/**
 * The sources' fields the `citations` event names, read once (a throwing getter reads as
 * absent), after the stream checked the list against `maxSources`.
 */
function sourceCards(input) {
  const sources = listItems(fieldOf(input, "sources"), MAX_LIST_ITEMS);
  if (!Array.isArray(sources)) return [];
  return sources.map((source) => {
    const card = {};
    for (const name of ["title", "url", "slug"]) card[name] = sourceField(source, name);
    return card;
  });
}

/** Spec 002's `citations` payload: one entry per valid cited source, plus the report. */
function citationsPayload(report, sources) {
  const seen = new Set();
  const citations = [];
  for (const c of report.citations) {
    // The source validation resolved the citation to, at its position.
    if (!c.valid || c.sourcePosition == null || seen.has(c.sourcePosition)) continue;
    seen.add(c.sourcePosition);
    const source = sources[c.sourcePosition] ?? {};
    citations.push({ index: c.sourceIndex, title: source.title ?? "", url: source.url ?? null, slug: source.slug ?? null });
  }
  return { status: "citations", citations, isComplete: true, report };
}

const KNOWN_OPTIONS = `${VALIDATE_OPTIONS.join(",")},format,`;

/** `citeproofTransform` over the entry's `CitationStream` class. */
export function citeproofTransformOver(CitationStream) {
  return function citeproofTransform(input, options) {
    // The stream checks `validate`'s options, through a view hiding `format`; then, as
    // `validate` does after the values, the names (the contract's) and `format` here.
    const view = typeCode(options) === TYPE_OBJECT ? Object.create(options, { format: { value: undefined } }) : options;
    const stream = new CitationStream(input, view);
    let format;
    try {
      const unknown = unknownField(options, KNOWN_OPTIONS, "options");
      if (unknown) throw unknown;
      format = fieldOf(options, "format") ?? "auto";
      if (!FORMATS.includes(format)) {
        const got = typeof format === "string" ? `"${format}"` : typeof format;
        throw codedError("invalid_option", "options.format", `${got} is not one of ${FORMATS.join(", ")}`);
      }
    } catch (error) {
      stream.free();
      throw error;
    }
    // A forwarded body cannot take text back: hold doubtful markers until decided.
    stream.withoutRevisions();
    return transformOf(stream, format, sourceCards(input));
  };
}

/** The TransformStream over `stream` for a body in `format`; `cards`: the sources. */
function transformOf(stream, format, cards) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let resolveReport, rejectReport;
  const report = new Promise((resolve, reject) => {
    resolveReport = resolve;
    rejectReport = reject;
  });
  report.catch(() => {}); // the stream itself reports the error too
  let kind = format === "auto" ? null : format;
  let binary = false; // emit bytes when bytes came in
  let pending = ""; // text of an unfinished SSE event or NDJSON line
  let finished = null; // the finish() result once the answer ended
  let heldStop = null; // Anthropic: a text block's content_block_stop (AI SDK: text-end), held for the tail
  let lastDeltaIndex = 0;
  let lastTextId = null; // AI SDK: the id of the text block that had the last delta
  let guessed = false; // SSE of no known format, read as OpenAI's (its unknown events pass)
  let ndjsonField = null;
  const events = []; // SSE: every event's data as received, for fromAnthropic / fromOpenAI
  // Each push's cleaned text and events, and the end's, to `transform.onChunk` when set
  // (useCitationStream reads a body's text this way, with this file's format reading).
  const push = (delta) => {
    const chunk = stream.push(delta);
    transform.onChunk?.({ text: chunk.text, events: chunk.events });
    return chunk;
  };

  const finish = () => {
    if (!finished) {
      transform.answer = stream.answer;
      // SSE: the citations the events declare (Anthropic `citations_delta`, OpenAI
      // `annotations`) are part of the answer's report, not only its markers.
      finished = stream.finish(kind === "anthropic" || kind === "openai" ? events : undefined);
      stream.free(); // nothing reads it after the end: give its memory back now
      transform.onChunk?.({ text: finished.text, events: finished.revise ? [finished.revise] : [], report: finished.report });
      resolveReport(finished.report);
    }
    return finished;
  };
  const citationsEvent = () =>
    kind === "ai-sdk"
      ? // A UI message stream's data part, which `useChat` keeps in the message (its
        // `data-citations` part; citeproof/ai's transform writes the same type).
        `data: ${JSON.stringify({ type: "data-citations", id: "citeproof", data: { sources: cards, ...citationsPayload(finished.report, cards) } })}\n\n`
      : `event: citations\ndata: ${JSON.stringify(citationsPayload(finished.report, cards))}\n\n`;

  /** The body's format from its first bytes; `null` while they cannot tell yet. */
  function detect(text, last) {
    const start = text.trimStart();
    if (!start) return last ? "text" : null;
    if (/^(data|event|id|retry):/.test(start) || start.startsWith(":")) {
      if (start.includes('"choices"')) return "openai";
      if (/"type"\s*:\s*"(message_start|content_block_start|content_block_delta)"/.test(start)) return "anthropic";
      if (/"type"\s*:\s*"(start|start-step|text-start|text-delta)"/.test(start)) return "ai-sdk";
      // Other SSE: decide after a few whole events (unknown events pass through).
      if (last || start.split(/\r?\n\r?\n/).length > 3) {
        guessed = true;
        return "openai";
      }
      return null;
    }
    if (start.startsWith("{")) return "ndjson";
    const couldBeSse = ["data:", "event:", "id:", "retry:"].some((p) => start.length < p.length && p.startsWith(start));
    return couldBeSse && !last ? null : "text";
  }

  function sseBlock(block) {
    let event = "message";
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    return { event, data: data.join("\n") };
  }

  function parseJson(data, what) {
    try {
      return JSON.parse(data);
    } catch {
      throw codedError("invalid_input", "body", `${what} is not JSON: ${data.slice(0, 80)}`);
    }
  }

  /** The event carrying `text` (the cleaned tail) in each SSE format; "" for no text. */
  const openaiTail = (text) =>
    text ? `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n` : "";
  const anthropicTail = (text) =>
    text ? `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: lastDeltaIndex, delta: { type: "text_delta", text } })}\n\n` : "";

  function openaiEvent(block) {
    const { data } = sseBlock(block);
    if (!data) return block + "\n\n";
    if (data.trim() === "[DONE]") {
      if (finished) return block + "\n\n";
      return openaiTail(finish().text) + citationsEvent() + block + "\n\n";
    }
    const chunk = parseJson(data, "an OpenAI stream event");
    events.push(parseJson(data, "an OpenAI stream event")); // kept unchanged
    const choice = chunk?.choices?.[0];
    if (!choice || finished) return block + "\n\n";
    const delta = choice.delta ?? {};
    let text = typeof delta.content === "string" ? push(delta.content).text : null;
    let after = "";
    if (choice.finish_reason != null) {
      text = (text ?? "") + finish().text;
      after = citationsEvent();
    }
    if (text !== null) choice.delta = { ...delta, content: text };
    return `data: ${JSON.stringify(chunk)}\n\n` + after;
  }

  function anthropicEvent(block) {
    const { event, data } = sseBlock(block);
    const payload = data ? parseJson(data, "an Anthropic stream event") : {};
    if (data) events.push(parseJson(data, "an Anthropic stream event")); // kept unchanged
    const type = payload.type ?? event;
    let out = "";
    if (heldStop && (type === "content_block_start" || type === "content_block_delta")) {
      out += heldStop; // more content follows: the held block really ended
      heldStop = null;
    }
    if (finished) return out + block + "\n\n";
    if (type === "content_block_delta" && payload.delta?.type === "text_delta") {
      lastDeltaIndex = payload.index ?? 0;
      payload.delta.text = push(payload.delta.text ?? "").text;
      return out + `event: content_block_delta\ndata: ${JSON.stringify(payload)}\n\n`;
    }
    if (type === "content_block_stop" && payload.index === lastDeltaIndex) {
      heldStop = block + "\n\n";
      return out;
    }
    if (type === "message_delta" || type === "message_stop") {
      out += anthropicTail(finish().text) + (heldStop ?? "") + citationsEvent();
      heldStop = null;
    }
    return out + block + "\n\n";
  }

  /** The event carrying `text` in the AI SDK's UI message stream; "" for no text. */
  const aiSdkTail = (text) => (text && lastTextId !== null ? `data: ${JSON.stringify({ type: "text-delta", id: lastTextId, delta: text })}\n\n` : "");

  // The AI SDK's UI message stream: text blocks' deltas cleaned; a block's `text-end`
  // held until more text comes (the held tail goes before it); the tail and the
  // `data-citations` part before `finish` (or `[DONE]`, or the body's end).
  function aiSdkEvent(block) {
    const { data } = sseBlock(block);
    if (!data) return block + "\n\n";
    let out = "";
    if (data.trim() === "[DONE]") {
      if (!finished) out += aiSdkTail(finish().text) + (heldStop ?? "") + citationsEvent();
      else out += heldStop ?? "";
      heldStop = null;
      return out + block + "\n\n";
    }
    const payload = parseJson(data, "an AI SDK UI message stream event");
    events.push(parseJson(data, "an AI SDK UI message stream event")); // kept unchanged
    const type = payload?.type;
    if (heldStop && (type === "text-start" || type === "text-delta")) {
      out += heldStop; // more text follows: the held block really ended
      heldStop = null;
    }
    if (finished) return out + block + "\n\n";
    if (type === "text-delta" && typeof payload.delta === "string") {
      lastTextId = payload.id ?? null;
      payload.delta = push(payload.delta).text;
      return payload.delta ? out + `data: ${JSON.stringify(payload)}\n\n` : out;
    }
    if (type === "text-end" && payload.id === lastTextId) {
      heldStop = block + "\n\n";
      return out;
    }
    if (type === "finish") {
      out += aiSdkTail(finish().text) + (heldStop ?? "") + citationsEvent();
      heldStop = null;
    }
    return out + block + "\n\n";
  }

  const TEXT_FIELDS = ["text", "content", "delta", "response"];
  function ndjsonLine(line) {
    if (!line.trim()) return line + "\n";
    const object = parseJson(line, "an NDJSON line");
    if (finished) return line + "\n";
    const holder = typeof object?.message?.content === "string" ? object.message : object;
    ndjsonField ??= TEXT_FIELDS.find((f) => typeof holder?.[f] === "string") ?? null;
    if (ndjsonField && typeof holder[ndjsonField] === "string") {
      holder[ndjsonField] = push(holder[ndjsonField]).text;
    }
    if (object?.done === true) {
      if (ndjsonField) holder[ndjsonField] = (holder[ndjsonField] ?? "") + finish().text;
      else finish();
      return JSON.stringify(object) + "\n" + ndjsonCitations();
    }
    return JSON.stringify(object) + "\n";
  }
  const ndjsonCitations = () => JSON.stringify({ event: "citations", data: citationsPayload(finished.report, cards) }) + "\n";

  /** Takes newly decoded text; returns what to emit. */
  function take(text, last) {
    pending += text;
    kind ??= detect(pending, last);
    if (!kind) return "";
    if (kind === "text") {
      const out = push(pending).text;
      pending = "";
      return out;
    }
    let out = "";
    if (kind === "ndjson") {
      const lines = pending.split("\n");
      pending = last ? "" : lines.pop();
      for (const line of lines) out += ndjsonLine(line);
      return out;
    }
    const blocks = pending.split(/\r?\n\r?\n/);
    pending = last ? "" : blocks.pop();
    for (const block of blocks) {
      if (!block.trim()) continue;
      out += kind === "openai" ? openaiEvent(block) : kind === "anthropic" ? anthropicEvent(block) : aiSdkEvent(block);
    }
    return out;
  }

  function end() {
    let out = take(decoder.decode(), true);
    if (finished) return out + (heldStop ?? "");
    const tail = finish().text;
    if (kind === "text" || !kind) return out + tail;
    if (kind === "ndjson") {
      const line = tail ? JSON.stringify({ [ndjsonField ?? "text"]: tail }) + "\n" : "";
      return out + line + ndjsonCitations();
    }
    out += kind === "openai" ? openaiTail(tail) : kind === "anthropic" ? anthropicTail(tail) : aiSdkTail(tail);
    return out + (heldStop ?? "") + citationsEvent();
  }

  const emit = (controller, text) => {
    if (text) controller.enqueue(binary ? encoder.encode(text) : text);
  };
  const transform = new TransformStream({
    transform(chunk, controller) {
      try {
        let text;
        if (typeof chunk === "string") text = chunk;
        else if (chunk instanceof Uint8Array || ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer) {
          binary = true;
          text = decoder.decode(chunk, { stream: true });
        } else throw codedError("invalid_input", "chunk", "expected a string or bytes");
        emit(controller, take(text, false));
      } catch (error) {
        rejectReport(error);
        throw error;
      }
    },
    flush(controller) {
      try {
        emit(controller, end());
      } catch (error) {
        rejectReport(error);
        throw error;
      }
    },
  });
  transform.report = report;
  transform.answer = null; // the whole answer as it came in, once the stream has ended
  // SSE: the events as received (Anthropic `citations_delta`, OpenAI late
  // `delta.annotations`), whose declared citations the report already counts; after the
  // stream, `fromAnthropic(transform.events, sources)` / `fromOpenAI(…)` gives their `Input`.
  transform.events = events;
  // What the body was read as, once its first bytes told: "text", "openai",
  // "anthropic", "ai-sdk", "ndjson", or "sse" (SSE of no known format, whose events
  // pass unread); null before.
  Object.defineProperty(transform, "format", { get: () => (guessed ? "sse" : kind), enumerable: true });
  transform.onChunk = null;
  return transform;
}
