// Anthropic Messages (src/providers/anthropic.rs): text blocks carry `citations`, each
// backing its whole block. Sources: the documents, search results and web results the
// citations name, and the pages the web search and web fetch tools returned. A stream is
// the list of its events. Every block and delta besides text and citations is read past.
import { documentTitled, field, indexAt, is, items, list, text, textAt, typeName, webSource } from "./response.js";

/**
 * The content block types of the Messages API (the docs' `ContentBlock` union), and the
 * two that carry search results in a conversation's blocks (`search_result`, and a custom
 * tool's `tool_result` whose content lists them).
 */
const BLOCKS =
  "text thinking redacted_thinking tool_use server_tool_use web_search_tool_result web_fetch_tool_result " +
  "code_execution_tool_result bash_code_execution_tool_result text_editor_code_execution_tool_result " +
  "tool_search_tool_result mcp_tool_use mcp_tool_result container_upload search_result tool_result";
const DELTAS = "text_delta citations_delta input_json_delta thinking_delta signature_delta";
const EVENTS = "message_start content_block_start content_block_delta content_block_stop message_delta message_stop ping error";

/** A message, a message's bare `content`, or the list of its stream events. */
export function recognizes(response) {
  const events = items(response);
  if (events) return is(events[0], "type", "message_start");
  if (is(response, "type", "message")) return field(response, "content") !== undefined;
  const blocks = list(response, "content");
  const anthropic = (b) => {
    const kind = typeName(b) ?? "";
    return BLOCKS.split(" ").includes(kind) && (kind !== "text" || text(field(b, "text")) !== undefined);
  };
  return field(response, "type") === undefined && field(response, "object") === undefined && blocks.length > 0 && blocks.every(anthropic);
}

/** One content block as the adapter needs it: `{ text, citations }`, `{ results }`, `{ searched }`, `{ page }` or `{}`. */
function block(value, out) {
  const kind = typeName(value);
  if (!out.knows("content block", kind, BLOCKS)) return {};
  if (kind === "text") return { text: textAt(value, "text") ?? "", citations: [...list(value, "citations")] };
  if (kind === "web_search_tool_result") return { results: list(value, "content") };
  if (kind === "search_result") return { searched: [value] };
  if (kind === "tool_result") return { searched: list(value, "content") };
  if (kind === "web_fetch_tool_result") {
    const page = field(value, "content");
    return page === undefined ? {} : { page };
  }
  return {};
}

export function read(response, out) {
  let blocks;
  const events = items(response);
  if (events) blocks = fromEvents(events, out);
  else {
    out.responseId = textAt(response, "id");
    out.model = textAt(response, "model");
    blocks = list(response, "content").map((b) => block(b, out));
  }
  const results = searchResults(blocks);
  let listed = 0;
  for (const b of blocks) {
    if (b.text !== undefined) {
      const start = out.pushText(b.text);
      const span = { start, end: out.answer.length };
      for (const citation of b.citations) {
        // A web result's `cited_text` can be empty: no quote, not an empty one.
        const quote = textAt(citation, "cited_text") || undefined;
        out.cite(sourceOf(citation, results, quote, span, out), span, quote);
      }
    } else if (b.results) {
      for (const result of b.results) {
        const url = textAt(result, "url");
        if (url !== undefined && !out.given) out.label(url, () => webSource(url, textAt(result, "title")));
      }
    } else if (b.searched) {
      for (const result of b.searched.filter((r) => is(r, "type", "search_result"))) {
        const source = textAt(result, "source");
        if (source !== undefined && !out.given) out.label(`search result ${listed}`, () => searchResultSource(result, source));
        listed += 1;
      }
    } else if (b.page) {
      // `{ url, content: { type: "document", title?, source: { data } } }`.
      const url = textAt(b.page, "url");
      if (url === undefined || out.given) continue;
      const document = field(b.page, "content");
      const data = textAt(field(document, "source"), "data");
      out.label(url, () => ({ ...webSource(url, textAt(document, "title")), text: data }));
    }
  }
}

