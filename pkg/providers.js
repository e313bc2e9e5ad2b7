// citeproof/providers: the provider adapters, in plain JS in every runtime
// (docs/architecture.md §9). An adapter maps a provider's JSON to an `Input`: no wasm
// is needed for that, so an app that imports this entry loads no module besides the one
// `citeproof` already gives it. The crate's Rust adapters (src/providers/) read the same
// shapes for Rust callers and the CLI; tests/js/providers-differential.test.mjs holds the
// two to the same `Input`s, reports and errors on every recording.
import { MAX_LIST_ITEMS, TYPE_ARRAY, TYPE_OBJECT, jsonText, typeCode, unknownField } from "./providers/untrusted.js";
import { Builder, coded } from "./providers/response.js";
import * as anthropic from "./providers/anthropic.js";
import * as bedrock from "./providers/bedrock.js";
import * as cohere from "./providers/cohere.js";
import * as gemini from "./providers/gemini.js";
import * as openai from "./providers/openai.js";
import * as perplexity from "./providers/perplexity.js";
import * as vercelAi from "./providers/vercel-ai.js";

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

/** Runs `name`'s adapter (or detects it) on `response`: the arguments read as the wasm adapters read them. */
function adapt(name, response, sources, options) {
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
  const out = new Builder(sources && [...sources]);
  found[1].read(json, out);
  return out.finish(found[0], unit);
}

/** An Anthropic Messages response, or the list of its stream events, as an `Input`. */
export const fromAnthropic = (response, sources, options) => adapt("anthropic", response, sources, options);
/** An OpenAI Chat Completions response or chunk list, a Responses response or its stream events, or an Assistants message, as an `Input`. */
export const fromOpenAI = (response, sources, options) => adapt("openai", response, sources, options);
/** A Gemini `generateContent` response, or the `streamGenerateContent` chunks (also the Interactions API), as an `Input`. */
export const fromGemini = (response, sources, options) => adapt("gemini", response, sources, options);
/** A Cohere v2 chat response, or the list of its stream events, as an `Input`. */
export const fromCohere = (response, sources, options) => adapt("cohere", response, sources, options);
/** A Perplexity chat completion, or its stream chunks, as an `Input`. */
export const fromPerplexity = (response, sources, options) => adapt("perplexity", response, sources, options);
/** A Vercel AI SDK result, UI message, or the parts of a stream, as an `Input`. */
export const fromVercelAI = (response, sources, options) => adapt("vercel-ai", response, sources, options);
/** An Amazon Bedrock Converse response, or the list of its ConverseStream events, as an `Input`. */
export const fromBedrock = (response, sources, options) => adapt("bedrock", response, sources, options);
/** Any of the above, detected by shape; an unknown shape throws `unknown_provider_format`. */
export const fromAny = (response, sources, options) => adapt(undefined, response, sources, options);
