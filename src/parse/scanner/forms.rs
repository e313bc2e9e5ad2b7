//! The marker forms the scanner recognises once it stands on their first byte: `[…]`
//! (markers, links, images, reference labels), `【…】`, `［…］`, `(Source N)`,
//! `Chapter X, Section N`, and the user's own patterns.

use super::Markers;
use crate::model::{Marker, MarkerKind, Refs};
use crate::parse::bracket::{self, MAX_BODY};

/// Opens an OpenAI private-use-area citation token.
pub(super) const PRIVATE_USE_START: char = '\u{E200}';
/// Closes it.
const PRIVATE_USE_STOP: char = '\u{E201}';
use crate::parse::markdown::*;

impl<'t> Markers<'_, 't> {
    pub(super) fn find_custom(&self, i: usize, from: usize) -> Option<(usize, usize)> {
        let mut at = from;
        while at <= self.text.len() {
            let m = self.parser.patterns[i].find_at(self.text, at)?;
            if m.end() > m.start() {
                return Some((m.start(), m.end()));
            }
            at = m.end()
                + self.text[m.end()..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
        }
        None
    }

    /// The earliest pending custom match, re-searching patterns whose match the scanner
    /// has skipped past (it started inside code or another excluded region).
    pub(super) fn next_custom(&mut self) -> Option<(usize, usize, usize)> {
        let mut best: Option<(usize, usize, usize)> = None;
        for i in 0..self.custom.len() {
            if let Some((start, _)) = self.custom[i] {
                if start < self.pos {
                    self.custom[i] = self.find_custom(i, self.pos);
                }
            }
            if let Some((start, end)) = self.custom[i] {
                if best.is_none_or(|(s, _, _)| start < s) {
                    best = Some((start, end, i));
                }
            }
        }
        best
    }

    pub(super) fn custom_marker(&mut self, start: usize, end: usize, i: usize) -> Marker<'t> {
        let raw = &self.text[start..end];
        let refs_text = self.parser.patterns[i]
            .captures(raw)
            .and_then(|c| c.name("refs"))
            .map_or(raw, |m| m.as_str())
            .trim();
        let refs = match bracket::number_list(refs_text) {
            Some(numbers) => Refs::Numbers(numbers),
            None => Refs::Ids(vec![refs_text]),
        };
        self.custom[i] = self.find_custom(i, end);
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
        let chapter = &self.text[q + ws..q + ws + chapter_len];
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
        let Ok(section) = self.text[q + ws..q + ws + digits].parse() else {
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
        let refs = bracket::parenthetical(&self.text[p + 1..close])?;
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
        let found = self.text[from..window]
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
        let (refs, kind) = bracket::lenticular(&self.text[p + open..p + open + body_len])?;
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
        let refs = bracket::private_use(&self.text[p + open..p + open + body_len])?;
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
        let refs = bracket::number_list(&self.text[p + open..p + open + body_len])?;
        let end = p + open + body_len + "］".len();
        self.pos = end;
        Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Numeric))
    }

    /// Everything that starts with `[`: markers, links, images, reference labels.
    pub(super) fn bracket(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        let label_position = self.label_may_follow.take() == Some(p);
        self.pos = p + 1;
        if self.open && p + 1 == bytes.len() {
            self.wait(p);
            return None;
        }
        if p > 0 && bytes[p - 1] == b'!' {
            match self.link_end(p) {
                Ok(Some(end)) => {
                    self.skip_region(end); // an image: `![alt](src)`
                    return None;
                }
                Ok(None) => {}
                Err(NeedMore) => {
                    self.wait(p);
                    return None;
                }
            }
        }
        if bytes.get(p + 1) == Some(&b'[') {
            match self.nested_link_marker(p) {
                Ok(Some(marker)) => return Some(marker),
                Ok(None) => {}
                Err(NeedMore) => {
                    self.wait(p);
                    return None;
                }
            }
        }
        let Some(close) = find_bracket_close(bytes, p + 1) else {
            match self.link_end(p) {
                Ok(Some(end)) => self.skip_region(end), // a link whose text holds brackets: `[a [1] b](url)`
                Ok(None) => {}
                Err(NeedMore) => self.wait(p),
            }
            return None;
        };
        let body = &self.text[p + 1..close];
        let after = close + 1;
        match bytes.get(after) {
            None if self.open => {
                self.wait(p); // `(` may follow
                return None;
            }
            Some(b'(') => match link_destination_end(bytes, after) {
                Some(end) => {
                    self.skip_region(end);
                    let refs = bracket::number_list(body)?;
                    return Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Link));
                }
                None if self.search_open(after + 1, MAX_DESTINATION) => {
                    self.wait(p);
                    return None;
                }
                None => {}
            },
            _ => {}
        }
        let ids = &self.source_ids;
        let is_source_id = |id: &str| ids.contains(id);
        let Some((refs, kind)) = bracket::square(body, &is_source_id) else {
            self.label_may_follow = Some(after);
            return None;
        };
        if label_position && kind == MarkerKind::Numeric {
            if self.is_defined(body.as_bytes()) {
                self.pos = after; // `[text][1]` with a definition `[1]: …`: a link label
                return None;
            }
            if self.open {
                self.undecided.label_doubts.push(p);
            }
        }
        if kind != MarkerKind::Numeric {
            self.label_may_follow = Some(after);
        }
        self.pos = after;
        Some(self.marker(p, after, refs, kind))
    }

    /// `[[1]](url)` is one link marker; any other `[[` leaves the outer `[` as text.
    pub(super) fn nested_link_marker(&mut self, p: usize) -> Result<Option<Marker<'t>>, NeedMore> {
        let bytes = self.bytes;
        let Some(inner_close) = find_bracket_close(bytes, p + 2) else {
            return self.need_more_if(self.search_open(p + 2, MAX_BODY));
        };
        let Some(refs) = bracket::number_list(&self.text[p + 2..inner_close]) else {
            return Ok(None);
        };
        for (at, expected) in [(inner_close + 1, b']'), (inner_close + 2, b'(')] {
            match bytes.get(at) {
                None => return self.need_more_if(self.open),
                Some(&b) if b != expected => return Ok(None),
                Some(_) => {}
            }
        }
        let Some(end) = link_destination_end(bytes, inner_close + 2) else {
            return self.need_more_if(self.search_open(inner_close + 3, MAX_DESTINATION));
        };
        self.skip_region(end);
        Ok(Some(self.marker(
            p,
            end,
            Refs::Numbers(refs),
            MarkerKind::Link,
        )))
    }

    /// The end of a link or image `[text](dest)` whose `[` is at `p`; the text may hold
    /// balanced brackets.
    pub(super) fn link_end(&self, p: usize) -> Result<Option<usize>, NeedMore> {
        let bytes = self.bytes;
        let Some(close) = find_balanced_close(bytes, p + 1) else {
            return self.need_more_if(self.search_open(p + 1, MAX_BODY));
        };
        match bytes.get(close + 1) {
            None => self.need_more_if(self.open),
            Some(b'(') => match link_destination_end(bytes, close + 1) {
                Some(end) => Ok(Some(end)),
                None => self.need_more_if(self.search_open(close + 2, MAX_DESTINATION)),
            },
            Some(_) => Ok(None),
        }
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
