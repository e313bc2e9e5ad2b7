//! Where a stream's released text may still be revised, and what new text must hold
//! for a push to decide it again (see the [module docs](super)).

use crate::parse::{Closer, Resume, Verbatim, closes, run_length};
use crate::rewrite::{Rewriter, RewriterMark};

/// How far into its line a definition's `]:` can stand: its label (at most 999 bytes)
/// and the line's indentation, quotes and list markers.
const DEFINITION_REACH: usize = 1024;

/// The longest closer a stream looks for in new text (`</script>`), rounded up: the new
/// text is searched from this many bytes before it, for a closer cut by a delta.
const MAX_CLOSER: usize = 16;

/// The earliest point whose released text may still be revised: the rewriter's state
/// there and the scan state to decide again from, and what could make a later push
/// decide differently.
#[derive(Clone, Copy, Debug)]
pub(super) struct Checkpoint {
    pub(super) mark: RewriterMark,
    pub(super) scan: Resume,
    /// The earliest opener after it still open: markers after it are doubtful.
    pub(super) open_from: Option<usize>,
    /// What would close the openers left open ([`closes`] bits).
    pub(super) pending: u32,
    /// A definition arriving could unmake a marker released after it.
    pub(super) labels: bool,
}

impl Checkpoint {
    /// A checkpoint at `mark`, to decide again from `scan`; what could change the
    /// decisions after it is filled in by the push that made it.
    pub(super) fn at(mark: RewriterMark, scan: Resume) -> Checkpoint {
        Checkpoint {
            mark,
            scan,
            open_from: None,
            pending: 0,
            labels: false,
        }
    }

    /// Whether the text from `scanned` (where the last scan ended) on could change a
    /// decision made since the checkpoint: a closer of an open opener (looked for from
    /// a little before, in case a delta cut it), or a definition (looked for from the
    /// start of the line that was unfinished, `line_start`: it defines once it is whole).
    pub(super) fn may_resolve(&self, answer: &[u8], scanned: usize, line_start: usize) -> bool {
        let scanned = scanned.min(answer.len());
        let rest = &answer[scanned.saturating_sub(MAX_CLOSER)..];
        let has = |needle: &[u8]| {
            rest.windows(needle.len())
                .any(|w| w.eq_ignore_ascii_case(needle))
        };
        // A definition's `]:` closes a label that starts its line, within 1 KB of it:
        // only the line that was unfinished (from `line_start`) and new lines can hold one.
        let defines = || {
            let first = &answer[line_start.min(answer.len())..];
            let head = &first[..first.len().min(DEFINITION_REACH)];
            head.windows(2).any(|w| w == b"]:") || rest.windows(2).any(|w| w == b"]:")
        };
        // A closer on the line that was unfinished decided nothing while it could still
        // open a block (`code_span_end`): that line is read again once a line break comes.
        let runs_from = if rest.contains(&b'\n') {
            line_start.min(scanned.saturating_sub(MAX_CLOSER))
        } else {
            scanned.saturating_sub(MAX_CLOSER)
        };
        (self.labels && defines())
            || closes_code_span(answer, runs_from, self.pending)
            || Verbatim::ALL
                .into_iter()
                .any(|v| self.pending & closes::end_tag(v) != 0 && has(v.closer()))
            || Closer::ALL
                .into_iter()
                .any(|c| self.pending & closes::fixed(c) != 0 && has(c.text()))
    }
}

/// Whether a backtick run in `answer` from `from` on may close a code span left open
/// (`pending`, [`closes`] bits): a run of an open span's length, or a run begun before
/// `from`, whose length is not read. (A run at the text's end closes nothing yet, the
/// scanner waits for what follows it, and the next push reads it whole.) Any backtick
/// was taken for a closer before, and a span opened by two backticks made each later
/// push with one rescan from the span.
fn closes_code_span(answer: &[u8], from: usize, pending: u32) -> bool {
    if pending & closes::BACKTICK_RUNS == 0 {
        return false;
    }
    let mut at = from;
    loop {
        let Some(start) = answer[at..].iter().position(|&b| b == b'`').map(|i| at + i) else {
            return false;
        };
        let len = run_length(answer, start, b'`');
        let cut = start == from && from > 0 && answer[from - 1] == b'`';
        if cut || pending & closes::backticks(len) != 0 {
            return true;
        }
        at = start + len;
    }
}

/// Text released after an opener whose closer has not come (a backtick, `<code>`, a
/// comment) is open: the closer, coming later, may turn what follows it into code or
/// out of it. Before releasing past the opener (`open`: where it is, where the next
/// release starts, and the scan state to decide again from), sets the checkpoint there,
/// so that later pushes decide it all again and revise what changed.
pub(super) fn mark_open_region(
    rewriter: &mut Rewriter,
    checkpoint: &mut Option<Checkpoint>,
    answer: &str,
    (doubt_from, next, scan): (Option<usize>, usize, Resume),
) {
    let Some(from) = doubt_from else {
        return;
    };
    if checkpoint.is_some() || next <= from || from < rewriter.position() {
        return;
    }
    rewriter.text_until(answer, from);
    *checkpoint = Some(Checkpoint::at(rewriter.mark(), scan));
}
