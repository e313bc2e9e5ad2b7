//! `validate`'s input, and lists of sources, read in one pass by `input.js` and decoded
//! here from its tape (the format is described at the top of `input.js`).
//!
//! Reading field by field across the boundary cost one or more calls per field — about
//! 40 µs of a typical 80 µs `validate` (docs/perf-log.md); the walk in JS is two calls.
//! Errors name the exact path of the bad field, built only when there is one, and the
//! first bad field in reading order is the one reported. A list longer than its limit
//! ([`Limits`]) and an answer too long for `maxAnswerChars` are refused before the walk
//! reads an item or copies the answer.

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use super::input_names::{declared_citation, input, source};
use super::read::{LIST_CEILING, MAX_LIST_ITEMS, count_of, item_path, too_many};
use crate::wire::contract::{
    INPUT_LIST, INPUT_LONG, INPUT_NUMBER, INPUT_OBJECT, INPUT_PAIR, INPUT_STRING, TWICE,
    TYPE_OTHER, TYPE_REVOKED, TYPES,
};
use crate::wire::errors::{invalid, shown};
use citeproof::model::{
    DeclaredCitation, Finding, FindingCode, Input, LineRange, Loose, LooseValue, Options, Severity,
    Source, SourceRef, Span,
};
use citeproof::offsets::Unit;

#[wasm_bindgen(module = "/js/input.js")]
extern "C" {
    #[wasm_bindgen(js_name = readInput)]
    fn walk_input(
        value: &JsValue,
        sizes: &mut [f64],
        max_items: f64,
        max_sources: f64,
        max_answer_units: f64,
    );
    #[wasm_bindgen(js_name = readSources)]
    fn walk_sources(value: &JsValue, sizes: &mut [f64], max_items: f64);
    #[wasm_bindgen(js_name = takeInput)]
    fn take_input(bytes: &mut [u8], tape: &mut [f64], lengths: &mut [u32]);
}

/// The error code of every unreadable input.
const CODE: &str = "invalid_input";

/// How long an input's lists and answer may be; the walk checks each list's length
/// before it reads an item, and the answer's before it copies it (README, "Limits").
#[derive(Clone, Copy)]
pub struct Limits {
    /// The most sources, and the name of that limit for errors.
    sources: (usize, &'static str),
    /// `maxAnswerChars`, or `usize::MAX`.
    answer_chars: usize,
}

impl Limits {
    /// The limits of `options`: `maxSources` (under the ceiling of every list) and
    /// `maxAnswerChars`.
    pub fn of(options: &Options) -> Limits {
        Limits {
            sources: if options.max_sources < MAX_LIST_ITEMS {
                (options.max_sources, "maxSources")
            } else {
                (MAX_LIST_ITEMS, LIST_CEILING)
            },
            answer_chars: options.max_answer_chars,
        }
    }

    #[cfg(feature = "edge")]
    /// For an input read without options (`ctx.input`, given back after `validate`):
    /// every list under the ceiling, any answer.
    pub const ANY_ANSWER: Limits = Limits {
        sources: (MAX_LIST_ITEMS, LIST_CEILING),
        answer_chars: usize::MAX,
    };

    /// The longest answer copied in, in UTF-16 units: past this many it has more
    /// characters than `maxAnswerChars` (a character is one or two units), so it is
    /// refused uncopied; below it, the validator counts its characters.
    pub fn answer_units(&self) -> f64 {
        2.0 * self.answer_chars as f64
    }
}

/// The error for an answer (or a part of it) at `path` of `units` UTF-16 units, over
/// [`Limits::answer_units`]. (The numbers are written as integers: formatting an `f64`
/// would bring `core`'s float printing into the module, ≈ 9 KB gzip.)
pub fn answer_too_long(path: &str, units: f64, limits: &Limits) -> JsValue {
    let units = units as usize;
    invalid(
        "too_large",
        path,
        &format!(
            "{units} UTF-16 units (at least {} characters) exceed maxAnswerChars ({})",
            units.div_ceil(2),
            limits.answer_chars
        ),
    )
}

/// One value of the tape.
enum Value<'t> {
    String(&'t str),
    Number(f64),
    /// Two numbers: a line range or a span's bounds, and the type of what held them.
    Pair(&'static str, f64, f64),
    /// An array of this many values, which follow if its length is within its limit.
    List(usize),
    /// An object, whose fields follow.
    Object,
    Other(&'static str),
    /// A string of this many UTF-16 units, over its limit and not copied.
    Long(f64),
    /// A field given under two of its names as well, this one: no value follows.
    Twice(&'static str),
}

impl Value<'_> {
    fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) | Value::Long(_) => "string",
            Value::Number(_) => "number",
            Value::Pair(kind, ..) | Value::Other(kind) => kind,
            Value::List(_) => "array",
            Value::Object => "object",
            Value::Twice(_) => "a second name",
        }
    }