/**
 * The blocks a stream's events build, in the order they started. Nothing throws: a
 * start without its block is an unknown block, and a text delta for a block that never
 * started starts a text block.
 */
function fromEvents(events, out) {
  const blocks = [];
  const position = new Map();
  const key = (event) => {
    const index = indexAt(event, "index");
    return index !== undefined && index <= 0xffffffff ? index : undefined;
  };
  for (const event of events) {
    const kind = typeName(event);
    if (!out.knows("event", kind, EVENTS)) continue;
    if (kind === "message_start") {
      const message = field(event, "message");
      out.responseId = textAt(message, "id");
      out.model = textAt(message, "model");
    } else if (kind === "content_block_start") {
      const index = key(event);
      if (index !== undefined) position.set(index, blocks.length);
      const started = field(event, "content_block");
      blocks.push(started === undefined ? {} : block(started, out));
    } else if (kind === "content_block_delta") {
      const delta = field(event, "delta");
      if (delta === undefined) continue;
      const deltaKind = typeName(delta);
      const known = out.knows("delta", deltaKind, DELTAS);
      if (!known || (deltaKind !== "text_delta" && deltaKind !== "citations_delta")) continue;
      const index = key(event);
      let at = index !== undefined ? position.get(index) : blocks.length > 0 ? blocks.length - 1 : undefined;
      if (at === undefined) {
        if (index !== undefined) position.set(index, blocks.length);
        blocks.push({ text: "", citations: [] });
        at = blocks.length - 1;
      }
      const target = blocks[at];
      if (target.text === undefined) continue;
      if (deltaKind === "text_delta") target.text += textAt(delta, "text") ?? "";
      else {
        const citation = field(delta, "citation");
        if (citation !== undefined) target.citations.push(citation);
      }
    }
  }
  return blocks;
}

/**
 * The source a citation at `span` names: a search result by its `source` and position
 * (`results`: the `search_result` blocks read), a web result by URL, else by its document
 * or search-result position, else (no position given) by its document title.
 */
function sourceOf(citation, results, quote, span, out) {
  const title = () => textAt(citation, "document_title") ?? textAt(citation, "title");
  const source = textAt(citation, "source");
  if (is(citation, "type", "search_result_location") && source !== undefined) {
    return searchResult(citation, source, title(), results, quote, span, out);
  }
  const url = textAt(citation, "url") ?? (source?.startsWith("http") ? source : undefined);
  if (url !== undefined) return out.label(url, () => webSource(url, title()));
  const searched = indexAt(citation, "search_result_index");
  const document = indexAt(citation, "document_index");
  if (searched === undefined && document === undefined) return documentByTitle(title(), out);
  const [kind, position] = searched !== undefined ? ["search result", searched] : ["document", document];
  if (out.given) return out.labelAt(position);
  return out.label(`${kind} ${position}`, () => ({ title: title() }));
}

/**
 * A document citation without its `document_index` (SDK objects are often passed on
 * trimmed to `cited_text` and `document_title`): the document of that title, never
 * silently the first. Without a title either, the first document, as the API's index
 * would default.
 */
function documentByTitle(title, out) {
  if (title === undefined) return out.given ? out.labelAt(0) : out.label("document 0", () => ({}));
  const key = documentTitled(title);
  // A title the caller's sources lack is named as is: validation reports it unknown.
  if (out.given) return out.labels.get(key) ?? title;
  return out.label(key, () => ({ title }));
}

/**
 * The `search_result` blocks read, in order (what `search_result_index` counts), and
 * `named(source, position)`: the position of the result a citation names, the one at
 * `position` when it has that `source`, else the first that has it (a map: each citation
 * costs the same however many results there are).
 */
function searchResults(read) {
  const blocks = read.flatMap((b) => b.searched ?? []).filter((r) => is(r, "type", "search_result"));
  const first = new Map();
  blocks.forEach((r, at) => {
    const source = textAt(r, "source");
    if (source !== undefined && !first.has(source)) first.set(source, at);
  });
  const named = (source, position) =>
    position !== undefined && position < blocks.length && textAt(blocks[position], "source") === source ? position : first.get(source);
  return { blocks, named };
}

