//! Claim support on AttributionBench's out-of-distribution test set
//! (`data/test_ood_all_subset_balanced.jsonl` of OSU-NLP-Group/AttributionBench, commit
//! b33329b2: HAGRID, AttrScore-GenSearch and BEGIN, 1,686 claims with their references and
//! a human "attributable or not" label). Not vendored (its licence is stated only on the
//! dataset card): pass its path in `ATTRIBUTIONBENCH_OOD`.
//!
//! Nothing here is fitted to this file: citeproof's constants come from ExpertQA, so every
//! dataset is held out. Per dataset, two tasks (human labels; wrong-passage swaps) in two
//! setups (isolated: the claim against its references alone; in-request: the distinct
//! references of every claim of the same question are the sources, and the claim cites
//! its own), with plain token recall and BM25 beside citeproof.

use std::collections::{HashMap, HashSet};

use citeproof::support::{SupportParams, SupportScorer};
use serde::Deserialize;

use super::eval::{auroc_of, token_recall};

/// One labelled claim of the file (the fields used).
#[derive(Deserialize)]
struct Claim {
    question: String,
    claim: String,
    references: Vec<String>,
    attribution_label: String,
    src_dataset: String,
}

/// The claims of the file at `path` with at least one non-empty reference.
fn load(path: &str) -> Vec<Claim> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| serde_json::from_str::<Claim>(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .filter(|c| c.references.iter().any(|r| !r.trim().is_empty()))
        .collect()
}