    /// The value as error messages show it (see [`shown`]).
    fn shown(&self) -> String {
        match self {
            Value::String(text) => shown("string", Some(text), None),
            Value::Number(n) => shown("number", None, Some(*n)),
            _ => self.type_name().to_string(),
        }
    }
}

/// The walk's tape and its strings, read front to back.
struct Tape {
    numbers: Vec<f64>,
    at: usize,
    text: String,
    lengths: Vec<u32>,
    next_string: usize,
    string_at: usize,
}

impl Tape {
    /// Runs `walk` (one of `input.js`'s walks) and copies its tape in.
    fn take(walk: impl FnOnce(&mut [f64]), path: &str) -> Result<Tape, JsValue> {
        let mut sizes = [0.0; 3];
        walk(&mut sizes);
        let mut numbers = vec![0.0; sizes[0] as usize];
        let mut lengths = vec![0; sizes[1] as usize];
        let mut bytes = vec![0; sizes[2] as usize * 3];
        take_input(&mut bytes, &mut numbers, &mut lengths);
        bytes.truncate(lengths.iter().map(|&n| n as usize).sum());
        let text = String::from_utf8(bytes)
            .map_err(|_| invalid(CODE, path, "could not be encoded as UTF-8"))?;
        Ok(Tape {
            numbers,
            at: 0,
            text,
            lengths,
            next_string: 0,
            string_at: 0,
        })
    }

    fn number(&mut self) -> f64 {
        let n = self.numbers.get(self.at).copied().unwrap_or(0.0);
        self.at += 1;
        n
    }

    fn value(&mut self) -> Value<'_> {
        let kind = |code: f64| {
            TYPES
                .get(code as usize)
                .copied()
                .unwrap_or(TYPES[TYPE_OTHER])
        };
        match self.number() as u8 {
            INPUT_STRING => {
                let length = self.lengths.get(self.next_string).copied().unwrap_or(0);
                let start = self.string_at;
                self.next_string += 1;
                self.string_at += length as usize;
                Value::String(self.text.get(start..self.string_at).unwrap_or(""))
            }
            INPUT_NUMBER => Value::Number(self.number()),
            INPUT_PAIR => {
                let holder = kind(self.number());
                Value::Pair(holder, self.number(), self.number())
            }
            INPUT_LIST => Value::List(self.number() as usize),
            INPUT_OBJECT => Value::Object,
            INPUT_LONG => Value::Long(self.number()),
            _ => Value::Other(kind(self.number())), // INPUT_OTHER
        }
    }

    /// The next field: `None` if absent, else the name it was found under and its value
    /// ([`Value::Twice`] when it was given under two of its names). Not inlined: one
    /// copy, not one per field read (the module's size is budgeted).
    #[inline(never)]
    fn field(&mut self, names: &[&'static str]) -> Option<(&'static str, Value<'_>)> {
        let found = self.number() as usize;
        let name = |at: usize| names.get(at.wrapping_sub(1)).copied().unwrap_or("?");
        match found {
            0 => None,
            TWICE.. => Some((name(found % TWICE), Value::Twice(name(found / TWICE)))),
            _ => Some((name(found), self.value())),
        }
    }
}

/// The reader of one object on the tape: its path, for errors.
struct Fields<'p> {
    path: &'p str,
}

