//! OpenAI: Chat Completions `message.annotations` (`url_citation`; also Mistral's chat,
//! whose `content` can be a list of chunks with `reference` / `tool_reference` citations),
//! the Responses API's
//! `output_text.annotations` (`url_citation`, `file_citation`,
//! `container_file_citation`, `file_path`) and Assistants messages (`file_citation` /
//! `file_path` annotations on `【4:0†source】` markers).
//!
//! Shapes from platform.openai.com/docs/api-reference (chat object, response object,
//! message object) and the web-search and file-search guides. The docs call
//! `start_index`/`end_index` "the index of the first/last character"; they do not say
//! which unit. The adapter tries code points (Python's `str` indices, what the API is
//! observed to use), then UTF-16, then bytes, and takes the first whose span holds the
//! link's URL (web) or the marker text (Assistants); failing all three it searches for
//! them near the offsets and warns (`offset_mismatch`). `file_citation.index` and
//! `file_path.index` (Responses) are documented as "the index of the file in the list of
//! files", not as a text position, so those citations carry no span. Nor does an
//! annotation with `start_index = end_index = 0`: OpenRouter's placeholder when the
//! model behind it gave no position (an empty span at the start would cite nothing).
//!
//! Output items, content parts and annotations of types not listed below, and stream
//! events outside the Responses API's `response.…` family, are read past and counted in
//! the `unknown_content` warning.

use std::collections::HashMap;

use super::settle::{Expect, settle};
use super::{Builder, Json, bad};
use crate::error::Error;
use crate::model::{Source, Span};
use crate::offsets::{OffsetMap, Unit};
use crate::substr::Substr;

/// The units OpenAI's offsets are tried in.
const UNITS: [Unit; 3] = [Unit::CodePoint, Unit::Utf16, Unit::Utf8];

/// The Responses API's output item types.
const OUTPUT_ITEMS: &str = "message reasoning web_search_call file_search_call function_call \
     custom_tool_call computer_call code_interpreter_call \
     image_generation_call local_shell_call shell_call apply_patch_call \
     mcp_call mcp_list_tools mcp_approval_request";

/// The content part types of a Responses message and of an Assistants message.
const PARTS: &str = "output_text refusal text image_file image_url";

/// The annotation types of all three APIs.
const ANNOTATIONS: &str = "url_citation file_citation container_file_citation file_path";

/// A chat completion (`choices[].message`), the list of its stream chunks
/// (`"object": "chat.completion.chunk"`), a response (`output`), the list of its stream
/// events (`"type": "response.created"`, …), or an Assistants message
/// (`"object": "thread.message"`).
pub fn recognizes(response: &Json) -> bool {
    if let Some(chunks) = response.items() {
        return chunks
            .first()
            .is_some_and(|c| c.is("object", "chat.completion.chunk") || is_response_event(c));
    }
    response.field("output").and_then(Json::items).is_some()
        || response.is("object", "thread.message")
        || response
            .list("choices")
            .first()
            .is_some_and(|c| c.field("message").is_some())
}

