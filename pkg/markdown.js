// citeproof/markdown: `renderHtml` for GFM, on the remark stack (unified, remark-parse,
// remark-gfm, remark-rehype, rehype-stringify: optional peer dependencies of the
// package), with the chips of citeproof/remark. The core's own `renderHtml` draws a
// smaller markdown subset and needs nothing; this one draws what GitHub does (tables,
// task lists, strikethrough, code in list items) by the same safety rules: text escaped,
// raw HTML in an answer not rendered, a link only for an http(s) URL or an in-page
// footnote, an image as a link to it (never fetched).
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkRehype from "remark-rehype";
import rehypeStringify from "rehype-stringify";
import remarkCiteproof, { chipOf } from "./remark.js";
import { markdownOf, safeUrl } from "./safe.js";
import { MAX_LIST_ITEMS, tooManyItems } from "./providers/untrusted.js";

const text = (value) => ({ type: "text", value });
const element = (tagName, properties, children) => ({ type: "element", tagName, properties, children });

/** A chip as `renderHtml` has always written it: a `<sup>` with its sources as title, linked when valid. */
function chipElement(chip) {
  const first = chip.sources[0];
  const title = chip.valid ? chip.sources.map((s) => s.title || s.host || `Source ${s.label}`).join(" · ") : chip.reason;
  const badge = first?.href && chip.valid
    ? element("a", { href: first.href, rel: ["noopener", "noreferrer", "nofollow"] }, [text(chip.badge)])
    : text(chip.badge);
  return element("sup", { className: ["citeproof-chip", ...(chip.valid ? [] : ["citeproof-chip--invalid"])], title: title ?? "" }, [badge]);
}

/**
 * The rehype step of `renderHtml`: chips drawn, links kept only for safe URLs (and given
 * `rel`), images turned into links to them.
 */
function safeChips() {
  return (tree) => {
    const visit = (node) => {
      if (!Array.isArray(node.children)) return;
      node.children = node.children.map((child) => {
        if (child.type !== "element") return child;
        if (child.tagName === "sup") {
          const chip = chipOf(child);
          if (chip) return chipElement(chip);
        }
        if (child.tagName === "img") {
          const src = safeUrl(child.properties?.src);
          const label = [text(String(child.properties?.alt || child.properties?.src || ""))];
          return src
            ? element("a", { className: ["citeproof-image"], href: src, rel: ["noopener", "noreferrer", "nofollow"] }, label)
            : element("span", { className: ["citeproof-image"] }, label);
        }
        if (child.tagName === "a") {
          const href = safeUrl(child.properties?.href);
          if (!href) {
            visit(child);
            return element("span", {}, child.children);
          }
          child.properties = href.startsWith("#")
            ? { ...child.properties, href }
            : { ...child.properties, href, rel: ["noopener", "noreferrer", "nofollow"] };
        }
        visit(child);
        return child;
      });
    };
    visit(tree);
  };
}

/**
 * The report's cleaned answer (or a stream's `{ segments }`) as safe HTML: GFM as
 * remark-gfm renders it, each chip a `<sup class="citeproof-chip">` titled with its
 * sources (linked to the first when valid; an invalid one titled with why).
 * `options.sources`: the retrieved sources, for titles and links. Throws `invalid_option`
 * / `invalid_input` (with `code`) as citeproof/remark does.
 */
export function renderHtml(report, options = {}) {
  if (report == null || typeof report !== "object" || !Array.isArray(report.segments)) {
    throw Object.assign(new Error("renderHtml: expected a report or { segments }"), { code: "invalid_input" });
  }
  // Read by its length first, as the core's renderHtml reads it (a sparse list of
  // 2^32 − 1 segments, walked, took minutes).
  if (report.segments.length > MAX_LIST_ITEMS) throw tooManyItems("report.segments", report.segments.length);
  const markdown = markdownOf(report.segments);
  const html = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkCiteproof, { report, sources: options?.sources })
    .use(remarkRehype)
    .use(safeChips)
    .use(rehypeStringify)
    .processSync(markdown);
  return `<div class="citeproof-answer">${String(html)}</div>`;
}
