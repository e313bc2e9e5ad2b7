//! Anthropic Messages: text blocks carry `citations`; each citation backs its whole
//! block. Sources: the documents (`document_index`), search results
//! (`search_result_index`) and web results (`url`) the citations name, and the pages
//! the web search and web fetch tools returned, and the `search_result` blocks of a
//! conversation's blocks (alone, or in a custom tool's `tool_result`).
//!
//! Shapes from docs.anthropic.com, "Citations" and "Web search tool" (the response's
//! `content` blocks; in a stream, `content_block_start`, `content_block_delta` with
//! `text_delta` / `citations_delta`, `content_block_stop`). Every other block and delta
//! (`server_tool_use` with `input_json_delta`, `web_search_tool_result`, `tool_use`,
//! `thinking` with `thinking_delta` / `signature_delta`, and types still to come) is
//! read past: only text and its citations make the answer. A block, delta or event of a
//! type not in the lists below is counted in the `unknown_content` warning.
//!
//! `search_result_location` (docs' `CitationSearchResultLocation`): `search_result_index`
//! counts the `search_result` blocks of the request, "in the order they appear across
//! messages and tool results", and `start_block_index`..`end_block_index` (end exclusive)
//! are blocks of that result's `content`. The adapter numbers the `search_result` blocks of
//! the content it reads the same way (a conversation's blocks, as apps put them together);
//! when the block a citation names is among them, the quote must lie in the named blocks
//! ([`check_blocks`]).

use std::collections::HashMap;

use super::{Builder, Json, document_titled, web_source};
use crate::error::Error;
use crate::model::{
    Finding, FindingCode, SEARCH_RESULT_BLOCK_SEPARATOR, Severity, Source, SourceRef, Span,
};

/// A message (`"type": "message"` with `content` blocks), a message's bare `content`
/// (`{ "content": [...] }`, as SDKs and notebooks pass it on: every block of a type the
/// Messages API names, a text block's `text` a string), or the list of its stream
/// events.
pub fn recognizes(response: &Json) -> bool {
    match response.items() {
        Some(events) => events
            .first()
            .is_some_and(|e| e.is("type", "message_start")),
        None if response.is("type", "message") => response.field("content").is_some(),
        None => {
            let blocks = response.list("content");
            let anthropic = |b: &Json| {
                let kind = b.type_name().unwrap_or_default();
                BLOCKS.split(' ').any(|k| k == kind)
                    && (kind != "text" || b.field("text").and_then(Json::text).is_some())
            };
            response.field("type").is_none()
                && response.field("object").is_none()
                && !blocks.is_empty()
                && blocks.iter().all(anthropic)
        }
    }
}

/// The content block types of the Messages API (the docs' `ContentBlock` union), and
/// the two that carry search results in a conversation's blocks as apps put them together
/// (`search_result`, and a custom tool's `tool_result` whose content lists them).
const BLOCKS: &str = "text thinking redacted_thinking tool_use server_tool_use \
     web_search_tool_result web_fetch_tool_result \
     code_execution_tool_result bash_code_execution_tool_result \
     text_editor_code_execution_tool_result tool_search_tool_result \
     mcp_tool_use mcp_tool_result container_upload search_result tool_result";

/// The delta types of `content_block_delta`.
const DELTAS: &str = "text_delta citations_delta input_json_delta thinking_delta \
     signature_delta";

/// The stream's event types.
const EVENTS: &str = "message_start content_block_start content_block_delta \
     content_block_stop message_delta message_stop ping error";

/// The `search_result` blocks read, in order (what `search_result_index` counts), and
/// where each `source` first appears among them.
struct SearchResults<'a> {
    blocks: Vec<&'a Json>,
    /// `source` → the position of the first result with it (a map, so that each citation
    /// costs the same however many results there are).
    first: HashMap<String, u32>,
}

