//! What `validate` reads: the answer, the retrieved sources, the declared citations.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::{Finding, FindingCode, Severity, Span};
use crate::offsets::{OffsetMap, Unit};

/// One request to validate (docs/architecture.md §4).
///
/// ```
/// use citeproof::model::{Input, Source};
/// let input = Input {
///     answer: "Paris is the capital of France [1].".into(),
///     sources: vec![Source { text: Some("Paris is the capital of France.".into()), ..Source::default() }],
///     ..Input::default()
/// };
/// assert_eq!(input.sources.len(), 1);
/// ```
///
/// It serialises with its documented (camelCase) names, leaving out what is absent: the
/// form in which the provider adapters return it to JS.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    /// The model's answer, markdown.
    pub answer: String,
    /// The retrieved set, in prompt order (`[1]` is the first unless `index` says otherwise).
    #[serde(default)]
    pub sources: Vec<Source>,
    /// What the model declared, when its output is structured: objects, or bare source
    /// labels (`[1, 2]`, spec 002).
    #[serde(
        default,
        deserialize_with = "declared_citations",
        skip_serializing_if = "Option::is_none"
    )]
    pub citations: Option<Vec<DeclaredCitation>>,
    /// The user's question (spec 000), used by `validateRequest` and the audit record.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "query")]
    pub question: Option<String>,
    /// `answer`, `clarify` or `refuse` (spec 003); anything else is an `invalid_mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Caller's request id, copied to the audit record.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "request_id")]
    pub request_id: Option<String>,
    /// Caller's session id, copied to the audit record (spec 001).
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "session_id")]
    pub session_id: Option<String>,
    /// The model response's id, copied to the audit record (spec 001).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        alias = "response_id"
    )]
    pub response_id: Option<String>,
    /// The model that wrote the answer, copied to the audit record (spec 001).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        alias = "model_version"
    )]
    pub model_version: Option<String>,
    /// How many sources retrieval asked for (spec 003's log fields).
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "top_k")]
    pub top_k: Option<u32>,
    /// Warnings raised before validation, by the provider adapter that made this input
    /// (`offset_mismatch`, `unknown_content`); `validate` copies them into the report's findings.
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Finding>,
}

impl Input {
    /// Converts the declared citations' spans and the warnings' spans from `unit`
    /// (what a JS or CLI caller wrote) to bytes of the answer. A span that does not
    /// fall on the answer's character boundaries becomes an invalid field.
    pub fn spans_to_bytes(&mut self, unit: Unit) {
        if unit == Unit::Utf8 {
            return;
        }
        let map = OffsetMap::new(&self.answer);
        let convert = |span: Span| {
            Some(Span::new(
                map.to_byte(span.start, unit)?,
                map.to_byte(span.end, unit)?,
            ))
        };
        for citation in self.citations.iter_mut().flatten() {
            if let Some(Loose::Valid(span)) = citation.span {
                citation.span = Some(convert(span).map_or(Loose::Invalid("span"), Loose::Valid));
            }
        }
        for warning in &mut self.warnings {
            warning.span = warning.span.and_then(convert);
        }
    }

    /// Converts the byte spans of declared citations and warnings to `unit`: the
    /// reverse of [`Input::spans_to_bytes`], for an input handed back to a caller.
    pub fn spans_to_unit(&mut self, unit: Unit) {
        let map = OffsetMap::new(&self.answer);
        for citation in self.citations.iter_mut().flatten() {
            if let Some(Loose::Valid(span)) = &mut citation.span {
                *span = map.span_to_unit(*span, unit);
            }
        }
        for warning in &mut self.warnings {
            if let Some(span) = &mut warning.span {
                *span = map.span_to_unit(*span, unit);
            }
        }
    }
}

/// The answer modes of spec 003's output schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A normal answer: citations are required.
    Answer,
    /// The model asks a clarifying question: no citations needed.
    Clarify,
    /// The model declines: no citations needed.
    Refuse,
}

impl Mode {
    /// Parses `answer`, `clarify` or `refuse`.
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "answer" => Some(Mode::Answer),
            "clarify" => Some(Mode::Clarify),
            "refuse" => Some(Mode::Refuse),
            _ => None,
        }
    }
}

