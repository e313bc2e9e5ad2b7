// Types of citeproof/markdown.
import type { Report, Segment, Source } from "citeproof";

/**
 * The report's cleaned answer (or a stream's `{ segments }`) as safe HTML: GFM as
 * remark-gfm renders it (tables, task lists, strikethrough, code in list items), each
 * chip a `<sup class="citeproof-chip">` titled with its sources. Raw HTML in the answer
 * is not rendered, links only for http(s) URLs or in-page footnotes, images as links to
 * them. Needs unified, remark-parse, remark-gfm, remark-rehype and rehype-stringify.
 * Throws an `Error` with `code` `invalid_input` for something that is not a report.
 */
export function renderHtml(report: Report | { segments: Segment[] }, options?: { sources?: Source[] }): string;
