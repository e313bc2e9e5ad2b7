//! The labels a text defines (link reference definitions and definition-shaped lines),
//! read once for a whole text or, for a stream, line by line as it grows.

use std::collections::HashSet;

use super::bytes::{next_line, skip_line_prefix};
use super::link::{definition, normalize_label};
use super::markdown::{
    FenceRule, NeedMore, definition_label, fence_opener, is_heading_or_break, skip_list_markers,
};
use crate::substr::Substr;

/// The labels a text defines, normalised: by link reference definitions (CommonMark:
/// outside code, not inside a paragraph) and by definition-shaped lines
/// (`[1]: Smith, 2020`, the reference lists of LLM answers, wherever they stand).
#[derive(Debug, Default)]
pub struct Definitions {
    /// Labels of CommonMark link reference definitions: they make reference links.
    pub links: HashSet<String>,
    /// Labels of definition-shaped lines: they make `[text][1]` a label, not a marker.
    pub shaped: HashSet<String>,
}

impl Definitions {
    /// Whether `label` (normalised) is defined; with `shaped`, a definition-shaped line
    /// counts too.
    pub fn defines(&self, label: &str, shaped: bool) -> bool {
        self.links.contains(label) || shaped && self.shaped.contains(label)
    }
}

/// Reads the [`Definitions`] of `text`.
pub fn collect_definitions(text: &str) -> Definitions {
    let mut found = Definitions::default();
    read_lines(text, &mut LineState::default(), &mut found, false);
    found
}

/// The [`Definitions`] of a text that grows (a stream's complete lines), read on from
/// where the last read was decided: each line is read for good once, but for the few
/// lines of a definition whose end was still open, read again as the text grows.
#[derive(Debug, Default)]
pub struct DefinitionReader {
    /// The definitions of the lines read for good.
    settled: Definitions,
    /// Where the lines read for good end, and how the next one is read.
    state: LineState,
    /// The definitions of the lines after those, read as if the text ended there.
    tentative: Definitions,
    /// The length of the text last read.
    read_len: usize,
}

impl DefinitionReader {
    /// Reads `text`, the text last read grown (or the same), and tells whether it defines
    /// `label` (normalised; see [`Definitions::defines`]).
    pub fn defines(&mut self, text: &str, label: &str, shaped: bool) -> bool {
        if text.len() != self.read_len {
            self.read_len = text.len();
            read_lines(text, &mut self.state, &mut self.settled, true);
            self.tentative = Definitions::default();
            read_lines(text, &mut self.state.clone(), &mut self.tentative, false);
        }
        self.settled.defines(label, shaped) || self.tentative.defines(label, shaped)
    }
}

/// Where a line-by-line read of definitions stands.
#[derive(Clone, Debug, Default)]
struct LineState {
    /// The start of the next line to read.
    line: usize,
    /// The last line read was paragraph text (a definition cannot interrupt it).
    in_paragraph: bool,
    /// The lines are the content of a fenced code block with this rule.
    fence: Option<FenceRule>,
}

/// Reads the definitions of the lines of `text` from `state` on into `found`. With
/// `open` (the text may grow) it stops before a definition whose end is not known yet,
/// `state` then telling where to go on.
fn read_lines(text: &str, state: &mut LineState, found: &mut Definitions, open: bool) {
    let bytes = text.as_bytes();
    // A label lies between ASCII brackets, so its ends are char boundaries of `text`:
    // it is borrowed as it is (no copy, no UTF-8 check).
    let label = |from: usize, to: usize| normalize_label(text.sub(from..to));
    while state.line < bytes.len() {
        if let Some(rule) = state.fence {
            let Some(end) = rule.end_from(bytes, state.line) else {
                state.line = bytes.len();
                return; // the fence goes on
            };
            state.line = end.after(bytes);
            state.fence = None;
            state.in_paragraph = false;
            continue;
        }
        let line = state.line;
        let start = skip_list_markers(bytes, skip_line_prefix(bytes, line));
        if let Some(fence) = fence_opener(bytes, start) {
            state.fence = Some(FenceRule::of(bytes, start, fence, 0));
            state.line = next_line(bytes, start);
            continue;
        }
        if !state.in_paragraph {
            match definition(bytes, start, open) {
                Ok(Some((from, to, end))) => {
                    found.links.insert(label(from, to));
                    state.line = end;
                    continue;
                }
                Ok(None) => {}
                Err(NeedMore) => return,
            }
        }
        if let Some(shaped) = definition_label(bytes, start) {
            found.shaped.insert(label(shaped.start, shaped.end));
        }
        let blank = matches!(bytes.get(start), None | Some(b'\n' | b'\r'));
        state.in_paragraph = !blank && !is_heading_or_break(bytes, start);
        state.line = next_line(bytes, line);
    }
}

#[cfg(test)]
mod tests {
    use super::{DefinitionReader, collect_definitions};

    #[test]
    fn a_reader_fed_line_by_line_answers_as_a_whole_read_of_each_prefix() {
        let text = "Intro [a].\n\n[a]: /url\n[b]:\n/dest\n\"title\n\n[c]: /u 'open\ntitle'\n\
                    ```\n[d]: /code\n```\n[e]: /after 'x\n\nnot a title'\n\
                    para\n[f]: /in-paragraph\n\n[1]: Smith, 2020\n- [g]: /item\n";
        let labels = ["a", "b", "c", "d", "e", "f", "g", "1"];
        let mut reader = DefinitionReader::default();
        let line_ends = text.match_indices('\n').map(|(at, _)| at + 1);
        for end in line_ends {
            let prefix = &text[..end];
            let whole = collect_definitions(prefix);
            for label in labels {
                for shaped in [false, true] {
                    assert_eq!(
                        reader.defines(prefix, label, shaped),
                        whole.defines(label, shaped),
                        "[{label}] (shaped: {shaped}) after {prefix:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn labels_of_letters_beyond_ascii_are_read_whole() {
        // The last line is paragraph text, which a link definition cannot interrupt.
        let text = "[Café  Ünïcode]: /u\r\n[🍵]: /tea\r\n[文献 ２]: Smith, 2020\n";
        let found = collect_definitions(text);
        assert!(found.defines("café ünïcode", false), "{found:?}");
        assert!(found.defines("🍵", false), "{found:?}");
        assert!(found.defines("文献 ２", true), "{found:?}");
        assert!(!found.defines("文献 ２", false), "{found:?}");
    }
}
