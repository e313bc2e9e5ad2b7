//! The data model shared by every layer: spans, markers, the input to validate, the
//! options, and the report.
//!
//! Spans in the Rust API are UTF-8 byte offsets into the text they came from; the JS
//! binding converts them (DESIGN.md §2). Every input field also accepts the snake_case
//! spelling the specs use (`chunk_id`, `evidence_idx`, `span_in_answer`, …).

mod input;
mod marker;
mod options;
mod report;

pub use input::{
    DeclaredCitation, Input, LineRange, Loose, Mode, Source, SourceRef, source_position,
};
pub use marker::{Labels, Marker, MarkerKind, Refs};
pub use options::{Options, Policy};
pub use report::{
    CitationResult, Finding, FindingCode, MatchKind, QuoteLocation, Report, Segment, Severity,
    Status, Summary,
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
