//! Does claim support transfer? Leave-one-dataset-out over ExpertQA (the vendored
//! validation pairs) and AttributionBench's out-of-distribution test set (HAGRID,
//! AttrScore-GenSearch, BEGIN; read from the path in `ATTRIBUTIONBENCH_OOD`, which takes
//! any files of AttributionBench's format, separated by `:`), and leave-one-system-out
//! within ExpertQA (its four answer systems).
//!
//! Every dataset is turned into the same shape: requests (the distinct passages cited
//! by the claims of one answer or question) and claims citing one of them, with a
//! human "fully supported" label. Two tasks: **human labels** (supported vs not, each
//! claim with its own passage) and **swap** (a supported claim with its own passage vs
//! with another passage: of another request when isolated, of its own request when
//! in-request; never one that holds the claim's text, its closing punctuation aside,
//! which supports it: a claim with no other passage left has neither pair). Two setups:
//! **isolated** (the passage alone is the request) and **in-request** (the request's
//! passages are the sources, the claim cites one).
//!
//! Fitted: the score's constants (from the grid of `main.rs`) and the `misattributed`
//! margin. Each is chosen on the other datasets (or systems) and measured on the one
//! held out. Token recall and BM25 are measured beside it on the same pairs.
//!
//! With `WICE` set (paths of WiCE files, wice.rs), the shipped constants are then
//! measured on WiCE, which chose none of them; with `QAGS` (qags.rs), on QAGS's judged
//! summary sentences; with `FALKE` (falke.rs), on Falke et al.'s sentence triples; with
//! `OCNLI`, `KORNLI`, `JNLI` and `XNLI_DE` (nli.rs), on OCNLI's Chinese pairs, KorNLI's
//! Korean ones, JNLI's Japanese ones and XNLI's German ones, likewise (and with `XNLI`,
//! on XNLI's pairs in each language of myXNLI's files). Each such table is followed by
//! the count of its pairs each of citeproof and BM25 scores exactly 0 (ties, to the
//! AUROC).

use std::collections::HashMap;

use citeproof::model::{FindingCode, Input, Options, Source};
use citeproof::support::{SupportParams, SupportScorer};
use citeproof::validate::Validator;

use super::attribution_bench::{self, Bm25};
use super::eval::{self, auroc_of, mean_sd, token_recall};
use super::{falke, nli, qags, wice};

/// A claim citing one passage, with its human label.
struct Claim {
    text: String,
    /// Index into [`Dataset::passages`].
    passage: usize,
    /// Index into [`Dataset::requests`].
    request: usize,
    /// The answer system (ExpertQA) or the source dataset (AttributionBench).
    subset: String,
    supported: bool,
}

/// Claims and the requests they were cited in.
pub struct Dataset {
    pub name: String,
    passages: Vec<String>,
    /// Per request, its distinct passages (indices into `passages`), in order of use.
    requests: Vec<Vec<usize>>,
    claims: Vec<Claim>,
}

/// Builds datasets from (name, request key, subset, claim, passage, supported) rows.
struct Builder {
    datasets: Vec<Dataset>,
    passage_ids: Vec<HashMap<String, usize>>,
    request_ids: Vec<HashMap<String, usize>>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            datasets: Vec::new(),
            passage_ids: Vec::new(),
            request_ids: Vec::new(),
        }
    }

    /// The one dataset built from a file (or files) of data no constant was chosen on;
    /// none (no usable row) stops the run with `empty`, which names the files.
    fn only(&self, empty: impl FnOnce() -> String) -> &Dataset {
        self.datasets
            .first()
            .unwrap_or_else(|| panic!("{}", empty()))
    }

    fn add(
        &mut self,
        name: &str,
        request: &str,
        subset: &str,
        claim: &str,
        passage: &str,
        supported: bool,
    ) {
        let d = match self.datasets.iter().position(|d| d.name == name) {
            Some(d) => d,
            None => {
                self.datasets.push(Dataset {
                    name: name.to_string(),
                    passages: Vec::new(),
                    requests: Vec::new(),
                    claims: Vec::new(),
                });
                self.passage_ids.push(HashMap::new());
                self.request_ids.push(HashMap::new());
                self.datasets.len() - 1
            }
        };
        let dataset = &mut self.datasets[d];
        let p = *self.passage_ids[d]
            .entry(passage.to_string())
            .or_insert_with(|| {
                dataset.passages.push(passage.to_string());
                dataset.passages.len() - 1
            });
        let r = *self.request_ids[d]
            .entry(request.to_string())
            .or_insert_with(|| {
                dataset.requests.push(Vec::new());
                dataset.requests.len() - 1
            });
        if !dataset.requests[r].contains(&p) {
            dataset.requests[r].push(p);
        }
        dataset.claims.push(Claim {
            text: claim.to_string(),
            passage: p,
            request: r,
            subset: subset.to_string(),
            supported,
        });
    }
}

/// The name of the vendored ExpertQA validation pairs' dataset, the first of [`load`].
const EXPERTQA: &str = "ExpertQA";

/// ExpertQA (its labelled pairs, swaps left out: they are rebuilt like every dataset's)
/// and the AttributionBench datasets of the files at `paths` (separated by `:`), each
/// dataset named by its `src_dataset`. A file of AttributionBench's format holding
/// ExpertQA claims (its in-distribution files do) gives a dataset of its own, "ExpertQA
/// (AttributionBench)", not more claims of the vendored one, whose systems the
/// leave-one-system-out tables read.
pub fn load(paths: &str) -> Vec<Dataset> {
    let mut builder = Builder::new();
    for row in eval::load().iter().filter(|r| r.label != "swap") {
        let answer = eval::answer_of(&row.id);
        builder.add(
            EXPERTQA,
            answer,
            &row.system,
            &row.claim,
            &row.evidence,
            row.label == "complete",
        );
    }
    for c in paths.split(':').flat_map(attribution_bench::load) {
        let passage = c.references.join("\n");
        let name = if c.src_dataset == EXPERTQA {
            format!("{EXPERTQA} (AttributionBench)")
        } else {
            c.src_dataset.clone()
        };
        builder.add(
            &name,
            &c.question,
            &name,
            &c.claim,
            &passage,
            c.attributable,
        );
    }
    builder.datasets
}

