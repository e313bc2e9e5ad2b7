//! The markdown context that decides where markers cannot be: fenced code, code spans,
//! HTML code/comments, links, definition lines, task boxes and bare URLs.
//!
//! Every function here looks forward from a position and is bounded, or is called at
//! most once per region it skips, so the scanner stays linear in the text length.

/// Longest link destination (`[text](…)`) the scanner reads before giving up.
pub const MAX_DESTINATION: usize = 2048;

/// A fence opener at `pos` (after indentation): its character and length.
pub fn fence_opener(bytes: &[u8], pos: usize) -> Option<(u8, usize)> {
    let ch = *bytes.get(pos)?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = run_length(bytes, pos, ch);
    if len < 3 {
        return None;
    }
    // A backtick fence's info string may not contain a backtick (CommonMark 4.5).
    if ch == b'`' && bytes[pos + len..line_end(bytes, pos)].contains(&b'`') {
        return None;
    }
    Some((ch, len))
}

/// Where the fenced block opened on the line containing `pos` ends: just after its
/// closing fence line, or the end of the text when it is never closed.
pub fn fenced_block_end(bytes: &[u8], pos: usize, fence: (u8, usize)) -> usize {
    let mut line = next_line(bytes, pos);
    while line < bytes.len() {
        let start = skip_line_prefix(bytes, line);
        let len = run_length(bytes, start, fence.0);
        let end = line_end(bytes, line);
        if len >= fence.1
            && bytes[start + len..end]
                .iter()
                .all(|b| b.is_ascii_whitespace())
        {
            return next_line(bytes, line);
        }
        line = next_line(bytes, line);
    }
    bytes.len()
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

/// Skips the list-item markers (`- `, `* `, `+ `, `1. `, `2) `) that open a line's
/// content after [`skip_line_prefix`], with the indentation and `>` between them: a
/// fence or a definition may start a list item (`2. ```python`).
pub fn skip_list_markers(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        let marker = match bytes.get(pos) {
            Some(b'-' | b'*' | b'+') => 1,
            Some(b'0'..=b'9') => {
                let digits = run_while(bytes, pos, |b| b.is_ascii_digit());
                match bytes.get(pos + digits) {
                    Some(b'.' | b')') if digits <= 9 => digits + 1,
                    _ => return pos,
                }
            }
            _ => return pos,
        };
        if !matches!(bytes.get(pos + marker), Some(b' ' | b'\t')) {
            return pos;
        }
        pos = skip_line_prefix(bytes, pos + marker);
    }
}

/// The line's content from `pos` to its end may still become list-item markers as the
/// text grows (`2`, `2.`, `- `): a stream must wait before deciding what the line is.
pub fn may_be_list_markers(bytes: &[u8], pos: usize) -> bool {
    bytes[pos.min(bytes.len())..]
        .iter()
        .all(|b| b"0123456789.)-+* \t>".contains(b))
}

/// The label of a definition line `[label]: …` starting at `pos`, which must be the
/// first non-indentation byte of its line.
pub fn definition_label(bytes: &[u8], pos: usize) -> Option<&[u8]> {
    if bytes.get(pos) != Some(&b'[') {
        return None;
    }
    let close = find_in_line(bytes, pos + 1, b']')?;
    if close == pos + 1 || bytes.get(close + 1) != Some(&b':') {
        return None;
    }
    let label = &bytes[pos + 1..close];
    (!label.contains(&b'[')).then_some(label)
}

/// The scanner reached the end of a text that may still grow before it could decide
/// (streams, [`CitationStream`](crate::stream::CitationStream)).
#[derive(Debug)]
pub struct NeedMore;

/// The end of a task-list box (`- [ ] `, `* [x] `, `1. [X] `) at `pos`, the first
/// non-indentation byte of a line. With `open`, the text may still grow: running out of
/// it before the answer is known is `Err(NeedMore)`.
pub fn task_box_end(bytes: &[u8], pos: usize, open: bool) -> Result<Option<usize>, NeedMore> {
    let byte = |i: usize| match bytes.get(i) {
        Some(&b) => Ok(Some(b)),
        None if open => Err(NeedMore),
        None => Ok(None),
    };
    let mut p = pos;
    match byte(p)? {
        Some(b'-' | b'*' | b'+') => p += 1,
        Some(b'0'..=b'9') => {
            p += run_while(bytes, p, |b| b.is_ascii_digit());
            if !matches!(byte(p)?, Some(b'.' | b')')) {
                return Ok(None);
            }
            p += 1;
        }
        _ => return Ok(None),
    }
    if byte(p)? != Some(b' ') {
        return Ok(None);
    }
    p += run_while(bytes, p, |b| b == b' ');
    let is_box = byte(p)? == Some(b'[')
        && matches!(byte(p + 1)?, Some(b' ' | b'x' | b'X'))
        && byte(p + 2)? == Some(b']')
        && matches!(byte(p + 3)?, None | Some(b' ' | b'\t' | b'\n' | b'\r'));
    Ok(is_box.then_some(p + 3))
}

/// The end of a link destination `(…)` whose `(` is at `pos`, with an optional
/// `"title"`; `None` when it is not one (whitespace inside, no `)`, too long).
pub fn link_destination_end(bytes: &[u8], pos: usize) -> Option<usize> {
    let limit = bytes.len().min(pos + MAX_DESTINATION);
    let mut depth = 0usize;
    let mut p = pos + 1;
    while p < limit {
        match bytes[p] {
            b'\\' if is_escape(bytes, p) => p += 1,
            b'(' => depth += 1,
            b')' if depth == 0 => return Some(p + 1),
            b')' => depth -= 1,
            b' ' => return title_end(bytes, p, limit),
            b'\n' | b'\r' | b'\t' => return None,
            _ => {}
        }
        p += 1;
    }
    None
}

