//! The markdown context that decides where markers cannot be: fenced code, code spans,
//! HTML code/comments, links, definition lines, task boxes and bare URLs.
//!
//! Every function here looks forward from a position and is bounded, or is called at
//! most once per region it skips, so the scanner stays linear in the text length.

use super::bracket::find_in_line;
use super::bytes::{
    alnum_before, line_end, line_start, next_line, quote_depth, run_length, run_while,
    skip_line_prefix, skip_quotes, starts_with_ci,
};
use super::html_start::interrupting_html_block;

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

/// What ends a fenced code block: a closing fence, or a line that leaves its container.
/// Kept by a stream whose text ended inside the block, to look for the end from the
/// last line on once more text comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenceRule {
    /// The fence character and the opening run's length.
    fence: (u8, usize),
    /// The opener line's block-quote depth.
    depth: usize,
    /// For a fence in a list item, the item's content column.
    item_indent: Option<usize>,
}

impl FenceRule {
    /// The rule of the fence opened at `fence_at` (its first byte). `enclosing_item` is
    /// the content column of the list item the opener's line continues (0: none).
    pub fn of(bytes: &[u8], fence_at: usize, fence: (u8, usize), enclosing_item: usize) -> Self {
        let opener_line = line_start(bytes, fence_at);
        let after_quotes = skip_quotes(bytes, opener_line);
        let on_item_line = skip_line_prefix(bytes, opener_line) != fence_at;
        let item_indent = if on_item_line {
            Some(fence_at - after_quotes)
        } else {
            (enclosing_item > 0 && fence_at - after_quotes >= enclosing_item)
                .then_some(enclosing_item)
        };
        FenceRule {
            fence,
            depth: quote_depth(bytes, opener_line),
            item_indent,
        }
    }

    /// Where the block ends, looking from the line starting at `line` (a line of its
    /// content) on: after its closing fence line, or before the first line that leaves
    /// its container (fewer `>` than the opener's line, or, for a fence in a list item, a
    /// non-blank line indented less than the item's content). `None`: the block runs to
    /// the end of the text.
    pub fn end_from(&self, bytes: &[u8], mut line: usize) -> Option<FenceEnd> {
        while line < bytes.len() {
            let end = line_end(bytes, line);
            let content = skip_quotes(bytes, line);
            let blank = bytes[content..end].iter().all(u8::is_ascii_whitespace);
            let indent = run_while(bytes, content, |b| b == b' ' || b == b'\t');
            let leaves_item = self.item_indent.is_some_and(|w| !blank && indent < w);
            if quote_depth(bytes, line) < self.depth || leaves_item {
                return Some(FenceEnd::Leaves(line));
            }
            let start = content + indent;
            let len = run_length(bytes, start, self.fence.0);
            if len >= self.fence.1 && bytes[start + len..end].iter().all(u8::is_ascii_whitespace) {
                return Some(FenceEnd::Closes(line));
            }
            line = next_line(bytes, line);
        }
        None
    }

    /// On an unfinished last line starting at `line`, which [`end_from`](Self::end_from)
    /// finds leaving the block's container: whether it leaves for good. It does once it
    /// holds anything but quote markers and whitespace, which fixes its quote depth, its
    /// indentation and that it is not blank: a run of the fence character at column 0
    /// after a fence in a list item (`- ```` then `` ` ``), which [`open_line`](Self::open_line)
    /// calls open, can no longer close the block, and is the start of whatever follows it.
    pub fn leaves_for_good(&self, bytes: &[u8], line: usize) -> bool {
        let content = skip_quotes(bytes, line);
        bytes[content..].iter().any(|b| !b.is_ascii_whitespace())
    }

    /// On an unfinished last line starting at `line`: whether what it is to the block
    /// may still change as it grows. So far it holds only quote markers and whitespace,
    /// or a run of the fence character and whitespace: it may yet close the block, leave
    /// its container, or be code.
    pub fn open_line(&self, bytes: &[u8], line: usize) -> bool {
        let content = skip_quotes(bytes, line);
        let start = content + run_while(bytes, content, |b| b == b' ' || b == b'\t');
        let run = run_length(bytes, start, self.fence.0);
        bytes[start + run..].iter().all(u8::is_ascii_whitespace)
    }
}