/**
 * The search result a `search_result_location` names by its `source` (a URL or an id)
 * and `search_result_index`. Among the `search_result` blocks read, the one
 * `results.named` finds; its blocks must hold the quote (checkBlocks). Among the caller's sources, taken
 * for the request's search results in order: the one at `search_result_index` when it has
 * that URL or id (a search result block's `source` counts), else the first that has it,
 * else the one at `search_result_index`. Without caller sources, the block's own source,
 * else a source listed under the citation's `source`.
 */
function searchResult(citation, source, title, results, quote, span, out) {
  const position = indexAt(citation, "search_result_index");
  const at = results.named(source, position);
  if (at !== undefined) checkBlocks(citation, results.blocks[at], at, quote, span, out);
  if (out.given) {
    // Two results of one page carry one `source`: the position tells them apart.
    if (position !== undefined && out.carriesAt(position, source)) return out.labelAt(position);
    const named = out.label(source, () => ({}));
    return typeof named === "string" && position !== undefined ? out.labelAt(position) : named;
  }
  if (at !== undefined) return out.label(`search result ${at}`, () => searchResultSource(results.blocks[at], source));
  const isUrl = source.startsWith("https://") || source.startsWith("http://");
  return out.label(source, () => (isUrl ? { url: source, title } : { id: source, title }));
}

/**
 * How long a cited block range may be per code point of its quote, plus RANGE_SLACK, and
 * still be checked (src/providers/anthropic.rs: a range counts its code points and one per
 * block; a longer one is not checked, so the check stays linear in the citation).
 */
const RANGE_PER_QUOTE = 4;
const RANGE_SLACK = 256;
const WHITE_SPACE = /\p{White_Space}/gu;

/** The number of code points of `text`. */
function codePoints(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) i++;
    }
  }
  return n;
}

/**
 * Checks that `start_block_index`..`end_block_index` (end exclusive) are blocks of
 * `result` (search result `at`) that hold the quote, white space left out; otherwise an
 * `offset_mismatch` warning at the citation's `span` (src/providers/anthropic.rs,
 * check_blocks: the same rule, the same budget).
 */
function checkBlocks(citation, result, at, quote, span, out) {
  const start = indexAt(citation, "start_block_index");
  const end = indexAt(citation, "end_block_index");
  if (start === undefined || end === undefined) return;
  const blocks = list(result, "content");
  if (start <= end && end <= blocks.length) {
    const quoted = (quote ?? "").replace(WHITE_SPACE, "");
    if (quoted === "") return;
    let budget = codePoints(quote) * RANGE_PER_QUOTE + RANGE_SLACK;
    let range = "";
    // Indexed, not sliced: the budget stops the walk before a long range is copied.
    for (let i = start; i < end; i++) {
      const block = blocks[i];
      const text = is(block, "type", "text") ? textAt(block, "text") : undefined;
      if (text === undefined) return;
      // A block costs its code points (at least half its UTF-16 units) and one.
      if (Math.ceil(text.length / 2) >= budget) return;
      const cost = codePoints(text) + 1;
      if (cost > budget) return;
      budget -= cost;
      range += text.replace(WHITE_SPACE, "");
    }
    if (range.includes(quoted)) return;
  }
  const message = `blocks ${start}..${end} (end exclusive) of search result ${at}, which has ${blocks.length}, do not hold the quote`;
  out.warnings.push({ code: "offset_mismatch", severity: "warning", message, span });
}

/**
 * A `search_result` block of the conversation as a source, read as a caller's is: its
 * `source` the URL (an http(s) one) or else the id, its text blocks joined by a paragraph
 * break; a block that is no text block leaves the text out (src/providers/anthropic.rs).
 */
function searchResultSource(result, source) {
  const isUrl = source.startsWith("https://") || source.startsWith("http://");
  const texts = list(result, "content").map((b) => (is(b, "type", "text") ? textAt(b, "text") : undefined));
  const text = texts.includes(undefined) ? undefined : texts.join("\n\n");
  return isUrl ? { url: source, title: textAt(result, "title"), text } : { id: source, title: textAt(result, "title"), text };
}
