//! What `validate` returns (docs/architecture.md §6).

use serde::Serialize;
use serde::ser::Serializer;

use super::{Input, Marker, Span};
use crate::offsets::{OffsetMap, Unit};

/// The gate (spec 004): the audit record maps these to PASS / REVIEW / REJECT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every check passed.
    Pass,
    /// Usable, with quality problems worth showing.
    Warn,
    /// Not usable as is.
    Fail,
}

impl Status {
    /// `"pass"`, `"warn"`, `"fail"`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

/// How bad a finding is: an error makes its citation invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Makes the citation (or the answer) invalid.
    Error,
    /// Worth showing; the citation stays valid.
    Warning,
}

/// The stable codes of findings (docs/architecture.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FindingCode {
    /// A label past the last source.
    OutOfRange,
    /// `[0]` where no source is labelled 0 (labels are 1-based unless a source's
    /// `index` is 0).
    ZeroIndex,
    /// An id, chunk id, title or chapter/section that was not retrieved.
    UnknownSource,
    /// The same source twice in one marker or in adjacent markers.
    DuplicateMarker,
    /// Cited in the text but missing from the declared citations.
    NotDeclared,
    /// Declared but never cited in the text.
    DeclaredUnused,
    /// A required field is absent (spec 004).
    MissingField,
    /// A field has the wrong type or is out of range (spec 004); a warning for sources'
    /// relevances outside 0–1, which the confidence does not read (spec 000).
    InvalidField,
    /// `evidenceIdx` outside `0..sources.len()` (spec 004).
    EvidenceIdxOutOfRange,
    /// `alignmentScore` below the threshold (spec 004).
    LowAlignment,
    /// `spanInAnswer` does not occur in the answer: a hallucinated span (spec 004).
    SpanNotInAnswer,
    /// The quote does not occur in the cited source (specs 001, 003).
    QuoteNotFound,
    /// The quote occurs only approximately (within `maxEditRatio`).
    QuoteApproximate,
    /// The quote is shorter or longer than `quoteLength` (spec 003).
    QuoteLength,
    /// The line range is not inside the source (spec 001).
    LineRangeInvalid,
    /// The quote was found outside the line range (spec 001).
    LineRangeMismatch,
    /// A claim the cited source does not support (spec 001).
    UnsupportedClaim,
    /// Another retrieved source supports the claim clearly better.
    Misattributed,
    /// A factual sentence without a citation.
    UncitedClaim,
    /// The answer cites nothing at all.
    NoCitations,
    /// `mode` is not `answer`, `clarify` or `refuse` (spec 003).
    InvalidMode,
    /// The request is malformed (spec 000).
    RequestInvalid,
    /// A provider's offsets did not hold the text it named: in the answer (the adapter
    /// placed the citation by searching near them, or could not place it), or in the
    /// source (an Anthropic search result's cited blocks that do not hold the quote)
    /// (warning).
    OffsetMismatch,
    /// The provider adapter read past parts of the response whose type it does not know
    /// (a block, delta, annotation or chunk kind added after it was written), counted in
    /// one finding (warning).
    UnknownContent,
    /// A source gave its text under two accepted names (`text` and `excerpt`, `content`
    /// and `snippet`, …) with different values; the full text was read (warning).
    SourceTextDiffers,
    /// Two sources have the same label (an `index` given twice, or equal to another
    /// source's position + 1); citations of it name the first (warning; one finding
    /// for a request, naming the first such pair and counting the rest).
    DuplicateLabel,
    /// A quote or a `spanInAnswer` was not searched for: the request's searches had read
    /// as much text as one request may (warning, and the gate's status at least `warn`;
    /// the quote is `unverified`, the span cites no claim).
    QuoteUnchecked,
}