/// One retrieved source. All fields are optional; which ones matter depends on how the
/// answer cites (labels, ids, chapter/section).
///
/// Read from JSON under the names of `SourceFields` (the documented camelCase one of
/// each field and its aliases); retrieval libraries often carry a source's text under two
/// of its names (a full `text` or `content` beside an `excerpt` or `snippet`), which is
/// read by [`TEXT_NAMES`]' precedence.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// The label the prompt showed (from 1; a source labelled 0 is cited as `[0]`);
    /// defaults to position + 1. A label two sources have is a `duplicate_label`
    /// warning; citations of it name the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// Stable id (`[abc123]` markers name it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Document id (spec 003).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_id: Option<String>,
    /// Chunk id (spec 003).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_id: Option<String>,
    /// Title for chips and context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Link for chips (only `http:`/`https:` ones are ever rendered as links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// CMS slug (spec 002).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// CMS payload id (spec 002).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload_id: Option<String>,
    /// Chunk type (spec 002).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_type: Option<String>,
    /// The retrieved text: quotes are located in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Chapter (spec 000's `chapter_id`), a string or a number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chapter: Option<String>,
    /// Section number (spec 000's `section_number`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<u32>,
    /// Retrieval relevance in 0–1 (spec 000's `relevance_score`). When any source's is
    /// outside 0–1, the relevances are on another scale: an `invalid_field` warning,
    /// and the confidence reads none of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relevance: Option<f64>,
    /// Line number of the first line of `text` (spec 001's line ranges); default 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_line: Option<u32>,
    /// When the text was given under two of [`TEXT_NAMES`] with different values: the
    /// name `text` was taken from and the other one (validation warns:
    /// `source_text_differs`). Set by the readers, never read from or written to JSON.
    #[serde(skip)]
    pub text_differs: Option<[&'static str; 2]>,
}

/// The names a source's text is read under, by precedence: the full text (`text`,
/// `content`, LangChain's `page_content`) wins over an `excerpt` or a `snippet` (Vertex
/// AI Search, Azure AI Search, search APIs). Two of them present with the same value are
/// one text; with different values, the first is taken and validation warns.
pub const TEXT_NAMES: [&str; 5] = ["text", "content", "page_content", "excerpt", "snippet"];

/// How serde reads a [`Source`]: its fields under their names and aliases (the JS reader
/// takes the same ones, from wasm/js/schema.mjs; tests/js/schema.test.mjs checks that
/// they agree), the text under each of [`TEXT_NAMES`] apart.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct SourceFields {
    index: Option<u32>,
    id: Option<String>,
    #[serde(alias = "doc_id")]
    doc_id: Option<String>,
    #[serde(alias = "chunk_id")]
    chunk_id: Option<String>,
    #[serde(alias = "doc_title", alias = "section_title")]
    title: Option<String>,
    url: Option<String>,
    slug: Option<String>,
    #[serde(alias = "payload_id")]
    payload_id: Option<String>,
    #[serde(alias = "chunk_type")]
    chunk_type: Option<String>,
    // The text, under each of TEXT_NAMES in their order; `content` also as the text
    // blocks of an Anthropic `search_result` (see SEARCH_RESULT_BLOCK_SEPARATOR).
    text: Option<String>,
    #[serde(deserialize_with = "text_or_text_blocks")]
    content: Option<String>,
    #[serde(rename = "page_content")]
    page_content: Option<String>,
    excerpt: Option<String>,
    snippet: Option<String>,
    #[serde(alias = "chapter_id", deserialize_with = "string_or_number")]
    chapter: Option<String>,
    #[serde(alias = "section_number")]
    section: Option<u32>,
    #[serde(alias = "relevance_score")]
    relevance: Option<f64>,
    #[serde(alias = "first_line")]
    first_line: Option<u32>,
    // An Anthropic `search_result` block (`type: "search_result"`) names its URL or id
    // `source`; anything else under these names is read past, as unknown fields are.
    #[serde(rename = "type")]
    kind: Option<Loose<String>>,
    source: Option<Loose<String>>,
}

/// What joins the text blocks of a source's `content` given as a list (an Anthropic
/// `search_result` block: `content: [{ "type": "text", "text": … }, …]`) into its one
/// text: a paragraph break. Block `i` starts after the first `i` blocks and `i`
/// separators, so a `search_result_location`'s `start_block_index`..`end_block_index`
/// (blocks, end exclusive) stays a range of the joined text; quote location reads the
/// break as one space.
pub const SEARCH_RESULT_BLOCK_SEPARATOR: &str = "\n\n";

impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Source, D::Error> {
        let f = SourceFields::deserialize(d)?;
        let texts = [f.text, f.content, f.page_content, f.excerpt, f.snippet];
        let (text, text_differs) = Source::text_by_precedence(texts);
        // A search result's `source` is its URL when it is one, else its id; a `url` or
        // `id` given beside it wins.
        let search_result = matches!(&f.kind, Some(Loose::Valid(kind)) if kind == "search_result");
        let named = match f.source {
            Some(Loose::Valid(source)) if search_result => Some(source),
            _ => None,
        };
        let (mut url, mut id) = (f.url, f.id);
        if let Some(named) = named {
            let is_url = named.starts_with("https://") || named.starts_with("http://");
            let slot = if is_url { &mut url } else { &mut id };
            slot.get_or_insert(named);
        }
        Ok(Source {
            index: f.index,
            id,
            doc_id: f.doc_id,
            chunk_id: f.chunk_id,
            title: f.title,
            url,
            slug: f.slug,
            payload_id: f.payload_id,
            chunk_type: f.chunk_type,
            text,
            text_differs,
            chapter: f.chapter,
            section: f.section,
            relevance: f.relevance,
            first_line: f.first_line,
        })
    }
}

impl Source {
    /// The label a marker cites this source by, at `position` in the retrieved
    /// list: its `index`, or `position + 1`. The one place this rule is written.
    ///
    /// ```
    /// use citeproof::model::Source;
    /// assert_eq!(Source::default().label(0), 1);
    /// assert_eq!(Source { index: Some(7), ..Source::default() }.label(0), 7);
    /// ```
    pub fn label(&self, position: usize) -> u32 {
        self.index.unwrap_or(position as u32 + 1)
    }

    /// The text of a source given under several of [`TEXT_NAMES`] (`texts`, in their
    /// order; `None` where absent): the first present, and, when a later one differs
    /// from it, the two names for [`Source::text_differs`].
    ///
    /// ```
    /// use citeproof::model::Source;
    /// let full = Some("The full page.".to_string());
    /// let snippet = Some("page".to_string());
    /// assert_eq!(
    ///     Source::text_by_precedence([None, full.clone(), None, None, snippet]),
    ///     (full, Some(["content", "snippet"]))
    /// );
    /// ```
    pub fn text_by_precedence(
        texts: [Option<String>; 5],
    ) -> (Option<String>, Option<[&'static str; 2]>) {
        let mut named = TEXT_NAMES.into_iter().zip(texts);
        let Some((name, text)) = named.find(|(_, t)| t.is_some()) else {
            return (None, None);
        };
        let differs = named.find(|(_, other)| other.is_some() && *other != text);
        (text, differs.map(|(other, _)| [name, other]))
    }

    /// The `source_text_differs` warning for this source at 0-based `position`, when its
    /// text was given twice with different values.
    pub fn text_differs_warning(&self, position: usize) -> Option<Finding> {
        let [kept, other] = self.text_differs?;
        Some(Finding::new(
            FindingCode::SourceTextDiffers,
            Severity::Warning,
            format!(
                "source {} has `{kept}` and `{other}` with different texts; `{kept}` is read \
                 (the full text wins over an excerpt or snippet)",
                self.label(position)
            ),
        ))
    }
}

/// A citation the model declared in structured output (specs 002–004). Fields that
/// spec 004 checks for type and range are [`Loose`]: a wrong type there is an
/// `invalid_field` finding, not an error.
///
/// It serialises with its documented names, leaving out absent fields and those of the
/// wrong type.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeclaredCitation {
    /// The source: a label (number) or an id/title (string).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "index")]
    pub source: Option<Loose<SourceRef>>,
    /// Document id (spec 003).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "doc_id")]
    pub doc_id: Option<Loose<String>>,
    /// Chunk id (spec 003): must be one of the retrieved chunks.
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "chunk_id")]
    pub chunk_id: Option<Loose<String>>,
    /// Text copied from the source (`snippet` in spec 003, `cited_text` in Anthropic's API).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "snippet", alias = "cited_text")]
    pub quote: Option<Loose<String>>,
    /// Lines of the source the quote comes from (spec 001): `[45, 120]` or `"45-120"`.
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "line_range")]
    pub line_range: Option<Loose<LineRange>>,
    /// 0-based index into the sources (spec 004).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "evidence_idx")]
    pub evidence_idx: Option<Loose<f64>>,
    /// The model's own alignment score in 0–1 (spec 004).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "alignment_score")]
    pub alignment_score: Option<Loose<f64>>,
    /// The answer text this citation backs; must occur in the answer (spec 004).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "span_in_answer")]
    pub span_in_answer: Option<Loose<String>>,
    /// Relevance in 0–1 (spec 004).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "relevance_score")]
    pub relevance: Option<Loose<f64>>,
    /// The claim this citation supports (spec 002's `claim_text`).
    #[serde(skip_serializing_if = "not_valid")]
    #[serde(alias = "claim_text")]
    pub claim: Option<Loose<String>>,
    /// Where in the answer the citation applies: the exact span a provider adapter found
    /// (`{ start, end }`). `validate` reads it in bytes; readers of JS and CLI input hold
    /// it in the caller's unit until [`Input::spans_to_bytes`].
    #[serde(skip_serializing_if = "not_valid")]
    pub span: Option<Loose<Span>>,
}