/// AUROC of `scores` for `positive` (ties count half).
fn auroc(pairs: &[(f64, bool)]) -> f64 {
    let pos: Vec<f64> = pairs.iter().filter(|p| p.1).map(|p| p.0).collect();
    let neg: Vec<f64> = pairs.iter().filter(|p| !p.1).map(|p| p.0).collect();
    auroc_of(&pos, &neg)
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Okapi BM25 (k1 1.2, b 0.75) of `claim` as the query against `passage`, with document
/// frequencies over `corpus` (the dataset's passages).
struct Bm25 {
    df: HashMap<String, usize>,
    docs: f64,
    mean_len: f64,
}

impl Bm25 {
    fn new(corpus: &[&str]) -> Bm25 {
        let mut df: HashMap<String, usize> = HashMap::new();
        let mut total = 0usize;
        for doc in corpus {
            let w = words(doc);
            total += w.len();
            for term in w.into_iter().collect::<HashSet<_>>() {
                *df.entry(term).or_default() += 1;
            }
        }
        Bm25 {
            df,
            docs: corpus.len() as f64,
            mean_len: total as f64 / corpus.len().max(1) as f64,
        }
    }

    fn score(&self, claim: &str, passage: &str) -> f64 {
        let passage = words(passage);
        let mut tf: HashMap<&str, f64> = HashMap::new();
        for w in &passage {
            *tf.entry(w.as_str()).or_default() += 1.0;
        }
        let len = passage.len() as f64;
        let (k1, b) = (1.2, 0.75);
        words(claim)
            .into_iter()
            .collect::<HashSet<_>>()
            .iter()
            .map(|q| {
                let f = tf.get(q.as_str()).copied().unwrap_or(0.0);
                let df = self.df.get(q).copied().unwrap_or(0) as f64;
                let idf = (1.0 + (self.docs - df + 0.5) / (df + 0.5)).ln();
                idf * f * (k1 + 1.0) / (f + k1 * (1.0 - b + b * len / self.mean_len))
            })
            .sum()
    }
}

/// Prints the table for the file at `path`.
pub fn report(path: &str) {
    let claims = load(path);
    let mut datasets: Vec<&str> = claims.iter().map(|c| c.src_dataset.as_str()).collect();
    datasets.sort_unstable();
    datasets.dedup();
    println!(
        "\nAttributionBench OOD test ({} claims with references), AUROC, nothing fitted on it\n",
        claims.len()
    );
    println!("| dataset | task | setup | n+ / n− | token recall | BM25 | citeproof |");
    println!("|---|---|---|---|---|---|---|");
    for dataset in datasets {
        let rows: Vec<&Claim> = claims.iter().filter(|c| c.src_dataset == dataset).collect();
        let passages: Vec<String> = rows.iter().map(|c| c.references.join("\n")).collect();
        let corpus: Vec<&str> = passages.iter().map(String::as_str).collect();
        let bm25 = Bm25::new(&corpus);
        // Requests: the distinct passages of the claims of one question.
        let mut requests: HashMap<&str, Vec<&str>> = HashMap::new();
        for (c, p) in rows.iter().zip(&passages) {
            let docs = requests.entry(c.question.as_str()).or_default();
            if !docs.contains(&p.as_str()) {
                docs.push(p);
            }
        }
        // (claim row, passage index in `passages` or its request, positive)
        let human: Vec<(usize, usize, bool)> = (0..rows.len())
            .map(|i| (i, i, rows[i].attribution_label == "attributable"))
            .collect();
        // Swaps: each attributable claim with the passage of the next attributable claim
        // of another question (isolated), or of the same question when it has another
        // passage (in-request).
        let attributable: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].attribution_label == "attributable")
            .collect();
        let mut swap_isolated: Vec<(usize, usize, bool)> = Vec::new();
        for (k, &i) in attributable.iter().enumerate() {
            swap_isolated.push((i, i, true));
            let other = (1..attributable.len())
                .map(|d| attributable[(k + d) % attributable.len()])
                .find(|&j| rows[j].question != rows[i].question && passages[j] != passages[i]);
            if let Some(j) = other {
                swap_isolated.push((i, j, false));
            }
        }
        let isolated_score = |i: usize, j: usize, params: SupportParams| {
            let sources = [passages[j].as_str()];
            let scorer = SupportScorer::for_claims(&sources, &[&rows[i].claim]).with_params(params);
            Some(scorer.score_cited(&rows[i].claim, &[0])[0].1)
        };
        let in_request = |i: usize, j: usize, params: SupportParams| -> Option<f64> {
            let docs = &requests[rows[i].question.as_str()];
            let at = docs.iter().position(|d| *d == passages[j])?;
            let scorer = SupportScorer::for_claims(docs, &[&rows[i].claim]).with_params(params);
            Some(scorer.score_cited(&rows[i].claim, &[at])[0].1)
        };
        type Scorer<'s> = &'s dyn Fn(usize, usize, SupportParams) -> Option<f64>;
        let print = |task: &str, setup: &str, cases: &[(usize, usize, bool)], ours: Scorer| {
            let (mut recall, mut best, mut cite) = (vec![], vec![], vec![]);
            for &(i, j, positive) in cases {
                let Some(s) = ours(i, j, SupportParams::default()) else {
                    continue;
                };
                recall.push((token_recall(&rows[i].claim, &passages[j]), positive));
                best.push((bm25.score(&rows[i].claim, &passages[j]), positive));
                cite.push((s, positive));
            }
            if cite.is_empty() {
                return;
            }
            let pos = cite.iter().filter(|p| p.1).count();
            println!(
                "| {dataset} | {task} | {setup} | {pos} / {} | {:.3} | {:.3} | {:.3} |",
                cite.len() - pos,
                auroc(&recall),
                auroc(&best),
                auroc(&cite)
            );
        };
        print("human labels", "isolated", &human, &isolated_score);
        print("human labels", "in-request", &human, &in_request);
        print("swap", "isolated", &swap_isolated, &isolated_score);
        // In-request swaps: the claim cites another passage of its own request.
        let mut swap_request: Vec<(usize, usize, bool)> = Vec::new();
        for &i in &attributable {
            let other = (0..rows.len()).find(|&j| {
                j != i && rows[j].question == rows[i].question && passages[j] != passages[i]
            });
            if let Some(j) = other {
                swap_request.push((i, i, true));
                swap_request.push((i, j, false));
            }
        }
        print("swap", "in-request", &swap_request, &in_request);
    }
}
