//! `citeproof check FILE.jsonl [--gate] [--json] [--offsets UNIT] [--options FILE.json]`
//!
//! Validates one input per line (the JSON shape of `validate`'s input). Prints one
//! report per line (`--json`) or a table, then a summary. A line that cannot be read is
//! reported with its number and counted, and fails the gate. `--gate` exits 1 when the
//! batch fails (spec 004's CI gate). The npm package's `citeproof` bin prints the same.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use citeproof::model::{Input, Options, Status};
use citeproof::offsets::Unit;
use citeproof::validate::{BatchSummary, Validator};

const USAGE: &str = "usage: citeproof check FILE.jsonl [--gate] [--json] [--offsets utf16|utf8|codepoint] [--options OPTIONS.json]";

/// Lines above which a progress counter is shown on a terminal's stderr.
const PROGRESS_ABOVE: usize = 2000;

struct Args {
    file: String,
    gate: bool,
    json: bool,
    unit: Unit,
    options: Options,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("check") => {}
        Some("--version") => return Err(format!("citeproof {}", env!("CARGO_PKG_VERSION"))),
        _ => return Err(USAGE.into()),
    }
    let (mut file, mut gate, mut json, mut unit, mut options) =
        (None, false, false, Unit::Utf16, Options::default());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--gate" => gate = true,
            "--json" => json = true,
            "--offsets" => {
                let name = args.next().ok_or("--offsets needs a unit")?;
                unit = Unit::from_name(&name).ok_or(format!("--offsets: unknown unit {name}"))?;
            }
            "--options" => {
                let path = args.next().ok_or("--options needs a file")?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                options = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
            }
            other if other.starts_with("--") => {
                return Err(format!("unknown option {other}\n{USAGE}"));
            }
            other => file = Some(other.to_string()),
        }
    }
    Ok(Args {
        file: file.ok_or(USAGE)?,
        gate,
        json,
        unit,
        options,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let validator = match Validator::new(args.options) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("options: {e}");
            return ExitCode::from(2);
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    let progress = lines.len() > PROGRESS_ABOVE && std::io::stderr().is_terminal();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut summary = BatchSummary::default();
    let mut bad_lines = 0;
    if !args.json {
        let _ = writeln!(out, "{}", table_header());
    }
    for (i, line) in lines.iter().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if progress && number % 500 == 0 {
            eprint!("\r{number}/{}", lines.len());
        }
        let started = Instant::now();
        let outcome = read_input(line).and_then(|mut input| {
            input.spans_to_bytes(args.unit);
            let report = validator
                .validate(&input)
                .map_err(|e| (e.code.as_str().to_string(), format!("input.{e}")));
            report.map(|mut r| {
                r.convert_offsets(&input, args.unit);
                r.timing_ms = started.elapsed().as_secs_f64() * 1000.0;
                (
                    serde_json::to_string(&r).unwrap_or_default(),
                    r.status,
                    r.summary.clone(),
                    r.confidence,
                )
            })
        });
        match outcome {
            Ok((json, status, s, confidence)) => {
                summary.add(status, s.hallucinations);
                let _ = if args.json {
                    writeln!(out, "{json}")
                } else {
                    writeln!(
                        out,
                        "{}",
                        table_row(
                            number,
                            status,
                            s.total,
                            s.invalid,
                            s.hallucinations,
                            s.citation_coverage,
                            confidence
                        )
                    )
                };
            }
            Err((code, message)) => {
                bad_lines += 1;
                let _ = if args.json {
                    let error = serde_json::json!({ "line": number, "error": { "code": code, "message": message } });
                    writeln!(out, "{error}")
                } else {
                    writeln!(out, "{number:>6}  error  {code}: {message}")
                };
            }
        }
    }
    if progress {
        eprintln!();
    }
    let status = if bad_lines > 0 {
        Status::Fail
    } else {
        summary.status()
    };
    let line = summary_line(&summary, bad_lines, status);
    let _ = if args.json {
        writeln!(std::io::stderr(), "{line}")
    } else {
        writeln!(out, "{line}")
    };
    let _ = out.flush();
    if args.gate && status == Status::Fail {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One JSON line as an `Input`; errors name the field path like the JS API does.
fn read_input(line: &str) -> Result<Input, (String, String)> {
    let mut deserializer = serde_json::Deserializer::from_str(line);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." {
            "input".to_string()
        } else {
            format!("input.{path}")
        };
        // serde_json appends "at line 1 column N": the line is reported already.
        let message = e.inner().to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |at| &message[..at])
            .to_string();
        ("invalid_input".to_string(), format!("{path}: {message}"))
    })
}

fn table_header() -> String {
    format!(
        "{:>6}  {:<6} {:>9} {:>7} {:>14} {:>8} {:>10}",
        "line", "status", "citations", "invalid", "hallucinations", "coverage", "confidence"
    )
}

fn table_row(
    line: usize,
    status: Status,
    total: usize,
    invalid: usize,
    hallucinations: usize,
    coverage: f64,
    confidence: f64,
) -> String {
    format!(
        "{line:>6}  {:<6} {total:>9} {invalid:>7} {hallucinations:>14} {coverage:>8.2} {confidence:>10.2}",
        status.name()
    )
}

fn summary_line(s: &BatchSummary, bad_lines: usize, status: Status) -> String {
    format!(
        "{} reports: {} pass, {} warn, {} fail; {} hallucinated citations; {bad_lines} unreadable lines; gate: {}",
        s.total,
        s.pass,
        s.warn,
        s.fail,
        s.hallucinations,
        status.name()
    )
}