impl Fields<'_> {
    fn error(&self, name: &str, expected: &str, got: &Value) -> JsValue {
        let message = match got {
            Value::Twice(other) => format!("given twice, as `{name}` and as `{other}`: give one"),
            _ => format!("expected {expected}, got {}", got.shown()),
        };
        invalid(CODE, &format!("{}.{name}", self.path), &message)
    }

    fn string(&self, tape: &mut Tape, names: &[&'static str]) -> Result<Option<String>, JsValue> {
        match tape.field(names) {
            None => Ok(None),
            Some((_, Value::String(text))) => Ok(Some(text.to_owned())),
            Some((name, other)) => Err(self.error(name, "a string", &other)),
        }
    }

    /// A string field read under the first of its `names` present (input.js `firstOf`),
    /// and, when a later name held another value, the two names.
    #[allow(clippy::type_complexity)]
    fn first_of(
        &self,
        tape: &mut Tape,
        names: &[&'static str],
    ) -> Result<(Option<String>, Option<[&'static str; 2]>), JsValue> {
        let found = match tape.field(names) {
            None => None,
            Some((name, Value::String(text))) => Some((name, text.to_owned())),
            Some((name, other)) => return Err(self.error(name, "a string", &other)),
        };
        let differs = tape.number() as usize;
        let other = names.get(differs.wrapping_sub(1)).copied();
        Ok(match (found, other) {
            (Some((name, text)), Some(other)) => (Some(text), Some([name, other])),
            (found, _) => (found.map(|(_, text)| text), None),
        })
    }

    fn number(&self, tape: &mut Tape, names: &[&'static str]) -> Result<Option<f64>, JsValue> {
        match tape.field(names) {
            None => Ok(None),
            Some((_, Value::Number(n))) => Ok(Some(n)),
            Some((name, other)) => Err(self.error(name, "a number", &other)),
        }
    }

    /// A non-negative integer field.
    fn count(&self, tape: &mut Tape, names: &[&'static str]) -> Result<Option<u32>, JsValue> {
        match tape.field(names) {
            None => Ok(None),
            Some((name, value)) => match value {
                Value::Number(n) => count_of(n),
                _ => None,
            }
            .map(Some)
            .ok_or_else(|| self.error(name, "a non-negative integer", &value)),
        }
    }

    /// A field whose wrong type is a finding, not an error (spec 004): `convert` says
    /// what is valid. A revoked Proxy is an error: it is no value at all.
    fn loose<T>(
        &self,
        tape: &mut Tape,
        names: &[&'static str],
        convert: impl FnOnce(&Value) -> Option<T>,
    ) -> Result<Option<Loose<T>>, JsValue> {
        let Some((name, value)) = tape.field(names) else {
            return Ok(None);
        };
        self.refuse(name, &value)?;
        Ok(Some(match convert(&value) {
            Some(valid) => Loose::Valid(valid),
            None => Loose::Invalid(value.type_name()),
        }))
    }

    /// The error for field `name` if `value` is a revoked Proxy or was given twice. Not
    /// inlined: one copy, not one per instance of [`Fields::loose`] (the module's size is
    /// budgeted).
    #[inline(never)]
    fn refuse(&self, name: &str, value: &Value) -> Result<(), JsValue> {
        match value {
            Value::Other(kind) if *kind == TYPES[TYPE_REVOKED] => {
                Err(self.error(name, "a value", value))
            }
            Value::Twice(_) => Err(self.error(name, "one value", value)),
            _ => Ok(()),
        }
    }
}

/// The `length` items of a list that follow on the tape, each read with its path.
fn items<T>(
    tape: &mut Tape,
    length: usize,
    path: &str,
    mut item: impl FnMut(&mut Tape, &str) -> Result<T, JsValue>,
) -> Result<Vec<T>, JsValue> {
    let mut out = Vec::with_capacity(length);
    for i in 0..length {
        out.push(item(tape, &item_path(path, i))?);
    }
    Ok(out)
}

/// The error for a value that should have been an object.
fn not_an_object(path: &str, got: &Value) -> JsValue {
    invalid(
        CODE,
        path,
        &format!("expected an object, got {}", got.type_name()),
    )
}

/// `input` of `validate`, its spans read in `unit` and converted to bytes.
pub fn read_input(
    value: &JsValue,
    path: &str,
    unit: Unit,
    limits: &Limits,
) -> Result<Input, JsValue> {
    let mut input = read_input_with(value, path, true, limits)?;
    input.spans_to_bytes(unit);
    Ok(input)
}

/// `input` of `validate`, or of `new CitationStream` (`answer_required: false`: the
/// answer is optional, it arrives by `push`).
pub fn read_input_with(
    value: &JsValue,
    path: &str,
    answer_required: bool,
    limits: &Limits,
) -> Result<Input, JsValue> {
    let mut tape = Tape::take(
        |sizes| {
            walk_input(
                value,
                sizes,
                MAX_LIST_ITEMS as f64,
                limits.sources.0 as f64,
                limits.answer_units(),
            )
        },
        path,
    )?;
    match tape.value() {
        Value::Object => {}
        other => return Err(not_an_object(path, &other)),
    }
    let fields = Fields { path };
    let answer = match tape.field(&["answer"]) {
        Some((_, Value::String(answer))) => answer.to_owned(),
        Some((_, Value::Long(units))) => {
            return Err(answer_too_long(&format!("{path}.answer"), units, limits));
        }
        Some((name, other)) => return Err(fields.error(name, "a string", &other)),
        None if !answer_required => String::new(),
        None => {
            return Err(invalid(
                CODE,
                &format!("{path}.answer"),
                "missing: the answer to validate",
            ));
        }
    };
    let sources =
        list_field(&mut tape, &fields, "sources", limits.sources, read_source)?.unwrap_or_default();
    let list_limit = (MAX_LIST_ITEMS, LIST_CEILING);
    let citations = list_field(&mut tape, &fields, "citations", list_limit, read_declared)?;
    Ok(Input {
        answer,
        sources,
        citations,
        question: fields.string(&mut tape, input::QUESTION)?,
        mode: fields.string(&mut tape, input::MODE)?,
        request_id: fields.string(&mut tape, input::REQUEST_ID)?,
        session_id: fields.string(&mut tape, input::SESSION_ID)?,
        response_id: fields.string(&mut tape, input::RESPONSE_ID)?,
        model_version: fields.string(&mut tape, input::MODEL_VERSION)?,
        top_k: fields.count(&mut tape, input::TOP_K)?,
        warnings: list_field(&mut tape, &fields, "warnings", list_limit, read_warning)?
            .unwrap_or_default(),
    })
}

/// A list field of the input of at most `limit.0` items (`limit.1` names the limit):
/// `None` if absent.
fn list_field<T>(
    tape: &mut Tape,
    fields: &Fields,
    name: &'static str,
    (limit, limit_name): (usize, &str),
    item: impl FnMut(&mut Tape, &str) -> Result<T, JsValue>,
) -> Result<Option<Vec<T>>, JsValue> {
    let Some((name, value)) = tape.field(&[name]) else {
        return Ok(None);
    };
    let Value::List(length) = value else {
        return Err(fields.error(name, "an array", &value));
    };
    let path = format!("{}.{name}", fields.path);
    if length > limit {
        return Err(too_many(&path, length, limit, limit_name));
    }
    items(tape, length, &path, item).map(Some)
}

#[cfg(any(feature = "edge", feature = "providers"))]
/// An array of at most [`MAX_LIST_ITEMS`] sources (`path` names it in errors).
pub fn read_sources(value: &JsValue, path: &str) -> Result<Vec<Source>, JsValue> {
    let mut tape = Tape::take(
        |sizes| walk_sources(value, sizes, MAX_LIST_ITEMS as f64),
        path,
    )?;
    let length = match tape.value() {
        Value::List(length) => length,
        other => {
            let got = other.type_name();
            return Err(invalid(
                CODE,
                path,
                &format!("expected an array of sources, got {got}"),
            ));
        }
    };
    if length > MAX_LIST_ITEMS {
        return Err(too_many(path, length, MAX_LIST_ITEMS, LIST_CEILING));
    }
    items(&mut tape, length, path, read_source)
}

/// One retrieved source. Not inlined: one copy for `validate`'s input and the edge
/// helpers' source lists (the module's size is budgeted).
#[inline(never)]
fn read_source(tape: &mut Tape, path: &str) -> Result<Source, JsValue> {
    match tape.value() {
        Value::Object => {}
        other => return Err(not_an_object(path, &other)),
    }
    let fields = Fields { path };
    let chapter = match tape.field(source::CHAPTER) {
        None => None,
        Some((_, Value::String(text))) => Some(text.to_owned()),
        Some((_, Value::Number(n))) if n.fract() == 0.0 && n.is_finite() => {
            Some((n as i64).to_string())
        }
        Some((name, other)) => return Err(fields.error(name, "a string or an integer", &other)),
    };
    let mut read = Source {
        chapter,
        index: fields.count(tape, source::INDEX)?,
        id: fields.string(tape, source::ID)?,
        doc_id: fields.string(tape, source::DOC_ID)?,
        chunk_id: fields.string(tape, source::CHUNK_ID)?,
        title: fields.string(tape, source::TITLE)?,
        url: fields.string(tape, source::URL)?,
        slug: fields.string(tape, source::SLUG)?,
        payload_id: fields.string(tape, source::PAYLOAD_ID)?,
        chunk_type: fields.string(tape, source::CHUNK_TYPE)?,
        ..Source::default()
    };
    (read.text, read.text_differs) = fields.first_of(tape, source::TEXT)?;
    read.section = fields.count(tape, source::SECTION)?;
    read.relevance = fields.number(tape, source::RELEVANCE)?;
    read.first_line = fields.count(tape, source::FIRST_LINE)?;
    Ok(read)
}

/// One declared citation: a bare label or an object. Not inlined, as [`read_source`].
#[inline(never)]
fn read_declared(tape: &mut Tape, path: &str) -> Result<DeclaredCitation, JsValue> {
    match tape.value() {
        Value::Number(label) => return Ok(DeclaredCitation::label(label)),
        Value::Object => {}
        other => return Err(not_an_object(path, &other)),
    }
    let fields = Fields { path };
    let string = |v: &Value| match v {
        Value::String(text) => Some((*text).to_owned()),
        _ => None,
    };
    let number = |v: &Value| match v {
        Value::Number(n) => Some(*n),
        _ => None,
    };
    Ok(DeclaredCitation {
        source: fields.loose(tape, declared_citation::SOURCE, |v| match v {
            Value::Number(n) => Some(SourceRef::Number(*n)),
            Value::String(name) => Some(SourceRef::Name((*name).to_owned())),
            _ => None,
        })?,
        doc_id: fields.loose(tape, declared_citation::DOC_ID, string)?,
        chunk_id: fields.loose(tape, declared_citation::CHUNK_ID, string)?,
        quote: fields.loose(tape, declared_citation::QUOTE, string)?,
        line_range: fields.loose(tape, declared_citation::LINE_RANGE, |v| match v {
            Value::String(text) => LineRange::from_str_range(text),
            Value::Pair(_, first, last) => {
                let whole = |n: f64| (n.fract() == 0.0 && n.abs() < 1e15).then_some(n as i64);
                Some(LineRange {
                    first: whole(*first)?,
                    last: whole(*last)?,
                })
            }
            _ => None,
        })?,
        evidence_idx: fields.loose(tape, declared_citation::EVIDENCE_IDX, number)?,
        alignment_score: fields.loose(tape, declared_citation::ALIGNMENT_SCORE, number)?,
        span_in_answer: fields.loose(tape, declared_citation::SPAN_IN_ANSWER, string)?,
        relevance: fields.loose(tape, declared_citation::RELEVANCE, number)?,
        claim: fields.loose(tape, declared_citation::CLAIM, string)?,
        span: fields.loose(tape, declared_citation::SPAN, |v| match v {
            Value::Pair(_, start, end) => Span::from_range(*start, *end),
            _ => None,
        })?,
    })
}

/// One warning a provider adapter left in its `Input` (`offset_mismatch`,
/// `unknown_content`, `source_text_differs` for a caller's source); its span is in the caller's unit until [`Input::spans_to_bytes`].
fn read_warning(tape: &mut Tape, path: &str) -> Result<Finding, JsValue> {
    match tape.value() {
        Value::Object => {}
        other => return Err(not_an_object(path, &other)),
    }
    let fields = Fields { path };
    let code = match fields.string(tape, &["code"])?.as_deref() {
        Some("offset_mismatch") => FindingCode::OffsetMismatch,
        Some("unknown_content") => FindingCode::UnknownContent,
        Some("source_text_differs") => FindingCode::SourceTextDiffers,
        _ => {
            return Err(invalid(
                CODE,
                &format!("{path}.code"),
                "expected \"offset_mismatch\", \"unknown_content\" or \"source_text_differs\" \
                 (the warnings provider adapters raise)",
            ));
        }
    };
    let span = match tape.field(&["span"]) {
        None => None,
        Some((_, Value::Object)) => {
            let span_path = format!("{path}.span");
            let bounds = Fields { path: &span_path };
            Some(Span::new(
                bounds.count(tape, &["start"])?.unwrap_or(0) as usize,
                bounds.count(tape, &["end"])?.unwrap_or(0) as usize,
            ))
        }
        Some((name, other)) => return Err(not_an_object(&format!("{path}.{name}"), &other)),
    };
    let message = fields.string(tape, &["message"])?.unwrap_or_default();
    let mut finding = Finding::new(code, Severity::Warning, message);
    finding.span = span;
    Ok(finding)
}
