//! The marker scanner: one forward pass over the text as a state machine.
//!
//! The scanner jumps from one interesting byte to the next (`[`, `(`, `` ` ``, `<`, a
//! line break, …), decides there whether a marker starts, an excluded region starts
//! (code, a link, a URL, …) that it then skips as a whole, or neither. Look-ahead is
//! bounded or, for code spans and HTML code, remembered when it fails, so the pass is
//! linear in the text length whatever the input.

mod forms;
mod state;

use std::collections::HashSet;

pub(crate) use state::{Resume, Undecided, closes};

use super::Parser;
use super::bracket::MAX_BODY;
use super::html::*;
use super::html_block::*;
use super::link::{definition, normalize_label};
use super::markdown::*;
use crate::byteset::ByteSet;
use crate::model::{Marker, MarkerKind, Refs, Span};
use state::SourceIds;

/// Bytes at which something may start; everything else is skipped in bulk. `0xE3`,
/// `0xEF` and `0xEE` lead `【` (E3 80 90), `［` (EF BC BB) and U+E200 (EE 88 80).
const INTERESTING: ByteSet<10> =
    ByteSet::new([b'\n', b'\\', b'`', b'<', b'[', b'(', b'C', 0xE3, 0xEF, 0xEE]);

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
    source_ids: SourceIds<'p>,
    /// Normalised labels of the text's definitions, read the first time they matter.
    definitions: Option<Definitions>,
    /// `code_fail[n]`: no run of `n` backticks before this position closes a code span.
    code_fail: [usize; CODE_RUNS],
    /// `no_closer[c]`: the closer of [`Closer`] `c` (`-->`, `]]>`, …) no longer occurs
    /// after the current position, so an opener of that kind is text.
    no_closer: [bool; Closer::COUNT],
    /// `no_end_tag[v]`: the closing tag of [`Verbatim`] `v` (`</code>`, …) no longer
    /// occurs after the current position.
    no_end_tag: [bool; Verbatim::ALL.len()],
    /// Just after the `]` of a bracket that a reference label `[N]` may follow
    /// (anything but a plain numeric marker, DESIGN.md §3).
    label_may_follow: Option<usize>,
    /// No bare URL covers the positions of the current token before this one.
    url_clear_until: usize,
    /// The end of the HTML block being scanned (0 or passed: none); inside it, markup is
    /// read as a browser reads it and markdown syntax is text.
    html_block_end: usize,
    /// The last line read was paragraph text (an HTML block of condition 7 cannot
    /// interrupt a paragraph).
    in_paragraph: bool,
    /// The content column of the list item the lines continue (0: none): a fence in it
    /// ends with it.
    item_indent: usize,
    /// Next match of each custom pattern at or after `pos` (`None`: no more matches).
    custom: Vec<Option<(usize, usize)>>,
    /// The text may still grow (a stream): decisions that need more of it are not made.
    open: bool,
    /// The state before the decision being made (open scans).
    before: Resume,
    undecided: Undecided,
}

