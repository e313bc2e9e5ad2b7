//! The floor every grammar rule stands on: reading bytes and lines. Where a line starts
//! and ends, its block-quote prefix, runs of bytes, ASCII case-insensitive search and
//! backslash escapes. Nothing here knows a markdown construct beyond the line prefix,
//! and nothing here imports from the rest of `parse`.

/// The start of the line holding `pos`.
pub fn line_start(bytes: &[u8], pos: usize) -> usize {
    bytes[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// The position of the `\n` ending the line containing `pos` (or the text's end).
pub fn line_end(bytes: &[u8], pos: usize) -> usize {
    pos + run_while(bytes, pos, |b| b != b'\n')
}

/// The start of the line after the one containing `pos` (or the text's end).
pub fn next_line(bytes: &[u8], pos: usize) -> usize {
    (line_end(bytes, pos) + 1).min(bytes.len())
}

/// How many block quotes deep the line starting at `line` is.
pub fn quote_depth(bytes: &[u8], line: usize) -> usize {
    let mut p = line;
    let mut quotes = 0;
    loop {
        p += run_while(bytes, p, |b| b == b' ' || b == b'\t');
        if bytes.get(p) != Some(&b'>') {
            return quotes;
        }
        quotes += 1;
        p += 1;
    }
}

/// The position after the block-quote markers (`>`, with the indentation around them)
/// that open the line starting at `line`, before the content's own indentation.
pub fn skip_quotes(bytes: &[u8], line: usize) -> usize {
    let mut p = line;
    let mut after = line;
    loop {
        p += run_while(bytes, p, |b| b == b' ' || b == b'\t');
        if bytes.get(p) != Some(&b'>') {
            return after;
        }
        p += 1;
        if bytes.get(p) == Some(&b' ') {
            p += 1;
        }
        after = p;
    }
}

/// Skips indentation and blockquote markers (`> `) at the start of a line.
pub fn skip_line_prefix(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(&b) = bytes.get(pos) {
        match b {
            b' ' | b'\t' | b'>' => pos += 1,
            _ => break,
        }
    }
    pos
}

/// Number of consecutive bytes at `pos` satisfying `pred`.
pub fn run_while(bytes: &[u8], pos: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(pos..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| pred(b)).count())
}

/// Number of consecutive `ch` bytes at `pos`.
pub fn run_length(bytes: &[u8], pos: usize, ch: u8) -> usize {
    run_while(bytes, pos, |b| b == ch)
}

/// Finds `needle` (ASCII, compared case-insensitively) at or after `pos`; returns the
/// position just after it.
pub fn find_ascii_ci(bytes: &[u8], pos: usize, needle: &[u8]) -> Option<usize> {
    let first = needle[0].to_ascii_lowercase();
    let mut p = pos;
    while p + needle.len() <= bytes.len() {
        if bytes[p].to_ascii_lowercase() == first && starts_with_ci(&bytes[p..], needle) {
            return Some(p + needle.len());
        }
        p += 1;
    }
    None
}

/// True when `bytes` starts with `prefix`, ASCII-case-insensitively.
pub fn starts_with_ci(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// The backslash at `p` escapes the byte after it: only ASCII punctuation can be
/// escaped (CommonMark), so `\` before a line break or a letter stays a backslash and
/// the line ends where it seems to.
pub fn is_escape(bytes: &[u8], p: usize) -> bool {
    bytes.get(p + 1).is_some_and(u8::is_ascii_punctuation)
}

/// The byte at `p` is escaped by an odd run of backslashes before it.
pub fn is_escaped(bytes: &[u8], p: usize) -> bool {
    bytes[..p].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// The byte before `p` is an ASCII letter or digit: what starts at `p` is glued to a word.
pub fn alnum_before(bytes: &[u8], p: usize) -> bool {
    p > 0 && bytes[p - 1].is_ascii_alphanumeric()
}

/// How many bytes from `from`, before `limit`, satisfy `pred`.
pub fn run_within(bytes: &[u8], from: usize, limit: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(from..limit.max(from))
        .map_or(0, |s| s.iter().take_while(|&&b| pred(b)).count())
}
