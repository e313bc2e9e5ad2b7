//! The scanner's state for texts that may still grow (streams), and the source ids a
//! `[id]` marker may name.

use std::collections::HashSet;

use crate::parse::html_block::{BlockEndSearch, OpenMarkup};
use crate::parse::markdown::FenceRule;

/// The ids a bracketed `[id]` marker may name.
#[derive(Debug)]
pub(crate) enum SourceIds<'p> {
    /// A few ids, searched in order.
    List(&'p [&'p str]),
    /// Enough ids to be worth hashing.
    Set(HashSet<&'p str>),
    /// A stream's set, built once for all its scans.
    Owned(&'p HashSet<String>),
}

impl<'p> SourceIds<'p> {
    pub(super) fn new(ids: &'p [&'p str]) -> SourceIds<'p> {
        if ids.len() > 8 {
            SourceIds::Set(ids.iter().copied().collect())
        } else {
            SourceIds::List(ids)
        }
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        match self {
            SourceIds::List(ids) => ids.contains(&id),
            SourceIds::Set(set) => set.contains(id),
            SourceIds::Owned(set) => set.contains(id),
        }
    }
}

/// Where the scan of a growing text (a stream) can restart: a position and the scanner
/// state there. Everything before it was decided for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    /// Byte position.
    pub pos: usize,
    pub(super) at_line_start: bool,
    pub(super) label_may_follow: Option<usize>,
    /// No bare URL reaches back before this position (the end of the last link,
    /// autolink or markup skipped).
    pub(super) url_clear_until: usize,
    /// The end of the HTML block the position is in (0: none).
    pub(super) html_block_end: usize,
    /// The last line read was paragraph text, which some blocks cannot interrupt.
    pub(super) in_paragraph: bool,
    /// The content start of a line of marks the text ended in: whether it was
    /// paragraph text is decided when the next line starts.
    pub(super) marks_line: Option<usize>,
    /// Set when the scan waits at the start of a line that may still be list markers or
    /// quotes (`* * * …`, `> > …`): where the next scan asks that again
    /// ([`list_markers_open`](crate::parse::markdown::list_markers_open)), so that it
    /// reads only what came since instead of the whole line.
    pub(super) list_markers_from: Option<usize>,
    /// The content column of the list item the lines continue (0: none).
    pub(super) item_indent: usize,
    /// The search for the end of the HTML block the position is in, when that block ran
    /// to the end of the text: the next scan finds its end from there.
    pub(super) html_block_search: Option<BlockEndSearch>,
    /// The construct the position is inside, whose end the next scan looks for first.
    pub(super) inside: Option<Inside>,
}

/// A construct that the text ended inside, resumed by the next scan of the grown text
/// where the last one stopped looking for its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inside {
    /// The content of a fenced code block: the position is the start of a line, or,
    /// with `mid_line`, within a line already known to be code.
    Fence { rule: FenceRule, mid_line: bool },
    /// A piece of markup in an HTML block (a comment, a tag, a `<script>`).
    Markup(OpenMarkup),
}

impl Resume {
    /// The start of a text.
    pub const START: Resume = Resume {
        pos: 0,
        at_line_start: true,
        label_may_follow: None,
        url_clear_until: 0,
        html_block_end: 0,
        in_paragraph: false,
        marks_line: None,
        list_markers_from: None,
        item_indent: 0,
        html_block_search: None,
        inside: None,
    };
}

/// What the scan of a text that may still grow left undecided.
#[derive(Clone, Debug, Default)]
pub(crate) struct Undecided {
    /// The first position whose decision needs text not seen yet; the scan stopped there.
    pub wait: Option<usize>,
    /// An opened code span, `<code>`, `<pre>` or comment without a closer yet: markers
    /// after it stop being markers if the closer comes.
    pub doubt_from: Option<usize>,
    /// Ranges whose markers a definition arriving later unmakes: a marker `[N]` right
    /// after another bracket (`[text][N]`, it would become a link label), or the text of
    /// `[text [1]][ref]` (it would become a link's text).
    pub label_doubts: Vec<(usize, usize)>,
    /// The state before the first label doubt, where a scan that must decide it again
    /// starts.
    pub label_resume: Option<Resume>,
    /// The state before `doubt_from`'s opener, where a scan that decides it again
    /// starts.
    pub doubt_resume: Option<Resume>,
    /// What would close the openers left open ([`closes`] bits): text that holds none
    /// of them cannot change what came after those openers.
    pub pending: u32,
    /// The state before each marker found, for a stream to go on from a marker it holds.
    pub marker_states: Vec<(usize, Resume)>,
    /// Where the next scan must restart (`None`: where this one ended).
    pub resume: Option<Resume>,
}

/// Bits of [`Undecided::pending`]: what closes an opener left open.
pub(crate) mod closes {
    use crate::parse::html::Verbatim;
    use crate::parse::html_start::Closer;

    /// The end tag of a `<code>`, `<pre>`, `<script>` or `<style>`.
    pub fn end_tag(element: Verbatim) -> u32 {
        1 << element.index()
    }

    /// A comment's `-->`, a CDATA's `]]>`, an instruction's `?>`, a declaration's `>`.
    pub fn fixed(closer: Closer) -> u32 {
        1 << (4 + closer.index())
    }

    /// A run of `len` backticks, closed by a run of as many: one bit per length from 1
    /// to 15, one for 16 and more.
    pub fn backticks(len: usize) -> u32 {
        1 << (7 + len.clamp(1, 16))
    }

    /// Every backtick run's bit.
    pub const BACKTICK_RUNS: u32 = 0xFFFF << 8;
}
