//! Vercel AI SDK: a `generateText` / `streamText` result (`text`, `sources`, or
//! `content` parts, and `providerMetadata`), a UI message (`parts` of type `text`,
//! `source-url`, `source-document`), or the parts of a stream (`streamText`'s
//! `fullStream`: `text-start`, `text-delta`, `text-end`, `source`, …; a UI message
//! stream: `text-delta` with `delta`, `source-url`, …).
//!
//! Shapes from ai-sdk.dev/docs (generateText result, "Sources", UIMessage parts) and the
//! `ai` package's types (`LanguageModelV4StreamPart`, `LanguageModelV4Citation`). Since
//! the SDK's seventh major, text parts (and a stream's `text-end`) may carry `citations`:
//! a source, `startIndex`/`endIndex` in that text (JS string indices, UTF-16; code
//! points and bytes are tried after) and the `citedText` the source supports it with.
//! Before that the SDK dropped the providers' offsets, except Google's grounding metadata,
//! which the Gemini adapter reads (bytes of the text). Without either, `[n]` markers in
//! the text cite the n-th source; an answer without markers is declared to cite every
//! source as a whole.
//!
//! Parts (of a result's `content`, a message, or a stream) of types not listed below are
//! read past and counted in the `unknown_content` warning.

use std::collections::HashMap;

use super::settle::{Expect, settle};
use super::{Builder, Json, gemini, web_source};
use crate::error::Error;
use crate::model::{Source, SourceRef};
use crate::offsets::{OffsetMap, Unit};

/// The part types of the SDK's results, UI messages and both streams (v4 to v7);
/// besides, every `tool-…` (a UI message's tool parts) and `data-…` (custom data) part.
const PARTS: &str = "text text-start text-delta text-end reasoning reasoning-start \
     reasoning-delta reasoning-end redacted-reasoning reasoning-signature \
     source source-url source-document file dynamic-tool start finish \
     start-step finish-step step-start step-finish stream-start \
     response-metadata message-metadata raw error abort custom reasoning-file \
     steering-message reset-step";

/// Whether a part's type is one the SDK defines; one that is not is counted.
fn known(part: &Json, out: &mut Builder) -> bool {
    let kind = part.type_name();
    let family = |k: &str| k.starts_with("tool-") || k.starts_with("data-");
    kind.is_some_and(family) || out.knows("part", kind, PARTS)
}

/// A text of the answer and the citations that index into it.
struct Block<'a> {
    text: String,
    citations: Vec<&'a Json>,
}

/// A result with `text` and `sources` / `providerMetadata` / `content`, a message
/// with `parts`, or a stream's parts.
pub fn recognizes(response: &Json) -> bool {
    if let Some(parts) = response.items() {
        let streamed = ["text-delta", "text-start", "source", "source-url"];
        return parts
            .iter()
            .any(|p| streamed.iter().any(|kind| p.is("type", kind)));
    }
    (response.field("text").is_some_and(|t| t.text().is_some())
        && (response.field("sources").is_some()
            || response.field("providerMetadata").is_some()
            || response.field("content").is_some()))
        || response.field("parts").is_some()
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let (blocks, sources) = match response.items() {
        Some(parts) => streamed(parts, out),
        None => whole(response, out),
    };
    let labels: Vec<SourceRef> = sources.iter().map(|s| label(s, out)).collect();
    let mut texts = Vec::with_capacity(blocks.len());
    let mut bases = Vec::with_capacity(blocks.len());
    for block in &blocks {
        let base = out.push_text(&block.text);
        let map = OffsetMap::new(&block.text);
        for citation in &block.citations {
            let Some(source) = citation.field("source") else {
                continue;
            };
            let label = label(source, out);
            let span = match (
                citation.index_at("startIndex"),
                citation.index_at("endIndex"),
            ) {
                (Some(start), Some(end)) => {
                    let units = [Unit::Utf16, Unit::CodePoint, Unit::Utf8];
                    let settled = settle(
                        (&block.text, &map),
                        base,
                        (start, end),
                        &units,
                        Expect::Nothing,
                    );
                    out.warnings.extend(settled.warning);
                    settled.span
                }
                _ => None,
            };
            out.cite(label, span, citation.text_at("citedText"));
        }
        texts.push(block.text.clone());
        bases.push(base);
    }
    let google = response
        .field("providerMetadata")
        .and_then(|m| m.field("google"))
        .and_then(|g| g.field("groundingMetadata"));
    if let Some(metadata) = google {
        return gemini::grounding(metadata, &texts, &bases, out);
    }
    let cited = blocks.iter().any(|b| !b.citations.is_empty());
    if !cited && crate::parse::parse(&out.answer).is_empty() {
        for label in labels {
            out.cite(label, None, None);
        }
    }
    Ok(())
}

