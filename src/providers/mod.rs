//! Provider adapters: an LLM API response, in its provider's shape and offset unit,
//! becomes one [`Input`] whose declared citations carry exact byte spans of the answer.
//!
//! | provider | response | offsets it gives | how the adapter places a citation |
//! |---|---|---|---|
//! | Anthropic | Messages `content` blocks, or the stream's events | none in the answer | the text block the citation belongs to |
//! | OpenAI | Chat Completions `annotations`, Responses `output_text.annotations`, Assistants `【4:0†source】` | characters (code points), undocumented | code points, else UTF-16, else bytes: whichever holds the link's URL or the marker; else searched |
//! | Gemini | `groundingMetadata.groundingSupports[].segment` | UTF-8 bytes of one part (documented); of the answer's text without `partIndex` | bytes of the part, checked against `segment.text`; else searched |
//! | Gemini Interactions | `model_output` text blocks' `annotations` (`url_citation`, …), or `text_annotation_delta`s | UTF-8 bytes (documented in the API's types) | the annotation's offsets |
//! | Cohere | v2 chat `message.citations` | characters, undocumented | code points, else UTF-16, else bytes: whichever holds `text`; else searched |
//! | Perplexity | `[n]` markers in the content, `search_results` / `citations` | none | the markers themselves |
//! | Vercel AI SDK | `text` + `sources` (or `content`/`parts`), Google grounding metadata | Gemini's, when present | as Gemini; else the markers, else the whole answer |
//! | Amazon Bedrock | Converse `output.message.content` (`citationsContent` blocks), or ConverseStream events | none in the answer (a location's `start`/`end` count the source's characters, pages or chunks) | the block the citation belongs to |
//!
//! Sources: when the caller passes the sources it retrieved, citations are matched to
//! them (by URL or id, else by the provider's 0-based position) and a citation of
//! anything else is an `unknown_source` finding; otherwise the response's own list
//! (search results, grounding chunks, cited documents) becomes the sources. Quotes
//! (`cited_text`, file-citation quotes) are declared: located in the source's text when
//! there is one (the caller's sources, or source text the provider returned), else
//! reported `unverified` (no finding) and shown by the citation card as stated.
//!
//! Forward compatible: a block, delta, event, annotation or chunk of a type the
//! provider's docs name but that is not part of the answer (tool use, thinking, …) is
//! read past silently; one of a type the adapter does not know is read past too, and
//! counted, with all the others of its response, in one `unknown_content` warning. Only
//! a response in which nothing is recognisable is an error.

mod anthropic;
mod bedrock;
mod cohere;
mod gemini;
mod interactions;
mod json;
mod openai;
mod perplexity;
mod settle;
mod vercel_ai;

pub use json::Json;

use std::collections::HashMap;

use crate::error::{Error, ErrorCode};
use crate::model::{
    DeclaredCitation, Finding, FindingCode, Input, Loose, Severity, Source, SourceRef, Span,
};

/// The APIs citeproof reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic Messages (also its stream events).
    Anthropic,
    /// OpenAI Chat Completions, Responses, or an Assistants message.
    OpenAi,
    /// Google Gemini `generateContent`.
    Gemini,
    /// Cohere v2 chat.
    Cohere,
    /// Perplexity chat completions.
    Perplexity,
    /// A Vercel AI SDK `generateText` result or UI message.
    VercelAi,
    /// Amazon Bedrock Converse (also its ConverseStream events).
    Bedrock,
}

impl Provider {
    /// Every provider, in the order [`detect`] tries them.
    pub const ALL: [Provider; 7] = [
        Provider::Anthropic,
        Provider::Bedrock,
        Provider::Gemini,
        Provider::Cohere,
        Provider::Perplexity,
        Provider::OpenAi,
        Provider::VercelAi,
    ];

    /// `anthropic`, `openai`, `gemini`, `cohere`, `perplexity`, `vercel-ai`, `bedrock`.
    pub const fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
            Provider::Gemini => "gemini",
            Provider::Cohere => "cohere",
            Provider::Perplexity => "perplexity",
            Provider::VercelAi => "vercel-ai",
            Provider::Bedrock => "bedrock",
        }
    }

    /// True when `response` has this provider's shape.
    pub fn recognizes(self, response: &Json) -> bool {
        match self {
            Provider::Anthropic => anthropic::recognizes(response),
            Provider::OpenAi => openai::recognizes(response),
            Provider::Gemini => gemini::recognizes(response),
            Provider::Cohere => cohere::recognizes(response),
            Provider::Perplexity => perplexity::recognizes(response),
            Provider::VercelAi => vercel_ai::recognizes(response),
            Provider::Bedrock => bedrock::recognizes(response),
        }
    }
}

/// The provider whose shape `response` has.
pub fn detect(response: &Json) -> Option<Provider> {
    Provider::ALL.into_iter().find(|p| p.recognizes(response))
}

