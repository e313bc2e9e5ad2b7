// citeproof/ai: a language-model middleware for the Vercel AI SDK's `wrapLanguageModel`
// (`ai` 7). Typed on its own (no import of the SDK's types): an object of the SDK's
// middleware specification v4, which `wrapLanguageModel` takes.
import type { Report, Source, ValidateOptions } from "citeproof";

export interface CiteproofMiddlewareConfig {
  /**
   * The sources the app retrieved and gave the model, labelled by position from 1.
   * Without them, the sources the response declares (`source` parts) are the ones cited.
   */
  sources?: Source[];
  /** As for `validate`; `renumber` is refused (it would move the provider's citation offsets). */
  options?: Omit<ValidateOptions, "renumber"> & { renumber?: never };
  /** Called with the report of each answer (also in `providerMetadata.citeproof.report`). */
  onReport?: (report: Report) => void;
}

/** The middleware: the AI SDK's `LanguageModelMiddleware` (specification v4). */
export interface CiteproofMiddleware {
  readonly specificationVersion: "v4";
  wrapGenerate(options: { doGenerate: () => PromiseLike<any> }): PromiseLike<any>;
  wrapStream(options: { doStream: () => PromiseLike<any> }): PromiseLike<any>;
}

/**
 * Validates what the wrapped model generates or streams: text parts come out cleaned per
 * `options.policy` (streamed text never holds half a marker, and is never taken back),
 * and the report is in `providerMetadata.citeproof.report` (`generateText`'s result, the
 * `finish` part of `streamText`, `await result.providerMetadata`). Throws an `Error`
 * with `code` `invalid_option` for bad configuration.
 */
export function citeproofMiddleware(config?: CiteproofMiddlewareConfig): CiteproofMiddleware;
