//! `CitationStream` for JS: deltas in as JS strings (a surrogate pair split between two
//! deltas is joined), events and reports out with spans in the caller's unit.

use wasm_bindgen::prelude::*;

use super::validate::InputArg;
use crate::runtime::now;
use crate::wire::contract::Shape;
#[cfg(not(feature = "providers"))]
use crate::wire::errors::invalid;
use crate::wire::errors::to_js_error;
use crate::wire::from_js::input_tape::{Limits, answer_too_long, read_input, read_input_with};
use crate::wire::from_js::read::read_options;
#[cfg(feature = "providers")]
use crate::wire::from_js::read::{MAX_LIST_ITEMS, json_text};
use crate::wire::to_js::tape::Tape;
use crate::{runtime::enter, wire::from_js::text::read_text_at};
use citeproof::model::{Input, Span};
use citeproof::offsets::{Tally, Unit};
#[cfg(feature = "providers")]
use citeproof::providers::{self, Json};
use citeproof::stream::{CitationStream as Core, Revision, StreamEvent};

#[wasm_bindgen]
extern "C" {
    /// What `finish` takes: a provider stream's events, or the `Input` an adapter made
    /// of them (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "unknown[] | Input")]
    pub type DeclaredArg;
    /// The options of `new CitationStream`: `validate`'s but `markerPatterns`, which a
    /// stream refuses (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "StreamOptions")]
    pub type StreamOptionsArg;
}

/// Validates an answer that arrives in pieces: `push(delta)` returns the cleaned text
/// that can no longer change (never half a marker) with the chips and findings in it;
/// `finish()` returns the rest and the report `validate` gives for the whole answer.
#[wasm_bindgen(js_name = CitationStream)]
pub struct CitationStream {
    core: Core,
    unit: Unit,
    /// For refusing a delta too long for `maxAnswerChars` before it is copied in.
    limits: Limits,
    /// A high surrogate that ended the last delta, waiting for its other half.
    pending_high: Option<js_sys::JsString>,
    /// Offsets into the released text and into the answer, both only moving forward
    /// (a revision starts the released text's over).
    released_offsets: SpanConverter,
    answer_offsets: SpanConverter,
    /// Length of the released text in the caller's unit.
    released_units: usize,
}