/// A claim paired with a passage: a positive (its own passage, supported) or a negative.
#[derive(Clone, Copy)]
struct Pair {
    claim: usize,
    passage: usize,
    positive: bool,
}

/// The four (task, setup) cells, in report order.
const CELLS: [(&str, Setup); 4] = [
    ("human labels", Setup::Isolated),
    ("human labels", Setup::InRequest),
    ("swap", Setup::Isolated),
    ("swap", Setup::InRequest),
];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Setup {
    Isolated,
    InRequest,
}

impl Dataset {
    /// The pairs of `task` in `setup` (see the module docs).
    fn pairs(&self, task: &str, setup: Setup) -> Vec<Pair> {
        let claims = &self.claims;
        if task == "human labels" {
            return (0..claims.len())
                .map(|c| Pair {
                    claim: c,
                    passage: claims[c].passage,
                    positive: claims[c].supported,
                })
                .collect();
        }
        let supported: Vec<usize> = (0..claims.len()).filter(|&c| claims[c].supported).collect();
        let mut pairs = Vec::new();
        for (k, &c) in supported.iter().enumerate() {
            let own = claims[c].passage;
            let holds_claim = |p: usize| holds(&self.passages[p], &claims[c].text);
            let other = match setup {
                // The passage of the next supported claim of another request.
                Setup::Isolated => (1..supported.len())
                    .map(|d| supported[(k + d) % supported.len()])
                    .find(|&o| {
                        claims[o].request != claims[c].request
                            && claims[o].passage != own
                            && !holds_claim(claims[o].passage)
                    })
                    .map(|o| claims[o].passage),
                // The next other passage of its own request.
                Setup::InRequest => {
                    let docs = &self.requests[claims[c].request];
                    let at = docs.iter().position(|&p| p == own).unwrap_or(0);
                    (1..docs.len())
                        .map(|d| docs[(at + d) % docs.len()])
                        .find(|&p| p != own && !holds_claim(p))
                }
            };
            if let Some(other) = other {
                pairs.push(Pair {
                    claim: c,
                    passage: own,
                    positive: true,
                });
                pairs.push(Pair {
                    claim: c,
                    passage: other,
                    positive: false,
                });
            }
        }
        pairs
    }

    /// citeproof's score of `pair` in `setup` under `params`.
    fn score(&self, pair: Pair, setup: Setup, params: SupportParams) -> f64 {
        let claim = self.claims[pair.claim].text.as_str();
        match setup {
            Setup::Isolated => {
                let sources = [self.passages[pair.passage].as_str()];
                let scorer = SupportScorer::for_claims(&sources, &[claim])
                    .with_params(params)
                    .expect("the grid's constants are valid");
                scorer.score_cited(claim, &[0])[0].1
            }
            Setup::InRequest => {
                let docs: Vec<&str> = self.requests[self.claims[pair.claim].request]
                    .iter()
                    .map(|&p| self.passages[p].as_str())
                    .collect();
                let at = self.requests[self.claims[pair.claim].request]
                    .iter()
                    .position(|&p| p == pair.passage)
                    .expect("a passage of the request");
                let scorer = SupportScorer::for_claims(&docs, &[claim])
                    .with_params(params)
                    .expect("the grid's constants are valid");
                scorer.score_cited(claim, &[at])[0].1
            }
        }
    }

    /// The request of a pair's claim.
    fn request(&self, pair: &Pair) -> usize {
        self.claims[pair.claim].request
    }
}

/// Whether `passage` holds `claim` word for word, its closing punctuation aside (and
/// so supports it: no wrong source to swap in). JNLI's hypotheses are captions of the
/// picture its premises describe, and many are another pair's premise; a summary
/// sentence of Falke's may be the start of an article's sentence. A claim without a
/// letter or digit is held by no passage.
fn holds(passage: &str, claim: &str) -> bool {
    let words = claim.trim_end_matches(|ch: char| !ch.is_alphanumeric());
    !words.is_empty() && passage.contains(words)
}

/// The chunk (0–4) of a request for the spread: the request, hashed, so no request is
/// in two chunks.
fn chunk(request: usize) -> usize {
    (request.wrapping_mul(0x9e37_79b9) >> 7) % CHUNKS
}

/// Chunks of a held-out dataset the spread (sd of the AUROC) is measured over.
const CHUNKS: usize = 5;

/// Scored pairs of one cell: (score, positive, request).
type Scored = Vec<(f64, bool, usize)>;

fn auroc(scored: &Scored, keep: impl Fn(&(f64, bool, usize)) -> bool) -> f64 {
    let pos: Vec<f64> = scored
        .iter()
        .filter(|s| keep(s) && s.1)
        .map(|s| s.0)
        .collect();
    let neg: Vec<f64> = scored
        .iter()
        .filter(|s| keep(s) && !s.1)
        .map(|s| s.0)
        .collect();
    auroc_of(&pos, &neg)
}

/// The AUROC of all pairs ± its sd over the chunks (those with both classes).
fn spread(scored: &Scored) -> String {
    let all = auroc(scored, |_| true);
    let per: Vec<f64> = (0..CHUNKS)
        .map(|c| auroc(scored, |s| chunk(s.2) == c))
        .filter(|a| !a.is_nan())
        .collect();
    let (_, sd) = mean_sd(&per);
    format!("{all:.3} ± {sd:.3}")
}