impl FindingCode {
    /// The code as the API spells it: `out_of_range`, `zero_index`, …
    pub const fn name(self) -> &'static str {
        match self {
            FindingCode::OutOfRange => "out_of_range",
            FindingCode::ZeroIndex => "zero_index",
            FindingCode::UnknownSource => "unknown_source",
            FindingCode::DuplicateMarker => "duplicate_marker",
            FindingCode::NotDeclared => "not_declared",
            FindingCode::DeclaredUnused => "declared_unused",
            FindingCode::MissingField => "missing_field",
            FindingCode::InvalidField => "invalid_field",
            FindingCode::EvidenceIdxOutOfRange => "evidence_idx_out_of_range",
            FindingCode::LowAlignment => "low_alignment",
            FindingCode::SpanNotInAnswer => "span_not_in_answer",
            FindingCode::QuoteNotFound => "quote_not_found",
            FindingCode::QuoteApproximate => "quote_approximate",
            FindingCode::QuoteLength => "quote_length",
            FindingCode::LineRangeInvalid => "line_range_invalid",
            FindingCode::LineRangeMismatch => "line_range_mismatch",
            FindingCode::UnsupportedClaim => "unsupported_claim",
            FindingCode::Misattributed => "misattributed",
            FindingCode::UncitedClaim => "uncited_claim",
            FindingCode::NoCitations => "no_citations",
            FindingCode::InvalidMode => "invalid_mode",
            FindingCode::RequestInvalid => "request_invalid",
            FindingCode::OffsetMismatch => "offset_mismatch",
            FindingCode::UnknownContent => "unknown_content",
            FindingCode::SourceTextDiffers => "source_text_differs",
            FindingCode::DuplicateLabel => "duplicate_label",
            FindingCode::QuoteUnchecked => "quote_unchecked",
        }
    }
}

impl Serialize for FindingCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One failed check.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Finding {
    /// Stable code.
    pub code: FindingCode,
    /// Error or warning.
    pub severity: Severity,
    /// A sentence for people.
    pub message: String,
    /// Index into `Report::citations` of the citation it concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation: Option<usize>,
    /// Where in the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
}

/// Adding a finding to a list, out of line: validation adds findings at some forty
/// places, and each inlined `push` copied its growth check and the finding's move into
/// the module (−253 B gzip for the browser core, docs/perf-log.md).
pub(crate) trait AddFinding {
    /// Appends `finding`.
    fn add(&mut self, finding: Finding);
}

impl AddFinding for Vec<Finding> {
    #[inline(never)]
    fn add(&mut self, finding: Finding) {
        self.push(finding);
    }
}

impl Finding {
    /// A finding of the answer as a whole: no citation, no span (set them after).
    /// Out of line: an error path built at many places, each inlined copy costs wasm bytes.
    #[inline(never)]
    pub fn new(code: FindingCode, severity: Severity, message: String) -> Finding {
        Finding {
            code,
            severity,
            message,
            citation: None,
            span: None,
        }
    }

    /// `"error"` or `"warning"`.
    pub const fn severity_name(&self) -> &'static str {
        match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// How a quote was found in its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum MatchKind {
    /// Byte for byte.
    Exact,
    /// After normalising case, whitespace, quotes, dashes and emphasis.
    Normalized,
    /// Within `maxEditRatio` edits.
    Approximate,
    /// Not found.
    None,
    /// Not looked for: the cited source has no text to check it against (a quote the
    /// provider states for a web result it did not return the text of; no finding), or
    /// the request's searches had read as much text as one request may (a
    /// `quote_unchecked` warning).
    Unverified,
}

impl MatchKind {
    /// Every kind, in declaration order (the JS binding's wire contract lists their
    /// names, checked against this by `tests/wire_contract.rs`).
    pub const ALL: [MatchKind; 5] = [
        MatchKind::Exact,
        MatchKind::Normalized,
        MatchKind::Approximate,
        MatchKind::None,
        MatchKind::Unverified,
    ];

