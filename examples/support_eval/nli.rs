//! Natural-language-inference pairs in other scripts, which none of the score's
//! constants were chosen on. A hypothesis is a claim, its premise the passage it cites,
//! and an entailed hypothesis is supported. A request is four premises in the file's
//! order (these files have no answers to group them by), so in-request swaps have three
//! other passages to move to.
//!
//! - **OCNLI** (Hu et al., Findings of EMNLP 2020, github.com/CLUEbenchmark/OCNLI, commit
//!   b53efde): Chinese premises each with hypotheses written by annotators and a label
//!   (`entailment`, `neutral`, `contradiction`; `-` where the annotators did not agree,
//!   left out). Its `data/ocnli/dev.json` (JSON lines, 3,000 pairs) is read from the
//!   path in `OCNLI`; not vendored (CC BY-NC 2.0).
//! - **KorNLI's XNLI pairs** (Ham et al., Findings of EMNLP 2020,
//!   github.com/kakaobrain/kor-nlu-datasets, commit 0df0fe7): XNLI's dev and test pairs
//!   (Conneau et al., EMNLP 2018: premises from ten genres, hypotheses and labels by
//!   annotators) in Korean, translated by professional translators. Its
//!   `KorNLI/xnli.dev.ko.tsv` (tab-separated: premise, hypothesis, label; 2,490 pairs)
//!   is read from the path in `KORNLI`; not vendored (CC BY-SA 4.0).
//! - **JNLI** (Kurihara et al., LREC 2022, JGLUE: github.com/yahoojapan/JGLUE, commit
//!   6f071c0): Japanese pairs whose premises are image captions and whose hypotheses
//!   and labels annotators wrote. Its `datasets/jnli-v1.3/valid-v1.3.json` (JSON lines,
//!   2,434 pairs) is read from the path in `JNLI`; not vendored (CC BY-SA 4.0).
//! - **XNLI in German**, as XGLUE ships it (Liang et al., EMNLP 2020) in the SuperGLEBer
//!   benchmark's repository (github.com/LSX-UniWue/SuperGLEBer, commit 5d3c59a,
//!   `data/XGlue/NLI/`): XNLI's pairs (above) translated into German by professional
//!   translators, tab-separated (premise, hypothesis, label) without a header line. Its
//!   `test.txt` is XNLI's test pairs (5,010); its `train.txt` and `dev.txt` together
//!   are XNLI's dev pairs (2,245 and 250). Read from the paths in `XNLI_DE` (several
//!   separated by `:`, read as one file); not vendored (XNLI: CC BY-NC 4.0).
//! - **XNLI as myXNLI ships it** (Htet and Dras, 2025, github.com/akhtet/myXNLI,
//!   commit 397fce4, `output/<lang>/<lang>.genre.{dev,test}.tsv`): XNLI's dev (2,490) and
//!   test (5,010) pairs, tab-separated with a header line naming the columns `genre`,
//!   `label` and `sentence1_<lang>`, `sentence2_<lang>` for each language the file holds:
//!   Myanmar (human-translated for myXNLI) beside XNLI's English in `my/`, and XNLI's own
//!   Urdu and Swahili in `ur/` and `sw/`. Read from the paths in `XNLI` (several
//!   separated by `:`); each language is a dataset, read from the files that hold it as
//!   one file. Not vendored (CC BY-NC 4.0).
//!
//! This file reads them; transfer.rs measures on them with the shipped constants only.

use serde::Deserialize;

/// One labelled pair.
pub struct Pair {
    /// The passage a claim cites.
    pub premise: String,
    /// The claim.
    pub hypothesis: String,
    /// Whether the annotators' label is `entailment` (supported).
    pub entailed: bool,
    /// Pairs with the same key share their premise.
    pub premise_key: String,
}

/// Premises per request.
pub const PREMISES_PER_REQUEST: usize = 4;

/// The labelled pairs of OCNLI's file at `path` (a pair its annotators did not agree on,
/// labelled `-`, left out).
pub fn ocnli(path: &str) -> Vec<Pair> {
    let premise_id = |line: &Line| {
        assert!(
            !line.prem_id.is_empty(),
            "an OCNLI line without its prem_id"
        );
        line.prem_id.clone()
    };
    json_lines(path, premise_id, true)
}

/// The labelled pairs of JNLI's file at `path`; a premise is known by its text.
pub fn jnli(path: &str) -> Vec<Pair> {
    json_lines(path, |line| line.sentence1.clone(), false)
}

/// One line of OCNLI's or JNLI's file (the fields used).
#[derive(Deserialize)]
struct Line {
    sentence1: String,
    sentence2: String,
    label: String,
    /// OCNLI's premise id (JNLI has none).
    #[serde(default)]
    prem_id: String,
}

