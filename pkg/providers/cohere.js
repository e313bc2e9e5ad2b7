// Cohere v2 chat (src/providers/cohere.rs): `message.content[]` text parts and
// `message.citations[]` with `start`, `end`, `text` and `sources`. The unit of the
// offsets is not documented: code points, then UTF-16, then bytes are tried, the first
// whose span is exactly `text` kept. Thinking and tool-plan citations are read past.
import { field, is, items, list, offsetMap, settle, textAt, typeName, indexAt } from "./response.js";

const PARTS = "text thinking";
const SOURCES = "document tool";
const CITATIONS = "TEXT_CONTENT THINKING_CONTENT PLAN";
const EVENTS =
  "message-start content-start content-delta content-end tool-plan-delta tool-call-start tool-call-delta " +
  "tool-call-end citation-start citation-end message-end debug";

/** A v2 chat response (`message` with `content` or `citations`), or its stream events. */
export function recognizes(response) {
  const events = items(response);
  if (events) return is(events[0], "type", "message-start");
  const message = field(response, "message");
  return (field(message, "content") !== undefined || field(message, "citations") !== undefined) && field(response, "choices") === undefined;
}

export function read(response, out) {
  const events = items(response);
  if (events) return fromEvents(events, out);
  out.responseId = textAt(response, "id");
  const message = field(response, "message");
  if (message === undefined) return;
  let answer = "";
  for (const part of list(message, "content")) {
    if (out.knows("content part", typeName(part), PARTS) && is(part, "type", "text")) answer += textAt(part, "text") ?? "";
  }
  cited(answer, list(message, "citations"), out);
}

/** A stream: `content-delta` events carry the text, `citation-start` one citation each. */
function fromEvents(events, out) {
  out.responseId = textAt(events[0], "id");
  const message = (event) => field(field(event, "delta"), "message");
  let answer = "";
  const citations = [];
  for (const event of events) {
    const kind = typeName(event);
    if (!out.knows("event", kind, EVENTS)) continue;
    if (kind === "content-delta") answer += textAt(field(message(event), "content"), "text") ?? "";
    else if (kind === "citation-start") {
      const citation = field(message(event), "citations");
      if (citation !== undefined) citations.push(citation);
    }
  }
  cited(answer, citations, out);
}

/** Appends `answer` and declares its `citations`. */
function cited(answer, citations, out) {
  const base = out.pushText(answer);
  let map; // made for the first citation that has offsets
  for (const citation of citations) {
    const kind = typeName(citation) ?? "TEXT_CONTENT";
    if (!out.knows("citation", kind, CITATIONS) || kind !== "TEXT_CONTENT") continue;
    const quoted = textAt(citation, "text");
    const [start, end] = [indexAt(citation, "start"), indexAt(citation, "end")];
    let span;
    if (start !== undefined && end !== undefined) {
      const settled = settle(answer, base, [start, end], ["codepoint", "utf16", "utf8"], quoted === undefined ? {} : { text: quoted }, (map ??= offsetMap(answer)));
      if (settled.warning) out.warnings.push(settled.warning);
      span = settled.span;
    }
    for (const source of list(citation, "sources")) {
      if (!out.knows("citation source", typeName(source), SOURCES)) continue;
      const document = field(source, "document");
      const of = (name) => textAt(document, name);
      const id = textAt(source, "id") ?? of("id");
      if (id === undefined) continue;
      const label = out.label(id, () => ({ id, title: of("title"), url: of("url"), text: of("text") ?? of("snippet") }));
      out.cite(label, span, undefined);
    }
  }
}
