//! Block structure as the scanner meets it at line starts: list items, definition
//! lines, task boxes, fenced code and HTML blocks. A stream whose text ends inside a
//! fence, an HTML block or a piece of markup in one resumes the search for its end
//! where the last scan stopped ([`Inside`]), so a block that never ends costs each
//! push only its new text.

use super::{Inside, Markers, Resume};
use crate::model::Marker;
use crate::parse::bracket::{MAX_BODY, find_in_line, square};
use crate::parse::bytes::{
    line_end, line_start, next_line, run_length, skip_line_prefix, skip_quotes,
};
use crate::parse::html_block::{
    BlockEndSearch, Markup, html_block_start, html_block_start_open, html5_markup_end,
    markup_kind_open,
};
use crate::parse::link::definition;
use crate::parse::markdown::{
    FenceEnd, FenceRule, NeedMore, definition_label, fence_opener, heading_or_break_open,
    is_heading_or_break, list_item_indent, list_markers_open, may_be_list_markers,
    skip_list_markers, task_box_end,
};
use crate::substr::Substr;

impl<'t> Markers<'_, 't> {
    /// Handles the start of a line: fences, definition lines and task boxes.
    pub(super) fn line_start(&mut self) {
        self.at_line_start = false;
        self.label_may_follow = None;
        let bytes = self.bytes;
        let p = self.pos;
        if let Some(marks) = self.marks_line.take() {
            // The line of marks read before has ended: now it is decided.
            self.in_paragraph = !is_heading_or_break(bytes, marks);
        }
        if let Some(from) = self.list_markers_from.take() {
            // At the last push the line was list markers or quotes up to `from`: only
            // what came since is read, so a long line of them costs linear time.
            if let Some(at) = list_markers_open(bytes, from) {
                self.before.list_markers_from = Some(at);
                return self.wait(p);
            }
        }
        let start = skip_line_prefix(bytes, p);
        let content = skip_list_markers(bytes, start);
        let first = bytes.get(content).copied();
        if self.open && self.line_open(start) && self.line_kind_open(start, content) {
            // The line may still become (or stop being) a fence or an HTML block.
            self.before.list_markers_from = list_markers_open(bytes, start);
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
            let rule = FenceRule::of(bytes, content, fence, self.item_indent);
            if self.open && line_end(bytes, content) == bytes.len() {
                // The opener's line goes on: its info string, not code yet.
                self.pos = bytes.len();
                return self.restart_here();
            }
            return self.fence_from(rule, next_line(bytes, content), false);
        }
        if let Some(block) = html_block_start(bytes, content, continues_paragraph) {
            self.pos = content;
            self.html_block_search = None;
            self.html_block_from(BlockEndSearch::start(bytes, content, block));
            return;
        }
        if self.line_open(content) && heading_or_break_open(bytes, content) {
            // Left to the next line's start (`marks_line`): waiting here instead would
            // read a long line of marks again at every push.
            self.marks_line = Some(content);
        } else {
            self.in_paragraph = !matches!(first, None | Some(b'\n' | b'\r'))
                && !is_heading_or_break(bytes, content);
        }
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

    /// Inside an HTML block: markup as a browser reads it is skipped, a marker in text
    /// counts, and markdown syntax (code spans, escapes) is text.
    pub(super) fn html_block_step(&mut self) -> Option<Marker<'t>> {
        let p = self.pos;
        match self.bytes[p] {
            b'<' => {
                let at_text_end = self.open && self.html_block_end == self.bytes.len();
                if at_text_end && markup_kind_open(&self.bytes[p..]) {
                    self.wait(p);
                    return None;
                }
                match html5_markup_end(self.bytes, p, self.html_block_end) {
                    Some(markup) => self.markup(markup),
                    None => self.pos = p + 1,
                }
            }
            b'[' => return self.html_block_bracket(),
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

    /// A `[` in an HTML block, where markdown is text: a marker when its body is one
    /// (`[1]`, `[doc2]`), never a link, an image or a reference label.
    fn html_block_bracket(&mut self) -> Option<Marker<'t>> {
        let (bytes, p) = (self.bytes, self.pos);
        self.pos = p + 1;
        let end = self.html_block_end.min(p + 1 + MAX_BODY);
        let close = bytes[p + 1..end]
            .iter()
            .position(|&b| matches!(b, b']' | b'[' | b'\n'))
            .map(|at| p + 1 + at);
        let Some(close) = close.filter(|&c| bytes[c] == b']') else {
            if close.is_none() && self.open && end == bytes.len() {
                self.wait(p); // the body is still being written
            }
            return None;
        };
        let ids = &self.source_ids;
        let (refs, kind) = square(self.text.sub(p + 1..close), &|id: &str| ids.contains(id))?;
        self.pos = close + 1;
        Some(self.marker(p, close + 1, refs, kind))
    }

    /// Goes on, in a scan that resumes a stream, with the fence, HTML block or markup the
    /// last scan's text ended inside ([`Resume`]): the search for its end starts where
    /// that scan's stopped.
    pub(super) fn resume_blocks(&mut self, inside: Option<Inside>) {
        if let Some(search) = self.html_block_search {
            self.html_block_from(search);
        }
        match inside {
            Some(Inside::Fence { rule, mid_line }) => self.fence_from(rule, self.pos, mid_line),
            // At or past the block's end, the markup ended with it (only blank space was
            // read past it); else it goes on, perhaps still to the end of the text.
            Some(Inside::Markup(markup))
                if self.pos < self.html_block_end || self.html_block_search.is_some() =>
            {
                let markup = markup.read(self.bytes, self.html_block_end);
                self.markup(markup);
            }
            _ => {}
        }
    }

    /// The code of the fence with `rule`, from `line` on (with `mid_line`, from within
    /// a line known to be code): skipped to the fence's end. In a text that may grow, the
    /// unfinished last line decides nothing that may still change (a closing fence being
    /// written, quote markers), and where the code runs to the end of the text, the next
    /// scan goes on from the last line, or from the end within a line of code.
    fn fence_from(&mut self, rule: FenceRule, mut line: usize, mid_line: bool) {
        let (bytes, len) = (self.bytes, self.bytes.len());
        self.at_line_start = true;
        if mid_line {
            match bytes[line..].iter().position(|&b| b == b'\n') {
                Some(at) => line += at + 1,
                None => return self.still_in_fence(rule, len, true),
            }
        }
        let last = line_start(bytes, len).max(line);
        let unfinished = self.open && last < len;
        match rule.end_from(bytes, line) {
            Some(end) if !(unfinished && end.line() == last) => self.pos = end.after(bytes),
            Some(FenceEnd::Leaves(_)) if rule.leaves_for_good(bytes, last) => self.pos = last,
            _ if !self.open => self.pos = len,
            _ if unfinished && !rule.open_line(bytes, last) => self.still_in_fence(rule, len, true),
            _ => self.still_in_fence(rule, last, false),
        }
    }

    /// Open scans: the fence with `rule` goes on to the end of the text; the next scan
    /// resumes it at `from` (a line start, or with `mid_line` within a line of code).
    fn still_in_fence(&mut self, rule: FenceRule, from: usize, mid_line: bool) {
        self.pos = self.bytes.len();
        self.undecided.resume.get_or_insert(Resume {
            pos: from,
            at_line_start: !mid_line,
            inside: Some(Inside::Fence { rule, mid_line }),
            ..self.state()
        });
    }

    /// Finds the end of the HTML block the scan is in with `search`; where that is the
    /// end of a text that may grow, keeps the search for the next scan to go on with.
    fn html_block_from(&mut self, search: BlockEndSearch) {
        let (end, next) = search.run(self.bytes);
        self.html_block_end = end;
        self.html_block_search = next.filter(|_| self.open);
    }

    /// Skips a piece of markup in an HTML block. One that runs to the end of a text
    /// that may grow is read on by the next scan from where this one stopped.
    fn markup(&mut self, markup: Markup) {
        match markup {
            Markup::End(end) => self.skip_region(end),
            Markup::Open(open) => {
                if self.html_block_search.is_some() {
                    self.undecided.resume.get_or_insert(Resume {
                        pos: open.from,
                        inside: Some(Inside::Markup(open)),
                        ..self.state()
                    });
                }
                self.skip_region(self.html_block_end);
            }
        }
    }
}
