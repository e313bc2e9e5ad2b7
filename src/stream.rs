//! Incremental cleaning of an answer that arrives in pieces (DESIGN.md §7).
//!
//! A [`CitationStream`] takes the answer delta by delta and releases the cleaned text
//! that can no longer change. Cleaning only ever touches markers (and the one space
//! before a removed marker), so the released text stops before the first place where
//! a later character can still change the outcome: a marker not yet complete (`[1`,
//! `【2`), a `]` that a `(` may turn into a link, a trailing space, and an invalid marker
//! whose fate depends on text still to come (a closing backtick or `</code>` that makes
//! it code, a definition `[N]: …` that makes it a link label). Each push rescans only
//! from the last point where everything before was decided, so a stream costs time
//! linear in the answer's length in the usual case.
//!
//! [`CitationStream::finish`] validates the whole text, so its report is exactly the one
//! [`Validator::validate`] gives, and the text released by all pushes and `finish`
//! together is its `cleaned_answer`.
//!
//! ```
//! use citeproof::model::{Input, Options, Source};
//! use citeproof::stream::{CitationStream, StreamEvent};
//!
//! let sources = vec![Source { title: Some("Bitcoin".into()), ..Source::default() }];
//! let input = Input { sources, ..Input::default() };
//! let mut stream = CitationStream::new(input, Options::default()).unwrap();
//! let mut shown = String::new();
//! for delta in ["Bitcoin launched in 2009 [", "1]. It has a cap [", "7]."] {
//!     let pushed = stream.push(delta).unwrap();
//!     assert!(!pushed.text.ends_with('[')); // never half a marker
//!     shown.push_str(&pushed.text);
//!     for event in &pushed.events {
//!         if let StreamEvent::Finding(finding) = event {
//!             assert_eq!(finding.code.name(), "out_of_range");
//!         }
//!     }
//! }
//! let finished = stream.finish().unwrap();
//! shown.push_str(&finished.text);
//! assert_eq!(shown, "Bitcoin launched in 2009 [1]. It has a cap.");
//! assert_eq!(shown, finished.report.cleaned_answer);
//! ```

use crate::error::{Error, ErrorCode};
use crate::model::{Finding, Input, Marker, Options, Policy, Report, Segment, Severity, Span};
use crate::parse::{Markers, Resume};
use crate::rewrite::{MarkerFate, Rewriter};
use crate::validate::{Lookup, OwnedIndex, Validator};

/// What happened in the text a push released, in text order.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// A marker was released as a chip.
    Cite {
        /// The chip: its label as shown, refs, source and validity.
        segment: Segment,
        /// Where the chip's text sits in the released text (bytes from its start).
        span: Span,
        /// Where the marker sits in the answer (bytes).
        answer_span: Span,
    },
    /// A marker was found to point nowhere (the finding `validate` reports for it).
    Finding(Finding),
}

/// The result of [`CitationStream::push`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pushed {
    /// Cleaned text that can no longer change, to append to what was shown.
    pub text: String,
    /// Chips and findings in `text`.
    pub events: Vec<StreamEvent>,
}

/// The result of [`CitationStream::finish`].
#[derive(Debug)]
pub struct Finished<'a> {
    /// The rest of the cleaned answer, after everything the pushes released.
    pub text: String,
    /// The report for the whole answer, equal to `validate` on it.
    pub report: Report<'a>,
    /// The input with the whole answer (what the report's spans index).
    pub input: &'a Input,
}

/// Validates an answer that arrives in pieces; see the [module docs](self).
#[derive(Debug)]
pub struct CitationStream {
    /// The input, its answer being the text received so far.
    input: Input,
    validator: Validator,
    index: OwnedIndex,
    /// Where the next scan starts.
    resume: Resume,
    rewriter: Rewriter,
    /// Bytes of the rewriter's output already released.
    released: usize,
    /// Characters received, against `options.max_answer_chars`.
    chars: usize,
    /// The answer given to `new`, pushed with the first delta.
    unpushed: String,
    /// A doubtful marker whose text may change waits for `finish`: nothing more is
    /// released before it.
    waits_for_finish: bool,
    finished: bool,
}

