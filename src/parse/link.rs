//! Links as CommonMark reads them (spec §6.3, §4.7): the `]` that closes a link text,
//! inline destinations and titles, reference labels and link reference definitions.
//!
//! Every read is bounded ([`MAX_LINK_TEXT`], [`MAX_DESTINATION`], a label's 999
//! characters) and stops at a blank line, so the scanner stays linear and a stream can
//! decide a link within a bounded hold. A link longer than the bound is read as text
//! (docs/markers.md, "Bounds").

use super::bracket::MAX_BODY;
use super::bytes::{find_ascii_ci, is_escape, is_escaped, line_start, quote_depth, run_length};
use super::html::{self, Read};
use super::html_start::fixed_closer;
use super::markdown::{
    MAX_DESTINATION, NeedMore, code_span_end, paragraph_goes_on, paragraph_through,
};
use crate::casefold::fold_case;

/// Longest link text looked at, in bytes: a bracket body's bound, so that a stray `[`
/// holds a stream back no longer than a marker being written does.
pub const MAX_LINK_TEXT: usize = MAX_BODY;

/// Longest link label, in bytes (CommonMark: 999 characters).
const MAX_LABEL: usize = 999;

/// Nesting of parentheses allowed in a bare destination (as commonmark.js allows).
const MAX_PAREN_DEPTH: usize = 32;

/// What [`link_text_close`] found inside a link text: whether some inner bracket pair
/// may itself be a link, which would keep this one from being a link.
#[derive(Debug, Default)]
pub struct Inner {
    /// Inner bracket pairs `(open, close)` not preceded by `!`, innermost first.
    pub pairs: Vec<(usize, usize)>,
}

/// The `]` closing the link text whose `[` is at `open`: brackets nest, escapes, code
/// spans, autolinks and raw HTML bind tighter (a `]` inside them does not count), and a
/// blank line ends the search. Inner pairs go to `inner`.
pub fn link_text_close(bytes: &[u8], open: usize, inner: &mut Inner, growing: bool) -> Read {
    let limit = bytes.len().min(open + 1 + MAX_LINK_TEXT);
    let window = &bytes[..limit];
    let mut depth = None; // of the opener's line, read at the first line break
    let mut stack: Vec<usize> = Vec::new();
    let mut q = open + 1;
    while q < limit {
        match bytes[q] {
            b'\\' if is_escape(window, q) => q += 2,
            b'`' => {
                let len = run_length(window, q, b'`');
                // The window's end is no text's end: only a growing text's may still grow.
                let grows = growing && limit == bytes.len();
                q = match code_span_end(window, q, len, grows) {
                    Ok(end) => end,
                    // Unclosed up to the end of a text that may grow: it may still close.
                    Err(stop) if grows && stop >= limit => {
                        return Read::Truncated;
                    }
                    Err(_) => q + len,
                };
            }
            b'<' => {
                let read = match html::autolink(window, q) {
                    Read::No => raw_html_end(window, q, growing && limit == bytes.len()),
                    read => read,
                };
                q = match read {
                    Read::End(end) => end,
                    Read::Truncated if limit == bytes.len() => return Read::Truncated,
                    _ => q + 1,
                };
            }
            b'[' => {
                if q == 0 || bytes[q - 1] != b'!' || is_escaped(bytes, q - 1) {
                    stack.push(q);
                } else {
                    stack.push(usize::MAX); // an image's `![`: it does not block the link
                }
                q += 1;
            }
            b']' => match stack.pop() {
                None => return Read::End(q),
                Some(usize::MAX) => q += 1,
                Some(inner_open) => {
                    inner.pairs.push((inner_open, q));
                    q += 1;
                }
            },
            b'\n' => match paragraph_goes_on(
                bytes,
                q + 1,
                *depth.get_or_insert_with(|| quote_depth(bytes, line_start(bytes, open))),
                growing,
            ) {
                Some(true) => q += 1,
                Some(false) => return Read::No,
                None => return Read::Truncated,
            },
            _ => q += 1,
        }
    }
    cut(bytes, limit)
}

/// Raw HTML (a tag or a construct with a fixed closer) at `q`, within `window`. With
/// `growing`, a closer not found yet may still come: `Truncated`.
fn raw_html_end(window: &[u8], q: usize, growing: bool) -> Read {
    if let Some((closer, from)) = fixed_closer(&window[q..]) {
        let cut = if growing { Read::Truncated } else { Read::No };
        let Some(end) = find_ascii_ci(window, q + from, closer.text()) else {
            return cut;
        };
        // It ends with its paragraph: a closer past the paragraph's end closes nothing.
        return match paragraph_through(window, q, end, growing) {
            Ok(()) => Read::End(end),
            Err(Some(_)) => Read::No,
            Err(None) => Read::Truncated,
        };
    }
    if window.get(q + 1) == Some(&b'/') {
        html::closing_tag(window, q)
    } else {
        html::open_tag(window, q, growing).0
    }
}