    /// The name reports use (`"exact"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact",
            MatchKind::Normalized => "normalized",
            MatchKind::Approximate => "approximate",
            MatchKind::None => "none",
            MatchKind::Unverified => "unverified",
        }
    }
}

/// Where a citation's quote is in its source text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuoteLocation {
    /// The matching part of the source text (bytes of the source's `text`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// Edits (in characters) between quote and match; 0 for exact and normalised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<usize>,
    /// How it was found.
    #[serde(rename = "match")]
    pub kind: MatchKind,
}

/// The sentence of a cited source that best supports the claim citing it: what a
/// citation card shows when no quote was declared.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Evidence {
    /// Where it sits in the source's `text` (bytes in the core, the caller's unit in JS).
    pub span: Span,
    /// The sentence.
    pub text: String,
}

/// One use of a source: a marker's ref, a declared citation, or both merged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CitationResult {
    /// The source as written: `3`, `abc123`, `Chapter 2, Section 4`.
    pub label: String,
    /// The resolved source's label (its `index`, or its position + 1), when it was
    /// retrieved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_index: Option<u32>,
    /// The resolved source's position in the input's `sources` (0-based): where a
    /// renderer finds it, whatever its label and however the answer was renumbered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_position: Option<usize>,
    /// The resolved source's id, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// Index into `Report::markers` of the marker, for a citation in the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marker: Option<usize>,
    /// The marker's span in the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// Index into the input's `citations`, for a declared citation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<usize>,
    /// No errors.
    pub valid: bool,
    /// Findings with severity error.
    pub errors: Vec<Finding>,
    /// Findings with severity warning.
    pub warnings: Vec<Finding>,
    /// 1.0 minus penalties (spec 004), floored at 0.
    pub quality_score: f64,
    /// Where the quote was found, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<QuoteLocation>,
    /// The quote as the citation states it (the provider's `cited_text`, the declared
    /// `quote`), when it has one: what a citation card shows when the source has no
    /// text to show it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote_text: Option<String>,
    /// Claim-support score in 0–1, when scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support: Option<f64>,
    /// The claim (sentence) the marker belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<Span>,
    /// The source's sentence that best supports the claim, when support was scored and
    /// a sentence shares a content word with the claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
}

/// Aggregates over all citations (spec 004).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Summary {
    /// Citations checked.
    pub total: usize,
    /// Citations without errors.
    pub valid: usize,
    /// Citations with errors.
    pub invalid: usize,
    /// Mean `alignmentScore` of the citations that carry one.
    pub avg_alignment: Option<f64>,
    /// Claims with a citation / claims.
    pub citation_coverage: f64,
    /// Share of declared citation objects with `evidenceIdx`.
    pub has_evidence_idx: f64,
    /// Share with `alignmentScore`.
    pub has_alignment_score: f64,
    /// Share with `spanInAnswer`.
    pub has_span: f64,
    /// Citations pointing at something that does not exist: a source that was not
    /// retrieved, a span not in the answer, a quote not in the source.
    pub hallucinations: usize,
    /// Claims without a citation.
    pub uncited_claims: usize,
}

/// A piece of the cleaned answer, for rendering citation chips.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
// Not `#[non_exhaustive]`: the JS binding (crate `citeproof-wasm`) writes each variant
// onto its tape, and a new one must make the compiler point there.
pub enum Segment {
    /// Plain answer text (markdown).
    Text {
        /// The text.
        text: String,
    },
    /// A citation marker, to render as a chip.
    #[serde(rename_all = "camelCase")]
    Cite {
        /// The marker as it stands in the cleaned answer.
        label: String,
        /// The source labels it cites.
        refs: Vec<String>,
        /// The first cited source's label, when it was retrieved.
        #[serde(skip_serializing_if = "Option::is_none")]
        source_index: Option<u32>,
        /// For each of `refs`, the position in the input's `sources` (0-based) of the
        /// source it resolved to, `None` for one that resolved to none.
        source_positions: Vec<Option<usize>>,
        /// That source's title.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// That source's URL.
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// Every ref of the marker resolves to a retrieved source.
        valid: bool,
    },
}

