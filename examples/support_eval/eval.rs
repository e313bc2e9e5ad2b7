//! The claim-support evaluation over data/expertqa/support-val.jsonl (ExpertQA), shared
//! by `cargo run --release --example support_eval` (prints it) and
//! `tests/support_eval.rs` (asserts its floors in CI).
//!
//! Two setups: **in-request** (each answer is one request whose sources are the distinct
//! evidence texts of its rows) and **isolated** (each claim against its one passage,
//! nothing to contrast with). Two tasks: **loose** (complete vs partial + incomplete) and
//! **swap** (complete vs a passage cited by another claim). Every figure is a k-fold
//! cross-validation grouped by answer: no answer is in two folds, and constants chosen
//! on the other folds are measured on the held-out fold (docs/support.md).

use std::collections::HashMap;
use std::time::Instant;

use citeproof::support::{SupportParams, SupportScorer};
use serde::Deserialize;

/// One labelled claim/evidence pair.
#[derive(Deserialize)]
pub struct Row {
    pub id: String,
    pub claim: String,
    pub evidence: String,
    pub label: String,
    /// The answer system (`post_hoc_gs_gpt4`, …).
    pub system: String,
}

/// The rows of `data/expertqa/support-val.jsonl`.
pub fn load() -> Vec<Row> {
    read_jsonl("support-val.jsonl")
}

/// Every line of `data/expertqa/<file>`, read as a `T`.
fn read_jsonl<T: serde::de::DeserializeOwned>(file: &str) -> Vec<T> {
    let path = format!("{}/data/expertqa/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (vendored in data/expertqa)"));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;

/// What a claim is scored against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setup {
    /// The distinct passages of the claim's answer, as one request.
    InRequest,
    /// The claim's own row passage alone.
    Isolated,
}

/// The four (setup, task) pairs, in report order.
pub const CELLS: [(Setup, Task); 4] = [
    (Setup::InRequest, Task::Swap),
    (Setup::Isolated, Task::Swap),
    (Setup::InRequest, Task::Loose),
    (Setup::Isolated, Task::Loose),
];

/// A ranking task: which rows are positives and which negatives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Task {
    /// Complete vs partial + incomplete (expert labels).
    Loose,
    /// Complete vs another claim's passage.
    Swap,
}

impl Task {
    /// True for a positive, false for a negative, `None` for a row outside the task.
    fn class(self, label: &str) -> Option<bool> {
        match (self, label) {
            (_, "complete") => Some(true),
            (Task::Loose, "partial" | "incomplete") | (Task::Swap, "swap") => Some(false),
            _ => None,
        }
    }
}

/// `val-<answer>-<k>[-swap]` → `val-<answer>`.
pub fn answer_of(id: &str) -> &str {
    let end = id.match_indices('-').nth(1).map_or(id.len(), |(i, _)| i);
    &id[..end]
}