/// The line where a fenced code block ends ([`FenceRule::end_from`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenceEnd {
    /// This line leaves the block's container: the block ends before it.
    Leaves(usize),
    /// This line is the closing fence: the block ends after it.
    Closes(usize),
}

impl FenceEnd {
    /// The line that ends the block.
    pub fn line(self) -> usize {
        match self {
            FenceEnd::Leaves(line) | FenceEnd::Closes(line) => line,
        }
    }

    /// Where what follows the block starts.
    pub fn after(self, bytes: &[u8]) -> usize {
        match self {
            FenceEnd::Leaves(line) => line,
            FenceEnd::Closes(line) => next_line(bytes, line),
        }
    }
}

/// Skips the list-item markers (`- `, `* `, `+ `, `1. `, `2) `) that open a line's
/// content after [`skip_line_prefix`], with the indentation and `>` between them: a
/// fence or a definition may start a list item (`2. ```python`).
pub fn skip_list_markers(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(marker) = list_marker_width(bytes, pos) {
        if !matches!(bytes.get(pos + marker), Some(b' ' | b'\t')) {
            return pos;
        }
        pos = skip_line_prefix(bytes, pos + marker);
    }
    pos
}

/// The width of a list-item marker at `pos` (`-`, `*`, `+`, `1.`, `12)`), if one is there.
fn list_marker_width(bytes: &[u8], pos: usize) -> Option<usize> {
    match bytes.get(pos)? {
        b'-' | b'*' | b'+' => Some(1),
        b'0'..=b'9' => {
            let digits = run_while(bytes, pos, |b| b.is_ascii_digit());
            let delimited = matches!(bytes.get(pos + digits), Some(b'.' | b')'));
            (delimited && digits <= 9).then_some(digits + 1)
        }
        _ => None,
    }
}

/// The content column a list item opened on the line starting at `line` gives its
/// continuation lines (after block quotes): after the markers and their space, or the
/// marker's width plus one for an empty item (`-` alone). `None`: no list item.
pub fn list_item_indent(bytes: &[u8], line: usize) -> Option<usize> {
    let after_quotes = skip_quotes(bytes, line);
    let start = after_quotes + run_while(bytes, after_quotes, |b| b == b' ' || b == b'\t');
    let content = skip_list_markers(bytes, start);
    if content > start {
        return Some(content - after_quotes);
    }
    let marker = list_marker_width(bytes, start)?;
    let empty = matches!(bytes.get(start + marker), None | Some(b'\n' | b'\r'));
    empty.then_some(start + marker + 1 - after_quotes)
}

/// The line's content from `pos` to its end may still become list-item markers as the
/// text grows (`2`, `2.`, `- `, `> 1) `): a stream must wait before deciding what the
/// line is. Only a prefix of markers and quotes counts: `--` or `1.5` never becomes one,
/// so a long line of them is not waited on (and read again) at every push.
pub fn may_be_list_markers(bytes: &[u8], pos: usize) -> bool {
    list_markers_open(bytes, pos).is_some()
}

/// [`may_be_list_markers`], telling also where to ask again: `Some(at)` when the line
/// from `pos` may still become list-item markers, `at` being where the last marker (or
/// quote, or space) read starts. Everything before it is complete markers, so the same
/// question asked from `at` of the grown text gets the answer asked from `pos` would: a
/// stream asks from there at its next push, and a long line of markers (`* * * …`,
/// `> > …`) is read once, not again at every push.
pub fn list_markers_open(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut i = pos.min(bytes.len());
    loop {
        let at = i;
        i += run_while(bytes, i, |b| b == b' ' || b == b'\t');
        let marker = match bytes.get(i) {
            None => return Some(at),
            Some(b'>') => {
                i += 1;
                continue;
            }
            Some(b'-' | b'+' | b'*') => 1,
            Some(b'0'..=b'9') => {
                let digits = run_while(bytes, i, |b| b.is_ascii_digit());
                match bytes.get(i + digits) {
                    None => return (digits < 10).then_some(at),
                    Some(b'.' | b')') if digits < 10 => digits + 1,
                    Some(_) => return None,
                }
            }
            Some(_) => return None,
        };
        // A marker is one when a space (or the line's end) follows it.
        match bytes.get(i + marker) {
            None => return Some(at),
            Some(b' ' | b'\t') => i += marker,
            Some(_) => return None,
        }
    }
}

