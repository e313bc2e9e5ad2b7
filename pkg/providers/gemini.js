// Google Gemini `generateContent` (src/providers/gemini.rs): `candidates[0].groundingMetadata`
// lists `groundingChunks` and `groundingSupports` whose `segment` is measured in UTF-8
// bytes of part `partIndex` (of the answer's text without one). A stream's chunks are
// one text. A support becomes one citation per chunk index. Interactions API responses
// go to interactions.js.
import { bad, field, indexAt, items, kindKey, list, offsetMap, settle, text, textAt, webSource } from "./response.js";
import * as interactions from "./interactions.js";

const PARTS = "text inlineData fileData functionCall functionResponse executableCode codeExecutionResult toolCall toolResponse";
const PART_METADATA = "thought thoughtSignature videoMetadata partMetadata mediaResolution";
const CHUNKS = "web retrievedContext maps";

/** A response (`candidates`), its stream chunks, or an Interactions API interaction or its events. */
export function recognizes(response) {
  if (interactions.recognizes(response)) return true;
  const chunks = items(response);
  return chunks ? field(chunks[0], "candidates") !== undefined : field(response, "candidates") !== undefined;
}

export function read(response, out) {
  if (interactions.recognizes(response)) return interactions.read(response, out);
  const streamed = items(response) !== undefined;
  const chunks = items(response) ?? [response];
  if (chunks.length === 0) throw bad("", "no chunk");
  out.responseId = textAt(chunks[0], "responseId");
  out.model = textAt(chunks[0], "modelVersion");
  // A whole response keeps its parts (`partIndex` counts them all); a stream's make one text.
  const parts = [];
  let metadata;
  chunks.forEach((chunk, i) => {
    const candidate = list(chunk, "candidates")[0];
    if (candidate === undefined) throw bad(`${streamed ? `[${i}]` : ""}.candidates`, "no candidate");
    if (streamed && parts.length === 0) parts.push("");
    for (const part of list(field(candidate, "content"), "parts")) {
      // A part of none of the known kinds but holding something besides metadata is of a kind to come.
      if (!PARTS.split(" ").some((kind) => field(part, kind) !== undefined)) {
        const kind = kindKey(part, PART_METADATA);
        if (kind !== undefined) out.countUnknown("part", kind);
      }
      const said = field(part, "thought") === true ? undefined : text(field(part, "text"));
      if (streamed && parts.length > 0) parts[parts.length - 1] += said ?? "";
      else parts.push(said ?? "");
    }
    metadata = field(candidate, "groundingMetadata") ?? metadata;
  });
  const bases = parts.map((p) => out.pushText(p));
  if (metadata !== undefined) grounding(metadata, parts, bases, out);
}

/**
 * Declares the citations of `metadata` (also the Vercel AI SDK's Google provider
 * metadata) over an answer made of `parts` starting at `bases`.
 */
export function grounding(metadata, parts, bases, out) {
  const labels = list(metadata, "groundingChunks").map((chunk, i) => {
    // A kind to come is counted and read as the known ones are: supports name chunks by position.
    let web = CHUNKS.split(" ")
      .map((kind) => field(chunk, kind))
      .find((found) => found !== undefined);
    if (web === undefined) {
      const kind = kindKey(chunk, "");
      out.countUnknown("grounding chunk", kind);
      web = kind === undefined ? undefined : field(chunk, kind);
    }
    const [url, title, said, id] = ["uri", "title", "text", "placeId"].map((name) => textAt(web, name));
    if (url !== undefined) return out.label(url, () => ({ ...webSource(url, title), text: said, id }));
    if (out.given) return out.labelAt(i);
    return out.label(`chunk ${i}`, () => ({ title, text: said, id }));
  });
  const whole = parts.join("");
  // Each text's offset map made once, for all the supports that cite in it (they may
  // alternate between parts).
  const wholeMap = offsetMap(whole);
  const partMaps = parts.map((part) => offsetMap(part));
  list(metadata, "groundingSupports").forEach((support, i) => {
    const segment = field(support, "segment");
    if (segment === undefined) throw bad(`.groundingSupports[${i}].segment`, "missing");
    const cited = textAt(segment, "text");
    // Without `partIndex` the offsets count from the start of the answer's text.
    const partIndex = indexAt(segment, "partIndex");
    let [partText, base, map] = [whole, bases[0] ?? 0, wholeMap];
    if (partIndex !== undefined) {
      if (partIndex >= parts.length) throw bad(`.groundingSupports[${i}].segment.partIndex`, "names no text part");
      [partText, base, map] = [parts[partIndex], bases[partIndex], partMaps[partIndex]];
    }
    const start = indexAt(segment, "startIndex") ?? 0;
    const end = indexAt(segment, "endIndex") ?? start;
    const settled = settle(partText, base, [start, end], ["utf8"], cited === undefined ? {} : { text: cited }, map);
    if (settled.warning) out.warnings.push(settled.warning);
    for (const index of list(support, "groundingChunkIndices")) {
      if (typeof index !== "number") continue;
      const known = Number.isInteger(index) && index >= 0 ? labels[index] : undefined;
      out.cite(known ?? index + 1, settled.span, undefined);
    }
  });
}
