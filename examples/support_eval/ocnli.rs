//! Text in a script written without spaces, which none of the score's constants were
//! chosen on: OCNLI (Hu et al., Findings of EMNLP 2020, github.com/CLUEbenchmark/OCNLI,
//! commit b53efde), Chinese premises each with hypotheses written by annotators and a
//! label (`entailment`, `neutral`, `contradiction`; `-` where the annotators did not
//! agree, left out). Its `data/ocnli/dev.json` (JSON lines, 3,000 pairs) is read from the
//! path in `OCNLI`; not vendored (CC BY-NC 2.0).
//!
//! A hypothesis is a claim, its premise the passage it cites, and an entailed hypothesis
//! is supported. A request is four premises in the file's order (OCNLI has no answers to
//! group them by), so in-request swaps have three other passages to move to.
//!
//! This file reads it; transfer.rs measures on it with the shipped constants only.

use serde::Deserialize;

/// One pair of the file (the fields used).
#[derive(Deserialize)]
pub struct Pair {
    pub sentence1: String,
    pub sentence2: String,
    pub label: String,
    pub prem_id: String,
}

/// Premises per request.
pub const PREMISES_PER_REQUEST: usize = 4;

/// The pairs of the file at `path` with a gold label.
pub fn load(path: &str) -> Vec<Pair> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Pair>(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .filter(|p| p.label != "-")
        .collect()
}