/// The result of validating one answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Report<'a> {
    /// The gate.
    pub status: Status,
    /// Spec 000's confidence.
    pub confidence: f64,
    /// Confidence below `uncertainBelow`.
    pub uncertain: bool,
    /// Spec 000's note for uncertain answers, when `uncertain`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncertainty_note: Option<&'static str>,
    /// The answer after the cleaning policy.
    pub cleaned_answer: String,
    /// The markers of the (original) answer.
    pub markers: Vec<Marker<'a>>,
    /// One per cited source use.
    pub citations: Vec<CitationResult>,
    /// Every finding, citation-level and answer-level.
    pub findings: Vec<Finding>,
    /// Aggregates.
    pub summary: Summary,
    /// `cleaned_answer` cut into text and chips.
    pub segments: Vec<Segment>,
    /// Wall time of `validate` in milliseconds, set by the caller that can measure it
    /// (the JS binding, the CLI); 0 from the core.
    pub timing_ms: f64,
}

impl Report<'_> {
    /// Converts every span from bytes to `unit`: answer spans against `input.answer`,
    /// quote and evidence spans against the text of the cited source. Call once;
    /// `Unit::Utf8` leaves the report as it is.
    ///
    /// ```
    /// use citeproof::model::{Input, Options, Source};
    /// use citeproof::offsets::Unit;
    /// use citeproof::validate::Validator;
    /// let input = Input { answer: "😀 claim here [1].".into(), sources: vec![Source::default()], ..Input::default() };
    /// let mut report = Validator::new(Options::default()).unwrap().validate(&input).unwrap();
    /// assert_eq!(report.markers[0].span.start, 16);
    /// report.convert_offsets(&input, Unit::Utf16);
    /// assert_eq!(report.markers[0].span.start, 14);
    /// ```
    pub fn convert_offsets(&mut self, input: &Input, unit: Unit) {
        if unit == Unit::Utf8 {
            return;
        }
        let answer = OffsetMap::new(&input.answer);
        // Each cited source's map, made when a span in it is first met (the list itself
        // made then too).
        let mut sources: Vec<Option<OffsetMap<'_>>> = Vec::new();
        let on = |map: &OffsetMap<'_>, span: &mut Span| *span = map.span_to_unit(*span, unit);
        for marker in &mut self.markers {
            on(&answer, &mut marker.span);
        }
        for finding in &mut self.findings {
            if let Some(span) = finding.span.as_mut() {
                on(&answer, span);
            }
        }
        for citation in &mut self.citations {
            for span in [citation.span.as_mut(), citation.claim.as_mut()]
                .into_iter()
                .flatten()
            {
                on(&answer, span);
            }
            for finding in citation
                .errors
                .iter_mut()
                .chain(citation.warnings.iter_mut())
            {
                if let Some(span) = finding.span.as_mut() {
                    on(&answer, span);
                }
            }
            let quote = citation.quote.as_mut().and_then(|q| q.span.as_mut());
            let evidence = citation.evidence.as_mut().map(|e| &mut e.span);
            let mut spans = [quote, evidence].into_iter().flatten().peekable();
            if spans.peek().is_none() {
                continue;
            }
            let cited = citation.source_position.and_then(|p| {
                let text = input.sources.get(p)?.text.as_deref()?;
                Some((p, text))
            });
            if let Some((position, text)) = cited {
                // One map per source: a map per citation made n citations of one long
                // source cost n × its length.
                if sources.is_empty() {
                    sources.resize_with(input.sources.len(), || None);
                }
                let source = sources[position].get_or_insert_with(|| OffsetMap::new(text));
                for span in spans {
                    on(source, span);
                }
            }
        }
    }
}
