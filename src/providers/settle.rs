//! Placing a provider's offsets in the answer: convert them from the provider's unit,
//! check them against the text the provider says is there, and search near them when
//! the two disagree (an `offset_mismatch` warning).

use crate::model::{Finding, FindingCode, Severity, Span};
use crate::offsets::{OffsetMap, Unit};
use crate::substr::Substr;

/// What the provider says its span holds.
#[derive(Clone, Copy)]
pub enum Expect<'a> {
    /// Exactly this text (Gemini's `segment.text`, Cohere's `text`, an Assistants
    /// marker).
    Text(&'a str),
    /// A markdown link to this URL (`[title](url)`, or `([title](url))` as OpenAI
    /// writes them); failing that, any span containing the URL. A span longer than
    /// [`NEARBY`] holds no link; when the URL is not within [`NEARBY`] of the offsets,
    /// there is nothing to check against.
    Link(&'a str),
    /// Nothing to check against.
    Nothing,
}

/// Bytes on either side of a provider's offsets searched for the text they should hold
/// when they do not hold it: a search of the whole text per citation made n citations
/// of a text of length n cost n². Answers up to this long are searched whole.
pub const NEARBY: usize = 32 * 1024;

/// A provider span placed in the answer.
pub struct Settled {
    /// Bytes of the answer, when the span could be placed.
    pub span: Option<Span>,
    /// Why the offsets were not used as given.
    pub warning: Option<Finding>,
}

/// Places `start..end` of `part` (the piece of the answer that starts at byte `base`;
/// `map` is its [`OffsetMap`], made once for all the citations of the part: one per
/// citation made n citations of a part of length n cost n²). `units` lists the units to
/// try, the documented one first: the first unit whose span holds what `expect` says is
/// taken as is. When none does, the expected text nearest to the offsets (read in the
/// first unit, within [`NEARBY`] bytes of them) is taken instead, with a warning.
pub fn settle(
    (part, map): (&str, &OffsetMap<'_>),
    base: usize,
    (start, end): (usize, usize),
    units: &[Unit],
    expect: Expect<'_>,
) -> Settled {
    let holds = |span: Span, strict: bool| {
        let text = part.sub(span.range());
        match expect {
            Expect::Text(expected) => text == expected,
            Expect::Link(_) if text.len() > NEARBY => false,
            Expect::Link(url) if strict => {
                text.contains(url) && text.starts_with(['[', '(']) && text.ends_with(')')
            }
            Expect::Link(url) => text.contains(url),
            Expect::Nothing => true,
        }
    };
    let in_unit = |unit: Unit| {
        let span = Span::new(map.to_byte(start, unit)?, map.to_byte(end, unit)?);
        (span.start <= span.end).then_some(span)
    };
    let first_holding = |strict: bool| {
        units
            .iter()
            .find_map(|&unit| in_unit(unit).filter(|&s| holds(s, strict)))
    };
    if let Some(span) = first_holding(true).or_else(|| first_holding(false)) {
        return Settled {
            span: Some(shift(span, base)),
            warning: None,
        };
    }
    let needle = match expect {
        Expect::Text(text) | Expect::Link(text) => text,
        Expect::Nothing => "",
    };
    let guess = units
        .first()
        .and_then(|&unit| map.to_byte(start.min(map.len(unit)), unit))
        .unwrap_or(0);
    let found = nearest(part, needle, guess);
    if let (None, Expect::Link(_)) = (found, expect) {
        // The URL is not near the offsets: nothing to check them against.
        if let Some(span) = units.iter().find_map(|&unit| in_unit(unit)) {
            return Settled {
                span: Some(shift(span, base)),
                warning: None,
            };
        }
    }
    let span = found.map(|at| Span::new(at, at + needle.len()));
    // A URL not near the offsets was nothing to check against: they are outside the text.
    let nothing = needle.is_empty() || matches!(expect, Expect::Link(_));
    // The offsets are quoted as the provider gave them; where the text was found is the
    // finding's `span`, which each caller reads in its own unit (UTF-16 in JS), so the
    // message carries no offset of ours.
    let message = match (span, nothing) {
        (Some(_), _) => format!(
            "offsets {start}–{end} do not hold the cited text; it was found nearby, at this \
             finding's span"
        ),
        (None, true) => format!("offsets {start}–{end} are outside the text"),
        (None, false) => format!(
            "offsets {start}–{end} do not hold the cited text, and it is not in the answer \
             within 32 KiB of them"
        ),
    };
    let span = span.map(|s| shift(s, base));
    Settled {
        span,
        warning: Some(Finding {
            code: FindingCode::OffsetMismatch,
            severity: Severity::Warning,
            message,
            citation: None,
            span,
        }),
    }
}

/// The byte offset of the occurrence of `needle` in `text` closest to `near`, of those
/// starting within [`NEARBY`] bytes of it (the nearest of all, when there is one).
/// Occurrences are read from the window's start, without overlaps.
fn nearest(text: &str, needle: &str, near: usize) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let from = ceil_boundary(text, near.saturating_sub(NEARBY));
    let to = ceil_boundary(
        text,
        near.saturating_add(NEARBY).saturating_add(needle.len()),
    );
    text.sub(from..to)
        .match_indices(needle)
        .map(|(at, _)| from + at)
        .filter(|at| at.abs_diff(near) <= NEARBY)
        .min_by_key(|&at| at.abs_diff(near))
}

/// The first character boundary of `text` at or after `at` (its length past the end).
fn ceil_boundary(text: &str, at: usize) -> usize {
    (at..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len())
}

fn shift(span: Span, base: usize) -> Span {
    Span::new(span.start + base, span.end + base)
}
