//! The prompt side: numbered context for the model (spec 002) and JSON Schemas for its
//! structured output (specs 002, 003, 004).

use crate::model::Source;
use crate::substr::Substr;

/// Spec 002's numbered context: `[1] text (Source: title)`, blank-line separated, each
/// text cut to at most `max_chars` characters (never inside a character).
///
/// ```
/// use citeproof::model::Source;
/// let sources = vec![
///     Source { title: Some("history.md".into()), text: Some("Litecoin was created in 2011.".into()), ..Source::default() },
///     Source { text: Some("😀".repeat(3)), ..Source::default() },
/// ];
/// let context = citeproof::prompt::format_context(&sources, 10);
/// assert_eq!(context, "[1] Litecoin w (Source: history.md)\n\n[2] 😀😀😀 (Source: Untitled)");
/// ```
pub fn format_context(sources: &[Source], max_chars: usize) -> String {
    let mut out = String::new();
    for (i, source) in sources.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        let text = source.text.as_deref().unwrap_or("");
        let cut = text
            .char_indices()
            .nth(max_chars)
            .map_or(text.len(), |(at, _)| at);
        let label = source.label(i);
        let title = source.title.as_deref().unwrap_or("Untitled");
        out.push_str(&format!("[{label}] {} (Source: {title})", text.sub(..cut)));
    }
    out
}

/// The structured-output shapes of the specs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaStyle {
    /// Spec 002: `{ answer, citations: [1, 2], confidence, missing_information }`.
    Indexed,
    /// Spec 003: `{ answer, citations: [{ doc_id, chunk_id, snippet }], mode }`.
    Chunks,
    /// Spec 004: `{ answer, citations: [{ source, relevance, quote, evidence_idx, alignment_score, span_in_answer }] }`.
    Enhanced,
}

impl SchemaStyle {
    /// Parses `indexed`, `chunks` or `enhanced`.
    pub fn from_name(name: &str) -> Option<SchemaStyle> {
        match name {
            "indexed" => Some(SchemaStyle::Indexed),
            "chunks" => Some(SchemaStyle::Chunks),
            "enhanced" => Some(SchemaStyle::Enhanced),
            _ => None,
        }
    }
}

/// A JSON Schema (draft 2020-12) for the model's structured output, as JSON text.
pub fn citation_schema(style: SchemaStyle) -> &'static str {
    match style {
        SchemaStyle::Indexed => INDEXED,
        SchemaStyle::Chunks => CHUNKS,
        SchemaStyle::Enhanced => ENHANCED,
    }
}

const INDEXED: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "StructuredRAGResponse",
  "type": "object",
  "properties": {
    "answer": { "type": "string", "description": "The answer, with inline citation markers like [1], [2] where claims are made." },
    "citations": { "type": "array", "items": { "type": "integer", "minimum": 1 }, "description": "1-based indices of the source documents used." },
    "confidence": { "type": "number", "minimum": 0, "maximum": 1 },
    "missing_information": { "type": ["string", "null"] }
  },
  "required": ["answer", "citations", "confidence"]
}"#;

const CHUNKS: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "CitedAnswer",
  "type": "object",
  "properties": {
    "answer": { "type": "string" },
    "citations": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "doc_id": { "type": "string" },
          "chunk_id": { "type": "string", "description": "Must be one of the retrieved chunk ids." },
          "snippet": { "type": "string", "description": "Copied exactly from the chunk text; 120-300 characters reads best." },
          "url": { "type": "string" }
        },
        "required": ["chunk_id", "snippet"]
      }
    },
    "mode": { "enum": ["answer", "clarify", "refuse"] }
  },
  "required": ["answer", "citations", "mode"]
}"#;

const ENHANCED: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "AlignedCitations",
  "type": "object",
  "properties": {
    "answer": { "type": "string" },
    "citations": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "source": { "type": "string", "minLength": 1 },
          "relevance": { "type": "number", "minimum": 0, "maximum": 1 },
          "quote": { "type": "string", "minLength": 1 },
          "evidence_idx": { "type": "integer", "minimum": 0 },
          "alignment_score": { "type": "number", "minimum": 0, "maximum": 1 },
          "span_in_answer": { "type": "string" }
        },
        "required": ["source", "relevance", "quote"]
      }
    }
  },
  "required": ["answer", "citations"]
}"#;
