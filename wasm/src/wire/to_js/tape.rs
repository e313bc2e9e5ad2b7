//! The objects the API returns cross from Rust to JS as one kind of tape
//! (docs/architecture.md, "Why the boundary is hand-made"): every number (and each
//! string's UTF-16 length) in one `Float64Array`, every string in one JS string, read
//! front to back by `tape.js`, which builds each object with a fixed shape. The first
//! number says what the tape holds ([`Shape`]): a report, what a stream returns, a
//! parser's markers, a batch's result, or any serde value (`serde_values.rs`). `JSON.parse` of the serde_json text took 20×
//! longer than building the objects from a tape (docs/perf-log.md, validate steps), and
//! writing the tape skips the JSON escaping and keeps serde_json's formatter out of the
//! module.
//!
//! The objects equal `JSON.parse(serde_json::to_string(&value))`: the same fields in
//! the same order, absent where serde skips a `None`, `null` where it writes one, and
//! non-finite floats as `null` as serde_json writes them (tests/wasm.rs compares both
//! on every kind of report; `serde_values.rs` over the whole serde data model).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::wire::contract::Shape;
use crate::wire::contract::{
    EVENT_CITE, EVENT_FINDING, EVENT_REVISE, REFS_IDS, REFS_NUMBERS, REFS_SECTION, SEGMENT_CITE,
    SEGMENT_TEXT,
};
use crate::wire::errors::invalid;
use citeproof::model::{Marker, Refs, Report, Segment, Span};
use citeproof::offsets::{Cursor, Tally, Unit};
use citeproof::stream::{Revision, StreamEvent};
use citeproof::validate::BatchSummary;

#[wasm_bindgen(module = "/js/tape.js")]
extern "C" {
    /// The JS value a tape describes.
    #[wasm_bindgen(js_name = readTape)]
    fn read_tape(numbers: &[f64], strings: &str) -> JsValue;
}

thread_local! {
    /// The buffers of the last tape read, for the next one: a stream's push writes a
    /// tape for each delta, and allocating two buffers for it cost as much as the rest
    /// of a small push (docs/perf-log.md).
    static SPARE: std::cell::Cell<Option<(Vec<f64>, String)>> = const { std::cell::Cell::new(None) };
}

/// The most numbers a kept buffer may have room for (and eight times as many bytes of
/// strings): a huge report's buffers are let go.
const SPARE_MAX: usize = 1 << 14;

/// `report` as a JS object.
pub fn report_to_js(report: &Report<'_>) -> JsValue {
    let mut tape = Tape::new(Shape::Report);
    tape.report(report);
    tape.into_js()
}

/// `markers` of `text` as JS marker objects, their spans in `unit`.
pub fn markers_to_js<'t>(
    text: &'t str,
    markers: impl Iterator<Item = Marker<'t>>,
    unit: Unit,
) -> JsValue {
    // Spans are converted in text order by one forward walk. They come from the parser
    // and lie on char boundaries, so a failed conversion cannot happen; it would show as
    // a 0 rather than a trap.
    let mut cursor = Cursor::new(text);
    let mut tape = Tape::new(Shape::Markers);
    // A list, its length written when known.
    let length_at = tape.numbers.len();
    tape.count(0);
    let mut length = 0;
    for mut marker in markers {
        let start = cursor.to_unit(marker.span.start, unit).unwrap_or(0);
        let end = cursor.to_unit(marker.span.end, unit).unwrap_or(0);
        marker.span = Span::new(start, end);
        tape.marker(&marker);
        length += 1;
    }
    tape.numbers[length_at] = length as f64;
    tape.into_js()
}

/// `value` as a JS value: what `JSON.parse(serde_json::to_string(value))` gives.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let mut tape = Tape::new(Shape::Value);
    value
        .serialize(&mut tape)
        .map_err(|e| invalid("invalid_input", "value", &e.to_string()))?;
    Ok(tape.into_js())
}

/// `validateBatch`'s result, written as each report is made: `count` reports (each
/// written by `write_report`, which may fail), then the summary and the status.
pub fn batch_to_js(
    count: usize,
    mut write_report: impl FnMut(usize, &mut Tape, &mut BatchSummary) -> Result<(), JsValue>,
) -> Result<JsValue, JsValue> {
    let mut tape = Tape::new(Shape::Batch);
    let mut summary = BatchSummary::default();
    tape.count(count);
    for i in 0..count {
        write_report(i, &mut tape, &mut summary)?;
    }
    summary
        .serialize(&mut tape)
        .map_err(|e| invalid("invalid_input", "summary", &e.to_string()))?;
    tape.name(summary.status().name());
    Ok(tape.into_js())
}

/// The length of `text` in UTF-16 units: how far `tape.js` slices.
fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    Tally::default()
        .to_unit(text, text.len(), Unit::Utf16)
        .unwrap_or(text.len())
}

/// What `tape.js` reads: numbers and strings in the order they are written. An
/// optional field is a flag (1 present, 0 absent) followed by its value if present; a
/// list is its length followed by its items; a serde value is a tree of operations
/// (`serde_values.rs`). The writers of the report's types are generated from
/// `wasm/js/schema.mjs` into `report_fields.rs`; the marker and segment writers here
/// are written by hand, with their readers in `tape.js`.
pub struct Tape {
    pub(crate) numbers: Vec<f64>,
    pub(crate) strings: String,
    /// The names written so far, in order (see [`Tape::name`]).
    names: Vec<&'static str>,
}

