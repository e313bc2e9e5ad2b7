//! The phases of [`Validator::validate_with`](super::Validator::validate_with), each a
//! function over what the one before produced: resolve each use of a source, check each
//! use, cover the claims, score support, decide the gate, rewrite the answer, gather the
//! findings (docs/architecture.md).

use std::collections::HashSet;

use super::checks::{
    CitationChecks, check_fields, check_quote, check_span, check_support, line_spans, quote_budget,
};
use super::gate::{confidence, gate, in_unit_interval, summarize};
use super::order::{arrange, stable_order};
use super::resolve::{SourceIndex, Use, declared_use, marker_uses, merge};
use super::{HALLUCINATED_SPAN_PENALTY, MISSING_ENHANCED_PENALTY, SupportPairs, round3};
use crate::claims::{Claim, context_of, paragraph_final_cited, split_claims};
use crate::model::{
    AddFinding, CitationResult, Finding, FindingCode, Input, Loose, Marker, Mode, Options, Segment,
    Severity, Span, Status, Summary, decimal,
};
use crate::rewrite::{MarkerFate, rewrite};
use crate::support::ExternalSupport;

/// The warnings about the retrieved sources themselves: a text given twice with
/// different values (one per source), a label two sources have, relevances on another
/// scale than 0–1 (one finding each, naming the first and counting the rest).
pub(super) fn read_sources(input: &Input, index: &SourceIndex<'_>, findings: &mut Vec<Finding>) {
    for (i, source) in input.sources.iter().enumerate() {
        findings.extend(source.text_differs_warning(i));
    }
    if let Some(([first, repeat], repeats)) = index.repeated_labels() {
        let label = index.label(first);
        findings.add(Finding::new(
            FindingCode::DuplicateLabel,
            Severity::Warning,
            format!(
                "sources[{first}] and sources[{repeat}] are both labelled {label} (a \
                 source's label is its index, else its position + 1); citations of \
                 {label} name sources[{first}]{}",
                and_more(repeats - 1, "sources with a repeated label")
            ),
        ));
    }
    let mut outside = (input.sources.iter().enumerate()).filter_map(|(i, s)| {
        s.relevance
            .filter(|r| !in_unit_interval(*r))
            .map(|r| (i, r))
    });
    if let Some((i, r)) = outside.next() {
        findings.add(Finding::new(
            FindingCode::InvalidField,
            Severity::Warning,
            format!(
                "sources[{i}].relevance: {} is outside 0–1{}; the relevances are on \
                 another scale, and confidence reads none of them",
                decimal(r),
                and_more(outside.count(), "outside it")
            ),
        ));
    }
}

/// " (and N more `which`)" for a count of sources past the one a message names; empty
/// for none.
fn and_more(count: usize, which: &str) -> String {
    match count {
        0 => String::new(),
        n => format!(" (and {n} more {which})"),
    }
}

/// The answer's `mode` (spec 000): `None` when it has none, `Some((name, None))` (and an
/// `invalid_mode` finding) when it names no mode.
pub(super) fn read_mode<'a>(
    input: &'a Input,
    findings: &mut Vec<Finding>,
) -> Option<(&'a str, Option<Mode>)> {
    let mode = input.mode.as_deref().map(|m| (m, Mode::from_name(m)));
    if let Some((name, None)) = mode {
        findings.add(answer_finding(
            FindingCode::InvalidMode,
            format!("mode \"{name}\" is not one of answer, clarify, refuse"),
        ));
    }
    mode
}

/// Every use of a source — a marker's ref, a declared citation, or both merged — with
/// what it resolved to, and the sources the declared list names.
pub(super) struct Uses {
    uses: Vec<Use>,
    /// By position: the declared list names the source.
    declared_positions: Vec<bool>,
    /// Labels the declared list names that resolved to no source.
    declared_labels: HashSet<String>,
}

/// Phase 1: resolve.
pub(super) fn resolve_uses(input: &Input, index: &SourceIndex<'_>, markers: &[Marker<'_>]) -> Uses {
    let answer = input.answer.as_str();
    let declared = input.citations.as_deref().unwrap_or_default();
    let declared_uses: Vec<_> = declared
        .iter()
        .enumerate()
        .map(|(i, c)| declared_use(i, c, index, answer))
        .collect();
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
    Uses {
        uses: merge(marker_uses(markers, index, answer), declared_uses),
        declared_positions,
        declared_labels,
    }
}

