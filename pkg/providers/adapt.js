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
  const json = JSON.parse(jsonText(response, "response", MAX_LIST_ITEMS));
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

