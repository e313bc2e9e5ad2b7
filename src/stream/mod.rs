//! Incremental cleaning of an answer that arrives in pieces (docs/architecture.md §7).
//!
//! A [`CitationStream`] takes the answer delta by delta and releases the cleaned text
//! that can no longer change. Cleaning only ever touches markers (and the one space
//! before a removed marker), so the released text stops before the first place where
//! a later character can still change the outcome: a construct being written (`[1`,
//! `【2`, a `]` that a `(` may turn into a link, a line that may still open a fence or
//! an HTML block), a trailing space, and an invalid marker whose fate depends on text
//! still to come (a closing backtick or `</code>` that makes it code, a definition
//! `[N]: …` that makes it a link label). Such a marker is held only while it is within
//! [`HOLD`] bytes of the end: past that it is released as it reads now, and should the
//! deciding text come later, a [`StreamEvent::Revise`] replaces what was released from
//! that marker on. So a stream never holds back more than [`HOLD`] bytes beyond the
//! construct still being written ([`CitationStream::held`] tells how much), and the
//! text shown, revisions applied, always ends as `validate`'s cleaned answer.
//! [`CitationStream::without_revisions`] holds such markers until they are decided, for
//! consumers that cannot take text back.
//!
//! Each push rescans only from the last point where everything before was decided (or,
//! once something was released provisionally, from there), so a stream costs time
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
use crate::model::{
    Finding, Input, Marker, Options, Policy, Report, Segment, Severity, Source, Span,
};
use crate::parse::{DefinitionReader, Markers, Resume, Undecided};
use crate::rewrite::{MarkerFate, Rewriter, chip_spans};
use crate::substr::Substr;
use crate::validate::{Lookup, OwnedIndex, Validator};

mod checkpoint;

use checkpoint::{Checkpoint, mark_open_region};

/// What happened in the text a push released, in text order.
#[derive(Clone, Debug, PartialEq)]
// Not `#[non_exhaustive]`: the JS binding (crate `citeproof-wasm`) converts and writes
// each variant, and a new one must make the compiler point there.
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
    /// Text released earlier changed: a marker released while its fate was open (a
    /// definition or a closer could still come, and it was [`HOLD`] bytes behind) was
    /// decided otherwise. Chips and findings from the revised part on are sent again
    /// after this event.
    Revise(Revision),
}

/// A change to text already released: replace the released text from `span.start` to
/// its end (`span.end`, everything released before) with `text`.
#[derive(Clone, Debug, PartialEq)]
pub struct Revision {
    /// The part of the released text replaced (bytes), up to all released before.
    pub span: Span,
    /// What replaces it.
    pub text: String,
    /// Where in the answer (bytes) the revised part starts: chips and findings about
    /// markers from there on are void, and sent again.
    pub answer_start: usize,
}

/// How far behind the end of the text (bytes) a marker whose fate is still open may be
/// held back. Past it the marker is released as it reads now and, should a later
/// definition or closer decide otherwise, revised ([`StreamEvent::Revise`]).
pub const HOLD: usize = 256;

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
    /// The rest of the cleaned answer, after everything the pushes released (and
    /// `revision`, when there is one).
    pub text: String,
    /// A change to released text that only the end of the answer decides (a marker
    /// released while a definition could still come, whose line the end completes):
    /// the shown text, with it, ends as the report's `cleaned_answer`.
    pub revision: Option<Revision>,
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
    /// Set when a marker whose fate is still open was released: a push that could change
    /// it decides again from here, revises what changed and leaves a new checkpoint at
    /// the earliest place still open after it (an opener, or a marker a later definition
    /// may change; none when nothing is), so deltas that each close a span and open the
    /// next do not go back to the first one.
    checkpoint: Option<Checkpoint>,
    /// What the last push held back.
    held: Held,
    /// The answer's length at the last scan.
    scanned: usize,
    /// Where the answer's last line starts, as of the last scan.
    line_start: usize,
    /// The answer's definitions, read on as its lines complete.
    definitions: DefinitionReader,
    /// Release markers whose fate is open after [`HOLD`] bytes (else hold them until
    /// they are decided, and never revise).
    revise: bool,
    finished: bool,
}

