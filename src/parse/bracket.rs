//! The grammar of what sits between a marker's brackets.
//!
//! Each function reads one bracket body (the text between `[` and `]`, `【` and `】`, …)
//! and says whether it is a marker and what it refers to. They never look outside the
//! body: markdown context (code, links, definitions) is the scanner's job. Where a body
//! ends is found within [`MAX_BODY`] bytes of its start ([`find_bracket_close`],
//! [`find_in_line`]).

use crate::model::{Labels, MarkerKind, Refs};
use crate::substr::Substr;

/// Most source labels one marker may expand to; `[1-100000]` is not a citation.
pub const MAX_REFS: usize = 1000;

/// Longest bracket body worth reading as a marker, in bytes. Bounds the scanner's
/// look-ahead so that a stray `[` costs O(1).
pub const MAX_BODY: usize = 256;

/// Word prefixes of labeled markers (`[doc1]`, `[Source 3]`, `[ref 1]`, `[Ref. 4]`,
/// `[citation:1]`, `[cite: 1]`, and `[web:1]` as answers pasted from Perplexity and
/// ChatGPT write them), compared ASCII-case-insensitively.
const LABEL_WORDS: &[&str] = &[
    "sources",
    "source",
    "src",
    "references",
    "reference",
    "refs",
    "ref",
    "citations",
    "citation",
    "cite",
    "documents",
    "document",
    "docs",
    "doc",
    "web",
];

/// A square-bracket body: `1, 2`, `^1^`, `doc1`, `Source 3`, `chunk:abc`, a known id.
pub fn square<'t>(
    body: &'t str,
    is_source_id: &dyn Fn(&str) -> bool,
) -> Option<(Refs<'t>, MarkerKind)> {
    if let Some(refs) = number_list(body) {
        return Some((Refs::Numbers(refs), MarkerKind::Numeric));
    }
    if let Some(rest) = body.strip_prefix('^') {
        let digits = rest.strip_suffix('^').unwrap_or(rest);
        return single_number(digits)
            .map(|n| (Refs::Numbers(Labels::from(&[n][..])), MarkerKind::Footnote));
    }
    // A known source id wins over the labeled reading: with a source `docs2`,
    // `[docs2]` names it, not source 2.
    if let Some(id) = named(body, is_source_id) {
        return Some((Refs::Ids(vec![id]), MarkerKind::Named));
    }
    labeled(body).map(|refs| (Refs::Numbers(refs), MarkerKind::Labeled))
}

/// A `【…】` body: `1`, `1, 2`, `3†source`, or a provider form: `4:0†source` (OpenAI
/// Assistants) or `85†L261-269` (ChatGPT's browsing tool: a page it opened, by its own
/// cursor number, and lines of it; not a position in any source list).
pub fn lenticular(body: &str) -> Option<(Refs<'static>, MarkerKind)> {
    let (head, tail) = body.split_once('†').unwrap_or((body, ""));
    if let Some((message, index)) = head.split_once(':') {
        single_number(message)?;
        single_number(index)?;
        return Some((Refs::Numbers(Labels::new()), MarkerKind::Provider));
    }
    if is_line_locator(tail) {
        single_number(head)?;
        return Some((Refs::Numbers(Labels::new()), MarkerKind::Provider));
    }
    number_list(head).map(|refs| (Refs::Numbers(refs), MarkerKind::Cjk))
}

/// The body of an OpenAI private-use-area citation token (between U+E200 and U+E201):
/// the family `cite`, then source ids, each after a U+E202, the last part optionally a
/// line range `L8` / `L8-L13`. Parts are trimmed and empty parts ignored, as the
/// format's reference parser does; ids are `[A-Za-z0-9_-]+`.
pub fn private_use(body: &str) -> Option<Refs<'_>> {
    let mut parts = body.split(PRIVATE_USE_DELIMITER).map(str::trim);
    if parts.next()? != "cite" {
        return None;
    }
    let mut ids: Vec<&str> = parts.filter(|part| !part.is_empty()).collect();
    if ids.last().is_some_and(|last| is_line_locator(last)) {
        ids.pop();
    }
    let well_formed = ids.iter().all(|id| {
        id.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    });
    (well_formed && !ids.is_empty()).then_some(Refs::Ids(ids))
}

/// Separates the parts of a private-use-area citation token.
pub const PRIVATE_USE_DELIMITER: char = '\u{E202}';

/// `L8`, `L8-L13` or `L8-13`.
fn is_line_locator(part: &str) -> bool {
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let line = |s: &str| s.strip_prefix('L').is_some_and(digits);
    match part.split_once('-') {
        Some((from, to)) => line(from) && (line(to) || digits(to)),
        None => line(part),
    }
}

/// A parenthetical body: `Source 3`, `Sources 2, 5`, `source: 4`.
pub fn parenthetical(body: &str) -> Option<Labels> {
    let rest = strip_word(body, "sources").or_else(|| strip_word(body, "source"))?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    if rest.len() == body.len() {
        return None;
    }
    number_list(rest)
}