pub fn read(response: &Json, out: &mut Builder) -> Result<(), Error> {
    if let Some(chunks) = response.items() {
        if chunks.first().is_some_and(is_response_event) {
            return from_response_events(chunks, out);
        }
        from_chunks(chunks, out);
        return Ok(());
    }
    out.response_id = response.text_at("id");
    out.model = response.text_at("model");
    if let Some(output) = response.field("output") {
        for (i, item) in output.items().unwrap_or_default().iter().enumerate() {
            if !out.knows("output item", item.type_name(), OUTPUT_ITEMS) {
                continue;
            }
            if item.is("type", "web_search_call") {
                searched(item, out);
                continue;
            }
            if !item.is("type", "message") {
                continue;
            }
            for (j, part) in item.list("content").iter().enumerate() {
                let kind = part.type_name();
                if out.knows("content part", kind, PARTS) && part.is("type", "output_text") {
                    let text = part.text_at("text").ok_or_else(|| {
                        bad(&format!(".output[{i}].content[{j}].text"), "missing")
                    })?;
                    annotated(&text, part.list("annotations"), out);
                }
            }
        }
    } else if response.is("object", "thread.message") {
        for part in response.list("content") {
            if !out.knows("content part", part.type_name(), PARTS) {
                continue;
            }
            if let Some(text) = part.field("text").filter(|_| part.is("type", "text")) {
                let value = text.text_at("value").unwrap_or_default();
                annotated(&value, text.list("annotations"), out);
            }
        }
    } else {
        let message = response
            .list("choices")
            .iter()
            .next()
            .and_then(|c| c.field("message"))
            .ok_or_else(|| bad(".choices[0].message", "missing"))?;
        match message.field("content").and_then(Json::items) {
            Some(chunks) => chunked(chunks, out),
            None => {
                let content = message.text_at("content").unwrap_or_default();
                annotated(&content, message.list("annotations"), out);
            }
        }
    }
    Ok(())
}

/// The content chunk types of a chat message whose `content` is a list (Mistral).
const CHUNKS: &str = "text reference tool_reference thinking image_url document_url \
     input_audio file";

/// A chat message whose `content` is a list of chunks, as Mistral sends it: `text`
/// chunks make the answer; a `reference` chunk (`reference_ids`: the ids of the
/// documents its tools returned) or a `tool_reference` chunk (a web result: `url`,
/// `title`) cites the text chunk just before it.
fn chunked(chunks: &[Json], out: &mut Builder) {
    let mut before: Option<Span> = None;
    for chunk in chunks {
        let kind = chunk.type_name();
        if !out.knows("content chunk", kind, CHUNKS) {
            continue;
        }
        match kind {
            Some("text") => {
                let start = out.push_text(&chunk.text_at("text").unwrap_or_default());
                before = Some(Span::new(start, out.answer.len()));
            }
            Some("reference") => {
                for id in chunk.list("reference_ids") {
                    // An integer id as its digits, formatted as an integer: a float's
                    // formatting would add Rust's float printer to the module.
                    let id = match id {
                        Json::String(id) => id.clone(),
                        Json::Number(n) if n.fract() == 0.0 && (0.0..1e15).contains(n) => {
                            (*n as u64).to_string()
                        }
                        _ => continue,
                    };
                    let source = out.label(&id, || Source {
                        id: Some(id.clone()),
                        ..Source::default()
                    });
                    out.cite(source, before, None);
                }
            }
            Some("tool_reference") => {
                let (url, title) = (chunk.text_at("url"), chunk.text_at("title"));
                let Some(key) = url.clone().or_else(|| title.clone()) else {
                    continue;
                };
                let source = out.label(&key, || Source {
                    url,
                    title,
                    ..Source::default()
                });
                out.cite(source, before, None);
            }
            _ => {}
        }
    }
}

/// The pages a web search call found (`action.sources`, when the request asked for
/// them) or opened (`action.url`): sources, in the order the search met them, unless the
/// caller gave its own.
fn searched(call: &Json, out: &mut Builder) {
    let Some(action) = call.field("action").filter(|_| !out.given) else {
        return;
    };
    let found = action
        .list("sources")
        .iter()
        .filter_map(|s| s.text_at("url"));
    for url in found.chain(action.text_at("url")) {
        out.label(&url, || super::web_source(&url, None));
    }
}

/// An event of a streamed response (`"type": "response.created"`, …).
fn is_response_event(event: &Json) -> bool {
    event
        .type_name()
        .is_some_and(|t| t.starts_with("response."))
}