/// Turns `response` into an [`Input`] as `provider`'s adapter reads it. `sources`: the
/// sources the caller retrieved and sent, if any (see the module docs).
///
/// ```
/// use citeproof::providers::{adapt, Json, Provider};
/// let response = Json::parse(r#"{
///   "candidates": [{ "content": { "parts": [{ "text": "Spain won Euro 2024." }] },
///     "groundingMetadata": {
///       "groundingChunks": [{ "web": { "uri": "https://uefa.com", "title": "uefa.com" } }],
///       "groundingSupports": [{ "segment": { "endIndex": 20, "text": "Spain won Euro 2024." },
///                               "groundingChunkIndices": [0] }] } }]
/// }"#).unwrap();
/// let input = adapt(Provider::Gemini, &response, None).unwrap();
/// let validator = citeproof::validate::Validator::new(Default::default()).unwrap();
/// let report = validator.validate(&input).unwrap();
/// assert_eq!(report.citations[0].span.unwrap().end, 20);
/// ```
pub fn adapt(
    provider: Provider,
    response: &Json,
    sources: Option<Vec<Source>>,
) -> Result<Input, Error> {
    let mut builder = Builder::new(sources);
    match provider {
        Provider::Anthropic => anthropic::read(response, &mut builder)?,
        Provider::OpenAi => openai::read(response, &mut builder)?,
        Provider::Gemini => gemini::read(response, &mut builder)?,
        Provider::Cohere => cohere::read(response, &mut builder)?,
        Provider::Perplexity => perplexity::read(response, &mut builder)?,
        Provider::VercelAi => vercel_ai::read(response, &mut builder)?,
        Provider::Bedrock => bedrock::read(response, &mut builder)?,
    }
    Ok(builder.finish())
}

/// [`detect`] then [`adapt`]; an unknown shape is an `unknown_provider_format` error.
pub fn from_any(response: &Json, sources: Option<Vec<Source>>) -> Result<(Provider, Input), Error> {
    let provider = detect(response).ok_or_else(|| {
        Error::new(
            ErrorCode::UnknownProviderFormat,
            "response",
            "not a response of Anthropic, OpenAI, Gemini, Cohere, Perplexity, Amazon Bedrock or \
             the Vercel AI SDK",
        )
    })?;
    adapt(provider, response, sources).map(|input| (provider, input))
}

/// An `invalid_input` error for the response field at `path`.
fn bad(path: &str, message: &str) -> Error {
    Error::new(ErrorCode::InvalidInput, format!("response{path}"), message)
}

/// The input an adapter is putting together.
struct Builder {
    answer: String,
    sources: Vec<Source>,
    /// The caller gave the sources: match them, never add any.
    given: bool,
    /// Labels of the sources by the key the provider names them with: the caller's
    /// sources by their URL, id, doc id and chunk id, and by their title as
    /// [`document_titled`] keys it (the first source with a key wins), or the sources
    /// added so far.
    labels: HashMap<String, u32>,
    citations: Vec<DeclaredCitation>,
    warnings: Vec<Finding>,
    /// Parts read past because their type is unknown: (the kind of part and its type,
    /// how many), in the order first met.
    unknown: Vec<(String, u32)>,
    /// Where each name of [`Builder::unknown`] is in it.
    unknown_at: HashMap<String, u32>,
    response_id: Option<String>,
    model: Option<String>,
}

impl Builder {
    fn new(mut sources: Option<Vec<Source>>) -> Builder {
        // The Input carries a source's text alone: a text the caller gave twice, with
        // different values, is said now, in its warnings.
        let mut warnings = Vec::new();
        for (i, source) in sources.iter_mut().flatten().enumerate() {
            warnings.extend(source.text_differs_warning(i));
            source.text_differs = None;
        }
        // The caller's sources by the keys a provider names them with, read once: a
        // citation's key is then looked up, not searched for among every source.
        let mut labels = HashMap::new();
        for (i, source) in sources.iter().flatten().enumerate() {
            for key in [&source.url, &source.id, &source.doc_id, &source.chunk_id]
                .into_iter()
                .flatten()
            {
                labels.entry(key.clone()).or_insert(source.label(i));
            }
            if let Some(title) = &source.title {
                let key = document_titled(title);
                labels.entry(key).or_insert(source.label(i));
            }
        }
        Builder {
            given: sources.is_some(),
            sources: sources.unwrap_or_default(),
            answer: String::new(),
            labels,
            citations: Vec::new(),
            warnings,
            unknown: Vec::new(),
            unknown_at: HashMap::new(),
            response_id: None,
            model: None,
        }
    }

    /// Whether `kind`, the `type` of a `part` ("content block", "delta", …) of the
    /// response, is one of the `known` types (names separated by spaces: a list of
    /// `&str` costs the module twice the bytes); a type that is not (or none) is counted
    /// for the `unknown_content` warning.
    #[inline(never)]
    fn knows(&mut self, part: &str, kind: Option<&str>, known: &str) -> bool {
        let knows = kind.is_some_and(|kind| known.split(' ').any(|k| k == kind));
        if !knows {
            self.count_unknown(part, kind);
        }
        knows
    }