/// Resamples of the paired bootstrap.
const RESAMPLES: usize = 1000;

/// The AUROC of `scored` from ranks (ties share their mean rank): the same value as
/// [`auroc_of`]'s count of pairs, in n log n, for the bootstrap's thousands of cells.
fn rank_auroc(scored: &[(f64, bool, usize)]) -> f64 {
    let mut order: Vec<usize> = (0..scored.len()).collect();
    order.sort_by(|&a, &b| scored[a].0.total_cmp(&scored[b].0));
    let (mut rank_sum, mut positives) = (0.0, 0.0);
    let mut at = 0;
    while at < order.len() {
        let tied = order[at..]
            .iter()
            .take_while(|&&i| scored[i].0 == scored[order[at]].0)
            .count();
        // Ranks at + 1 ..= at + tied, their mean for each.
        let rank = at as f64 + (tied as f64 + 1.0) / 2.0;
        for &i in &order[at..at + tied] {
            if scored[i].1 {
                rank_sum += rank;
                positives += 1.0;
            }
        }
        at += tied;
    }
    let negatives = scored.len() as f64 - positives;
    (rank_sum - positives * (positives + 1.0) / 2.0) / (positives * negatives)
}

/// The 95 % interval of AUROC(`ours`) − AUROC(`baseline`) on the same pairs, by a paired
/// bootstrap over requests (a request's pairs are drawn together, for both scorers):
/// how far a difference of a few thousandths is from noise on a few dozen negatives.
fn paired_interval(ours: &Scored, baseline: &Scored) -> (f64, f64) {
    for scored in [ours, baseline] {
        let exact = auroc(scored, |_| true);
        assert!(
            (rank_auroc(scored) - exact).abs() < 1e-9,
            "rank AUROC = pair count"
        );
    }
    let mut by_request: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, pair) in ours.iter().enumerate() {
        by_request.entry(pair.2).or_default().push(i);
    }
    let mut requests: Vec<&Vec<usize>> = by_request.values().collect();
    requests.sort_unstable();
    // splitmix64, seeded: the same interval on every run.
    let mut state: u64 = 0x5eed_c17e_0f35_2026;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut deltas = Vec::with_capacity(RESAMPLES);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..RESAMPLES {
        a.clear();
        b.clear();
        for _ in 0..requests.len() {
            for &i in requests[(next() % requests.len() as u64) as usize] {
                a.push(ours[i]);
                b.push(baseline[i]);
            }
        }
        let delta = rank_auroc(&a) - rank_auroc(&b);
        if !delta.is_nan() {
            deltas.push(delta);
        }
    }
    deltas.sort_by(f64::total_cmp);
    let at = |q: f64| deltas[((deltas.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

/// Everything measured on one unit (a dataset, or an ExpertQA system): per cell, the
/// baselines and citeproof under every candidate.
struct Unit {
    name: String,
    /// Per cell: (token recall, BM25, per candidate) scored pairs; `None` when the
    /// cell has no pairs (BEGIN has one claim per question: no in-request swap).
    cells: Vec<Option<(Scored, Scored, Vec<Scored>)>>,
}

fn measure(dataset: &Dataset, subset: Option<&str>, grid: &[SupportParams], name: String) -> Unit {
    let corpus: Vec<&str> = dataset.passages.iter().map(String::as_str).collect();
    let bm25 = Bm25::new(&corpus);
    let cells = CELLS
        .iter()
        .map(|&(task, setup)| {
            let pairs: Vec<Pair> = dataset
                .pairs(task, setup)
                .into_iter()
                .filter(|p| subset.is_none_or(|s| dataset.claims[p.claim].subset == s))
                .collect();
            if !pairs.iter().any(|p| p.positive) || !pairs.iter().any(|p| !p.positive) {
                return None;
            }
            let tag = |p: &Pair, score: f64| (score, p.positive, dataset.request(p));
            let claim = |p: &Pair| dataset.claims[p.claim].text.as_str();
            let recall = pairs
                .iter()
                .map(|p| tag(p, token_recall(claim(p), &dataset.passages[p.passage])))
                .collect();
            let best = pairs
                .iter()
                .map(|p| tag(p, bm25.score(claim(p), &dataset.passages[p.passage])))
                .collect();
            let ours = grid
                .iter()
                .map(|&params| {
                    pairs
                        .iter()
                        .map(|p| tag(p, dataset.score(*p, setup, params)))
                        .collect()
                })
                .collect();
            Some((recall, best, ours))
        })
        .collect();
    Unit { name, cells }
}

/// The candidate with the best mean AUROC over the cells of `units`.
fn best_on(units: &[&Unit], candidates: usize) -> usize {
    let objective = |c: usize| {
        let aurocs: Vec<f64> = units
            .iter()
            .flat_map(|u| {
                u.cells
                    .iter()
                    .flatten()
                    .map(move |cell| auroc(&cell.2[c], |_| true))
            })
            .collect();
        aurocs.iter().sum::<f64>() / aurocs.len() as f64
    };
    (0..candidates)
        .map(|c| (c, objective(c)))
        .fold((0, f64::MIN), |b, n| if n.1 > b.1 { n } else { b })
        .0
}

/// Prints the leave-one-out table of `units`: each held out in turn, the constants
/// chosen on the others. Returns whether the floor held in every cell.
fn leave_one_out(title: &str, units: &[Unit], grid: &[SupportParams], shipped: usize) -> bool {
    println!(
        "\n{title}: AUROC, mean ± sd over {CHUNKS} request-grouped chunks of the held-out unit\n"
    );
    println!(
        "| held out | task | setup | n+ / n− | token recall | BM25 | citeproof, chosen on the others | citeproof, shipped | floor | chosen − stronger baseline [95 % CI] |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut holds = true;
    for (u, unit) in units.iter().enumerate() {
        let others: Vec<&Unit> = units
            .iter()
            .enumerate()
            .filter(|&(o, _)| o != u)
            .map(|(_, x)| x)
            .collect();
        let chosen = best_on(&others, grid.len());
        holds &= print_rows(unit, chosen, Some(shipped));
        println!("|  | chose | {:?} |", grid[chosen]);
    }
    holds
}

/// Prints `unit`'s row of each cell: the baselines, citeproof under candidate `chosen`
/// (and `shipped`, when given, in a column of its own), whether the floor holds and the
/// difference with the stronger baseline. Returns whether the floor held in every cell.
fn print_rows(unit: &Unit, chosen: usize, shipped: Option<usize>) -> bool {
    let mut holds = true;
    for ((task, setup), cell) in CELLS.iter().zip(&unit.cells) {
        let Some((recall, best, ours)) = cell else {
            continue;
        };
        let pos = recall.iter().filter(|s| s.1).count();
        let (r, b, c) = (
            auroc(recall, |_| true),
            auroc(best, |_| true),
            auroc(&ours[chosen], |_| true),
        );
        // The floor: at least token recall, and BM25 where it is stronger (to the
        // printed precision).
        let ok = (c * 1000.0).round() >= (r.max(b) * 1000.0).round();
        holds &= ok;
        let stronger = if b > r { best } else { recall };
        let (low, high) = paired_interval(&ours[chosen], stronger);
        let shipped = shipped.map_or(String::new(), |s| format!(" {} |", spread(&ours[s])));
        println!(
            "| {} | {task} | {} | {pos} / {} | {} | {} | {} |{shipped} {} | {:+.3} [{low:+.3}, {high:+.3}] |",
            unit.name,
            format!("{setup:?}").to_lowercase(),
            recall.len() - pos,
            spread(recall),
            spread(best),
            spread(&ours[chosen]),
            if ok { "holds" } else { "**below**" },
            c - r.max(b),
        );
    }
    holds
}

/// Prints, per dataset and per ExpertQA system, how well the human labels are ranked by
/// the claim alone, the passage not read (its IDF mass, [`Bm25::claim_mass`]), beside
/// token recall, BM25, and BM25 divided by that mass (a recall, as citeproof's score
/// is: "how much of the claim"). Where the claim alone ranks well, a sum that grows
/// with the claim (BM25) gains from it; where it ranks below chance, the sum loses.
fn claim_prior_table(datasets: &[Dataset], systems: &[&str]) {
    println!(
        "\nHuman labels ranked by the claim alone (the IDF sum of its distinct words, BM25's document frequencies; the passage not read): AUROC, mean ± sd over {CHUNKS} request-grouped chunks\n"
    );
    println!("| unit | n+ / n− | claim alone | token recall | BM25 | BM25 ÷ claim alone |");
    println!("|---|---|---|---|---|---|");
    let expertqa = &datasets[0];
    let units = datasets.iter().map(|d| (d, None, d.name.clone())).chain(
        systems
            .iter()
            .map(|s| (expertqa, Some(*s), format!("ExpertQA {s}"))),
    );
    for (dataset, subset, name) in units {
        let corpus: Vec<&str> = dataset.passages.iter().map(String::as_str).collect();
        let bm25 = Bm25::new(&corpus);
        let pairs: Vec<Pair> = dataset
            .pairs("human labels", Setup::Isolated)
            .into_iter()
            .filter(|p| subset.is_none_or(|s| dataset.claims[p.claim].subset == s))
            .collect();
        let scored = |f: &dyn Fn(&str, &str) -> f64| -> Scored {
            pairs
                .iter()
                .map(|p| {
                    let claim = dataset.claims[p.claim].text.as_str();
                    let passage = dataset.passages[p.passage].as_str();
                    (f(claim, passage), p.positive, dataset.request(p))
                })
                .collect()
        };
        let mass = |claim: &str| bm25.claim_mass(claim);
        let pos = pairs.iter().filter(|p| p.positive).count();
        if pos == 0 || pos == pairs.len() {
            // One class only (a small file's unit): nothing to rank.
            println!("| {name} | {pos} / {} | — | — | — | — |", pairs.len() - pos);
            continue;
        }
        println!(
            "| {name} | {pos} / {} | {} | {} | {} | {} |",
            pairs.len() - pos,
            spread(&scored(&|claim, _| mass(claim))),
            spread(&scored(&token_recall)),
            spread(&scored(&|claim, passage| bm25.score(claim, passage))),
            spread(&scored(&|claim, passage| {
                let m = mass(claim);
                if m > 0.0 {
                    bm25.score(claim, passage) / m
                } else {
                    0.0
                }
            })),
        );
    }
}

/// `misattributed` through the public API, per dataset: each supported claim of a
/// request with another passage, as the answer `<claim> [k]` citing its own passage
/// (a flag is false) and citing the other one (a flag is a catch). Per margin.
fn misattribution(dataset: &Dataset, margins: &[f64]) -> Vec<(f64, f64)> {
    let pairs = dataset.pairs("swap", Setup::InRequest);
    margins
        .iter()
        .map(|&margin| {
            let validator = Validator::new(Options {
                misattribution_margin: Some(margin),
                ..Options::default()
            })
            .expect("options");
            let (mut flagged, mut own, mut caught, mut moved) = (0, 0, 0, 0);
            for pair in &pairs {
                let claim = &dataset.claims[pair.claim];
                let docs = &dataset.requests[claim.request];
                let k = docs
                    .iter()
                    .position(|&p| p == pair.passage)
                    .expect("in the request")
                    + 1;
                let input = Input {
                    answer: format!("{} [{k}]", claim.text),
                    sources: docs
                        .iter()
                        .map(|&p| Source {
                            text: Some(dataset.passages[p].clone()),
                            ..Source::default()
                        })
                        .collect(),
                    ..Input::default()
                };
                let report = validator.validate(&input).expect("a report");
                let fired = report.citations.iter().any(|c| {
                    c.warnings
                        .iter()
                        .any(|w| w.code == FindingCode::Misattributed)
                });
                if pair.positive {
                    own += 1;
                    flagged += usize::from(fired);
                } else {
                    moved += 1;
                    caught += usize::from(fired);
                }
            }
            (flagged as f64 / own as f64, caught as f64 / moved as f64)
        })
        .collect()
}

/// Supported citations a default-on `misattributed` may flag at most, and swapped ones
/// it must catch at least, on every held-out dataset (issue 35).
const MAX_FALSE_FLAGS: f64 = 0.02;
const MIN_CATCHES: f64 = 0.8;

fn misattribution_default(datasets: &[Dataset]) {
    let margins = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4];
    let measured: Vec<Vec<(f64, f64)>> = datasets
        .iter()
        .filter(|d| d.pairs("swap", Setup::InRequest).len() > 1)
        .map(|d| misattribution(d, &margins))
        .collect();
    let names: Vec<&str> = datasets
        .iter()
        .filter(|d| d.pairs("swap", Setup::InRequest).len() > 1)
        .map(|d| d.name.as_str())
        .collect();
    println!(
        "\n`misattributed` in-request, per margin: supported citations flagged / swapped citations caught\n"
    );
    print_head("margin", &names);
    for (m, margin) in margins.iter().enumerate() {
        let cells: Vec<String> = measured
            .iter()
            .map(|d| format!("{:.1} % / {:.1} %", d[m].0 * 100.0, d[m].1 * 100.0))
            .collect();
        println!("| {margin} | {} |", cells.join(" | "));
    }
    println!();
    let mut on_by_default = true;
    for (d, name) in names.iter().enumerate() {
        // The smallest margin that flags at most 2 % on every other dataset.
        let chosen = (0..margins.len()).find(|&m| {
            measured
                .iter()
                .enumerate()
                .all(|(o, other)| o == d || other[m].0 <= MAX_FALSE_FLAGS)
        });
        let Some(m) = chosen else {
            println!("held out {name}: no margin flags ≤ 2 % on the others");
            on_by_default = false;
            continue;
        };
        let (flags, catches) = measured[d][m];
        let meets = flags <= MAX_FALSE_FLAGS && catches >= MIN_CATCHES;
        on_by_default &= meets;
        println!(
            "held out {name}: margin {} chosen on the others; {:.1} % of supported citations flagged, {:.1} % of swapped ones caught ({})",
            margins[m],
            flags * 100.0,
            catches * 100.0,
            if meets {
                "meets the criterion"
            } else {
                "misses it"
            }
        );
    }
    println!(
        "\n`misattributed` {}",
        if on_by_default {
            "meets ≤ 2 % flagged and ≥ 80 % caught on every held-out dataset: on by default"
        } else {
            "misses ≤ 2 % flagged and ≥ 80 % caught on some held-out dataset: opt-in"
        }
    );
}

/// The paths of the data no constant was chosen on, each optional: WiCE (wice.rs), QAGS
/// (qags.rs), Falke et al.'s triples (falke.rs) and the NLI files (nli.rs).
pub struct UnseenFiles<'p> {
    /// WiCE's `dev.jsonl:test.jsonl` (`WICE`).
    pub wice: Option<&'p str>,
    /// QAGS's `mturk_cnndm.jsonl:mturk_xsum.jsonl` (`QAGS`).
    pub qags: Option<&'p str>,
    /// Falke et al.'s `val_sentence_pairs.json` (`FALKE`).
    pub falke: Option<&'p str>,
    /// OCNLI's `dev.json` (`OCNLI`).
    pub ocnli: Option<&'p str>,
    /// KorNLI's `xnli.dev.ko.tsv` or `xnli.test.ko.tsv` (`KORNLI`).
    pub kornli: Option<&'p str>,
    /// JNLI's `valid-v1.3.json` or `test-v1.3.json` (`JNLI`).
    pub jnli: Option<&'p str>,
    /// XGLUE's German XNLI files, `train.txt:dev.txt` (XNLI's dev pairs) or `test.txt`
    /// (`XNLI_DE`).
    pub german: Option<&'p str>,
    /// myXNLI's files of XNLI's pairs, each of its languages a dataset: `my.genre.dev.tsv`
    /// (English and Myanmar), `ur.genre.dev.tsv`, … (`XNLI`).
    pub xnli: Option<&'p str>,
}

/// Prints the leave-one-dataset-out and leave-one-system-out tables and the
/// `misattributed` decision; then, on each of the `unseen` files given, the shipped
/// constants, which none of them chose.
pub fn report(paths: &str, unseen: UnseenFiles, grid: &[SupportParams]) {
    let datasets = load(paths);
    let shipped = grid
        .iter()
        .position(|p| *p == SupportParams::default())
        .expect("the shipped constants are in the grid");
    let units: Vec<Unit> = datasets
        .iter()
        .map(|d| measure(d, None, grid, d.name.clone()))
        .collect();
    let datasets_hold = leave_one_out("Leave one dataset out", &units, grid, shipped);
    let on_all = best_on(&units.iter().collect::<Vec<_>>(), grid.len());
    println!(
        "\nchosen on all datasets: {:?} ({})",
        grid[on_all],
        if on_all == shipped {
            "the shipped constants"
        } else {
            "NOT the shipped constants"
        }
    );
    let expertqa = &datasets[0];
    let mut systems: Vec<&str> = expertqa.claims.iter().map(|c| c.subset.as_str()).collect();
    systems.sort_unstable();
    systems.dedup();
    let units: Vec<Unit> = systems
        .iter()
        .map(|s| measure(expertqa, Some(s), grid, format!("ExpertQA {s}")))
        .collect();
    let systems_hold = leave_one_out("Leave one ExpertQA system out", &units, grid, shipped);
    println!(
        "\nfloor (≥ token recall and ≥ BM25 in every held-out cell): datasets {}, systems {}",
        if datasets_hold { "holds" } else { "BROKEN" },
        if systems_hold { "holds" } else { "BROKEN" }
    );
    claim_prior_table(&datasets, &systems);
    misattribution_default(&datasets);
    if let Some(paths) = unseen.wice {
        wice_report(paths, grid[shipped]);
    }
    if let Some(paths) = unseen.qags {
        qags_report(paths, grid[shipped]);
    }
    if let Some(path) = unseen.falke {
        falke_report(path, grid[shipped]);
    }
    if let Some(path) = unseen.ocnli {
        nli_report("OCNLI", path, &nli::ocnli, grid[shipped]);
    }
    if let Some(path) = unseen.kornli {
        nli_report("KorNLI", path, &nli::kornli, grid[shipped]);
    }
    if let Some(path) = unseen.jnli {
        nli_report("JNLI", path, &nli::jnli, grid[shipped]);
    }
    if let Some(paths) = unseen.german {
        nli_report("German XNLI", paths, &nli::xglue, grid[shipped]);
    }
    if let Some(paths) = unseen.xnli {
        for (language, files) in nli::genre_languages(paths) {
            let name = match language.as_str() {
                "en" => "English",
                "my" => "Myanmar",
                "ur" => "Urdu",
                "sw" => "Swahili",
                other => other,
            };
            let load = |paths: &str| nli::genre(paths, &language);
            nli_report(&format!("XNLI {name}"), &files, &load, grid[shipped]);
        }
    }
}

/// The shipped constants on WiCE (the files at `paths`, separated by `:`), one request
/// per Wikipedia page: each file and all of them, with token recall and BM25 beside, and
/// `misattributed` at the margins of the table above. The files are one dataset: BM25's
/// document frequencies and the isolated swaps' other passages come from all of them.
fn wice_report(paths: &str, shipped: SupportParams) {
    let mut builder = Builder::new();
    for (path, split) in splits(paths) {
        for c in wice::load(path) {
            builder.add(
                "WiCE",
                &format!("{split} {}", c.meta.claim_title),
                &split,
                &c.claim,
                &c.evidence.join("\n"),
                c.label == "supported",
            );
        }
    }
    let wice =
        builder.only(|| format!("WICE={paths}: no claim with a cited page's text in these files"));
    unseen_table("WiCE", wice, shipped);
    misattribution_on(
        "WiCE",
        "the supported claims whose page cites another page",
        wice,
    );
}

/// The shipped constants on QAGS's judged summary sentences (the files at `paths`,
/// separated by `:`; qags.rs): a sentence cites its article, four articles of a file a
/// request (as the NLI files' premises are), each file and all of them, with token recall
/// and BM25 beside, and `misattributed` as on WiCE. The files are one dataset: BM25's
/// document frequencies and the isolated swaps' other articles come from all of them.
fn qags_report(paths: &str, shipped: SupportParams) {
    let mut builder = Builder::new();
    for (path, split) in splits(paths) {
        for (k, article) in qags::load(path).iter().enumerate() {
            for sentence in &article.summary_sentences {
                builder.add(
                    "QAGS",
                    &format!("{split} {}", k / nli::PREMISES_PER_REQUEST),
                    &split,
                    &sentence.sentence,
                    &article.article,
                    sentence.supported(),
                );
            }
        }
    }
    let qags = builder.only(|| format!("QAGS={paths}: no judged sentence in these files"));
    unseen_table("QAGS", qags, shipped);
    misattribution_on(
        "QAGS",
        "the supported sentences moved to another article of their request",
        qags,
    );
}

/// A score of a claim (the first) against a passage.
type PairScore<'a> = dyn Fn(&str, &str) -> f64 + 'a;

/// The shipped constants on Falke et al.'s sentence triples (the file at `path`;
/// falke.rs): both summary sentences of a triple cite its article sentence, an
/// article's sentences a request (so an isolated swap moves a sentence to another
/// article's, an in-request one to another sentence of its own article), with token
/// recall and BM25 beside; then the paper's own measure, how often the correct sentence
/// of a triple scores above the incorrect one against the article sentence alone (a tie
/// counts half).
fn falke_report(path: &str, shipped: SupportParams) {
    let triples = falke::load(path);
    let mut builder = Builder::new();
    for t in &triples {
        for (claim, correct) in [(&t.correct_sent, true), (&t.incorrect_sent, false)] {
            builder.add(
                "Falke",
                &t.article_id,
                "val_sentence_pairs",
                claim,
                &t.article_sent,
                correct,
            );
        }
    }
    let dataset = builder.only(|| format!("FALKE={path}: no triple in this file"));
    unseen_table("Falke", dataset, shipped);
    let corpus: Vec<&str> = dataset.passages.iter().map(String::as_str).collect();
    let bm25 = Bm25::new(&corpus);
    let citeproof = |claim: &str, passage: &str| {
        let sources = [passage];
        SupportScorer::for_claims(&sources, &[claim])
            .with_params(shipped)
            .expect("the shipped constants are valid")
            .score_cited(claim, &[0])[0]
            .1
    };
    let scorers: [(&str, &PairScore); 3] = [
        ("token recall", &token_recall),
        ("BM25", &|claim, passage| bm25.score(claim, passage)),
        ("citeproof, shipped", &citeproof),
    ];
    println!(
        "\nFalke et al.'s measure on its {} triples: the correct sentence above the incorrect one against the article sentence alone (a tie counts half), and the share of ties\n",
        triples.len()
    );
    for (name, score) in scorers {
        let (mut above, mut ties) = (0usize, 0usize);
        for t in &triples {
            let (correct, incorrect) = (
                score(&t.correct_sent, &t.article_sent),
                score(&t.incorrect_sent, &t.article_sent),
            );
            above += usize::from(correct > incorrect);
            ties += usize::from(correct == incorrect);
        }
        let share = |n: f64| 100.0 * n / triples.len() as f64;
        println!(
            "- {name}: {:.1} % ({:.1} % above, {:.1} % ties)",
            share(above as f64 + 0.5 * ties as f64),
            share(above as f64),
            share(ties as f64)
        );
    }
}

/// The files of `paths` (separated by `:`), each with the name of its split: its stem
/// ("dev", "mturk_xsum"), or its path when an earlier file has the same stem.
fn splits(paths: &str) -> Vec<(&str, String)> {
    let mut named: Vec<(&str, String)> = Vec::new();
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        let stem = std::path::Path::new(path)
            .file_stem()
            .map_or(path.to_string(), |s| s.to_string_lossy().into_owned());
        let split = if named.iter().any(|(_, s)| *s == stem) {
            path.to_string()
        } else {
            stem
        };
        named.push((path, split));
    }
    named
}

/// Prints how often `misattributed` fires on `dataset`'s supported citations and how
/// often it catches a swapped one (`swaps_described` says which they are), in-request,
/// at the margins of the leave-one-out table.
fn misattribution_on(title: &str, swaps_described: &str, dataset: &Dataset) {
    let margins = [0.1, 0.3, 0.4];
    if dataset.pairs("swap", Setup::InRequest).len() > 1 {
        let rates = misattribution(dataset, &margins);
        println!("\n`misattributed` on {title}, in-request ({swaps_described}):");
        for (margin, (flagged, caught)) in margins.iter().zip(rates) {
            println!(
                "- margin {margin}: {:.1} % of supported citations flagged, {:.1} % of swapped ones caught",
                flagged * 100.0,
                caught * 100.0
            );
        }
    }
}

/// Prints the shipped constants' table on `dataset`, which chose none of them: per
/// subset and (with more than one) all together, with token recall and BM25 beside, and
/// whether the floor holds.
fn unseen_table(title: &str, dataset: &Dataset, shipped: SupportParams) {
    let mut subsets: Vec<&str> = dataset.claims.iter().map(|c| c.subset.as_str()).collect();
    subsets.dedup();
    println!(
        "\n{title}, which chose no constant: AUROC of the shipped constants, mean ± sd over {CHUNKS} request-grouped chunks\n"
    );
    println!(
        "| data | task | setup | n+ / n− | token recall | BM25 | citeproof, shipped | floor | shipped − stronger baseline [95 % CI] |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut holds = true;
    let mut units: Vec<Unit> = (subsets.iter())
        .map(|subset| {
            measure(
                dataset,
                Some(subset),
                &[shipped],
                format!("{title} {subset}"),
            )
        })
        .collect();
    if subsets.len() > 1 {
        units.push(measure(dataset, None, &[shipped], format!("{title}, all")));
    }
    for unit in &units {
        holds &= print_rows(unit, 0, None);
    }
    println!(
        "\nfloor on {title}: {}",
        if holds { "holds" } else { "BROKEN" }
    );
    zero_scores(&units);
}

/// Prints, per cell of `units` (scored with one candidate, the shipped constants), how
/// many positives and negatives citeproof and BM25 score exactly 0: pairs sharing no
/// content term or word pair with their passage (citeproof) or no word at all (BM25),
/// which the AUROC counts as ties, half a pair each.
fn zero_scores(units: &[Unit]) {
    println!("\nScored exactly 0, positives / negatives:\n");
    println!("| data | task | setup | citeproof, shipped | BM25 |");
    println!("|---|---|---|---|---|");
    for unit in units {
        for ((task, setup), cell) in CELLS.iter().zip(&unit.cells) {
            let Some((_, best, ours)) = cell else {
                continue;
            };
            let zeros = |scored: &Scored| {
                let zero = |positive: bool| {
                    (scored.iter())
                        .filter(|s| s.0 == 0.0 && s.1 == positive)
                        .count()
                };
                format!("{} / {}", zero(true), zero(false))
            };
            println!(
                "| {} | {task} | {} | {} | {} |",
                unit.name,
                format!("{setup:?}").to_lowercase(),
                zeros(&ours[0]),
                zeros(best),
            );
        }
    }
}

/// The shipped constants on NLI pairs (`title`'s file at `path`, read by `load`), four
/// premises a request.
fn nli_report(
    title: &str,
    path: &str,
    load: &dyn Fn(&str) -> Vec<nli::Pair>,
    shipped: SupportParams,
) {
    let mut builder = Builder::new();
    let mut premises: HashMap<String, usize> = HashMap::new();
    // The file's stem ("dev", "test"), or the names of several joined ("train+dev").
    let split = (splits(path).into_iter())
        .map(|(_, name)| name)
        .collect::<Vec<_>>()
        .join("+");
    for pair in load(path) {
        let next = premises.len();
        let premise = *premises.entry(pair.premise_key).or_insert(next);
        builder.add(
            title,
            &format!("{}", premise / nli::PREMISES_PER_REQUEST),
            &split,
            &pair.hypothesis,
            &pair.premise,
            pair.entailed,
        );
    }
    let dataset = builder.only(|| format!("{title}: no labelled pair in {path}"));
    unseen_table(title, dataset, shipped);
    factor_tables(title, dataset, shipped);
}

/// Prints a Markdown table's head: `first`, then a column per name.
fn print_head(first: &str, names: &[impl AsRef<str>]) {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    println!("| {first} | {} |", names.join(" | "));
    println!("|---|{}", "---|".repeat(names.len()));
}

/// A constant chosen on OCNLI's training pairs (docs/support.md), whose table of
/// factors each NLI file prints: its name, what it weighs, the factors compared.
struct Factor {
    /// The field of [`SupportParams`].
    name: &'static str,
    /// What it weighs, for the table's title.
    what: &'static str,
    /// The factors compared.
    values: &'static [f64],
    /// Writes a factor into the constants.
    set: fn(&mut SupportParams, f64),
}

/// The constants chosen on OCNLI's training pairs: `common_letter` (0.15 ships) and
/// `unmatched_negation` (0.7 ships).
const FACTORS: [Factor; 2] = [
    Factor {
        name: "common_letter",
        what: "a common Chinese letter's weight",
        values: &[0.05, 0.15, 0.3, 0.5, 0.7, 1.0],
        set: |p, factor| p.common_letter = factor,
    },
    Factor {
        name: "unmatched_negation",
        what: "a negating claim's score against a passage where nothing negates",
        values: &[0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 1.0],
        set: |p, factor| p.unmatched_negation = factor,
    },
];

/// Per factor of each of [`FACTORS`] (the shipped constants otherwise), each cell's
/// AUROC less the stronger baseline's: the tables the factors were chosen from.
fn factor_tables(title: &str, dataset: &Dataset, shipped: SupportParams) {
    for factor in &FACTORS {
        let grid: Vec<SupportParams> = (factor.values.iter())
            .map(|&value| {
                let mut params = shipped;
                (factor.set)(&mut params, value);
                params
            })
            .collect();
        let unit = measure(dataset, None, &grid, title.to_string());
        let cells: Vec<String> = (CELLS.iter().zip(&unit.cells))
            .filter(|(_, cell)| cell.is_some())
            .map(|((task, setup), _)| format!("{task}, {}", format!("{setup:?}").to_lowercase()))
            .collect();
        println!(
            "\n{title}: AUROC less the stronger baseline's, per factor of {} (`{}`)\n",
            factor.what, factor.name
        );
        print_head(factor.name, &cells);
        for (k, value) in factor.values.iter().enumerate() {
            let row: Vec<String> = (unit.cells.iter().flatten())
                .map(|(recall, best, ours)| {
                    let stronger = auroc(recall, |_| true).max(auroc(best, |_| true));
                    format!("{:+.3}", auroc(&ours[k], |_| true) - stronger)
                })
                .collect();
            println!("| {value} | {} |", row.join(" | "));
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// A dataset of supported claims, each `(request, claim, passage)`.
    fn dataset(rows: &[(&str, &str, &str)]) -> Dataset {
        let mut builder = Builder::new();
        for (request, claim, passage) in rows {
            builder.add("test", request, "", claim, passage, true);
        }
        builder.datasets.remove(0)
    }

    /// Each swap as (claim, the passage swapped in).
    fn swapped_to(dataset: &Dataset, setup: Setup) -> Vec<(usize, usize)> {
        let pairs = dataset.pairs("swap", setup);
        assert!(pairs.chunks(2).all(|p| p[0].positive && !p[1].positive));
        pairs
            .chunks(2)
            .map(|p| (p[0].claim, p[1].passage))
            .collect()
    }

    #[test]
    fn a_swap_passes_over_a_passage_that_holds_the_claim() {
        let cat = "The cat sat on the mat.";
        let dataset = dataset(&[
            ("a", cat, "The cat sat on the mat in the sun."),
            ("a", cat, "The cat sat on the mat, said a neighbour."),
            ("a", "A dog barked.", "A dog barked at the postman."),
            ("b", "Rain fell in Leeds.", "Rain fell in Leeds all day."),
            ("c", "Clouds came.", "Rain fell in Leeds, then clouds came."),
        ]);
        // Passages 0 and 1 hold the cat (its closing stop aside), 2 the dog, 3 and 4 the
        // rain. In-request, claim 0 passes over passage 1 (its neighbour) for 2; claims
        // 3 and 4 have no other passage in their request.
        assert_eq!(
            swapped_to(&dataset, Setup::InRequest),
            [(0, 2), (1, 2), (2, 0)]
        );
        // Isolated, the passage of the next claim of another request: for claim 3 that
        // is claim 4's passage 4, which holds the rain, so claim 0's passage 0.
        assert_eq!(
            swapped_to(&dataset, Setup::Isolated),
            [(0, 3), (1, 3), (2, 3), (3, 0), (4, 0)]
        );
    }

    #[test]
    fn a_claim_without_another_passage_left_has_no_swap() {
        // The request's other passage holds the claim: neither pair is made.
        let dataset = dataset(&[
            ("a", "It rained.", "It rained."),
            ("a", "Snow came.", "It rained. Snow came."),
        ]);
        assert_eq!(swapped_to(&dataset, Setup::InRequest), [(1, 0)]);
    }

    #[test]
    fn a_passage_holds_a_claim_word_for_word_without_its_closing_punctuation() {
        assert!(holds(
            "She was shocked to open a bag and left.",
            "She was shocked to open a bag."
        ));
        assert!(!holds(
            "she was shocked to open a bag",
            "She was shocked to open a bag."
        ));
        assert!(!holds("A bag.", "A bag of crisps."));
        assert!(!holds("Anything at all.", "?!"));
    }
}
