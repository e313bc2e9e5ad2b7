// Types of citeproof/react: <CitedAnswer> and everything of citeproof/react/hooks.
import type { ComponentType, ReactElement } from "react";
import type { Chip, ChipSource, Report, Segment, Source, ValidateOptions } from "citeproof";
import type { CardProps } from "./react-hooks.js";

export * from "./react-hooks.js";

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
  /** Your components in place of the default chip, its card or the sources list. */
  components?: CitedAnswerComponents | null;
  /** The "Sources" list under the answer; default true. */
  sourceList?: boolean;
}

/** What `<CitedAnswer components>` can replace, in the manner of react-markdown. */
export interface CitedAnswerComponents {
  /** A whole chip; `useChip(chip)` gives its behaviour. */
  Chip?: ComponentType<{ chip: Chip }>;
  /** The card of the default chip. */
  Card?: ComponentType<CardProps>;
  /** The list under the answer. */
  SourceList?: ComponentType<{ sources: ChipSource[] }>;
}

/**
 * A markdown answer (GFM, rendered with react-markdown and remark-gfm, which
 * citeproof/react needs) with citation chips and the list of its cited sources: all text
 * escaped, raw HTML not rendered, links only for http(s) URLs (or in-page footnotes),
 * images as links to them (never fetched).
 */
export function CitedAnswer(props: CitedAnswerProps): ReactElement;
