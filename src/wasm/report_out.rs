//! Reports cross to JS as a tape, not as JSON text: every number (and each string's
//! UTF-16 length) in one `Float64Array`, every string in one JS string, read in the
//! order written by `report.js`, which builds each object with a fixed shape.
//! `JSON.parse` of the serde_json text took 20× longer than building the objects
//! from a tape (docs/perf-log.md, validate steps), and writing the tape skips the JSON
//! escaping.
//!
//! The objects equal `JSON.parse(serde_json::to_string(&report))`: the same fields in
//! the same order, absent where serde skips a `None`, `null` where it writes one, and
//! non-finite floats as `null` as serde_json writes them (tests/wasm.rs compares both
//! on every kind of report).

use wasm_bindgen::prelude::*;

use crate::model::{Finding, Marker, Refs, Report, Segment, Span};
use crate::offsets::{Tally, Unit};

#[wasm_bindgen(module = "/src/wasm/report.js")]
extern "C" {
    #[wasm_bindgen(js_name = buildReport)]
    fn build_report(numbers: &[f64], strings: &str) -> JsValue;
    #[wasm_bindgen(js_name = buildStreamEvent)]
    fn build_stream_event(numbers: &[f64], strings: &str) -> JsValue;
}

/// `report` as a JS object (see the module docs).
pub fn report_to_js(report: &Report<'_>) -> JsValue {
    let mut tape = Tape::default();
    tape.report(report);
    build_report(&tape.numbers, &tape.strings)
}

/// A stream's chip event: `{ type: "cite", segment, span, answerSpan }`.
pub fn cite_event_to_js(segment: &Segment, span: Span, answer_span: Span) -> JsValue {
    let mut tape = Tape::default();
    tape.count(0);
    tape.segment(segment);
    tape.span(span);
    tape.span(answer_span);
    build_stream_event(&tape.numbers, &tape.strings)
}

/// A stream's finding event: the finding's fields, then `type: "finding"`.
pub fn finding_event_to_js(finding: &Finding) -> JsValue {
    let mut tape = Tape::default();
    tape.count(1);
    tape.finding(finding);
    build_stream_event(&tape.numbers, &tape.strings)
}

/// The length of `text` in UTF-16 units: how far `report.js` and `values.js` slice.
pub(super) fn utf16_len(text: &str) -> usize {
    Tally::default()
        .to_unit(text, text.len(), Unit::Utf16)
        .unwrap_or(text.len())
}

/// What `report.js` reads: numbers and strings in the order of the report's fields.
/// An optional field is a flag (1 present, 0 absent) followed by its value if present;
/// a list is its length followed by its items. The writers of the report's types are
/// generated from `src/wasm/schema.mjs` into `report_fields.rs`; the marker and segment
/// writers here are written by hand, with their readers in `report.js`.
#[derive(Default)]
pub(super) struct Tape {
    numbers: Vec<f64>,
    strings: String,
}

impl Tape {
    pub(super) fn float(&mut self, value: f64) {
        self.numbers.push(value);
    }

    pub(super) fn count(&mut self, value: usize) {
        self.numbers.push(value as f64);
    }

    pub(super) fn flag(&mut self, value: bool) {
        self.numbers.push(f64::from(u8::from(value)));
    }

    pub(super) fn string(&mut self, value: &str) {
        self.count(utf16_len(value));
        self.strings.push_str(value);
    }

    pub(super) fn span(&mut self, span: Span) {
        self.count(span.start);
        self.count(span.end);
    }

    pub(super) fn option<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut Tape, T)) {
        self.flag(value.is_some());
        if let Some(value) = value {
            write(self, value);
        }
    }

    pub(super) fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Tape, &T)) {
        self.count(items.len());
        for item in items {
            write(self, item);
        }
    }

    /// A marker: its refs are preceded by their kind (0 numbers, 1 ids, 2 a section).
    pub(super) fn marker(&mut self, marker: &Marker<'_>) {
        self.span(marker.span);
        match &marker.refs {
            Refs::Numbers(labels) => {
                self.count(0);
                self.list(&labels[..], |tape, &label| tape.count(label as usize));
            }
            Refs::Ids(ids) => {
                self.count(1);
                self.list(ids, |tape, id| tape.string(id));
            }
            Refs::Section { .. } => self.count(2),
        }
        self.string(marker.kind.name());
        self.string(marker.raw);
        if let Refs::Section { chapter, section } = &marker.refs {
            self.string(chapter);
            self.count(*section as usize);
        }
    }

    /// A segment: 0 text, 1 a chip.
    pub(super) fn segment(&mut self, segment: &Segment) {
        match segment {
            Segment::Text { text } => {
                self.count(0);
                self.string(text);
            }
            Segment::Cite {
                label,
                refs,
                source_index,
                title,
                url,
                valid,
            } => {
                self.count(1);
                self.string(label);
                self.list(refs, |tape, r| tape.string(r));
                self.option(*source_index, |tape, label| tape.count(label as usize));
                self.option(title.as_deref(), Tape::string);
                self.option(url.as_deref(), Tape::string);
                self.flag(*valid);
            }
        }
    }
}