/// A streamed response: the response that `response.completed` carries (also
/// `response.incomplete` / `response.failed`, whose output is what was written), read as
/// a response; before one arrives, the `response.output_text.delta` pieces of each
/// output text in order, with the `response.output_text.annotation.added` annotations
/// (indexed into that whole text). Every other event is read past (counted when it is
/// not of the `response.…` family, or `error`).
fn from_response_events(events: &[Json], out: &mut Builder) -> Result<(), Error> {
    for event in events {
        let kind = event.type_name();
        if kind != Some("error") && !is_response_event(event) {
            out.count_unknown("event", kind);
        }
    }
    let done = [
        "response.completed",
        "response.incomplete",
        "response.failed",
    ];
    let last = events.iter().rev().find_map(|event| {
        let kind = event.type_name()?;
        let response = event.field("response")?;
        done.contains(&kind)
            .then_some(response)
            .filter(|r| r.field("output").is_some())
    });
    if let Some(response) = last {
        return read(response, out);
    }
    let started = events.iter().find_map(|e| e.field("response"));
    out.response_id = started.and_then(|r| r.text_at("id"));
    out.model = started.and_then(|r| r.text_at("model"));
    // One entry per output text, by (output_index, content_index), in first-seen order.
    let mut texts: Vec<(String, Vec<Json>)> = Vec::new();
    // The key packs both indices in a `u32` (the map type the validator's label index
    // uses, not one more instantiation in the module); past 65,535 they name nothing.
    let mut position: HashMap<u32, usize> = HashMap::new();
    for event in events {
        let kind = event.type_name().unwrap_or_default();
        if kind != "response.output_text.delta" && kind != "response.output_text.annotation.added" {
            continue;
        }
        let index = |name| event.index_at(name).unwrap_or(0);
        let (output, content) = (index("output_index"), index("content_index"));
        if output > 0xFFFF || content > 0xFFFF {
            continue;
        }
        let key = (output << 16 | content) as u32;
        let at = *position.entry(key).or_insert_with(|| {
            texts.push((String::new(), Vec::new()));
            texts.len() - 1
        });
        match event.field("annotation") {
            Some(annotation) => texts[at].1.push(annotation.clone()),
            None => texts[at]
                .0
                .push_str(&event.text_at("delta").unwrap_or_default()),
        }
    }
    for (text, annotations) in &texts {
        annotated(text, annotations, out);
    }
    Ok(())
}

/// A streamed chat completion: the first choice's `delta.content` pieces make the
/// answer; `delta.annotations` (sent near the end, indexed into the whole message)
/// are its annotations. A `delta.content` that is a list of chunks (Mistral) makes the
/// stream a chunked message, read as [`chunked`] reads a whole one: the text its deltas
/// send between two citing chunks is one text chunk. Chunks that are not objects (the
/// `[DONE]` line) are skipped.
fn from_chunks(chunks: &[Json], out: &mut Builder) {
    out.response_id = chunks.first().and_then(|c| c.text_at("id"));
    out.model = chunks.first().and_then(|c| c.text_at("model"));
    let mut content = String::new();
    let mut annotations = Vec::new();
    // The content as the deltas sent it: text (a range of `content`) or a listed chunk.
    let mut pieces: Vec<Streamed> = Vec::new();
    let mut listed = false;
    for chunk in chunks {
        let Some(delta) = chunk.list("choices").first().and_then(|c| c.field("delta")) else {
            continue;
        };
        match delta.field("content") {
            Some(Json::Array(items)) => {
                listed = true;
                for item in items {
                    if item.is("type", "text") {
                        let text = item.text_at("text").unwrap_or_default();
                        pieces.push(Streamed::text(&mut content, &text));
                    } else {
                        pieces.push(Streamed::Chunk(item));
                    }
                }
            }
            Some(Json::String(text)) => pieces.push(Streamed::text(&mut content, text)),
            _ => {}
        }
        annotations.extend(delta.list("annotations").iter().cloned());
    }
    if !listed {
        return annotated(&content, &annotations, out);
    }
    // Consecutive text pieces are one text chunk (a stream splits a chunk anywhere).
    let mut message: Vec<Json> = Vec::new();
    let mut text: Option<std::ops::Range<usize>> = None;
    for piece in pieces {
        match piece {
            Streamed::Text(range) => {
                text = Some(text.map_or(range.clone(), |t| t.start..range.end));
            }
            Streamed::Chunk(chunk) => {
                message.extend(text.take().map(|t| text_chunk(content.sub(t))));
                message.push(chunk.clone());
            }
        }
    }
    message.extend(text.map(|t| text_chunk(content.sub(t))));
    chunked(&message, out);
}

