// citeproof/react: <CitedAnswer>, a markdown answer with its chips and cited sources,
// and everything of citeproof/react/hooks (the chip kit, the stream and message hooks).
//
// <CitedAnswer> renders the cleaned answer's GFM with react-markdown and remark-gfm (peer
// dependencies, which this entry needs and citeproof/react/hooks does not), its chips
// placed by citeproof/remark: text reaches the page only as React text, raw HTML in an
// answer is not rendered, a link exists only for an http(s) URL (or an in-page
// footnote), and an image is a link to it, never fetched. No innerHTML anywhere.
import { createElement as h, useMemo } from "react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { citationChips, validate } from "citeproof";
import remarkCiteproof, { chipOf } from "./remark.js";
import { markdownOf, safeUrl } from "./safe.js";
import { CitationChip, citedSources } from "./react-hooks.js";

export * from "./react-hooks.js";

const cx = (...names) => names.filter(Boolean).join(" ");

/** The default "Sources" list: the cited sources, labelled as their chips. */
function SourceList({ sources }) {
  if (!sources.length) return null;
  return h(
    "section",
    { className: "citeproof-sources", "aria-label": "Sources" },
    h("h2", { className: "citeproof-sources__heading" }, "Sources"),
    h(
      "ol",
      null,
      sources.map((source) =>
        h(
          "li",
          { key: source.label, "data-label": source.label },
          h("span", { className: "citeproof-sources__label" }, source.label),
          " ",
          source.href
            ? h("a", { href: source.href, target: "_blank", rel: "noopener noreferrer nofollow" }, source.title || source.host || source.href)
            : source.title || `Source ${source.label}`,
        ),
      ),
    ),
  );
}

/** A link that opens elsewhere (an in-page one stays); none without a safe URL. */
function SafeLink({ href, children }) {
  if (!href) return h("span", null, children);
  if (href.startsWith("#")) return h("a", { href }, children);
  return h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, children);
}

/** An image as a link to it: an answer never makes the page fetch a URL it names. */
function ImageLink({ src, alt }) {
  const text = alt || src || "";
  if (!src) return h("span", { className: "citeproof-image" }, text);
  return h("a", { className: "citeproof-image", href: src, target: "_blank", rel: "noopener noreferrer nofollow" }, text);
}

/**
 * A markdown answer with citation chips and, under it, the list of the sources it cites.
 * Give it a `report` (from `validate` or a stream), or `segments` (from
 * `useCitationStream`), or an `answer` with its `sources` to validate here. `sources`
 * adds titles, links and quotes to the cards. `components` replaces the `Chip` (given
 * `{ chip }`; `useChip` has its behaviour), the `Card` of the default chip, or the
 * `SourceList` (given `{ sources }`); `sourceList={false}` leaves the list out.
 */
export function CitedAnswer({ report, segments, answer, sources, options, className, components: given, sourceList = true }) {
  // (`components={null}` is no components, as leaving it out is.)
  const components = given ?? {};
  const validated = useMemo(
    // "flag" unless told otherwise: a UI that checks citations shows what it flags.
    () => (report || segments || answer == null ? null : validate({ answer, sources: sources ?? [] }, { policy: "flag", ...options })),
    [report, segments, answer, sources, options],
  );
  const shown = useMemo(() => report ?? validated ?? { segments: segments ?? [] }, [report, validated, segments]);
  const markdown = useMemo(() => markdownOf(shown.segments), [shown]);
  const cited = useMemo(() => citedSources(citationChips(shown, { sources })), [shown, sources]);
  const remarkPlugins = useMemo(() => [remarkGfm, [remarkCiteproof, { report: shown, sources }]], [shown, sources]);
  const { Chip, Card } = components;
  const parts = useMemo(
    () => ({
      a: SafeLink,
      img: ImageLink,
      sup: ({ node, children }) => {
        const chip = chipOf(node);
        if (!chip) return h("sup", null, children);
        return Chip ? h(Chip, { chip }) : h(CitationChip, { chip, Card });
      },
    }),
    [Chip, Card],
  );
  return h(
    "div",
    { className: cx("citeproof-answer", className) },
    h(Markdown, { remarkPlugins, components: parts, urlTransform: safeUrl }, markdown),
    sourceList && h(components.SourceList ?? SourceList, { sources: cited }),
  );
}