/// A result or a message: its text parts (one block of `text` when no part carries
/// citations) and its sources.
fn whole<'a>(response: &'a Json, out: &mut Builder) -> (Vec<Block<'a>>, Vec<&'a Json>) {
    let parts = match response.field("parts") {
        Some(parts) => parts.items().unwrap_or_default(),
        None => response.list("content"),
    };
    let parts: Vec<&Json> = parts.iter().filter(|p| known(p, out)).collect();
    let text_parts = parts.iter().filter(|p| p.is("type", "text"));
    let blocks = if text_parts.clone().any(|p| p.field("citations").is_some()) {
        text_parts
            .map(|p| Block {
                text: p.text_at("text").unwrap_or_default(),
                citations: p.list("citations").iter().collect(),
            })
            .collect()
    } else {
        let text = response
            .text_at("text")
            .unwrap_or_else(|| text_parts.filter_map(|p| p.text_at("text")).collect());
        vec![Block {
            text,
            citations: Vec::new(),
        }]
    };
    let sources = response
        .list("sources")
        .iter()
        .chain(parts.iter().copied().filter(|p| is_source(p)))
        .collect();
    (blocks, sources)
}

/// A stream's parts: the text of each text block (by `id`, in the order they start),
/// the citations its `text-end` carries, and the source parts. Every other part (tool
/// calls, reasoning, steps, …) is read past.
fn streamed<'a>(parts: &'a [Json], out: &mut Builder) -> (Vec<Block<'a>>, Vec<&'a Json>) {
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut by_id: HashMap<String, u32> = HashMap::new();
    let mut sources = Vec::new();
    for part in parts.iter().filter(|p| known(p, out)) {
        if is_source(part) {
            sources.push(part);
            continue;
        }
        let kind = part.type_name();
        if !matches!(kind, Some("text-start" | "text-delta" | "text-end")) {
            continue;
        }
        let id = part.text_at("id").unwrap_or_default();
        let at = *by_id.entry(id).or_insert_with(|| {
            blocks.push(Block {
                text: String::new(),
                citations: Vec::new(),
            });
            blocks.len() as u32 - 1
        }) as usize;
        let block = &mut blocks[at];
        match kind {
            // `text` in `fullStream`, `delta` in a UI message stream, `textDelta` before v5.
            Some("text-delta") => {
                let delta = ["text", "delta", "textDelta"]
                    .into_iter()
                    .find_map(|name| part.text_at(name));
                block.text.push_str(&delta.unwrap_or_default());
            }
            Some("text-end") => block.citations.extend(part.list("citations")),
            _ => {}
        }
    }
    (blocks, sources)
}

/// A source part or a citation's source: `source` (`sourceType` `url` or `document`),
/// `source-url` or `source-document`.
fn is_source(part: &Json) -> bool {
    ["source", "source-url", "source-document"]
        .iter()
        .any(|kind| part.is("type", kind))
}

/// The label of a source, listed by its URL (else its id) the first time.
fn label(source: &Json, out: &mut Builder) -> SourceRef {
    let id = source.text_at("id").or_else(|| source.text_at("sourceId"));
    let title = source
        .text_at("title")
        .or_else(|| source.text_at("filename"));
    let key = source.text_at("url").or(id.clone()).unwrap_or_default();
    match source.text_at("url") {
        Some(url) => out.label(&key, || Source {
            id,
            ..web_source(&url, title)
        }),
        None => out.label(&key, || Source {
            id,
            title,
            ..Source::default()
        }),
    }
}
