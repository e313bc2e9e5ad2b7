//! The marker forms the scanner recognises once it stands on their first byte: `[…]`
//! (markers, links, images, reference labels), `【…】`, `［…］`, `(Source N)`,
//! `Chapter X, Section N`, and the user's own patterns.

use super::Markers;
use std::ops::Range;

use crate::model::{Marker, MarkerKind, Refs};
use crate::parse::bracket::{self, MAX_BODY, find_bracket_close, find_in_line};
use crate::parse::bytes::{alnum_before, is_escaped, run_length, run_while};

/// Opens an OpenAI private-use-area citation token.
pub(super) const PRIVATE_USE_START: char = '\u{E200}';
/// Closes it.
const PRIVATE_USE_STOP: char = '\u{E201}';
use crate::parse::html::Read;
use crate::parse::link::{Inner, inline_link_end, link_label_end, link_text_close};
use crate::parse::markdown::NeedMore;
use crate::substr::Substr;

impl<'t> Markers<'_, 't> {
    /// The next match of the caller's patterns at or after `from`; `None` when there
    /// are none, or when an engine's match is empty, starts before `from` or is off the
    /// text's `char` boundaries (its fault, which ends its matches, not the scan).
    #[inline(never)]
    pub(super) fn find_custom(&mut self, from: usize) -> Option<Range<usize>> {
        let found = self.search.as_mut()?.0.next_match(self.text, from)?;
        let sound = from <= found.start
            && found.start < found.end
            && self.text.is_char_boundary(found.start)
            && self.text.is_char_boundary(found.end);
        sound.then_some(found)
    }

    /// The next pending match of the caller's patterns, searched again when the scanner
    /// has passed its start (it started inside code or another excluded region).
    pub(super) fn next_custom(&mut self) -> Option<&Range<usize>> {
        if self
            .custom
            .as_ref()
            .is_some_and(|found| found.start < self.pos)
        {
            self.custom = self.find_custom(self.pos);
        }
        self.custom.as_ref()
    }

    /// The marker of `found`, the last match the patterns gave: its group `refs` gives
    /// its source label(s). Out of line, as [`Markers::find_custom`]: the scanner's loop
    /// stays as small as it was without patterns.
    #[inline(never)]
    pub(super) fn custom_marker(&mut self, found: Range<usize>) -> Marker<'t> {
        let (start, end) = (found.start, found.end);
        let raw = self.text.sub(found);
        let refs_text = self
            .search
            .as_mut()
            .and_then(|search| search.0.refs(self.text))
            .and_then(|refs| self.text.get(refs))
            .unwrap_or(raw)
            .trim();
        let refs = match bracket::number_list(refs_text) {
            Some(numbers) => Refs::Numbers(numbers),
            None => Refs::Ids(vec![refs_text]),
        };
        self.custom = self.find_custom(end);
        self.pos = end;
        self.marker(start, end, refs, MarkerKind::Custom)
    }

    /// `Chapter X, Section N` (spec 000: `Chapter\s+(\w+),\s+Section\s+(\d+)`).
    pub(super) fn section(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        self.pos += 1;
        match self.section_end(p) {
            Ok(Some((chapter, section, end))) => {
                self.pos = end;
                let refs = Refs::Section { chapter, section };
                Some(self.marker(p, end, refs, MarkerKind::Section))
            }
            Ok(None) => None,
            Err(NeedMore) => {
                self.wait(p);
                None
            }
        }
    }

    /// The chapter, section and end of `Chapter X, Section N` at `p`.
    pub(super) fn section_end(&self, p: usize) -> Result<Option<(&'t str, u32, usize)>, NeedMore> {
        let bytes = self.bytes;
        let len = bytes.len();
        // In an open scan, reaching the end of the text before deciding needs more text.
        let more = |q: usize| {
            if self.open && q >= len {
                Err(NeedMore)
            } else {
                Ok(())
            }
        };
        let prefix = |q: usize, word: &[u8]| -> Result<bool, NeedMore> {
            if bytes[q.min(len)..].starts_with(word) {
                return Ok(true);
            }
            let rest = &bytes[q.min(len)..];
            if self.open && rest.len() < word.len() && word.starts_with(rest) {
                return Err(NeedMore);
            }
            Ok(false)
        };
        if !prefix(p, b"Chapter")? || alnum_before(bytes, p) {
            return Ok(None);
        }
        let mut q = p + 7;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        let chapter_len = run_while(bytes, q + ws, |b| b.is_ascii_alphanumeric() || b == b'_');
        more(q + ws + chapter_len)?;
        if ws == 0 || chapter_len == 0 {
            return Ok(None);
        }
        let chapter = self.text.sub(q + ws..q + ws + chapter_len);
        q += ws + chapter_len;
        if bytes.get(q) != Some(&b',') {
            return Ok(None);
        }
        q += 1;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        more(q + ws)?;
        if ws == 0 || !prefix(q + ws, b"Section")? {
            return Ok(None);
        }
        q += ws + 7;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        let digits = run_while(bytes, q + ws, |b| b.is_ascii_digit());
        more(q + ws + digits)?;
        if ws == 0 || digits == 0 || digits > 9 {
            return Ok(None);
        }
        let Ok(section) = self.text.sub(q + ws..q + ws + digits).parse() else {
            return Ok(None);
        };
        Ok(Some((chapter, section, q + ws + digits)))
    }

    /// `(Source 3)`, `(Sources 2, 5)`.
    pub(super) fn parenthetical(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        self.pos += 1;
        let Some(close) = find_in_line(self.bytes, p + 1, b')') else {
            if self.search_open(p + 1, MAX_BODY) {
                self.wait(p);
            }
            return None;
        };
        let refs = bracket::parenthetical(self.text.sub(p + 1..close))?;
        self.pos = close + 1;
        Some(self.marker(p, close + 1, Refs::Numbers(refs), MarkerKind::Parenthetical))
    }

    /// The length of the body of an `opener … close` bracket at `p`, at most [`MAX_BODY`];
    /// `None` (after stopping an open scan that needs more text) when there is none.
    pub(super) fn body_len(&mut self, p: usize, opener: usize, close: char) -> Option<usize> {
        let from = p + opener;
        // Only the first MAX_BODY bytes (plus the closer) are searched, so a run of
        // openers costs linear time.
        let window = floor_char_boundary(self.text, from + MAX_BODY + close.len_utf8());
        let found = self
            .text
            .sub(from..window)
            .find(close)
            .filter(|&n| n <= MAX_BODY);
        if found.is_none() && self.open && from + MAX_BODY + close.len_utf8() > self.bytes.len() {
            self.wait(p);
        }
        found
    }

    /// `【1】`, `【3†source】`, `【4:0†source】`.
    pub(super) fn lenticular(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        let open = "【".len();
        self.pos += open;
        let body_len = self.body_len(p, open, '】')?;
        let (refs, kind) = bracket::lenticular(self.text.sub(p + open..p + open + body_len))?;
        let end = p + open + body_len + "】".len();
        self.pos = end;
        Some(self.marker(p, end, refs, kind))
    }

    /// OpenAI's private-use-area citation token `U+E200 cite U+E202 id … U+E201`.
    pub(super) fn private_use(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        let open = PRIVATE_USE_START.len_utf8();
        self.pos += open;
        let body_len = self.body_len(p, open, PRIVATE_USE_STOP)?;
        let refs = bracket::private_use(self.text.sub(p + open..p + open + body_len))?;
        let end = p + open + body_len + PRIVATE_USE_STOP.len_utf8();
        self.pos = end;
        Some(self.marker(p, end, refs, MarkerKind::PrivateUse))
    }

    /// `［3］`.
    pub(super) fn fullwidth(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        let open = "［".len();
        self.pos += open;
        let body_len = self.body_len(p, open, '］')?;
        let refs = bracket::number_list(self.text.sub(p + open..p + open + body_len))?;
        let end = p + open + body_len + "］".len();
        self.pos = end;
        Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Numeric))
    }

    /// Everything that starts with `[`: markers, links, images, reference labels
    /// (docs/markers.md, "Links").
    pub(super) fn bracket(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        let label_position = self.label_may_follow.take() == Some(p);
        self.pos = p + 1;
        if self.open && p + 1 == bytes.len() {
            self.wait(p);
            return None;
        }
        // `![…]` is an image when a link form follows (else the `!` is text); an escaped
        // `\!` is text.
        let image = p > 0 && bytes[p - 1] == b'!' && !is_escaped(bytes, p - 1);
        if bytes.get(p + 1) == Some(&b'[') && !image {
            match self.nested_link_marker(p) {
                Ok(Some(marker)) => return Some(marker),
                Ok(None) => {}
                Err(NeedMore) => {
                    self.wait(p);
                    return None;
                }
            }
        }
        let mut inner = Inner::default();
        let close = match link_text_close(bytes, p, &mut inner, self.open) {
            Read::End(close) => close,
            Read::Truncated if self.open => {
                self.wait(p);
                return None;
            }
            _ => return None, // no closing bracket: the `[` is text
        };
        let link = if image {
            self.link_after(p, close)
        } else {
            Ok(None)
        };
        match link {
            Ok(Some(end)) => {
                self.skip_region(end); // an image's text is its alt text, never a marker
                return None;
            }
            Ok(None) if image && self.open => {
                // A definition still to come may make it an image (`![9]` with `[9]: …`),
                // and what it holds alt text.
                let end = close + 1 + run_length(bytes, close + 1, b'[');
                self.undecided.label_doubts.push((p, end));
                self.undecided.label_resume.get_or_insert(self.before);
            }
            Ok(None) => {}
            Err(NeedMore) => {
                self.wait(p);
                return None;
            }
        }
        let body = self.text.sub(p + 1..close);
        let plain_text = !body.contains('[');
        if plain_text {
            let ids = &self.source_ids;
            if let Some((refs, kind)) = bracket::square(body, &|id: &str| ids.contains(id)) {
                return self.marker_bracket(p, close, refs, kind, label_position);
            }
        }
        let link = if image {
            None // not an image, so not a link either
        } else {
            match self.link_after(p, close) {
                Ok(link) => link,
                Err(NeedMore) => {
                    self.wait(p);
                    return None;
                }
            }
        };
        let holds_link = match link {
            Some(_) => match self.holds_link(&inner) {
                Ok(holds) => holds,
                Err(NeedMore) => {
                    self.wait(p);
                    return None;
                }
            },
            None => false,
        };
        match link {
            Some(end) if !holds_link => self.skip_region(end),
            // Plain text: nothing inside can be a marker, so it is skipped. A code span
            // or markup inside is scanned, though: its opener may still find a closer
            // past the `]` (a stream keeps that open).
            _ if plain_text && !body.bytes().any(|b| b == b'`' || b == b'<') => {
                self.pos = close + 1;
                self.label_may_follow = Some(close + 1); // `[text][N]`: `[N]` may be a label
            }
            _ => {} // the `[` is text; what it holds is scanned next
        }
        None
    }

    /// A bracket whose body is a marker (`[1]`, `[doc2]`, `[^3]`): a link marker when an
    /// inline destination or a defined non-numeric label follows (`[1](url)`,
    /// `[1][ref]`), a reference label after another bracket when defined, else itself.
    fn marker_bracket(
        &mut self,
        p: usize,
        close: usize,
        refs: Refs<'t>,
        kind: MarkerKind,
        label_position: bool,
    ) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let after = close + 1;
        if self.open && after == bytes.len() {
            self.wait(p); // `(` or `[` may follow
            return None;
        }
        if kind == MarkerKind::Numeric {
            let link = match bytes.get(after) {
                Some(b'(') => inline_link_end(bytes, after),
                Some(b'[') => self.reference_label_after(after, false),
                _ => Read::No,
            };
            match link {
                Read::End(end) => {
                    self.skip_region(end);
                    return Some(self.marker(p, end, refs, MarkerKind::Link));
                }
                Read::Truncated if self.open => {
                    self.wait(p);
                    return None;
                }
                _ => {}
            }
            if self.open && bytes.get(after) == Some(&b'[') {
                // `[1][doc1]` with `doc1` not defined yet: a definition still to come
                // makes the two one link marker, so this one is doubtful as well as the
                // label (which the doubt of the label alone, starting after it, missed).
                if let Read::End(end) = link_label_end(bytes, after) {
                    if bracket::number_list(self.text.sub(after + 1..end - 1)).is_none() {
                        self.undecided.label_doubts.push((p, end));
                        self.undecided.label_resume.get_or_insert(self.before);
                    }
                }
            }
            let body = self.text.sub(p + 1..close);
            if label_position && self.is_defined(body, true) {
                self.pos = after; // `[text][1]` with a definition `[1]: …`: a link label
                return None;
            }
            if label_position && self.open {
                self.undecided.label_doubts.push((p, after));
                self.undecided.label_resume.get_or_insert(self.before);
            }
        } else {
            self.label_may_follow = Some(after);
        }
        self.pos = after;
        Some(self.marker(p, after, refs, kind))
    }

    /// The end of the link whose text is `[p..=close]`, if one follows: an inline
    /// `(destination "title")`, a full `[label]` or collapsed `[]` reference, or a
    /// shortcut whose text is a defined label.
    fn link_after(&mut self, p: usize, close: usize) -> Result<Option<usize>, NeedMore> {
        let bytes = self.bytes;
        let after = close + 1;
        if self.open && after == bytes.len() {
            return Err(NeedMore);
        }
        if bytes.get(after) == Some(&b'(') {
            match inline_link_end(bytes, after) {
                Read::End(end) => return Ok(Some(end)),
                Read::Truncated if self.open => return Err(NeedMore),
                _ => {}
            }
        }
        let text = self.text.sub(p + 1..close);
        let plain_text = !text.contains('[');
        if bytes.get(after) == Some(&b'[') {
            return match self.reference_label_after(after, plain_text) {
                Read::End(end) if end > after + 2 || self.is_defined(text, false) => Ok(Some(end)),
                Read::End(_) => Ok(None), // `[text][]` with `text` not defined
                Read::Truncated if self.open => Err(NeedMore),
                _ => {
                    if self.open && !plain_text {
                        // A definition still to come may make the text a link's.
                        let end = after + run_length(bytes, after, b'[');
                        self.undecided.label_doubts.push((p, end));
                        self.undecided.label_resume.get_or_insert(self.before);
                    }
                    Ok(None)
                }
            };
        }
        Ok((plain_text && self.is_defined(text, false)).then_some(after))
    }

    /// A reference label `[label]` at `at` after a link text: its end when the label is
    /// defined and not a number; `[]` counts when `collapsed` (the text itself is then
    /// the label, which the caller checks).
    fn reference_label_after(&mut self, at: usize, collapsed: bool) -> Read {
        if self.bytes.get(at + 1) == Some(&b']') {
            return if collapsed {
                Read::End(at + 2)
            } else {
                Read::No
            };
        }
        match link_label_end(self.bytes, at) {
            Read::End(end) => {
                let label = self.text.sub(at + 1..end - 1);
                let numeric = bracket::number_list(label).is_some();
                if !numeric && self.is_defined(label, false) {
                    Read::End(end)
                } else {
                    Read::No
                }
            }
            other => other,
        }
    }

    /// Whether an inner bracket pair of a link text is itself a link, which makes the
    /// outer one text (CommonMark: links do not nest; images may hold links). `Err` in
    /// an open scan when an inner link still needs text to be decided.
    fn holds_link(&mut self, inner: &Inner) -> Result<bool, NeedMore> {
        let bytes = self.bytes;
        for &(open, close) in &inner.pairs {
            let after = close + 1;
            let read = match bytes.get(after) {
                Some(b'(') => inline_link_end(bytes, after),
                Some(b'[') => self.reference_label_after(after, false),
                _ => {
                    let text = self.text.sub(open + 1..close);
                    let shortcut = !text.contains('[')
                        && bracket::number_list(text).is_none()
                        && self.is_defined(text, false);
                    if shortcut {
                        return Ok(true);
                    }
                    continue;
                }
            };
            match read {
                Read::End(_) => return Ok(true),
                Read::Truncated if self.open => return Err(NeedMore),
                _ => {}
            }
        }
        Ok(false)
    }

    /// `[[1]](url)` is one link marker; any other `[[` leaves the outer `[` as text.
    pub(super) fn nested_link_marker(&mut self, p: usize) -> Result<Option<Marker<'t>>, NeedMore> {
        let bytes = self.bytes;
        let Some(inner_close) = find_bracket_close(bytes, p + 2) else {
            return self.need_more_if(self.search_open(p + 2, MAX_BODY));
        };
        let Some(refs) = bracket::number_list(self.text.sub(p + 2..inner_close)) else {
            return Ok(None);
        };
        for (at, expected) in [(inner_close + 1, b']'), (inner_close + 2, b'(')] {
            match bytes.get(at) {
                None => return self.need_more_if(self.open),
                Some(&b) if b != expected => return Ok(None),
                Some(_) => {}
            }
        }
        let end = match inline_link_end(bytes, inner_close + 2) {
            Read::End(end) => end,
            Read::Truncated => return self.need_more_if(self.open),
            Read::No => return Ok(None),
        };
        self.skip_region(end);
        Ok(Some(self.marker(
            p,
            end,
            Refs::Numbers(refs),
            MarkerKind::Link,
        )))
    }

    pub(super) fn need_more_if<T>(&self, need: bool) -> Result<Option<T>, NeedMore> {
        if need { Err(NeedMore) } else { Ok(None) }
    }
}

/// The largest char boundary of `text` at or before `at` (`text.len()` past its end).
fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}
