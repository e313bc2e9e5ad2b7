/** The unit of every span the JS API returns. `utf16` (default) is a JS string index. */
export type OffsetUnit = "utf16" | "utf8" | "codepoint";

/** A half-open range `[start, end)` in the answer, in the requested unit. */
export interface Span {
  start: number;
  end: number;
}

/** The written form of a marker. */
export type MarkerKind =
  | "numeric"
  | "footnote"
  | "cjk"
  | "provider"
  | "labeled"
  | "link"
  | "parenthetical"
  | "section"
  | "named"
  | "custom"
  /** OpenAI's private-use-area token `\uE200cite\uE202turn0search0\uE201`; refs are its source ids. */
  | "private_use";

/**
 * A citation marker found in a text. With UTF-16 offsets, `text.slice(span.start,
 * span.end) === raw`, except that a lone surrogate in the text reads as U+FFFD in `raw`
 * and in the refs (the text is read as UTF-8).
 */
export interface Marker {
  span: Span;
  /**
   * What the parser read, in written order: source labels as numbers (`[1, 2]`, to
   * compare with a source's `index`) or source ids as strings (`[doc4]`, private-use
   * tokens). A chip's `Segment.refs` are strings instead: labels as the chip shows them.
   */
  refs: number[] | string[];
  kind: MarkerKind;
  raw: string;
  /** For `kind: "section"` (`Chapter X, Section N`): the chapter as written. */
  chapter?: string;
  /** For `kind: "section"`: the section number. */
  section?: number;
}

/** Options of `parseCitations` and `new CitationParser`. */
export interface ParseOptions {
  /** Unit of returned spans; default `"utf16"`. */
  offsets?: OffsetUnit;
  /** Extra marker regexes (regex-lite syntax), each with a named group `refs`. */
  markerPatterns?: string[];
  /** Ids that `[id]` may name. */
  sourceIds?: string[];
  /** Retrieved sources; their `id`s are added to `sourceIds`. */
  sources?: { id?: string }[];
}

/**
 * Stable codes of the `Error`s citeproof throws: unusable arguments, and two that should
 * never happen but are handled (node and web builds): `internal_error` — the module
 * trapped; the instance was recreated and the next call works — and `stale_instance` —
 * an object (stream, validator, parser) made before that recreation was used.
 */
export type CiteproofErrorCode =
  | "invalid_input"
  | "too_large"
  | "invalid_option"
  | "unknown_provider_format"
  | "internal_error"
  | "stale_instance";

/**
 * The `Error` citeproof throws: the message starts with the field path. A list longer
 * than its limit (`maxSources`; 100 `markerPatterns`; 1,000,000 items for any other
 * list) is `too_large` before any item is read; a revoked `Proxy` anywhere is
 * `invalid_input` (`invalid_option` within options).
 */
export interface CiteproofError extends Error {
  code: CiteproofErrorCode;
}

/** A retrieved source. Every field also accepts its snake_case spelling. */
export interface Source {
  /** 1-based label shown in the prompt; default position + 1. */
  index?: number;
  id?: string;
  docId?: string;
  chunkId?: string;
  title?: string;
  url?: string;
  slug?: string;
  payloadId?: string;
  chunkType?: string;
  /**
   * The retrieved text (also `content`, `excerpt`, `page_content`). An Anthropic
   * `search_result` block is a source too: its `source` is read as `url` (an http(s)
   * one) or else `id`, its `content` text blocks joined by `"\n\n"`.
   */
  text?: string | null;
  /** Spec 000's `chapter_id`. */
  chapter?: string | number;
  /** Spec 000's `section_number`. */
  section?: number;
  /** 0–1 (spec 000's `relevance_score`). */
  relevance?: number;
  /** Line number of the first line of `text` (spec 001); default 1. */
  firstLine?: number;
}

/** A citation the model declared in structured output (specs 002–004). */
export interface DeclaredCitation {
  /** A source label (number) or an id / chunk id / doc id / title (string). */
  source?: number | string;
  docId?: string;
  chunkId?: string;
  /** Also `snippet` (spec 003) and `cited_text`. */
  quote?: string;
  /** `[first, last]` or `"first-last"` (spec 001). */
  lineRange?: [number, number] | string;
  evidenceIdx?: number;
  alignmentScore?: number;
  spanInAnswer?: string;
  relevance?: number;
  claim?: string;
  /** Where in the answer the citation applies (provider adapters set it), in the
   * `offsets` unit of the call that reads it. */
  span?: Span;
  [snakeCase: string]: unknown;
}