/// The line whose content starts at `p` is an ATX heading (`## Title`) or a thematic
/// break (`---`, `* * *`): a one-line block after which no paragraph continues.
pub fn is_heading_or_break(bytes: &[u8], p: usize) -> bool {
    // Most lines start with a word: decide those without finding the line's end.
    if !matches!(bytes.get(p), Some(b'#' | b'-' | b'*' | b'_')) {
        return false;
    }
    let line = &bytes[p..line_end(bytes, p)];
    let hashes = line.iter().take_while(|&&b| b == b'#').count();
    if (1..=6).contains(&hashes) && matches!(line.get(hashes), None | Some(b' ' | b'\t' | b'\r')) {
        return true;
    }
    let Some(&mark @ (b'-' | b'*' | b'_')) = line.first() else {
        return false;
    };
    let marks = line.iter().filter(|&&b| b == mark).count();
    marks >= 3
        && line
            .iter()
            .all(|&b| b == mark || matches!(b, b' ' | b'\t' | b'\r'))
}

/// The line whose content starts at `p` runs to the end of a text that may still grow,
/// and whether it is a heading or thematic break ([`is_heading_or_break`]) may change
/// with the bytes to come: marks so far (`___`, `- -`, `**\r`, `__`), or `#` to `######`
/// (`# ` makes a heading, `#x` or a seventh `#` paragraph text).
pub fn heading_or_break_open(bytes: &[u8], p: usize) -> bool {
    let rest = &bytes[p..];
    match rest.first() {
        Some(&mark @ (b'-' | b'*' | b'_')) => rest
            .iter()
            .all(|&b| b == mark || matches!(b, b' ' | b'\t' | b'\r')),
        Some(b'#') => rest.len() <= 6 && rest.iter().all(|&b| b == b'#'),
        _ => false,
    }
}

/// Where the label of a definition line `[label]: …` starting at `pos` lies (between
/// its brackets); `pos` must be the first non-indentation byte of its line.
pub fn definition_label(bytes: &[u8], pos: usize) -> Option<std::ops::Range<usize>> {
    if bytes.get(pos) != Some(&b'[') {
        return None;
    }
    let close = find_in_line(bytes, pos + 1, b']')?;
    if close == pos + 1 || bytes.get(close + 1) != Some(&b':') {
        return None;
    }
    let label = pos + 1..close;
    (!bytes[label.clone()].contains(&b'[')).then_some(label)
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

/// End of a bare URL starting at `pos` (GFM extended autolink): its host runs over
/// letters, digits, `.`, `-` and `_` (and non-ASCII letters); a path, query or port after
/// it runs to the next whitespace or `<`, or to a private-use-area citation token
/// (U+E200, never part of a URL). A bracket inside the host ends the URL there.
pub fn url_end(bytes: &[u8], pos: usize) -> usize {
    let rest = &bytes[pos..];
    let scheme = [&b"https://"[..], b"http://"]
        .into_iter()
        .find(|scheme| starts_with_ci(rest, scheme))
        .map_or(0, <[u8]>::len);
    let host_end = pos
        + scheme
        + run_while(bytes, pos + scheme, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_') || (b >= 0x80 && b != 0xEE)
        });
    if !matches!(bytes.get(host_end), Some(b'/' | b'?' | b'#' | b':')) {
        return host_end;
    }
    let mut end = host_end;
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
/// length before that point will find a closer either. With `growing` (a text that may
/// still grow), `Ok` at the text's end means the answer needs more text.
pub fn code_span_end(bytes: &[u8], pos: usize, len: usize, growing: bool) -> Result<usize, usize> {
    let mut depth = None; // of the opener's line, read at the first line break
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
                let depth =
                    *depth.get_or_insert_with(|| quote_depth(bytes, line_start(bytes, pos)));
                match paragraph_goes_on(bytes, p + 1, depth, growing) {
                    Some(true) => p += 1,
                    Some(false) => return Err(p + 1),
                    // The last line may still open a block that ends the paragraph: a
                    // closer on it decides nothing yet (`Ok` at the end: wait), and
                    // without one the span is open.
                    None if bytes[p + 1..].contains(&b'`') => return Ok(bytes.len()),
                    None => return Err(bytes.len()),
                }
            }
            _ => p += 1,
        }
    }
    Err(bytes.len())
}

