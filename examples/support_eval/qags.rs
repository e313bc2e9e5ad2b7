//! Summary sentences judged against the article they summarise, a kind of data none of
//! the score's constants were chosen on: QAGS's crowd annotations (Wang, Cho and Lewis,
//! ACL 2020; github.com/W4ngatang/qags, commit 47798e9). Each line of its
//! `data/mturk_cnndm.jsonl` (235 CNN/DailyMail articles, 714 summary sentences) and
//! `data/mturk_xsum.jsonl` (239 XSum articles, one sentence each) holds an article, a
//! model's summary split into sentences, and three annotators' answers to whether each
//! sentence is factually supported by the article. A sentence is supported when most
//! of them said `yes`. Read from the paths in `QAGS` (separated by `:`); not vendored
//! (the articles are CNN's, the Daily Mail's and the BBC's).
//!
//! This file reads them; transfer.rs measures on them with the shipped constants only.

use serde::Deserialize;

/// One article and its judged summary sentences (the fields used).
#[derive(Deserialize)]
pub struct Article {
    /// The article's text: the passage every sentence of its summary cites.
    pub article: String,
    /// The summary's sentences, each with its annotators' answers.
    pub summary_sentences: Vec<Sentence>,
}

/// A summary sentence and its annotators' answers.
#[derive(Deserialize)]
pub struct Sentence {
    /// The claim.
    pub sentence: String,
    responses: Vec<Response>,
}

/// One annotator's answer: `yes` (supported) or `no`.
#[derive(Deserialize)]
struct Response {
    response: String,
}

impl Sentence {
    /// Whether most annotators judged the sentence supported by its article.
    pub fn supported(&self) -> bool {
        let yes = (self.responses.iter())
            .filter(|r| r.response == "yes")
            .count();
        2 * yes > self.responses.len()
    }
}

/// The articles of the file at `path`; an answer other than `yes` or `no`, or a sentence
/// without answers, stops the run.
pub fn load(path: &str) -> Vec<Article> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let articles: Vec<Article> = (text.lines().enumerate())
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1)))
        .collect();
    for s in articles.iter().flat_map(|a| &a.summary_sentences) {
        assert!(
            !s.responses.is_empty(),
            "{path}: a sentence without answers"
        );
        for r in &s.responses {
            assert!(
                matches!(r.response.as_str(), "yes" | "no"),
                "{path}: answer {:?}",
                r.response
            );
        }
    }
    articles
}