/** One answer to validate (docs/architecture.md §4). */
export interface Input {
  answer: string;
  sources?: Source[];
  citations?: DeclaredCitation[] | number[];
  question?: string;
  mode?: "answer" | "clarify" | "refuse";
  requestId?: string;
  sessionId?: string;
  responseId?: string;
  modelVersion?: string;
  topK?: number;
  /** Set by a provider adapter: which one made this input. */
  provider?: "anthropic" | "openai" | "gemini" | "cohere" | "perplexity" | "vercel-ai";
  /** Set by a provider adapter: offsets it had to correct or could not place
   * (`offset_mismatch`), parts of the response of types it does not know
   * (`unknown_content`); `validate` copies them into the report's findings. */
  warnings?: Finding[];
}

/** Options of the provider adapters (`fromAnthropic` … `fromAny`). */
export interface AdapterOptions {
  /** Unit of the returned spans; pass the same to `validate`. Default `"utf16"`. */
  offsets?: OffsetUnit;
}

/** A cited claim and a source's text, as `validateAsync` hands them to `judge`. */
export interface JudgePair {
  claim: string;
  passage: string;
  /** The source's label (1-based, as `CitationResult.sourceIndex`). */
  sourceIndex: number;
}

/**
 * `validateAsync`'s models: `embed`, `judge` or both. In a claim's support a cosine
 * counts as much as the lexical score, a judge's probability twice as much.
 */
export interface SupportHooks {
  /** One vector per text: the cited claims first, then every source's text. */
  embed?: (texts: string[]) => Promise<ArrayLike<number>[]> | ArrayLike<number>[];
  /**
   * Every pair of a cited claim and a source with text, at once; one probability (0–1)
   * that the passage supports the claim per pair, in order.
   */
  judge?: (pairs: JudgePair[]) => Promise<ArrayLike<number>> | ArrayLike<number>;
}

// <generated by scripts/gen-schema.mjs from wasm/js/schema.mjs: edit those, not this>
/** Stable finding codes (docs/architecture.md §5), from `FindingCode::name`. */
export type FindingCode =
  | "out_of_range" | "zero_index" | "unknown_source" | "duplicate_marker"
  | "not_declared" | "declared_unused" | "missing_field" | "invalid_field"
  | "evidence_idx_out_of_range" | "low_alignment" | "span_not_in_answer"
  | "quote_not_found" | "quote_approximate" | "quote_length" | "line_range_invalid"
  | "line_range_mismatch" | "unsupported_claim" | "misattributed" | "uncited_claim"
  | "no_citations" | "invalid_mode" | "request_invalid" | "offset_mismatch"
  | "unknown_content" | "source_text_differs";

/** Options of `validate` / `new CitationValidator`; every field has a default. */
export interface ValidateOptions {
  /** The unit of every span in and out. Default: `"utf16"`. */
  offsets?: OffsetUnit;
  /** Default: `"clean"`. */
  policy?: "flag" | "clean" | "strict";
  /** Default: `false`. */
  renumber?: boolean;
  /** Default: `true`. */
  requireCitations?: boolean;
  /** Default: `0.3`. From 0 to 1. */
  maxInvalidRatio?: number;
  /** Default: `0.3`. From 0 to 1. */
  lowAlignment?: number;
  /** Default: `0.4`. From 0 to 1. */
  minAvgAlignment?: number;
  /** Default: `0.5`. From 0 to 1. */
  minCoverage?: number;
  /** Default: `0.8`. From 0 to 1. */
  minEvidenceIdxRatio?: number;
  /** Default: `0.1`. From 0 to 1. */
  maxEditRatio?: number;
  /** Default: `0.7`. From 0 to 1. */
  uncertainBelow?: number;
  /** Default: `50`. */
  partialSpanChars?: number;
  /**
   * Longer answers are `too_large`; one of more than twice this many UTF-16 units is
   * refused before it is copied. Default: 1,000,000.
   */
  maxAnswerChars?: number;
  /**
   * More sources are `too_large`, refused before any is read. At most 1,000,000.
   * Default: 10,000.
   */
  maxSources?: number;
  /** Extra marker regexes, each with a `refs` group; at most 100. Default: `[]`. */
  markerPatterns?: string[];
  /**
   * Turns on the opt-in support findings: cited claims scoring below it are
   * `unsupported_claim`, uncited sentences are `uncited_claim`. At 0.5, 8.8 % of the
   * citations experts judged fully supported (ExpertQA) score below it. Default: off
   * (docs/support.md says why). From 0 to 1.
   */
  supportThreshold?: number;
  /** A marker ending a paragraph covers its uncited sentences. Default: `true`. */
  paragraphCitations?: boolean;
  /**
   * How much better another retrieved source must support a cited claim for
   * `misattributed` ("did you mean [4]?"); `false` turns the check (and support scoring
   * when `supportThreshold` is unset) off. Opt-in: held out, no margin flags ≤ 2 % of
   * fully supported citations and catches ≥ 80 % of moved ones on every dataset
   * (docs/support.md); 0.25 flags 1.3 % and catches 73 % on ExpertQA. Default: `false`.
   * From 0 to 1.
   */
  misattributionMargin?: number | false;
  /** `[min, max]` characters; unset: no length check. */
  quoteLength?: [number, number];
}

