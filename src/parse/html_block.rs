//! HTML blocks (CommonMark §4.6): a line that starts with block-level HTML opens raw
//! HTML that runs to a closing string or a blank line. A browser shows its text, so a
//! marker there cites, while its markup is read as a browser's HTML tokenizer reads it
//! ([`html5_markup_end`]) and is never a marker (docs/markers.md, "Markup").

use super::bytes::{find_ascii_ci, line_end, next_line, run_within};
use super::html::{Read, closing_tag, open_tag};

use super::html_start::{HtmlBlock, interrupting_html_block, tag_name_end};

/// The HTML block a line whose content starts at `p` opens, if any. `in_paragraph`: the
/// line would otherwise continue a paragraph, which condition 7 cannot interrupt.
pub fn html_block_start(bytes: &[u8], p: usize, in_paragraph: bool) -> Option<HtmlBlock> {
    let rest = &bytes[p..];
    if rest.first() != Some(&b'<') {
        return None;
    }
    let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    if let Some(block) = interrupting_html_block(line) {
        return Some(block);
    }
    if in_paragraph {
        return None;
    }
    // Condition 7: a complete open or closing tag, of any name, alone on its line.
    let name_start = if line.get(1) == Some(&b'/') { 2 } else { 1 };
    if tag_name_end(line, name_start, line.len()) == name_start {
        return None;
    }
    let read = if name_start == 2 {
        closing_tag(line, 0)
    } else {
        open_tag(line, 0, false).0
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
        open_tag(bytes, p, true).0
    };
    match read {
        Read::Truncated => true,
        Read::End(end) => bytes[end..].iter().all(u8::is_ascii_whitespace),
        Read::No => false,
    }
}

/// The search for an HTML block's end, resumable: a stream whose text ended inside the
/// block goes on from where the last search stopped instead of from the block's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEndSearch {
    /// What ends the block.
    end: BlockEnd,
    /// Where the search goes on: a position for a string; for a blank line, a line
    /// start, or the end of the block's first line when the text ended within it (the
    /// rest of that line may still come, and it is never blank).
    from: usize,
}

/// What ends an HTML block still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockEnd {
    /// The end of the line holding this string.
    Closer(&'static [u8]),
    /// The next line break (the string was found on the last line, not yet ended).
    LineBreak,
    /// The next blank line.
    BlankLine,
}

impl BlockEndSearch {
    /// The search for the end of a block of kind `block` whose first line holds `p`.
    pub fn start(bytes: &[u8], p: usize, block: HtmlBlock) -> BlockEndSearch {
        match block {
            HtmlBlock::EndsAfter(closer) => BlockEndSearch {
                end: BlockEnd::Closer(closer),
                from: p,
            },
            HtmlBlock::EndsAtBlankLine => BlockEndSearch {
                end: BlockEnd::BlankLine,
                from: next_line(bytes, p),
            },
        }
    }

    /// Where the block ends: after the line with its end string, before its blank line,
    /// or at the end of the text (a last line without its line break is not blank yet:
    /// the text may still grow). With it, when the block runs to the end of the text,
    /// the search to go on with should the text grow.
    pub fn run(self, bytes: &[u8]) -> (usize, Option<BlockEndSearch>) {
        let len = bytes.len();
        let open = |end, from| (len, Some(BlockEndSearch { end, from }));
        match self.end {
            BlockEnd::Closer(closer) => match find_ascii_ci(bytes, self.from, closer) {
                Some(after) => BlockEndSearch {
                    end: BlockEnd::LineBreak,
                    from: after,
                }
                .run(bytes),
                // A string cut by the end of the text is found from its first byte.
                None => open(
                    self.end,
                    self.from.max(len.saturating_sub(closer.len() - 1)),
                ),
            },
            BlockEnd::LineBreak => match line_end(bytes, self.from) {
                end if end < len => (end + 1, None),
                _ => open(self.end, len),
            },
            BlockEnd::BlankLine => {
                // A search that stopped within the first line goes on after that line.
                let within_line = self.from > 0 && bytes[self.from - 1] != b'\n';
                let mut line = if within_line {
                    next_line(bytes, self.from)
                } else {
                    self.from
                };
                while line < len {
                    let end = line_end(bytes, line);
                    if end == len {
                        break; // not blank before its line break
                    }
                    let blank = bytes[line..end]
                        .iter()
                        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'>'));
                    if blank {
                        return (line, None);
                    }
                    line = end + 1;
                }
                open(self.end, line)
            }
        }
    }
}

/// How a piece of markup in an HTML block ends ([`html5_markup_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// Here.
    End(usize),
    /// Not before the limit: at the block's end, or, when that is the end of a text that
    /// may grow, where this read goes on.
    Open(OpenMarkup),
}