impl<'p, 't> Markers<'p, 't> {
    pub(super) fn new(parser: &'p Parser, text: &'t str, source_ids: &'p [&'p str]) -> Self {
        Markers::start(
            parser,
            text,
            SourceIds::new(source_ids),
            false,
            Resume::START,
        )
    }

    /// A scan of `text`, a text that may still grow, from `resume` (DESIGN.md §7): it
    /// stops at the first decision that needs more text and reports what it left open
    /// in [`Markers::undecided`].
    pub(crate) fn open(
        parser: &'p Parser,
        text: &'t str,
        source_ids: &'p HashSet<String>,
        resume: Resume,
    ) -> Self {
        Markers::start(parser, text, SourceIds::Owned(source_ids), true, resume)
    }

    fn start(
        parser: &'p Parser,
        text: &'t str,
        source_ids: SourceIds<'p>,
        open: bool,
        resume: Resume,
    ) -> Self {
        let mut markers = Markers {
            parser,
            text,
            bytes: text.as_bytes(),
            pos: resume.pos,
            at_line_start: resume.at_line_start,
            source_ids,
            definitions: None,
            code_fail: [0; CODE_RUNS],
            no_closer: [false; Closer::COUNT],
            no_end_tag: [false; Verbatim::ALL.len()],
            label_may_follow: resume.label_may_follow,
            url_clear_until: resume.url_clear_until,
            html_block_end: resume.html_block_end,
            in_paragraph: resume.in_paragraph,
            item_indent: resume.item_indent,
            custom: vec![None; parser.patterns.len()],
            open,
            before: resume,
            undecided: Undecided::default(),
        };
        for i in 0..parser.patterns.len() {
            markers.custom[i] = markers.find_custom(i, resume.pos);
        }
        markers
    }

    /// What an open scan left undecided; call after the iterator ended.
    pub(crate) fn undecided(self) -> Undecided {
        let mut undecided = self.undecided;
        undecided.resume.get_or_insert(Resume {
            pos: self.pos.min(self.bytes.len()),
            at_line_start: self.at_line_start,
            label_may_follow: self.label_may_follow,
            url_clear_until: self.url_clear_until,
            html_block_end: self.html_block_end,
            in_paragraph: self.in_paragraph,
            item_indent: self.item_indent,
        });
        undecided
    }

    /// Open scans: keeps the state before the decision being made, to restart there.
    #[inline]
    fn remember_state(&mut self) {
        if self.open {
            self.before = self.state();
        }
    }

    fn state(&self) -> Resume {
        Resume {
            pos: self.pos,
            at_line_start: self.at_line_start,
            label_may_follow: self.label_may_follow,
            url_clear_until: self.url_clear_until,
            html_block_end: self.html_block_end,
            in_paragraph: self.in_paragraph,
            item_indent: self.item_indent,
        }
    }

    /// Open scans: the line holding `from` has not ended yet. Asked only about
    /// decisions near the end of the text, so the search is short.
    fn line_open(&self, from: usize) -> bool {
        self.open
            && !self
                .bytes
                .get(from..)
                .is_some_and(|rest| rest.contains(&b'\n'))
    }

    /// Open scans: a search from `from`, bounded by its line and `bound` bytes, failed
    /// only because the text ended.
    fn search_open(&self, from: usize, bound: usize) -> bool {
        from + bound > self.bytes.len() && self.line_open(from)
    }

    /// Open scans: the decision at `at` needs more text; the scan stops before it.
    fn wait(&mut self, at: usize) {
        self.undecided.wait.get_or_insert(at);
        self.undecided.resume.get_or_insert(self.before);
        self.pos = self.bytes.len();
    }

    /// Open scans: the opener at `at` has no closer yet, so later markers are doubtful.
    /// `closer` ([`closes`] bits) is what would close it. The scan goes on past it; the
    /// stream decides what comes after again once such a closer arrives.
    fn unclosed(&mut self, at: usize, closer: u16) {
        if self.open {
            self.undecided.doubt_from.get_or_insert(at);
            self.undecided.doubt_resume.get_or_insert(self.before);
            self.undecided.pending |= closer;
        }
    }

    /// Open scans: the next scan must look at the current decision again.
    fn restart_here(&mut self) {
        if self.open {
            self.undecided.resume.get_or_insert(self.before);
        }
    }

    fn marker(&self, start: usize, end: usize, refs: Refs<'t>, kind: MarkerKind) -> Marker<'t> {
        Marker {
            span: Span::new(start, end),
            refs,
            kind,
            raw: &self.text[start..end],
        }
    }

    /// Whether a link reference definition anywhere in the text defines `label`
    /// (matched as CommonMark matches labels); with `shaped`, a definition-shaped line
    /// (`[1]: Smith, 2020`) counts too.
    pub(super) fn is_defined(&mut self, label: &str, shaped: bool) -> bool {
        // In a text that may still grow, the unfinished last line defines nothing yet:
        // what follows on it may still make or unmake a definition.
        let text = match self.open {
            true => &self.text[..self.text.rfind('\n').map_or(0, |at| at + 1)],
            false => self.text,
        };
        let definitions = self
            .definitions
            .get_or_insert_with(|| collect_definitions(text));
        let label = normalize_label(label);
        definitions.links.contains(&label) || shaped && definitions.shaped.contains(&label)
    }

    /// Handles the start of a line: fences, definition lines and task boxes.
    fn line_start(&mut self) {
        self.at_line_start = false;
        self.label_may_follow = None;
        let bytes = self.bytes;
        let p = self.pos;
        let start = skip_line_prefix(bytes, p);
        let content = skip_list_markers(bytes, start);
        let first = bytes.get(content).copied();
        if self.open && self.line_open(start) && self.line_kind_open(start, content) {
            // The line may still become (or stop being) a fence or an HTML block.
            return self.wait(p);
        }
        let continues_paragraph = self.in_paragraph;
        if first.is_some_and(|b| b.is_ascii_alphabetic() || b >= 0x80) {
            // A line of words (most lines): no block starts with a letter.
            self.in_paragraph = true;
            if content != start || self.item_indent > 0 {
                self.track_list_item(p, start, content, continues_paragraph);
            }
            self.pos = start;
            return;
        }
        self.in_paragraph = false;
        self.track_list_item(p, start, content, continues_paragraph);
        if let Some(fence) = fence_opener(bytes, content) {
            self.pos = fenced_block_end(bytes, content, fence, self.item_indent);
            self.at_line_start = true;
            if self.pos == bytes.len() {
                self.restart_here(); // all code so far, but the closing fence may come
            }
            return;
        }
        if let Some(block) = html_block_start(bytes, content, continues_paragraph) {
            self.html_block_end = html_block_end(bytes, content, block);
            self.pos = content;
            if self.html_block_end == bytes.len() {
                self.restart_here(); // the block's end may still come
            }
            return;
        }
        self.in_paragraph =
            !matches!(first, None | Some(b'\n' | b'\r')) && !is_heading_or_break(bytes, content);
        if first == Some(b'[') && self.definition_open(content) {
            return self.wait(p);
        }
        match definition(bytes, content, self.open) {
            Ok(Some((_, _, end))) => {
                self.pos = end; // a definition, perhaps over several lines
                self.at_line_start = true;
                return;
            }
            Ok(None) => {}
            Err(NeedMore) => return self.wait(p),
        }
        if definition_label(bytes, content).is_some() {
            self.pos = line_end(bytes, content); // definition-shaped: `[1]: Smith, 2020`
            if self.line_open(content) {
                self.restart_here();
            }
            return;
        }
        match task_box_end(bytes, start, self.open) {
            Ok(Some(end)) => self.pos = end,
            Ok(None) => self.pos = start,
            Err(NeedMore) => self.wait(p),
        }
    }

    /// Open scans, on an unfinished last line: whether what its start makes of it (list
    /// item, fence, HTML block) may still change as it grows. Decided as early as the
    /// line allows, so that a long line is not held whole.
    fn line_kind_open(&self, start: usize, content: usize) -> bool {
        let bytes = self.bytes;
        let rest = &bytes[content..];
        match rest.first() {
            None => true,
            _ if may_be_list_markers(bytes, start) => true,
            Some(&fence @ (b'`' | b'~')) => {
                let run = run_length(bytes, content, fence);
                if content + run == bytes.len() {
                    return true; // the run may grow to three
                }
                // A backtick fence's info string holds no backtick: until one comes, or
                // the line ends, it may still be one.
                run >= 3 && fence == b'`' && !rest[run..].contains(&b'`')
            }
            Some(b'<') => html_block_start_open(bytes, content, self.in_paragraph),
            Some(_) => false,
        }
    }

    /// Follows the list item that the line at `line` (content from `start`, after list
    /// markers from `content`) opens, continues or leaves.
    fn track_list_item(&mut self, line: usize, start: usize, content: usize, lazy: bool) {
        let bytes = self.bytes;
        if let Some(indent) = list_item_indent(bytes, line) {
            self.item_indent = indent;
        } else if !matches!(bytes.get(content), None | Some(b'\n' | b'\r')) {
            let indent = start - skip_quotes(bytes, line);
            if indent < self.item_indent && !lazy {
                self.item_indent = 0;
            }
        }
    }

    /// Open scans: whether `[…]:` at `start` may still become a definition line.
    fn definition_open(&self, start: usize) -> bool {
        match find_in_line(self.bytes, start + 1, b']') {
            None => self.search_open(start + 1, MAX_BODY),
            Some(close) => self.open && close + 1 == self.bytes.len(),
        }
    }

    /// Looks at the interesting byte at `self.pos`; returns a marker or advances.
    fn step(&mut self) -> Option<Marker<'t>> {
        let bytes = self.bytes;
        let p = self.pos;
        if p < self.html_block_end {
            return self.html_block_step();
        }
        match bytes[p] {
            b'\n' => {
                self.pos += 1;
                self.at_line_start = true;
            }
            b'\\' if self.open && p + 1 == bytes.len() => self.wait(p),
            b'\\' => {
                self.pos += if is_escape(bytes, p) { 2 } else { 1 };
            }
            b'`' => self.code_span(),
            b'<' => self.html(),
            b'C' | b'(' | b'[' | 0xE3 | 0xEF => {
                if let Some(end) = self.url_covering(p) {
                    self.pos = end;
                    if end == bytes.len() {
                        self.restart_here(); // the URL may go on
                    }
                    return None;
                }
                return match bytes[p] {
                    b'C' => self.section(),
                    b'(' => self.parenthetical(),
                    b'[' => self.bracket(),
                    0xE3 if bytes[p..].starts_with("【".as_bytes()) => self.lenticular(),
                    0xEF if bytes[p..].starts_with("［".as_bytes()) => self.fullwidth(),
                    _ => {
                        self.pos += 1;
                        None
                    }
                };
            }
            0xEE if bytes[p..].starts_with("\u{E200}".as_bytes()) => return self.private_use(),
            _ => self.pos += 1,
        }
        None
    }

    fn code_span(&mut self) {
        let p = self.pos;
        let len = run_length(self.bytes, p, b'`');
        if self.open && p + len == self.bytes.len() {
            return self.wait(p); // the run may grow
        }
        if len < CODE_RUNS && p < self.code_fail[len] {
            self.pos = p + len;
            return;
        }
        match code_span_end(self.bytes, p, len, self.open) {
            Ok(end) if self.open && end == self.bytes.len() => self.wait(p),
            Ok(end) => self.skip_region(end),
            Err(stop) => {
                if stop >= self.bytes.len() {
                    self.unclosed(p, closes::BACKTICKS);
                }
                if len < CODE_RUNS {
                    self.code_fail[len] = stop;
                }
                self.pos = p + len;
            }
        }
    }

    /// At a `<`: an autolink, raw HTML (a tag, comment, processing instruction,
    /// declaration or CDATA) or text; `<code>`, `<pre>`, `<script>` and `<style>` are
    /// skipped with their content (docs/markers.md, "Markup").
    fn html(&mut self) {
        let bytes = self.bytes;
        let p = self.pos;
        if self.open && is_cut_opener(&bytes[p..]) {
            return self.wait(p); // `<!-` may become a comment, `<![CD` CDATA
        }
        let read = match autolink(bytes, p) {
            Read::No => self.raw_html(p),
            read => read,
        };
        match read {
            Read::End(end) => self.skip_region(end),
            Read::Truncated if self.open => self.wait(p),
            Read::Truncated | Read::No => self.pos = p + 1,
        }
    }

    /// Inside an HTML block: markup as a browser reads it is skipped, a marker in text
    /// counts, and markdown syntax (code spans, escapes) is text.
    fn html_block_step(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        match self.bytes[p] {
            b'<' => match html5_markup_end(self.bytes, p, self.html_block_end) {
                Some(end) => self.skip_region(end),
                None => self.pos = p + 1,
            },
            b'[' => return self.bracket(),
            0xE3 if self.bytes[p..].starts_with("【".as_bytes()) => return self.lenticular(),
            0xEF if self.bytes[p..].starts_with("［".as_bytes()) => return self.fullwidth(),
            0xEE if self.bytes[p..].starts_with("\u{E200}".as_bytes()) => {
                return self.private_use();
            }
            b'\n' => {
                self.pos += 1;
                self.at_line_start = true;
            }
            _ => self.pos += 1,
        }
        None
    }

    /// Raw HTML at `p`: its end when it is markup.
    fn raw_html(&mut self, p: usize) -> Read {
        let bytes = self.bytes;
        let rest = &bytes[p..];
        if let Some((closer, from)) = fixed_closer(rest) {
            if self.no_closer[closer.index()] {
                return Read::No;
            }
            let end = find_ascii_ci(bytes, p + from, closer.text());
            self.no_closer[closer.index()] = end.is_none();
            if end.is_none() {
                self.unclosed(p, closes::fixed(closer));
            }
            return end.map_or(Read::No, Read::End);
        }
        if rest.get(1) == Some(&b'/') {
            return closing_tag(bytes, p);
        }
        let (read, name_end) = open_tag(bytes, p);
        let Read::End(tag_end) = read else {
            return read;
        };
        let Some(element) = Verbatim::of(&bytes[p + 1..name_end]) else {
            return read;
        };
        if self.no_end_tag[element.index()] {
            return read;
        }
        let end = find_ascii_ci(bytes, tag_end, element.closer());
        self.no_end_tag[element.index()] = end.is_none();
        if end.is_none() {
            self.unclosed(p, closes::end_tag(element));
        }
        Read::End(end.unwrap_or(tag_end))
    }

    /// Skips a region that is not prose (markup, a link, a code span) ending at `end`;
    /// a bare URL found later cannot reach back into it.
    pub(super) fn skip_region(&mut self, end: usize) {
        self.pos = end;
        self.url_clear_until = end;
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
        match url_start.map(|start| url_end(bytes, start)) {
            Some(end) if end > p => Some(end),
            _ => {
                self.url_clear_until = p;
                None
            }
        }
    }
}

impl<'t> Iterator for Markers<'_, 't> {
    type Item = Marker<'t>;

    fn next(&mut self) -> Option<Marker<'t>> {
        let len = self.bytes.len();
        while self.pos < len {
            if self.at_line_start && self.pos >= self.html_block_end {
                self.remember_state();
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
                self.remember_state();
                if let Some(marker) = self.step() {
                    if self.open && marker.span.end == len {
                        // Cleaning looks at the byte after a marker (the space after a
                        // removed one at a line start).
                        self.wait(marker.span.start);
                        return None;
                    }
                    if self.open {
                        self.undecided
                            .marker_states
                            .push((marker.span.start, self.before));
                    }
                    return Some(marker);
                }
            }
        }
        None
    }
}

/// The first interesting byte in `bytes[from..stop]`, or `stop`.
#[inline]
fn skip_plain(bytes: &[u8], from: usize, stop: usize) -> usize {
    INTERESTING.find(bytes, from, stop)
}
