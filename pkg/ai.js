// citeproof/ai: a language-model middleware for the Vercel AI SDK's `wrapLanguageModel`.
// It validates what the wrapped model produces, in `generateText` and in `streamText`:
// the text parts are cleaned per the policy, and the report rides in `providerMetadata`
// under `citeproof`. The middleware is a plain object of the SDK's middleware
// specification (v4, the `ai` package's seventh major); this module imports nothing of
// the SDK. It reads the SDK's parts with the JS provider adapter (citeproof/providers)
// and validates with the module `citeproof` gives the runtime (the full one in Node,
// workerd and Deno; the browser core in a browser bundle).
//
// `citeproofUIMessageTransform` does the same one floor up, on the UI message stream a
// `useChat` route returns (`streamText(…).toUIMessageStream()`, `createUIMessageStream`),
// and `getReport` reads the report back from a result.
import { CitationStream, validate } from "citeproof";
import { fromVercelAI } from "./providers.js";
import { MAX_LIST_ITEMS, tooManyItems, wellFormed } from "./providers/untrusted.js";

const error = (code, message) => Object.assign(new Error(message), { code });

/** The fields of a config: `null` and `undefined` are no config, as for `validate`'s options. */
function configOf(config) {
  if (config == null) return {};
  if (typeof config !== "object") throw error("invalid_option", "config: expected an object { sources, options, onReport }");
  // Spread into validate's options, a number or a string would be no options, or a
  // string's letters taken for option names.
  const options = config.options;
  if (options != null && (typeof options !== "object" || Array.isArray(options))) {
    throw error("invalid_option", `options: expected an object, got ${Array.isArray(options) ? "array" : typeof options}`);
  }
  return config;
}

/**
 * The middleware. `sources`: the sources the app retrieved and put in the prompt (their
 * labels are their positions from 1); without them, the sources the model's response
 * declares (`source` parts, as web search gives) are the ones cited. `options`: as for
 * `validate` (`renumber` excepted: it rewrites labels, and the middleware keeps the
 * provider's citation offsets true by removing text only). `markerPatterns` work for
 * `generateText`; a streamed answer refuses them (`invalid_option`, from its
 * CitationStream). `onReport(report)` is called with each answer's report. No config
 * (`undefined` or `null`) is `{}`.
 */
export function citeproofMiddleware(config) {
  const { sources, options, onReport } = configOf(config);
  if (sources != null && !Array.isArray(sources)) throw error("invalid_option", "sources: expected an array of sources");
  if (options?.renumber) throw error("invalid_option", "options.renumber: not supported by the middleware (it would move the provider's citation offsets)");
  if (onReport != null && typeof onReport !== "function") throw error("invalid_option", "onReport: expected a function");
  // Bad sources or options throw here, once, as validate reads them (markerPatterns
  // included: generateText honours them; a streamed answer's CitationStream refuses them).
  validate({ answer: "", sources: sources ?? [] }, { ...options, requireCitations: false });
  return {
    specificationVersion: "v4",
    async wrapGenerate({ doGenerate } = {}) {
      if (typeof doGenerate !== "function") throw error("invalid_input", "wrapGenerate: expected { doGenerate }, the AI SDK's call of the model");
      const result = await doGenerate();
      listOf(result?.content, "doGenerate's result.content");
      const texts = result.content.filter((part) => part?.type === "text");
      if (!texts.length) return result;
      const answer = texts.map((part) => part.text).join("");
      const report = validate(fromVercelAI({ text: answer, content: result.content }, sources), options);
      onReport?.(report);
      const cleaned = cutAsParts(answer, report.cleanedAnswer, texts.map((part) => part.text));
      let next = 0;
      const content = result.content.map((part) => (part?.type === "text" ? cleanedPart(part, cleaned[next++]) : part));
      return { ...result, content, providerMetadata: withReport(result.providerMetadata, report) };
    },
    async wrapStream({ doStream } = {}) {
      if (typeof doStream !== "function") throw error("invalid_input", "wrapStream: expected { doStream }, the AI SDK's call of the model");
      const result = await doStream();
      if (typeof result?.stream?.pipeThrough !== "function") throw error("invalid_input", "doStream's result.stream: expected a ReadableStream");
      return { ...result, stream: result.stream.pipeThrough(citationParts(sources, options, onReport)) };
    },
  };
}

/**
 * Bad sources or options of the UI message transform throw here, once, as a
 * CitationStream reads them: every text block goes through one, and it refuses what
 * `validate` takes but a stream cannot honour (`markerPatterns`).
 */
function checkOptions(sources, options) {
  new CitationStream({ sources: sources ?? [] }, { ...options, requireCitations: false }).free();
}

/**
 * `list` when it is an array of at most MAX_LIST_ITEMS items (its length read first: a
 * sparse list of 2^32 − 1, walked, took minutes); else a coded Error naming it `path`.
 */
function listOf(list, path) {
  if (!Array.isArray(list)) throw error("invalid_input", `${path}: expected an array`);
  if (list.length > MAX_LIST_ITEMS) throw tooManyItems(path, list.length);
  return list;
}