impl Tape {
    /// An empty tape for a value of `shape`, in the buffers of the last tape read.
    pub(crate) fn new(shape: Shape) -> Tape {
        let (mut numbers, strings) = SPARE
            .take()
            .unwrap_or_else(|| (Vec::with_capacity(64), String::with_capacity(256)));
        numbers.push(shape as u8 as f64);
        Tape {
            numbers,
            strings,
            names: Vec::new(),
        }
    }

    /// The JS value the tape describes; its buffers are kept for the next tape.
    pub(crate) fn into_js(self) -> JsValue {
        let value = read_tape(&self.numbers, &self.strings);
        let (mut numbers, mut strings) = (self.numbers, self.strings);
        if numbers.capacity() <= SPARE_MAX && strings.capacity() <= 8 * SPARE_MAX {
            numbers.clear();
            strings.clear();
            SPARE.set(Some((numbers, strings)));
        }
        value
    }

    /// Writes one number: the one place that grows `numbers`. Out of line: inlined, the
    /// push and its growth check were copied into each of the report writers' dozens of
    /// fields (a call per number is cheap next to JS reading it back).
    #[inline(never)]
    pub(crate) fn float(&mut self, value: f64) {
        self.numbers.push(value);
    }

    pub(crate) fn count(&mut self, value: usize) {
        self.float(value as f64);
    }

    pub(crate) fn flag(&mut self, value: bool) {
        self.float(f64::from(u8::from(value)));
    }

    pub(crate) fn string(&mut self, value: &str) {
        self.count(utf16_len(value));
        self.strings.push_str(value);
    }

    /// A name from a small fixed set (a status, a finding's code, a marker's kind): the
    /// first time as a string, then as `-1 - i` for the `i`th name written, so that JS
    /// makes one string per name rather than one per object.
    pub(crate) fn name(&mut self, name: &'static str) {
        // Compared by address: a name is one of a few dozen constants.
        match self.names.iter().position(|&n| std::ptr::eq(n, name)) {
            Some(i) => self.float(-1.0 - i as f64),
            None => {
                self.names.push(name);
                self.string(name);
            }
        }
    }

    pub(crate) fn span(&mut self, span: Span) {
        self.count(span.start);
        self.count(span.end);
    }

    pub(crate) fn option<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut Tape, T)) {
        self.flag(value.is_some());
        if let Some(value) = value {
            write(self, value);
        }
    }

    pub(crate) fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Tape, &T)) {
        self.count(items.len());
        for item in items {
            write(self, item);
        }
    }

    /// A marker: its refs are preceded by their kind (`REFS_*`).
    pub(crate) fn marker(&mut self, marker: &Marker<'_>) {
        self.span(marker.span);
        match &marker.refs {
            Refs::Numbers(labels) => {
                self.count(REFS_NUMBERS);
                self.list(&labels[..], |tape, &label| tape.count(label as usize));
            }
            Refs::Ids(ids) => {
                self.count(REFS_IDS);
                self.list(ids, |tape, id| tape.string(id));
            }
            Refs::Section { .. } => self.count(REFS_SECTION),
        }
        self.name(marker.kind.name());
        self.string(marker.raw);
        if let Refs::Section { chapter, section } = &marker.refs {
            self.string(chapter);
            self.count(*section as usize);
        }
    }

    /// A stream's event, its spans already in the caller's unit: its kind (`EVENT_*`),
    /// then its fields.
    pub(crate) fn stream_event(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::Cite {
                segment,
                span,
                answer_span,
            } => {
                self.count(EVENT_CITE);
                self.segment(segment);
                self.span(*span);
                self.span(*answer_span);
            }
            StreamEvent::Finding(finding) => {
                self.count(EVENT_FINDING);
                self.finding(finding);
            }
            StreamEvent::Revise(revision) => {
                self.count(EVENT_REVISE);
                self.revision(revision);
            }
        }
    }

    /// A revision's fields: its span, its text, where it starts in the answer.
    pub(crate) fn revision(&mut self, revision: &Revision) {
        self.span(revision.span);
        self.string(&revision.text);
        self.count(revision.answer_start);
    }

    /// A segment: its kind (`SEGMENT_*`), then its fields.
    pub(crate) fn segment(&mut self, segment: &Segment) {
        match segment {
            Segment::Text { text } => {
                self.count(SEGMENT_TEXT);
                self.string(text);
            }
            Segment::Cite {
                label,
                refs,
                source_index,
                source_positions,
                title,
                url,
                valid,
            } => {
                self.count(SEGMENT_CITE);
                self.string(label);
                self.list(refs, |tape, r| tape.string(r));
                self.option(*source_index, |tape, label| tape.count(label as usize));
                self.list(source_positions, |tape, &p| tape.option(p, Tape::count));
                self.option(title.as_deref(), Tape::string);
                self.option(url.as_deref(), Tape::string);
                self.flag(*valid);
            }
        }
    }
}
