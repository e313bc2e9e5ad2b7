//! The marker scanner: one forward pass over the text as a state machine.
//!
//! The scanner jumps from one interesting byte to the next (`[`, `(`, `` ` ``, `<`, a
//! line break, …), decides there whether a marker starts, an excluded region starts
//! (code, a link, a URL, …) that it then skips as a whole, or neither. Look-ahead is
//! bounded or, for code spans and HTML code, remembered when it fails, so the pass is
//! linear in the text length whatever the input.

mod blocks;
mod forms;
mod state;

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;

use state::Inside;
pub(crate) use state::{Resume, Undecided, closes};

use super::bytes::{find_ascii_ci, is_escape, run_length};
use super::definitions::{DefinitionReader, Definitions, collect_definitions};
use super::html::{Read, Verbatim, autolink, closing_tag, open_tag};
use super::html_block::BlockEndSearch;
use super::html_start::{Closer, fixed_closer, is_cut_opener};
use super::link::normalize_label;
use super::markdown::{code_span_end, paragraph_through, starts_url, url_end};
use super::{Parser, PatternSearch};
use crate::byteset::ByteSet;
use crate::model::{Marker, MarkerKind, Refs, Span};
use crate::substr::Substr;
use state::SourceIds;

/// Bytes at which something may start; everything else is skipped in bulk. `0xE3`,
/// `0xEF` and `0xEE` lead `【` (E3 80 90), `［` (EF BC BB) and U+E200 (EE 88 80).
const INTERESTING: ByteSet<10> =
    ByteSet::new([b'\n', b'\\', b'`', b'<', b'[', b'(', b'C', 0xE3, 0xEF, 0xEE]);

/// How far back from a marker candidate the scanner looks for the start of a bare URL.
const MAX_URL_LOOKBACK: usize = 2048;

/// Longest backtick run whose failed closer search is remembered.
const CODE_RUNS: usize = 16;

/// Where a scan reads the text's definitions from.
#[derive(Debug)]
enum DefinitionSource<'p> {
    /// The whole text, read once the first time they matter.
    Text(Option<Definitions>),
    /// A stream's reader, which reads on through the complete lines of its text (the
    /// text up to the start of its last line).
    Stream(&'p mut DefinitionReader, usize),
}

/// One scan's searches of the caller's own patterns ([`PatternSearch`], which has no
/// `Debug`: the scanner's `Debug` shows that it has them).
pub(super) struct Search<'p>(pub(super) Box<dyn PatternSearch + 'p>);

impl fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Search")
    }
}

/// Iterator over the markers of one text, in text order. Created by
/// [`Parser::find_iter`](super::Parser::find_iter).
#[derive(Debug)]
pub struct Markers<'p, 't> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    at_line_start: bool,
    source_ids: SourceIds<'p>,
    /// The text's definitions, read the first time they matter.
    definitions: DefinitionSource<'p>,
    /// `code_fail[n]`: no run of `n` backticks before this position closes a code span.
    code_fail: [usize; CODE_RUNS],
    /// `no_closer[c]`: the closer of [`Closer`] `c` (`-->`, `]]>`, …) no longer occurs
    /// after the current position, so an opener of that kind is text.
    no_closer: [bool; Closer::COUNT],
    /// `closer_past[c]`: (where the closer of [`Closer`] `c` that an opener before found
    /// starts, the start of the line that ended that opener's paragraph before it). An
    /// opener of that kind whose search starts at or before that closer finds the same
    /// one (there is none between), without searching again; one before that line is
    /// text too. So a text of many paragraphs with an opener each stays linear.
    closer_past: [(usize, usize); Closer::COUNT],
    /// `no_end_tag[v]`: the closing tag of [`Verbatim`] `v` (`</code>`, …) no longer
    /// occurs after the current position.
    no_end_tag: [bool; Verbatim::ALL.len()],
    /// `end_tag_past[v]`: as `closer_past`, for the end tag of [`Verbatim`] `v`.
    end_tag_past: [(usize, usize); Verbatim::ALL.len()],
    /// Just after the `]` of a bracket that a reference label `[N]` may follow
    /// (anything but a plain numeric marker, docs/architecture.md §3).
    label_may_follow: Option<usize>,
    /// No bare URL covers the positions of the current token before this one.
    url_clear_until: usize,
    /// The end of the HTML block being scanned (0 or passed: none); inside it, markup is
    /// read as a browser reads it and markdown syntax is text.
    html_block_end: usize,
    /// The last line read was paragraph text (an HTML block of condition 7 cannot
    /// interrupt a paragraph).
    in_paragraph: bool,
    /// Open scans: the content start of the last line read, when the text ended in it
    /// while it read as a thematic break or heading, or could still become one (`__`,
    /// `#`). A byte more may make it paragraph text, or not, so `in_paragraph` is decided
    /// when the next line starts and that line is whole. A position, not a flag: a code
    /// span or tag may carry the scan past the line's end, so the next line start need
    /// not follow it.
    marks_line: Option<usize>,
    /// Open scans resumed at the start of a line that may still be list markers or
    /// quotes: where to ask that again ([`Resume::list_markers_from`]).
    list_markers_from: Option<usize>,
    /// The content column of the list item the lines continue (0: none): a fence in it
    /// ends with it.
    item_indent: usize,
    /// The search for the end of the HTML block being scanned, when it runs to the end
    /// of a text that may still grow.
    html_block_search: Option<BlockEndSearch>,
    /// The scan's searches of the caller's own patterns, if there are any.
    search: Option<Search<'p>>,
    /// The next match of the caller's patterns, searched at or before `pos` (`None`:
    /// no more matches).
    custom: Option<Range<usize>>,
    /// The text may still grow (a stream): decisions that need more of it are not made.
    open: bool,
    /// The state before the decision being made (open scans).
    before: Resume,
    undecided: Undecided,
}

