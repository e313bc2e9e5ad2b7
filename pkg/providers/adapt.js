// The provider adapters' dispatch: reads the arguments as the wasm adapters read them,
// finds the adapter (or the one `fromAny` detects) and builds the `Input`. Imports no
// wasm module: `citeproof/providers` (providers.js) passes the `parseCitations` of the
// module `citeproof` gives, and the browser entries' `CitationStream` (stream.js beside
// their glue) passes its own module's, so reading a stream's events loads no second one.
import { MAX_LIST_ITEMS, TYPE_ARRAY, TYPE_OBJECT, jsonText, typeCode, unknownField } from "./untrusted.js";
import { Builder, coded } from "./response.js";
import * as anthropic from "./anthropic.js";
import * as bedrock from "./bedrock.js";
import * as cohere from "./cohere.js";
import * as gemini from "./gemini.js";
import * as openai from "./openai.js";
import * as perplexity from "./perplexity.js";
import * as vercelAi from "./vercel-ai.js";

/** The adapters by the name an `Input` reports, in the order `fromAny` tries them. */
const ADAPTERS = [
  ["anthropic", anthropic],
  ["bedrock", bedrock],
  ["gemini", gemini],
  ["cohere", cohere],
  ["perplexity", perplexity],
  ["openai", openai],
  ["vercel-ai", vercelAi],
];

/** The deepest a value may sit in arrays and objects (src/providers/json.rs, `MAX_DEPTH`). */
const MAX_DEPTH = 256;

/** UTF-8 bytes of the UTF-16 unit at `i` of `text` (a pair counts 4 at its first unit, 0 at its second). */
function utf8Bytes(text, i) {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) return 0;
  if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) return 4;
  return 3; // a lone surrogate reads as U+FFFD
}

/**
 * The error the Rust adapters' JSON reader gives `text` (`JSON.stringify`'s output, no
 * white space) when a value sits in more than `MAX_DEPTH` arrays and objects: the same
 * code, path and byte offset (that of the first such value); undefined when none does.
 * One pass over the text.
 */
export function nestingError(text) {
  const objects = []; // per open container: whether it is an object
  let bytes = 0; // UTF-8 bytes of text before `i`
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // A string (a key or a value): to its closing quote, escapes skipped.
      for (bytes++, i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\") bytes++, i++;
        bytes += utf8Bytes(text, i);
      }
      bytes++;
      continue;
    }
    bytes += utf8Bytes(text, i);
    if (c === "{" || c === "[") objects.push(c === "{");
    else if (c === "}" || c === "]") objects.pop();
    // Where a value starts: an array's first item or next one, an object's value.
    const starts = c === ":" || (c === "," && !objects.at(-1)) || (c === "[" && text[i + 1] !== "]");
    if (starts && objects.length > MAX_DEPTH) {
      return coded("invalid_input", "response", `not valid JSON at byte ${bytes}: nested too deeply`);
    }
  }
  return undefined;
}

/** The type names of errors (wasm/src/wire/from_js/read.rs, `TYPES`, indexed by `typeCode`). */
const TYPES = ["string", "number", "boolean", "array", "null", "undefined", "object", "other value", "revoked Proxy"];

/** `value` as error messages show it: its type, and a string's (first 40 characters) or number's value. */
function shown(value) {
  const kind = TYPES[typeCode(value)];
  if (typeof value === "string") {
    const chars = [...value];
    return `${kind} "${chars.slice(0, 40).join("")}"${chars.length > 40 ? "…" : ""}`;
  }
  if (typeof value === "number") return `${kind} ${value}`;
  if (typeof value === "boolean") return `${kind} ${value}`;
  return kind;
}

/**
 * Runs `name`'s adapter (or detects it, `undefined`) on `response`: the arguments read as
 * the wasm adapters read them. `parseCitations`: the marker parser of the module the
 * caller loads (the Vercel AI SDK's adapter asks whether an answer has markers).
 */
export function adapt(name, response, sources, options, parseCitations) {
  if (response === null || typeof response !== "object") {
    throw coded("invalid_input", "response", "expected a provider response object (or an array of stream events)");
  }
  if (sources !== undefined && sources !== null) {
    if (typeCode(sources) !== TYPE_ARRAY) throw coded("invalid_input", "sources", `expected an array of sources, got ${TYPES[typeCode(sources)]}`);
  } else sources = undefined;
  let unit = "utf16";
  if (options !== undefined && options !== null) {
    if (typeCode(options) !== TYPE_OBJECT) throw coded("invalid_option", "options", `expected an object, got ${TYPES[typeCode(options)]}`);
    const offsets = options.offsets;
    if (offsets !== undefined && offsets !== null) {
      if (!["utf16", "utf8", "codepoint"].includes(offsets)) {
        throw coded("invalid_option", "options.offsets", `expected "utf16", "utf8" or "codepoint", got ${shown(offsets)}`);
      }
      unit = offsets;
    }
    const unknown = unknownField(options, "offsets,", "options");
    if (unknown) throw unknown;
  }
  // Through JSON, as the wasm adapters take it: toJSON, getters and dropped undefineds
  // read the same, and an over-long list is refused before it is walked.
  const text = jsonText(response, "response", MAX_LIST_ITEMS);
  const deep = nestingError(text);
  if (deep) throw deep;
  const json = JSON.parse(text);
  const found = name === undefined ? ADAPTERS.find(([, adapter]) => adapter.recognizes(json)) : ADAPTERS.find(([n]) => n === name);
  if (!found) {
    throw coded(
      "unknown_provider_format",
      "response",
      "not a response of Anthropic, OpenAI, Gemini, Cohere, Perplexity, Amazon Bedrock or the Vercel AI SDK",
    );
  }
  const out = new Builder(sources && [...sources], parseCitations);
  found[1].read(json, out);
  return out.finish(found[0], unit);
}

