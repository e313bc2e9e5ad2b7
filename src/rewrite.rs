//! The cleaned answer and its segments for chips (docs/architecture.md §6).
//!
//! Cleaning keeps the answer byte-exact except for the markers it removes (with the one
//! space before each) or relabels: markdown, newlines, tables and code are untouched.
//! A [`Rewriter`] works front to back, so validation runs it over the whole answer and a
//! stream over each part of the text it releases: both produce the same bytes.

use crate::model::{Marker, MarkerKind, Options, Policy, Refs, Segment, Source, Span};
use crate::substr::Substr;

/// What validation decided about one marker: each ref as written, and the retrieved
/// source (position in `sources`) it resolved to, if any.
#[derive(Default)]
pub(crate) struct MarkerFate {
    /// `(label as written, resolved source position)` per ref.
    pub refs: Vec<(String, Option<usize>)>,
}

/// Writes the cleaned answer front to back: text is copied, markers are kept, relabelled
/// or removed by the policy.
#[derive(Debug)]
pub(crate) struct Rewriter {
    flag: bool,
    renumbering: bool,
    /// New label per source position when renumbering (0: not used yet).
    new_labels: Vec<u32>,
    next_label: u32,
    out: String,
    segments: Vec<Segment>,
    /// Start in `out` of the pending text segment.
    text_start: usize,
    /// End in the answer of what has been written.
    last: usize,
    /// Source positions given a new label, in order (renumbering), so that
    /// [`Rewriter::rewind`] can take them back.
    assigned: Vec<usize>,
}

/// Where a [`Rewriter`] stood, to go back there ([`Rewriter::rewind`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RewriterMark {
    out_len: usize,
    segments_len: usize,
    text_start: usize,
    last: usize,
    assigned_len: usize,
}

impl RewriterMark {
    /// Bytes of output written before the mark.
    pub fn output_len(&self) -> usize {
        self.out_len
    }

    /// How far into the answer the rewriter had written at the mark.
    pub fn position(&self) -> usize {
        self.last
    }
}

impl Rewriter {
    /// A rewriter for answers citing `sources`, with `options.policy` and `renumber`.
    pub fn new(sources: &[Source], options: &Options) -> Rewriter {
        let flag = options.policy == Policy::Flag;
        let renumbering = options.renumber && !flag;
        Rewriter {
            flag,
            renumbering,
            new_labels: if renumbering {
                vec![0; sources.len()]
            } else {
                Vec::new()
            },
            next_label: 1,
            out: String::new(),
            segments: Vec::new(),
            text_start: 0,
            last: 0,
            assigned: Vec::new(),
        }
    }

    /// The state now, to come back to.
    pub fn mark(&self) -> RewriterMark {
        RewriterMark {
            out_len: self.out.len(),
            segments_len: self.segments.len(),
            text_start: self.text_start,
            last: self.last,
            assigned_len: self.assigned.len(),
        }
    }

    /// Goes back to `mark`: what was written since is dropped, new labels given since
    /// are free again.
    pub fn rewind(&mut self, mark: &RewriterMark) {
        self.out.truncate(mark.out_len);
        self.segments.truncate(mark.segments_len);
        self.text_start = mark.text_start;
        self.last = mark.last;
        for p in self.assigned.drain(mark.assigned_len..) {
            self.new_labels[p] = 0;
            self.next_label -= 1;
        }
    }

    /// Where the chips written since `mark` (all of them without one) sit in the output,
    /// those ending by `until`.
    pub fn chips_since(&self, mark: Option<&RewriterMark>, until: usize) -> Vec<Span> {
        // The segments after the mark start where its pending text segment started.
        let (from, at) = mark.map_or((0, 0), |mark| (mark.segments_len, mark.text_start));
        chip_spans(self.segments.get(from..).unwrap_or_default(), at, until)
    }

    /// The cleaned text written so far.
    pub fn output(&self) -> &str {
        &self.out
    }

    /// How far into the answer (bytes) the rewriter has written.
    pub fn position(&self) -> usize {
        self.last
    }

    /// Copies the answer's text up to `end` (no marker may start before it).
    pub fn text_until(&mut self, answer: &str, end: usize) {
        if end > self.last {
            self.out.push_str(answer.sub(self.last..end));
            self.last = end;
        }
    }