/** The result of `validate` (docs/architecture.md §6). */
export interface Report {
  status: "pass" | "warn" | "fail";
  confidence: number;
  uncertain: boolean;
  uncertaintyNote?: string;
  cleanedAnswer: string;
  markers: Marker[];
  citations: CitationResult[];
  findings: Finding[];
  summary: Summary;
  segments: Segment[];
  timingMs: number;
}
export interface CitationResult {
  label: string;
  /** The resolved source's label (its `index`, or its position + 1). */
  sourceIndex?: number;
  /**
   * The resolved source's position in `input.sources`: where a renderer finds it,
   * whatever its label and however the answer was renumbered.
   */
  sourcePosition?: number;
  sourceId?: string;
  /** Index into `report.markers`. */
  marker?: number;
  span?: Span;
  /** Index into `input.citations`. */
  declared?: number;
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
  qualityScore: number;
  quote?: QuoteLocation;
  /**
   * The quote as the citation states it (a provider's `cited_text`, a declared
   * `quote`).
   */
  quoteText?: string;
  /**
   * Claim-support score in 0–1, when scored (by default whenever the source has text).
   */
  support?: number;
  /** The claim (sentence) the citation belongs to, in the answer. */
  claim?: Span;
  /**
   * The cited source's sentence that best supports the claim, with its span in the
   * source's `text`: what a citation card shows when no quote was declared.
   */
  evidence?: Evidence;
}
export interface QuoteLocation {
  /** In the cited source's `text`. */
  span?: Span;
  distance?: number;
  /**
   * `unverified`: the cited source has no text to look for the quote in (no finding).
   */
  match: "exact" | "normalized" | "approximate" | "none" | "unverified";
}
/** A sentence of a source and where it sits in the source's `text`. */
export interface Evidence {
  span: Span;
  text: string;
}
export interface Finding {
  code: FindingCode;
  severity: "error" | "warning";
  message: string;
  /** Index into `report.citations`. */
  citation?: number;
  span?: Span;
}
export interface Summary {
  total: number;
  valid: number;
  invalid: number;
  avgAlignment: number | null;
  citationCoverage: number;
  hasEvidenceIdx: number;
  hasAlignmentScore: number;
  hasSpan: number;
  hallucinations: number;
  uncitedClaims: number;
}
// </generated>





export type Segment =
  | { type: "text"; text: string }
  | {
      type: "cite";
      /** The marker as it stands in the cleaned answer. */
      label: string;
      /**
       * The labels the chip shows, as text (`["1", "2"]`, `["tokyo-tower"]`; renumbered
       * ones after `renumber`): one field for number labels and ids alike, so strings.
       * `Marker.refs` keeps what the parser read (numbers or ids).
       */
      refs: string[];
      sourceIndex?: number;
      /** For each of `refs`, its source's position in `input.sources` (null: not retrieved). */
      sourcePositions: (number | null)[];
      title?: string;
      url?: string;
      valid: boolean;
    };


/** The input of `new CitationStream`: as for `validate`, the answer arrives by `push`. */
export type StreamInput = Omit<Input, "answer"> & { answer?: string };