/// After a destination, ` "title")` on the same line (so that every look-ahead of a link
/// ends with its line, which lets a stream settle a link once its line is complete).
fn title_end(bytes: &[u8], pos: usize, limit: usize) -> Option<usize> {
    let p = pos + run_while(bytes, pos, |b| b == b' ');
    let quote = *bytes.get(p)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let close = p
        + 1
        + bytes
            .get(p + 1..limit)?
            .iter()
            .position(|&b| b == quote || b == b'\n')?;
    if bytes[close] != quote {
        return None;
    }
    let q = close + 1 + run_while(bytes, close + 1, |b| b == b' ');
    (bytes.get(q) == Some(&b')')).then_some(q + 1)
}

/// End of a bare URL (GFM autolink): it runs to the next whitespace or `<`, or to a
/// private-use-area citation token (U+E200, never part of a URL).
pub fn url_end(bytes: &[u8], pos: usize) -> usize {
    let mut end = pos;
    while let Some(&b) = bytes.get(end) {
        let token = b == 0xEE && bytes[end..].starts_with("\u{E200}".as_bytes());
        if b.is_ascii_whitespace() || b == b'<' || token {
            break;
        }
        end += 1;
    }
    end
}

/// Where a code span opened by `len` backticks at `pos` closes: the end of the next
/// run of exactly `len` backticks, searched up to the end of the paragraph. `Err`
/// carries where the search stopped, so the caller can remember that no opener of this
/// length before that point will find a closer either.
pub fn code_span_end(bytes: &[u8], pos: usize, len: usize) -> Result<usize, usize> {
    let mut p = pos + len;
    while p < bytes.len() {
        match bytes[p] {
            b'`' => {
                let run = run_length(bytes, p, b'`');
                if run == len {
                    return Ok(p + run);
                }
                p += run;
            }
            b'\n' => {
                let next =
                    p + 1 + run_while(bytes, p + 1, |b| b == b' ' || b == b'\t' || b == b'\r');
                if next >= bytes.len() || bytes[next] == b'\n' {
                    return Err(next);
                }
                p = next;
            }
            _ => p += 1,
        }
    }
    Err(bytes.len())
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

/// The first `target` at or after `pos` on the same line, within `max` bytes.
pub fn find_in_line(bytes: &[u8], pos: usize, target: u8) -> Option<usize> {
    let limit = bytes
        .len()
        .min(pos.saturating_add(super::bracket::MAX_BODY));
    (pos..limit)
        .take_while(|&p| bytes[p] != b'\n')
        .find(|&p| bytes[p] == target)
}

/// Number of consecutive `ch` bytes at `pos`.
pub fn run_length(bytes: &[u8], pos: usize, ch: u8) -> usize {
    run_while(bytes, pos, |b| b == ch)
}

/// Number of consecutive bytes at `pos` satisfying `pred`.
pub fn run_while(bytes: &[u8], pos: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(pos..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| pred(b)).count())
}

/// The position of the `\n` ending the line containing `pos` (or the text's end).
pub fn line_end(bytes: &[u8], pos: usize) -> usize {
    pos + run_while(bytes, pos, |b| b != b'\n')
}

/// The start of the line after the one containing `pos` (or the text's end).
pub fn next_line(bytes: &[u8], pos: usize) -> usize {
    (line_end(bytes, pos) + 1).min(bytes.len())
}

/// The closing `]` of a bracket body starting at `from`: on the same line, within
/// [`MAX_BODY`](super::bracket::MAX_BODY), with no `[` or escape before it.
pub fn find_bracket_close(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from + super::bracket::MAX_BODY);
    let end = from
        + bytes[from.min(limit)..limit]
            .iter()
            .position(|b| matches!(b, b']' | b'[' | b'\n' | b'\\'))?;
    (bytes[end] == b']').then_some(end)
}

/// The `]` closing a link text starting at `from`, counting nested brackets; within
/// [`MAX_BODY`](super::bracket::MAX_BODY) and on one line.
pub fn find_balanced_close(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from + super::bracket::MAX_BODY);
    let mut depth = 0usize;
    let mut p = from;
    while p < limit {
        match bytes[p] {
            b'\\' if is_escape(bytes, p) => p += 1,
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

/// The backslash at `p` escapes the byte after it: only ASCII punctuation can be
/// escaped (CommonMark), so `\` before a line break or a letter stays a backslash and
/// the line ends where it seems to.
pub fn is_escape(bytes: &[u8], p: usize) -> bool {
    bytes.get(p + 1).is_some_and(u8::is_ascii_punctuation)
}

/// A bare URL (`http://`, `https://`, `www.`) starts at `q`, not glued to a word.
pub fn starts_url(bytes: &[u8], q: usize) -> bool {
    let rest = &bytes[q..];
    let scheme = starts_with_ci(rest, b"http://")
        || starts_with_ci(rest, b"https://")
        || rest.starts_with(b"www.");
    scheme && !alnum_before(bytes, q)
}

pub fn alnum_before(bytes: &[u8], p: usize) -> bool {
    p > 0 && bytes[p - 1].is_ascii_alphanumeric()
}

/// Labels of all definition lines `[label]: …` outside fenced code.
pub fn collect_definitions(bytes: &[u8]) -> Vec<&[u8]> {
    let mut labels = Vec::new();
    let mut line = 0;
    while line < bytes.len() {
        let start = skip_list_markers(bytes, skip_line_prefix(bytes, line));
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
