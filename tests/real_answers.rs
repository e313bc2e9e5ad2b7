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

/// A score in 0–1 for a (claim, source) pair that varies with both, for tables standing
/// in for a model.
fn stand_in_score(claim: &str, source: usize) -> f64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ source as u64;
    for b in claim.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h % 1001) as f64 / 1000.0
}

#[test]
fn support_pairs_are_every_pair_a_blended_validation_reads_and_grow_with_the_claims() {
    use citeproof::support::{CANDIDATES, ExternalSupport};
    let options = Options {
        support_threshold: Some(0.5),
        misattribution_margin: Some(0.1),
        ..Options::default()
    };
    let validator = Validator::new(options).unwrap();
    let mut all_pairs = 0;
    for input in answers().iter().take(60) {
        let pairs = validator.support_pairs(input).unwrap();
        let sources = input.sources.len();
        let lexical = validator.validate(input).unwrap();
        let mut cited: Vec<usize> = (lexical.citations.iter())
            .filter_map(|c| c.source_position)
            .collect();
        cited.sort_unstable();
        cited.dedup();
        let cited = cited.len();
        // A table with a score for every claim and every source, and one with the scores
        // of the support pairs only: the reports are the same, so no other pair is read.
        let (mut every, mut only) = (
            ExternalSupport::weighted(2.0),
            ExternalSupport::weighted(2.0),
        );
        for (claim, read) in &pairs {
            every.insert(claim, (0..sources).map(|s| (s, stand_in_score(claim, s))));
            only.insert(claim, read.iter().map(|&s| (s, stand_in_score(claim, s))));
            let mut once = read.clone();
            once.sort_unstable();
            once.dedup();
            assert_eq!(once.len(), read.len(), "each source once: {read:?}");
            // The sources a claim cites (at most those the answer cites) and 8 others.
            assert!(read.len() <= cited + CANDIDATES, "{claim}: {read:?}");
            // Its markers are not part of it.
            assert!(!claim.contains("]."), "{claim}");
            all_pairs += read.len();
        }
        let with_every = validator.validate_with(input, &[every]).unwrap();
        let with_only = validator.validate_with(input, &[only]).unwrap();
        assert_eq!(with_only, with_every, "{}", input.answer);
        // And the stand-in moved the scores: the tables were read.
        let supports = |r: &citeproof::model::Report| -> Vec<Option<f64>> {
            r.citations.iter().map(|c| c.support).collect()
        };
        if !pairs.is_empty() {
            assert_ne!(supports(&with_only), supports(&lexical), "{}", input.answer);
        }
    }
    assert!(all_pairs > 100, "{all_pairs} pairs in 60 answers");
}