/// The citations, checked, and the retrieved source (position in `sources`) of each.
pub(super) struct Checked {
    pub citations: Vec<CitationResult>,
    pub positions: Vec<Option<usize>>,
    /// Where the declared citations' `spanInAnswer` were found over a claim.
    pub spans_found: Vec<Span>,
}

/// The answer's claims: its sentences, each with the markers that follow it.
pub(super) fn claims_of(answer: &str, markers: &[Marker<'_>]) -> Vec<Claim> {
    let marker_spans: Vec<_> = markers.iter().map(|m| m.span).collect();
    split_claims(answer, &marker_spans)
}

/// Phase 2: check each use — resolution, declared-list agreement, fields, quote.
pub(super) fn check_uses(
    input: &Input,
    index: &SourceIndex<'_>,
    (has_markers, claims): (bool, &[Claim]),
    uses: Uses,
    options: &Options,
) -> Checked {
    let answer = input.answer.as_str();
    let declared = input.citations.as_deref().unwrap_or_default();
    let has_declared_list = input.citations.is_some();
    let mut citations = Vec::with_capacity(uses.uses.len());
    let mut positions = Vec::with_capacity(uses.uses.len());
    let mut budget = quote_budget(input);
    let mut spans_found = Vec::new();
    // Each source's lines, made when a line range in it is first checked (the list
    // itself made then too: most requests have no line range).
    let mut lines_of: Vec<Option<Vec<Span>>> = Vec::new();
    for u in uses.uses {
        positions.push(u.resolved.as_ref().ok().copied());
        let mut checks = CitationChecks {
            findings: u.findings,
            ..CitationChecks::default()
        };
        if let Err((code, message)) = &u.resolved {
            checks.findings.add(Finding {
                code: *code,
                severity: Severity::Error,
                message: message.clone(),
                citation: None,
                span: u.span,
            });
        }
        let undeclared = match u.resolved {
            Ok(position) => !uses.declared_positions[position],
            Err(_) => !uses.declared_labels.contains(&u.label),
        };
        if has_declared_list && u.marker.is_some() && u.declared.is_none() && undeclared {
            checks.findings.add(Finding {
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
        if u.marker.is_none() && has_markers {
            checks.findings.add(answer_finding(
                FindingCode::DeclaredUnused,
                format!(
                    "declared citation of source {} is never cited in the text",
                    u.label
                ),
            ));
        }
        let source = u.resolved.as_ref().ok().map(|&i| index.source(i));
        if let Some(d) = u.declared.map(|d| &declared[d]) {
            check_fields(d, index.len(), options, &mut checks);
            let over_claim = |span| claim_of(claims, span).is_some();
            check_span(d, answer, over_claim, (options, &mut budget), &mut checks);
            spans_found.extend(checks.span_found);
            let ranged = matches!(d.line_range, Some(Loose::Valid(_)));
            let lines = match (ranged, u.resolved.as_ref().ok(), source) {
                (true, Some(&at), Some(s)) => s.text.as_deref().map(|text| {
                    if lines_of.is_empty() {
                        lines_of.resize_with(input.sources.len(), || None);
                    }
                    lines_of[at]
                        .get_or_insert_with(|| line_spans(text))
                        .as_slice()
                }),
                _ => None,
            };
            check_quote(d, (source, lines), options, &mut budget, &mut checks);
        }
        citations.push(citation_result(
            u.label,
            u.resolved.ok(),
            index,
            u.marker,
            u.span,
            u.declared,
            checks,
        ));
    }
    Checked {
        citations,
        positions,
        spans_found,
    }
}

/// The claims of the answer and which of them a citation covers.
pub(super) struct Coverage {
    claims: Vec<Claim>,
    covered: Vec<bool>,
}

impl Coverage {
    /// Claims with a citation.
    fn cited(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }
}

/// Phase 3: split the answer into claims, mark which a citation covers, and give each
/// citation its claim. `spans_found` are where the declared citations' `spanInAnswer`
/// first occur over a claim ([`Checked`]), found within the request's budget.
pub(super) fn cover_claims(
    input: &Input,
    (markers, claims, spans_found): (&[Marker<'_>], Vec<Claim>, &[Span]),
    citations: &mut [CitationResult],
    options: &Options,
) -> Coverage {
    let answer = input.answer.as_str();
    let declared = input.citations.as_deref().unwrap_or_default();
    // Exact spans of declared citations (provider adapters) and where their
    // `spanInAnswer` occurs, in answer order.
    let exact_spans = SpanIndex::new(
        citations
            .iter()
            .filter(|c| c.declared.is_some() && c.marker.is_none())
            .filter_map(|c| c.span)
            .chain(spans_found.iter().copied())
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
    // Which claims a citation covers: their own marker, a declared span over them,
    // declared citations for the whole answer, or a paragraph-final marker.
    let covered: Vec<bool> = claims
        .iter()
        .zip(paragraph_cited)
        .map(|(c, paragraph_cited)| {
            whole_answer_cited
                || paragraph_cited
                || !c.markers.is_empty()
                || exact_spans.overlaps(c.span)
        })
        .collect();
    for citation in citations.iter_mut() {
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
    Coverage { claims, covered }
}

/// Phase 4: `uncited_claim` findings (with `supportThreshold`), and each cited claim's
/// support score, evidence and support findings.
pub(super) fn score_support(
    (input, index, markers, positions): (&Input, &SourceIndex<'_>, &[Marker<'_>], &[Option<usize>]),
    citations: &mut [CitationResult],
    coverage: &Coverage,
    (options, external, pairs): (&Options, &[ExternalSupport], Option<&mut SupportPairs>),
    findings: &mut Vec<Finding>,
) {
    if options.support_threshold.is_some() {
        let uncited = (coverage.claims.iter().zip(&coverage.covered))
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
        check_support(
            (input, index, markers, positions),
            citations,
            options,
            (external, pairs),
        );
    }
}

/// What the report says of the answer as a whole.
pub(super) struct Decision {
    pub status: Status,
    pub confidence: f64,
    pub uncertain: bool,
    pub summary: Summary,
}

/// Phase 5: `no_citations`, the summary, the gate and the confidence.
pub(super) fn decide(
    input: &Input,
    mode: Option<(&str, Option<Mode>)>,
    citations: &[CitationResult],
    findings: &mut Vec<Finding>,
    coverage: &Coverage,
    options: &Options,
) -> Decision {
    let declared = input.citations.as_deref().unwrap_or_default();
    let requires_citations =
        options.require_citations && matches!(mode, None | Some((_, Some(Mode::Answer))));
    if citations.is_empty() && requires_citations {
        findings.add(Finding {
            code: FindingCode::NoCitations,
            severity: Severity::Error,
            message: "the answer cites no source".into(),
            citation: None,
            span: None,
        });
    }
    let summary = summarize(citations, declared, coverage.claims.len(), coverage.cited());
    let status = gate(citations, findings, &summary, declared, options);
    let confidence = confidence(input, citations);
    Decision {
        status,
        confidence,
        uncertain: confidence < options.uncertain_below,
        summary,
    }
}

/// Phase 6: the answer with the policy applied, and its segments for chips.
pub(super) fn rewrite_answer(
    input: &Input,
    markers: &[Marker<'_>],
    citations: &[CitationResult],
    positions: &[Option<usize>],
    options: &Options,
) -> (String, Vec<Segment>) {
    let mut fates: Vec<MarkerFate> = markers.iter().map(|_| MarkerFate::default()).collect();
    for (citation, &position) in citations.iter().zip(positions) {
        if let Some(mi) = citation.marker {
            let resolved = position.filter(|_| !has_resolution_error(citation));
            fates[mi].refs.push((citation.label.clone(), resolved));
        }
    }
    rewrite(&input.answer, markers, &fates, &input.sources, options)
}

/// Phase 7: the answer's findings and every citation's, in answer order (findings
/// without a span last; a citation's after the answer's at the same place).
pub(super) fn all_findings(
    mut findings: Vec<Finding>,
    citations: &[CitationResult],
) -> Vec<Finding> {
    for (ci, citation) in citations.iter().enumerate() {
        for f in citation.errors.iter().chain(&citation.warnings) {
            findings.add(Finding {
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
    arrange(findings, &stable_order(&keys))
}

/// A finding about the answer as a whole, its severity from its code. Out of line: an
/// error path inlined at several places otherwise, each copy costing wasm bytes.
#[inline(never)]
fn answer_finding(code: FindingCode, message: String) -> Finding {
    let severity = match code {
        FindingCode::DeclaredUnused => Severity::Warning,
        _ => Severity::Error,
    };
    Finding::new(code, severity, message)
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
        source_position: resolved,
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
