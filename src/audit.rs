//! What happens around a validation: the audit record (spec 001, with spec 003's
//! retrieval ids), the rejection response (spec 001), the repair prompt (spec 003) and
//! request validation (spec 000).
//!
//! The core cannot make ids or read clocks (docs/architecture.md §1): callers pass the audit id,
//! the timestamp and the processing time in an [`AuditContext`].

use serde::Serialize;
use std::collections::HashSet;
use std::ops::Range;

use crate::model::{Finding, FindingCode, Input, Report, Severity, Source, Status, decimal};
use crate::substr::Substr;

/// Ids and times the caller supplies for an audit record.
#[derive(Clone, Debug, Default)]
pub struct AuditContext {
    /// Unique id (the JS binding uses `crypto.randomUUID()`).
    pub audit_id: String,
    /// ISO 8601 time of the validation.
    pub timestamp: String,
    /// How long validation took.
    pub processing_time_ms: f64,
}

/// Spec 001's audit log record, field for field, plus spec 003's retrieval ids.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditRecord {
    /// Unique id of this record.
    pub audit_id: String,
    /// ISO 8601.
    pub timestamp: String,
    /// The caller's session.
    pub session_id: Option<String>,
    /// The user's question.
    pub query: Option<String>,
    /// The model response's id.
    pub response_id: Option<String>,
    /// The outcome.
    pub validation_result: ValidationResult,
    /// One entry per checked citation.
    pub citations: Vec<AuditCitation>,
    /// Validation time.
    pub processing_time_ms: f64,
    /// The model that answered.
    pub model_version: Option<String>,
    /// What retrieval returned and what the answer cited (spec 003's log fields).
    pub retrieval: Retrieval,
}

/// The `validation_result` object of spec 001.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationResult {
    /// `PASS`, `REVIEW` or `REJECT` (pass, warn, fail).
    pub status: &'static str,
    /// Citations that passed.
    pub citations_validated: usize,
    /// Citations that failed.
    pub citations_failed: usize,
    /// Citations pointing at something that does not exist.
    pub hallucinations_detected: usize,
    /// Spec 000's confidence.
    pub confidence_score: f64,
}

/// One entry of spec 001's `citations`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditCitation {
    /// The claim (sentence) the citation backs; cut when the record's claims grow long
    /// (see [`CLAIM_ALLOWANCE`]).
    pub claim: Option<String>,
    /// The cited source: its id, chunk id, url, title or label.
    pub source: String,
    /// `"45-120"` when the citation declared lines.
    pub line_range: Option<String>,
    /// `VALID` or `INVALID`.
    pub validation_status: &'static str,
    /// Claim-support score, when scored.
    pub semantic_score: Option<f64>,
}

/// Spec 003: what to log to tell retrieval failures from generation failures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Retrieval {
    /// Requested `top_k`.
    pub top_k: Option<u32>,
    /// Every retrieved source's id.
    pub retrieved_ids: Vec<String>,
    /// The retrieved sources the answer validly cites, in order of first use.
    pub cited_ids: Vec<String>,
}

/// The audit-relevant facts of one citation, in a form both the Rust report and the JS
/// report object can provide.
#[derive(Clone, Debug, Default)]
pub struct CitationFacts {
    /// Where the claim is in `input.answer`, in bytes.
    pub claim: Option<Range<usize>>,
    /// Position of the cited source in `input.sources`, when it was retrieved.
    pub source: Option<usize>,
    /// How the citation named its source, when it was not retrieved.
    pub label: String,
    /// Index into `input.citations`.
    pub declared: Option<usize>,
    /// No errors.
    pub valid: bool,
    /// Support score.
    pub support: Option<f64>,
}

/// The audit-relevant facts of one report.
#[derive(Clone, Debug)]
pub struct ReportFacts {
    /// The gate.
    pub status: Status,
    /// Spec 000's confidence.
    pub confidence: f64,
    /// `summary.hallucinations`.
    pub hallucinations: usize,
    /// Per citation.
    pub citations: Vec<CitationFacts>,
}

impl ReportFacts {
    /// The facts of a Rust report (of the input later given to [`audit_record`]).
    pub fn from_report(report: &Report<'_>) -> ReportFacts {
        ReportFacts {
            status: report.status,
            confidence: report.confidence,
            hallucinations: report.summary.hallucinations,
            citations: report
                .citations
                .iter()
                .map(|c| CitationFacts {
                    claim: c.claim.map(|s| s.range()),
                    source: c.source_position,
                    label: c.label.clone(),
                    declared: c.declared,
                    valid: c.valid,
                    support: c.support,
                })
                .collect(),
        }
    }
}

/// How a source is named in logs: id, chunk id, doc id, url, title, else its label.
fn source_name(sources: &[Source], position: usize) -> String {
    let s = &sources[position];
    [&s.id, &s.chunk_id, &s.doc_id, &s.url, &s.title]
        .into_iter()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| s.label(position).to_string())
}

