//! HTML blocks (CommonMark §4.6): a line that starts with block-level HTML opens raw
//! HTML that runs to a closing string or a blank line. A browser shows its text, so a
//! marker there cites, while its markup is read as a browser's HTML tokenizer reads it
//! ([`html5_markup_end`]) and is never a marker (docs/markers.md, "Markup").

use super::html::{Read, closing_tag, fixed_closer, open_tag, run, tag_name_end};
use super::markdown::{find_ascii_ci, starts_with_ci};

/// How an HTML block (CommonMark §4.6) that starts on a line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HtmlBlock {
    /// Conditions 1–5: at the end of the line holding this string (ASCII, any case).
    EndsAfter(&'static [u8]),
    /// Conditions 6 and 7: before the next blank line.
    EndsAtBlankLine,
}

/// The block-level tag names of start condition 6.
const BLOCK_TAGS: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"base",
    b"basefont",
    b"blockquote",
    b"body",
    b"caption",
    b"center",
    b"col",
    b"colgroup",
    b"dd",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"dt",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"frame",
    b"frameset",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"header",
    b"hr",
    b"html",
    b"iframe",
    b"legend",
    b"li",
    b"link",
    b"main",
    b"menu",
    b"menuitem",
    b"nav",
    b"noframes",
    b"ol",
    b"optgroup",
    b"option",
    b"p",
    b"param",
    b"search",
    b"section",
    b"summary",
    b"table",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"title",
    b"tr",
    b"track",
    b"ul",
];

/// The HTML block a line whose content starts at `p` opens, if any. `in_paragraph`: the
/// line would otherwise continue a paragraph, which condition 7 cannot interrupt.
pub fn html_block_start(bytes: &[u8], p: usize, in_paragraph: bool) -> Option<HtmlBlock> {
    let rest = &bytes[p..];
    if rest.first() != Some(&b'<') {
        return None;
    }
    let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    let boundary = |at: usize| matches!(line.get(at), None | Some(b' ' | b'\t' | b'\r' | b'>'));
    for (name, closer) in [
        (&b"<pre"[..], &b"</pre>"[..]),
        (b"<script", b"</script>"),
        (b"<style", b"</style>"),
        (b"<textarea", b"</textarea>"),
    ] {
        if starts_with_ci(line, name) && boundary(name.len()) {
            return Some(HtmlBlock::EndsAfter(closer));
        }
    }
    if let Some((closer, _)) = fixed_closer(line) {
        return Some(HtmlBlock::EndsAfter(closer.text()));
    }
    let name_start = if line.get(1) == Some(&b'/') { 2 } else { 1 };
    let name_end = tag_name_end(line, name_start, line.len());
    let name = &line[name_start..name_end];
    let self_closing = line.get(name_end) == Some(&b'/') && line.get(name_end + 1) == Some(&b'>');
    if BLOCK_TAGS.iter().any(|tag| name.eq_ignore_ascii_case(tag))
        && (boundary(name_end) || self_closing)
    {
        return Some(HtmlBlock::EndsAtBlankLine);
    }
    if in_paragraph || name.is_empty() {
        return None;
    }
    let read = if name_start == 2 {
        closing_tag(line, 0)
    } else {
        open_tag(line, 0).0
    };
    match read {
        Read::End(end) if line[end..].iter().all(|b| b.is_ascii_whitespace()) => {
            Some(HtmlBlock::EndsAtBlankLine)
        }
        _ => None,
    }
}

/// On the unfinished last line of a growing text, with content from `p` (a `<`):
/// whether [`html_block_start`] may still answer differently once the line is whole. The
/// conditions 1–6 are decided by the line's first few bytes; condition 7 by a complete
/// tag and what follows it.
pub fn html_block_start_open(bytes: &[u8], p: usize, in_paragraph: bool) -> bool {
    let rest = &bytes[p..];
    // The longest opener conditions 1–6 read: `<![CDATA[`, `</blockquote` and a
    // boundary byte, `<textarea ` …
    if rest.len() < 12
        && !rest[1..].contains(&b'>')
        && !rest[1..].iter().any(u8::is_ascii_whitespace)
    {
        return true;
    }
    if html_block_start(bytes, p, true).is_some() || in_paragraph {
        return false; // conditions 1–6 hold; or 7, which cannot interrupt a paragraph
    }
    let read = if rest.get(1) == Some(&b'/') {
        closing_tag(bytes, p)
    } else {
        open_tag(bytes, p).0
    };
    match read {
        Read::Truncated => true,
        Read::End(end) => bytes[end..].iter().all(u8::is_ascii_whitespace),
        Read::No => false,
    }
}

