//! Measures claim-support scoring on ../shared/data/support-val.jsonl (ExpertQA), as a
//! 5-fold cross-validation grouped by answer, in two setups (in-request and isolated)
//! and two tasks (swap and loose); see eval.rs and docs/support.md.
//!
//!     cargo run --release --example support_eval
//!
//! Prints, per cell, mean ± sd over the held-out folds of: plain token-overlap recall,
//! the shipped constants, and the procedure that chooses constants from a grid on the
//! other folds (which candidates each fold chose, and the overall winner).

mod eval;

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
/// contrast, the length prior and the missing-number factor.
fn candidates() -> Vec<SupportParams> {
    let base = SupportParams::default();
    let mut grid = Vec::new();
    for (idf_weight, chargram_weight, pair_weight) in [
        (0.3, 0.3, 0.4),
        (0.2, 0.3, 0.5),
        (0.4, 0.3, 0.3),
        (0.2, 0.2, 0.6),
        (0.1, 0.4, 0.5),
        (0.3, 0.4, 0.3),
    ] {
        for absolute_share in [0.3, 0.5, 0.7] {
            for length_weight in [0.0, 0.5, 1.0, 2.0, 3.0] {
                for missing_number in [0.8, 0.6] {
                    grid.push(SupportParams {
                        idf_weight,
                        chargram_weight,
                        pair_weight,
                        absolute_share,
                        length_weight,
                        missing_number,
                        ..base
                    });
                }
            }
        }
    }
    grid
}

fn main() {
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
    println!(
        "\nnative: {micros_in_request:.1} µs per claim in request (sources profiled once per answer), {micros_isolated:.1} µs per isolated claim (profiling included)"
    );
}
