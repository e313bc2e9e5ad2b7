// Types of citeproof/react/hooks (and of citeproof/react, which adds <CitedAnswer>).
import type { ComponentType, ReactElement, ReactNode, RefObject } from "react";
import type remarkCiteproof from "citeproof/remark";
import type { RemarkCiteproofOptions } from "citeproof/remark";
import type { Block, Chip, ChipSource, CiteEvent, FindingEvent, Report, Segment, Source, StreamInput, StreamOptions, TransformOptions } from "citeproof";

/** What the default chip gives its `Card`. */
export interface CardProps {
  chip: Chip;
  /** The source shown (a group's chip pages through its sources). */
  source: ChipSource | undefined;
  page: number;
  count: number;
  setPage(page: number): void;
  /** Spread on the card's root: `id`, `role="dialog"`, `aria-label`. */
  cardProps: Record<string, unknown>;
}

export type { Chip, ChipSource };

/** The props of `CitationChip`. */
export interface CitationChipProps {
  /** The chip to show (from `useCitations`, `citationChips` or a `chipOf(node)`). */
  chip?: Chip | null;
  /**
   * The hast node react-markdown and Streamdown give a `sup` component: with
   * `components={{ sup: CitationChip }}` the chip is taken from the `<sup>` that
   * citeproof/remark made, and any other `<sup>` renders as it was.
   */
  node?: unknown;
  className?: string;
  /** Replaces the default card. */
  Card?: ComponentType<CardProps>;
  /** A plain `<sup>`'s content (no chip). */
  children?: ReactNode;
}

/**
 * The default chip: a badge whose card opens on hover, keyboard focus, click or tap.
 * An invalid chip (`chip.valid === false`) gets `citeproof-chip--invalid` and its card
 * says `chip.reason`.
 */
export function CitationChip(props: CitationChipProps): ReactElement;

/**
 * A report's tree and chips, and its cited sources: only sources some chip names, each
 * once, in first-cited order, labelled as their chips.
 */
export function useCitations(
  report: Report | { segments: Segment[] } | null | undefined,
  config?: { sources?: Source[] } | null,
): { blocks: Block[]; chips: Chip[]; sources: ChipSource[] };

/** One chip's behaviour as props, for a chip component of your own. */
export function useChip(chip: Chip): {
  open: boolean;
  page: number;
  setPage(page: number): void;
  close(): void;
  /** Spread on the element around the button and the card (hover, focus, Escape, outside taps). */
  rootProps: Record<string, unknown>;
  /** Spread on the button: `aria-expanded`, `aria-controls`, `aria-label`, `data-valid`, click. */
  buttonProps: Record<string, unknown>;
  /** Spread on the card: `id`, `role="dialog"`, `aria-label`. */
  cardProps: Record<string, unknown>;
};

/**
 * Keeps an open card inside the viewport (shifted from the right edge, flipped above the
 * chip when there is no room below); returns the class to add to it.
 */
export function useCardPlacement(ref: RefObject<HTMLElement | null>, open: boolean, margin?: number): string;

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

/**
 * Streams an answer. Bytes (a Response, a `fetch` body) are read as `citeproofTransform`
 * reads them: OpenAI or Anthropic SSE, the AI SDK's UI message stream SSE, NDJSON or
 * plain text, detected (or `options.format`); another SSE ends in an `invalid_input`
 * error. Strings (a ReadableStream or async iterable of them) are the answer's text.
 * Policy `"flag"` unless `options` says otherwise, as `<CitedAnswer>`.
 */
export function useCitationStream(
  source: Response | ReadableStream<Uint8Array | string> | AsyncIterable<string> | null | undefined,
  config?: { input?: StreamInput; options?: TransformOptions } | null,
): CitationStreamState;

/** A `useChat` message as `useCitedMessage` reads it: the AI SDK's `UIMessage` fits. */
export interface ChatMessageLike {
  id?: string;
  parts: readonly ({ type: string; text?: string; data?: unknown; sourceId?: string; url?: string; title?: string } | object)[];
}

export interface CitedMessageState {
  /** The cleaned text released so far (never half a marker): what a markdown renderer is fed. */
  text: string;
  /** `text` cut into text and chips; the report's segments once there is a report. */
  segments: Segment[];
  chips: CiteEvent[];
  findings: FindingEvent[];
  /** The `data-citations` part's report, or the stream's own once `config.done`. */
  report: Report | null;
  /** The sources the chips were checked against (pass them to `<CitedAnswer sources>`). */
  sources: Source[];
  /** Whether there is a report. */
  done: boolean;
  /** Bad `options` or `sources` (an `Error` with a `code`); nothing is read until they change. */
  error: Error | null;
}

/**
 * A `useChat` message as a cited answer, fed one update's new text at a time into a
 * CitationStream. `sources` default to the message's `data-citations` cards, then its
 * `source-url` parts; `done` (e.g. `status === "ready"`) ends the stream when no
 * `data-citations` report comes. Policy `"flag"` unless `options` says otherwise.
 */
export function useCitedMessage(
  message: ChatMessageLike | null | undefined,
  config?: { sources?: Source[]; options?: StreamOptions; done?: boolean } | null,
): CitedMessageState;

/**
 * The `remarkPlugins` for a streamed answer in Streamdown (or react-markdown): `plugins`,
 * then `remarkCiteproof` with `cited.segments` and `cited.sources` (what
 * `useCitedMessage` returns; `useCitationStream`'s state with your sources). The array
 * keeps its identity while the answer only grows, so Streamdown renders again only the
 * blocks whose text changed; the chips are those of the segments now. A change to what
 * was already shown (the report, a revision, other sources or plugins) gives a new array.
 */
export function useRemarkPlugins<Plugin>(
  cited: { segments?: Segment[]; sources?: Source[] } | null | undefined,
  plugins?: readonly Plugin[],
): (Plugin | [typeof remarkCiteproof, RemarkCiteproofOptions])[];

/**
 * The sources `chips` name and found, each once by label, in the order first cited: a
 * "Sources" list for chips from `citationChips` (`useCitations` gives it for a report).
 */
export function citedSources(chips: Chip[]): ChipSource[];
