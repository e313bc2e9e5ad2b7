//! Measures claim-support scoring on data/expertqa/support-val.jsonl (ExpertQA), as a
//! 5-fold cross-validation grouped by answer, in two setups (in-request and isolated)
//! and two tasks (swap and loose); see eval.rs and docs/support.md.
//!
//!     cargo run --release --example support_eval
//!
//! Prints, per cell, mean ± sd over the held-out folds of: plain token-overlap recall,
//! the shipped constants, and the procedure that chooses constants from a grid on the
//! other folds (which candidates each fold chose, and the overall winner). Then the
//! default of `misattributionMargin`: per margin, how often `misattributed` fires on
//! the citations of the real answers (`answers-val.jsonl`) whose claims experts
//! labelled complete, and how often it catches a citation moved to another passage;
//! each fold's margin is the smallest that fires on at most 2 % of complete citations
//! of the other folds.
//!
//! With `ATTRIBUTIONBENCH_OOD` set (the path of AttributionBench's out-of-distribution
//! test file, or of any files of its format, separated by `:`; each `src_dataset` a
//! dataset of the leave-one-out) it prints the transfer tables instead (transfer.rs);
//! with `WICE` as well, the shipped constants on WiCE (wice.rs), with `QAGS`, on QAGS's
//! judged summary sentences (qags.rs), with `FALKE`, on Falke et al.'s sentence triples
//! (falke.rs), with `OCNLI`, on
//! OCNLI's Chinese pairs, with `KORNLI`, on KorNLI's Korean pairs, with `JNLI`, on
//! JNLI's Japanese pairs, with `XNLI_DE`, on XNLI's German pairs, and with `XNLI`, on
//! XNLI's pairs in each language of myXNLI's files (English, Myanmar, Urdu, Swahili;
//! nli.rs), each with
//! its cells per factor of the two constants read off OCNLI's `train.10k.json`
//! (`common_letter`, `unmatched_negation`):
//!
//!     WICE=dev.jsonl:test.jsonl QAGS=mturk_cnndm.jsonl:mturk_xsum.jsonl \
//!       FALKE=val_sentence_pairs.json \
//!       OCNLI=dev.json KORNLI=xnli.dev.ko.tsv \
//!       JNLI=valid-v1.3.json XNLI_DE=train.txt:dev.txt \
//!       XNLI=my.genre.dev.tsv:ur.genre.dev.tsv:sw.genre.dev.tsv \
//!       ATTRIBUTIONBENCH_OOD=test_ood_all_subset_balanced.jsonl \
//!       cargo run --release --example support_eval

mod attribution_bench;
mod eval;
mod falke;
mod nli;
mod qags;
mod transfer;
mod wice;

use citeproof::model::Options;
use citeproof::support::SupportParams;
use eval::{CELLS, Setup};

fn cell_name((setup, task): (Setup, eval::Task)) -> String {
    format!("{setup:?} {task:?}").to_lowercase()
}

fn print_row(name: &str, per_fold: &[Vec<f64>; 4]) {
    let cells: Vec<String> = per_fold
        .iter()
        .map(|f| {
            let (mean, sd) = eval::mean_sd(f);
            format!("{mean:.3} ± {sd:.3}")
        })
        .collect();
    println!("| {name} | {} |", cells.join(" | "));
}

/// The grid the cross-validation chooses from: blend weights, the absolute share of
/// contrast, the missing-specific-term factor and the common-term factor.
fn candidates() -> Vec<SupportParams> {
    let base = SupportParams::default();
    let mut grid = Vec::new();
    for (idf_weight, pair_weight) in [
        (0.3, 0.7),
        (0.4, 0.6),
        (0.5, 0.5),
        (0.6, 0.4),
        (0.7, 0.3),
        (0.8, 0.2),
    ] {
        for absolute_share in [0.3, 0.5, 0.7] {
            for missing_specific in [0.8, 0.6] {
                for common_term in [0.5, 1.0] {
                    grid.push(SupportParams {
                        idf_weight,
                        pair_weight,
                        absolute_share,
                        missing_specific,
                        common_term,
                        ..base
                    });
                }
            }
        }
    }
    grid
}