/// The end of an inline link's `(destination "title")` whose `(` is at `paren`.
pub fn inline_link_end(bytes: &[u8], paren: usize) -> Read {
    let limit = bytes.len().min(paren + MAX_DESTINATION);
    let mut q = skip_whitespace(bytes, paren + 1, limit);
    if q >= limit {
        return cut(bytes, limit);
    }
    if bytes[q] != b')' {
        let dest_end = match destination_end(bytes, q, limit) {
            Read::End(end) => end,
            other => return other,
        };
        q = skip_whitespace(bytes, dest_end, limit);
        if q > dest_end && q < limit && matches!(bytes[q], b'"' | b'\'' | b'(') {
            q = match title_end(bytes, q, limit) {
                Read::End(end) => skip_whitespace(bytes, end, limit),
                other => return other,
            };
        }
    }
    match bytes.get(q) {
        _ if q >= limit => cut(bytes, limit),
        Some(b')') => Read::End(q + 1),
        _ => Read::No,
    }
}

/// A destination at `q`: `<…>` (no line break, no unescaped `<`/`>`) or a non-empty run
/// of non-space characters with balanced parentheses.
fn destination_end(bytes: &[u8], mut q: usize, limit: usize) -> Read {
    if bytes[q] == b'<' {
        q += 1;
        while q < limit {
            match bytes[q] {
                b'\\' if is_escape(bytes, q) => q += 2,
                b'>' => return Read::End(q + 1),
                b'<' | b'\n' | b'\r' => return Read::No,
                _ => q += 1,
            }
        }
        return cut(bytes, limit);
    }
    let start = q;
    let mut depth = 0usize;
    while q < limit {
        match bytes[q] {
            b'\\' if is_escape(bytes, q) => q += 2,
            b'(' if depth == MAX_PAREN_DEPTH => return Read::No,
            b'(' => {
                depth += 1;
                q += 1;
            }
            b')' if depth == 0 => break,
            b')' => {
                depth -= 1;
                q += 1;
            }
            b if b <= b' ' || b == 0x7f => break,
            _ => q += 1,
        }
    }
    if q >= limit {
        return cut(bytes, limit);
    }
    if q == start || depth > 0 {
        return Read::No;
    }
    Read::End(q)
}

/// A title at `q`: `"…"`, `'…'` or `(…)`, with escapes, not across a blank line.
fn title_end(bytes: &[u8], mut q: usize, limit: usize) -> Read {
    let close = match bytes[q] {
        b'(' => b')',
        quote => quote,
    };
    q += 1;
    while q < limit {
        match bytes[q] {
            b'\\' if is_escape(bytes, q) => q += 2,
            b if b == close => return Read::End(q + 1),
            b'(' if close == b')' => return Read::No,
            b'\n' if blank_line_follows(bytes, q) => return Read::No,
            _ => q += 1,
        }
    }
    cut(bytes, limit)
}

/// A link label `[…]` at `p`: its end, after `]`. No unescaped `[` inside, at most 999
/// bytes, not blank, not across a blank line.
pub fn link_label_end(bytes: &[u8], p: usize) -> Read {
    if bytes.get(p) != Some(&b'[') {
        return Read::No;
    }
    let limit = bytes.len().min(p + 2 + MAX_LABEL);
    let mut q = p + 1;
    let mut blank = true;
    while q < limit {
        match bytes[q] {
            b'\\' if is_escape(bytes, q) => {
                blank = false;
                q += 2;
            }
            b'[' => return Read::No,
            b']' if blank => return Read::No,
            b']' => return Read::End(q + 1),
            b'\n' if blank_line_follows(bytes, q) => return Read::No,
            b => {
                blank &= b.is_ascii_whitespace();
                q += 1;
            }
        }
    }
    cut(bytes, limit)
}

/// A link reference definition whose label starts the content of a line at `p`
/// (`[label]: destination "title"`, over up to three lines): the label's byte range and
/// the end of the definition (after its last line's break). With `open` the text may
/// still grow, and running out of it before the answer is known is `Err(NeedMore)`.
pub fn definition(
    bytes: &[u8],
    p: usize,
    open: bool,
) -> Result<Option<(usize, usize, usize)>, NeedMore> {
    let len = bytes.len();
    let need_more = |cut: bool| if cut && open { Err(NeedMore) } else { Ok(None) };
    let label_end = match link_label_end(bytes, p) {
        Read::End(end) => end,
        read => return need_more(read == Read::Truncated),
    };
    if bytes.get(label_end) != Some(&b':') {
        return need_more(label_end == len);
    }
    let q = skip_whitespace(bytes, label_end + 1, len);
    if q >= len || bytes[q] == b'\n' {
        return need_more(q >= len);
    }
    let dest_end = match destination_end(bytes, q, len) {
        Read::End(end) => end,
        Read::Truncated if open => return Err(NeedMore),
        Read::Truncated if bytes[q] != b'<' => len, // a bare destination ends with the text
        _ => return Ok(None),
    };
    let line_complete = |at: usize| bytes[at..].contains(&b'\n');
    if open && !line_complete(dest_end) {
        return Err(NeedMore);
    }
    let label = (p + 1, label_end - 1);
    let t = skip_whitespace(bytes, dest_end, len);
    if open && t >= len {
        return Err(NeedMore); // a title may still start on the next line
    }
    if t > dest_end && t < len && matches!(bytes[t], b'"' | b'\'' | b'(') {
        match title_end(bytes, t, len.min(t + MAX_DESTINATION)) {
            Read::End(end) if open && !line_complete(end) => return Err(NeedMore),
            Read::End(end) => {
                if let Some(next) = line_rest_blank(bytes, end) {
                    return Ok(Some((label.0, label.1, next)));
                }
            }
            Read::Truncated if open => return Err(NeedMore),
            _ => {}
        }
    }
    Ok(line_rest_blank(bytes, dest_end).map(|next| (label.0, label.1, next)))
}

