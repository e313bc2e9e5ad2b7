//! Google Gemini `generateContent`: `candidates[0].groundingMetadata` lists the
//! retrieved `groundingChunks` (`web` or `retrievedContext`) and `groundingSupports`
//! whose `segment` (`partIndex`, `startIndex` — omitted when 0 —, `endIndex`, `text`)
//! is measured in UTF-8 bytes of that part, with `groundingChunkIndices` and
//! `confidenceScores`.
//!
//! Shapes from ai.google.dev/api/generate-content (GroundingMetadata, GroundingSupport,
//! Segment: "measured in bytes") and the "Grounding with Google Search" guide. A support
//! becomes one declared citation per chunk index, at the segment's span.
//! `confidenceScores` are not carried over: as spec 004's `alignmentScore` they would
//! make every citation a spec-004 one, whose required `relevance` and `quote` Gemini
//! does not give (a warning per citation on a correct answer).

use super::settle::{Expect, settle};
use super::{Builder, Json, bad, web_source};
use crate::error::Error;
use crate::model::{Source, SourceRef};
use crate::offsets::Unit;

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    out.response_id = response.text_at("responseId");
    out.model = response.text_at("modelVersion");
    let candidate = response
        .list("candidates")
        .iter()
        .next()
        .ok_or_else(|| bad(".candidates", "no candidate"))?;
    let parts: Vec<String> = candidate
        .field("content")
        .map(|c| c.list("parts"))
        .unwrap_or_default()
        .iter()
        .map(|p| {
            p.text_at("text")
                .filter(|_| p.field("thought").is_none())
                .unwrap_or_default()
        })
        .collect();
    let bases: Vec<usize> = parts.iter().map(|p| out.push_text(p)).collect();
    match candidate.field("groundingMetadata") {
        Some(metadata) => grounding(metadata, &parts, &bases, out),
        None => Ok(()),
    }
}

/// Declares the citations of `metadata` (also used for the Vercel AI SDK's Google
/// provider metadata) over an answer made of `parts` starting at `bases`.
pub fn grounding(
    metadata: &Json,
    parts: &[String],
    bases: &[usize],
    out: &mut Builder,
) -> Result<(), Error> {
    let chunks = metadata.list("groundingChunks");
    let mut labels = Vec::with_capacity(chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        let web = chunk
            .field("web")
            .or_else(|| chunk.field("retrievedContext"));
        let url = web.as_ref().and_then(|w| w.text_at("uri"));
        let title = web.as_ref().and_then(|w| w.text_at("title"));
        let text = web.as_ref().and_then(|w| w.text_at("text"));
        labels.push(match (url, out.given) {
            (Some(url), _) => out.label(&url, || Source {
                text,
                ..web_source(&url, title)
            }),
            (None, true) => out.label_at(i),
            (None, false) => out.label(&format!("chunk {i}"), || Source {
                title,
                text,
                ..Source::default()
            }),
        });
    }
    for (i, support) in metadata.list("groundingSupports").iter().enumerate() {
        let segment = support
            .field("segment")
            .ok_or_else(|| bad(&format!(".groundingSupports[{i}].segment"), "missing"))?;
        let part = segment.index_at("partIndex").unwrap_or(0);
        let text = segment.text_at("text");
        let (Some(part_text), Some(&base)) = (parts.get(part), bases.get(part)) else {
            return Err(bad(
                &format!(".groundingSupports[{i}].segment.partIndex"),
                "names no text part",
            ));
        };
        let start = segment.index_at("startIndex").unwrap_or(0);
        let end = segment.index_at("endIndex").unwrap_or(start);
        let expect = text.as_deref().map_or(Expect::Nothing, Expect::Text);
        let settled = settle(part_text, base, (start, end), &[Unit::Utf8], expect);
        out.warnings.extend(settled.warning);
        for chunk in support.list("groundingChunkIndices") {
            let Some(index) = chunk.number() else {
                continue;
            };
            let source = match labels.get(index as usize) {
                Some(label) if index.fract() == 0.0 && index >= 0.0 => label.clone(),
                _ => SourceRef::Number(index + 1.0),
            };
            out.cite(source, settled.span, None);
        }
    }
    Ok(())
}