/** `report` as plain JSON values (no undefined, no prototypes), as the SDK's metadata and data parts want. */
const jsonOf = (report) => JSON.parse(JSON.stringify(report));

/** `metadata` with the report under `citeproof`. */
function withReport(metadata, report) {
  return { ...metadata, citeproof: { report: jsonOf(report) } };
}

/**
 * Where each index of `original` went in `cleaned`, which is `original` with some text
 * removed (markers and the space before them): `at[i]` is the position in `cleaned` of
 * the first kept character at or after `i`.
 */
function positions(original, cleaned) {
  const at = new Array(original.length + 1);
  // As the core read it: a lone surrogate (half an emoji a model cut off) is U+FFFD,
  // one unit as it was.
  const read = wellFormed(original);
  let j = 0;
  for (let i = 0; i < read.length; i++) {
    at[i] = j;
    if (j < cleaned.length && read[i] === cleaned[j]) j++;
  }
  at[original.length] = j;
  if (j !== cleaned.length) throw error("internal_error", "the cleaned answer is not the answer with text removed");
  return at;
}

/** `cleaned` cut where the text `parts` (whose concatenation is `original`) meet. */
function cutAsParts(original, cleaned, parts) {
  const at = positions(original, cleaned);
  const pieces = [];
  let end = 0;
  for (const part of parts) {
    const start = end;
    end += part.length;
    pieces.push({ text: cleaned.slice(at[start], at[end]), at: (i) => at[start + i] - at[start] });
  }
  return pieces;
}

/** A text part with its cleaned text, and its declared citations' offsets moved with it. */
function cleanedPart(part, piece) {
  if (piece.text === part.text) return part;
  const citations = movedCitations(part.citations, part.text.length, piece.at);
  return citations ? { ...part, text: piece.text, citations } : { ...part, text: piece.text };
}

/** Declared citations (`startIndex`/`endIndex` in a text of `length`) moved by `at`. */
function movedCitations(citations, length, at) {
  return citations?.map((c) =>
    Number.isInteger(c.startIndex) && Number.isInteger(c.endIndex) && c.startIndex >= 0 && c.endIndex <= length
      ? { ...c, startIndex: at(c.startIndex), endIndex: at(c.endIndex) }
      : c,
  );
}

/** Source parts as validate's sources. */
const sourceOf = (part) => ({ id: part.id, url: part.url, title: part.title });

/**
 * The stream's parts with each text block passed through a CitationStream: its deltas
 * come out cleaned, never half a marker (what is held back comes with a later delta or
 * before the block's `text-end`), and `finish` carries the report of the whole answer.
 * Text once sent is never taken back: a marker whose fate is still open is held until
 * it is decided. Without `sources`, the blocks are cleaned against the source parts sent
 * before them, or not cleaned at all when none came first (a marker may name a source
 * that comes later); the report always counts every source.
 */
function citationParts(sources, options, onReport) {
  const parts = []; // every part as the model sent it, for the report
  const blocks = new Map(); // text block id → { stream, text }
  const declared = [];
  return new TransformStream({
    transform(part, controller) {
      parts.push(part);
      switch (part.type) {
        case "source":
          declared.push(sourceOf(part));
          controller.enqueue(part);
          return;
        case "text-start": {
          const known = sources ?? declared.slice();
          const policy = known.length || sources ? options?.policy : "flag";
          const stream = new CitationStream({ sources: known }, { ...options, ...(policy ? { policy } : {}), requireCitations: false });
          stream.withoutRevisions();
          blocks.set(part.id, { stream, text: "" });
          controller.enqueue(part);
          return;
        }
        case "text-delta": {
          const block = blocks.get(part.id);
          if (!block) return controller.enqueue(part);
          block.text += part.delta;
          const { text } = block.stream.push(part.delta);
          if (text) controller.enqueue({ ...part, delta: text });
          return;
        }
        case "text-end": {
          const block = blocks.get(part.id);
          if (!block) return controller.enqueue(part);
          blocks.delete(part.id);
          const end = block.stream.finish();
          const cleaned = block.stream.released + end.text;
          block.stream.free();
          if (end.text) controller.enqueue({ type: "text-delta", id: part.id, delta: end.text });
          const moved = cleaned === block.text ? null : movedCitations(part.citations, block.text.length, cutAsParts(block.text, cleaned, [block.text])[0].at);
          controller.enqueue(moved ? { ...part, citations: moved } : part);
          return;
        }
        case "finish": {
          const answer = parts.filter((p) => p.type === "text-delta").map((p) => p.delta).join("");
          if (!answer) return controller.enqueue(part);
          const report = validate(fromVercelAI(parts, sources), options);
          onReport?.(report);
          controller.enqueue({ ...part, providerMetadata: withReport(part.providerMetadata, report) });
          return;
        }
        default:
          controller.enqueue(part);
      }
    },
    flush() {
      for (const { stream } of blocks.values()) stream.free();
    },
  });
}

/** The part type of citeproof's data part in a UI message stream (`data-` + name). */
const CITATIONS_PART = "data-citations";