impl<'a> SearchResults<'a> {
    fn of(blocks: &[Block<'a>]) -> SearchResults<'a> {
        let blocks: Vec<&Json> = blocks
            .iter()
            .flat_map(|b| match b {
                Block::SearchResults(list) => *list,
                _ => &[],
            })
            .filter(|r| r.is("type", "search_result"))
            .collect();
        let mut first = HashMap::new();
        for (at, result) in blocks.iter().enumerate() {
            if let Some(source) = result.text_at("source") {
                first.entry(source).or_insert(at as u32);
            }
        }
        SearchResults { blocks, first }
    }

    /// The position of the result a citation of `source` at `position` names: the one at
    /// `position` when it has that `source`, else the first that has it.
    fn named(&self, source: &str, position: Option<usize>) -> Option<usize> {
        let at_position = self
            .blocks
            .get(position?)
            .filter(|r| r.is("source", source));
        let first = || self.first.get(source).map(|&at| at as usize);
        at_position.and(position).or_else(first)
    }
}

/// One content block as the adapter needs it.
enum Block<'a> {
    /// A text block and its citations.
    Text {
        text: String,
        citations: Vec<&'a Json>,
    },
    /// The results of a web search (`web_search_tool_result`).
    WebResults(&'a [Json]),
    /// Blocks that may be search results (`search_result` ones, alone or in a
    /// `tool_result`'s content): sources with their text.
    SearchResults(&'a [Json]),
    /// A page the web fetch tool read (`web_fetch_tool_result`): a source with its text.
    Fetched(&'a Json),
    /// Tool use, thinking, …: not part of the answer.
    Other,
}

fn block<'a>(value: &'a Json, out: &mut Builder) -> Block<'a> {
    let kind = value.type_name();
    if !out.knows("content block", kind, BLOCKS) {
        return Block::Other;
    }
    match kind {
        Some("text") => Block::Text {
            text: value.text_at("text").unwrap_or_default(),
            citations: value.list("citations").iter().collect(),
        },
        Some("web_search_tool_result") => Block::WebResults(value.list("content")),
        Some("search_result") => Block::SearchResults(std::slice::from_ref(value)),
        Some("tool_result") => Block::SearchResults(value.list("content")),
        Some("web_fetch_tool_result") => {
            value.field("content").map_or(Block::Other, Block::Fetched)
        }
        _ => Block::Other,
    }
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let blocks = match response.items() {
        Some(events) => from_events(events, out),
        None => {
            out.response_id = response.text_at("id");
            out.model = response.text_at("model");
            let content = response.list("content");
            content.iter().map(|b| block(b, out)).collect()
        }
    };
    let results = SearchResults::of(&blocks);
    let mut listed = 0;
    for block in blocks {
        match block {
            Block::Text { text, citations } => {
                let start = out.push_text(&text);
                let span = Span::new(start, out.answer.len());
                for citation in citations {
                    // A web result's `cited_text` can be empty: no quote, not an empty one
                    // (which validation refuses).
                    let quote = citation.text_at("cited_text").filter(|q| !q.is_empty());
                    let source = source_of(citation, &results, quote.as_deref(), span, out);
                    out.cite(source, Some(span), quote);
                }
            }
            Block::WebResults(results) => {
                for result in results {
                    if let Some(url) = result.text_at("url") {
                        if !out.given {
                            out.label(&url, || web_source(&url, result.text_at("title")));
                        }
                    }
                }
            }
            Block::SearchResults(list) => {
                for result in list.iter().filter(|r| r.is("type", "search_result")) {
                    if let (Some(source), false) = (result.text_at("source"), out.given) {
                        let key = format!("search result {listed}");
                        out.label(&key, || search_result_source(result, &source));
                    }
                    listed += 1;
                }
            }
            Block::Fetched(page) => {
                // `{ url, content: { type: "document", title?, source: { data } } }`.
                let (Some(url), false) = (page.text_at("url"), out.given) else {
                    continue;
                };
                let document = page.field("content");
                let title = document.as_ref().and_then(|d| d.text_at("title"));
                let text = document
                    .and_then(|d| d.field("source"))
                    .and_then(|s| s.text_at("data"));
                out.label(&url, || Source {
                    text,
                    ..web_source(&url, title)
                });
            }
            Block::Other => {}
        }
    }
    Ok(())
}

/// The blocks a stream's events build, in the order they started:
/// `content_block_start` opens block `index`, `text_delta` appends text to it,
/// `citations_delta` a citation. Nothing in the events throws: a start without its
/// block is an unknown block, and a text delta for a block that never started starts a
/// text block (a stream spliced or cut by a proxy still yields its text). Events, blocks
/// and deltas of unknown types are counted for the `unknown_content` warning.
fn from_events<'a>(events: &'a [Json], out: &mut Builder) -> Vec<Block<'a>> {
    let mut blocks: Vec<Block<'a>> = Vec::new();
    // A block's `index` in the message → its position in `blocks` (`u32` keys: the map
    // the validator's label index uses, not one more instantiation in the module).
    let mut position: HashMap<u32, usize> = HashMap::new();
    let key = |event: &Json| event.index_at("index").and_then(|i| u32::try_from(i).ok());
    for event in events {
        let kind = event.type_name();
        if !out.knows("event", kind, EVENTS) {
            continue;
        }
        match kind {
            Some("message_start") => {
                let message = event.field("message");
                out.response_id = message.as_ref().and_then(|m| m.text_at("id"));
                out.model = message.as_ref().and_then(|m| m.text_at("model"));
            }
            Some("content_block_start") => {
                if let Some(index) = key(event) {
                    position.insert(index, blocks.len());
                }
                let started = event.field("content_block");
                blocks.push(started.map_or(Block::Other, |b| block(b, out)));
            }
            Some("content_block_delta") => {
                let Some(delta) = event.field("delta") else {
                    continue;
                };
                let kind = delta.type_name();
                let known = out.knows("delta", kind, DELTAS);
                if !known || !matches!(kind, Some("text_delta" | "citations_delta")) {
                    continue; // tool input, thinking, signatures, and types to come
                }
                let found = match key(event) {
                    Some(index) => position.get(&index).copied(),
                    None => blocks.len().checked_sub(1),
                };
                let at = found.unwrap_or_else(|| {
                    if let Some(index) = key(event) {
                        position.insert(index, blocks.len());
                    }
                    blocks.push(Block::Text {
                        text: String::new(),
                        citations: Vec::new(),
                    });
                    blocks.len() - 1
                });
                if let Block::Text { text, citations } = &mut blocks[at] {
                    match kind {
                        Some("text_delta") => {
                            text.push_str(&delta.text_at("text").unwrap_or_default());
                        }
                        _ => citations.extend(delta.field("citation")),
                    }
                }
            }
            _ => {}
        }
    }
    blocks
}