/// A piece of a streamed message's content.
enum Streamed<'a> {
    /// Text, at this range of the content gathered so far.
    Text(std::ops::Range<usize>),
    /// A chunk of a listed `delta.content` other than text (`reference`, `thinking`, …).
    Chunk(&'a Json),
}

impl Streamed<'_> {
    /// Appends `text` to `content`; the piece is its range there.
    fn text(content: &mut String, text: &str) -> Self {
        let start = content.len();
        content.push_str(text);
        Streamed::Text(start..content.len())
    }
}

/// A `text` chunk holding `text`.
fn text_chunk(text: &str) -> Json {
    Json::Object(vec![
        ("type".to_string(), Json::String("text".to_string())),
        ("text".to_string(), Json::String(text.to_string())),
    ])
}

/// What an annotation's offsets should hold.
enum Anchor {
    /// A link to this URL (`url_citation`).
    Link(String),
    /// This marker text (`【4:0†source】` of an Assistants file citation).
    Marker(String),
    /// Not said.
    Unknown,
}

/// Appends `text` to the answer and declares its annotations.
fn annotated(text: &str, annotations: &[Json], out: &mut Builder) {
    let base = out.push_text(text);
    let map = OffsetMap::new(text);
    for annotation in annotations {
        let kind = annotation.type_name();
        if !out.knows("annotation", kind, ANNOTATIONS) {
            continue;
        }
        let kind = kind.unwrap_or_default();
        // Chat Completions nest the fields under the type's name; the Responses API
        // and Assistants keep offsets at the top.
        let body = ["url_citation", "file_citation", "file_path"]
            .into_iter()
            .find(|&name| name == kind)
            .and_then(|name| annotation.field(name));
        let field = |name: &'static str| {
            annotation
                .text_at(name)
                .or_else(|| body.as_ref().and_then(|b| b.text_at(name)))
        };
        let offset = |name: &'static str| {
            annotation
                .index_at(name)
                .or_else(|| body.as_ref().and_then(|b| b.index_at(name)))
        };
        let (source, anchor) = match kind {
            "url_citation" => {
                let Some(url) = field("url") else { continue };
                let title = field("title");
                let source = out.label(&url, || super::web_source(&url, title.clone()));
                out.fill_title(&source, title);
                (source, Anchor::Link(url))
            }
            "file_citation" | "container_file_citation" | "file_path" => {
                let Some(file) = field("file_id") else {
                    continue;
                };
                let name = field("filename");
                let source = out.label(&file, || Source {
                    id: Some(file.clone()),
                    title: name,
                    ..Source::default()
                });
                let marker = annotation.text_at("text");
                (source, marker.map_or(Anchor::Unknown, Anchor::Marker))
            }
            _ => continue,
        };
        let span = match (offset("start_index"), offset("end_index")) {
            // OpenRouter's placeholder for "no position" (its chat annotations from
            // providers that give none): read as a citation without offsets.
            (Some(0), Some(0)) => None,
            (Some(start), Some(end)) => {
                let expect = match &anchor {
                    Anchor::Marker(marker) => Expect::Text(marker),
                    Anchor::Link(url) => Expect::Link(url),
                    _ => Expect::Nothing,
                };
                let settled = settle((text, &map), base, (start, end), &UNITS, expect);
                out.warnings.extend(settled.warning);
                settled.span
            }
            _ => None,
        };
        out.cite(source, span, field("quote"));
    }
}