/// A read of markup that ran into the end of the text, resumable from `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenMarkup {
    until: Until,
    /// Where the read goes on.
    pub from: usize,
}

/// What a piece of markup still waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    /// A comment's `-->` or `--!>`.
    CommentEnd,
    /// A `>` (a bogus comment, a doctype, a closing tag without a name).
    Gt,
    /// A raw-text element's end tag (`</script`), then that tag's end.
    EndTag(&'static [u8]),
    /// The `>` ending a tag, outside a quoted attribute value; then, for a raw-text
    /// element's start tag, its end tag.
    TagEnd {
        after_equals: bool,
        quote: Option<u8>,
        then: Option<&'static [u8]>,
    },
}

/// The end tags of the elements whose content is not markup: raw text (`<script>`,
/// `<style>`, `<textarea>`, `<title>`, `<xmp>`) and code (`<pre>`, `<code>`).
const RAW_TEXT_END_TAGS: [&[u8]; 7] = [
    b"</script",
    b"</style",
    b"</textarea",
    b"</title",
    b"</pre",
    b"</code",
    b"</xmp",
];

/// Inside an HTML block, the markup starting at the `<` at `p`, read as a browser's
/// HTML tokenizer reads it (WHATWG HTML §13.2.5, leniently: any `<letter` opens a tag
/// up to the first `>` outside a quoted attribute value): its end, never past `limit`
/// (the block's end). Raw-text elements (`<script>`, `<style>`, `<textarea>`, `<title>`)
/// and code (`<pre>`, `<code>`) run to their end tag. `None`: the `<` is text.
pub fn html5_markup_end(bytes: &[u8], p: usize, limit: usize) -> Option<Markup> {
    let rest = &bytes[p..limit];
    if rest.starts_with(b"<!--") {
        // `<!-->` and `<!--->` close at once; else at `-->` or `--!>`.
        if rest[4..].starts_with(b">") || rest[4..].starts_with(b"->") {
            return Some(Markup::End(p + if rest[4] == b'>' { 5 } else { 6 }));
        }
        return Some(Until::CommentEnd.read(bytes, p + 4, limit));
    }
    if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
        return Some(Until::Gt.read(bytes, p + 2, limit)); // a bogus comment or a doctype
    }
    let closing = rest.get(1) == Some(&b'/');
    let name_start = if closing { 2 } else { 1 };
    if !rest.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
        return match rest.get(1..3) {
            Some(b"/>") => Some(Markup::End(p + 3)), // `</>` is dropped
            _ if closing => Some(Until::Gt.read(bytes, p + 2, limit)),
            _ => None,
        };
    }
    let name_end = p
        + name_start
        + run_within(bytes, p + name_start, limit, |b| {
            !b.is_ascii_whitespace() && b != b'/' && b != b'>'
        });
    let name = &bytes[p + 1..name_end];
    let then = match closing {
        true => None,
        false => RAW_TEXT_END_TAGS
            .into_iter()
            .find(|end_tag| name.eq_ignore_ascii_case(&end_tag[2..])),
    };
    let tag_end = Until::TagEnd {
        after_equals: false,
        quote: None,
        then,
    };
    Some(tag_end.read(bytes, name_end, limit))
}

/// On the unfinished last line of an HTML block, at a `<` whose markup runs to the end
/// of the text: whether what kind of markup it is may still change (`<!-` may become a
/// comment, `<scr` a raw-text element).
pub fn markup_kind_open(rest: &[u8]) -> bool {
    // `<textarea` and a byte after the name decide the longest kind.
    rest.len() < 11
        && !rest[1..]
            .iter()
            .any(|&b| b.is_ascii_whitespace() || b == b'>')
}

impl OpenMarkup {
    /// Goes on reading, now that the text reaches `limit`.
    pub fn read(self, bytes: &[u8], limit: usize) -> Markup {
        self.until.read(bytes, self.from, limit)
    }
}

