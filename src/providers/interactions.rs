//! Google's Interactions API (`"object": "interaction"`): the answer is the text blocks of
//! its `model_output` steps, and each text block's `annotations` (`url_citation`,
//! `file_citation`, `place_citation`) carry `start_index`/`end_index` into that block.
//! A stream is the list of its events (`event_type`): `step.delta` events append `text`
//! to step `index`, and `text_annotation_delta` (or `text_annotation`) deltas add
//! annotations indexed into that step's whole text.
//!
//! The offsets are UTF-8 bytes, as documented in the API's own types ("Index indicates the
//! start of the segment, measured in bytes": `URLCitation` and `FileCitation` in
//! googleapis/js-genai `src/interactions/resources/interactions.ts` @ 5c96e45d01), as
//! Gemini's `generateContent` segments are. No recording confirms it yet: the recorded
//! responses are ASCII, where every unit agrees. Steps (`thought`, `function_call`, the built-in tools' `…_call` / `…_result`),
//! deltas and events not listed below are read past; those of unknown types are counted
//! in the `unknown_content` warning.

use std::collections::HashMap;

use super::settle::{Expect, settle};
use super::{Builder, Json};
use crate::error::Error;
use crate::model::Source;
use crate::offsets::{OffsetMap, Unit};

/// The step types besides the built-in tools' `…_call` / `…_result` steps.
const STEPS: &str = "user_input model_output function_call thought";

/// The content block types of a `model_output` step.
const BLOCKS: &str = "text image video audio document";

/// The annotation types.
const ANNOTATIONS: &str = "url_citation file_citation place_citation";

/// The delta types of `step.delta` (the tools' deltas are named after their steps).
const DELTAS: &str = "text thought_summary thought_signature arguments_delta \
     text_annotation_delta text_annotation image video audio";

/// The stream's event types.
const EVENTS: &str = "interaction.created interaction.status_update interaction.in_progress \
     interaction.requires_action interaction.completed step.start step.delta step.stop error";

/// An interaction (`"object": "interaction"` with `steps`), or the list of its stream
/// events (the first one `interaction.created`).
pub fn recognizes(response: &Json) -> bool {
    match response.items() {
        Some(events) => events
            .first()
            .is_some_and(|e| e.is("event_type", "interaction.created")),
        None => response.is("object", "interaction") && response.field("steps").is_some(),
    }
}

/// Whether a step or delta `kind` is a built-in tool's call or result.
fn is_tool(kind: Option<&str>) -> bool {
    kind.is_some_and(|k| k.ends_with("_call") || k.ends_with("_result"))
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let Some(events) = response.items() else {
        out.response_id = response.text_at("id");
        out.model = response.text_at("model");
        for step in response.list("steps") {
            let kind = step.type_name();
            if is_tool(kind) || !out.knows("step", kind, STEPS) || kind != Some("model_output") {
                continue;
            }
            for block in step.list("content") {
                let kind = block.type_name();
                if out.knows("content block", kind, BLOCKS) && kind == Some("text") {
                    let text = block.text_at("text").unwrap_or_default();
                    let annotations: Vec<&Json> = block.list("annotations").iter().collect();
                    annotated(&text, &annotations, out);
                }
            }
        }
        return Ok(());
    };
    let created = events.first().and_then(|e| e.field("interaction"));
    out.response_id = created.and_then(|i| i.text_at("id"));
    out.model = created.and_then(|i| i.text_at("model"));
    // The text and annotations of each step, by its `index`, in first-seen order.
    let mut steps: Vec<(String, Vec<&Json>)> = Vec::new();
    let mut position: HashMap<u32, usize> = HashMap::new();
    for event in events {
        let kind = event.field("event_type").and_then(Json::text);
        if !out.knows("event", kind, EVENTS) || kind != Some("step.delta") {
            continue;
        }
        let Some(delta) = event.field("delta") else {
            continue;
        };
        let delta_kind = delta.type_name();
        if is_tool(delta_kind) || !out.knows("delta", delta_kind, DELTAS) {
            continue;
        }
        let index = event
            .index_at("index")
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(u32::MAX);
        let at = *position.entry(index).or_insert_with(|| {
            steps.push((String::new(), Vec::new()));
            steps.len() - 1
        });
        match delta_kind {
            Some("text") => steps[at]
                .0
                .push_str(&delta.text_at("text").unwrap_or_default()),
            Some("text_annotation_delta" | "text_annotation") => {
                steps[at].1.extend(delta.list("annotations"));
            }
            _ => {}
        }
    }
    for (text, annotations) in &steps {
        annotated(text, annotations, out);
    }
    Ok(())
}

/// Appends `text` to the answer and declares its annotations.
fn annotated(text: &str, annotations: &[&Json], out: &mut Builder) {
    let base = out.push_text(text);
    let map = OffsetMap::new(text);
    for annotation in annotations {
        if !out.knows("annotation", annotation.type_name(), ANNOTATIONS) {
            continue;
        }
        let title = annotation
            .text_at("title")
            .or_else(|| annotation.text_at("name"))
            .or_else(|| annotation.text_at("file_name"));
        let url = annotation.text_at("url");
        let id = annotation
            .text_at("place_id")
            .or_else(|| annotation.text_at("document_uri"));
        let Some(key) = url.clone().or_else(|| id.clone()) else {
            continue;
        };
        let source = out.label(&key, || Source {
            id,
            url,
            title: title.clone(),
            ..Source::default()
        });
        out.fill_title(&source, title);
        let span = match (
            annotation.index_at("start_index"),
            annotation.index_at("end_index"),
        ) {
            (Some(start), Some(end)) => {
                let settled = settle(
                    (text, &map),
                    base,
                    (start, end),
                    &[Unit::Utf8],
                    Expect::Nothing,
                );
                out.warnings.extend(settled.warning);
                settled.span
            }
            _ => None,
        };
        out.cite(source, span, None);
    }
}
