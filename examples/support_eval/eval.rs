//! The claim-support evaluation over ../shared/data/support-val.jsonl (ExpertQA), shared
//! by `cargo run --release --example support_eval` (prints it) and
//! `tests/support_eval.rs` (asserts its AUROC floors in CI). Each answer is one request:
//! its sources are the distinct evidence texts of its rows.

use std::collections::HashMap;
use std::time::Instant;

use citeproof::support::SupportScorer;
use serde::Deserialize;

/// One labelled claim/evidence pair.
#[derive(Deserialize)]
pub struct Row {
    pub id: String,
    pub claim: String,
    pub evidence: String,
    pub label: String,
}

/// The rows of `support-val.jsonl` beside the repository.
pub fn load() -> Vec<Row> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/support-val.jsonl"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (../shared/data must sit beside the repository)"));
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a support-val row"))
        .collect()
}

/// One task's result: AUROC, best-F1 threshold and F1, F1 at fixed thresholds.
pub struct Task {
    pub name: &'static str,
    pub auroc: f64,
    pub best_threshold: f64,
    pub best_f1: f64,
    /// F1 at 0.3, 0.4, 0.5 and 0.6.
    pub f1_at: [f64; 4],
    pub positives: usize,
    pub negatives: usize,
}

/// The evaluation of the lexical scorer on `rows`.
pub struct Evaluation {
    pub tasks: [Task; 2],
    /// Wall time per claim scored against its request's sources.
    pub micros_per_claim: f64,
    /// Wall time to profile one request's sources.
    pub micros_per_request: f64,
    pub requests: usize,
}

fn answer_of(id: &str) -> &str {
    // `val-<answer>-<k>[-swap]`
    let end = id.match_indices('-').nth(1).map_or(id.len(), |(i, _)| i);
    &id[..end]
}

/// Scores every row against its request's sources and measures the two tasks: `loose`
/// (complete vs partial + incomplete) and `swap` (complete vs another claim's passage).
pub fn evaluate(rows: &[Row]) -> Evaluation {
    let mut requests: HashMap<&str, Vec<&str>> = HashMap::new();
    for row in rows {
        let docs = requests.entry(answer_of(&row.id)).or_default();
        if !docs.contains(&row.evidence.as_str()) {
            docs.push(&row.evidence);
        }
    }
    let started = Instant::now();
    let scorers: HashMap<&str, SupportScorer<'_>> = requests
        .iter()
        .map(|(a, docs)| (*a, SupportScorer::new(docs)))
        .collect();
    let profiling = started.elapsed().as_secs_f64() * 1e6;
    let started = Instant::now();
    let scored: Vec<(f64, &str)> = rows
        .iter()
        .map(|row| {
            let answer = answer_of(&row.id);
            let source = requests[answer]
                .iter()
                .position(|d| *d == row.evidence)
                .expect("indexed");
            (
                scorers[answer].support(&row.claim, source).score,
                row.label.as_str(),
            )
        })
        .collect();
    let micros_per_claim = started.elapsed().as_secs_f64() * 1e6 / rows.len() as f64;
    let task = |name, negative: &[&str]| {
        let positives: Vec<f64> = scored
            .iter()
            .filter(|(_, l)| *l == "complete")
            .map(|(s, _)| *s)
            .collect();
        let negatives: Vec<f64> = scored
            .iter()
            .filter(|(_, l)| negative.contains(l))
            .map(|(s, _)| *s)
            .collect();
        let (best_threshold, best_f1) = best_f1(&positives, &negatives);
        Task {
            name,
            auroc: auroc(&positives, &negatives),
            best_threshold,
            best_f1,
            f1_at: [0.3, 0.4, 0.5, 0.6].map(|t| f1_at(&positives, &negatives, t)),
            positives: positives.len(),
            negatives: negatives.len(),
        }
    };
    Evaluation {
        tasks: [
            task("loose", &["partial", "incomplete"]),
            task("swap", &["swap"]),
        ],
        micros_per_claim,
        micros_per_request: profiling / requests.len() as f64,
        requests: requests.len(),
    }
}

/// Probability that a random positive outscores a random negative (ties count half).
fn auroc(positives: &[f64], negatives: &[f64]) -> f64 {
    let mut wins = 0.0;
    for p in positives {
        for n in negatives {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (positives.len() * negatives.len()) as f64
}

/// F1 of "supported" when a score ≥ `threshold` means supported.
fn f1_at(positives: &[f64], negatives: &[f64], threshold: f64) -> f64 {
    let tp = positives.iter().filter(|&&s| s >= threshold).count() as f64;
    let fp = negatives.iter().filter(|&&s| s >= threshold).count() as f64;
    2.0 * tp / (tp + fp + positives.len() as f64)
}

/// The threshold with the best F1, and that F1.
fn best_f1(positives: &[f64], negatives: &[f64]) -> (f64, f64) {
    let mut thresholds: Vec<f64> = positives.iter().chain(negatives).copied().collect();
    thresholds.sort_by(f64::total_cmp);
    thresholds.dedup();
    thresholds
        .into_iter()
        .map(|t| (t, f1_at(positives, negatives, t)))
        .fold((0.0, 0.0), |b, n| if n.1 > b.1 { n } else { b })
}