    /// Counts a `part` of the response of an unknown type `kind` (or none) for the
    /// `unknown_content` warning.
    #[inline(never)]
    fn count_unknown(&mut self, part: &str, kind: Option<&str>) {
        let name = match kind {
            Some(kind) => format!("{part} \"{kind}\""),
            None => format!("{part} without a type"),
        };
        // Found by a map of the names to their place in the list: a search of the list
        // made n parts of n types cost n².
        match self.unknown_at.get(&name) {
            Some(&at) => self.unknown[at as usize].1 += 1,
            None => {
                self.unknown_at
                    .insert(name.clone(), self.unknown.len() as u32);
                self.unknown.push((name, 1));
            }
        }
    }

    /// The `unknown_content` warning counting the parts read past, if any.
    #[inline(never)]
    fn unknown_content(&self) -> Option<Finding> {
        if self.unknown.is_empty() {
            return None;
        }
        let total: u32 = self.unknown.iter().map(|(_, count)| count).sum();
        let plural = if total == 1 { "" } else { "s" };
        let mut message = format!(
            "read past {total} part{plural} of the response of a type this adapter does not \
             know ("
        );
        for (i, (name, count)) in self.unknown.iter().enumerate() {
            if i > 0 {
                message.push_str(", ");
            }
            message.push_str(name);
            if *count > 1 {
                message.push_str(&format!(" ×{count}"));
            }
        }
        message.push_str("); only the text and the citations it knows make the answer");
        Some(Finding::new(
            FindingCode::UnknownContent,
            Severity::Warning,
            message,
        ))
    }

    /// Appends a piece of the answer; returns the byte where it starts.
    fn push_text(&mut self, text: &str) -> usize {
        let base = self.answer.len();
        self.answer.push_str(text);
        base
    }

    /// The label of the source the provider names `key` (a URL, a file id, "document
    /// 2"): a caller's source with that URL or id, else the source added for `key`
    /// before, else `make()` added to the list (only when the caller gave none). A key
    /// the caller's sources lack is named as is, so validation reports it unknown.
    fn label(&mut self, key: &str, make: impl FnOnce() -> Source) -> SourceRef {
        if let Some(&label) = self.labels.get(key) {
            return SourceRef::Number(f64::from(label));
        }
        if self.given {
            return SourceRef::Name(key.to_string());
        }
        self.sources.push(make());
        let label = self.sources.len() as u32;
        self.labels.insert(key.to_string(), label);
        SourceRef::Number(f64::from(label))
    }

    /// Whether the caller's source at 0-based `position` carries `key` as its URL or id
    /// (see [`Builder::label`]).
    fn carries_at(&self, position: usize, key: &str) -> bool {
        self.sources.get(position).is_some_and(|s| carries(s, key))
    }

    /// The label of the caller's source at 0-based `position`; past the end, the
    /// label one past it would have (an `out_of_range` finding).
    fn label_at(&self, position: usize) -> SourceRef {
        SourceRef::Number(match self.sources.get(position) {
            Some(source) => f64::from(source.label(position)),
            None => position as f64 + 1.0,
        })
    }

    /// Gives a source this adapter listed without a title (a search result seen before
    /// the citation that names it) the `title` a citation states.
    fn fill_title(&mut self, source: &SourceRef, title: Option<String>) {
        if let SourceRef::Number(label) = *source {
            let listed = (label as usize).checked_sub(1).filter(|_| !self.given);
            if let Some(listed) = listed.and_then(|i| self.sources.get_mut(i)) {
                listed.title = listed.title.take().or(title);
            }
        }
    }

    /// Declares a citation of `source` at `span` of the answer, with the quote the
    /// provider states for it. It is located in the source's text when there is one (the
    /// caller's sources, or text the provider returned); else it is kept unverified, for
    /// the citation card to show.
    fn cite(&mut self, source: SourceRef, span: Option<Span>, quote: Option<String>) {
        self.citations.push(DeclaredCitation {
            source: Some(Loose::Valid(source)),
            quote: quote.map(Loose::Valid),
            span: span.map(Loose::Valid),
            ..DeclaredCitation::default()
        });
    }

    fn finish(mut self) -> Input {
        self.warnings.extend(self.unknown_content());
        Input {
            answer: self.answer,
            sources: self.sources,
            citations: (!self.citations.is_empty()).then_some(self.citations),
            response_id: self.response_id,
            model_version: self.model,
            warnings: self.warnings,
            ..Input::default()
        }
    }
}

/// Whether `source` carries `key` as its URL, id, doc id or chunk id (a `search_result`
/// block read as a source has its `source` as its URL or id).
fn carries(source: &Source, key: &str) -> bool {
    [&source.url, &source.id, &source.doc_id, &source.chunk_id]
        .iter()
        .any(|v| v.as_deref() == Some(key))
}

/// The key of a document a citation names by its title alone (Anthropic's
/// `document_title` without its `document_index`).
fn document_titled(title: &str) -> String {
    format!("document \"{title}\"")
}

/// A source known by its URL and title.
fn web_source(url: &str, title: Option<String>) -> Source {
    Source {
        url: Some(url.to_string()),
        title,
        ..Source::default()
    }
}
