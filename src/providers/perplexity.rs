//! Perplexity chat completions: `[n]` markers in `choices[0].message.content` cite the
//! n-th entry of the `citations` list of URLs or, without one, of `search_results`
//! (`title`, `url`, `date`, `snippet`). When both are sent, `citations` numbers the
//! sources and the search result with the same URL gives each its title and snippet
//! (the first four citations of a URL listed more often). The markers are the
//! citations: no declared list, no offsets to convert.
//!
//! The reasoning models (`sonar-reasoning-pro`, `sonar-deep-research`) start the content
//! with their reasoning in `<think>…</think>`, which is not the answer (LangChain's
//! `ChatPerplexity` strips it the same way): the answer is what follows it.
//!
//! A stream is the list of its `chat.completion.chunk`s: the content is the chunks'
//! `choices[0].delta.content` in order, and every chunk repeats the lists (the last
//! one's count).
//!
//! Shapes from docs.perplexity.ai/api-reference/chat-completions.

use super::{Builder, Json, bad, web_source};
use crate::error::Error;
use crate::model::Source;
use crate::substr::Substr;
use std::collections::HashMap;

/// How many citations of one URL its search result gives a title and text; later
/// repeats of the URL are sources with the URL alone, as a URL without a search result
/// is (the responses we have seen list each URL once; a crafted one may repeat one
/// many times).
const RESULT_COPIES: usize = 4;

/// Chat-completion `choices` with a top-level `search_results` or `citations` list; or
/// a list of stream chunks, one of which has one.
pub fn recognizes(response: &Json) -> bool {
    match response.items() {
        Some(chunks) => {
            chunks
                .first()
                .is_some_and(|c| c.is("object", "chat.completion.chunk"))
                && chunks.iter().any(lists_sources)
        }
        None => response.field("choices").is_some() && lists_sources(response),
    }
}

/// Whether a completion or chunk has a `search_results` or `citations` (URLs) list.
fn lists_sources(response: &Json) -> bool {
    response.field("search_results").is_some()
        || response
            .list("citations")
            .first()
            .is_some_and(|c| c.text().is_some())
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let (content, listing) = match response.items() {
        Some(chunks) => {
            let content = chunks
                .iter()
                .filter_map(|c| {
                    c.list("choices")
                        .first()?
                        .field("delta")?
                        .text_at("content")
                })
                .collect::<String>();
            let listing = chunks.iter().rev().find(|c| lists_sources(c));
            (content, listing.unwrap_or(response))
        }
        None => {
            let content = response
                .list("choices")
                .iter()
                .next()
                .and_then(|c| c.field("message"))
                .and_then(|m| m.text_at("content"))
                .ok_or_else(|| bad(".choices[0].message.content", "missing"))?;
            (content, response)
        }
    };
    out.response_id = listing.text_at("id");
    out.model = listing.text_at("model");
    out.push_text(after_reasoning(&content));
    if out.given {
        return Ok(());
    }
    let results = listing.list("search_results");
    let result_source = |result: &Json| Source {
        text: result.text_at("snippet"),
        ..web_source(
            &result.text_at("url").unwrap_or_default(),
            result.text_at("title"),
        )
    };
    let urls: Vec<&str> = listing
        .list("citations")
        .iter()
        .filter_map(Json::text)
        .collect();
    if urls.is_empty() {
        out.sources.extend(results.iter().map(result_source));
        return Ok(());
    }
    // Both lists: the markers number `citations`; a search result with the same URL
    // gives its source a title and text (the first such result, found by a map read
    // once: a search per citation made n citations of n results cost n²), to at most
    // `RESULT_COPIES` citations of its URL: n repeats of one URL read the result's fields
    // n times (a search of its keys each) and copied its snippet n times, n × its length
    // from a response of n + its length.
    let mut by_url: HashMap<&str, (usize, usize)> = HashMap::new();
    for (i, result) in results.iter().enumerate() {
        if let Some(url) = result.field("url").and_then(Json::text) {
            by_url.entry(url).or_insert((i, 0));
        }
    }
    for url in urls {
        let source = match by_url.get_mut(url) {
            Some((i, copies)) if *copies < RESULT_COPIES => {
                *copies += 1;
                result_source(&results[*i])
            }
            _ => web_source(url, None),
        };
        out.sources.push(source);
    }
    Ok(())
}

/// `content` after a leading `<think>…</think>` block and the blank space after it; all of
/// it when there is none, or when the block never closes (a stream cut in its reasoning
/// is kept whole, never read as an empty answer).
fn after_reasoning(content: &str) -> &str {
    let rest = content.trim_start();
    let Some(thinking) = rest.strip_prefix("<think>") else {
        return content;
    };
    match thinking.find("</think>") {
        Some(end) => thinking.sub(end + "</think>".len()..).trim_start(),
        None => content,
    }
}