/// The source a citation at `span` names: a search result by its `source` and position
/// among the `search_result` blocks read, a web result by URL, else by its document
/// or search-result position, else (no position given) by its document title.
fn source_of(
    citation: &Json,
    results: &SearchResults,
    quote: Option<&str>,
    span: Span,
    out: &mut Builder,
) -> SourceRef {
    let title = || {
        citation
            .text_at("document_title")
            .or_else(|| citation.text_at("title"))
    };
    if citation.is("type", "search_result_location") {
        if let Some(source) = citation.text_at("source") {
            return search_result(citation, source, title(), results, quote, span, out);
        }
    }
    let url = citation
        .text_at("url")
        .or_else(|| citation.text_at("source").filter(|s| s.starts_with("http")));
    if let Some(url) = url {
        return out.label(&url, || web_source(&url, title()));
    }
    let position = citation
        .index_at("search_result_index")
        .map(|position| ("search result", position))
        .or_else(|| Some(("document", citation.index_at("document_index")?)));
    let Some((kind, position)) = position else {
        return document_by_title(title(), out);
    };
    if out.given {
        return out.label_at(position);
    }
    out.label(&format!("{kind} {position}"), || Source {
        title: title(),
        ..Source::default()
    })
}

/// Appends `text` without its white space to `into`; returns how many code points `text`
/// has.
#[inline(never)]
fn squeeze(text: &str, into: &mut String) -> usize {
    let mut count = 0;
    for c in text.chars() {
        count += 1;
        if !c.is_whitespace() {
            into.push(c);
        }
    }
    count
}

/// A `search_result` block of the conversation as a source, read as a caller's is
/// (src/model/input.rs): `source` the URL (an http(s) one) or else the id, the text
/// blocks joined by [`SEARCH_RESULT_BLOCK_SEPARATOR`]. A block that is no text block
/// leaves the text out (its place would shift the blocks after it): quotes are then
/// kept unverified rather than sought in the wrong text.
fn search_result_source(result: &Json, source: &str) -> Source {
    let is_url = source.starts_with("https://") || source.starts_with("http://");
    let blocks = result.list("content");
    let texts: Option<Vec<String>> = blocks
        .iter()
        .map(|b| b.is("type", "text").then(|| b.text_at("text")).flatten())
        .collect();
    Source {
        url: is_url.then(|| source.to_string()),
        id: (!is_url).then(|| source.to_string()),
        title: result.text_at("title"),
        text: texts.map(|t| t.join(SEARCH_RESULT_BLOCK_SEPARATOR)),
        ..Source::default()
    }
}

