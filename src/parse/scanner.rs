//! The marker scanner: one forward pass over the text as a state machine.
//!
//! The scanner jumps from one interesting byte to the next (`[`, `(`, `` ` ``, `<`, a
//! line break, …), decides there whether a marker starts, an excluded region starts
//! (code, a link, a URL, …) that it then skips as a whole, or neither. Look-ahead is
//! bounded or, for code spans and HTML code, remembered when it fails, so the pass is
//! linear in the text length whatever the input.

use std::collections::HashSet;

use super::Parser;
use super::bracket::{self, MAX_BODY};
use super::markdown::*;
use crate::model::{Marker, MarkerKind, Refs, Span};

/// Bytes at which something may start; everything else is skipped in bulk. `0xE3` and
/// `0xEF` lead `【` (E3 80 90) and `［` (EF BC BB).
const INTERESTING_BYTES: [u8; 9] = [b'\n', b'\\', b'`', b'<', b'[', b'(', b'C', 0xE3, 0xEF];

/// [`INTERESTING_BYTES`] as a lookup table for the byte-at-a-time tail.
static INTERESTING: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < INTERESTING_BYTES.len() {
        table[INTERESTING_BYTES[i] as usize] = true;
        i += 1;
    }
    table
};

/// How far back from a marker candidate the scanner looks for the start of a bare URL.
const MAX_URL_LOOKBACK: usize = 2048;

/// Longest backtick run whose failed closer search is remembered.
const CODE_RUNS: usize = 16;

/// Iterator over the markers of one text, in text order. Created by
/// [`Parser::find_iter`](super::Parser::find_iter).
#[derive(Debug)]
pub struct Markers<'p, 't> {
    parser: &'p Parser,
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    at_line_start: bool,
    /// The ids `[id]` may name; a set only when there are enough to be worth hashing.
    source_ids: &'p [&'p str],
    source_id_set: Option<HashSet<&'p str>>,
    /// Labels of `[label]: …` definition lines, read the first time they matter.
    definitions: Option<Vec<&'t [u8]>>,
    /// `code_fail[n]`: no run of `n` backticks before this position closes a code span.
    code_fail: [usize; CODE_RUNS],
    /// `</code>`, `</pre>`, `-->` no longer occur after the current position.
    no_close_code: bool,
    no_close_pre: bool,
    no_close_comment: bool,
    /// Just after the `]` of a bracket that a reference label `[N]` may follow
    /// (anything but a plain numeric marker, DESIGN.md §3).
    label_may_follow: Option<usize>,
    /// No bare URL covers the positions of the current token before this one.
    url_clear_until: usize,
    /// Next match of each custom pattern at or after `pos` (`None`: no more matches).
    custom: Vec<Option<(usize, usize)>>,
}

