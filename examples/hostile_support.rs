//! One `validate` of a hostile shape of issue 35 with claim support on, natively, for
//! counting its work with callgrind at two sizes (instruction counts, which machine load
//! does not move; docs/support.md, "Cost"):
//!
//! ```text
//! cargo build --release --example hostile_support
//! valgrind --tool=callgrind target/release/examples/hostile_support all 500
//! valgrind --tool=callgrind target/release/examples/hostile_support all 4000
//! ```
//!
//! The storm test (tests/js/storm.test.mjs) counts each shape so at 500 and 4,000 sources
//! and asserts that 8× the sources take at most 10× the instructions.
//!
//! Shapes (the storm test's, tests/js/storm.test.mjs): `all` (every source cited by its
//! own claim), `ids` (the same, cited as `[doc-i]`), `one` (one sentence citing every
//! source). A third argument `off` leaves support off (the defaults).

use citeproof::model::{Input, Options, Source};
use citeproof::validate::Validator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(shape), Some(Ok(n))) = (args.get(1), args.get(2).map(|n| n.parse::<usize>())) else {
        eprintln!("usage: hostile_support all|ids|one SOURCES [off]");
        std::process::exit(2);
    };
    let claim = |i: usize| format!("The value of item{i} rose in {}", 1900 + (i % 100));
    let answer: String = match shape.as_str() {
        "all" => (0..n)
            .map(|i| format!("{} [{}]. ", claim(i), i + 1))
            .collect(),
        "ids" => (0..n)
            .map(|i| format!("{} [doc-{i}]. ", claim(i)))
            .collect(),
        "one" => {
            let markers: String = (0..n).map(|i| format!("[{}]", i + 1)).collect();
            format!("Every item rose {markers}.")
        }
        other => {
            eprintln!("unknown shape {other}: all, ids or one");
            std::process::exit(2);
        }
    };
    let sources = (0..n)
        .map(|i| Source {
            id: (shape == "ids").then(|| format!("doc-{i}")),
            text: Some(format!(
                "Passage {i} says the value of item{i} rose in year {} after reform {i}.",
                1900 + (i % 100)
            )),
            ..Source::default()
        })
        .collect();
    let input = Input {
        answer,
        sources,
        ..Input::default()
    };
    let support_on = args.get(3).map(String::as_str) != Some("off");
    let options = Options {
        max_answer_chars: 5_000_000,
        misattribution_margin: support_on.then_some(0.25),
        ..Options::default()
    };
    let report = Validator::new(options)
        .and_then(|validator| validator.validate(&input).map(|r| r.citations.len()));
    match report {
        Ok(citations) => println!("{shape} {n}: {citations} citations"),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}
