// citeproof/ai: a language-model middleware for the Vercel AI SDK's `wrapLanguageModel`
// (`ai` 7). Typed on its own (no import of the SDK's types): an object of the SDK's
// middleware specification v4, which `wrapLanguageModel` takes.
import type { Report, Source, StreamOptions, ValidateOptions } from "citeproof";

export interface CiteproofMiddlewareConfig {
  /**
   * The sources the app retrieved and gave the model, labelled by position from 1.
   * Without them, the sources the response declares (`source` parts) are the ones cited.
   */
  sources?: Source[];
  /**
   * As for `validate`; `renumber` is refused (it would move the provider's citation
   * offsets). `markerPatterns` work for `generateText`; a streamed answer goes through a
   * `CitationStream`, which refuses them (`invalid_option`).
   */
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
 * `finish` part of `streamText`, `await result.providerMetadata`). No config
 * (`undefined` or `null`) is `{}`. Throws an `Error` with `code` `invalid_option` for bad
 * configuration.
 */
export function citeproofMiddleware(config?: CiteproofMiddlewareConfig | null): CiteproofMiddleware;

/** A source as the `data-citations` part carries it to the browser: its card, not its text. */
export interface SourceCard {
  title?: string;
  url?: string;
}

/**
 * The data of citeproof's `data-citations` part (id `"citeproof"`): the sources' cards
 * before the first text block (`report: null`), then again with the report at the end.
 */
export interface CitationsData {
  sources: SourceCard[];
  report: Report | null;
}

/**
 * The `data-citations` part as `useChat` types it: add it to your UI message's data
 * types (`UIMessage<unknown, { citations: CitationsData }>`) to have it typed.
 */
export interface CitationsDataPart {
  type: "data-citations";
  id?: string;
  data: CitationsData;
}

export interface CiteproofUIMessageTransformConfig extends CiteproofMiddlewareConfig {
  /**
   * As for `validate`; the policy defaults to `"flag"` (as in the React components).
   * `renumber` and `markerPatterns` are refused.
   */
  options?: Omit<StreamOptions, "renumber"> & { renumber?: never };
}

/**
 * A TransformStream over an AI SDK UI message stream (`streamText(…).toUIMessageStream()`,
 * `createUIMessageStream`): text deltas come out cleaned per the policy, never half a
 * marker, and a `data-citations` part carries the sources' cards, then the report.
 * Its chunks are typed loosely (`{ type: string }`) so that any `UIMessage` type goes
 * through. No config (`undefined` or `null`) is `{}`. Throws an `Error` with `code`
 * `invalid_option` for bad configuration.
 */
export function citeproofUIMessageTransform<CHUNK extends { type: string }>(
  config?: CiteproofUIMessageTransformConfig | null,
): TransformStream<CHUNK, CHUNK>;

/** Where `getReport` finds the report: an AI SDK result, a `finish` part or a UI message. */
export type WithProviderMetadata = { providerMetadata?: unknown };

/**
 * The report citeproof put in a result: `streamText`'s result (whose `providerMetadata`
 * is a promise) gives a promise; `generateText`'s result, a `finish` part or a `useChat`
 * message (its `data-citations` part) give the report. `undefined` when there is none.
 */
export function getReport(result: { providerMetadata: PromiseLike<unknown> }): Promise<Report | undefined>;
export function getReport(result: WithProviderMetadata | { parts: readonly { type: string }[] }): Report | undefined;