/// The fold of each answer (`val-<answer>`): answers dealt round-robin after a fixed
/// shuffle (a hash of the answer id), so every run splits alike.
pub fn answer_folds(rows: &[Row]) -> HashMap<String, usize> {
    let mut answers: Vec<&str> = Vec::new();
    for row in rows {
        let answer = answer_of(&row.id);
        if !answers.contains(&answer) {
            answers.push(answer);
        }
    }
    let mixed = |a: &str| {
        a.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    answers.sort_by_key(|a| mixed(a));
    answers
        .iter()
        .enumerate()
        .map(|(i, a)| (a.to_string(), i % FOLDS))
        .collect()
}

/// The fold of each row (its answer's).
pub fn folds(rows: &[Row]) -> Vec<usize> {
    let fold = answer_folds(rows);
    rows.iter().map(|r| fold[answer_of(&r.id)]).collect()
}

/// The score of every row in `setup` under `params`, and the wall time per row.
pub fn score_rows(rows: &[Row], setup: Setup, params: SupportParams) -> (Vec<f64>, f64) {
    let started = Instant::now();
    let scores = match setup {
        Setup::Isolated => rows
            .iter()
            .map(|row| {
                let sources = [row.evidence.as_str()];
                let scorer = SupportScorer::for_claims(&sources, &[&row.claim])
                    .with_params(params)
                    .expect("the grid's constants are valid");
                scorer.scores(&row.claim)[0]
            })
            .collect(),
        Setup::InRequest => {
            let mut requests: HashMap<&str, Vec<&str>> = HashMap::new();
            for row in rows {
                let docs = requests.entry(answer_of(&row.id)).or_default();
                if !docs.contains(&row.evidence.as_str()) {
                    docs.push(&row.evidence);
                }
            }
            let scorers: HashMap<&str, SupportScorer<'_>> = requests
                .iter()
                .map(|(a, docs)| {
                    (
                        *a,
                        SupportScorer::new(docs)
                            .with_params(params)
                            .expect("the grid's constants are valid"),
                    )
                })
                .collect();
            rows.iter()
                .map(|row| {
                    let answer = answer_of(&row.id);
                    let source = requests[answer]
                        .iter()
                        .position(|d| *d == row.evidence)
                        .expect("indexed");
                    scorers[answer].score_cited(&row.claim, &[source])[0].1
                })
                .collect()
        }
    };
    let micros = started.elapsed().as_secs_f64() * 1e6 / rows.len() as f64;
    (scores, micros)
}

/// AUROC of `task` over the rows `keep` accepts: the probability that a random positive
/// outscores a random negative (ties count half).
pub fn auroc(rows: &[Row], scores: &[f64], task: Task, keep: impl Fn(usize) -> bool) -> f64 {
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    for (i, row) in rows.iter().enumerate().filter(|(i, _)| keep(*i)) {
        match task.class(&row.label) {
            Some(true) => positives.push(scores[i]),
            Some(false) => negatives.push(scores[i]),
            None => {}
        }
    }
    auroc_of(&positives, &negatives)
}

/// The probability that a random score of `positives` beats a random one of `negatives`
/// (ties count half); NaN when either is empty.
pub fn auroc_of(positives: &[f64], negatives: &[f64]) -> f64 {
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

/// Mean and sample standard deviation.
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The cross-validated AUROC of each cell when the constants are chosen, per fold, as
/// the candidate with the best mean AUROC over the four cells on the other folds.
pub struct CrossValidation {
    /// Per cell, the held-out AUROC of each fold.
    pub per_fold: [Vec<f64>; 4],
    /// Per fold, the index of the candidate chosen on the other folds.
    pub chosen: Vec<usize>,
    /// The candidate with the best mean over all folds (what to ship).
    pub overall: usize,
}

/// Scores every row under every candidate (both setups), then cross-validates the
/// choice among them.
pub fn cross_validate(rows: &[Row], candidates: &[SupportParams]) -> CrossValidation {
    let fold = folds(rows);
    // scores[candidate][setup]
    let scores: Vec<[Vec<f64>; 2]> = candidates
        .iter()
        .map(|&p| {
            [
                score_rows(rows, Setup::InRequest, p).0,
                score_rows(rows, Setup::Isolated, p).0,
            ]
        })
        .collect();
    let cell_auroc = |c: usize, (setup, task): (Setup, Task), keep: &dyn Fn(usize) -> bool| {
        let s = &scores[c][usize::from(setup == Setup::Isolated)];
        auroc(rows, s, task, keep)
    };
    let objective = |c: usize, keep: &dyn Fn(usize) -> bool| {
        CELLS
            .iter()
            .map(|&cell| cell_auroc(c, cell, keep))
            .sum::<f64>()
    };
    let best_on = |keep: &dyn Fn(usize) -> bool| {
        (0..candidates.len())
            .map(|c| (c, objective(c, keep)))
            .fold((0, f64::MIN), |b, n| if n.1 > b.1 { n } else { b })
            .0
    };
    let mut per_fold: [Vec<f64>; 4] = Default::default();
    let mut chosen = Vec::new();
    for f in 0..FOLDS {
        let c = best_on(&|i| fold[i] != f);
        chosen.push(c);
        for (k, &cell) in CELLS.iter().enumerate() {
            per_fold[k].push(cell_auroc(c, cell, &|i| fold[i] == f));
        }
    }
    CrossValidation {
        per_fold,
        chosen,
        overall: best_on(&|_| true),
    }
}

/// The plain baseline: the share of the claim's distinct lower-case words (letters and
/// digits) that occur in the passage.
pub fn token_recall(claim: &str, passage: &str) -> f64 {
    let words = |text: &str| -> std::collections::HashSet<String> {
        baseline_words(text).into_iter().collect()
    };
    let (claim, passage) = (words(claim), words(passage));
    if claim.is_empty() {
        return 0.0;
    }
    claim.iter().filter(|w| passage.contains(*w)).count() as f64 / claim.len() as f64
}

/// The baselines' words (token recall's and BM25's): runs of letters and digits, lower
/// case; a letter of a script written without spaces (Han, kana, Thai, Lao, Khmer,
/// Myanmar) or of Hangul is a word of its own, as a search engine's standard
/// tokenizer reads Han. The same ranges as the scanner's (`is_unspaced` in
/// src/support/words.rs), written out again: the baselines stay independent of the crate.
pub fn baseline_words(text: &str) -> Vec<String> {
    let unspaced = |c: char| {
        matches!(u32::from(c),
            0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1100..=0x11FF | 0x1780..=0x17FF
            | 0x3005..=0x3007 | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31F0..=0x31FF
            | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
            | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x20000..=0x3FFFF)
    };
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() && !unspaced(c) {
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            words.push(c.to_string());
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Per cell, the AUROC of each fold for fixed `scores` (in-request, isolated).
pub fn per_fold(rows: &[Row], scores: [&[f64]; 2]) -> [Vec<f64>; 4] {
    let fold = folds(rows);
    CELLS.map(|(setup, task)| {
        let s = scores[usize::from(setup == Setup::Isolated)];
        (0..FOLDS)
            .map(|f| auroc(rows, s, task, |i| fold[i] == f))
            .collect()
    })
}

/// One answer of `answers-val.jsonl`.
#[derive(Deserialize)]
pub struct Answer {
    pub id: String,
    pub answer: String,
    pub sources: Vec<AnswerSource>,
}

/// A numbered source of an answer (its passage may be missing).
#[derive(Deserialize)]
pub struct AnswerSource {
    pub index: u32,
    pub text: Option<String>,
}

/// The answers of `data/expertqa/answers-val.jsonl`.
pub fn load_answers() -> Vec<Answer> {
    read_jsonl("answers-val.jsonl")
}

/// What the support checks said about one citation of a real answer whose claim the
/// experts labelled.
pub struct Verdict {
    /// The answer (`val-<answer>`).
    pub answer: String,
    /// The expert label of the claim (`complete`, `partial`, `incomplete`).
    pub label: String,
    pub support: Option<f64>,
    pub misattributed: bool,
    pub unsupported: bool,
}

/// Text with `[n]` markers (and the whitespace before each) removed and whitespace
/// collapsed, for matching our claims
/// to ExpertQA's.
fn normalised(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        rest = if digits > 0 && after[digits..].starts_with(']') {
            // The whitespace before a marker goes with it, as in the dataset's claims.
            out.truncate(out.trim_end().len());
            &after[digits + 1..]
        } else {
            out.push('[');
            after
        };
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Validates every real answer with its sources under `options`, and returns a verdict
/// for each citation that resolves to a passage and whose claim matches a labelled
/// claim of `rows` (the same text once markers are removed, either containing the
/// other, at least 20 characters).
pub fn verdicts(
    answers: &[Answer],
    rows: &[Row],
    options: citeproof::model::Options,
) -> Vec<Verdict> {
    use citeproof::model::{FindingCode, Input, Source};
    let validator = citeproof::validate::Validator::new(options).expect("options");
    let mut labelled: HashMap<&str, Vec<(String, &str)>> = HashMap::new();
    for row in rows.iter().filter(|r| r.label != "swap") {
        labelled
            .entry(answer_of(&row.id))
            .or_default()
            .push((normalised(&row.claim), row.label.as_str()));
    }
    let mut verdicts = Vec::new();
    for answer in answers {
        let Some(claims) = labelled.get(answer.id.as_str()) else {
            continue;
        };
        let input = Input {
            answer: answer.answer.clone(),
            sources: answer
                .sources
                .iter()
                .map(|s| Source {
                    index: Some(s.index),
                    text: s.text.clone(),
                    ..Source::default()
                })
                .collect(),
            ..Input::default()
        };
        let report = validator.validate(&input).expect("a report");
        for citation in &report.citations {
            let (Some(claim), Some(label)) = (citation.claim, citation.source_index) else {
                continue;
            };
            let source = answer.sources.iter().find(|s| s.index == label);
            if source.is_none_or(|s| s.text.is_none()) {
                continue;
            }
            let ours = normalised(&answer.answer[claim.range()]);
            let label = claims.iter().find(|(theirs, _)| {
                ours.len().min(theirs.len()) >= 20
                    && (theirs.contains(ours.as_str()) || ours.contains(theirs.as_str()))
            });
            if let Some((_, label)) = label {
                let has = |code| citation.warnings.iter().any(|w| w.code == code);
                verdicts.push(Verdict {
                    answer: answer.id.clone(),
                    label: label.to_string(),
                    support: citation.support,
                    misattributed: has(FindingCode::Misattributed),
                    unsupported: has(FindingCode::UnsupportedClaim),
                });
            }
        }
    }
    verdicts
}

/// Of the swap rows, each made a request — the answer `<claim> [k]` citing the swapped
/// passage among its answer's passages (the claim's own passage among them) — the share
/// that `options` flags `misattributed`: (answer, flagged) per swap row.
pub fn swap_catches(rows: &[Row], options: citeproof::model::Options) -> Vec<(String, bool)> {
    use citeproof::model::{FindingCode, Input, Source};
    let validator = citeproof::validate::Validator::new(options).expect("options");
    let mut requests: HashMap<&str, Vec<&str>> = HashMap::new();
    for row in rows {
        let docs = requests.entry(answer_of(&row.id)).or_default();
        if !docs.contains(&row.evidence.as_str()) {
            docs.push(&row.evidence);
        }
    }
    let mut catches = Vec::new();
    for row in rows.iter().filter(|r| r.label == "swap") {
        let docs = &requests[answer_of(&row.id)];
        let cited = docs
            .iter()
            .position(|d| *d == row.evidence)
            .expect("indexed")
            + 1;
        let input = Input {
            answer: format!("{} [{cited}]", row.claim),
            sources: docs
                .iter()
                .map(|d| Source {
                    text: Some(d.to_string()),
                    ..Source::default()
                })
                .collect(),
            ..Input::default()
        };
        let report = validator.validate(&input).expect("a report");
        let flagged = report.citations[0]
            .warnings
            .iter()
            .any(|w| w.code == FindingCode::Misattributed);
        catches.push((answer_of(&row.id).to_string(), flagged));
    }
    catches
}

/// The share of `flags` that are set among those whose answer `keep` accepts.
pub fn rate<'a>(flags: impl Iterator<Item = (&'a str, bool)>, keep: impl Fn(&str) -> bool) -> f64 {
    let (mut set, mut total) = (0, 0);
    for (_, flag) in flags.filter(|(a, _)| keep(a)) {
        total += 1;
        set += usize::from(flag);
    }
    set as f64 / total as f64
}
