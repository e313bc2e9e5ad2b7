//! `citeproof check FILE.jsonl [--gate] [--json] [--offsets UNIT] [--options FILE.json] [--jobs N]`
//!
//! Validates one input per line (the JSON shape of `validate`'s input). Prints one
//! report per line (`--json`) or a table, then a summary. A line that cannot be read is
//! reported with its number and counted, and fails the gate. `--gate` exits 1 when the
//! batch fails (spec 004's CI gate). The npm package's `citeproof` bin prints the same.
//!
//! The file (or standard input, `-`) is read as a stream, in chunks of lines that worker
//! threads validate (`--jobs`, default: every core). The output comes in input order and
//! equals a one-thread run; at most [`IN_FLIGHT`] chunks exist at once, so memory stays
//! flat whatever the file's size.

use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use citeproof::model::{Input, Options, Status};
use citeproof::offsets::Unit;
use citeproof::validate::{BatchSummary, Validator};

const USAGE: &str = "usage: citeproof check FILE.jsonl|- [--gate] [--json] [--offsets utf16|utf8|codepoint] [--options OPTIONS.json] [--jobs N]";

/// Lines after which a progress counter is shown on a terminal's stderr.
const PROGRESS_ABOVE: usize = 2000;
/// A chunk closes at this many lines or bytes, whichever comes first.
const CHUNK_LINES: usize = 64;
const CHUNK_BYTES: usize = 1 << 20;
/// Chunks read but not yet written, at most: with chunks of at most ~1 MB (plus one
/// line), this bounds the memory the batch holds.
const IN_FLIGHT: usize = 16;

struct Args {
    file: String,
    gate: bool,
    json: bool,
    unit: Unit,
    options: Options,
    jobs: usize,
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
    let mut jobs = std::thread::available_parallelism().map_or(1, usize::from);
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
            "--jobs" => {
                let n = args.next().ok_or("--jobs needs a number")?;
                jobs = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--jobs: expected a positive number, got {n}"))?;
            }
            "-" => file = Some("-".to_string()),
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
        jobs,
    })
}

/// A run of consecutive lines: the number of the first, and the lines.
struct Chunk {
    index: usize,
    first_line: usize,
    lines: Vec<String>,
}