impl<'p, 't> Markers<'p, 't> {
    pub(super) fn new(parser: &'p Parser, text: &'t str, source_ids: &'p [&'p str]) -> Self {
        let definitions = DefinitionSource::Text(None);
        Markers::start(
            parser,
            text,
            SourceIds::new(source_ids),
            Resume::START,
            definitions,
        )
    }

    /// A scan of `text`, a text that may still grow, from `resume` (docs/architecture.md §7): it
    /// stops at the first decision that needs more text and reports what it left open
    /// in [`Markers::undecided`]. `definitions` reads the text's definitions on from
    /// where the stream's last scan left them, up to `last_line`, where the text's last
    /// line (not ended yet) starts.
    pub(crate) fn open(
        parser: &'p Parser,
        text: &'t str,
        source_ids: &'p HashSet<String>,
        resume: Resume,
        (definitions, last_line): (&'p mut DefinitionReader, usize),
    ) -> Self {
        let definitions = DefinitionSource::Stream(definitions, last_line);
        Markers::start(
            parser,
            text,
            SourceIds::Owned(source_ids),
            resume,
            definitions,
        )
    }

    fn start(
        parser: &'p Parser,
        text: &'t str,
        source_ids: SourceIds<'p>,
        resume: Resume,
        definitions: DefinitionSource<'p>,
    ) -> Self {
        let open = matches!(definitions, DefinitionSource::Stream(..));
        let mut markers = Markers {
            text,
            bytes: text.as_bytes(),
            pos: resume.pos,
            at_line_start: resume.at_line_start,
            source_ids,
            definitions,
            code_fail: [0; CODE_RUNS],
            no_closer: [false; Closer::COUNT],
            closer_past: [(0, 0); Closer::COUNT],
            no_end_tag: [false; Verbatim::ALL.len()],
            end_tag_past: [(0, 0); Verbatim::ALL.len()],
            label_may_follow: resume.label_may_follow,
            url_clear_until: resume.url_clear_until,
            html_block_end: resume.html_block_end,
            in_paragraph: resume.in_paragraph,
            marks_line: resume.marks_line,
            list_markers_from: resume.list_markers_from,
            item_indent: resume.item_indent,
            html_block_search: resume.html_block_search,
            search: parser
                .patterns
                .as_ref()
                .map(|patterns| Search(patterns.search(text))),
            custom: None,
            open,
            before: resume,
            undecided: Undecided::default(),
        };
        markers.resume_blocks(resume.inside);
        markers.custom = markers.find_custom(markers.pos);
        markers
    }

    /// What an open scan left undecided; call after the iterator ended.
    pub(crate) fn undecided(self) -> Undecided {
        let end = Resume {
            pos: self.pos.min(self.bytes.len()),
            ..self.state()
        };
        let mut undecided = self.undecided;
        undecided.resume.get_or_insert(end);
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
            marks_line: self.marks_line,
            list_markers_from: self.list_markers_from,
            item_indent: self.item_indent,
            html_block_search: self.html_block_search,
            inside: None,
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
    fn unclosed(&mut self, at: usize, closer: u32) {
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
            raw: self.text.sub(start..end),
        }
    }

    /// Whether a link reference definition anywhere in the text defines `label`
    /// (matched as CommonMark matches labels); with `shaped`, a definition-shaped line
    /// (`[1]: Smith, 2020`) counts too.
    pub(super) fn is_defined(&mut self, label: &str, shaped: bool) -> bool {
        let label = normalize_label(label);
        match &mut self.definitions {
            DefinitionSource::Text(definitions) => definitions
                .get_or_insert_with(|| collect_definitions(self.text))
                .defines(&label, shaped),
            // The unfinished last line defines nothing yet: what follows on it may still
            // make or unmake a definition.
            DefinitionSource::Stream(reader, last_line) => {
                reader.defines(self.text.sub(..*last_line), &label, shaped)
            }
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
        let closer = closes::backticks(len);
        if self.open && p + len == self.bytes.len() {
            return self.wait(p); // the run may grow
        }
        if len < CODE_RUNS && p < self.code_fail[len] {
            self.pos = p + len;
            return;
        }
        match code_span_end(self.bytes, p, len, self.open) {
            // The closer ends the text and may still grow into another run: the span is
            // open as if no closer had come (the scan stops at that run), not waited on
            // from its opener, which would take back text released after the opener
            // while the span had no closer (a revision, seen as a flash).
            Ok(end) if self.open && end == self.bytes.len() => {
                self.unclosed(p, closer);
                self.pos = p + len;
            }
            Ok(end) => self.skip_region(end),
            Err(stop) => {
                if stop >= self.bytes.len() {
                    self.unclosed(p, closer);
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

    /// Raw HTML at `p`: its end when it is markup.
    fn raw_html(&mut self, p: usize) -> Read {
        let bytes = self.bytes;
        let rest = &bytes[p..];
        if let Some((closer, from)) = fixed_closer(rest) {
            let past = self.closer_past[closer.index()];
            if self.no_closer[closer.index()] || (p < past.1 && p + from <= past.0) {
                return Read::No;
            }
            let Some(end) = first_closer(bytes, p + from, closer.text(), past) else {
                self.no_closer[closer.index()] = true;
                self.unclosed(p, closes::fixed(closer));
                return Read::No;
            };
            // Raw HTML ends with its paragraph (CommonMark §6.6): a closer past the
            // paragraph's end closes nothing here.
            return match paragraph_through(bytes, p, end, self.open) {
                Ok(()) => Read::End(end),
                Err(Some(line)) => {
                    self.closer_past[closer.index()] = (end - closer.text().len(), line);
                    Read::No
                }
                Err(None) => Read::Truncated,
            };
        }
        if rest.get(1) == Some(&b'/') {
            return closing_tag(bytes, p);
        }
        let (read, name_end) = open_tag(bytes, p, self.open);
        let Read::End(tag_end) = read else {
            return read;
        };
        let Some(element) = Verbatim::of(&bytes[p + 1..name_end]) else {
            return read;
        };
        let past = self.end_tag_past[element.index()];
        if self.no_end_tag[element.index()] || (p < past.1 && tag_end <= past.0) {
            return read;
        }
        let Some(end) = first_closer(bytes, tag_end, element.closer(), past) else {
            self.no_end_tag[element.index()] = true;
            self.unclosed(p, closes::end_tag(element));
            return read;
        };
        // A browser reads script and style to their end tag whatever lies between; code
        // and pre hold code only up to an end tag in their own paragraph: past it, what
        // follows the tag is prose (docs/markers.md, "Markup").
        if matches!(element, Verbatim::Script | Verbatim::Style) {
            return Read::End(end);
        }
        match paragraph_through(bytes, p, end, self.open) {
            Ok(()) => Read::End(end),
            Err(Some(line)) => {
                self.end_tag_past[element.index()] = (end - element.closer().len(), line);
                read
            }
            Err(None) => Read::Truncated,
        }
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
            let stop = self.next_custom().map_or(len, |found| found.start);
            if stop == self.pos {
                if let Some(url_end) = self.url_covering(stop) {
                    self.pos = url_end;
                    continue;
                }
                if let Some(found) = self.custom.take() {
                    return Some(self.custom_marker(found));
                }
            }
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

/// The end of the first `closer` at or after `from`: the one found before (`past.0`, where
/// it starts) when the search would reach it first, else searched for.
fn first_closer(bytes: &[u8], from: usize, closer: &[u8], past: (usize, usize)) -> Option<usize> {
    if past.1 > 0 && from <= past.0 {
        return Some(past.0 + closer.len());
    }
    find_ascii_ci(bytes, from, closer)
}
