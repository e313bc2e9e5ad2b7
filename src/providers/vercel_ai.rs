//! Vercel AI SDK: a `generateText` / `streamText` result (`text`, `sources`, or
//! `content` parts, and `providerMetadata`), or a UI message (`parts` of type `text`,
//! `source-url`, `source-document`).
//!
//! Shapes from ai-sdk.dev/docs (generateText result, "Sources", UIMessage parts). The
//! SDK keeps the sources but drops the providers' offsets, except Google's grounding
//! metadata, which the Gemini adapter reads (its offsets are bytes of the text). Without
//! it, `[n]` markers in the text cite the n-th source; an answer without markers is
//! declared to cite every source as a whole.

use super::{Builder, Json, gemini, web_source};
use crate::error::Error;
use crate::model::{Source, SourceRef};

/// A result with `text` and `sources` / `providerMetadata` / `content`, or a message
/// with `parts`.
pub fn recognizes(response: &Json) -> bool {
    (response.field("text").is_some_and(|t| t.text().is_some())
        && (response.field("sources").is_some()
            || response.field("providerMetadata").is_some()
            || response.field("content").is_some()))
        || response.field("parts").is_some()
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    let parts = match response.field("parts") {
        Some(parts) => parts.items().unwrap_or_default(),
        None => response.list("content"),
    };
    let text = response.text_at("text").unwrap_or_else(|| {
        parts
            .iter()
            .filter(|p| p.is("type", "text"))
            .filter_map(|p| p.text_at("text"))
            .collect()
    });
    let sources: Vec<&Json> = response
        .list("sources")
        .iter()
        .chain(parts.iter().filter(|p| {
            p.is("type", "source") || p.is("type", "source-url") || p.is("type", "source-document")
        }))
        .collect();
    let base = out.push_text(&text);
    let mut labels: Vec<SourceRef> = Vec::new();
    for source in &sources {
        let id = source.text_at("id").or_else(|| source.text_at("sourceId"));
        let title = source
            .text_at("title")
            .or_else(|| source.text_at("filename"));
        let key = source.text_at("url").or(id.clone()).unwrap_or_default();
        labels.push(match source.text_at("url") {
            Some(url) => out.label(&key, || Source {
                id,
                ..web_source(&url, title)
            }),
            None => out.label(&key, || Source {
                id,
                title,
                ..Source::default()
            }),
        });
    }
    let google = response
        .field("providerMetadata")
        .and_then(|m| m.field("google"))
        .and_then(|g| g.field("groundingMetadata"));
    if let Some(metadata) = google {
        return gemini::grounding(metadata, &[text], &[base], out);
    }
    if crate::parse::parse(&out.answer).is_empty() {
        for label in labels {
            out.cite(label, None, None);
        }
    }
    Ok(())
}
