//! Cohere v2 chat: `message.content[]` text parts and `message.citations[]` with
//! `start`, `end`, `text` (the cited answer text) and `sources` (`document` with its
//! `id` and `document` fields, or `tool` output).
//!
//! Shapes from docs.cohere.com/reference/chat (v2) and the "RAG citations" guide. The
//! docs do not name the unit of `start`/`end`; the adapter tries code points (Python
//! `str` indices), then UTF-16, then bytes, keeps the first whose span is exactly
//! `text`, and otherwise searches for `text` near the offsets (`offset_mismatch`).
//! Citations of type `THINKING_CONTENT` or `PLAN` (with `content_index`) cite the
//! model's thinking or tool plan, not the answer: read past. Content parts, citation
//! types and sources, and stream events of types not listed below are read past and
//! counted in the `unknown_content` warning.

use super::settle::{Expect, settle};
use super::{Builder, Json};
use crate::error::Error;
use crate::model::Source;
use crate::offsets::{OffsetMap, Unit};

/// The content part types of a v2 message.
const PARTS: &str = "text thinking";

/// The source types of a v2 citation.
const SOURCES: &str = "document tool";

/// The types of a v2 citation: of the answer text, of the model's thinking, of its
/// tool plan. Only the first cites the answer; a citation without a type is one.
const CITATIONS: &str = "TEXT_CONTENT THINKING_CONTENT PLAN";

/// The v2 stream's event types.
const EVENTS: &str = "message-start content-start content-delta content-end tool-plan-delta \
     tool-call-start tool-call-delta tool-call-end citation-start \
     citation-end message-end debug";

/// A v2 chat response: a `message` with `content`, and `finish_reason`; or the list
/// of a stream's events (`message-start`, `content-delta`, `citation-start`, …).
pub fn recognizes(response: &Json) -> bool {
    if let Some(events) = response.items() {
        return events
            .first()
            .is_some_and(|e| e.is("type", "message-start"));
    }
    response
        .field("message")
        .is_some_and(|m| m.field("content").is_some() || m.field("citations").is_some())
        && response.field("choices").is_none()
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    if let Some(events) = response.items() {
        return from_events(events, out);
    }
    out.response_id = response.text_at("id");
    let Some(message) = response.field("message") else {
        return Ok(());
    };
    let mut text = String::new();
    for part in message.list("content") {
        let kind = part.type_name();
        if out.knows("content part", kind, PARTS) && part.is("type", "text") {
            text.push_str(&part.text_at("text").unwrap_or_default());
        }
    }
    let citations: Vec<&Json> = message.list("citations").iter().collect();
    cited(&text, &citations, out);
    Ok(())
}

/// A stream: `content-delta` events carry the text (`delta.message.content.text`),
/// `citation-start` events one citation each (`delta.message.citations`), indexed into
/// the whole text; every other event is read past.
fn from_events(events: &[Json], out: &mut Builder) -> Result<(), Error> {
    out.response_id = events.first().and_then(|e| e.text_at("id"));
    fn message(event: &Json) -> Option<&Json> {
        event.field("delta")?.field("message")
    }
    let mut text = String::new();
    let mut citations = Vec::new();
    for event in events {
        let kind = event.type_name();
        if !out.knows("event", kind, EVENTS) {
            continue;
        }
        match kind {
            Some("content-delta") => {
                let content = message(event).and_then(|m| m.field("content"));
                text.push_str(&content.and_then(|c| c.text_at("text")).unwrap_or_default());
            }
            Some("citation-start") => {
                citations.extend(message(event).and_then(|m| m.field("citations")))
            }
            _ => {}
        }
    }
    cited(&text, &citations, out);
    Ok(())
}

/// Appends `text` to the answer and declares its `citations`.
fn cited(text: &str, citations: &[&Json], out: &mut Builder) {
    let base = out.push_text(text);
    let map = OffsetMap::new(text);
    for citation in citations {
        let kind = citation.type_name().unwrap_or("TEXT_CONTENT");
        if !out.knows("citation", Some(kind), CITATIONS) || kind != "TEXT_CONTENT" {
            continue; // thinking and tool-plan citations: their offsets are not the answer's
        }
        let cited = citation.text_at("text");
        let span = match (citation.index_at("start"), citation.index_at("end")) {
            (Some(start), Some(end)) => {
                let expect = cited.as_deref().map_or(Expect::Nothing, Expect::Text);
                let units = [Unit::CodePoint, Unit::Utf16, Unit::Utf8];
                let settled = settle((text, &map), base, (start, end), &units, expect);
                out.warnings.extend(settled.warning);
                settled.span
            }
            _ => None,
        };
        for source in citation.list("sources") {
            if !out.knows("citation source", source.type_name(), SOURCES) {
                continue;
            }
            let document = source.field("document");
            let field = |name: &'static str| document.as_ref().and_then(|d| d.text_at(name));
            let Some(id) = source.text_at("id").or_else(|| field("id")) else {
                continue;
            };
            let label = out.label(&id, || Source {
                id: Some(id.clone()),
                title: field("title"),
                url: field("url"),
                text: field("text").or_else(|| field("snippet")),
                ..Source::default()
            });
            out.cite(label, span, None);
        }
    }
}
