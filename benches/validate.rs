//! Native `validate` on the typical request written by `benches/validate.mjs`:
//! `cargo bench --bench validate -- FILE.json` prints `{"medianUs": …}`.

use std::hint::black_box;
use std::time::Instant;

use citeproof::model::{Input, Options};
use citeproof::validate::Validator;

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .expect("the request file written by benches/validate.mjs");
    let input: Input =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("readable request"))
            .expect("an Input");
    let validator = Validator::new(Options::default()).expect("default options");
    for _ in 0..2000 {
        black_box(validator.validate(black_box(&input)).expect("valid input"));
    }
    let mut samples: Vec<f64> = (0..5000)
        .map(|_| {
            let start = Instant::now();
            black_box(validator.validate(black_box(&input)).expect("valid input"));
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!(r#"{{"medianUs":{:.2}}}"#, samples[samples.len() / 2]);
}
