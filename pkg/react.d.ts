// Types of citeproof/react.
import type { ReactElement } from "react";
import type { Chip, CiteEvent, FindingEvent, Report, Segment, Source, StreamInput, ValidateOptions } from "citeproof";

export interface CitedAnswerProps {
  /** A report from `validate`, `CitationStream.finish` or the `citations` event. */
  report?: Report | null;
  /** Segments from `useCitationStream` while the answer streams. */
  segments?: Segment[];
  /** An answer to validate here (with `sources` and `options`). */
  answer?: string;
  /** The retrieved sources: chip cards get titles, links and located quotes. */
  sources?: Source[];
  /**
   * How `answer` is validated here. Default `{ policy: "flag" }` (unlike `validate`'s
   * `"clean"`): a marker that names no source stays as an invalid chip whose card says
   * why, rather than disappearing. Pass `{ policy: "clean" }` to remove such markers.
   */
  options?: ValidateOptions;
  className?: string;
}

/** A markdown answer with citation chips; all text escaped, links only for http(s) URLs. */
export function CitedAnswer(props: CitedAnswerProps): ReactElement;

/** A citation chip with its hover/focus/click card. */
export function CitationChip(props: { chip: Chip; className?: string }): ReactElement;

export interface CitationStreamState {
  /** The cleaned text released so far (never half a marker). */
  text: string;
  /** `text` cut into text and chips; the report's segments once done. */
  segments: Segment[];
  chips: CiteEvent[];
  findings: FindingEvent[];
  report: Report | null;
  done: boolean;
  error: Error | null;
}

/** Streams a plain-text answer (a Response, a ReadableStream or an async iterable of text). */
export function useCitationStream(
  source: Response | ReadableStream<Uint8Array | string> | AsyncIterable<string> | null | undefined,
  config?: { input?: StreamInput; options?: ValidateOptions },
): CitationStreamState;