impl<'p, 't> Markers<'p, 't> {
    pub(super) fn new(parser: &'p Parser, text: &'t str, source_ids: &'p [&'p str]) -> Self {
        let mut markers = Markers {
            parser,
            text,
            bytes: text.as_bytes(),
            pos: 0,
            at_line_start: true,
            source_ids,
            source_id_set: (source_ids.len() > 8).then(|| source_ids.iter().copied().collect()),
            definitions: None,
            code_fail: [0; CODE_RUNS],
            no_close_code: false,
            no_close_pre: false,
            no_close_comment: false,
            label_may_follow: None,
            url_clear_until: 0,
            custom: vec![None; parser.patterns.len()],
        };
        for i in 0..parser.patterns.len() {
            markers.custom[i] = markers.find_custom(i, 0);
        }
        markers
    }

    fn find_custom(&self, i: usize, from: usize) -> Option<(usize, usize)> {
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
    fn next_custom(&mut self) -> Option<(usize, usize, usize)> {
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

    fn custom_marker(&mut self, start: usize, end: usize, i: usize) -> Marker<'t> {
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

    fn marker(&self, start: usize, end: usize, refs: Refs<'t>, kind: MarkerKind) -> Marker<'t> {
        Marker {
            span: Span::new(start, end),
            refs,
            kind,
            raw: &self.text[start..end],
        }
    }

    fn is_defined(&mut self, label: &[u8]) -> bool {
        let bytes = self.bytes;
        let definitions = self
            .definitions
            .get_or_insert_with(|| collect_definitions(bytes));
        definitions.iter().any(|d| d.eq_ignore_ascii_case(label))
    }

    /// Handles the start of a line: fences, definition lines and task boxes.
    fn line_start(&mut self) {
        self.at_line_start = false;
        self.label_may_follow = None;
        let start = skip_line_prefix(self.bytes, self.pos);
        if let Some(fence) = fence_opener(self.bytes, start) {
            self.pos = fenced_block_end(self.bytes, start, fence);
            self.at_line_start = true;
        } else if definition_label(self.bytes, start).is_some() {
            self.pos = line_end(self.bytes, start);
        } else if let Some(end) = task_box_end(self.bytes, start) {
            self.pos = end;
        } else {
            self.pos = start;
        }
    }

    /// Looks at the interesting byte at `self.pos`; returns a marker or advances.
    fn step(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        match bytes[p] {
            b'\n' => {
                self.pos += 1;
                self.at_line_start = true;
            }
            b'\\' => {
                let escaped = bytes.get(p + 1).is_some_and(u8::is_ascii_punctuation);
                self.pos += if escaped { 2 } else { 1 };
            }
            b'`' => self.code_span(),
            b'<' => self.html(),
            b'C' | b'(' | b'[' | 0xE3 | 0xEF if self.url_covering(p).is_some() => {
                self.pos = url_end(bytes, p);
            }
            b'C' => return self.section(),
            b'(' => return self.parenthetical(),
            b'[' => return self.bracket(),
            0xE3 if bytes[p..].starts_with("【".as_bytes()) => return self.lenticular(),
            0xEF if bytes[p..].starts_with("［".as_bytes()) => return self.fullwidth(),
            _ => self.pos += 1,
        }
        None
    }

    fn code_span(&mut self) {
        let p = self.pos;
        let len = run_length(self.bytes, p, b'`');
        if len < CODE_RUNS && p < self.code_fail[len] {
            self.pos = p + len;
            return;
        }
        match code_span_end(self.bytes, p, len) {
            Ok(end) => self.pos = end,
            Err(stop) => {
                if len < CODE_RUNS {
                    self.code_fail[len] = stop;
                }
                self.pos = p + len;
            }
        }
    }

    fn html(&mut self) {
        let bytes = self.bytes;
        let p = self.pos;
        let rest = &bytes[p..];
        let closed_at = if rest.starts_with(b"<!--") && !self.no_close_comment {
            let end = find_ascii_ci(bytes, p + 4, b"-->");
            self.no_close_comment = end.is_none();
            end
        } else if is_tag(rest, b"<code") && !self.no_close_code {
            let end = find_ascii_ci(bytes, p + 5, b"</code>");
            self.no_close_code = end.is_none();
            end
        } else if is_tag(rest, b"<pre") && !self.no_close_pre {
            let end = find_ascii_ci(bytes, p + 4, b"</pre>");
            self.no_close_pre = end.is_none();
            end
        } else if starts_with_ci(rest, b"<http://") || starts_with_ci(rest, b"<https://") {
            let end = url_end(bytes, p + 1);
            (bytes.get(end) == Some(&b'>')).then_some(end + 1)
        } else {
            None
        };
        self.pos = closed_at.unwrap_or(p + 1);
    }

    /// The end of the bare URL covering `p`, if any (a bracket glued to a URL is part of
    /// it). Looks back from `p` to the start of its whitespace-delimited token, but never
    /// past [`MAX_URL_LOOKBACK`] bytes nor past the last position already known to be
    /// outside a URL, so each byte is looked at a bounded number of times.
    fn url_covering(&mut self, p: usize) -> Option<usize> {
        let bytes = self.bytes;
        let floor = self.url_clear_until.max(p.saturating_sub(MAX_URL_LOOKBACK));
        let mut q = p;
        let mut url_start = None;
        while q > floor {
            let b = bytes[q - 1];
            if b.is_ascii_whitespace() || b == b'<' {
                break;
            }
            q -= 1;
            if (b == b'h' || b == b'H' || b == b'w') && starts_url(bytes, q) {
                url_start = Some(q);
            }
        }
        match url_start {
            Some(start) => Some(url_end(bytes, start)),
            None => {
                self.url_clear_until = p;
                None
            }
        }
    }

    /// `Chapter X, Section N` (spec 000: `Chapter\s+(\w+),\s+Section\s+(\d+)`).
    fn section(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        self.pos += 1;
        if !bytes[p..].starts_with(b"Chapter") || alnum_before(bytes, p) {
            return None;
        }
        let mut q = p + 7;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        let chapter_len = run_while(bytes, q + ws, |b| b.is_ascii_alphanumeric() || b == b'_');
        if ws == 0 || chapter_len == 0 {
            return None;
        }
        let chapter = &self.text[q + ws..q + ws + chapter_len];
        q += ws + chapter_len;
        if bytes.get(q) != Some(&b',') {
            return None;
        }
        q += 1;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        if ws == 0 || !bytes[q + ws..].starts_with(b"Section") {
            return None;
        }
        q += ws + 7;
        let ws = run_while(bytes, q, |b| b.is_ascii_whitespace());
        let digits = run_while(bytes, q + ws, |b| b.is_ascii_digit());
        if ws == 0 || digits == 0 || digits > 9 {
            return None;
        }
        let section = self.text[q + ws..q + ws + digits].parse().ok()?;
        let end = q + ws + digits;
        self.pos = end;
        Some(self.marker(
            p,
            end,
            Refs::Section { chapter, section },
            MarkerKind::Section,
        ))
    }

    /// `(Source 3)`, `(Sources 2, 5)`.
    fn parenthetical(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        self.pos += 1;
        let close = find_in_line(self.bytes, p + 1, b')')?;
        let refs = bracket::parenthetical(&self.text[p + 1..close])?;
        self.pos = close + 1;
        Some(self.marker(p, close + 1, Refs::Numbers(refs), MarkerKind::Parenthetical))
    }

    /// `【1】`, `【3†source】`, `【4:0†source】`.
    fn lenticular(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        let open = "【".len();
        self.pos += open;
        let body_len = self.text[p + open..]
            .find('】')
            .filter(|&n| n <= MAX_BODY)?;
        let (refs, kind) = bracket::lenticular(&self.text[p + open..p + open + body_len])?;
        let end = p + open + body_len + "】".len();
        self.pos = end;
        Some(self.marker(p, end, refs, kind))
    }

    /// `［3］`.
    fn fullwidth(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        let open = "［".len();
        self.pos += open;
        let body_len = self.text[p + open..]
            .find('］')
            .filter(|&n| n <= MAX_BODY)?;
        let refs = bracket::number_list(&self.text[p + open..p + open + body_len])?;
        let end = p + open + body_len + "］".len();
        self.pos = end;
        Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Numeric))
    }

    /// Everything that starts with `[`: markers, links, images, reference labels.
    fn bracket(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        let label_position = self.label_may_follow.take() == Some(p);
        self.pos = p + 1;
        if p > 0 && bytes[p - 1] == b'!' {
            if let Some(end) = self.link_end(p) {
                self.pos = end; // an image: `![alt](src)`
                return None;
            }
        }
        if bytes.get(p + 1) == Some(&b'[') {
            if let Some(marker) = self.nested_link_marker(p) {
                return Some(marker);
            }
        }
        let Some(close) = find_bracket_close(bytes, p + 1) else {
            if let Some(end) = self.link_end(p) {
                self.pos = end; // a link whose text holds brackets: `[a [1] b](url)`
            }
            return None;
        };
        let body = &self.text[p + 1..close];
        let after = close + 1;
        if bytes.get(after) == Some(&b'(') {
            if let Some(end) = link_destination_end(bytes, after) {
                self.pos = end;
                let refs = bracket::number_list(body)?;
                return Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Link));
            }
        }
        let (ids, set) = (self.source_ids, &self.source_id_set);
        let is_source_id = |id: &str| {
            set.as_ref()
                .map_or_else(|| ids.contains(&id), |set| set.contains(id))
        };
        let Some((refs, kind)) = bracket::square(body, &is_source_id) else {
            self.label_may_follow = Some(after);
            return None;
        };
        if label_position && kind == MarkerKind::Numeric && self.is_defined(body.as_bytes()) {
            self.pos = after; // `[text][1]` with a definition `[1]: …`: a link label
            return None;
        }
        if kind != MarkerKind::Numeric {
            self.label_may_follow = Some(after);
        }
        self.pos = after;
        Some(self.marker(p, after, refs, kind))
    }

    /// `[[1]](url)` is one link marker; any other `[[` leaves the outer `[` as text.
    fn nested_link_marker(&mut self, p: usize) -> Option<Marker<'t>> {
        let inner_close = find_bracket_close(self.bytes, p + 2)?;
        let refs = bracket::number_list(&self.text[p + 2..inner_close])?;
        if self.bytes.get(inner_close + 1) != Some(&b']')
            || self.bytes.get(inner_close + 2) != Some(&b'(')
        {
            return None;
        }
        let end = link_destination_end(self.bytes, inner_close + 2)?;
        self.pos = end;
        Some(self.marker(p, end, Refs::Numbers(refs), MarkerKind::Link))
    }

    /// The end of a link or image `[text](dest)` whose `[` is at `p`; the text may hold
    /// balanced brackets.
    fn link_end(&self, p: usize) -> Option<usize> {
        let close = find_balanced_close(self.bytes, p + 1)?;
        if self.bytes.get(close + 1) != Some(&b'(') {
            return None;
        }
        link_destination_end(self.bytes, close + 1)
    }
}

