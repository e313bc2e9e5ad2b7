// Amazon Bedrock Converse (src/providers/bedrock.rs): `output.message.content` blocks, each
// a union keyed by field name. `text` blocks and `citationsContent` texts make the answer;
// each citation backs the text of its block, its `location` naming the source. A stream
// is the list of ConverseStream events.
import { field, indexAt, items, kindKey, list, text, textAt, webSource } from "./response.js";

const BLOCKS =
  "text image document video audio toolUse toolResult guardContent cachePoint reasoningContent citationsContent searchResult";
const DELTAS = "text toolUse toolResult reasoningContent citation image";
const EVENTS =
  "messageStart contentBlockStart contentBlockDelta contentBlockStop messageStop metadata internalServerException " +
  "modelStreamErrorException validationException throttlingException serviceUnavailableException";

/** A Converse response (`output.message.content`), or ConverseStream events. */
export function recognizes(response) {
  const events = items(response);
  if (events) return field(events[0], "messageStart") !== undefined;
  return items(field(field(field(response, "output"), "message"), "content")) !== undefined;
}

/** The texts of a list of `{ text }` items, joined. */
const joined = (values) => values.map((c) => text(field(c, "text")) ?? "").join("");

export function read(response, out) {
  const events = items(response);
  const blocks = events
    ? fromEvents(events, out)
    : list(field(field(response, "output"), "message"), "content")
        .map((b) => block(b, out))
        .filter(Boolean);
  for (const b of blocks) {
    const start = out.pushText(b.text);
    const span = { start, end: out.answer.length };
    for (const citation of b.citations) {
      const source = sourceOf(citation, out);
      out.cite(source, span, joined(list(citation, "sourceContent")) || undefined);
    }
  }
}

/** The answer text a block holds, with its citations; undefined for any other block. */
function block(value, out) {
  const kind = kindKey(value, "");
  if (!out.knows("content block", kind, BLOCKS)) return undefined;
  if (kind === "text") return { text: textAt(value, "text") ?? "", citations: [] };
  if (kind === "citationsContent") {
    const cited = field(value, "citationsContent");
    return { text: joined(list(cited, "content")), citations: [...list(cited, "citations")] };
  }
  return undefined;
}

/** The blocks a stream's `contentBlockDelta` events build, in the order they started. */
function fromEvents(events, out) {
  const blocks = [];
  const position = new Map();
  for (const event of events) {
    const kind = kindKey(event, "");
    if (!out.knows("event", kind, EVENTS) || kind !== "contentBlockDelta") continue;
    const body = field(event, "contentBlockDelta");
    const delta = field(body, "delta");
    if (delta === undefined) continue;
    const deltaKind = kindKey(delta, "");
    if (!out.knows("delta", deltaKind, DELTAS)) continue;
    const index = indexAt(body, "contentBlockIndex");
    const key = index !== undefined && index <= 0xffffffff ? index : 0xffffffff;
    if (!position.has(key)) {
      position.set(key, blocks.length);
      blocks.push({ text: "", citations: [] });
    }
    const target = blocks[position.get(key)];
    if (deltaKind === "text") target.text += text(field(delta, "text")) ?? "";
    else if (deltaKind === "citation") {
      const citation = field(delta, "citation");
      if (citation !== undefined) target.citations.push(citation);
    }
  }
  return blocks;
}

/** The source a citation's `location` names: a web page by URL, else a document or search result by position. */
function sourceOf(citation, out) {
  const title = textAt(citation, "title");
  const location = field(citation, "location");
  const kind = kindKey(location, "");
  const place = kind === undefined ? undefined : field(location, kind);
  const url = textAt(place, "url");
  if (url !== undefined) return out.label(url, () => webSource(url, title));
  const searched = indexAt(place, "searchResultIndex");
  const [what, position] = searched !== undefined ? ["search result", searched] : ["document", indexAt(place, "documentIndex") ?? 0];
  if (out.given) return out.labelAt(position);
  return out.label(`${what} ${position}`, () => ({ title }));
}
