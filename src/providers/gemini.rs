//! Google Gemini `generateContent`: `candidates[0].groundingMetadata` lists the
//! retrieved `groundingChunks` (`web`, `retrievedContext` or `maps`) and `groundingSupports`
//! whose `segment` (`partIndex`, `startIndex` — omitted when 0 —, `endIndex`, `text`)
//! is measured in UTF-8 bytes of that part, with `groundingChunkIndices` and
//! `confidenceScores`. A segment without `partIndex` is measured from the start of the
//! answer's text (the text parts joined): Gemini 3 omits it, also when a `toolCall`,
//! `toolResponse`, `functionCall` or thought part comes before the text, and the
//! recorded segments hold their `text` there.
//!
//! Shapes from ai.google.dev/api/generate-content (GroundingMetadata, GroundingSupport,
//! Segment: "measured in bytes") and the "Grounding with Google Search" guide. A
//! stream's chunks (`streamGenerateContent`) are read as one text: the docs do not say
//! what a streamed segment's offsets count from; the grounding arrives with the last
//! chunk and indexes the whole answer, which `segment.text` verifies. A support
//! becomes one declared citation per chunk index, at the segment's span.
//! `confidenceScores` are not carried over: as spec 004's `alignmentScore` they would
//! make every citation a spec-004 one, whose required `relevance` and `quote` Gemini
//! does not give (a warning per citation on a correct answer).
//!
//! Parts and grounding chunks are unions keyed by field name. A part holding none of the
//! kinds listed below but a field besides their metadata, and a chunk of none of the
//! listed kinds, are counted in the `unknown_content` warning. Such a part adds no text
//! but keeps its place (`partIndex` counts every part); such a chunk is still a source
//! (read like a `web` chunk), since supports name chunks by their position.

use super::settle::{Expect, settle};
use super::{Builder, Json, bad, web_source};
use crate::error::Error;
use crate::model::{Source, SourceRef};
use crate::offsets::{OffsetMap, Unit};

/// What a part holds (its data field) besides text.
const PARTS: &str = "text inlineData fileData functionCall functionResponse executableCode \
     codeExecutionResult toolCall toolResponse";

/// A part's fields that describe its data rather than being it.
const PART_METADATA: &str = "thought thoughtSignature videoMetadata partMetadata mediaResolution";

/// The grounding chunk kinds: `web` (Google Search), `retrievedContext` (RAG, Vertex AI
/// Search), `maps` (Google Maps: a place, its `placeId` kept as the source id).
const CHUNKS: &str = "web retrievedContext maps";

/// A response (`candidates`), or the list of `streamGenerateContent` chunks; or an
/// Interactions API interaction or its events (read by `interactions.rs`).
pub fn recognizes(response: &Json) -> bool {
    if super::interactions::recognizes(response) {
        return true;
    }
    match response.items() {
        Some(chunks) => chunks
            .first()
            .is_some_and(|c| c.field("candidates").is_some()),
        None => response.field("candidates").is_some(),
    }
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    if super::interactions::recognizes(response) {
        return super::interactions::read(response, out);
    }
    let chunks = response.items().unwrap_or(std::slice::from_ref(response));
    let first = chunks.first().ok_or_else(|| bad("", "no chunk"))?;
    out.response_id = first.text_at("responseId");
    out.model = first.text_at("modelVersion");
    // A streamed answer is one text (its chunks' parts joined), and the grounding of
    // the last chunk that has one indexes that text; a whole response keeps its parts.
    let mut parts: Vec<String> = Vec::new();
    let mut metadata = None;
    for (i, chunk) in chunks.iter().enumerate() {
        let candidate = chunk.list("candidates").first().ok_or_else(|| {
            let at = if response.items().is_some() {
                format!("[{i}]")
            } else {
                String::new()
            };
            bad(&format!("{at}.candidates"), "no candidate")
        })?;
        // A whole response keeps its parts (`partIndex` counts them all); a stream's make
        // one text. A thought, or a part of an unknown kind, adds no text.
        let streamed = response.items().is_some();
        if streamed && parts.is_empty() {
            parts.push(String::new());
        }
        let content_parts = candidate.field("content").map(|c| c.list("parts"));
        for part in content_parts.unwrap_or_default() {
            // A part holding none of the known kinds, but something besides metadata, is
            // of a kind still to come; a text is read whatever else the part holds.
            if !PARTS.split(' ').any(|kind| part.field(kind).is_some()) {
                if let Some(kind) = part.kind_key(PART_METADATA) {
                    out.count_unknown("part", Some(kind));
                }
            }
            let text = match part.field("thought") {
                Some(Json::Bool(true)) => None,
                _ => part.field("text").and_then(Json::text),
            };
            match parts.last_mut() {
                Some(joined) if streamed => joined.push_str(text.unwrap_or_default()),
                _ => parts.push(text.unwrap_or_default().to_string()),
            }
        }
        metadata = candidate.field("groundingMetadata").or(metadata);
    }
    let bases: Vec<usize> = parts.iter().map(|p| out.push_text(p)).collect();
    match metadata {
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
        // A kind still to come is counted, and read as the known ones are (its `uri`,
        // `title`, `text`): supports name chunks by position, so each keeps its place.
        let web = CHUNKS
            .split(' ')
            .find_map(|kind| chunk.field(kind))
            .or_else(|| {
                let kind = chunk.kind_key("");
                out.count_unknown("grounding chunk", kind);
                chunk.field(kind?)
            });
        let url = web.as_ref().and_then(|w| w.text_at("uri"));
        let title = web.as_ref().and_then(|w| w.text_at("title"));
        let text = web.as_ref().and_then(|w| w.text_at("text"));
        let id = web.as_ref().and_then(|w| w.text_at("placeId"));
        labels.push(match (url, out.given) {
            (Some(url), _) => out.label(&url, || Source {
                text,
                id,
                ..web_source(&url, title)
            }),
            (None, true) => out.label_at(i),
            (None, false) => out.label(&format!("chunk {i}"), || Source {
                title,
                text,
                id,
                ..Source::default()
            }),
        });
    }
    let whole = parts.concat();
    // Each text's offset map made once, for all the supports that cite in it.
    let whole_map = OffsetMap::new(&whole);
    let part_maps: Vec<OffsetMap<'_>> = parts.iter().map(|p| OffsetMap::new(p)).collect();
    for (i, support) in metadata.list("groundingSupports").iter().enumerate() {
        let segment = support
            .field("segment")
            .ok_or_else(|| bad(&format!(".groundingSupports[{i}].segment"), "missing"))?;
        let text = segment.text_at("text");
        // Without `partIndex` (Gemini 3 omits it, also when a tool call, tool response or
        // thought comes first) the offsets count from the start of the answer's text;
        // with one, from the start of that part.
        let (part_text, base) = match segment.index_at("partIndex") {
            None => (
                (whole.as_str(), &whole_map),
                bases.first().copied().unwrap_or(0),
            ),
            Some(part) => match (parts.get(part), part_maps.get(part), bases.get(part)) {
                (Some(part_text), Some(map), Some(&base)) => ((part_text.as_str(), map), base),
                _ => {
                    return Err(bad(
                        &format!(".groundingSupports[{i}].segment.partIndex"),
                        "names no text part",
                    ));
                }
            },
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
