//! Native parse throughput over the real answers of `data/expertqa/answers-val.jsonl`.
//!
//! `cargo bench --bench parse` prints MB/s and answers/s; `-- --json` prints one JSON line
//! for `benches/parse.mjs`, which runs the wasm API and the JS regex baseline side by side.

use std::hint::black_box;
use std::time::{Duration, Instant};

use citeproof::parse::Parser;

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let answers = load_answers();
    let bytes: usize = answers.iter().map(String::len).sum();
    let parser = Parser::new();
    let mut markers = 0;
    for answer in &answers {
        markers += parser.find_iter(answer, &[]).count();
    }
    // Repeat whole passes for at least two seconds after a warm-up pass.
    let mut passes = 0u32;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) || passes < 3 {
        for answer in &answers {
            black_box(parser.find_iter(black_box(answer), &[]).count());
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64() / f64::from(passes);
    let mb_per_s = bytes as f64 / secs / 1e6;
    let answers_per_s = answers.len() as f64 / secs;
    if json {
        println!(
            r#"{{"mbPerS":{mb_per_s:.1},"answersPerS":{answers_per_s:.0},"answers":{},"bytes":{bytes},"markers":{markers}}}"#,
            answers.len()
        );
    } else {
        println!(
            "native parse: {} answers, {bytes} B, {markers} markers: {mb_per_s:.1} MB/s, {answers_per_s:.0} answers/s",
            answers.len()
        );
    }
}

/// The `answer` field of every line, read with a minimal JSON string decoder so the
/// bench needs no JSON dependency.
fn load_answers() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/expertqa/answers-val.jsonl"
    );
    let data =
        std::fs::read_to_string(path).expect("data/expertqa/answers-val.jsonl in the repository");
    data.lines().filter_map(answer_field).collect()
}

fn answer_field(line: &str) -> Option<String> {
    let start = line.find(r#""answer": ""#)? + r#""answer": ""#.len();
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    let unit = u32::from_str_radix(&hex, 16).ok()?;
                    out.push(char::from_u32(unit).unwrap_or('\u{fffd}'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}
