//! The claim-support evaluation (`cargo run --release --example support_eval`) in CI.
//! Floors sit a few points under the cross-validated means of the shipped constants
//! (5 folds grouped by answer; docs/perf-log.md, docs/support.md), so a change that
//! degrades scoring fails the build; and with nothing to contrast against, the score
//! must rank at least as well as plain token-overlap recall.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../examples/support_eval/eval.rs"]
#[allow(dead_code)] // the grid search is for the example's report
mod eval;

use citeproof::support::SupportParams;
use eval::{Setup, Task};

#[test]
fn support_scoring_keeps_its_cross_validated_auroc_on_the_expertqa_pairs() {
    let rows = eval::load();
    assert!(
        rows.len() > 1000,
        "the whole validation file: {} rows",
        rows.len()
    );
    let shipped = SupportParams::default();
    let in_request = eval::score_rows(&rows, Setup::InRequest, shipped).0;
    let isolated = eval::score_rows(&rows, Setup::Isolated, shipped).0;
    let folds = eval::per_fold(&rows, [&in_request, &isolated]);
    // Floors, in the order of `eval::CELLS`: in-request swap, isolated swap, in-request
    // loose, isolated loose (CV means 0.949, 0.902, 0.624, 0.630). Loose fell from
    // 0.653 / 0.643 to 0.601 / 0.614 when the cited-length prior went (issue 35: it
    // fitted ExpertQA, where complete claims cite longer evidence, and ranked below
    // token recall on every AttributionBench dataset); missing names brought it back up.
    let floors = [0.93, 0.88, 0.60, 0.61];
    for (k, (&(setup, task), floor)) in eval::CELLS.iter().zip(floors).enumerate() {
        let (mean, sd) = eval::mean_sd(&folds[k]);
        assert!(
            mean >= floor,
            "{setup:?} {task:?}: cross-validated AUROC {mean:.3} ± {sd:.3} fell below {floor}"
        );
    }
}

#[test]
fn alone_with_its_passage_a_claim_is_ranked_at_least_as_well_as_by_token_overlap() {
    let rows = eval::load();
    let recall: Vec<f64> = rows
        .iter()
        .map(|r| eval::token_recall(&r.claim, &r.evidence))
        .collect();
    let isolated = eval::score_rows(&rows, Setup::Isolated, SupportParams::default()).0;
    for task in [Task::Swap, Task::Loose] {
        let ours = eval::auroc(&rows, &isolated, task, |_| true);
        let baseline = eval::auroc(&rows, &recall, task, |_| true);
        assert!(
            ours >= baseline,
            "{task:?}: isolated AUROC {ours:.3} is below token-overlap recall's {baseline:.3}"
        );
    }
}

/// Each row as an answer `<claim> [1]` citing its passage through the public API: every
/// citation gets a support score, also when the marker sits where no claim is (a lead-in
/// ending in `:` then a list number, a heading, `References: [1]`).
#[test]
fn every_cited_claim_gets_a_support_score() {
    use citeproof::model::{Input, Options, Source};
    use citeproof::validate::Validator;
    let validator = Validator::new(Options {
        support_threshold: Some(0.5),
        ..Options::default()
    })
    .unwrap();
    let rows = eval::load();
    let mut unscored = Vec::new();
    for row in &rows {
        let input = Input {
            answer: format!("{} [1]", row.claim),
            sources: vec![Source {
                text: Some(row.evidence.clone()),
                ..Source::default()
            }],
            ..Input::default()
        };
        let report = validator.validate(&input).unwrap();
        assert_eq!(report.citations.len(), 1, "{}", row.id);
        if report.citations[0].support.is_none() {
            unscored.push(row.id.as_str());
        }
    }
    assert!(unscored.is_empty(), "unscored: {unscored:?}");
}

/// `misattributed` is opt-in (held out on AttributionBench every margin flags over 2 %
/// of supported citations somewhere, docs/support.md); at the margin the docs show,
/// 0.3, it flags at most 2 % of the citations experts judged fully supported on
/// ExpertQA's real answers (1.8 % ± 0.7 held out over five folds) while catching most
/// citations moved to another retrieved passage (70.5 % ± 7.9; docs/support.md).
#[test]
fn the_misattribution_check_at_margin_three_tenths_stays_under_two_percent_false_flags() {
    use citeproof::model::Options;
    let options = Options {
        misattribution_margin: Some(0.3),
        ..Options::default()
    };
    let rows = eval::load();
    let verdicts = eval::verdicts(&eval::load_answers(), &rows, options.clone());
    let complete: Vec<_> = verdicts.iter().filter(|v| v.label == "complete").collect();
    assert!(
        complete.len() > 500,
        "{} complete citations matched",
        complete.len()
    );
    let flagged = complete.iter().filter(|v| v.misattributed).count() as f64;
    let false_flags = flagged / complete.len() as f64;
    assert!(
        false_flags <= 0.02,
        "flags {false_flags:.3} of complete citations"
    );
    let caught = eval::rate(
        eval::swap_catches(&rows, options)
            .iter()
            .map(|(a, f)| (a.as_str(), *f)),
        |_| true,
    );
    assert!(caught >= 0.7, "catches {caught:.3} of moved citations");
}
