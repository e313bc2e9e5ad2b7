//! Measures claim-support scoring on ../shared/data/support-val.jsonl (ExpertQA):
//! AUROC for `loose` (complete vs partial + incomplete) and `swap` (complete vs a passage
//! from another claim of the answer), the best-F1 threshold of each, and µs per claim.
//! `tests/support_eval.rs` runs the same evaluation in CI with AUROC floors.
//!
//!     cargo run --release --example support_eval

mod eval;

fn main() {
    let evaluation = eval::evaluate(&eval::load());
    for task in &evaluation.tasks {
        let [f3, f4, f5, f6] = task.f1_at;
        println!(
            "{:<5}  AUROC {:.3}  best F1 {:.3} at threshold {:.3}; F1 at 0.3/0.4/0.5/0.6: {f3:.3}/{f4:.3}/{f5:.3}/{f6:.3}  ({} complete vs {} negative)",
            task.name,
            task.auroc,
            task.best_f1,
            task.best_threshold,
            task.positives,
            task.negatives
        );
    }
    println!(
        "native: {:.1} µs per claim scored against its request's sources; profiling {} requests' sources took {:.0} µs each",
        evaluation.micros_per_claim, evaluation.requests, evaluation.micros_per_request
    );
}
