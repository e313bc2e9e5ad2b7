//! Every payload example of specs 000–004, as written there (snake_case included), must
//! validate with the outcome the spec describes. The fixtures in `tests/fixtures/specs/`
//! hold the payload and the expected outcome; the JS tests run the same files through
//! the wasm API.
#![cfg(not(target_arch = "wasm32"))]

use citeproof::model::{Input, Options, Severity};
use citeproof::validate::Validator;
use serde_json::Value;

fn check(name: &str) {
    let path = format!(
        "{}/tests/fixtures/specs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let input: Input =
        serde_json::from_value(fixture["input"].clone()).expect("the spec payload reads as Input");
    let report = Validator::new(Options::default())
        .unwrap()
        .validate(&input)
        .unwrap();
    let expect = &fixture["expect"];
    let report_json = serde_json::to_value(&report).unwrap();

    for (key, severity) in [("errors", Severity::Error), ("warnings", Severity::Warning)] {
        let codes: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| f.code.name())
            .collect();
        let expected: Vec<&str> = expect[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(codes, expected, "{name}: {key} {:#?}", report.findings);
    }
    assert_eq!(report.status.name(), expect["status"], "{name}: status");
    if let Some(valid) = expect.get("valid") {
        assert_eq!(
            Value::Bool(report.citations.iter().all(|c| c.valid)),
            *valid,
            "{name}: validity"
        );
    }
    if let Some(quality) = expect.get("qualityScore") {
        assert_eq!(
            report.citations[0].quality_score,
            quality.as_f64().unwrap(),
            "{name}: quality"
        );
    }
    for field in ["cleanedAnswer", "confidence", "uncertain"] {
        if let Some(value) = expect.get(field) {
            assert_eq!(report_json[field], *value, "{name}: {field}");
        }
    }
    if report.uncertain {
        assert_eq!(
            report.uncertainty_note,
            Some(citeproof::validate::UNCERTAINTY_NOTE)
        );
    }
}

#[test]
fn spec_000_section_reference_matching_a_retrieved_section_is_grounded() {
    check("spec-000-section-grounded");
}

#[test]
fn spec_000_section_reference_not_retrieved_lowers_confidence_and_marks_uncertain() {
    check("spec-000-section-ungrounded");
}

#[test]
fn spec_002_structured_response_example_passes_unchanged() {
    check("spec-002-structured-response-example");
}

#[test]
fn spec_002_hallucinated_index_is_removed_from_the_answer() {
    check("spec-002-hallucinated-index");
}

#[test]
fn spec_003_valid_citation_resolves_chunk_and_snippet() {
    check("spec-003-valid-citation");
}

#[test]
fn spec_003_hallucinated_chunk_id_is_rejected() {
    check("spec-003-hallucinated-chunk-id");
}

#[test]
fn spec_003_invented_snippet_is_not_found() {
    check("spec-003-invented-snippet");
}

#[test]
fn spec_004_perfect_citation_scores_one() {
    check("spec-004-perfect-citation");
}

#[test]
fn spec_004_hallucinated_span_is_invalid_at_seventy_percent() {
    check("spec-004-hallucinated-span");
}

#[test]
fn spec_004_missing_enhanced_fields_warn_three_times_at_eighty_five_percent() {
    check("spec-004-missing-enhanced-fields");
}
