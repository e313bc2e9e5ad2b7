//! Raw HTML and autolinks in inline text, as CommonMark defines them (spec §6.5, §6.6):
//! open and closing tags, comments, processing instructions, declarations, CDATA and
//! `<scheme:…>` / `<user@host>` autolinks.
//!
//! Markup is never shown as text, so a bracket inside it is never a marker
//! (docs/markers.md, "Markup"). Tags and autolinks are read with bounded look-ahead
//! ([`MAX_TAG`]); the constructs that end at a fixed closer (`-->`, `?>`, `]]>`, `>`)
//! are searched by the scanner, which remembers a failed search so that a text full of
//! openers stays linear.
//!
//! HTML blocks are in `html_block.rs`, a floor above; what a `<` opens in either is in
//! [`super::html_start`], a floor below.

use super::bytes::{line_start, quote_depth, run_within};
use super::html_start::tag_name_end;
use super::markdown::paragraph_goes_on;

/// Longest open tag, closing tag or autolink read, in bytes. CommonMark sets no limit;
/// a longer one is read as text. Bounds the look-ahead at every `<`, which keeps the
/// scan linear and lets a stream decide within this many bytes.
pub const MAX_TAG: usize = 1024;

/// What a bounded read at a `<` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// The construct ends just before this position.
    End(usize),
    /// Not this construct: the `<` is something else or text.
    No,
    /// The text ended before the answer was known (only matters for a text that may
    /// still grow).
    Truncated,
}

/// An element whose content is not prose: HTML code, preformatted text, scripts and
/// styles. Its content up to the closing tag is skipped (docs/markers.md, "Markup").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbatim {
    /// `<code>`: code, as a code span is.
    Code,
    /// `<pre>`: code, as a fenced block is.
    Pre,
    /// `<script>`: never shown.
    Script,
    /// `<style>`: never shown.
    Style,
}

impl Verbatim {
    /// Every element, in the order of [`Verbatim::index`].
    pub const ALL: [Verbatim; 4] = [
        Verbatim::Code,
        Verbatim::Pre,
        Verbatim::Script,
        Verbatim::Style,
    ];

    /// The closing tag searched for, lower case.
    pub fn closer(self) -> &'static [u8] {
        match self {
            Verbatim::Code => b"</code>",
            Verbatim::Pre => b"</pre>",
            Verbatim::Script => b"</script>",
            Verbatim::Style => b"</style>",
        }
    }

    /// The element an open tag named `name` starts, if it is one of these.
    pub fn of(name: &[u8]) -> Option<Verbatim> {
        Verbatim::ALL
            .into_iter()
            .find(|v| name.eq_ignore_ascii_case(&v.closer()[2..v.closer().len() - 1]))
    }

    /// A dense index, for per-element memos.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Reads an open tag `<name attr="v" …>` or `<name/>` at `p` (which holds `<`).
/// Returns its end and the byte range of its name. With `growing` (a stream's text), a
/// quoted value that reaches the unfinished last line is `Truncated`: that line, still
/// empty or short, may yet continue the paragraph the value may span.
pub fn open_tag(bytes: &[u8], p: usize, growing: bool) -> (Read, usize) {
    let limit = bytes.len().min(p + MAX_TAG);
    let name_start = p + 1;
    let name_end = tag_name_end(bytes, name_start, limit);
    if name_end == name_start {
        return (no_or_truncated(bytes, name_start, limit), name_end);
    }
    let mut q = name_end;
    loop {
        let ws = whitespace_len(bytes, q, limit);
        q += ws;
        match bytes.get(q) {
            _ if q >= limit => return (truncated_if_at_end(bytes, limit), name_end),
            Some(b'>') => return (Read::End(q + 1), name_end),
            Some(b'/') => {
                return match bytes.get(q + 1) {
                    Some(b'>') => (Read::End(q + 2), name_end),
                    None => (Read::Truncated, name_end),
                    Some(_) => (Read::No, name_end),
                };
            }
            Some(&b) if ws > 0 && is_attribute_name_start(b) => {
                match attribute_end(bytes, q, limit, growing) {
                    Read::End(end) => q = end,
                    other => return (other, name_end),
                }
            }
            _ => return (Read::No, name_end),
        }
    }
}

