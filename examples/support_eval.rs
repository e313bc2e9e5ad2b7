//! Measures claim-support scoring on ../shared/data/support-val.jsonl (ExpertQA):
//! AUROC for `loose` (complete vs partial + incomplete) and `swap` (complete vs a passage
//! from another claim of the answer), the best-F1 threshold of each, and µs per claim.
//! Each answer is one request: its sources are the distinct evidence texts of its rows.
//!
//!     cargo run --release --example support_eval

use std::collections::HashMap;
use std::time::Instant;

use citeproof::support::SupportScorer;
use serde::Deserialize;

#[derive(Deserialize)]
struct Row {
    id: String,
    claim: String,
    evidence: String,
    label: String,
}

fn answer_of(id: &str) -> &str {
    // `val-<answer>-<k>[-swap]`
    let end = id.match_indices('-').nth(1).map_or(id.len(), |(i, _)| i);
    &id[..end]
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/support-val.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
    let rows: Vec<Row> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a support-val row"))
        .collect();
    let mut requests: HashMap<&str, Vec<&str>> = HashMap::new();
    for row in &rows {
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
    let micros = started.elapsed().as_secs_f64() * 1e6 / rows.len() as f64;

    for (task, negative) in [
        ("loose", &["partial", "incomplete"][..]),
        ("swap", &["swap"][..]),
    ] {
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
        let (threshold, f1) = best_f1(&positives, &negatives);
        let at = |t: f64| f1_at(&positives, &negatives, t);
        println!(
            "{task:<5}  AUROC {:.3}  best F1 {f1:.3} at threshold {threshold:.3}; F1 at 0.3/0.4/0.5/0.6: {:.3}/{:.3}/{:.3}/{:.3}  ({} complete vs {} negative)",
            auroc(&positives, &negatives),
            at(0.3),
            at(0.4),
            at(0.5),
            at(0.6),
            positives.len(),
            negatives.len()
        );
    }
    println!(
        "native: {micros:.1} µs per claim scored against its request's sources; profiling {} requests' sources took {:.0} µs each",
        requests.len(),
        profiling / requests.len() as f64
    );
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