impl<'t> Iterator for Markers<'_, 't> {
    type Item = Marker<'t>;

    fn next(&mut self) -> Option<Marker<'t>> {
        let len = self.bytes.len();
        while self.pos < len {
            if self.at_line_start {
                self.line_start();
                continue;
            }
            let custom = self.next_custom();
            if let Some((start, end, i)) = custom {
                if start == self.pos {
                    if let Some(url_end) = self.url_covering(start) {
                        self.pos = url_end;
                        continue;
                    }
                    return Some(self.custom_marker(start, end, i));
                }
            }
            let stop = custom.map_or(len, |(start, _, _)| start);
            self.pos = skip_plain(self.bytes, self.pos, stop);
            if self.pos < stop {
                if let Some(marker) = self.step() {
                    return Some(marker);
                }
            }
        }
        None
    }
}

/// The first interesting byte in `bytes[from..stop]`, or `stop`. Sixteen bytes per step
/// with plain comparisons that LLVM turns into SIMD (SSE2 natively, simd128 in wasm).
#[inline]
fn skip_plain(bytes: &[u8], from: usize, stop: usize) -> usize {
    let mut pos = from;
    while pos + 16 <= stop {
        let block: &[u8; 16] = match bytes[pos..pos + 16].try_into() {
            Ok(block) => block,
            Err(_) => break,
        };
        if block_has_interesting(block) {
            break;
        }
        pos += 16;
    }
    while pos < stop && !INTERESTING[bytes[pos] as usize] {
        pos += 1;
    }
    pos
}