/// Reads a closing tag `</name >` at `p` (which holds `<`).
pub fn closing_tag(bytes: &[u8], p: usize) -> Read {
    let limit = bytes.len().min(p + MAX_TAG);
    let name_start = p + 2;
    let name_end = tag_name_end(bytes, name_start, limit);
    if name_end == name_start {
        return no_or_truncated(bytes, name_start, limit);
    }
    let q = name_end + whitespace_len(bytes, name_end, limit);
    match bytes.get(q) {
        _ if q >= limit => truncated_if_at_end(bytes, limit),
        Some(b'>') => Read::End(q + 1),
        _ => Read::No,
    }
}

/// Reads an autolink at `p` (which holds `<`): `<scheme:anything-but-space-or-angle>`
/// with a scheme of 2–32 characters, or an email address `<user@host.example>`.
pub fn autolink(bytes: &[u8], p: usize) -> Read {
    let limit = bytes.len().min(p + MAX_TAG);
    let scheme_len = run_within(bytes, p + 1, limit, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')
    });
    let scheme_ok =
        bytes.get(p + 1).is_some_and(u8::is_ascii_alphabetic) && (2..=32).contains(&scheme_len);
    let q = p + 1 + scheme_len;
    if scheme_ok && bytes.get(q) == Some(&b':') {
        let end = q + 1 + run_within(bytes, q + 1, limit, |b| b > b' ' && b != b'<' && b != b'>');
        return match bytes.get(end) {
            _ if end >= limit => truncated_if_at_end(bytes, limit),
            Some(b'>') => Read::End(end + 1),
            _ => Read::No,
        };
    }
    email_autolink(bytes, p, limit)
}

/// `<local@label.label>` (the HTML5 "valid e-mail address" shape CommonMark uses).
fn email_autolink(bytes: &[u8], p: usize, limit: usize) -> Read {
    let local = run_within(bytes, p + 1, limit, is_email_local);
    let at = p + 1 + local;
    if at >= limit {
        return truncated_if_at_end(bytes, limit);
    }
    if local == 0 || bytes[at] != b'@' {
        return Read::No;
    }
    let mut q = at + 1;
    loop {
        let label = run_within(bytes, q, limit, |b| b.is_ascii_alphanumeric() || b == b'-');
        let end = q + label;
        if end >= limit {
            return truncated_if_at_end(bytes, limit);
        }
        let well_formed = (1..=63).contains(&label) && bytes[q] != b'-' && bytes[end - 1] != b'-';
        if !well_formed {
            return Read::No;
        }
        match bytes[end] {
            b'.' => q = end + 1,
            b'>' => return Read::End(end + 1),
            _ => return Read::No,
        }
    }
}

fn is_email_local(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b)
}

fn is_attribute_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':'
}

/// An attribute `name`, `name=value`, `name = "v"` or `name='v'` at `q`; its end.
fn attribute_end(bytes: &[u8], q: usize, limit: usize, growing: bool) -> Read {
    let name_end = q + run_within(bytes, q, limit, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-')
    });
    let ws = whitespace_len(bytes, name_end, limit);
    let eq = name_end + ws;
    if eq >= limit {
        return truncated_if_at_end(bytes, limit);
    }
    if bytes[eq] != b'=' {
        return Read::End(name_end);
    }
    let v = eq + 1 + whitespace_len(bytes, eq + 1, limit);
    if v >= limit {
        return truncated_if_at_end(bytes, limit);
    }
    match bytes[v] {
        quote @ (b'"' | b'\'') => {
            for q in v + 1..limit {
                match bytes[q] {
                    b if b == quote => return Read::End(q + 1),
                    // A value may span lines, not past the end of its paragraph.
                    b'\n'
                        if !paragraph_goes_on(
                            bytes,
                            q + 1,
                            quote_depth(bytes, line_start(bytes, v)),
                            growing,
                        )
                        .unwrap_or(true) =>
                    {
                        return Read::No;
                    }
                    _ => {}
                }
            }
            truncated_if_at_end(bytes, limit)
        }
        _ => {
            let len = run_within(bytes, v, limit, |b| {
                !b.is_ascii_whitespace() && !b"\"'=<>`".contains(&b)
            });
            match len {
                0 => Read::No,
                _ if v + len >= limit => truncated_if_at_end(bytes, limit),
                _ => Read::End(v + len),
            }
        }
    }
}

