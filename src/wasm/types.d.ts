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
  | "custom";

/** A citation marker found in a text. `text.slice(span.start, span.end) === raw`. */
export interface Marker {
  span: Span;
  /** Source labels (numbers) or source ids (strings), in written order. */
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

/** Stable codes of the `Error`s citeproof throws for unusable arguments. */
export type CiteproofErrorCode = "invalid_input" | "too_large" | "invalid_option";

/** The `Error` citeproof throws: the message starts with the field path. */
export interface CiteproofError extends Error {
  code: CiteproofErrorCode;
}
