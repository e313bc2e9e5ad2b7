//! The data model shared by every layer: spans, markers, the input to validate, the
//! options, and the report.
//!
//! Spans in the Rust API are UTF-8 byte offsets into the text they came from; the JS
//! binding converts them (docs/architecture.md §2). Every input field also accepts the snake_case
//! spelling the specs use (`chunk_id`, `evidence_idx`, `span_in_answer`, …).

mod input;
mod marker;
mod options;
mod report;

pub use input::{
    DeclaredCitation, Input, LineRange, Loose, LooseValue, Mode, SEARCH_RESULT_BLOCK_SEPARATOR,
    Source, SourceRef, TEXT_NAMES,
};
pub use marker::{Labels, Marker, MarkerKind, Refs};
pub use options::{Options, Policy};
pub(crate) use report::AddFinding;
pub use report::{
    CitationResult, Evidence, Finding, FindingCode, MatchKind, QuoteLocation, Report, Segment,
    Severity, Status, Summary,
};

use serde::Serialize;

/// A half-open range `start..end` of byte offsets into a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// Creates the span `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The range as a `std::ops::Range`, for slicing.
    pub const fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// Its length in bytes.
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// True when it covers nothing.
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A number as messages and the metrics text show it: integers as integers, others
/// rounded to at most 4 decimals. Written without `core::fmt`'s float machinery, which
/// would add ~10 KB of code and tables to the .wasm.
///
/// ```
/// use citeproof::model::decimal;
/// assert_eq!(decimal(3.0), "3");
/// assert_eq!(decimal(-0.25), "-0.25");
/// assert_eq!(decimal(0.0001), "0.0001");
/// assert_eq!(decimal(1.23456), "1.2346");
/// assert_eq!(decimal(f64::NAN), "NaN");
/// ```
pub fn decimal(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let scaled = (x.abs() * 10_000.0).round();
    if scaled >= 9.0e15 {
        return if x < 0.0 {
            format!("-{}", x.abs() as u64)
        } else {
            (x as u64).to_string()
        };
    }
    let scaled = scaled as u64;
    let (whole, frac) = (scaled / 10_000, scaled % 10_000);
    let sign = if x < 0.0 && scaled > 0 { "-" } else { "" };
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{frac:04}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}
