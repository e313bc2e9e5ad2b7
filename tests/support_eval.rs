//! The claim-support evaluation (`cargo run --release --example support_eval`) in CI: the
//! AUROCs of the lexical scorer on ../shared/data/support-val.jsonl must stay above
//! floors a few points under the measured values (loose 0.646, swap 0.946; BENCHMARKS.md),
//! so a change that degrades scoring fails the build.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../examples/support_eval/eval.rs"]
#[allow(dead_code)] // the timing fields are for the example's report
mod eval;

#[test]
fn support_scoring_keeps_its_auroc_on_the_expertqa_pairs() {
    let rows = eval::load();
    assert!(
        rows.len() > 1000,
        "the whole validation file: {} rows",
        rows.len()
    );
    let evaluation = eval::evaluate(&rows);
    let [loose, swap] = &evaluation.tasks;
    assert!(loose.positives > 500 && loose.negatives > 200 && swap.negatives > 500);
    assert!(
        loose.auroc >= 0.62,
        "loose AUROC {:.3} fell below 0.62",
        loose.auroc
    );
    assert!(
        swap.auroc >= 0.92,
        "swap AUROC {:.3} fell below 0.92",
        swap.auroc
    );
}
