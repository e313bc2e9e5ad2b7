// citeproof/providers: the provider adapters, in plain JS in every runtime
// (docs/architecture.md §9). An adapter maps a provider's JSON to an `Input`: no wasm
// is needed for that, so an app that imports this entry loads no module besides the one
// `citeproof` already gives it. The crate's Rust adapters (src/providers/) read the same
// shapes for Rust callers and the CLI; tests/js/providers-differential.test.mjs holds the
// two to the same `Input`s, reports and errors on every recording.
import { parseCitations } from "citeproof";
import { adapt as adaptWith } from "./providers/adapt.js";

/** `adapt` with the marker parser of the module `citeproof` gives. */
const adapt = (name, response, sources, options) => adaptWith(name, response, sources, options, parseCitations);

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