/// The search result a `search_result_location` names by its `source` (a URL or an id)
/// and `search_result_index`. Among the `search_result` blocks read, the one
/// [`SearchResults::named`] finds; its blocks must hold the quote ([`check_blocks`]).
/// Among the caller's sources (search result blocks as sources read their `source` as
/// `url` or `id`), taken for the request's search results in order: the one at
/// `search_result_index` when it has that URL or id, else the first that has it, else
/// the one at `search_result_index`. Without caller sources, the block's own source (two
/// results with one `source` stay two), else a source listed under the citation's
/// `source`, with its `title`.
fn search_result(
    citation: &Json,
    source: String,
    title: Option<String>,
    results: &SearchResults,
    quote: Option<&str>,
    span: Span,
    out: &mut Builder,
) -> SourceRef {
    let position = citation.index_at("search_result_index");
    let named = results.named(&source, position);
    if let Some(at) = named {
        check_blocks(citation, results.blocks[at], at, quote, span, out);
    }
    if out.given {
        // Two results of one page carry one `source`: the position tells them apart.
        if let Some(position) = position.filter(|&p| out.carries_at(p, &source)) {
            return out.label_at(position);
        }
        return match (out.label(&source, Source::default), position) {
            (SourceRef::Name(_), Some(position)) => out.label_at(position),
            (named, _) => named,
        };
    }
    if let Some(at) = named {
        let key = format!("search result {at}");
        return out.label(&key, || search_result_source(results.blocks[at], &source));
    }
    let is_url = source.starts_with("https://") || source.starts_with("http://");
    out.label(&source, || Source {
        url: is_url.then(|| source.clone()),
        id: (!is_url).then(|| source.clone()),
        title,
        ..Source::default()
    })
}

/// How long a cited block range may be, per code point of its quote, and still be
/// searched for it: the docs say `cited_text` is the range's text, so a real citation is
/// far inside this. A range counts its code points and one per block; a longer one is not
/// checked, so the check stays linear in the citation.
const RANGE_PER_QUOTE: usize = 4;
/// … plus this many.
const RANGE_SLACK: usize = 256;

/// Checks that `start_block_index`..`end_block_index` (end exclusive, the docs'
/// `CitationSearchResultLocation`) are blocks of `result` (search result `at`) that hold
/// the quote, white space left out (the API concatenates the blocks' text, in a way the
/// docs do not give). Otherwise an `offset_mismatch` warning at the citation's `span`: the
/// provider's location does not hold the text it quotes. A citation without both
/// indices, a range with a block other than text, or one longer than
/// [`RANGE_PER_QUOTE`] allows, is not checked.
fn check_blocks(
    citation: &Json,
    result: &Json,
    at: usize,
    quote: Option<&str>,
    span: Span,
    out: &mut Builder,
) {
    let (Some(start), Some(end)) = (
        citation.index_at("start_block_index"),
        citation.index_at("end_block_index"),
    ) else {
        return;
    };
    let blocks = result.list("content");
    if start <= end && end <= blocks.len() {
        let mut quoted = String::new();
        let mut budget = squeeze(quote.unwrap_or_default(), &mut quoted) * RANGE_PER_QUOTE;
        if quoted.is_empty() {
            return;
        }
        budget += RANGE_SLACK;
        let mut range = String::new();
        for block in &blocks[start..end] {
            let text = block.field("text").and_then(Json::text);
            let Some(text) = text.filter(|_| block.is("type", "text")) else {
                return;
            };
            // A block costs its code points (at least a quarter of its bytes) and one.
            if text.len().div_ceil(4) >= budget {
                return;
            }
            let Some(left) = budget.checked_sub(squeeze(text, &mut range) + 1) else {
                return;
            };
            budget = left;
        }
        if range.contains(quoted.as_str()) {
            return;
        }
    }
    let message = format!(
        "blocks {start}..{end} (end exclusive) of search result {at}, which has {}, do not \
         hold the quote",
        blocks.len()
    );
    out.warnings.push(Finding {
        code: FindingCode::OffsetMismatch,
        severity: Severity::Warning,
        message,
        citation: None,
        span: Some(span),
    });
}

/// A document citation without its `document_index` (as SDK objects are often passed
/// on trimmed to `cited_text` and `document_title`, e.g. the citations cookbook's
/// printout): the document is the one of that title, never silently the first. Without
/// a title either, the first document, as the API's index would default.
fn document_by_title(title: Option<String>, out: &mut Builder) -> SourceRef {
    let Some(title) = title else {
        return if out.given {
            out.label_at(0)
        } else {
            out.label("document 0", Source::default)
        };
    };
    let key = document_titled(&title);
    if out.given {
        return match out.labels.get(&key) {
            Some(&label) => SourceRef::Number(f64::from(label)),
            // Named as is: validation reports a title the caller's sources lack.
            None => SourceRef::Name(title),
        };
    }
    out.label(&key, || Source {
        title: Some(title.clone()),
        ..Source::default()
    })
}
