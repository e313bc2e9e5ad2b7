// Perplexity chat completions (src/providers/perplexity.rs): `[n]` markers in the content
// cite the n-th entry of `citations` (URLs) or, without it, of `search_results`. The
// markers are the citations: no declared list, no offsets. A stream is the list of its
// `chat.completion.chunk`s; the last chunk with a list gives the sources. The reasoning
// models (`sonar-reasoning-pro`, `sonar-deep-research`) start the content with their
// reasoning in `<think>…</think>`, which is not the answer: the answer is what follows it.
import { bad, field, is, items, list, text, textAt, webSource } from "./response.js";

/**
 * How many citations of one URL its search result gives a title and text; later repeats
 * are sources with the URL alone (`RESULT_COPIES` in src/providers/perplexity.rs).
 */
const RESULT_COPIES = 4;

/** Whether a completion or chunk has a `search_results` or `citations` (URLs) list. */
const listsSources = (response) =>
  field(response, "search_results") !== undefined || text(list(response, "citations")[0]) !== undefined;

/** Chat-completion `choices` with a source list, or stream chunks one of which has one. */
export function recognizes(response) {
  const chunks = items(response);
  if (chunks) return is(chunks[0], "object", "chat.completion.chunk") && chunks.some(listsSources);
  return field(response, "choices") !== undefined && listsSources(response);
}

export function read(response, out) {
  const chunks = items(response);
  let content;
  let listing = response;
  if (chunks) {
    content = chunks.map((c) => textAt(field(list(c, "choices")[0], "delta"), "content") ?? "").join("");
    listing = chunks.findLast(listsSources) ?? response;
  } else {
    content = textAt(field(list(response, "choices")[0], "message"), "content");
    if (content === undefined) throw bad(".choices[0].message.content", "missing");
  }
  out.responseId = textAt(listing, "id");
  out.model = textAt(listing, "model");
  out.pushText(afterReasoning(content));
  if (out.given) return;
  const results = list(listing, "search_results");
  const resultSource = (result) => ({ ...webSource(textAt(result, "url") ?? "", textAt(result, "title")), text: textAt(result, "snippet") });
  const urls = list(listing, "citations").map(text).filter((url) => url !== undefined);
  if (urls.length === 0) {
    out.sources.push(...results.map(resultSource));
    return;
  }
  // Both lists: the markers number `citations`; a search result with the same URL gives
  // its source a title and text (the first such result, found by a map read once: a
  // search per citation made n citations of n results cost n²), for at most
  // `RESULT_COPIES` citations of its URL, as the Rust adapter does (validation would read
  // n repeats of its snippet n times).
  const byUrl = new Map();
  for (const result of results) {
    const url = textAt(result, "url");
    if (url !== undefined && !byUrl.has(url)) byUrl.set(url, { result, copies: 0 });
  }
  for (const url of urls) {
    const found = byUrl.get(url);
    const copy = found !== undefined && found.copies < RESULT_COPIES;
    if (copy) found.copies += 1;
    out.sources.push(copy ? resultSource(found.result) : webSource(url, undefined));
  }
}

// Leading Unicode White_Space, which Rust's `trim_start` drops (JS's `trimStart` would
// also drop U+FEFF and keep U+0085, and the two adapters must give the same answer).
const LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/**
 * `content` after a leading `<think>…</think>` block and the blank space after it; all of
 * it when there is none, or when the block never closes (a stream cut in its reasoning is
 * kept whole, never read as an empty answer).
 */
function afterReasoning(content) {
  const rest = content.replace(LEADING_SPACE, "");
  if (!rest.startsWith("<think>")) return content;
  const end = rest.indexOf("</think>", "<think>".length);
  return end < 0 ? content : rest.slice(end + "</think>".length).replace(LEADING_SPACE, "");
}