#[wasm_bindgen(js_class = CitationStream)]
impl CitationStream {
    /// A stream for `input` (as for `validate`; `answer` may be omitted) and `options`
    /// (as for `validate`; `markerPatterns` are not supported). Throws an `Error` with a
    /// `code` on bad arguments.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "StreamInput")] input: InputArg,
        options: Option<StreamOptionsArg>,
    ) -> Result<CitationStream, JsValue> {
        enter();
        let (options, unit) = read_options(options.as_deref(), &[])?;
        let limits = Limits::of(&options);
        let input = read_input_with(&input, "input", false, &limits)?;
        let core = Core::new(input, options).map_err(|e| to_js_error(&e.under("options")))?;
        Ok(CitationStream {
            core,
            unit,
            limits,
            pending_high: None,
            released_offsets: SpanConverter::default(),
            answer_offsets: SpanConverter::default(),
            released_units: 0,
        })
    }

    /// Appends `delta`; returns `{ text, events }`: the cleaned text to append to what
    /// is shown, and the `cite` / `finding` events in it.
    #[wasm_bindgen(unchecked_return_type = "StreamChunk")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] delta: JsValue,
    ) -> Result<JsValue, JsValue> {
        enter();
        if let Some(text) = delta.dyn_ref::<js_sys::JsString>() {
            let units = f64::from(text.length());
            if units > self.limits.answer_units() {
                return Err(answer_too_long("answer", units, &self.limits));
            }
        }
        let delta = read_text_at(&self.join_surrogates(&delta)?, "delta")?;
        let pushed = self.core.push(&delta).map_err(|e| to_js_error(&e))?;
        self.released_units += unit_len(&pushed.text, self.unit);
        let mut tape = Tape::new(Shape::Push);
        tape.string(&pushed.text);
        tape.count(pushed.events.len());
        for event in pushed.events {
            let event = self.in_unit(event);
            tape.stream_event(&event);
        }
        Ok(tape.into_js())
    }

    /// Ends the stream: `{ text, report }`, the rest of the cleaned answer and the
    /// report for the whole answer (equal to `validate`'s). With `declared`, the
    /// citations the provider declared count too, and their sources when the stream was
    /// given none: either the provider stream's events the answer came in (each SSE
    /// `data:` parsed), read as `fromAny(events)` reads them (Anthropic `citations_delta`,
    /// OpenAI `annotations`), or the `Input` an adapter made of them
    /// (`fromAnthropic(events, sources)`, spans in the stream's unit). They count when
    /// their answer is the streamed answer. Throws when called twice.
    #[wasm_bindgen(unchecked_return_type = "StreamEnd")]
    pub fn finish(&mut self, declared: Option<DeclaredArg>) -> Result<JsValue, JsValue> {
        enter();
        if let Some(high) = self.pending_high.take() {
            // A lone high surrogate ends the answer: it stays one unit, as U+FFFD.
            let rest = read_text_at(&high, "delta")?;
            self.core.push(&rest).map_err(|e| to_js_error(&e))?;
        }
        let declared = match declared {
            Some(value) if value.is_array() => self.declared_by(value.unchecked_ref())?,
            Some(value) if !value.is_null() && !value.is_undefined() => Some(read_input(
                value.as_ref(),
                "declared",
                self.unit,
                &self.limits,
            )?),
            _ => None,
        };
        let started = now();
        let finished = self
            .core
            .finish_declared(declared)
            .map_err(|e| to_js_error(&e))?;
        let mut report = finished.report;
        report.convert_offsets(finished.input, self.unit);
        report.timing_ms = now() - started;
        let mut tape = Tape::new(Shape::Finish);
        tape.string(&finished.text);
        tape.report(&report);
        // The whole released text is replaced.
        let revise = finished.revision.map(|revision| Revision {
            span: Span::new(0, self.released_units),
            text: revision.text,
            answer_start: 0,
        });
        tape.option(revise.as_ref(), Tape::revision);
        Ok(tape.into_js())
    }

    /// What a provider adapter reads from a stream's `events`: `None` when none
    /// recognises them (a plain-text stream has nothing to declare).
    #[cfg(feature = "providers")]
    fn declared_by(&self, events: &js_sys::Array) -> Result<Option<Input>, JsValue> {
        let text = json_text(events, "events", MAX_LIST_ITEMS)?;
        let json = Json::parse(&text).map_err(|e| to_js_error(&e))?;
        let given = self.core.sources();
        let sources = (!given.is_empty()).then(|| given.to_vec());
        Ok(providers::from_any(&json, sources)
            .ok()
            .map(|(_, input)| input))
    }

    /// The browser core has no provider adapters: its entries' `CitationStream`
    /// (wasm/js/stream.js) reads the events with the JS ones and passes the `Input` they
    /// give, so events reach this module only when something bypasses them. Refused,
    /// never dropped.
    #[cfg(not(feature = "providers"))]
    fn declared_by(&self, _events: &js_sys::Array) -> Result<Option<Input>, JsValue> {
        Err(invalid(
            "invalid_input",
            "events",
            "this module has no provider adapters: pass the Input fromAny(events) of citeproof/providers gives",
        ))
    }

    /// From the next push on, holds a marker whose fate is still open until later text
    /// decides it, however long that takes, instead of releasing it and sending a
    /// `revise` event when the deciding text comes: for text that cannot be taken back
    /// once sent (a forwarded response, the AI SDK middleware). Call it before the
    /// first push.
    #[wasm_bindgen(js_name = withoutRevisions)]
    pub fn without_revisions(&mut self) {
        enter();
        self.core.hold_undecided();
    }

    /// The cleaned text released so far.
    #[wasm_bindgen(getter)]
    pub fn released(&self) -> String {
        self.core.released().to_string()
    }

    /// The answer received so far, as pushed (what the report's spans index).
    #[wasm_bindgen(getter)]
    pub fn answer(&self) -> String {
        self.core.answer().to_string()
    }

    /// Whether text released so far may still be revised (a `revise` event): something
    /// was released while a later closer or definition could still change it.
    #[wasm_bindgen(getter)]
    pub fn revisable(&self) -> bool {
        self.core.revisable()
    }

    /// What the last push held back, as answer indices in the caller's unit:
    /// `{ releasedThrough, undecidedFrom }` — the answer is released up to
    /// `releasedThrough`; the construct still being written starts at `undecidedFrom`
    /// (`null`: none). What lies between is held for a marker whose fate is open, at
    /// most 256 bytes.
    #[wasm_bindgen(getter, unchecked_return_type = "StreamHeld")]
    pub fn held(&self) -> Result<JsValue, JsValue> {
        let held = self.core.held();
        let answer = self.core.answer();
        let at = |byte: usize| unit_len(answer.get(..byte).unwrap_or(answer), self.unit);
        let mut tape = Tape::new(Shape::Held);
        tape.count(at(held.released_through));
        tape.option(held.undecided_from.map(at), Tape::count);
        Ok(tape.into_js())
    }
}