    /// Writes the text before `marker` and the marker as `fate` says; returns where the
    /// chip's text sits in the output when the marker is kept (its segment is the last).
    /// `sources` are the ones given to [`Rewriter::new`].
    pub fn marker(
        &mut self,
        answer: &str,
        sources: &[Source],
        marker: &Marker<'_>,
        fate: &MarkerFate,
    ) -> Option<Span> {
        // The positions of the retrieved sources the refs resolved to.
        let kept = || fate.refs.iter().filter_map(|(_, p)| *p);
        let kept_count = kept().count();
        let all_valid = kept_count == fate.refs.len() && !fate.refs.is_empty();
        let keep = self.flag || kept_count > 0;
        let start = marker.span.start.max(self.last);
        let mut before = answer.sub(self.last..start);
        let mut skip_after = 0;
        if !keep {
            if let Some(trimmed) = before.strip_suffix(' ') {
                before = trimmed;
            } else if (start == 0 || answer.sub(..start).ends_with('\n'))
                && answer.sub(marker.span.end..).starts_with(' ')
            {
                skip_after = 1;
            }
        }
        self.out.push_str(before);
        self.last = marker.span.end + skip_after;
        if !keep {
            return None;
        }
        if self.renumbering {
            for p in kept() {
                if self.new_labels[p] == 0 {
                    self.new_labels[p] = self.next_label;
                    self.next_label += 1;
                    self.assigned.push(p);
                }
            }
        }
        let labels: Vec<String> = if self.flag {
            fate.refs.iter().map(|(label, _)| label.clone()).collect()
        } else {
            kept()
                .map(|p| {
                    if self.renumbering {
                        self.new_labels[p]
                    } else {
                        sources[p].label(p)
                    }
                    .to_string()
                })
                .collect()
        };
        let text = if self.flag
            || (all_valid && !self.renumbering)
            || !matches!(marker.refs, Refs::Numbers(_))
        {
            marker.raw.to_string()
        } else {
            relabel(marker, &labels)
        };
        self.close_text_segment();
        let chip = Span::new(self.out.len(), self.out.len() + text.len());
        self.out.push_str(&text);
        self.text_start = self.out.len();
        let first = kept().next().map(|p| (p, &sources[p]));
        self.segments.push(Segment::Cite {
            label: text,
            refs: labels,
            source_index: first.map(|(p, s)| s.label(p)),
            source_positions: if self.flag {
                fate.refs.iter().map(|&(_, p)| p).collect()
            } else {
                kept().map(Some).collect()
            },
            title: first.and_then(|(_, s)| s.title.clone()),
            url: first.and_then(|(_, s)| s.url.clone()),
            valid: all_valid,
        });
        Some(chip)
    }

    /// The last segment written.
    pub fn last_segment(&self) -> Option<&Segment> {
        self.segments.last()
    }

    /// Writes the rest of the answer; returns the cleaned answer and its segments.
    pub fn finish(mut self, answer: &str) -> (String, Vec<Segment>) {
        self.text_until(answer, answer.len());
        self.close_text_segment();
        (self.out, self.segments)
    }

    fn close_text_segment(&mut self) {
        if self.out.len() > self.text_start {
            self.segments.push(Segment::Text {
                text: self.out.sub(self.text_start..).to_string(),
            });
        }
    }
}

/// Where the chips of `segments`, which start at `at` in the output, sit in it: those
/// ending by `until`.
pub(crate) fn chip_spans(segments: &[Segment], mut at: usize, until: usize) -> Vec<Span> {
    let mut chips = Vec::new();
    for segment in segments {
        let len = match segment {
            Segment::Text { text } => text.len(),
            Segment::Cite { label, .. } => {
                if at + label.len() <= until {
                    chips.push(Span::new(at, at + label.len()));
                }
                label.len()
            }
        };
        at += len;
    }
    chips
}

/// Applies the policy to a whole answer: returns the cleaned answer and its segments.
pub(crate) fn rewrite(
    answer: &str,
    markers: &[Marker<'_>],
    fates: &[MarkerFate],
    sources: &[Source],
    options: &Options,
) -> (String, Vec<Segment>) {
    let mut rewriter = Rewriter::new(sources, options);
    for (marker, fate) in markers.iter().zip(fates) {
        rewriter.marker(answer, sources, marker, fate);
    }
    rewriter.finish(answer)
}

/// The marker with its label list replaced by `labels`, keeping its form (`[…]`,
/// `【…†source】`, `[Sources: …]`, `[…](url)`).
fn relabel(marker: &Marker<'_>, labels: &[String]) -> String {
    let raw = marker.raw;
    let limit = match marker.kind {
        // By bytes, not `str::find("](")`, whose Two-Way searcher the core has no other use for.
        MarkerKind::Link => raw
            .as_bytes()
            .windows(2)
            .position(|w| w == b"](")
            .unwrap_or(raw.len()),
        MarkerKind::Cjk => raw.find('†').unwrap_or(raw.len()),
        _ => raw.len(),
    };
    let head = raw.sub(..limit);
    let (Some(first), Some(last)) = (
        head.find(|c: char| c.is_ascii_digit()),
        head.rfind(|c: char| c.is_ascii_digit()),
    ) else {
        return raw.to_string();
    };
    format!(
        "{}{}{}",
        raw.sub(..first),
        labels.join(", "),
        raw.sub(last + 1..)
    )
}