impl Until {
    /// Reads from `from` to what this waits for, never past `limit`.
    fn read(self, bytes: &[u8], from: usize, limit: usize) -> Markup {
        let find = |needle: &[u8]| find_ascii_ci(&bytes[..limit], from, needle);
        // Not found: the search goes on from the first byte of a string the limit cuts.
        let open = |until, needle: &[u8]| {
            let from = from.max(limit.saturating_sub(needle.len() - 1));
            Markup::Open(OpenMarkup { until, from })
        };
        match self {
            Until::CommentEnd => match (find(b"-->"), find(b"--!>")) {
                (None, None) => open(self, b"--!>"),
                (dashes, bang) => Markup::End(dashes.unwrap_or(limit).min(bang.unwrap_or(limit))),
            },
            Until::Gt => find(b">").map_or_else(|| open(self, b">"), Markup::End),
            Until::EndTag(end_tag) => match find(end_tag) {
                Some(after) => Until::TagEnd {
                    after_equals: false,
                    quote: None,
                    then: None,
                }
                .read(bytes, after, limit),
                None => open(self, end_tag),
            },
            Until::TagEnd {
                mut after_equals,
                mut quote,
                then,
            } => {
                let mut q = from;
                while q < limit {
                    match (quote, bytes[q]) {
                        (Some(open), b) if b == open => quote = None,
                        (Some(_), _) => {}
                        (None, b'>') => {
                            return match then {
                                Some(end_tag) => Until::EndTag(end_tag).read(bytes, q + 1, limit),
                                None => Markup::End(q + 1),
                            };
                        }
                        (None, b'=') => after_equals = true,
                        (None, b @ (b'"' | b'\'')) if after_equals => {
                            quote = Some(b);
                            after_equals = false;
                        }
                        (None, b) if b.is_ascii_whitespace() => {}
                        (None, _) => after_equals = false,
                    }
                    q += 1;
                }
                let until = Until::TagEnd {
                    after_equals,
                    quote,
                    then,
                };
                Markup::Open(OpenMarkup { until, from: limit })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        BlockEndSearch, HtmlBlock, Markup, OpenMarkup, html5_markup_end, markup_kind_open,
    };

    /// Reads `text` to each cut in turn, resuming where the read before stopped, as a
    /// stream does: the end found must be the one a single read of the whole text finds.
    /// The search starts on the text as far as the first cut, where the block's first
    /// line may not have ended yet.
    fn resumed_block_end(text: &str, block: HtmlBlock, cuts: &[usize]) -> usize {
        let first = cuts.first().map_or(text.len(), |&cut| cut);
        let mut search = BlockEndSearch::start(&text.as_bytes()[..first], 0, block);
        for &cut in cuts {
            match search.run(&text.as_bytes()[..cut]) {
                (end, None) => return end,
                (_, Some(next)) => search = next,
            }
        }
        search.run(text.as_bytes()).0
    }

    fn resumed_markup_end(text: &str, cuts: &[usize]) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut open = None;
        for &cut in cuts.iter().chain([&bytes.len()]) {
            let read = match open {
                // A stream waits until the first bytes tell what markup it is.
                None if cut < bytes.len() && markup_kind_open(&bytes[..cut]) => continue,
                None => html5_markup_end(bytes, 0, cut)?,
                Some(open) => OpenMarkup::read(open, bytes, cut),
            };
            match read {
                Markup::End(end) => return Some(end),
                Markup::Open(next) => open = Some(next),
            }
        }
        Some(bytes.len())
    }

    #[test]
    fn a_resumed_search_finds_the_end_a_whole_read_finds() {
        let blocks = [
            (
                "<!-- a\nb -- > c\nd --> e\nafter\n",
                HtmlBlock::EndsAfter(b"-->"),
            ),
            ("<div>\nx\n  \t\n\nafter", HtmlBlock::EndsAtBlankLine),
            ("<div>\nx\n> \nafter", HtmlBlock::EndsAtBlankLine),
            ("<div a\r\n[4]\r\n\r\nafter", HtmlBlock::EndsAtBlankLine),
            (
                "<pre>\ncode </PRE> tail\nafter",
                HtmlBlock::EndsAfter(b"</pre>"),
            ),
            ("<!-- never closed\nx -", HtmlBlock::EndsAfter(b"-->")),
        ];
        for (text, block) in blocks {
            let whole = resumed_block_end(text, block, &[]);
            for a in 1..text.len() {
                for b in a..text.len() {
                    assert_eq!(
                        resumed_block_end(text, block, &[a, b]),
                        whole,
                        "{text:?} {a} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_resumed_markup_read_ends_where_a_whole_read_ends() {
        for text in [
            "<!-- a - -- b --!> c",
            "<!-- a -> b --> c",
            "<a title=\"x > y\" data='>' b=c>text",
            "<script type=\"a>\">if (a < b) {}</SCRIPT >after",
            "<textarea>[1]</textarea\n>x",
            "<!doctype html> x",
            "</ x > y",
            "<a title=\"never closed",
        ] {
            let whole = resumed_markup_end(text, &[]);
            for a in 1..text.len() {
                for b in a..text.len() {
                    assert_eq!(resumed_markup_end(text, &[a, b]), whole, "{text:?} {a} {b}");
                }
            }
        }
    }
}
