// Vercel AI SDK (src/providers/vercel_ai.rs): a `generateText` / `streamText` result, a UI
// message (`parts`), or the parts of a stream (`fullStream`, a UI message stream). Text
// parts (and a stream's `text-end`) may carry `citations` with `startIndex`/`endIndex`
// (UTF-16; code points and bytes tried after); Google's grounding metadata is read as
// Gemini's. Without either, `[n]` markers cite the n-th source, and an answer without
// markers cites every source as a whole (markers found by the caller's module's parser,
// which the Builder carries: this file imports no wasm module).
import { field, indexAt, is, items, list, offsetMap, settle, text, textAt, typeName, webSource } from "./response.js";
import { grounding } from "./gemini.js";

const PARTS =
  "text text-start text-delta text-end reasoning reasoning-start reasoning-delta reasoning-end redacted-reasoning " +
  "reasoning-signature source source-url source-document file dynamic-tool start finish start-step finish-step " +
  "step-start step-finish stream-start response-metadata message-metadata raw error abort custom reasoning-file " +
  "steering-message reset-step";

/** Whether a part's type is one the SDK defines (or a `tool-…` / `data-…` part); one that is not is counted. */
function known(part, out) {
  const kind = typeName(part);
  return (kind !== undefined && (kind.startsWith("tool-") || kind.startsWith("data-"))) || out.knows("part", kind, PARTS);
}

/** A source part or a citation's source. */
const isSource = (part) => ["source", "source-url", "source-document"].some((kind) => is(part, "type", kind));

/** A result with `text` and `sources` / `providerMetadata` / `content`, a message with `parts`, or a stream's parts. */
export function recognizes(response) {
  const parts = items(response);
  if (parts) return parts.some((p) => ["text-delta", "text-start", "source", "source-url"].some((kind) => is(p, "type", kind)));
  return (
    (text(field(response, "text")) !== undefined &&
      ["sources", "providerMetadata", "content"].some((name) => field(response, name) !== undefined)) ||
    field(response, "parts") !== undefined
  );
}

export function read(response, out) {
  const parts = items(response);
  const { blocks, sources } = parts ? streamed(parts, out) : whole(response, out);
  const labels = sources.map((s) => label(s, out));
  const texts = [];
  const bases = [];
  for (const block of blocks) {
    const base = out.pushText(block.text);
    let map; // made for the first citation that has offsets
    for (const citation of block.citations) {
      const source = field(citation, "source");
      if (source === undefined) continue;
      const cited = label(source, out);
      const [start, end] = [indexAt(citation, "startIndex"), indexAt(citation, "endIndex")];
      let span;
      if (start !== undefined && end !== undefined) {
        const settled = settle(block.text, base, [start, end], ["utf16", "codepoint", "utf8"], {}, (map ??= offsetMap(block.text)));
        if (settled.warning) out.warnings.push(settled.warning);
        span = settled.span;
      }
      out.cite(cited, span, textAt(citation, "citedText"));
    }
    texts.push(block.text);
    bases.push(base);
  }
  const google = field(field(field(response, "providerMetadata"), "google"), "groundingMetadata");
  if (google !== undefined) return grounding(google, texts, bases, out);
  const cited = blocks.some((b) => b.citations.length > 0);
  if (!cited && out.parseCitations(out.answer).length === 0) {
    for (const source of labels) out.cite(source, undefined, undefined);
  }
}

/** A result or a message: its text parts (one block when no part carries citations) and its sources. */
function whole(response, out) {
  const given = field(response, "parts");
  const parts = (given !== undefined ? (items(given) ?? []) : list(response, "content")).filter((p) => known(p, out));
  const textParts = parts.filter((p) => is(p, "type", "text"));
  const blocks = textParts.some((p) => field(p, "citations") !== undefined)
    ? textParts.map((p) => ({ text: textAt(p, "text") ?? "", citations: list(p, "citations") }))
    : [{ text: textAt(response, "text") ?? textParts.map((p) => textAt(p, "text") ?? "").join(""), citations: [] }];
  return { blocks, sources: [...list(response, "sources"), ...parts.filter(isSource)] };
}

/** A stream's parts: each text block's text (by `id`, in the order they start), its `text-end` citations, and the source parts. */
function streamed(parts, out) {
  const blocks = [];
  const byId = new Map();
  const sources = [];
  for (const part of parts) {
    if (!known(part, out)) continue;
    if (isSource(part)) {
      sources.push(part);
      continue;
    }
    const kind = typeName(part);
    if (kind !== "text-start" && kind !== "text-delta" && kind !== "text-end") continue;
    const id = textAt(part, "id") ?? "";
    if (!byId.has(id)) {
      byId.set(id, blocks.length);
      blocks.push({ text: "", citations: [] });
    }
    const block = blocks[byId.get(id)];
    // `text` in `fullStream`, `delta` in a UI message stream, `textDelta` before v5.
    if (kind === "text-delta") block.text += ["text", "delta", "textDelta"].map((name) => textAt(part, name)).find((t) => t !== undefined) ?? "";
    else if (kind === "text-end") block.citations.push(...list(part, "citations"));
  }
  return { blocks, sources };
}

/** The label of a source, listed by its URL (else its id) the first time. */
function label(source, out) {
  const id = textAt(source, "id") ?? textAt(source, "sourceId");
  const title = textAt(source, "title") ?? textAt(source, "filename");
  const url = textAt(source, "url");
  const key = url ?? id ?? "";
  return url !== undefined ? out.label(key, () => ({ id, ...webSource(url, title) })) : out.label(key, () => ({ id, title }));
}