/// When only spaces and tabs follow `q` on its line: the start of the next line.
fn line_rest_blank(bytes: &[u8], q: usize) -> Option<usize> {
    let rest = bytes[q..].iter().take_while(|&&b| b != b'\n');
    let mut len = 0;
    for &b in rest {
        if !matches!(b, b' ' | b'\t' | b'\r') {
            return None;
        }
        len += 1;
    }
    Some((q + len + 1).min(bytes.len()))
}

/// A label as CommonMark matches it: case-folded, whitespace runs as one space, trimmed.
pub fn normalize_label(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for word in label.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            match c {
                // Full case folding maps ß and ẞ to "ss".
                'ß' | 'ẞ' => out.push_str("ss"),
                c => out.push(fold_case(c)),
            }
        }
    }
    out
}

/// Spaces and tabs with at most one line ending.
fn skip_whitespace(bytes: &[u8], mut q: usize, limit: usize) -> usize {
    let mut newline = false;
    while q < limit {
        match bytes[q] {
            b' ' | b'\t' | b'\r' => {}
            b'\n' if !newline => newline = true,
            _ => break,
        }
        q += 1;
    }
    q
}

/// The line after the `\n` at `q` is blank and complete. At the end of the text the
/// answer waits for more (a closed text's end ends the construct anyway).
fn blank_line_follows(bytes: &[u8], q: usize) -> bool {
    bytes[q + 1..]
        .iter()
        .find(|&&b| !matches!(b, b' ' | b'\t' | b'\r'))
        == Some(&b'\n')
}

/// A read that ran into `limit`: cut short by the end of the text, or too long.
fn cut(bytes: &[u8], limit: usize) -> Read {
    if limit >= bytes.len() {
        Read::Truncated
    } else {
        Read::No
    }
}

#[cfg(test)]
mod tests {
    use super::{Inner, Read, definition, inline_link_end, link_text_close, normalize_label};

    fn close(text: &str) -> Read {
        link_text_close(text.as_bytes(), 0, &mut Inner::default(), false)
    }

    #[test]
    fn link_text_closes_at_its_balanced_bracket_past_code_and_html() {
        assert_eq!(close("[a [b] c] d"), Read::End(8));
        assert_eq!(close("[a `]` b]"), Read::End(8));
        assert_eq!(close("[a <b x=\"]\"> c]"), Read::End(14));
        assert_eq!(close("[a\nb]"), Read::End(4));
        assert_eq!(close("[a\n\nb]"), Read::No);
        assert_eq!(close("[a [b"), Read::Truncated);
    }

    #[test]
    fn inline_destinations_and_titles() {
        for text in [
            "(/u)",
            "()",
            "(<a b>)",
            "( /u \"t\" )",
            "(/u (t))",
            "(/u\n't')",
            "(a(b)c)",
            "(/u \"t \\\" x\")",
        ] {
            assert_eq!(
                inline_link_end(text.as_bytes(), 0),
                Read::End(text.len()),
                "{text:?}"
            );
        }
        for text in ["(a b)", "(<a\nb>)", "(/u \"t\" x)", "(/u\n\n't')"] {
            assert_eq!(inline_link_end(text.as_bytes(), 0), Read::No, "{text:?}");
        }
    }

    #[test]
    fn definitions_over_several_lines() {
        let text = "[Foo bar]:\n<my url>\n'title'\nnext";
        let def = |text: &[u8]| definition(text, 0, false).ok().flatten();
        assert_eq!(def(text.as_bytes()), Some((1, 8, 28)));
        assert_eq!(def(b"[a]: /u 't' x\n"), None);
        assert_eq!(def(b"[a]: /u\n't' x\n"), Some((1, 2, 8)));
        assert_eq!(def(b"[a]:\n\n/u"), None);
        assert_eq!(def(b"[a]: /u"), Some((1, 2, 7)));
        assert!(
            definition(b"[a]: /u\n", 0, true).is_err(),
            "a title may follow"
        );
        assert!(definition(b"[a]: /u\nnext\n", 0, true).is_ok());
    }

    #[test]
    fn labels_match_case_folded_with_collapsed_whitespace() {
        assert_eq!(normalize_label(" Foo \n  BAR "), "foo bar");
        assert_eq!(normalize_label("ẞ"), normalize_label("SS"));
    }
}