/// Spec 001's status names. The JS binding's contract restates them
/// (`enums.AuditStatus` in wasm/js/schema.mjs, checked by tests/wire_contract.rs).
pub const fn audit_status(status: Status) -> &'static str {
    match status {
        Status::Pass => "PASS",
        Status::Warn => "REVIEW",
        Status::Fail => "REJECT",
    }
}

/// Spec 001's name of a citation's validity: `VALID` or `INVALID`. The JS binding's
/// contract restates them (`enums.AuditCitationStatus` in wasm/js/schema.mjs).
///
/// ```
/// assert_eq!(citeproof::audit::validation_status(false), "INVALID");
/// ```
pub const fn validation_status(valid: bool) -> &'static str {
    if valid { "VALID" } else { "INVALID" }
}

/// Characters of claim text an audit record writes in full beyond 4 × the answer's
/// characters. From the first claim that would pass them on, a claim longer than
/// [`CUT_CLAIM_CHARS`] is written as its first [`CUT_CLAIM_CHARS`] characters and "…". A record has one claim per citation: a
/// sentence carrying n markers was copied n times, n² characters, before. Real records
/// stay whole: their claims are the answer's sentences, each cited a few times.
pub const CLAIM_ALLOWANCE: usize = 65_536;

/// Characters kept of a claim cut for the record's length ([`CLAIM_ALLOWANCE`]).
pub const CUT_CLAIM_CHARS: usize = 80;

/// The claim texts of one audit record, whole while the allowance lasts.
struct ClaimTexts<'a> {
    answer: &'a str,
    /// Characters still allowed in full.
    left: usize,
}

impl ClaimTexts<'_> {
    /// The text of the claim at `range` of the answer, cut once the allowance is spent;
    /// `None` for a range that is not in the answer. Reads at most the allowance left
    /// and [`CUT_CLAIM_CHARS`] characters: a record's reads total the allowance and
    /// [`CUT_CLAIM_CHARS`] per claim.
    fn text(&mut self, range: Range<usize>) -> Option<String> {
        let claim = self.answer.get(range)?;
        let chars = claim.chars().take(self.left.saturating_add(1)).count();
        if chars <= self.left {
            self.left -= chars;
            return Some(claim.to_string());
        }
        // Spent: later claims are not counted again (each would read up to what is left).
        self.left = 0;
        Some(match claim.char_indices().nth(CUT_CLAIM_CHARS) {
            Some((end, _)) => format!("{}…", claim.sub(..end)),
            None => claim.to_string(),
        })
    }
}

/// The audit record of one validation (spec 001's schema, snake_case).
pub fn audit_record(facts: &ReportFacts, input: &Input, ctx: &AuditContext) -> AuditRecord {
    let valid = facts.citations.iter().filter(|c| c.valid).count();
    // Each cited source's name once, in the order first cited (a set beside the list:
    // a search of the list per citation made n citations of n sources cost n²).
    let mut cited_ids: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for c in facts.citations.iter().filter(|c| c.valid) {
        if let Some(p) = c.source {
            let name = source_name(&input.sources, p);
            if seen.insert(name.clone()) {
                cited_ids.push(name);
            }
        }
    }
    let declared = input.citations.as_deref().unwrap_or_default();
    let mut claims = ClaimTexts {
        answer: &input.answer,
        left: CLAIM_ALLOWANCE.saturating_add(input.answer.chars().count().saturating_mul(4)),
    };
    AuditRecord {
        audit_id: ctx.audit_id.clone(),
        timestamp: ctx.timestamp.clone(),
        session_id: input.session_id.clone(),
        query: input.question.clone(),
        response_id: input.response_id.clone(),
        validation_result: ValidationResult {
            status: audit_status(facts.status),
            citations_validated: valid,
            citations_failed: facts.citations.len() - valid,
            hallucinations_detected: facts.hallucinations,
            confidence_score: facts.confidence,
        },
        citations: facts
            .citations
            .iter()
            .map(|c| AuditCitation {
                claim: c.claim.clone().and_then(|range| claims.text(range)),
                source: c
                    .source
                    .map_or_else(|| c.label.clone(), |p| source_name(&input.sources, p)),
                line_range: c
                    .declared
                    .and_then(|d| declared.get(d)?.line_range.as_ref()?.valid().copied())
                    .map(|r| format!("{}-{}", r.first, r.last)),
                validation_status: validation_status(c.valid),
                semantic_score: c.support,
            })
            .collect(),
        processing_time_ms: ctx.processing_time_ms,
        model_version: input.model_version.clone(),
        retrieval: Retrieval {
            top_k: input.top_k,
            retrieved_ids: (0..input.sources.len())
                .map(|p| source_name(&input.sources, p))
                .collect(),
            cited_ids,
        },
    }
}

/// Spec 001's rejection response.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RejectionResponse {
    /// Always `"rejected"`.
    pub status: &'static str,
    /// Why, in one sentence.
    pub reason: String,
    /// What the user can do.
    pub suggestion: String,
    /// The cleaned answer, for callers that show partial answers.
    pub partial_response: String,
    /// The audit record's id, for debugging.
    pub audit_id: String,
}

