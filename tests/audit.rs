//! The audit record through the public Rust API: spec 001's fields from a report, and the
//! record's claims cut once they grow long (a sentence carrying n markers is n claims).
#![cfg(not(target_arch = "wasm32"))]

use citeproof::audit::{AuditContext, CLAIM_ALLOWANCE, CUT_CLAIM_CHARS, ReportFacts, audit_record};
use citeproof::model::{Input, Options, Source};
use citeproof::validate::Validator;

fn context() -> AuditContext {
    AuditContext {
        audit_id: "audit-1".into(),
        timestamp: "2026-12-01T00:00:00.000Z".into(),
        processing_time_ms: 1.5,
    }
}

fn record_of(input: &Input) -> citeproof::audit::AuditRecord {
    let report = Validator::new(Options::default())
        .unwrap()
        .validate(input)
        .unwrap();
    audit_record(&ReportFacts::from_report(&report), input, &context())
}

#[test]
fn a_record_names_claims_sources_and_validity() {
    let input = Input {
        answer: "Wässer kocht bei 100 °C [1]. Eis schmilzt bei 0 °C [3].".into(),
        sources: vec![
            Source {
                id: Some("doc-water".into()),
                text: Some("Wässer kocht bei 100 °C auf Meereshöhe.".into()),
                ..Source::default()
            },
            Source {
                url: Some("https://example.org/ice".into()),
                text: Some("Eis schmilzt bei 0 °C.".into()),
                ..Source::default()
            },
        ],
        question: Some("When does water boil?".into()),
        ..Input::default()
    };
    let record = record_of(&input);
    assert_eq!(record.audit_id, "audit-1");
    assert_eq!(record.query.as_deref(), Some("When does water boil?"));
    assert_eq!(record.validation_result.status, "REJECT");
    assert_eq!(record.validation_result.citations_validated, 1);
    assert_eq!(record.validation_result.citations_failed, 1);
    assert_eq!(record.validation_result.hallucinations_detected, 1);
    let claims: Vec<_> = record
        .citations
        .iter()
        .map(|c| c.claim.as_deref())
        .collect();
    assert_eq!(
        claims,
        [
            Some("Wässer kocht bei 100 °C [1]."),
            Some("Eis schmilzt bei 0 °C [3].")
        ]
    );
    assert_eq!(record.citations[0].source, "doc-water");
    assert_eq!(record.citations[0].validation_status, "VALID");
    assert_eq!(record.citations[1].source, "3");
    assert_eq!(record.citations[1].validation_status, "INVALID");
    assert_eq!(
        record.retrieval.retrieved_ids,
        ["doc-water", "https://example.org/ice"]
    );
    assert_eq!(record.retrieval.cited_ids, ["doc-water"]);
}

/// One sentence carrying n markers is n citations of one claim of about 4n characters:
/// written whole each time, the record held 4n² characters of claims. Whole while they
/// total the allowance and 4 × the answer; cut to their first characters after.
#[test]
fn a_record_cuts_its_claims_once_they_pass_their_allowance() {
    let n = 20_000;
    let answer = format!("Ünïcode claim carrying one source{}.", " [1]".repeat(n));
    let input = Input {
        answer: answer.clone(),
        sources: vec![Source {
            id: Some("doc-1".into()),
            text: Some("Ünïcode claim.".into()),
            ..Source::default()
        }],
        ..Input::default()
    };
    let record = record_of(&input);
    assert_eq!(record.citations.len(), n);
    let claims: Vec<&str> = record
        .citations
        .iter()
        .map(|c| c.claim.as_deref().unwrap())
        .collect();
    let allowance = CLAIM_ALLOWANCE + 4 * answer.chars().count();
    let whole = claims.iter().take_while(|&&c| c == answer).count();
    assert_eq!(whole, allowance / answer.chars().count());
    let cut: String = answer.chars().take(CUT_CLAIM_CHARS).chain(['…']).collect();
    assert!(claims[whole..].iter().all(|&c| c == cut));
    let total: usize = claims.iter().map(|c| c.chars().count()).sum();
    assert!(total <= allowance + n * (CUT_CLAIM_CHARS + 1));
}

/// A claim no longer than the cut is whole even past the allowance: it costs no more.
#[test]
fn short_claims_stay_whole_past_the_allowance() {
    let long = format!("Long claim{}.", " [1]".repeat(30_000));
    let answer = format!("{long} Short claim [1].");
    let input = Input {
        answer,
        sources: vec![Source {
            text: Some("Short claim.".into()),
            ..Source::default()
        }],
        ..Input::default()
    };
    let record = record_of(&input);
    assert_eq!(record.citations.len(), 30_001);
    assert!(
        record.citations[29_999]
            .claim
            .as_deref()
            .unwrap()
            .ends_with('…')
    );
    assert_eq!(
        record.citations[30_000].claim.as_deref(),
        Some("Short claim [1].")
    );
}
