//! Claim support on AttributionBench's out-of-distribution test set
//! (`data/test_ood_all_subset_balanced.jsonl` of OSU-NLP-Group/AttributionBench, commit
//! b33329b2: HAGRID, AttrScore-GenSearch and BEGIN, 1,686 claims with their references and
//! a human "attributable or not" label). Not vendored (its licence is stated only on the
//! dataset card): pass its path in `ATTRIBUTIONBENCH_OOD`.
//!
//! This file reads it and holds the BM25 baseline; transfer.rs measures on it.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::Deserialize;

use super::eval::baseline_words as words;

/// One labelled claim of the file (the fields used), as the file has it.
#[derive(Deserialize)]
struct Row {
    /// Missing or null: the claim is a request of its own.
    #[serde(default)]
    question: Option<String>,
    claim: String,
    /// Missing, null, or null entries: read as no reference (the claim is left out).
    #[serde(default)]
    references: Option<Vec<Option<String>>>,
    attribution_label: String,
    src_dataset: String,
}

/// One labelled claim.
pub struct Claim {
    /// What groups claims into a request: the question, or the claim itself.
    pub question: String,
    pub claim: String,
    /// The non-empty references.
    pub references: Vec<String>,
    /// Whether the label is "attributable" (else "not attributable").
    pub attributable: bool,
    pub src_dataset: String,
}

/// The claims of the file at `path` with at least one non-empty reference. Panics,
/// naming the file and line, on a line that is not such a claim or a label other than
/// "attributable" and "not attributable".
pub fn load(path: &str) -> Vec<Claim> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let at = || format!("{path}:{}", n + 1);
            let row: Row = serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", at()));
            let attributable = match row.attribution_label.as_str() {
                "attributable" => true,
                "not attributable" => false,
                other => panic!("{}: attribution_label {other:?}", at()),
            };
            Claim {
                question: row.question.unwrap_or_else(|| row.claim.clone()),
                references: (row.references.into_iter().flatten())
                    .flatten()
                    .filter(|r| !r.trim().is_empty())
                    .collect(),
                claim: row.claim,
                attributable,
                src_dataset: row.src_dataset,
            }
        })
        .filter(|c| !c.references.is_empty())
        .collect()
}

/// Okapi BM25 (k1 1.2, b 0.75) of `claim` as the query against `passage`, with document
/// frequencies over `corpus` (the dataset's passages).
pub struct Bm25 {
    df: HashMap<String, usize>,
    docs: f64,
    mean_len: f64,
}

impl Bm25 {
    pub fn new(corpus: &[&str]) -> Bm25 {
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

    /// The inverse document frequency of `term` (at least ln 2 > 0, so a sum of them
    /// over a claim's words is above 0 when it has any).
    fn idf(&self, term: &str) -> f64 {
        let df = self.df.get(term).copied().unwrap_or(0) as f64;
        (1.0 + (self.docs - df + 0.5) / (df + 0.5)).ln()
    }

    /// The claim's own weight, no passage read: the IDF sum of its distinct words, what
    /// [`Bm25::score`] sums when every word of the claim is in the passage once (in a
    /// passage of the mean length). A property of the claim alone, not of support: how
    /// well it ranks the human labels says how much of BM25's ranking a claim's length
    /// and rarity can account for.
    pub fn claim_mass(&self, claim: &str) -> f64 {
        words(claim)
            .into_iter()
            .collect::<BTreeSet<_>>()
            .iter()
            .map(|q| self.idf(q))
            .sum()
    }

    pub fn score(&self, claim: &str, passage: &str) -> f64 {
        let passage = words(passage);
        let mut tf: HashMap<&str, f64> = HashMap::new();
        for w in &passage {
            *tf.entry(w.as_str()).or_default() += 1.0;
        }
        let len = passage.len() as f64;
        let (k1, b) = (1.2, 0.75);
        // The claim's distinct words in a fixed order: summed in a hash set's order,
        // the float sum (and so ties between passages) changed from run to run, moving
        // BM25's AUROC by 0.001 between identical runs.
        words(claim)
            .into_iter()
            .collect::<BTreeSet<_>>()
            .iter()
            .map(|q| {
                let f = tf.get(q.as_str()).copied().unwrap_or(0.0);
                self.idf(q) * f * (k1 + 1.0) / (f + k1 * (1.0 - b + b * len / self.mean_len))
            })
            .sum()
    }
}