/// What one line gave: its output line (none for a blank line) and what it adds to the
/// summary.
enum Outcome {
    Blank,
    Report {
        output: String,
        status: Status,
        hallucinations: usize,
    },
    Unreadable {
        output: String,
    },
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let reader: Box<dyn Read + Send> = if args.file == "-" {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(&args.file) {
            Ok(file) => Box::new(file),
            Err(e) => {
                eprintln!("{}: {e}", args.file);
                return ExitCode::from(2);
            }
        }
    };
    let validator = match Validator::new(args.options.clone()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("options: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !args.json {
        let _ = writeln!(out, "{}", table_header());
    }
    let progress = std::io::stderr().is_terminal();
    let (summary, bad_lines, read_error) = std::thread::scope(|scope| {
        let (work_tx, work_rx) = sync_channel::<Chunk>(args.jobs);
        let (done_tx, done_rx) = sync_channel::<(usize, Vec<Outcome>)>(IN_FLIGHT);
        // One token per chunk in flight: the reader takes one before reading a chunk,
        // the writer gives it back once the chunk is written.
        let (token_tx, token_rx) = sync_channel::<()>(IN_FLIGHT);
        for _ in 0..IN_FLIGHT {
            let _ = token_tx.send(());
        }
        let reading = scope.spawn(move || read_chunks(reader, &work_tx, &token_rx));
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..args.jobs {
            let (work_rx, done_tx, validator, args) =
                (Arc::clone(&work_rx), done_tx.clone(), &validator, &args);
            scope.spawn(move || work(&work_rx, &done_tx, validator, args));
        }
        drop(done_tx);
        let (summary, bad_lines) = write_in_order(&done_rx, &token_tx, &mut out, progress);
        (summary, bad_lines, reading.join().ok().flatten())
    });
    if progress {
        eprintln!();
    }
    if let Some(e) = read_error {
        eprintln!("{}: {e}", args.file);
        return ExitCode::from(2);
    }
    let status = if bad_lines > 0 {
        Status::Fail
    } else {
        summary.status()
    };
    let line = summary_line(&summary, bad_lines, status, args.gate);
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

/// Reads `reader` line by line into chunks for the workers, each once a token says a
/// chunk may be in flight; the read error, if reading failed.
fn read_chunks(
    reader: Box<dyn Read + Send>,
    work: &SyncSender<Chunk>,
    tokens: &Receiver<()>,
) -> Option<std::io::Error> {
    let mut lines = BufReader::with_capacity(1 << 16, reader).lines();
    let mut number = 0;
    for index in 0.. {
        if tokens.recv().is_err() {
            return None;
        }
        let mut chunk = Chunk {
            index,
            first_line: number + 1,
            lines: Vec::new(),
        };
        let mut bytes = 0;
        while chunk.lines.len() < CHUNK_LINES && bytes < CHUNK_BYTES {
            match lines.next() {
                Some(Ok(line)) => {
                    number += 1;
                    bytes += line.len();
                    chunk.lines.push(line);
                }
                Some(Err(e)) => return Some(e),
                None => break,
            }
        }
        if chunk.lines.is_empty() || work.send(chunk).is_err() {
            return None;
        }
    }
    None
}

/// A worker: validates chunks until there are none.
fn work(
    chunks: &Mutex<Receiver<Chunk>>,
    done: &SyncSender<(usize, Vec<Outcome>)>,
    validator: &Validator,
    args: &Args,
) {
    loop {
        let next = chunks.lock().map(|rx| rx.recv());
        let Ok(Ok(chunk)) = next else {
            return;
        };
        let outcomes = (chunk.lines.iter().enumerate())
            .map(|(i, line)| check_line(chunk.first_line + i, line, validator, args))
            .collect();
        if done.send((chunk.index, outcomes)).is_err() {
            return;
        }
    }
}

/// Writes the chunks' outcomes in input order as they arrive, giving a token back per
/// chunk written; the summary and the number of unreadable lines.
fn write_in_order(
    done: &Receiver<(usize, Vec<Outcome>)>,
    tokens: &SyncSender<()>,
    out: &mut impl Write,
    progress: bool,
) -> (BatchSummary, usize) {
    let mut summary = BatchSummary::default();
    let mut bad_lines = 0;
    let mut waiting: Vec<Option<Vec<Outcome>>> = Vec::new();
    let mut next = 0;
    let mut written = 0;
    for (index, outcomes) in done {
        let slot = index - next;
        if waiting.len() <= slot {
            waiting.resize_with(slot + 1, || None);
        }
        waiting[slot] = Some(outcomes);
        while let Some(Some(outcomes)) = waiting.first_mut().map(Option::take) {
            waiting.remove(0);
            next += 1;
            for outcome in outcomes {
                match outcome {
                    Outcome::Blank => {}
                    Outcome::Report {
                        output,
                        status,
                        hallucinations,
                    } => {
                        summary.add(status, hallucinations);
                        let _ = writeln!(out, "{output}");
                    }
                    Outcome::Unreadable { output } => {
                        bad_lines += 1;
                        let _ = writeln!(out, "{output}");
                    }
                }
                written += 1;
                if progress && written > PROGRESS_ABOVE && written % 500 == 0 {
                    eprint!("\r{written} lines");
                }
            }
            let _ = tokens.send(());
        }
    }
    (summary, bad_lines)
}

/// Validates line `number` and formats its output line.
fn check_line(number: usize, line: &str, validator: &Validator, args: &Args) -> Outcome {
    if line.trim().is_empty() {
        return Outcome::Blank;
    }
    let started = Instant::now();
    let outcome = read_input(line).and_then(|mut input| {
        input.spans_to_bytes(args.unit);
        let mut report = validator
            .validate(&input)
            .map_err(|e| (e.code.as_str().to_string(), format!("input.{e}")))?;
        report.convert_offsets(&input, args.unit);
        report.timing_ms = started.elapsed().as_secs_f64() * 1000.0;
        let s = &report.summary;
        let output = if args.json {
            serde_json::to_string(&report).unwrap_or_default()
        } else {
            table_row(
                number,
                report.status,
                s.total,
                s.invalid,
                s.hallucinations,
                s.citation_coverage,
                report.confidence,
            )
        };
        Ok(Outcome::Report {
            output,
            status: report.status,
            hallucinations: s.hallucinations,
        })
    });
    outcome.unwrap_or_else(|(code, message)| Outcome::Unreadable {
        output: if args.json {
            serde_json::json!({ "line": number, "error": { "code": code, "message": message } })
                .to_string()
        } else {
            format!("{number:>6}  error  {code}: {message}")
        },
    })
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

/// The last line: the counts and the batch's verdict; on `fail`, the exit code it gives and
/// why (only `--gate` turns a failing batch into exit 1, and a verdict of `fail` with exit 0
/// would otherwise read as a contradiction).
fn summary_line(s: &BatchSummary, bad_lines: usize, status: Status, gate: bool) -> String {
    let exit = match (status, gate) {
        (Status::Fail, true) => "; exit 1 (--gate)",
        (Status::Fail, false) => "; exit 0 (--gate exits 1 on fail)",
        _ => "",
    };
    format!(
        "{} reports: {} pass, {} warn, {} fail; {} hallucinated citations; {bad_lines} unreadable lines; verdict: {}{exit}",
        s.total,
        s.pass,
        s.warn,
        s.fail,
        s.hallucinations,
        status.name()
    )
}