/// Whether the paragraph holding `pos` goes on through `to`: `Err(Some(line))` names the
/// start of the line that ends it first, `Err(None)` says the last line of a growing text
/// may still end it. Inline constructs end with their paragraph.
pub fn paragraph_through(
    bytes: &[u8],
    pos: usize,
    to: usize,
    growing: bool,
) -> Result<(), Option<usize>> {
    let mut depth = None; // of the line holding `pos`, read at the first line break
    let mut p = pos;
    while let Some(at) = bytes[p..to].iter().position(|&b| b == b'\n') {
        let line = p + at + 1;
        let depth = *depth.get_or_insert_with(|| quote_depth(bytes, line_start(bytes, pos)));
        match paragraph_goes_on(bytes, line, depth, growing) {
            Some(true) => p = line,
            Some(false) => return Err(Some(line)),
            None => return Err(None),
        }
    }
    Ok(())
}

/// Whether the paragraph whose lines sit `depth` block quotes deep goes on at the line
/// starting at `line`: not when that line is blank or opens a block that interrupts a
/// paragraph (a setext underline, a thematic break, a heading, a fence, a deeper block
/// quote, a list item, an HTML block of conditions 1–6). Inline constructs (code spans,
/// link texts, tags) end with their paragraph. `None`: the line is the last of a text
/// that may still grow and could still become such a block.
pub fn paragraph_goes_on(bytes: &[u8], line: usize, depth: usize, growing: bool) -> Option<bool> {
    let end = line_end(bytes, line);
    if growing && end == bytes.len() {
        return None;
    }
    let mut p = line;
    let mut quotes = 0;
    loop {
        p += run_while(bytes, p, |b| b == b' ' || b == b'\t');
        if bytes.get(p) != Some(&b'>') {
            break;
        }
        quotes += 1;
        p += 1;
    }
    let content = &bytes[p..end];
    let blank = content.iter().all(|&b| b == b'\r');
    if blank || quotes > depth {
        return Some(false);
    }
    if p - line >= 4 && quotes == 0 {
        return Some(true); // indented: continuation text
    }
    let first = content[0];
    let underline = matches!(first, b'=' | b'-')
        && content
            .iter()
            .skip_while(|&&b| b == first)
            .all(|&b| matches!(b, b' ' | b'\t' | b'\r'));
    let list_item = match first {
        b'-' | b'+' | b'*' => matches!(content.get(1), Some(b' ' | b'\t')),
        b'1' => {
            matches!(content.get(1), Some(b'.' | b')'))
                && matches!(content.get(2), Some(b' ' | b'\t'))
        }
        _ => false,
    };
    let list_item = list_item && content.iter().skip(2).any(|b| !b.is_ascii_whitespace());
    let interrupts = underline
        || list_item
        || is_heading_or_break(bytes, p)
        || fence_opener(bytes, p).is_some()
        || interrupting_html_block(content).is_some();
    Some(!interrupts)
}

/// A bare URL (`http://`, `https://`, `www.`) starts at `q`, not glued to a word, with
/// a host after its scheme (GFM: `https://[1]` links nothing).
pub fn starts_url(bytes: &[u8], q: usize) -> bool {
    let rest = &bytes[q..];
    let scheme = [&b"http://"[..], b"https://", b"www."]
        .into_iter()
        .find(|scheme| starts_with_ci(rest, scheme));
    scheme.is_some_and(|scheme| {
        let host = rest.get(scheme.len()).copied();
        host.is_some_and(|b| b.is_ascii_alphanumeric() || b >= 0x80) && !alnum_before(bytes, q)
    })
}

#[cfg(test)]
mod tests;