/// The pairs of a JSON-lines file of [`Line`]s, each premise known by `key`; with
/// `unagreed`, lines labelled `-` are left out.
fn json_lines(path: &str, key: fn(&Line) -> String, unagreed: bool) -> Vec<Pair> {
    read(path)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let line =
                serde_json::from_str::<Line>(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
            (n, line)
        })
        .filter(|(_, line)| !(unagreed && line.label == "-"))
        .map(|(n, line)| Pair {
            entailed: entailed(&line.label, path, n),
            premise_key: key(&line),
            premise: line.sentence1,
            hypothesis: line.sentence2,
        })
        .collect()
}

/// The labelled pairs of KorNLI's tab-separated file at `path` (its first line names the
/// columns); a premise is known by its text.
pub fn kornli(path: &str) -> Vec<Pair> {
    let text = read(path);
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l);
    assert_eq!(
        header,
        Some("sentence1\tsentence2\tgold_label"),
        "{path}: not KorNLI's columns"
    );
    columns(lines, path)
}

/// The labelled pairs of XGLUE's German XNLI files at `paths` (separated by `:`;
/// tab-separated, no header line), in order; a premise is known by its text.
pub fn xglue(paths: &str) -> Vec<Pair> {
    (paths.split(':').filter(|p| !p.is_empty()))
        .flat_map(|path| columns(read(path).lines().enumerate(), path))
        .collect()
}

/// The languages of myXNLI's files at `paths` (separated by `:`), each with the files
/// that hold it (separated by `:`), in the order the files name them
/// (`sentence1_<lang>`).
pub fn genre_languages(paths: &str) -> Vec<(String, String)> {
    let mut languages: Vec<(String, String)> = Vec::new();
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        let text = read(path);
        let header = genre_header(&text, path);
        for language in header
            .split('\t')
            .filter_map(|c| c.strip_prefix("sentence1_"))
        {
            match languages.iter_mut().find(|(l, _)| l == language) {
                Some((_, files)) => *files = format!("{files}:{path}"),
                None => languages.push((language.to_string(), path.to_string())),
            }
        }
    }
    languages
}

/// The header line of a myXNLI file's `text` (at `path`), without a byte-order mark;
/// a file whose columns are not myXNLI's stops the run.
fn genre_header<'t>(text: &'t str, path: &str) -> &'t str {
    let header = text.lines().next().unwrap_or_default();
    let header = header.strip_prefix('\u{feff}').unwrap_or(header);
    assert!(
        header.starts_with("genre\tlabel\tsentence1_"),
        "{path}: not myXNLI's columns (genre, label, sentence1_<lang>, sentence2_<lang>, …)"
    );
    header
}

/// The labelled pairs in `language` of myXNLI's files at `paths` (separated by `:`), in
/// order; a premise is known by its text.
pub fn genre(paths: &str, language: &str) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        let text = read(path);
        let header: Vec<&str> = genre_header(&text, path).split('\t').collect();
        let lines = text.lines().enumerate().skip(1);
        let column = |name: &str| {
            (header.iter().position(|c| *c == name))
                .unwrap_or_else(|| panic!("{path}: no column {name}"))
        };
        let (label, premise, hypothesis) = (
            column("label"),
            column(&format!("sentence1_{language}")),
            column(&format!("sentence2_{language}")),
        );
        for (n, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                fields.len(),
                header.len(),
                "{path}:{}: not {} columns",
                n + 1,
                header.len()
            );
            pairs.push(Pair {
                premise: fields[premise].to_string(),
                hypothesis: fields[hypothesis].to_string(),
                entailed: entailed(fields[label], path, n),
                premise_key: fields[premise].to_string(),
            });
        }
    }
    pairs
}

/// The pairs of numbered lines of three tab-separated columns (premise, hypothesis,
/// label) of the file at `path`; blank lines are skipped.
fn columns<'l>(lines: impl Iterator<Item = (usize, &'l str)>, path: &str) -> Vec<Pair> {
    lines
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let fields: Vec<&str> = l.split('\t').collect();
            let [premise, hypothesis, label] = fields[..] else {
                panic!("{path}:{}: not three columns", n + 1);
            };
            Pair {
                premise: premise.to_string(),
                hypothesis: hypothesis.to_string(),
                entailed: entailed(label, path, n),
                premise_key: premise.to_string(),
            }
        })
        .collect()
}

/// Whether `label` (of line `n`, from 0, of the file at `path`) is `entailment`; a label
/// other than the three NLI labels stops the run.
fn entailed(label: &str, path: &str, n: usize) -> bool {
    assert!(
        matches!(label, "entailment" | "neutral" | "contradiction"),
        "{path}:{}: label {label:?}",
        n + 1
    );
    label == "entailment"
}

/// The text of the file at `path`.
fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