/// Spaces and tabs with at most one line ending among them (CommonMark "whitespace"
/// in tags: a tag does not cross a blank line).
fn whitespace_len(bytes: &[u8], from: usize, limit: usize) -> usize {
    let mut q = from;
    let mut line_endings = 0;
    while q < limit {
        match bytes[q] {
            b' ' | b'\t' => {}
            b'\n' | b'\r' => {
                // `\r\n` is one line ending.
                if !(bytes[q] == b'\n' && q > from && bytes[q - 1] == b'\r') {
                    line_endings += 1;
                }
                if line_endings > 1 {
                    break;
                }
            }
            _ => break,
        }
        q += 1;
    }
    q - from
}

fn truncated_if_at_end(bytes: &[u8], limit: usize) -> Read {
    if limit >= bytes.len() {
        Read::Truncated
    } else {
        Read::No
    }
}

fn no_or_truncated(bytes: &[u8], at: usize, limit: usize) -> Read {
    if at >= limit {
        truncated_if_at_end(bytes, limit)
    } else {
        Read::No
    }
}

#[cfg(test)]
mod tests {
    use super::{Read, Verbatim, autolink, closing_tag, open_tag};

    fn tag(text: &str) -> Read {
        open_tag(text.as_bytes(), 0, false).0
    }

    #[test]
    fn open_tags_with_attributes_of_every_form() {
        for text in [
            "<a>",
            "<a/>",
            "<a href=\"x [1]\">",
            "<img src='y' alt=z>",
            "<x-y data-1 = \"v\" />",
            "<a\nhref=\"x\">",
        ] {
            assert_eq!(tag(text), Read::End(text.len()), "{text:?}");
        }
    }

    #[test]
    fn malformed_open_tags_are_text() {
        for text in [
            "<1a>",
            "<a href=>",
            "<a \"x\">",
            "<a href='x'title='y'>",
            "<a\n\nb>",
        ] {
            assert_eq!(tag(text), Read::No, "{text:?}");
        }
    }

    #[test]
    fn a_tag_cut_by_the_end_of_the_text_is_truncated() {
        for text in ["<", "<a", "<a href=\"x", "<a href", "<a /"] {
            assert_eq!(tag(text), Read::Truncated, "{text:?}");
        }
    }

    #[test]
    fn closing_tags_and_autolinks() {
        assert_eq!(closing_tag(b"</div >", 0), Read::End(7));
        assert_eq!(closing_tag(b"</ div>", 0), Read::No);
        assert_eq!(autolink(b"<https://a.example/r>[3]", 0), Read::End(21));
        assert_eq!(autolink(b"<mailto:x@y>", 0), Read::End(12));
        assert_eq!(autolink(b"<foo@bar.example.com>", 0), Read::End(21));
        assert_eq!(autolink(b"<https://a b>", 0), Read::No);
        assert_eq!(autolink(b"<ab:c", 0), Read::Truncated);
        assert_eq!(autolink(b"<x:y>", 0), Read::No, "one-letter scheme");
    }

    #[test]
    fn verbatim_elements_by_name() {
        assert_eq!(Verbatim::of(b"CODE"), Some(Verbatim::Code));
        assert_eq!(Verbatim::of(b"script"), Some(Verbatim::Script));
        assert_eq!(Verbatim::of(b"codes"), None);
    }
}
