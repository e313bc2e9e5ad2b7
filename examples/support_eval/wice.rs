//! A dataset none of the score's constants were chosen on: WiCE (Kamoi et al., EMNLP
//! 2023, github.com/ryokamoi/wice, commit ddeb6c1), sentences of Wikipedia with the web
//! page each cites and a human label: `supported`, `partially_supported` or
//! `not_supported`. Its `data/entailment_retrieval/claim/{dev,test}.jsonl` (349 and 358
//! claims) are read from the paths in `WICE` (separated by `:`); not vendored (the page
//! texts come from Common Crawl under its terms; the annotations are ODC-BY).
//!
//! This file reads them; transfer.rs measures on them with the shipped constants only.

use serde::Deserialize;

/// One labelled claim of a file (the fields used).
#[derive(Deserialize)]
pub struct Claim {
    pub label: String,
    pub claim: String,
    /// The sentences of the cited page, in order.
    pub evidence: Vec<String>,
    pub meta: Meta,
}

/// Where the claim stands in Wikipedia.
#[derive(Deserialize)]
pub struct Meta {
    /// The Wikipedia page the claim is a sentence of.
    pub claim_title: String,
}

/// The claims of the file at `path` whose cited page has text.
pub fn load(path: &str) -> Vec<Claim> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Claim>(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .filter(|c| c.evidence.iter().any(|s| !s.trim().is_empty()))
        .collect()
}