/** A chip released by a push: `span` indexes the text released so far, `answerSpan` the answer. */
export interface CiteEvent {
  type: "cite";
  segment: Extract<Segment, { type: "cite" }>;
  span: Span;
  answerSpan: Span;
}

/** A marker that points nowhere, found in the released text (its span indexes the answer). */
export type FindingEvent = { type: "finding" } & Finding;

/**
 * Text released before changed (issue 21): a marker released while a later definition
 * or closer could still change it (it was 256 bytes behind the end) was decided
 * otherwise. Replace the shown text from `span.start` to its end (`span.end`) with
 * `text`; chips from `span.start` and findings from `answerStart` (an answer index) on
 * are void and are sent again after this event.
 */
export interface ReviseEvent {
  type: "revise";
  span: Span;
  text: string;
  answerStart: number;
}

export type StreamEvent = CiteEvent | FindingEvent | ReviseEvent;

/** What `CitationStream.push` returns. */
export interface StreamChunk {
  /** Cleaned text to append to what is shown (after applying a `revise` event first). */
  text: string;
  events: StreamEvent[];
}

/** What `CitationStream.held` tells about the last push, as answer indices. */
export interface StreamHeld {
  /** The answer is released (or, for removed markers, settled) up to here. */
  releasedThrough: number;
  /** Where the construct still being written starts; `null` when there is none. */
  undecidedFrom: number | null;
}

/** What `CitationStream.finish` returns. */
export interface StreamEnd {
  /** The rest of the cleaned answer (after `revise`, when present). */
  text: string;
  /** A last revision, as a `revise` event reads; not expected in practice. */
  revise?: ReviseEvent;
  /** The report for the whole answer, as `validate` gives it. */
  report: Report;
}

/** Options of `citeproofTransform`: those of `validate`, and the body format. */
export interface TransformOptions extends ValidateOptions {
  /**
   * `"auto"` (default) detects OpenAI / Anthropic SSE, the AI SDK's UI message stream SSE
   * (`"ai-sdk"`: what a `useChat` route returns), NDJSON or plain text from the first bytes.
   */
  format?: "auto" | "text" | "openai" | "anthropic" | "ai-sdk" | "ndjson";
}

/** The payload of the final `citations` event: spec 002's fields plus the whole report. */
export interface CitationsEvent {
  status: "citations";
  citations: { index: number; title: string; url: string | null; slug: string | null }[];
  isComplete: true;
  report: Report;
}

/** What `citeproofTransform` returns: pipe a response body through it. */
export interface CiteproofTransform extends TransformStream<Uint8Array | string, Uint8Array | string> {
  /** The report of the whole answer, once the stream has ended. */
  report: Promise<Report>;
  /** The whole answer as it came in (what the report's spans index), once ended. */
  answer: string | null;
  /** SSE streams: each event's data as received, for `fromAnthropic(events, sources)` or
   * `fromOpenAI(events, sources)` once the stream has ended. */
  events: object[];
  /**
   * What the body was read as, once its first bytes told (`"sse"`: SSE of no known
   * format, whose events pass unread); `null` before.
   */
  readonly format: "text" | "openai" | "anthropic" | "ai-sdk" | "ndjson" | "sse" | null;
  /**
   * Called with each push's cleaned text and stream events, and at the end with the
   * end's (and the report): the body's text as `useCitationStream` reads it.
   */
  onChunk: ((chunk: StreamChunk & { report?: Report }) => void) | null;
}

/**
 * A `TransformStream` that cleans the text of a streamed response body (plain text,
 * OpenAI or Anthropic SSE, NDJSON; `options.format`, detected by default) as it
 * passes and ends it with a `citations` event; its `report` promise resolves to the
 * report of the whole answer.
 */
export function citeproofTransform(input: StreamInput, options?: TransformOptions | null): CiteproofTransform;

/** Options of `renderHtml` / `citationTree`. */
export interface RenderOptions {
  /**
   * The retrieved sources: chips get their titles, links and located quotes. The list
   * given to `validate` (or the stream), in the same order: a card takes the source at
   * the position the report names (`sourcePositions`), so a report must come from this
   * version of citeproof.
   */
  sources?: Source[];
}

// The renderers are plain JS (render.js), exported by the package's entries next to the
// binding's exports; declared here with them.