/// Whether a [`Loose`] field is absent or of the wrong type: not written.
fn not_valid<T>(field: &Option<Loose<T>>) -> bool {
    field.as_ref().and_then(Loose::valid).is_none()
}

impl DeclaredCitation {
    /// A declared citation that names source label `label` and nothing else.
    pub fn label(label: f64) -> DeclaredCitation {
        DeclaredCitation {
            source: Some(Loose::Valid(SourceRef::Number(label))),
            ..DeclaredCitation::default()
        }
    }
}

/// How a declared citation names its source.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceRef {
    /// A label such as `3` (checked to be a positive integer).
    Number(f64),
    /// An id, chunk id, doc id or title.
    Name(String),
}

/// A label as a number, a name as a string.
impl Serialize for SourceRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SourceRef::Number(label) => s.serialize_f64(*label),
            SourceRef::Name(name) => s.serialize_str(name),
        }
    }
}

/// Lines `first..=last` of a source (spec 001).
///
/// It serialises as `[first, last]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRange {
    /// First line, inclusive.
    pub first: i64,
    /// Last line, inclusive.
    pub last: i64,
}

impl Serialize for LineRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.first, self.last).serialize(s)
    }
}

impl LineRange {
    /// Parses spec 001's `"45-120"` (or a single line `"45"`).
    ///
    /// ```
    /// use citeproof::model::LineRange;
    /// assert_eq!(LineRange::from_str_range("45-120"), Some(LineRange { first: 45, last: 120 }));
    /// ```
    pub fn from_str_range(text: &str) -> Option<LineRange> {
        let (first, last) = text.split_once('-').unwrap_or((text, text));
        Some(LineRange {
            first: first.trim().parse().ok()?,
            last: last.trim().parse().ok()?,
        })
    }
}

/// A field value whose type is checked by validation rather than by reading: either the
/// expected type, or the name of the JS type found instead.
#[derive(Clone, Debug, PartialEq)]
pub enum Loose<T> {
    /// The expected type.
    Valid(T),
    /// Something else: `"boolean"`, `"number"`, `"string"`, `"array"` or `"object"`.
    Invalid(&'static str),
}

/// The value, when it has the expected type; else `null` (a field that may be of the
/// wrong type is left out instead, see [`DeclaredCitation`]).
impl<T: Serialize> Serialize for Loose<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Loose::Valid(value) => value.serialize(s),
            Loose::Invalid(_) => s.serialize_none(),
        }
    }
}

impl<T> Loose<T> {
    /// The value when it has the expected type.
    pub fn valid(&self) -> Option<&T> {
        match self {
            Loose::Valid(v) => Some(v),
            Loose::Invalid(_) => None,
        }
    }
}

/// Conversions a [`Loose`] field accepts.
pub trait LooseValue: Sized {
    /// From a JSON/JS number.
    fn from_number(_: f64) -> Option<Self> {
        None
    }
    /// From a string.
    fn from_text(_: &str) -> Option<Self> {
        None
    }
    /// From an array of two numbers.
    fn from_pair(_: f64, _: f64) -> Option<Self> {
        None
    }
    /// From an object `{ start, end }` of two numbers.
    fn from_range(_: f64, _: f64) -> Option<Self> {
        None
    }
}

impl LooseValue for Span {
    fn from_range(start: f64, end: f64) -> Option<Span> {
        let offset = |n: f64| (n.fract() == 0.0 && (0.0..1e15).contains(&n)).then_some(n as usize);
        let (start, end) = (offset(start)?, offset(end)?);
        (start <= end).then_some(Span::new(start, end))
    }
}

impl LooseValue for f64 {
    fn from_number(n: f64) -> Option<f64> {
        Some(n)
    }
}

impl LooseValue for String {
    fn from_text(s: &str) -> Option<String> {
        Some(s.to_owned())
    }
}

impl LooseValue for SourceRef {
    fn from_number(n: f64) -> Option<SourceRef> {
        Some(SourceRef::Number(n))
    }
    fn from_text(s: &str) -> Option<SourceRef> {
        Some(SourceRef::Name(s.to_owned()))
    }
}