/// How much of the answer a stream holds back (bytes), from [`CitationStream::held`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    /// The answer up to here is released (or, for removed markers, settled).
    pub released_through: usize,
    /// The construct still being decided starts here (`None`: nothing undecided); what
    /// lies between `released_through` and it is held for a marker whose fate is open.
    pub undecided_from: Option<usize>,
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
            checkpoint: None,
            revise: true,
            held: Held {
                released_through: 0,
                undecided_from: None,
            },
            scanned: 0,
            line_start: 0,
            definitions: DefinitionReader::default(),
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
        // Counted before it is taken: a refused delta leaves the stream as it was.
        let chars = self.chars + delta.chars().count();
        let limit = self.validator.options().max_answer_chars;
        if chars > limit {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "answer",
                format!("{chars} characters exceed maxAnswerChars ({limit})"),
            ));
        }
        self.chars = chars;
        self.input.answer.push_str(delta);
        let mut events = Vec::new();
        let text = self.release(&mut events);
        Ok(Pushed { text, events })
    }

    /// Holds markers whose fate is still open until they are decided, however long
    /// that takes, instead of releasing them after [`HOLD`] bytes and revising: for
    /// consumers that cannot take text back (a forwarded response body).
    pub fn without_revisions(mut self) -> CitationStream {
        self.hold_undecided();
        self
    }

    /// What [`without_revisions`](Self::without_revisions) makes, on a stream already
    /// made: from the next push on, markers whose fate is open are held until decided.
    pub fn hold_undecided(&mut self) {
        self.revise = false;
    }

    /// How much of the answer the last push held back.
    pub fn held(&self) -> Held {
        self.held
    }

    /// Whether text released so far may still be revised: a marker whose fate is open
    /// was released after [`HOLD`] bytes. Until then, and once it is decided as it was
    /// released, the released text is a prefix of the cleaned answer.
    pub fn revisable(&self) -> bool {
        self.checkpoint.is_some()
    }

    /// Ends the stream: validates the whole answer and returns its report with the
    /// cleaned text not released yet. `Err` when called twice.
    pub fn finish(&mut self) -> Result<Finished<'_>, Error> {
        self.finish_declared(None)
    }

    /// Ends the stream like [`finish`](Self::finish), with what a provider declared in
    /// the stream's events (`declared`: the input a provider adapter read from them,
    /// e.g. Anthropic's `citations_delta`). When its answer is the text pushed and it
    /// declares citations, the report covers them too, and its sources where the stream
    /// was given none (a web search's results); otherwise it is the text's alone.
    pub fn finish_declared(&mut self, declared: Option<Input>) -> Result<Finished<'_>, Error> {
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
        let same_text = |d: &Input| d.answer == self.input.answer && d.citations.is_some();
        if let Some(declared) = declared.filter(same_text) {
            if self.input.sources.is_empty() {
                self.input.sources = declared.sources;
            }
            self.input.citations = declared.citations;
            self.input.warnings.extend(declared.warnings);
            self.input.response_id = self.input.response_id.take().or(declared.response_id);
            self.input.model_version = self.input.model_version.take().or(declared.model_version);
        }
        let report = self.validator.validate(&self.input)?;
        let released = self.rewriter.output().sub(..self.released);
        let cleaned = report.cleaned_answer.as_str();
        // A marker released as it read then, its text the same either way, may have
        // been decided otherwise (its chip sent or not): a stream that revises says so.
        let chips_differ = self.revise
            && self.rewriter.chips_since(None, released.len())
                != chip_spans(&report.segments, 0, released.len());
        let rest = cleaned.strip_prefix(released).filter(|_| !chips_differ);
        let (text, revision) = if let Some(rest) = rest {
            (rest.to_string(), None)
        } else {
            let revision = Revision {
                span: Span::new(0, released.len()),
                text: cleaned.to_string(),
                answer_start: 0,
            };
            (String::new(), Some(revision))
        };
        Ok(Finished {
            text,
            revision,
            report,
            input: &self.input,
        })
    }

    /// The sources the stream was given.
    pub fn sources(&self) -> &[Source] {
        &self.input.sources
    }

    /// The answer received so far.
    pub fn answer(&self) -> &str {
        &self.input.answer
    }

    /// The cleaned text released so far (what the pushes returned, concatenated).
    // Inline across crates: the JS binding reads it for every event of every push.
    #[inline]
    pub fn released(&self) -> &str {
        self.rewriter.output().sub(..self.released)
    }

    /// Scans from the last settled point (or, after a provisional release, from the
    /// checkpoint), writes what can no longer change and returns the text to append;
    /// a revision of text released before comes as the first event.
    fn release(&mut self, events: &mut Vec<StreamEvent>) -> String {
        // The scan's markers borrow the answer while the stream's other fields change, so
        // the answer is lent out of `input` for the release and put back after it.
        let answer = std::mem::take(&mut self.input.answer);
        let text = self.release_steps(&answer, events);
        self.input.answer = answer;
        text
    }

    /// [`release`](Self::release), step by step, on the answer so far.
    fn release_steps(&mut self, answer: &str, events: &mut Vec<StreamEvent>) -> String {
        // Decided before this push: markers ending by it sent their events then.
        let decided_through = self.rewriter.position();
        let redecision = self.rewind(answer);
        self.note_new_text(answer);
        let (markers, undecided) = self.scan(answer, &redecision);
        let redecide_from = redecide_from(&undecided, redecision.scan_from);
        let written = self.write_markers(answer, &markers, &undecided, redecide_from);
        self.write_text(answer, written.boundary, &undecided, redecide_from);
        self.resume = self.next_resume(&undecided, &written, &redecision, redecide_from);
        self.note_what_may_revise(&undecided, redecision.light);
        self.held = Held {
            released_through: self.rewriter.position(),
            undecided_from: undecided.wait,
        };
        self.send(&redecision, decided_through, written.fresh, events)
    }

    /// Whether this push decides again what was released since the checkpoint and, if
    /// it does, the rewriter gone back there. Everything after a checkpoint is decided
    /// again only when the new text could change it (a closer of an open opener, a
    /// definition): otherwise the scan goes on from where the last one stopped, which
    /// keeps a stream over an opener that never closes linear.
    fn rewind(&mut self, answer: &str) -> Redecision {
        let (rewound, light) = match self.checkpoint {
            Some(checkpoint) => {
                let light =
                    !checkpoint.may_resolve(answer.as_bytes(), self.scanned, self.line_start);
                (Some(checkpoint).filter(|_| !light), light)
            }
            None => (None, false),
        };
        // What was released from the checkpoint on, to tell whether it changed.
        let mut released_tail = String::new();
        let mut released_chips = Vec::new();
        let scan_from = match rewound {
            Some(checkpoint) => {
                released_tail.push_str(
                    self.rewriter
                        .output()
                        .sub(checkpoint.mark.output_len()..self.released),
                );
                released_chips = self
                    .rewriter
                    .chips_since(Some(&checkpoint.mark), self.released);
                self.rewriter.rewind(&checkpoint.mark);
                // Whatever is still open after it sets a checkpoint again as it is written.
                self.checkpoint = None;
                checkpoint.scan
            }
            None => self.resume,
        };
        Redecision {
            rewound,
            light,
            scan_from,
            released_tail,
            released_chips,
        }
    }

    /// Takes note of the text this push brought: where the answer's last line starts
    /// (found in the new text only), and that the answer is scanned to its end.
    fn note_new_text(&mut self, answer: &str) {
        let new_text = &answer.as_bytes()[self.scanned..];
        if let Some(at) = new_text.iter().rposition(|&b| b == b'\n') {
            self.line_start = self.scanned + at + 1;
        }
        self.scanned = answer.len();
    }

    /// The markers from where the scan starts, and what the scan left undecided. After a
    /// scan that went on past a checkpoint it kept, the openers before that scan still
    /// stand: what follows them stays doubtful.
    fn scan<'a>(
        &mut self,
        answer: &'a str,
        redecision: &Redecision,
    ) -> (Vec<Marker<'a>>, Undecided) {
        let mut scan = Markers::open(
            self.validator.parser(),
            answer,
            self.index.ids(),
            redecision.scan_from,
            (&mut self.definitions, self.line_start),
        );
        let markers: Vec<Marker<'_>> = scan.by_ref().collect();
        let mut undecided = scan.undecided();
        if redecision.light {
            if let Some(kept) = self.checkpoint {
                undecided.doubt_from = match (kept.open_from, undecided.doubt_from) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
        (markers, undecided)
    }

    /// Writes the markers before the construct still being written, with their events.
    /// A doubtful marker whose text depends on its being one is held (the release stops
    /// before it) while it is within [`HOLD`] bytes of the end, or in a stream that does
    /// not revise; past that it is released as it reads now, from a checkpoint.
    fn write_markers<'a>(
        &mut self,
        answer: &'a str,
        markers: &[Marker<'a>],
        undecided: &Undecided,
        redecide_from: Resume,
    ) -> Written {
        let sources = self.input.sources.as_slice();
        let options = self.validator.options();
        let lookup = self.index.with(sources);
        // Before releasing past an opener still open, the checkpoint goes there.
        let open_from = undecided.doubt_from.filter(|_| self.revise);
        let mut written = Written {
            boundary: undecided.wait.unwrap_or(answer.len()),
            held_at: None,
            fresh: Vec::new(),
        };
        for marker in markers {
            let start = marker.span.start;
            if start < self.rewriter.position() {
                continue; // released by an earlier push
            }
            if start >= written.boundary {
                break;
            }
            let open = (open_from, start, redecide_from);
            mark_open_region(&mut self.rewriter, &mut self.checkpoint, answer, open);
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
            let after_opener = undecided.doubt_from.is_some_and(|d| start > d);
            if after_opener || label_doubt {
                let changes_text = output_may_change(&fate, options);
                if changes_text && (!self.revise || answer.len() - start <= HOLD) {
                    written.boundary = start;
                    written.held_at = Some(start);
                    break;
                }
                if !changes_text && (after_opener || !self.revise) {
                    // Its text reads the same either way. After an open backtick or tag
                    // the closer usually comes soon and makes it code: no chip that
                    // would flash; a chip sent in a stream that cannot revise could not
                    // be taken back. The report at the end decides it (`finish`).
                    continue;
                }
                // Released as it reads now, chip included (held long enough, or a
                // `[text][N]` whose definition rarely comes); revised if that changes.
                if self.checkpoint.is_none() {
                    self.checkpoint = Some(Checkpoint::at(self.rewriter.mark(), redecide_from));
                }
            }
            let chip = self.rewriter.marker(answer, sources, marker, &fate);
            if let (Some(span), Some(segment)) = (chip, self.rewriter.last_segment()) {
                written.fresh.push((
                    marker.span.end,
                    StreamEvent::Cite {
                        segment: segment.clone(),
                        span,
                        answer_span: marker.span,
                    },
                ));
            }
            written
                .fresh
                .extend(resolved.into_iter().filter_map(|(_, r)| r.err()).map(
                    |(code, message)| {
                        let finding = Finding {
                            code,
                            severity: Severity::Error,
                            message,
                            citation: None,
                            span: Some(marker.span),
                        };
                        (marker.span.end, StreamEvent::Finding(finding))
                    },
                ));
        }
        written
    }

    /// Writes the text up to `boundary`, or up to a space right before it, which goes
    /// with a marker that may be removed.
    fn write_text(
        &mut self,
        answer: &str,
        mut boundary: usize,
        undecided: &Undecided,
        redecide_from: Resume,
    ) {
        if boundary > self.rewriter.position() && answer.as_bytes()[boundary - 1] == b' ' {
            boundary -= 1;
        }
        let open_from = undecided.doubt_from.filter(|_| self.revise);
        let open = (open_from, boundary, redecide_from);
        mark_open_region(&mut self.rewriter, &mut self.checkpoint, answer, open);
        self.rewriter.text_until(answer, boundary);
    }

    /// Where the next push's scan starts: at the marker held (its state, when the scan
    /// went on past a checkpoint it kept), else where this scan must restart or ended.
    /// A stream that cannot revise decides what follows an open opener again.
    fn next_resume(
        &self,
        undecided: &Undecided,
        written: &Written,
        redecision: &Redecision,
        redecide_from: Resume,
    ) -> Resume {
        match written.held_at {
            Some(start) if redecision.light => undecided
                .marker_states
                .iter()
                .find(|(at, _)| *at == start)
                .map_or(redecide_from, |(_, state)| *state),
            Some(_) => redecide_from,
            None if !self.revise => undecided
                .resume
                .into_iter()
                .chain(undecided.doubt_resume)
                .min_by_key(|resume| resume.pos)
                .unwrap_or(self.resume),
            None => undecided.resume.unwrap_or(self.resume),
        }
    }

    /// Records in the checkpoint what could still change what was released since it:
    /// added to what it held when the scan went on past it (`light`), else anew.
    fn note_what_may_revise(&mut self, undecided: &Undecided, light: bool) {
        let Some(kept) = self.checkpoint.as_mut() else {
            return;
        };
        let labels = !undecided.label_doubts.is_empty();
        if light {
            kept.pending |= undecided.pending;
            kept.labels |= labels;
            kept.open_from = match (kept.open_from, undecided.doubt_from) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        } else {
            kept.pending = undecided.pending;
            kept.labels = labels;
            kept.open_from = undecided.doubt_from;
        }
    }

    /// The text to append, and this scan's events not sent before. When the text
    /// released from a checkpoint the push went back to reads differently now, a
    /// revision of it comes first, and the events from the checkpoint on come again.
    fn send(
        &mut self,
        redecision: &Redecision,
        decided_through: usize,
        fresh: Vec<(usize, StreamEvent)>,
        events: &mut Vec<StreamEvent>,
    ) -> String {
        let output = self.rewriter.output();
        let mut text = String::new();
        let mut resent_from = decided_through;
        match redecision.rewound {
            Some(checkpoint)
                if !output
                    .sub(checkpoint.mark.output_len()..)
                    .starts_with(&redecision.released_tail)
                    || self
                        .rewriter
                        .chips_since(Some(&checkpoint.mark), self.released)
                        != redecision.released_chips =>
            {
                let start = checkpoint.mark.output_len();
                events.push(StreamEvent::Revise(Revision {
                    span: Span::new(start, self.released),
                    text: output.sub(start..).to_string(),
                    answer_start: checkpoint.mark.position(),
                }));
                resent_from = checkpoint.mark.position();
            }
            _ => text = output.sub(self.released.min(output.len())..).to_string(),
        }
        events.extend(
            fresh
                .into_iter()
                .filter(|(end, _)| *end > resent_from)
                .map(|(_, event)| event),
        );
        self.released = output.len();
        text
    }
}

/// How a push decides again what was released since a checkpoint
/// ([`CitationStream::rewind`]).
struct Redecision {
    /// The checkpoint the rewriter went back to: everything after it is decided again.
    rewound: Option<Checkpoint>,
    /// A checkpoint stands, but the new text cannot change what was decided after it:
    /// the scan goes on from where the last one stopped.
    light: bool,
    /// Where the scan starts.
    scan_from: Resume,
    /// What was released from the rewound checkpoint on, to tell whether it changed.
    released_tail: String,
    /// Where the chips released from the rewound checkpoint on sit in the output: a
    /// marker that stops (or starts) being one changes no text when its text stays.
    released_chips: Vec<Span>,
}

/// What [`CitationStream::write_markers`] wrote.
struct Written {
    /// Where the release stops: the construct still being written, or a marker held.
    boundary: usize,
    /// The doubtful marker held, where the release stops.
    held_at: Option<usize>,
    /// The events of the markers written, with where each marker ends: a marker ending
    /// past what the last push decided was not written as one then (its start may have
    /// been released as text while it could still be a definition's), so its events are
    /// new.
    fresh: Vec<(usize, StreamEvent)>,
}

/// Where a scan that decides a doubtful marker again must start: the earliest state the
/// scan kept for that (an opener's, a label doubt's, where it must restart), else where
/// it started.
fn redecide_from(undecided: &Undecided, scan_from: Resume) -> Resume {
    [
        undecided.resume,
        undecided.label_resume,
        undecided.doubt_resume,
    ]
    .into_iter()
    .flatten()
    .min_by_key(|resume| resume.pos)
    .unwrap_or(scan_from)
}

/// Whether a marker's text in the cleaned answer depends on its being a marker: it is
/// removed or relabelled, not kept as written.
fn output_may_change(fate: &MarkerFate, options: &Options) -> bool {
    let all_valid = !fate.refs.is_empty() && fate.refs.iter().all(|(_, p)| p.is_some());
    options.policy != Policy::Flag && (options.renumber || !all_valid)
}