/**
 * The report's cleaned answer as HTML with citation chips: a markdown subset
 * (paragraphs, headings, lists, quotes, code, emphasis, links), every text escaped,
 * links only for `http:` / `https:` URLs. `options.sources` adds titles and links.
 * Needs no dependency; `citeproof/markdown` has a `renderHtml` for the whole of GFM
 * (tables included) on the remark stack.
 * Throws `too_large` for a list of more than a million items and
 * `invalid_input` / `invalid_option` for a revoked Proxy.
 */
export function renderHtml(report: Report | { segments: Segment[] }, options: RenderOptions | undefined): string;

/**
 * The render tree `renderHtml` and the React components draw: blocks, inline nodes
 * and chips with their cards (title, safe link, located quote, validity). Throws as
 * `renderHtml` does.
 */
export function citationTree(report: Report | { segments: Segment[] }, options?: RenderOptions | null): Block[];

/**
 * The chip of each `cite` segment of a report (or of a stream's `{ segments }`), in
 * order: badge, validity, why not, and each cited source's card (title, safe link,
 * located quote, evidence). For renderers that place chips themselves, as
 * `citeproof/remark` does. Throws as `renderHtml` does.
 */
export function citationChips(report: Report | { segments: Segment[] }, options?: RenderOptions | null): Chip[];

/** One source on a chip's card. `href` is set only for http(s) URLs. */
export interface ChipSource {
  label: string;
  found: boolean;
  title: string;
  href: string | null;
  host: string | null;
  quote: string | null;
  /** Whether `quote` was found in the source's text (false: shown as the provider stated it). */
  quoteChecked: boolean;
  /** The source's sentence that best supports the chip's claim (`CitationResult.evidence`), or null. */
  evidence: string | null;
}

/** A citation chip: what it shows, whether it checked out, and why not. */
export interface Chip {
  /** The marker as it stands in the cleaned answer (`"[1]"`, `"[1, 2]"`). */
  label: string;
  /** What the chip shows: `"1"`, `"1, 2"`, `"1, 2, 3"`; a longer group `"1, 2 +3 more"`. */
  badge: string;
  /** Every source it cites was retrieved. */
  valid: boolean;
  /**
   * Why an invalid chip is invalid, a sentence for a reader ("Cites [9], which was not
   * among the retrieved sources."); null when `valid`. Show it in a custom chip's invalid
   * state.
   */
  reason: string | null;
  /** One card per cited source, in the marker's order. */
  sources: ChipSource[];
}

export type Inline =
  | { type: "text"; text: string }
  | { type: "break" }
  | { type: "code"; text: string }
  | { type: "strong" | "em" | "span"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "chip"; chip: Chip };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; level: number; children: Inline[] }
  | { type: "list"; ordered: boolean; items: Inline[][] }
  | { type: "quote"; children: Block[] }
  | { type: "code"; lang: string | null; text: string };

/** Spec 001's rejection response. */
export interface RejectionResponse {
  status: "rejected";
  reason: string;
  suggestion: string;
  partial_response: string;
  audit_id: string;
}

/** What `auditRecord` needs besides the report. */
export interface AuditContext {
  /** The validated input: query, session/response ids, claims and source ids come from it. */
  input?: Input;
  /** Default: `crypto.randomUUID()`. */
  auditId?: string;
  /** ISO 8601; default: now. */
  timestamp?: string;
  /** The `offsets` unit the report was made with; default `"utf16"`. */
  offsets?: OffsetUnit;
}

/** Spec 001's audit log record (snake_case), plus spec 003's retrieval ids. */
export interface AuditRecord {
  audit_id: string;
  timestamp: string;
  session_id: string | null;
  query: string | null;
  response_id: string | null;
  validation_result: {
    status: "PASS" | "REVIEW" | "REJECT";
    citations_validated: number;
    citations_failed: number;
    hallucinations_detected: number;
    confidence_score: number;
  };
  citations: {
    claim: string | null;
    source: string;
    line_range: string | null;
    validation_status: "VALID" | "INVALID";
    semantic_score: number | null;
  }[];
  processing_time_ms: number;
  model_version: string | null;
  retrieval: { top_k: number | null; retrieved_ids: string[]; cited_ids: string[] };
}

/** The result of `validateBatch`. */
export interface BatchResult {
  reports: Report[];
  summary: { total: number; pass: number; warn: number; fail: number; hallucinations: number };
  status: "pass" | "warn" | "fail";
}