impl LooseValue for LineRange {
    fn from_text(s: &str) -> Option<LineRange> {
        LineRange::from_str_range(s)
    }
    fn from_pair(first: f64, last: f64) -> Option<LineRange> {
        let integral = |n: f64| (n.fract() == 0.0 && n.abs() < 1e15).then_some(n as i64);
        Some(LineRange {
            first: integral(first)?,
            last: integral(last)?,
        })
    }
}

impl<'de, T: LooseValue> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor(std::marker::PhantomData))
    }
}

struct LooseVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: LooseValue> Visitor<'de> for LooseVisitor<T> {
    type Value = Loose<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Loose<T>, E> {
        Ok(Loose::Invalid("boolean"))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Loose<T>, E> {
        self.visit_f64(n as f64)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Loose<T>, E> {
        self.visit_f64(n as f64)
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Loose<T>, E> {
        Ok(T::from_number(n).map_or(Loose::Invalid("number"), Loose::Valid))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Loose<T>, E> {
        Ok(T::from_text(s).map_or(Loose::Invalid("string"), Loose::Valid))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose<T>, A::Error> {
        let mut numbers = Vec::new();
        while let Some(item) = seq.next_element::<Loose<f64>>()? {
            numbers.push(item);
        }
        Ok(match numbers.as_slice() {
            [Loose::Valid(a), Loose::Valid(b)] => {
                T::from_pair(*a, *b).map_or(Loose::Invalid("array"), Loose::Valid)
            }
            _ => Loose::Invalid("array"),
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose<T>, A::Error> {
        let (mut start, mut end) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "start" => start = map.next_value::<Loose<f64>>()?.valid().copied(),
                "end" => end = map.next_value::<Loose<f64>>()?.valid().copied(),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(match (start, end) {
            (Some(start), Some(end)) => {
                T::from_range(start, end).map_or(Loose::Invalid("object"), Loose::Valid)
            }
            _ => Loose::Invalid("object"),
        })
    }
}

/// `citations`: an array of objects or of bare labels.
fn declared_citations<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<DeclaredCitation>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Entry {
        Label(f64),
        Object(Box<DeclaredCitation>),
    }
    let entries = Option::<Vec<Entry>>::deserialize(d)?;
    Ok(entries.map(|entries| {
        entries
            .into_iter()
            .map(|entry| match entry {
                Entry::Label(n) => DeclaredCitation::label(n),
                Entry::Object(c) => *c,
            })
            .collect()
    }))
}

/// A source's `content`: a string, or a list of text blocks (`{ "type": "text", "text" }`,
/// an Anthropic `search_result`'s) joined by [`SEARCH_RESULT_BLOCK_SEPARATOR`]. A block
/// of another type is an error: its place would shift the blocks after it.
fn text_or_text_blocks<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    struct TextBlock {
        #[serde(rename = "type")]
        kind: String,
        text: String,
    }
    struct TextOrBlocks;
    impl<'de> Visitor<'de> for TextOrBlocks {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or a list of text blocks")
        }
        fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
            Ok(Some(s.to_owned()))
        }
        fn visit_none<E>(self) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<String>, A::Error> {
            let mut joined = String::new();
            let mut first = true;
            while let Some(block) = seq.next_element::<TextBlock>()? {
                if block.kind != "text" {
                    return Err(de::Error::custom(format!(
                        "a block of type \"{}\" where a text block was expected",
                        block.kind
                    )));
                }
                if !first {
                    joined.push_str(SEARCH_RESULT_BLOCK_SEPARATOR);
                }
                joined.push_str(&block.text);
                first = false;
            }
            Ok(Some(joined))
        }
    }
    d.deserialize_any(TextOrBlocks)
}

/// A string, or a number written as its decimal string (chapter ids).
fn string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct StringOrNumber;
    impl<'de> Visitor<'de> for StringOrNumber {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or a number")
        }
        fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
            Ok(Some(s.to_owned()))
        }
        fn visit_u64<E>(self, n: u64) -> Result<Option<String>, E> {
            Ok(Some(n.to_string()))
        }
        fn visit_i64<E>(self, n: i64) -> Result<Option<String>, E> {
            Ok(Some(n.to_string()))
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<Option<String>, E> {
            if n.fract() == 0.0 && n.is_finite() {
                Ok(Some(format!("{n:.0}")))
            } else {
                Err(E::invalid_value(de::Unexpected::Float(n), &self))
            }
        }
        fn visit_none<E>(self) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Option<String>, E> {
            Ok(None)
        }
    }
    d.deserialize_any(StringOrNumber)
}
