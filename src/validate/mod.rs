//! Runs the checks, scores, decides: the only place that knows thresholds (DESIGN.md §5–§6).
//!
//! ```
//! use citeproof::model::{Input, Options, Source, Status};
//! use citeproof::validate::Validator;
//!
//! let input = Input {
//!     answer: "Litecoin was created in 2011 [1]. It uses Scrypt [3].".into(),
//!     sources: vec![
//!         Source { title: Some("History".into()), text: Some("Created in 2011".into()), ..Source::default() },
//!         Source { title: Some("Tech".into()), text: Some("Uses Scrypt".into()), ..Source::default() },
//!     ],
//!     ..Input::default()
//! };
//! let report = Validator::new(Options::default()).unwrap().validate(&input).unwrap();
//! assert_eq!(report.findings[0].code.name(), "out_of_range");
//! assert_eq!(report.cleaned_answer, "Litecoin was created in 2011 [1]. It uses Scrypt.");
//! assert_eq!(report.status, Status::Fail); // 1 of 2 citations invalid: over spec 004's 30%
//! ```

mod batch;
mod checks;
mod gate;
mod order;
mod resolve;

pub use batch::BatchSummary;

use std::collections::HashSet;

use crate::claims::{Claim, context_of, paragraph_final_cited, split_claims};
use crate::error::{Error, ErrorCode};
use crate::model::{
    CitationResult, Finding, FindingCode, Input, Mode, Options, Report, Severity, Span, decimal,
};
use crate::parse::Parser;
use crate::rewrite::{MarkerFate, rewrite};
use crate::support::ExternalSupport;

use checks::{CitationChecks, check_fields, check_quote, check_support};
use gate::{confidence, gate, summarize};
use order::{arrange, stable_order};
pub(crate) use resolve::{Lookup, OwnedIndex, SourceIndex};
use resolve::{declared_use, marker_uses, merge};

/// Spec 000's note for answers whose sources may not match.
pub const UNCERTAINTY_NOTE: &str = "(Note: This answer is uncertain - sources may not match)";

/// Quality penalty per missing enhanced field (spec 004).
const MISSING_ENHANCED_PENALTY: f64 = 0.05;
/// Quality penalty for a hallucinated span (spec 004).
const HALLUCINATED_SPAN_PENALTY: f64 = 0.3;
/// Quality penalty for an unsupported claim (DESIGN.md §6).
pub(super) const UNSUPPORTED_PENALTY: f64 = 0.3;

/// Validates answers with one set of options; build once, reuse for many answers.
#[derive(Clone, Debug)]
pub struct Validator {
    options: Options,
    parser: Parser,
}

impl Validator {
    /// Checks the options and compiles their marker patterns.
    pub fn new(options: Options) -> Result<Validator, Error> {
        let parser = Parser::with_patterns(&options.marker_patterns)?;
        Validator::with_parser(options, parser)
    }

