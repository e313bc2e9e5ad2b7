//! Amazon Bedrock Converse: `output.message.content` is a list of content blocks, each
//! a union keyed by field name. `text` blocks and the `content` texts of
//! `citationsContent` blocks make the answer; each citation of a `citationsContent`
//! block backs the text of its block. Its `location` names the source: `web` (`url`),
//! or `documentChar` / `documentPage` / `documentChunk` (`documentIndex` into the
//! request's documents) and `searchResultLocation` (`searchResultIndex`); its
//! `sourceContent` texts are the quote. The `start`/`end` of a location count characters,
//! pages or chunks of the *source*, not of the answer: no answer offsets.
//!
//! A stream (ConverseStream) is the list of its events: `contentBlockDelta` carries
//! `text` or one `citation` for block `contentBlockIndex`, and a block that received a
//! citation is a cited block (its text the citations' span).
//!
//! Shapes from docs.aws.amazon.com/bedrock/latest/APIReference (Converse,
//! ConverseStream, ContentBlock, CitationsContentBlock, Citation, CitationLocation).
//! Blocks, deltas and events of kinds not listed below are read past and counted in the
//! `unknown_content` warning.

use std::collections::HashMap;

use super::{Builder, Json, web_source};
use crate::error::Error;
use crate::model::{Source, SourceRef, Span};

/// The content block kinds of Converse (`ContentBlock`).
const BLOCKS: &str = "text image document video audio toolUse toolResult guardContent \
     cachePoint reasoningContent citationsContent searchResult";

/// The delta kinds of `contentBlockDelta` (`ContentBlockDelta`).
const DELTAS: &str = "text toolUse toolResult reasoningContent citation image";

/// The ConverseStream event kinds.
const EVENTS: &str = "messageStart contentBlockStart contentBlockDelta contentBlockStop \
     messageStop metadata internalServerException modelStreamErrorException \
     validationException throttlingException serviceUnavailableException";

/// A Converse response (`output.message`), or the list of ConverseStream events (the
/// first one `messageStart`).
pub fn recognizes(response: &Json) -> bool {
    match response.items() {
        Some(events) => events
            .first()
            .is_some_and(|e| e.field("messageStart").is_some()),
        None => response
            .field("output")
            .and_then(|o| o.field("message"))
            .is_some_and(|m| m.field("content").and_then(Json::items).is_some()),
    }
}

/// One block of the answer: its text and the citations that back it.
#[derive(Default)]
struct Block<'a> {
    text: String,
    citations: Vec<&'a Json>,
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let blocks = match response.items() {
        Some(events) => from_events(events, out),
        None => {
            let message = response.field("output").and_then(|o| o.field("message"));
            let content = message.map(|m| m.list("content")).unwrap_or_default();
            content.iter().filter_map(|b| block(b, out)).collect()
        }
    };
    for block in blocks {
        let start = out.push_text(&block.text);
        let span = Span::new(start, out.answer.len());
        for citation in block.citations {
            let source = source_of(citation, out);
            let quote: String = citation
                .list("sourceContent")
                .iter()
                .filter_map(|c| c.field("text").and_then(Json::text))
                .collect();
            out.cite(source, Some(span), Some(quote).filter(|q| !q.is_empty()));
        }
    }
    Ok(())
}

/// The answer text a content block holds, with its citations; `None` for a block that
/// holds none (tool use, reasoning, …).
fn block<'a>(value: &'a Json, out: &mut Builder) -> Option<Block<'a>> {
    let kind = value.kind_key("");
    if !out.knows("content block", kind, BLOCKS) {
        return None;
    }
    match kind? {
        "text" => Some(Block {
            text: value.text_at("text").unwrap_or_default(),
            citations: Vec::new(),
        }),
        "citationsContent" => {
            let cited = value.field("citationsContent")?;
            Some(Block {
                text: cited
                    .list("content")
                    .iter()
                    .filter_map(|c| c.field("text").and_then(Json::text))
                    .collect(),
                citations: cited.list("citations").iter().collect(),
            })
        }
        _ => None,
    }
}

/// The blocks a stream's `contentBlockDelta` events build, in the order they started.
fn from_events<'a>(events: &'a [Json], out: &mut Builder) -> Vec<Block<'a>> {
    let mut blocks: Vec<Block<'a>> = Vec::new();
    let mut position: HashMap<u32, usize> = HashMap::new();
    for event in events {
        let kind = event.kind_key("");
        if !out.knows("event", kind, EVENTS) || kind != Some("contentBlockDelta") {
            continue;
        }
        let Some(body) = event.field("contentBlockDelta") else {
            continue;
        };
        let Some(delta) = body.field("delta") else {
            continue;
        };
        let delta_kind = delta.kind_key("");
        if !out.knows("delta", delta_kind, DELTAS) {
            continue;
        }
        let index = body
            .index_at("contentBlockIndex")
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(u32::MAX);
        let at = *position.entry(index).or_insert_with(|| {
            blocks.push(Block::default());
            blocks.len() - 1
        });
        match delta_kind {
            Some("text") => blocks[at]
                .text
                .push_str(delta.field("text").and_then(Json::text).unwrap_or_default()),
            Some("citation") => blocks[at].citations.extend(delta.field("citation")),
            _ => {}
        }
    }
    blocks
}

/// The source a citation's `location` names: a web page by URL, else the request's
/// document or search result by its position.
fn source_of(citation: &Json, out: &mut Builder) -> SourceRef {
    let title = citation.text_at("title");
    let location = citation.field("location");
    let kind = location.and_then(|l| l.kind_key(""));
    let place = location.zip(kind).and_then(|(l, k)| l.field(k));
    if let Some(url) = place.and_then(|p| p.text_at("url")) {
        return out.label(&url, || web_source(&url, title));
    }
    let (what, position) = match place.and_then(|p| p.index_at("searchResultIndex")) {
        Some(position) => ("search result", position),
        None => (
            "document",
            place.and_then(|p| p.index_at("documentIndex")).unwrap_or(0),
        ),
    };
    if out.given {
        return out.label_at(position);
    }
    out.label(&format!("{what} {position}"), || Source {
        title,
        ..Source::default()
    })
}