/// `1`, `1, 2`, `1; 2`, `1，2`, `1-3`, `1–3` (ranges expand; reversed ranges are not
/// markers), with optional spaces around items.
pub fn number_list(body: &str) -> Option<Labels> {
    let mut refs = Labels::new();
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(' ');
        let (first, after) = leading_number(rest)?;
        rest = after.trim_start_matches(' ');
        let mut last = first;
        if let Some(after_dash) = strip_dash(rest) {
            let (end, after) = leading_number(after_dash.trim_start_matches(' '))?;
            if end < first {
                return None;
            }
            last = end;
            rest = after.trim_start_matches(' ');
        }
        if refs.len() + (last - first) as usize >= MAX_REFS {
            return None;
        }
        (first..=last).for_each(|label| refs.push(label));
        if rest.is_empty() {
            return Some(refs);
        }
        rest = strip_separator(rest)?;
    }
}

fn labeled(body: &str) -> Option<Labels> {
    let word_len = body.bytes().take_while(u8::is_ascii_alphabetic).count();
    let word = body.sub(..word_len);
    if !LABEL_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word)) {
        return None;
    }
    // An abbreviating period may follow the word: `[Ref. 4]`, `[Refs. 2, 5]`.
    let after_word = body.sub(word_len..);
    let rest = after_word
        .strip_prefix('.')
        .unwrap_or(after_word)
        .trim_start_matches(' ');
    let rest = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix('#'))
        .unwrap_or(rest);
    number_list(rest)
}

fn named<'t>(body: &'t str, is_source_id: &dyn Fn(&str) -> bool) -> Option<&'t str> {
    if let Some(id) = body.strip_prefix("chunk:") {
        let valid = !id.is_empty() && !id.bytes().any(|b| b.is_ascii_whitespace());
        return valid.then_some(id);
    }
    (!body.is_empty() && is_source_id(body)).then_some(body)
}

fn single_number(text: &str) -> Option<u32> {
    match leading_number(text) {
        Some((n, "")) => Some(n),
        _ => None,
    }
}

/// A run of 1–9 ASCII digits at the start of `text`, and what follows it. A following
/// `.digit` or letter makes it not a label (`[1.5]`, `[1a]`).
fn leading_number(text: &str) -> Option<(u32, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let rest = text.sub(digits..);
    match rest.as_bytes().first() {
        Some(b) if b.is_ascii_alphanumeric() || *b == b'.' || *b == b'_' => None,
        _ => Some((text.sub(..digits).parse().ok()?, rest)),
    }
}

fn strip_dash(text: &str) -> Option<&str> {
    text.strip_prefix('-').or_else(|| text.strip_prefix('–'))
}

fn strip_separator(text: &str) -> Option<&str> {
    [",", ";", "，", "；", "、"]
        .iter()
        .find_map(|sep| text.strip_prefix(sep))
}

/// `text` without a leading `word` (ASCII-case-insensitive) and the spaces after it.
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let head = text.get(..word.len())?;
    head.eq_ignore_ascii_case(word)
        .then(|| text.sub(word.len()..).trim_start_matches(' '))
}

/// The first `target` at or after `pos` on the same line, within [`MAX_BODY`] bytes.
pub fn find_in_line(bytes: &[u8], pos: usize, target: u8) -> Option<usize> {
    let limit = bytes.len().min(pos.saturating_add(MAX_BODY));
    (pos..limit)
        .take_while(|&p| bytes[p] != b'\n')
        .find(|&p| bytes[p] == target)
}

/// The closing `]` of a bracket body starting at `from`: on the same line, within
/// [`MAX_BODY`], with no `[` or escape before it.
pub fn find_bracket_close(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from + MAX_BODY);
    let end = from
        + bytes[from.min(limit)..limit]
            .iter()
            .position(|b| matches!(b, b']' | b'[' | b'\n' | b'\\'))?;
    (bytes[end] == b']').then_some(end)
}

#[cfg(test)]
mod tests {
    use super::{number_list, square};
    use crate::model::{MarkerKind, Refs};

    fn no_ids(_: &str) -> bool {
        false
    }

    #[test]
    fn number_lists_keep_order_and_duplicates_and_expand_ranges() {
        assert_eq!(number_list("3, 1,1"), Some(vec![3, 1, 1].into()));
        assert_eq!(number_list("1-3; 5"), Some(vec![1, 2, 3, 5].into()));
        assert_eq!(number_list("2–4"), Some(vec![2, 3, 4].into()));
        assert_eq!(number_list(" 7 "), Some(vec![7].into()));
    }

    #[test]
    fn malformed_number_lists_are_not_markers() {
        for body in [
            "",
            "1.5",
            "1a",
            "-1",
            "3-1",
            "1,",
            ",1",
            "1 2",
            "1234567890",
            "1-",
        ] {
            assert_eq!(number_list(body), None, "{body:?}");
        }
        assert_eq!(number_list("1-5000"), None, "range beyond MAX_REFS");
    }

    #[test]
    fn labeled_bodies_need_a_known_word() {
        assert_eq!(
            square("doc1", &no_ids).map(|r| r.1),
            Some(MarkerKind::Labeled)
        );
        assert_eq!(
            square("Sources: 2, 5", &no_ids).map(|r| r.0),
            Some(Refs::Numbers(vec![2, 5].into()))
        );
        assert_eq!(square("page 3", &no_ids), None);
    }
}
