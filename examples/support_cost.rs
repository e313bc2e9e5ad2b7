//! `validate` of one request file, natively, with claim support opted in
//! (`misattributionMargin: 0.25`) or left out, a given number of times: for counting
//! what scoring the claims costs with callgrind (instruction counts, which machine
//! load does not move; docs/support.md, "Cost").
//!
//! ```text
//! node benches/validate.mjs   # writes target/bench-typical-request.json
//! cargo build --release --example support_cost
//! valgrind --tool=callgrind target/release/examples/support_cost target/bench-typical-request.json on 100
//! valgrind --tool=callgrind target/release/examples/support_cost target/bench-typical-request.json off 100
//! ```
//!
//! The difference of the two counts over the runs and the scored citations it prints
//! is the cost per scored claim.

use citeproof::model::{Input, Options};
use citeproof::validate::Validator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(mode), Some(Ok(runs))) = (
        args.get(1),
        args.get(2),
        args.get(3).map(|n| n.parse::<usize>()),
    ) else {
        eprintln!("usage: support_cost REQUEST.json on|off RUNS");
        std::process::exit(2);
    };
    let input: Input = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(input) => input,
        Err(error) => {
            eprintln!("{path}: {error}");
            std::process::exit(1);
        }
    };
    let options = Options {
        misattribution_margin: (mode == "on").then_some(0.25),
        ..Options::default()
    };
    let validator = match Validator::new(options) {
        Ok(validator) => validator,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    };
    let mut scored = 0;
    for _ in 0..runs {
        match validator.validate(std::hint::black_box(&input)) {
            Ok(report) => {
                scored = report
                    .citations
                    .iter()
                    .filter(|c| c.support.is_some())
                    .count();
            }
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(1);
            }
        }
    }
    println!("{mode}: {runs} runs, {scored} scored citations a run");
}