impl CitationStream {
    /// A stream for `input` (its `answer` is the start of the text, usually empty; what
    /// of it can be released comes with the first push), validated with `options` at
    /// the end. `Err` for options a stream cannot honour
    /// (`marker_patterns`: a regex may need unbounded look-ahead) and for bad options.
    pub fn new(input: Input, options: Options) -> Result<CitationStream, Error> {
        if !options.marker_patterns.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                "markerPatterns",
                "custom marker patterns are not supported by streams (a regex may need any \
                 amount of text before it can match); validate the finished answer instead",
            ));
        }
        let validator = Validator::new(options)?;
        let index = OwnedIndex::new(&input.sources);
        let rewriter = Rewriter::new(&input.sources, validator.options());
        let mut input = input;
        let unpushed = std::mem::take(&mut input.answer);
        Ok(CitationStream {
            input,
            validator,
            index,
            resume: Resume::START,
            rewriter,
            released: 0,
            chars: 0,
            unpushed,
            waits_for_finish: false,
            finished: false,
        })
    }

    /// Appends `delta` to the answer; returns the cleaned text that can no longer change
    /// and the events in it. `Err` after `finish` and when the answer grows past
    /// `options.max_answer_chars`.
    pub fn push(&mut self, delta: &str) -> Result<Pushed, Error> {
        if self.finished {
            return Err(Error::new(
                ErrorCode::InvalidInput,
                "delta",
                "the stream is finished; start a new one",
            ));
        }
        if !self.unpushed.is_empty() {
            let start = std::mem::take(&mut self.unpushed);
            return self.push(&(start + delta));
        }
        self.chars += delta.chars().count();
        let limit = self.validator.options().max_answer_chars;
        if self.chars > limit {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "answer",
                format!("{} characters exceed maxAnswerChars ({limit})", self.chars),
            ));
        }
        self.input.answer.push_str(delta);
        let mut events = Vec::new();
        if !self.waits_for_finish {
            self.release(&mut events);
        }
        let text = self.rewriter.output()[self.released..].to_string();
        self.released = self.rewriter.output().len();
        Ok(Pushed { text, events })
    }

    /// Ends the stream: validates the whole answer and returns its report with the
    /// cleaned text not released yet. `Err` when called twice.
    pub fn finish(&mut self) -> Result<Finished<'_>, Error> {
        if self.finished {
            return Err(Error::new(
                ErrorCode::InvalidInput,
                "finish",
                "the stream is already finished",
            ));
        }
        self.finished = true;
        let start = std::mem::take(&mut self.unpushed);
        self.input.answer.insert_str(0, &start);
        let report = self.validator.validate(&self.input)?;
        debug_assert!(
            report
                .cleaned_answer
                .starts_with(&self.rewriter.output()[..self.released]),
            "released text must be a prefix of the cleaned answer"
        );
        let text = report
            .cleaned_answer
            .get(self.released..)
            .unwrap_or_default()
            .to_string();
        Ok(Finished {
            text,
            report,
            input: &self.input,
        })
    }

    /// The answer received so far.
    pub fn answer(&self) -> &str {
        &self.input.answer
    }

    /// The cleaned text released so far (what the pushes returned, concatenated).
    pub fn released(&self) -> &str {
        &self.rewriter.output()[..self.released]
    }

    /// Scans from the last settled point and writes what can no longer change.
    fn release(&mut self, events: &mut Vec<StreamEvent>) {
        let answer = self.input.answer.as_str();
        let sources = self.input.sources.as_slice();
        let options = self.validator.options();
        let lookup = self.index.with(sources);
        let mut scan = Markers::open(
            self.validator.parser(),
            answer,
            self.index.ids(),
            self.resume,
        );
        let markers: Vec<Marker<'_>> = scan.by_ref().collect();
        let undecided = scan.undecided();
        let mut boundary = undecided.wait.unwrap_or(answer.len());
        for marker in &markers {
            let start = marker.span.start;
            if start < self.rewriter.position() {
                continue; // released by an earlier push
            }
            if start >= boundary {
                break;
            }
            let resolved = lookup.resolve_marker(marker);
            let fate = MarkerFate {
                refs: resolved
                    .iter()
                    .map(|(label, r)| (label.clone(), r.as_ref().ok().copied()))
                    .collect(),
            };
            let label_doubt = undecided
                .label_doubts
                .iter()
                .any(|&(from, to)| (from..to).contains(&start));
            let doubtful = undecided.doubt_from.is_some_and(|d| start > d) || label_doubt;
            if doubtful {
                if output_may_change(&fate, options) {
                    boundary = start;
                    self.waits_for_finish = label_doubt;
                    break;
                }
                continue; // released as it is whether or not it stays a marker
            }
            let chip = self.rewriter.marker(answer, sources, marker, &fate);
            if let (Some(span), Some(segment)) = (chip, self.rewriter.last_segment()) {
                events.push(StreamEvent::Cite {
                    segment: segment.clone(),
                    span,
                    answer_span: marker.span,
                });
            }
            events.extend(resolved.into_iter().filter_map(|(_, r)| r.err()).map(
                |(code, message)| {
                    StreamEvent::Finding(Finding {
                        code,
                        severity: Severity::Error,
                        message,
                        citation: None,
                        span: Some(marker.span),
                    })
                },
            ));
        }
        // A space right before the boundary goes with a marker that may be removed.
        if boundary > self.rewriter.position() && answer.as_bytes()[boundary - 1] == b' ' {
            boundary -= 1;
        }
        self.rewriter.text_until(answer, boundary);
        self.resume = undecided.resume.unwrap_or(self.resume);
    }
}

/// Whether a marker's text in the cleaned answer depends on its being a marker: it is
/// removed or relabelled, not kept as written.
fn output_may_change(fate: &MarkerFate, options: &Options) -> bool {
    let all_valid = !fate.refs.is_empty() && fate.refs.iter().all(|(_, p)| p.is_some());
    options.policy != Policy::Flag && (options.renumber || !all_valid)
}
