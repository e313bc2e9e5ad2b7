//! The aggregates, the gate and the confidence of a report (specs 000, 004).

use crate::model::{
    CitationResult, DeclaredCitation, Finding, FindingCode, Input, Options, Severity, Status,
    Summary,
};

use super::round3;

pub(super) fn summarize(
    citations: &[CitationResult],
    declared: &[DeclaredCitation],
    claims: usize,
    cited_claims: usize,
) -> Summary {
    let total = citations.len();
    let valid = citations.iter().filter(|c| c.valid).count();
    let alignments: Vec<f64> = declared
        .iter()
        .filter_map(|d| d.alignment_score.as_ref()?.valid().copied())
        .filter(|v| (0.0..=1.0).contains(v))
        .collect();
    let share = |count: usize| {
        if declared.is_empty() {
            0.0
        } else {
            count as f64 / declared.len() as f64
        }
    };
    let hallucinations = citations
        .iter()
        .filter(|c| {
            c.errors.iter().any(|f| {
                matches!(
                    f.code,
                    FindingCode::OutOfRange
                        | FindingCode::ZeroIndex
                        | FindingCode::UnknownSource
                        | FindingCode::SpanNotInAnswer
                        | FindingCode::QuoteNotFound
                )
            })
        })
        .count();
    Summary {
        total,
        valid,
        invalid: total - valid,
        avg_alignment: (!alignments.is_empty())
            .then(|| round3(alignments.iter().sum::<f64>() / alignments.len() as f64)),
        citation_coverage: if claims == 0 {
            1.0
        } else {
            round3(cited_claims as f64 / claims as f64)
        },
        has_evidence_idx: round3(share(
            declared.iter().filter(|d| d.evidence_idx.is_some()).count(),
        )),
        has_alignment_score: round3(share(
            declared
                .iter()
                .filter(|d| d.alignment_score.is_some())
                .count(),
        )),
        has_span: round3(share(
            declared
                .iter()
                .filter(|d| d.span_in_answer.is_some())
                .count(),
        )),
        hallucinations,
        uncited_claims: claims - cited_claims,
    }
}

/// Spec 004's quality gate (docs/architecture.md §6), plus: any invalid citation is at least a warning.
pub(super) fn gate(
    citations: &[CitationResult],
    findings: &[Finding],
    summary: &Summary,
    declared: &[DeclaredCitation],
    options: &Options,
) -> Status {
    let any_code = |code: FindingCode| {
        findings.iter().any(|f| f.code == code)
            || citations
                .iter()
                .any(|c| c.errors.iter().chain(&c.warnings).any(|f| f.code == code))
    };
    let answer_error = findings.iter().any(|f| f.severity == Severity::Error);
    let invalid_ratio = if summary.total == 0 {
        0.0
    } else {
        summary.invalid as f64 / summary.total as f64
    };
    if answer_error
        || invalid_ratio > options.max_invalid_ratio
        || any_code(FindingCode::SpanNotInAnswer)
        || any_code(FindingCode::QuoteNotFound)
    {
        return Status::Fail;
    }
    let uses_enhanced = declared.iter().any(|d| {
        d.evidence_idx.is_some() || d.alignment_score.is_some() || d.span_in_answer.is_some()
    });
    let warn = summary.invalid > 0
        || summary
            .avg_alignment
            .is_some_and(|a| a < options.min_avg_alignment)
        || summary.citation_coverage < options.min_coverage
        || (uses_enhanced && summary.has_evidence_idx < options.min_evidence_idx_ratio)
        || any_code(FindingCode::UnsupportedClaim)
        || any_code(FindingCode::QuoteUnchecked);
    if warn { Status::Warn } else { Status::Pass }
}

/// How far past 0 or 1 a relevance may be and still be read as in 0–1: a cosine of
/// two equal vectors in 32-bit floats is 1.0000001.
const RELEVANCE_SLACK: f64 = 1e-4;

/// Whether a relevance is in 0–1 (within [`RELEVANCE_SLACK`]).
pub(super) fn in_unit_interval(relevance: f64) -> bool {
    (-RELEVANCE_SLACK..=1.0 + RELEVANCE_SLACK).contains(&relevance)
}

/// Spec 000: base from mean source relevance, +0.1 when every citation is grounded,
/// −0.2 otherwise, clamped to [0, 1]. When any relevance is outside 0–1, the
/// relevances are on another scale (a BM25 score's) and none is read: the base is that
/// of no relevance.
pub(super) fn confidence(input: &Input, citations: &[CitationResult]) -> f64 {
    let mut relevances: Vec<f64> = input.sources.iter().filter_map(|s| s.relevance).collect();
    if !relevances.iter().all(|r| in_unit_interval(*r)) {
        relevances.clear();
    }
    let base: f64 = if relevances.is_empty() {
        0.7
    } else {
        let mean = relevances.iter().sum::<f64>() / relevances.len() as f64;
        if mean < 0.7 {
            0.5
        } else if mean < 0.85 {
            0.7
        } else {
            0.9
        }
    };
    let grounded = citations.iter().all(|c| c.valid);
    round3((base + if grounded { 0.1 } else { -0.2 }).clamp(0.0, 1.0))
}