/// Where an HTML block of kind `block`, starting at the line holding `p`, ends: after
/// the line with its end string, before its blank line, or at the end of the text. A
/// last line without its line break is not blank yet (the text may still grow).
pub fn html_block_end(bytes: &[u8], p: usize, block: HtmlBlock) -> usize {
    let line_end = |at: usize| {
        at + bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(bytes.len() - at)
    };
    match block {
        HtmlBlock::EndsAfter(closer) => match find_ascii_ci(bytes, p, closer) {
            Some(after) => (line_end(after - 1) + 1).min(bytes.len()),
            None => bytes.len(),
        },
        HtmlBlock::EndsAtBlankLine => {
            let mut line = (line_end(p) + 1).min(bytes.len());
            while line < bytes.len() {
                let end = line_end(line);
                let blank = bytes[line..end]
                    .iter()
                    .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'>'));
                if blank && end < bytes.len() {
                    return line;
                }
                line = (end + 1).min(bytes.len());
            }
            bytes.len()
        }
    }
}

/// Inside an HTML block, the markup starting at the `<` at `p`, read as a browser's
/// HTML tokenizer reads it (WHATWG HTML §13.2.5, leniently: any `<letter` opens a tag
/// up to the first `>` outside a quoted attribute value): its end, never past `limit`
/// (the block's end). Raw-text elements (`<script>`, `<style>`, `<textarea>`, `<title>`)
/// and code (`<pre>`, `<code>`) run to their end tag. `None`: the `<` is text.
pub fn html5_markup_end(bytes: &[u8], p: usize, limit: usize) -> Option<usize> {
    let rest = &bytes[p..limit];
    let to = |needle: &[u8], from: usize| {
        find_ascii_ci(&bytes[..limit], p + from, needle).unwrap_or(limit)
    };
    if rest.starts_with(b"<!--") {
        // `<!-->` and `<!--->` close at once; else at `-->` or `--!>`.
        if rest[4..].starts_with(b">") || rest[4..].starts_with(b"->") {
            return Some(p + if rest[4] == b'>' { 5 } else { 6 });
        }
        let dashes = to(b"-->", 4);
        let bang = to(b"--!>", 4);
        return Some(dashes.min(bang));
    }
    if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
        return Some(to(b">", 2)); // a bogus comment or a doctype
    }
    let closing = rest.get(1) == Some(&b'/');
    let name_start = if closing { 2 } else { 1 };
    if !rest.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
        return match rest.get(1..3) {
            Some(b"/>") => Some(p + 3), // `</>` is dropped
            _ if closing => Some(to(b">", 2)),
            _ => None,
        };
    }
    let name_end = p
        + name_start
        + run(bytes, p + name_start, limit, |b| {
            !b.is_ascii_whitespace() && b != b'/' && b != b'>'
        });
    let tag_end = tag_end_html5(bytes, name_end, limit);
    if closing {
        return Some(tag_end);
    }
    let name = &bytes[p + 1..name_end];
    let raw_text = [
        &b"script"[..],
        b"style",
        b"textarea",
        b"title",
        b"pre",
        b"code",
        b"xmp",
    ];
    match raw_text.iter().find(|t| name.eq_ignore_ascii_case(t)) {
        Some(element) => {
            let mut closer = Vec::with_capacity(element.len() + 2);
            closer.extend_from_slice(b"</");
            closer.extend_from_slice(element);
            let content_end = find_ascii_ci(&bytes[..limit], tag_end, &closer);
            Some(content_end.map_or(limit, |after| tag_end_html5(bytes, after, limit)))
        }
        None => Some(tag_end),
    }
}

/// The end of a tag whose attributes start at `q`: after the first `>` outside a
/// quoted attribute value, or `limit`.
fn tag_end_html5(bytes: &[u8], mut q: usize, limit: usize) -> usize {
    let mut after_equals = false;
    while q < limit {
        match bytes[q] {
            b'>' => return q + 1,
            b'=' => after_equals = true,
            quote @ (b'"' | b'\'') if after_equals => {
                q = bytes[q + 1..limit]
                    .iter()
                    .position(|&b| b == quote)
                    .map_or(limit, |i| q + 1 + i);
                after_equals = false;
            }
            b if b.is_ascii_whitespace() => {}
            _ => after_equals = false,
        }
        q += 1;
    }
    limit
}