fn main() {
    if let Ok(path) = std::env::var("ATTRIBUTIONBENCH_OOD") {
        transfer::report(
            &path,
            transfer::UnseenFiles {
                wice: std::env::var("WICE").ok().as_deref(),
                qags: std::env::var("QAGS").ok().as_deref(),
                falke: std::env::var("FALKE").ok().as_deref(),
                ocnli: std::env::var("OCNLI").ok().as_deref(),
                kornli: std::env::var("KORNLI").ok().as_deref(),
                jnli: std::env::var("JNLI").ok().as_deref(),
                german: std::env::var("XNLI_DE").ok().as_deref(),
                xnli: std::env::var("XNLI").ok().as_deref(),
            },
            &candidates(),
        );
        return;
    }
    let rows = eval::load();
    let header: Vec<String> = CELLS.iter().map(|&c| cell_name(c)).collect();
    println!(
        "{}-fold cross-validation grouped by answer, AUROC mean ± sd over the held-out folds ({} rows)\n",
        eval::FOLDS,
        rows.len()
    );
    println!("| scorer | {} |", header.join(" | "));
    println!("|---|---|---|---|---|");

    let recall: Vec<f64> = rows
        .iter()
        .map(|r| eval::token_recall(&r.claim, &r.evidence))
        .collect();
    print_row(
        "plain token-overlap recall",
        &eval::per_fold(&rows, [&recall, &recall]),
    );

    let shipped = SupportParams::default();
    let (in_request, micros_in_request) = eval::score_rows(&rows, Setup::InRequest, shipped);
    let (isolated, micros_isolated) = eval::score_rows(&rows, Setup::Isolated, shipped);
    print_row(
        "citeproof, shipped constants",
        &eval::per_fold(&rows, [&in_request, &isolated]),
    );

    let grid = candidates();
    let cv = eval::cross_validate(&rows, &grid);
    print_row(
        &format!(
            "citeproof, constants chosen per fold from {} candidates",
            grid.len()
        ),
        &cv.per_fold,
    );
    println!();
    for (fold, &c) in cv.chosen.iter().enumerate() {
        println!("fold {fold} chose {:?}", grid[c]);
    }
    let verdict = if grid[cv.overall] == shipped {
        "the shipped constants"
    } else {
        "NOT the shipped constants"
    };
    println!("best over all folds: {:?} ({verdict})", grid[cv.overall]);
    misattribution_defaults(&rows);
    unsupported_defaults(&rows);
    println!(
        "\nnative: {micros_in_request:.1} µs per claim in request (sources profiled once per answer), {micros_isolated:.1} µs per isolated claim (profiling included)"
    );
}

/// Whether a check fired, per case, with the case's answer (for its fold).
type Flags = Vec<(String, bool)>;

/// Complete citations a default-on `misattributed` may flag at most.
const MAX_FALSE_FLAGS: f64 = 0.02;