    /// Like [`Validator::new`] with `options.marker_patterns` already compiled into
    /// `parser` (the JS binding caches compiled patterns across calls).
    pub(crate) fn with_parser(options: Options, parser: Parser) -> Result<Validator, Error> {
        for (name, value) in [
            ("maxInvalidRatio", options.max_invalid_ratio),
            ("lowAlignment", options.low_alignment),
            ("minAvgAlignment", options.min_avg_alignment),
            ("minCoverage", options.min_coverage),
            ("minEvidenceIdxRatio", options.min_evidence_idx_ratio),
            ("maxEditRatio", options.max_edit_ratio),
            ("uncertainBelow", options.uncertain_below),
            ("supportThreshold", options.support_threshold.unwrap_or(0.0)),
            (
                "misattributionMargin",
                options.misattribution_margin.unwrap_or(0.0),
            ),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    name,
                    format!("{} is outside 0–1", decimal(value)),
                ));
            }
        }
        if let Some([min, max]) = options.quote_length {
            if min > max {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    "quoteLength",
                    "min is greater than max",
                ));
            }
        }
        Ok(Validator { options, parser })
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The marker parser for the options' patterns.
    pub(crate) fn parser(&self) -> &Parser {
        &self.parser
    }

    /// Validates one answer. `Err` only for input that cannot be used (limits, NaN
    /// relevance); every problem with the citations is a finding in the report.
    pub fn validate<'a>(&self, input: &'a Input) -> Result<Report<'a>, Error> {
        self.validate_with(input, &[])
    }

    /// The texts of the claims that carry a marker: what an embedding model must embed,
    /// with the source texts, for [`Validator::validate_with`].
    pub fn cited_claims(&self, input: &Input) -> Vec<String> {
        let index = SourceIndex::new(&input.sources);
        let ids = index.marker_ids();
        let spans: Vec<_> = self
            .parser
            .find_iter(&input.answer, &ids)
            .map(|m| m.span)
            .collect();
        let mut texts: Vec<String> = Vec::new();
        for claim in split_claims(&input.answer, &spans)
            .into_iter()
            .filter(|c| !c.markers.is_empty())
        {
            let text = &input.answer[claim.span.range()];
            if !texts.iter().any(|t| t == text) {
                texts.push(text.to_string());
            }
        }
        texts
    }

    /// [`Validator::validate`], blending `external` support scores into the lexical
    /// ones: each table (an embedding model's cosines, a judge's probabilities, per claim
    /// and source) counts as much as the lexical score.
    pub fn validate_with<'a>(
        &self,
        input: &'a Input,
        external: &[ExternalSupport],
    ) -> Result<Report<'a>, Error> {
        self.check_input(input)?;
        let options = &self.options;
        let answer = input.answer.as_str();
        let index = SourceIndex::new(&input.sources);
        let ids = index.marker_ids();
        let markers: Vec<_> = self.parser.find_iter(answer, &ids).collect();

        let mut findings = input.warnings.clone();
        let mode = input.mode.as_deref().map(|m| (m, Mode::from_name(m)));
        if let Some((name, None)) = mode {
            findings.push(answer_finding(
                FindingCode::InvalidMode,
                format!("mode \"{name}\" is not one of answer, clarify, refuse"),
            ));
        }
        let declared = input.citations.as_deref().unwrap_or_default();
        let declared_uses: Vec<_> = declared
            .iter()
            .enumerate()
            .map(|(i, c)| declared_use(i, c, &index, answer))
            .collect();
        // Sources the declared list names (by position, or by label when unresolved).
        let mut declared_positions = vec![false; input.sources.len()];
        let mut declared_labels = HashSet::new();
        for u in &declared_uses {
            match u.resolved {
                Ok(position) => declared_positions[position] = true,
                Err(_) => {
                    declared_labels.insert(u.label.clone());
                }
            }
        }
        let uses = merge(marker_uses(&markers, &index, answer), declared_uses);

        let has_declared_list = input.citations.is_some();
        let mut citations = Vec::with_capacity(uses.len());
        // The retrieved source (position in `sources`) of each citation, for rewriting.
        let mut positions = Vec::with_capacity(uses.len());
        for u in uses {
            positions.push(u.resolved.as_ref().ok().copied());
            let mut checks = CitationChecks {
                findings: u.findings,
                ..CitationChecks::default()
            };
            if let Err((code, message)) = &u.resolved {
                checks.findings.push(Finding {
                    code: *code,
                    severity: Severity::Error,
                    message: message.clone(),
                    citation: None,
                    span: u.span,
                });
            }
            let undeclared = match u.resolved {
                Ok(position) => !declared_positions[position],
                Err(_) => !declared_labels.contains(&u.label),
            };
            if has_declared_list && u.marker.is_some() && u.declared.is_none() && undeclared {
                checks.findings.push(Finding {
                    code: FindingCode::NotDeclared,
                    severity: Severity::Error,
                    message: format!(
                        "source {} is cited in the text but not in the declared citations",
                        u.label
                    ),
                    citation: None,
                    span: u.span,
                });
            }
            if u.marker.is_none() && !markers.is_empty() {
                checks.findings.push(answer_finding(
                    FindingCode::DeclaredUnused,
                    format!(
                        "declared citation of source {} is never cited in the text",
                        u.label
                    ),
                ));
            }
            let source = u.resolved.as_ref().ok().map(|&i| index.source(i));
            if let Some(d) = u.declared.map(|d| &declared[d]) {
                check_fields(d, answer, index.len(), options, &mut checks);
                check_quote(d, source, options, &mut checks);
            }
            citations.push(citation_result(
                u.label,
                u.resolved.ok(),
                &index,
                u.marker,
                u.span,
                u.declared,
                checks,
            ));
        }

        let marker_spans: Vec<_> = markers.iter().map(|m| m.span).collect();
        let claims = split_claims(answer, &marker_spans);
        let declared_spans: Vec<&str> = declared
            .iter()
            .filter_map(|c| c.span_in_answer.as_ref()?.valid().map(String::as_str))
            .collect();
        // Exact spans of declared citations (provider adapters), in answer order.
        let exact_spans = SpanIndex::new(
            citations
                .iter()
                .filter(|c| c.declared.is_some() && c.marker.is_none())
                .filter_map(|c| c.span)
                .collect(),
        );
        // Without markers, a declared citation without `spanInAnswer` or `span` is
        // attached to the answer as a whole (spec 003's output schema) and covers every
        // claim.
        let whole_answer_cited = markers.is_empty()
            && declared
                .iter()
                .any(|d| d.span_in_answer.is_none() && d.span.is_none());
        let paragraph_cited = if options.paragraph_citations {
            paragraph_final_cited(&claims)
        } else {
            vec![false; claims.len()]
        };
        // Which claims a citation covers: their own marker, a declared span inside them,
        // declared citations for the whole answer, or a paragraph-final marker.
        let covered: Vec<bool> = claims
            .iter()
            .zip(paragraph_cited)
            .map(|(c, paragraph_cited)| {
                whole_answer_cited
                    || paragraph_cited
                    || !c.markers.is_empty()
                    || declared_spans
                        .iter()
                        .any(|s| answer[c.span.range()].contains(s))
                    || exact_spans.overlaps(c.span)
            })
            .collect();
        let cited_claims = covered.iter().filter(|&&c| c).count();
        for citation in &mut citations {
            citation.claim = citation.span.and_then(|span| {
                claim_of(&claims, span).map(|c| c.span).or_else(|| {
                    // Outside every claim (a lead-in, a heading, `References: [1]`): a
                    // marker stands for the text before it, a provider's span for itself.
                    match citation.marker {
                        Some(_) => context_of(answer, span),
                        None => Some(span),
                    }
                })
            });
        }

        if options.support_threshold.is_some() {
            let uncited = claims
                .iter()
                .zip(&covered)
                .filter(|(_, covered)| !**covered)
                .map(|(c, _)| c.span);
            findings.extend(uncited.map(|span| Finding {
                code: FindingCode::UncitedClaim,
                severity: Severity::Warning,
                message: "a factual sentence without a citation".into(),
                citation: None,
                span: Some(span),
            }));
        }
        if options.support_threshold.is_some() || options.misattribution_margin.is_some() {
            check_support(input, &index, &positions, &mut citations, options, external);
        }

        let requires_citations =
            options.require_citations && matches!(mode, None | Some((_, Some(Mode::Answer))));
        if citations.is_empty() && requires_citations {
            findings.push(Finding {
                code: FindingCode::NoCitations,
                severity: Severity::Error,
                message: "the answer cites no source".into(),
                citation: None,
                span: None,
            });
        }

        let summary = summarize(&citations, declared, claims.len(), cited_claims);
        let status = gate(&citations, &findings, &summary, declared, options);
        let confidence = confidence(input, &citations);
        let uncertain = confidence < options.uncertain_below;

        let mut fates: Vec<MarkerFate> = markers.iter().map(|_| MarkerFate::default()).collect();
        for (citation, &position) in citations.iter().zip(&positions) {
            if let Some(mi) = citation.marker {
                let resolved = position.filter(|_| !has_resolution_error(citation));
                fates[mi].refs.push((citation.label.clone(), resolved));
            }
        }
        let (cleaned_answer, segments) = rewrite(answer, &markers, &fates, &input.sources, options);

        for (ci, citation) in citations.iter().enumerate() {
            for f in citation.errors.iter().chain(&citation.warnings) {
                findings.push(Finding {
                    citation: Some(ci),
                    ..f.clone()
                });
            }
        }
        let keys: Vec<_> = findings
            .iter()
            .map(|f| {
                let start = f.span.map_or(usize::MAX, |s| s.start);
                (start, f.citation.map_or(0, |c| c + 1))
            })
            .collect();
        let findings = arrange(findings, &stable_order(&keys));
        Ok(Report {
            status,
            confidence,
            uncertain,
            uncertainty_note: uncertain.then_some(UNCERTAINTY_NOTE),
            cleaned_answer,
            markers,
            citations,
            findings,
            summary,
            segments,
            timing_ms: 0.0,
        })
    }

    fn check_input(&self, input: &Input) -> Result<(), Error> {
        let chars = input.answer.chars().count();
        if chars > self.options.max_answer_chars {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "answer",
                format!(
                    "{chars} characters exceed maxAnswerChars ({})",
                    self.options.max_answer_chars
                ),
            ));
        }
        if input.sources.len() > self.options.max_sources {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "sources",
                format!(
                    "{} exceed maxSources ({})",
                    match input.sources.len() {
                        1 => "1 source".to_string(),
                        n => format!("{n} sources"),
                    },
                    self.options.max_sources
                ),
            ));
        }
        for (i, source) in input.sources.iter().enumerate() {
            if let Some(r) = source.relevance {
                if !r.is_finite() {
                    return Err(Error::new(
                        ErrorCode::InvalidInput,
                        format!("sources[{i}].relevance"),
                        format!("{} is not a finite number", decimal(r)),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn answer_finding(code: FindingCode, message: String) -> Finding {
    let severity = match code {
        FindingCode::DeclaredUnused => Severity::Warning,
        _ => Severity::Error,
    };
    Finding {
        code,
        severity,
        message,
        citation: None,
        span: None,
    }
}

/// A citation whose source does not exist (as opposed to one with bad fields).
fn has_resolution_error(c: &CitationResult) -> bool {
    c.errors.iter().any(|f| {
        matches!(
            f.code,
            FindingCode::OutOfRange
                | FindingCode::ZeroIndex
                | FindingCode::UnknownSource
                | FindingCode::MissingField
        )
    })
}

fn citation_result(
    label: String,
    resolved: Option<usize>,
    index: &SourceIndex<'_>,
    marker: Option<usize>,
    span: Option<crate::model::Span>,
    declared: Option<usize>,
    checks: CitationChecks,
) -> CitationResult {
    let (errors, warnings): (Vec<_>, Vec<_>) = checks
        .findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    let mut quality = 1.0;
    if checks.hallucinated_span {
        quality -= HALLUCINATED_SPAN_PENALTY;
    }
    if errors.is_empty() {
        quality -= MISSING_ENHANCED_PENALTY * checks.missing_enhanced as f64;
    }
    CitationResult {
        label,
        source_index: resolved.map(|i| index.label(i)),
        source_id: resolved.and_then(|i| index.source(i).id.clone()),
        marker,
        span,
        declared,
        valid: errors.is_empty(),
        errors,
        warnings,
        quality_score: round3(quality.max(0.0)),
        quote: checks.quote,
        quote_text: checks.quote_text,
        support: None,
        claim: None,
        evidence: None,
    }
}

pub(super) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// True when the two spans share a byte.
fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// Spans sorted by start, each with the furthest end among it and the spans before it:
/// "does any span overlap this one" is then one binary search.
struct SpanIndex {
    starts: Vec<usize>,
    reach: Vec<usize>,
}

impl SpanIndex {
    fn new(spans: Vec<Span>) -> SpanIndex {
        let keys: Vec<_> = spans.iter().map(|s| (s.start, s.end)).collect();
        let spans = arrange(spans, &stable_order(&keys));
        let starts = spans.iter().map(|s| s.start).collect();
        let reach = spans
            .iter()
            .scan(0, |furthest, s| {
                *furthest = s.end.max(*furthest);
                Some(*furthest)
            })
            .collect();
        SpanIndex { starts, reach }
    }

    /// True when one of the spans shares a byte with `span` (as [`overlaps`] says):
    /// among those starting before `span` ends, one reaching past its start.
    fn overlaps(&self, span: Span) -> bool {
        let before_end = self.starts.partition_point(|&start| start < span.end);
        before_end > 0 && self.reach[before_end - 1] > span.start
    }
}

/// The claim holding `span` (claims are in answer order and do not overlap); for a
/// provider's span over several sentences, the first claim it overlaps.
fn claim_of(claims: &[Claim], span: Span) -> Option<&Claim> {
    let from = claims.partition_point(|c| c.span.end <= span.start);
    let rest = &claims[from..];
    rest.iter()
        .take_while(|c| c.span.start <= span.start)
        .find(|c| span.end <= c.span.end)
        .or_else(|| rest.first().filter(|c| overlaps(span, c.span)))
}
