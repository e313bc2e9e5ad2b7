// Types of citeproof/remark.
import type { Chip, Report, Segment, Source, ValidateOptions } from "citeproof";

/** The fields of `remarkCiteproof`'s settings (`RemarkCiteproofOptions` needs one of the first two). */
export interface RemarkCiteproofFields {
  /**
   * A report from `validate` or a stream's `finish` (the markdown rendered is its
   * `cleanedAnswer`), or `{ segments }` from `useCitationStream` (the markdown is its
   * `text`). Without it, the markdown is validated here against `sources`.
   */
  report?: Report | { segments: Segment[] } | null;
  /** The retrieved sources, in the order validated: chip cards get titles, links, quotes. */
  sources?: Source[];
  /**
   * How the markdown is validated when no `report` is given. Default `{ policy: "flag" }`:
   * a marker that names no retrieved source stays as an invalid chip; with
   * `{ policy: "clean" }` it is removed.
   */
  options?: ValidateOptions;
}

/**
 * The settings of `remarkCiteproof`: a report to draw, or sources to validate against
 * (with neither it throws `invalid_option`).
 */
export type RemarkCiteproofOptions =
  | (RemarkCiteproofFields & { report: Report | { segments: Segment[] } })
  | (RemarkCiteproofFields & { sources: Source[] });

/** The mdast node type of a chip (`"citeproofChip"`); remark-rehype turns it into a `<sup>`. */
export declare const CHIP_NODE: "citeproofChip";

/** A chip in the mdast tree. */
export interface CiteproofChipNode {
  type: "citeproofChip";
  chip: Chip;
  position?: { start: { line: number; column: number; offset?: number }; end: { line: number; column: number; offset?: number } };
  data: { hName: "sup"; hProperties: { className: string[] }; hChildren: unknown[] };
}

/**
 * The remark plugin: `remarkPlugins={[[remarkCiteproof, { report, sources }]]}` with
 * `components={{ sup: CitationChip }}` (citeproof/react). Chips take the place of their
 * markers at the report's exact spans; code, links, images and footnotes are left alone.
 * Throws an `Error` with `code` `invalid_option` for unusable settings and
 * `invalid_input` when the markdown is not the report's cleaned answer.
 */
// A unified plugin's shape, without depending on unified's types.
declare function remarkCiteproof(options: RemarkCiteproofOptions): (tree: any, file: any) => void;
export default remarkCiteproof;

/** The chip a hast `<sup>` made by the plugin carries, or null for any other node. */
export function chipOf(node: unknown): Chip | null;

/**
 * The rehype plugin for pipelines that rebuild the HTML tree after remark-rehype (as
 * rehype-raw does; Streamdown runs it): put it last in `rehypePlugins` and each chip's
 * `<sup>` gets its chip again. Raw HTML in the answer cannot make a chip.
 */
export function rehypeCiteproof(): (tree: any, file: any) => void;