/** A source as its card shows it to a browser: title and URL, not its (long) text. */
const cardOf = (source) => ({ ...(source?.title != null ? { title: String(source.title) } : {}), ...(source?.url != null ? { url: String(source.url) } : {}) });

/** `source-url` / `source-document` chunks of a UI message stream as validate's sources. */
const uiSourceOf = (chunk) => ({ id: chunk.sourceId, url: chunk.url, title: chunk.title });

/**
 * A TransformStream over an AI SDK UI message stream (the chunks of
 * `streamText(…).toUIMessageStream()` or `createUIMessageStream`): each text block's
 * deltas pass through a CitationStream and come out cleaned per the policy, never half a
 * marker (what is held back comes with a later delta or before the block's `text-end`).
 * It writes one `data-citations` part (id `"citeproof"`): before the first text block,
 * `{ sources, report: null }` with the sources' cards (title, url), and before `finish`
 * the same part again (`useChat` replaces a data part of the same id) with the report of
 * the whole answer, spans included. Policy `"flag"` unless `options.policy` says
 * otherwise, as in the React components: a UI shows what it flags. No config
 * (`undefined` or `null`) is `{}`.
 */
export function citeproofUIMessageTransform(config) {
  const { sources, options, onReport } = configOf(config);
  if (sources != null && !Array.isArray(sources)) throw error("invalid_option", "sources: expected an array of sources");
  if (options?.renumber) throw error("invalid_option", "options.renumber: not supported by the transform (a streamed label cannot be taken back)");
  if (onReport != null && typeof onReport !== "function") throw error("invalid_option", "onReport: expected a function");
  const settings = { policy: "flag", ...options };
  checkOptions(sources, settings);
  const chunks = []; // every chunk as it came, for the report
  const blocks = new Map(); // text block id → CitationStream
  const declared = [];
  let announced = false;
  let reported = false;
  // Where the current step began (its `start-step` chunk, else the stream's start): a
  // `reset-step` chunk makes the client drop every part the step added, and the report
  // forgets them too.
  let step = { chunks: 0, declared: 0, announced: false };
  const known = () => sources ?? declared;
  const part = (report) => ({ type: CITATIONS_PART, id: "citeproof", data: { sources: known().map(cardOf), report } });
  const report = (controller) => {
    if (reported) return;
    reported = true;
    const answer = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
    if (!answer) return;
    const result = validate(fromVercelAI(chunks, sources), settings);
    onReport?.(result);
    controller.enqueue(part(jsonOf(result)));
  };
  return new TransformStream({
    transform(chunk, controller) {
      chunks.push(chunk);
      switch (chunk?.type) {
        case "start-step":
          step = { chunks: chunks.length, declared: declared.length, announced };
          break;
        case "reset-step":
          chunks.length = step.chunks;
          declared.length = step.declared;
          // The client drops the step's parts (the data-citations part announced in it
          // included) and ends its open text parts.
          announced = step.announced;
          for (const stream of blocks.values()) stream.free();
          blocks.clear();
          break;
        case "source-url":
        case "source-document":
          declared.push(uiSourceOf(chunk));
          break;
        case "text-start": {
          if (!announced) {
            announced = true;
            controller.enqueue(part(null));
          }
          const stream = new CitationStream({ sources: known().slice() }, { ...settings, requireCitations: false });
          stream.withoutRevisions();
          blocks.get(chunk.id)?.free();
          blocks.set(chunk.id, stream);
          break;
        }
        case "text-delta": {
          const stream = blocks.get(chunk.id);
          if (!stream) break;
          const { text } = stream.push(chunk.delta);
          if (text) controller.enqueue({ ...chunk, delta: text });
          return;
        }
        case "text-end": {
          const stream = blocks.get(chunk.id);
          if (!stream) break;
          blocks.delete(chunk.id);
          const { text } = stream.finish();
          stream.free();
          if (text) controller.enqueue({ type: "text-delta", id: chunk.id, delta: text });
          break;
        }
        case "finish":
          report(controller);
          break;
      }
      controller.enqueue(chunk);
    },
    flush(controller) {
      // A stream cut before `finish` (an abort, an error): its blocks end as they stand.
      for (const [id, stream] of blocks) {
        const { text } = stream.finish();
        stream.free();
        if (text) controller.enqueue({ type: "text-delta", id, delta: text });
      }
      blocks.clear();
      report(controller);
    },
  });
}

/**
 * The report citeproof put in an AI SDK result: `generateText`'s result or a `finish`
 * part (`providerMetadata.citeproof.report`), `streamText`'s result (its
 * `providerMetadata` promise: then a promise), or a `useChat` message (its
 * `data-citations` part). `undefined` when there is none (yet).
 */
export function getReport(result) {
  const metadata = result?.providerMetadata;
  if (metadata && typeof metadata.then === "function") return Promise.resolve(metadata).then((m) => m?.citeproof?.report ?? undefined);
  if (metadata?.citeproof?.report) return metadata.citeproof.report;
  if (Array.isArray(result?.parts)) {
    const data = listOf(result.parts, "result.parts").findLast((p) => p?.type === CITATIONS_PART)?.data;
    return data?.report ?? undefined;
  }
  return undefined;
}