#[inline]
fn block_has_interesting(block: &[u8; 16]) -> bool {
    let mut any = 0u8;
    for &b in block {
        for &c in &INTERESTING_BYTES {
            any |= u8::from(b == c);
        }
    }
    any != 0
}

/// The closing `]` of a bracket body starting at `from`: on the same line, within
/// [`MAX_BODY`], with no `[` or escape before it.
fn find_bracket_close(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from + MAX_BODY);
    let end = from
        + bytes[from.min(limit)..limit]
            .iter()
            .position(|b| matches!(b, b']' | b'[' | b'\n' | b'\\'))?;
    (bytes[end] == b']').then_some(end)
}

/// The `]` closing a link text starting at `from`, counting nested brackets; within
/// [`MAX_BODY`] and on one line.
fn find_balanced_close(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from + MAX_BODY);
    let mut depth = 0usize;
    let mut p = from;
    while p < limit {
        match bytes[p] {
            b'\\' => p += 1,
            b'[' => depth += 1,
            b']' if depth == 0 => return Some(p),
            b']' => depth -= 1,
            b'\n' => return None,
            _ => {}
        }
        p += 1;
    }
    None
}

/// A bare URL (`http://`, `https://`, `www.`) starts at `q`, not glued to a word.
fn starts_url(bytes: &[u8], q: usize) -> bool {
    let rest = &bytes[q..];
    let scheme = starts_with_ci(rest, b"http://")
        || starts_with_ci(rest, b"https://")
        || rest.starts_with(b"www.");
    scheme && !alnum_before(bytes, q)
}

fn alnum_before(bytes: &[u8], p: usize) -> bool {
    p > 0 && bytes[p - 1].is_ascii_alphanumeric()
}

/// `<tag` followed by `>`, whitespace or `/`.
fn is_tag(rest: &[u8], tag: &[u8]) -> bool {
    starts_with_ci(rest, tag)
        && matches!(
            rest.get(tag.len()),
            Some(b'>' | b' ' | b'\t' | b'\n' | b'/')
        )
}

/// Labels of all definition lines `[label]: …` outside fenced code.
fn collect_definitions(bytes: &[u8]) -> Vec<&[u8]> {
    let mut labels = Vec::new();
    let mut line = 0;
    while line < bytes.len() {
        let start = skip_line_prefix(bytes, line);
        if let Some(fence) = fence_opener(bytes, start) {
            line = fenced_block_end(bytes, start, fence);
            continue;
        }
        if let Some(label) = definition_label(bytes, start) {
            labels.push(label);
        }
        line = next_line(bytes, line);
    }
    labels
}