/// The rejection response for a report, naming its first error.
pub fn rejection_response(
    errors: &[&str],
    cleaned_answer: &str,
    audit_id: &str,
) -> RejectionResponse {
    let reason = match errors {
        [] => "The answer did not pass citation validation".to_string(),
        [only] => format!("Unable to verify citation: {only}"),
        [first, rest @ ..] => format!(
            "Unable to verify citation: {first} (and {} more)",
            rest.len()
        ),
    };
    RejectionResponse {
        status: "rejected",
        reason,
        suggestion:
            "Please rephrase your question or narrow it to the documents you expect to be cited"
                .into(),
        partial_response: cleaned_answer.to_string(),
        audit_id: audit_id.to_string(),
    }
}

/// Spec 003's one repair instruction, naming each failed citation and the ids it may use
/// (when `allowed` has any), and ending with the exact shape to return: [`REPAIR_SHAPE`],
/// a JSON object whose `answer` is the whole corrected answer with its citations inline
/// (`[1]`, `[chunk_001]`).
/// Spec 003's "Return ONLY JSON." alone named no shape, and a model that obeyed it sent
/// JSON that a caller could not tell from an answer.
///
/// ```
/// let prompt = citeproof::audit::repair_prompt(&["source 9 does not exist"], &["chunk_001".into(), "chunk_002".into()]);
/// assert!(prompt.starts_with("Return the same answer, but fix citations"));
/// assert!(prompt.contains("- source 9 does not exist"));
/// assert!(prompt.contains("chunk_001, chunk_002"));
/// assert!(prompt.ends_with(citeproof::audit::REPAIR_SHAPE));
/// // No ids to name: the clause is left out, not written empty.
/// let bare = citeproof::audit::repair_prompt(&["source 9 does not exist"], &[]);
/// assert!(bare.starts_with("Return the same answer, but fix citations. Quotes"));
/// ```
pub fn repair_prompt(failures: &[&str], allowed: &[String]) -> String {
    let mut prompt = String::from("Return the same answer, but fix citations");
    // No ids known (no input given, or no sources): the clause that names them is left
    // out rather than written empty ("names one of: .").
    if !allowed.is_empty() {
        prompt.push_str(" so that every citation names one of: ");
        prompt.push_str(&allowed.join(", "));
    }
    prompt.push_str(
        ". Quotes (snippets) must be copied exactly from the corresponding source text. ",
    );
    prompt.push_str("These citations failed validation:\n");
    for failure in failures {
        prompt.push_str("- ");
        prompt.push_str(failure);
        prompt.push('\n');
    }
    prompt.push_str(
        "Cite inline as [id]. Return ONLY JSON, exactly this object and nothing before or \
         after it: ",
    );
    prompt.push_str(REPAIR_SHAPE);
    prompt
}

/// The shape [`repair_prompt`] asks the model to return (its last words): one JSON
/// object, `answer` holding the whole corrected answer as text. A caller reads the
/// repaired answer from that field (the edge worker does).
pub const REPAIR_SHAPE: &str = r#"{"answer": "<the whole corrected answer>"}"#;

/// The ids a repaired answer may cite: each source's id, chunk id or doc id, else its
/// label.
pub fn allowed_ids(sources: &[Source]) -> Vec<String> {
    sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            [&s.id, &s.chunk_id, &s.doc_id]
                .into_iter()
                .flatten()
                .next()
                .cloned()
                .unwrap_or_else(|| s.label(i).to_string())
        })
        .collect()
}

/// Longest question spec 000 accepts, in characters after trimming.
pub const MAX_QUESTION_CHARS: usize = 2000;

/// Spec 000's request validation: a question of 1–2000 characters after trimming and
/// well-formed sources. Each problem is a `request_invalid` finding.
pub fn validate_request(input: &Input) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut fail = |message: String| {
        findings.push(Finding {
            code: FindingCode::RequestInvalid,
            severity: Severity::Error,
            message,
            citation: None,
            span: None,
        })
    };
    match input.question.as_deref().map(str::trim) {
        None => fail("question: required".into()),
        Some("") => fail("question: must not be empty".into()),
        Some(q) if q.chars().count() > MAX_QUESTION_CHARS => fail(format!(
            "question: {} characters exceed {MAX_QUESTION_CHARS}",
            q.chars().count()
        )),
        Some(_) => {}
    }
    for (i, s) in input.sources.iter().enumerate() {
        if let Some(r) = s.relevance {
            if !(0.0..=1.0).contains(&r) {
                fail(format!(
                    "sources[{i}].relevance: {} is outside 0–1",
                    decimal(r)
                ));
            }
        }
        if s.chapter.as_deref().is_some_and(|c| c.trim().is_empty()) {
            fail(format!("sources[{i}].chapter: must not be empty"));
        }
        if s.text.is_none()
            && s.url.is_none()
            && s.id.is_none()
            && s.chunk_id.is_none()
            && s.doc_id.is_none()
        {
            fail(format!("sources[{i}]: has neither text, url nor an id"));
        }
    }
    findings
}
