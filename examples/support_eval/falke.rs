//! Summary sentences paired against the article sentence they were drawn from, a kind of
//! data none of the score's constants were chosen on: the sentence triples of Falke et
//! al., "Ranking Generated Summaries by Correctness" (ACL 2019; version 1.0 of its data,
//! CC BY-SA 4.0, as the QAGS repository kept it: github.com/W4ngatang/qags, commit
//! 38966f7, `data/falke-correctness/val_sentence_pairs.json`). Each of its 373 triples
//! holds a sentence of a CNN/DailyMail article and two sentences summarisation systems
//! made from it, one that crowd workers judged correct and one they judged incorrect
//! (close: "locked in a scramble for" and "locked in a bid for"). Read from the path in
//! `FALKE`; not vendored (the article sentences are CNN's and the Daily Mail's).
//!
//! This file reads them; transfer.rs measures on them with the shipped constants only.

use serde::Deserialize;

/// One triple (the fields used).
#[derive(Deserialize)]
pub struct Triple {
    /// The article the sentence is from.
    pub article_id: String,
    /// The article's sentence: the passage both summary sentences cite.
    pub article_sent: String,
    /// The summary sentence judged correct.
    pub correct_sent: String,
    /// The summary sentence judged incorrect.
    pub incorrect_sent: String,
}

/// The triples of the file at `path` (a JSON array).
pub fn load(path: &str) -> Vec<Triple> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}
