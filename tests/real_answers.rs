//! Real ExpertQA answers (data/expertqa/answers-val.jsonl) with injected bad markers:
//! cleaning removes exactly the bad markers (and the one space before each), every other
//! byte stays; the reports are snapshot-tested (insta).
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write;

use citeproof::model::{Input, Options, Segment};
use citeproof::validate::Validator;

fn answers() -> Vec<Input> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/expertqa/answers-val.jsonl"
    );
    let data =
        std::fs::read_to_string(path).expect("data/expertqa/answers-val.jsonl in the repository");
    data.lines()
        .map(|line| serde_json::from_str(line).expect("an answers-val line reads as Input"))
        .collect()
}

/// Injects, after the first sentence: a marker past the last source, a zero marker and a
/// code span holding a bracket; returns the new answer and the injected bad markers.
fn inject(input: &mut Input) -> Vec<String> {
    let past_end = format!("[{}]", input.sources.len() + 3);
    let cut = input
        .answer
        .find(". ")
        .map_or(input.answer.len(), |i| i + 1);
    let addition = format!(
        " A claim that cites nothing real {past_end}. Zero is not a label [0]. Code `arr[1]` stays."
    );
    input.answer.insert_str(cut, &addition);
    vec![past_end, "[0]".to_string()]
}

#[test]
fn cleaning_real_answers_removes_only_the_injected_markers() {
    let validator = Validator::new(Options::default()).unwrap();
    let mut checked = 0;
    for mut input in answers() {
        let original = input.answer.clone();
        let bad = inject(&mut input);
        let report = validator.validate(&input).unwrap();
        // Expected: the answer without every marker whose refs all failed, and without the
        // one space before each. Those are the injected ones plus any of the original
        // answer's markers that point past its sources (ExpertQA kept only some sources).
        let mut removed: Vec<citeproof::model::Span> = report
            .markers
            .iter()
            .enumerate()
            .filter(|(mi, _)| {
                report
                    .citations
                    .iter()
                    .filter(|c| c.marker == Some(*mi))
                    .all(|c| !c.valid)
            })
            .map(|(_, m)| m.span)
            .collect();
        removed.sort();
        let mut expected = String::new();
        let mut last = 0;
        for span in &removed {
            let start = if input.answer[..span.start].ends_with(' ') {
                span.start - 1
            } else {
                span.start
            };
            expected.push_str(&input.answer[last..start.max(last)]);
            last = span.end;
        }
        expected.push_str(&input.answer[last..]);
        for marker in &bad {
            assert!(
                removed.iter().any(|s| &input.answer[s.range()] == marker),
                "{marker} was flagged"
            );
        }
        assert_eq!(
            report.cleaned_answer,
            expected,
            "answer starting {:?}",
            &original[..40.min(original.len())]
        );
        assert!(
            report.cleaned_answer.contains("`arr[1]`"),
            "code is untouched"
        );
        let rebuilt: String = report
            .segments
            .iter()
            .map(|s| match s {
                Segment::Text { text } => text.as_str(),
                Segment::Cite { label, .. } => label.as_str(),
            })
            .collect();
        assert_eq!(rebuilt, report.cleaned_answer);
        checked += 1;
    }
    assert!(checked > 150);
}

#[test]
fn reports_of_the_first_real_answers() {
    let validator = Validator::new(Options::default()).unwrap();
    let mut out = String::new();
    for mut input in answers().into_iter().take(8) {
        inject(&mut input);
        let report = validator.validate(&input).unwrap();
        let s = &report.summary;
        writeln!(
            out,
            "status={} confidence={} citations={}/{} valid coverage={} hallucinations={}",
            report.status.name(),
            report.confidence,
            s.valid,
            s.total,
            s.citation_coverage,
            s.hallucinations
        )
        .unwrap();
        for f in &report.findings {
            let at = f.span.map_or(String::new(), |sp| {
                format!(" at {}", &input.answer[sp.range()])
            });
            writeln!(
                out,
                "  {} {}{at}: {}",
                f.severity_name(),
                f.code.name(),
                f.message
            )
            .unwrap();
        }
        writeln!(
            out,
            "  cleaned: {}",
            report.cleaned_answer.replace('\n', "⏎")
        )
        .unwrap();
    }
    insta::assert_snapshot!(out);
}