fn misattribution_defaults(rows: &[eval::Row]) {
    let answers = eval::load_answers();
    let fold = eval::answer_folds(rows);
    let margins = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4];
    println!("\n`misattributed` on the real answers, by margin (mean ± sd over folds)\n");
    println!("| margin | complete citations flagged | moved citations caught |");
    println!("|---|---|---|");
    // Per margin: (answer, flagged) of complete citations, and of moved ones.
    let measured: Vec<(Flags, Flags)> = margins
        .iter()
        .map(|&margin| {
            let options = Options {
                misattribution_margin: Some(margin),
                ..Options::default()
            };
            let complete = eval::verdicts(&answers, rows, options.clone())
                .into_iter()
                .filter(|v| v.label == "complete")
                .map(|v| (v.answer, v.misattributed))
                .collect();
            (complete, eval::swap_catches(rows, options))
        })
        .collect();
    let in_fold = |flags: &[(String, bool)], keep: &dyn Fn(usize) -> bool| {
        eval::rate(flags.iter().map(|(a, f)| (a.as_str(), *f)), |a| {
            keep(fold[a])
        })
    };
    let spread = |flags: &[(String, bool)]| {
        let per: Vec<f64> = (0..eval::FOLDS)
            .map(|f| in_fold(flags, &|g| g == f))
            .collect();
        eval::mean_sd(&per)
    };
    for (margin, (complete, moved)) in margins.iter().zip(&measured) {
        let ((fm, fs), (cm, cs)) = (spread(complete), spread(moved));
        println!(
            "| {margin} | {:.1} % ± {:.1} | {:.1} % ± {:.1} |",
            fm * 100.0,
            fs * 100.0,
            cm * 100.0,
            cs * 100.0
        );
    }
    let mut held_out = (Vec::new(), Vec::new());
    for f in 0..eval::FOLDS {
        let chosen = margins
            .iter()
            .zip(&measured)
            .find(|(_, (complete, _))| in_fold(complete, &|g| g != f) <= MAX_FALSE_FLAGS);
        let Some((margin, (complete, moved))) = chosen else {
            println!("fold {f}: no margin meets {MAX_FALSE_FLAGS} on the other folds");
            continue;
        };
        let (flagged, caught) = (in_fold(complete, &|g| g == f), in_fold(moved, &|g| g == f));
        println!(
            "fold {f}: margin {margin} chosen on the other folds; held out: {:.1} % of complete citations flagged, {:.1} % of moved ones caught",
            flagged * 100.0,
            caught * 100.0
        );
        held_out.0.push(flagged);
        held_out.1.push(caught);
    }
    let ((fm, fs), (cm, cs)) = (eval::mean_sd(&held_out.0), eval::mean_sd(&held_out.1));
    println!(
        "held out: {:.1} % ± {:.1} of complete citations flagged, {:.1} % ± {:.1} of moved ones caught",
        fm * 100.0,
        fs * 100.0,
        cm * 100.0,
        cs * 100.0
    );
}

/// How often `unsupported_claim` fires, per threshold, on the real answers' citations
/// experts labelled complete and on those labelled partial or incomplete.
fn unsupported_defaults(rows: &[eval::Row]) {
    let answers = eval::load_answers();
    // Any support option turns scoring on; the scores do not depend on which.
    let scored = Options {
        support_threshold: Some(0.5),
        ..Options::default()
    };
    let verdicts = eval::verdicts(&answers, rows, scored);
    let scores = |complete: bool| -> Vec<f64> {
        verdicts
            .iter()
            .filter(|v| (v.label == "complete") == complete)
            .filter_map(|v| v.support)
            .collect()
    };
    let (complete, other) = (scores(true), scores(false));
    let wins: f64 = complete
        .iter()
        .flat_map(|c| other.iter().map(move |o| (c, o)))
        .map(|(c, o)| {
            if c > o {
                1.0
            } else if c == o {
                0.5
            } else {
                0.0
            }
        })
        .sum();
    println!(
        "\nper citation of the real answers: support AUROC complete ({}) vs partial + incomplete ({}): {:.3}",
        complete.len(),
        other.len(),
        wins / (complete.len() * other.len()) as f64
    );
    println!("\n`unsupported_claim` on the real answers, by threshold\n");
    println!("| threshold | complete citations flagged | partial + incomplete flagged |");
    println!("|---|---|---|");
    for threshold in [0.2, 0.3, 0.4, 0.5, 0.6, 0.7] {
        let options = Options {
            support_threshold: Some(threshold),
            ..Options::default()
        };
        let verdicts = eval::verdicts(&answers, rows, options);
        let share = |complete: bool| {
            eval::rate(
                verdicts
                    .iter()
                    .filter(|v| (v.label == "complete") == complete)
                    .map(|v| (v.answer.as_str(), v.unsupported)),
                |_| true,
            )
        };
        println!(
            "| {threshold} | {:.1} % | {:.1} % |",
            share(true) * 100.0,
            share(false) * 100.0
        );
    }
}