impl CitationStream {
    /// `delta` with a high surrogate left over from the previous delta in front of it,
    /// and without a high surrogate at its end (kept for the next delta).
    fn join_surrogates(&mut self, delta: &JsValue) -> Result<JsValue, JsValue> {
        let Some(text) = delta.dyn_ref::<js_sys::JsString>() else {
            return Ok(delta.clone()); // read_text_at names the error
        };
        let mut text = match self.pending_high.take() {
            Some(high) => high.concat(text),
            None => text.clone(),
        };
        if ends_in_high_surrogate(&text) {
            let len = text.length();
            self.pending_high = Some(text.slice(len - 1, len));
            text = text.slice(0, len - 1);
        }
        Ok(text.into())
    }

    /// The event with its positions in the caller's unit. A revision's span runs from
    /// its start to the end of the text released before it (`{ type: "revise", span,
    /// text, answerStart }`: replace the released text from `span.start` on with `text`;
    /// chips and findings from `span.start`, in the answer from `answerStart`, are void).
    fn in_unit(&mut self, event: StreamEvent) -> StreamEvent {
        let (unit, released, answer) = (self.unit, self.core.released(), self.core.answer());
        match event {
            StreamEvent::Cite {
                segment,
                span,
                answer_span,
            } => StreamEvent::Cite {
                segment,
                span: self.released_offsets.convert(released, span, unit),
                answer_span: self.answer_offsets.convert(answer, answer_span, unit),
            },
            StreamEvent::Finding(mut finding) => {
                if let Some(span) = finding.span.as_mut() {
                    *span = self.answer_offsets.convert(answer, *span, unit);
                }
                StreamEvent::Finding(finding)
            }
            StreamEvent::Revise(revision) => {
                // The released text up to the revision's start did not change.
                let start = unit_len(released.get(..revision.span.start).unwrap_or(""), unit);
                let answer_start =
                    unit_len(answer.get(..revision.answer_start).unwrap_or(""), unit);
                let in_unit = Revision {
                    span: Span::new(start, self.released_units),
                    text: revision.text,
                    answer_start,
                };
                // Spans sent from here on index the revised text, and start over.
                self.released_offsets = SpanConverter::default();
                self.answer_offsets = SpanConverter::default();
                self.released_units = unit_len(released, unit);
                StreamEvent::Revise(in_unit)
            }
        }
    }
}

/// The length of `text` in `unit`.
fn unit_len(text: &str, unit: Unit) -> usize {
    Tally::default()
        .to_unit(text, text.len(), unit)
        .unwrap_or(0)
}

/// Converts byte spans of a growing text that come in text order (a span may repeat:
/// a marker's chip and its findings share it).
#[derive(Default)]
struct SpanConverter {
    tally: Tally,
    last: Option<(Span, Span)>,
}

impl SpanConverter {
    fn convert(&mut self, text: &str, span: Span, unit: Unit) -> Span {
        if let Some((bytes, units)) = self.last {
            if bytes == span {
                return units;
            }
        }
        let start = self.tally.to_unit(text, span.start, unit).unwrap_or(0);
        let end = self.tally.to_unit(text, span.end, unit).unwrap_or(start);
        let units = Span::new(start, end);
        self.last = Some((span, units));
        units
    }
}

#[wasm_bindgen(module = "/js/text.js")]
extern "C" {
    #[wasm_bindgen(js_name = endsInHighSurrogate)]
    fn ends_in_high_surrogate(text: &js_sys::JsString) -> bool;
}
