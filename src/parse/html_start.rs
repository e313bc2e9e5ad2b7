//! What a `<` opens, told from a bounded look at its line: the constructs that run to a
//! fixed closer (`<!--`, `<![CDATA[`, `<?`, `<!X`), a tag's name, and the HTML blocks
//! that interrupt a paragraph (CommonMark §4.6, start conditions 1–6).
//!
//! A floor below the paragraph rule (`markdown.rs`, `paragraph_goes_on`), which asks
//! whether a line opens such a block. Above that rule sit inline HTML (`html.rs`, whose
//! quoted attribute values end with their paragraph) and the whole HTML-block rule
//! (`html_block.rs`, which adds condition 7 by reading a complete tag). When all of this
//! lived in those two files, the three formed a circle of imports, though never a
//! recursion at run time: condition 7 is not asked inside a paragraph.

use super::bytes::{run_within, starts_with_ci};

/// Markup that runs to a fixed closing string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closer {
    /// `<!-- … -->`.
    Comment,
    /// `<![CDATA[ … ]]>`.
    Cdata,
    /// `<? … ?>`.
    Instruction,
    /// `<!DOCTYPE …>`.
    Declaration,
}

impl Closer {
    /// Every closer, in the order of [`Closer::index`].
    pub const ALL: [Closer; 4] = [
        Closer::Comment,
        Closer::Cdata,
        Closer::Instruction,
        Closer::Declaration,
    ];

    /// How many closers there are.
    pub const COUNT: usize = Closer::ALL.len();

    /// The string that ends the construct.
    pub fn text(self) -> &'static [u8] {
        match self {
            Closer::Comment => b"-->",
            Closer::Cdata => b"]]>",
            Closer::Instruction => b"?>",
            Closer::Declaration => b">",
        }
    }

    /// A dense index, for per-closer memos.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The constructs that end at a fixed closer, with the closer and where it may start
/// searching (CommonMark counts `<!-->` and `<!--->` as whole comments).
pub fn fixed_closer(rest: &[u8]) -> Option<(Closer, usize)> {
    if rest.starts_with(b"<!--") {
        Some((Closer::Comment, 2))
    } else if rest.starts_with(b"<![CDATA[") {
        Some((Closer::Cdata, 9))
    } else if rest.starts_with(b"<?") {
        Some((Closer::Instruction, 2))
    } else if rest.starts_with(b"<!") && rest.get(2).is_some_and(u8::is_ascii_alphabetic) {
        Some((Closer::Declaration, 2))
    } else {
        None
    }
}

/// `rest`, the end of a text, is a proper prefix of an opener [`fixed_closer`] needs
/// whole before it can tell what it is (`<!-` of `<!--`, `<![CD` of `<![CDATA[`).
pub fn is_cut_opener(rest: &[u8]) -> bool {
    [&b"<!--"[..], b"<![CDATA["]
        .iter()
        .any(|opener| rest.len() < opener.len() && opener.starts_with(rest))
}

/// `[A-Za-z][A-Za-z0-9-]*` from `from`; returns its end (`from` when there is none).
pub fn tag_name_end(bytes: &[u8], from: usize, limit: usize) -> usize {
    if !bytes.get(from).is_some_and(u8::is_ascii_alphabetic) || from >= limit {
        return from;
    }
    from + 1
        + run_within(bytes, from + 1, limit, |b| {
            b.is_ascii_alphanumeric() || b == b'-'
        })
}

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

/// The HTML block that the line `line` opens if it is one that may interrupt a
/// paragraph (start conditions 1–6): `<pre`, `<script`, `<style`, `<textarea`, a comment,
/// a processing instruction, a declaration, CDATA, or a block-level tag. `line` is the
/// line's content from its first non-indentation byte, without its line break.
pub fn interrupting_html_block(line: &[u8]) -> Option<HtmlBlock> {
    if line.first() != Some(&b'<') {
        return None;
    }
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
    let block_tag = BLOCK_TAGS.iter().any(|tag| name.eq_ignore_ascii_case(tag));
    (block_tag && (boundary(name_end) || self_closing)).then_some(HtmlBlock::EndsAtBlankLine)
}
