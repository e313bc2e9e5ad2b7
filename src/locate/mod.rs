//! Finding a quote in its source: exact, then normalised, then approximate (docs/architecture.md §5).
//!
//! The approximate step is Myers' bit-parallel edit distance (`locate/myers.rs`),
//! semi-global: the match may start and end anywhere in the source. A pigeonhole filter
//! (a match within `k` edits contains one of `k + 1` quote pieces exactly) restricts the
//! search to windows around piece hits, so long sources stay fast.
//!
//! ```
//! use citeproof::locate::locate_quote;
//! use citeproof::model::MatchKind;
//! let source = "FastAPI is a modern web framework for building APIs with Python.";
//! let exact = locate_quote("modern web framework", source, 0.1);
//! assert_eq!(exact.kind, MatchKind::Exact);
//! let normalised = locate_quote("Modern  WEB framework", source, 0.1);
//! assert_eq!(normalised.kind, MatchKind::Normalized);
//! let approx = locate_quote("a modern web framwork for bulding APIs", source, 0.1);
//! assert_eq!((approx.kind, approx.distance), (MatchKind::Approximate, Some(2)));
//! assert_eq!(&source[approx.span.unwrap().range()], "a modern web framework for building APIs");
//! ```

mod myers;

use crate::casefold::fold_case;
use crate::model::{MatchKind, QuoteLocation, Span};
use crate::substr::Substr;
use myers::BitPattern;

/// Locates `quote` in `source`; approximate matches may have up to
/// `floor(max_edit_ratio × quote characters)` edits.
pub fn locate_quote(quote: &str, source: &str, max_edit_ratio: f64) -> QuoteLocation {
    if !quote.is_empty() {
        if let Some(start) = find_exact(source, quote) {
            return QuoteLocation {
                span: Some(Span::new(start, start + quote.len())),
                distance: Some(0),
                kind: MatchKind::Exact,
            };
        }
    }
    let pattern = Normalized::new(quote);
    let text = Normalized::new(source);
    if pattern.chars.is_empty() || text.chars.is_empty() {
        return not_found();
    }
    let max_edits =
        ((pattern.chars.len() as f64) * max_edit_ratio.clamp(0.0, 1.0)).floor() as usize;
    match best_match(&pattern.chars, &text.chars, max_edits) {
        Some(m) => QuoteLocation {
            span: Some(Span::new(text.starts[m.start], text.end_of(m.end - 1))),
            distance: Some(m.distance),
            kind: if m.distance == 0 {
                MatchKind::Normalized
            } else {
                MatchKind::Approximate
            },
        },
        None => not_found(),
    }
}

/// The first occurrence of `needle` in `haystack`, like `str::find`, without Two-Way's
/// set-up cost per call (a quote is searched once). Candidates are the positions of the
/// needle's first byte whose second byte matches too; if comparing them has cost more
/// than a few passes over the haystack (a repetitive text), the rest is left to
/// Knuth–Morris–Pratt ([`kmp_find`]), so the worst case stays linear. The validator's
/// other substring tests use it too, so that the browser core carries no Two-Way
/// searcher (std's, about 2.3 KB of wasm: docs/perf-log.md).
pub(crate) fn find_exact(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, pattern) = (haystack.as_bytes(), needle.as_bytes());
    let Some(&first) = pattern.first() else {
        return Some(0);
    };
    let last_start = hay.len().checked_sub(pattern.len())?;
    let mut budget = 4 * hay.len() + 256;
    let mut at = 0;
    while at <= last_start {
        at += hay[at..=last_start].iter().position(|&b| b == first)?;
        // A one-byte needle has matched; a longer one is compared when its second byte
        // matches too (`at + 1` is in the haystack, since `at <= last_start`).
        if pattern.len() == 1 || hay[at + 1] == pattern[1] {
            if hay[at..at + pattern.len()] == *pattern {
                return Some(at);
            }
            budget = budget.saturating_sub(pattern.len());
            if budget == 0 {
                return kmp_find(&hay[at..], pattern).map(|found| at + found);
            }
        }
        at += 1;
    }
    None
}

/// Knuth–Morris–Pratt over bytes: the first occurrence of a non-empty `pattern` in `hay`,
/// in O(hay + pattern) steps whatever the text. A match of a whole UTF-8 needle in UTF-8
/// text starts with a lead byte, so its offset is a character boundary.
fn kmp_find(hay: &[u8], pattern: &[u8]) -> Option<usize> {
    // border[i]: the length of the longest proper prefix of pattern[..=i] that is also
    // its suffix.
    let mut border = vec![0; pattern.len()];
    let mut matched = 0;
    for (i, &b) in pattern.iter().enumerate().skip(1) {
        while matched > 0 && b != pattern[matched] {
            matched = border[matched - 1];
        }
        if b == pattern[matched] {
            matched += 1;
        }
        border[i] = matched;
    }
    matched = 0;
    for (i, &b) in hay.iter().enumerate() {
        while matched > 0 && b != pattern[matched] {
            matched = border[matched - 1];
        }
        if b == pattern[matched] {
            matched += 1;
            if matched == pattern.len() {
                return Some(i + 1 - matched);
            }
        }
    }
    None
}

fn not_found() -> QuoteLocation {
    QuoteLocation {
        span: None,
        distance: None,
        kind: MatchKind::None,
    }
}

/// A text folded for comparison, with the byte offset where every folded character
/// starts in the original.
struct Normalized<'a> {
    text: &'a str,
    chars: Vec<char>,
    starts: Vec<usize>,
}

impl<'a> Normalized<'a> {
    /// Lower case, whitespace runs (NBSP included) to one space, curly quotes and dashes
    /// to ASCII, markdown emphasis (`*`, `_`) dropped; leading/trailing space trimmed.
    fn new(text: &'a str) -> Normalized<'a> {
        // Written by index into buffers as long as the text (each kept character uses
        // at least one byte), not pushed: no capacity check or growth call per character.
        let mut chars = vec!['\0'; text.len()];
        let mut starts = vec![0; text.len()];
        let mut kept = 0;
        // The last character kept: a space after a space or at the start is not kept
        // (a run of space is one space; `end_of` finds where it ends).
        let mut last = ' ';
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            let start = at;
            let folded = match ASCII_FOLD.get(usize::from(byte)) {
                Some(&DROPPED) => {
                    at += 1;
                    continue;
                }
                Some(&folded) => {
                    at += 1;
                    char::from(folded)
                }
                None => {
                    let c = text
                        .sub(at..)
                        .chars()
                        .next()
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                    at += c.len_utf8();
                    match fold_for_match(c) {
                        Some(folded) => folded,
                        None => continue,
                    }
                }
            };
            if folded == ' ' && last == ' ' {
                continue;
            }
            last = folded;
            if let (Some(c), Some(s)) = (chars.get_mut(kept), starts.get_mut(kept)) {
                (*c, *s) = (folded, start);
                kept += 1;
            }
        }
        if last == ' ' {
            kept = kept.saturating_sub(1);
        }
        chars.truncate(kept);
        starts.truncate(kept);
        Normalized {
            text,
            chars,
            starts,
        }
    }

    /// The byte offset where folded character `i` ends in the original: after its
    /// character, or for a space, after the last whitespace of the run it stands for
    /// (emphasis marks inside the run included, trailing ones not).
    fn end_of(&self, i: usize) -> usize {
        let start = self.starts[i];
        let mut end = start;
        for (at, c) in self.text.sub(start..).char_indices() {
            if at == 0 || (self.chars[i] == ' ' && c.is_whitespace()) {
                end = start + at + c.len_utf8();
            } else if self.chars[i] != ' ' || !matches!(c, '*' | '_') {
                break;
            }
        }
        end
    }
}

/// How a character compares: lower case, whitespace (NBSP included) as a space, curly
/// quotes and dashes as ASCII; `None` for markdown emphasis (`*`, `_`), which is
/// dropped.
fn fold_for_match(c: char) -> Option<char> {
    Some(match c {
        '*' | '_' => return None,
        c if c.is_whitespace() => ' ',
        '‘' | '’' | '‚' | '‛' | '′' | '`' => '\'',
        '“' | '”' | '„' | '‟' | '″' => '"',
        '–' | '—' | '‒' | '−' | '‐' | '‑' => '-',
        c => fold_case(c),
    })
}

/// [`fold_for_match`] for ASCII as a table ([`DROPPED`] for `None`), so that ASCII
/// text needs no character decoding or matching.
const ASCII_FOLD: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b'*' | b'_' => DROPPED,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' => b' ',
            b'`' => b'\'',
            other => other.to_ascii_lowercase(),
        };
        b += 1;
    }
    table
};

/// The table entry of a dropped character (not ASCII, so no character folds to it).
const DROPPED: u8 = 0xff;

/// A match of the pattern in the text: text characters `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Match {
    start: usize,
    end: usize,
    distance: usize,
}

/// The best (fewest edits, then leftmost) match with at most `max_edits` edits.
fn best_match(pattern: &[char], text: &[char], max_edits: usize) -> Option<Match> {
    let m = pattern.len();
    let mut best: Option<(usize, usize)> = None; // (distance, end)
    let forward = BitPattern::new(pattern.iter().copied());
    // Windows come sorted and disjoint, so the first exact match is the best one.
    for window in candidate_windows(pattern, text, max_edits) {
        if let Some((distance, end)) = forward.search(&text[window.clone()], false) {
            let end = window.start + end;
            if distance <= max_edits
                && best.is_none_or(|(d, e)| distance < d || (distance == d && end < e))
            {
                best = Some((distance, end));
            }
        }
        if best.is_some_and(|(d, _)| d == 0) {
            break;
        }
    }
    let (distance, end) = best?;
    // The start: align the reversed pattern, anchored at the match end, over the
    // reversed text before it; the shortest prefix reaching `distance` is the match.
    let from = end.saturating_sub(m + distance);
    let reversed: Vec<char> = text[from..end].iter().rev().copied().collect();
    let backward = BitPattern::new(pattern.iter().rev().copied());
    let length = backward.first_end_with(&reversed, distance)?;
    Some(Match {
        start: end - length,
        end,
        distance,
    })
}

/// Text ranges worth searching, merged and in text order. A match with at most `k` edits
/// contains one of `k + 1` pattern pieces exactly; piece `i` found at text position `p`
/// puts the match inside `p − i·len(piece) − k .. p − i·len(piece) + m + k`. Falls back
/// to the whole text when pieces would be too short to be selective.
fn candidate_windows(
    pattern: &[char],
    text: &[char],
    max_edits: usize,
) -> Vec<std::ops::Range<usize>> {
    let m = pattern.len();
    let pieces = max_edits + 1;
    let piece_len = m / pieces;
    if piece_len < 4 || text.len() <= 4 * m {
        return vec![std::ops::Range {
            start: 0,
            end: text.len(),
        }];
    }
    // Every window has the same length, so marking where windows start is enough to
    // merge them in one pass, whatever order the hits' windows come in.
    let width = m + 2 * max_edits;
    let mut starts = vec![false; text.len()];
    piece_hits(pattern, piece_len, pieces, text, |at, piece| {
        starts[at.saturating_sub(piece * piece_len + max_edits)] = true;
    });
    let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
    for (start, _) in starts.iter().enumerate().filter(|(_, s)| **s) {
        let window = start..(start + width).min(text.len());
        match merged.last_mut() {
            Some(last) if window.start <= last.end => last.end = window.end,
            _ => merged.push(window),
        }
    }
    merged
}

/// Calls `hit(position, piece)` once for every text position where piece `piece` of the
/// `pieces` consecutive `piece_len`-character pieces of `pattern` occurs (in no
/// particular order).
///
/// Every occurrence of a piece contains a `q`-gram that starts at a multiple of
/// `piece_len − q + 1`, so only those text positions are looked at: the `q`-gram there
/// is looked up among the pieces' `q`-grams, and each piece holding it at offset `j`
/// is compared with the text `j` characters earlier. An occurrence has exactly one such
/// position inside it, so it is reported once.
fn piece_hits(
    pattern: &[char],
    piece_len: usize,
    pieces: usize,
    text: &[char],
    mut hit: impl FnMut(usize, usize),
) {
    const BASE: u64 = 0x100_0000_01b3;
    let hash = |chars: &[char]| {
        chars.iter().fold(0u64, |h, &c| {
            h.wrapping_mul(BASE).wrapping_add(u64::from(c))
        })
    };
    let q = piece_len.div_ceil(2).min(6);
    let stride = piece_len - q + 1;
    let piece = |i: usize| &pattern[i * piece_len..(i + 1) * piece_len];
    // Every q-gram inside a piece, by pattern position, in an open-addressing table
    // (slot: 1 + pattern position, 0 empty) of at least twice as many slots.
    let starts = (0..pieces).flat_map(|i| i * piece_len..i * piece_len + stride);
    let mut gram_hash = vec![0u64; pattern.len()];
    let bits = (2 * pieces * stride)
        .next_power_of_two()
        .trailing_zeros()
        .max(1);
    let mask = (1usize << bits) - 1;
    // Fibonacci hashing: short q-grams hash to small numbers, the multiply spreads them.
    let slot_of = |h: u64| (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
    let mut slots = vec![0u32; mask + 1];
    for at in starts {
        let h = hash(&pattern[at..at + q]);
        gram_hash[at] = h;
        let mut slot = slot_of(h);
        while slots[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        slots[slot] = at as u32 + 1;
    }
    let Some(last_sample) = text.len().checked_sub(q) else {
        return;
    };
    for sample in (0..=last_sample).step_by(stride) {
        let h = hash(&text[sample..sample + q]);
        let mut slot = slot_of(h);
        while let Some(at) = slots[slot].checked_sub(1).map(|at| at as usize) {
            slot = (slot + 1) & mask;
            if gram_hash[at] != h {
                continue;
            }
            let (i, offset) = (at / piece_len, at % piece_len);
            let Some(start) = sample.checked_sub(offset) else {
                continue;
            };
            if text.get(start..start + piece_len) == Some(piece(i)) {
                hit(start, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn long_quote_over_many_blocks_is_found_with_its_span() {
        let sentence = "The committee reviewed every submission in detail before voting. ";
        let source = format!(
            "{}{}{}",
            "Intro text. ".repeat(40),
            sentence.repeat(5),
            "Outro.".repeat(10)
        );
        let quote = sentence
            .repeat(5)
            .replace("committee", "comittee")
            .replace("voting", "votng");
        let found = locate_quote(quote.trim(), &source, 0.1);
        assert_eq!(found.kind, MatchKind::Approximate);
        assert_eq!(found.distance, Some(10));
        let span = found.span.unwrap();
        assert_eq!(&source[span.range()], sentence.repeat(5).trim());
    }

    #[test]
    fn normalisation_folds_case_space_quotes_dashes_and_emphasis() {
        let source = "He said “it’s **fine** — really”\u{a0}today.";
        let found = locate_quote("he said \"it's fine - really\" today", source, 0.0);
        assert_eq!(found.kind, MatchKind::Normalized);
        assert_eq!(
            &source[found.span.unwrap().range()],
            "He said “it’s **fine** — really”\u{a0}today"
        );
    }

    #[test]
    fn the_ascii_table_folds_like_the_character_rules() {
        for b in 0..128u8 {
            let expected = fold_for_match(char::from(b)).map_or(DROPPED.into(), u32::from);
            assert_eq!(u32::from(ASCII_FOLD[usize::from(b)]), expected, "byte {b}");
        }
    }

    #[test]
    fn exact_search_finds_what_str_find_finds() {
        let mut seed = 0xD1B5_4A32_D192_ED03u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let alphabet = ["a", "b", "é", "日", "😀"];
        let text = |next: &mut dyn FnMut(usize) -> usize, len: usize, width: usize| {
            (0..len).map(|_| alphabet[next(width)]).collect::<String>()
        };
        for round in 0..3000 {
            let width = 1 + round % alphabet.len();
            let (haystack_len, needle_len) = (next(80), next(6));
            let haystack = text(&mut next, haystack_len, width);
            let needle = text(&mut next, needle_len, width);
            assert_eq!(
                find_exact(&haystack, &needle),
                haystack.find(&needle),
                "{needle:?} in {haystack:?}"
            );
            // The linear fallback on its own, on the same texts.
            if !needle.is_empty() {
                assert_eq!(
                    kmp_find(haystack.as_bytes(), needle.as_bytes()),
                    haystack.find(&needle),
                    "{needle:?} in {haystack:?}"
                );
            }
        }
        // Repetitive text: many near misses use up the budget and Knuth–Morris–Pratt finishes.
        let haystack = format!("{}b", "a".repeat(20_000));
        let needle = format!("{}b", "a".repeat(300));
        assert_eq!(find_exact(&haystack, &needle), Some(20_000 - 300));
        assert_eq!(find_exact(&haystack, "aab"), haystack.find("aab"));
        assert_eq!(find_exact(&haystack, &"a".repeat(20_002)), None);
    }

    #[test]
    fn too_many_edits_is_not_found() {
        let found = locate_quote(
            "super fast web framework",
            "FastAPI is a modern web framework.",
            0.1,
        );
        assert_eq!(found.kind, MatchKind::None);
        assert_eq!(found.span, None);
    }

    #[test]
    fn piece_hits_are_every_exact_occurrence_of_every_piece() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let alphabet = ['a', 'b', 'é', '日'];
            let mut next = |n: usize| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((seed >> 33) as usize) % n
            };
            let piece_len = 1 + next(5);
            let pieces = 1 + next(4);
            let pattern: Vec<char> = (0..piece_len * pieces)
                .map(|_| alphabet[next(2 + round % 3)])
                .collect();
            let text: Vec<char> = (0..next(60))
                .map(|_| alphabet[next(2 + round % 3)])
                .collect();
            let expected: Vec<(usize, usize)> = (0..(text.len() + 1).saturating_sub(piece_len))
                .flat_map(|at| (0..pieces).map(move |i| (at, i)))
                .filter(|&(at, i)| {
                    text[at..at + piece_len] == pattern[i * piece_len..(i + 1) * piece_len]
                })
                .collect();
            let mut hits = Vec::new();
            piece_hits(&pattern, piece_len, pieces, &text, |at, i| {
                hits.push((at, i))
            });
            hits.sort_unstable();
            assert_eq!(hits, expected);
        }
    }

    #[test]
    fn filter_windows_agree_with_a_full_scan() {
        let source = format!(
            "{}a modern web framework for building APIs{}",
            "x ".repeat(500),
            " y".repeat(500)
        );
        let quote = chars("a modern web framewrk for bilding apis");
        let text = Normalized::new(&source).chars;
        let filtered = best_match(&quote, &text, 3).unwrap();
        let full = BitPattern::new(quote.iter().copied())
            .search(&text, false)
            .unwrap();
        assert_eq!((filtered.distance, filtered.end), full);
    }

    /// Random texts over a small alphabet with edited copies of the pattern planted in
    /// them (and sometimes none): the windows never lose the best match.
    #[test]
    fn filter_windows_agree_with_a_full_scan_on_random_planted_matches() {
        let mut seed = 0x0123_4567_89AB_CDEFu64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for round in 0..400 {
            let alphabet = ['a', 'b', 'c', 'd', 'e', 'é'];
            let width = 2 + round % 5;
            let m = 20 + next(180);
            let pattern: Vec<char> = (0..m).map(|_| alphabet[next(width)]).collect();
            let mut text: Vec<char> = (0..(5 * m + next(400)))
                .map(|_| alphabet[next(width)])
                .collect();
            for _ in 0..next(3) {
                let mut copy = pattern.clone();
                for _ in 0..next(m / 8 + 1) {
                    let at = next(copy.len());
                    match next(3) {
                        0 => copy[at] = alphabet[next(width)],
                        1 => {
                            copy.remove(at);
                        }
                        _ => copy.insert(at, alphabet[next(width)]),
                    }
                }
                let at = next(text.len() - copy.len());
                text.splice(at..at + copy.len(), copy);
            }
            let max_edits = m / 10;
            let full = BitPattern::new(pattern.iter().copied())
                .search(&text, false)
                .filter(|&(distance, _)| distance <= max_edits);
            let filtered = best_match(&pattern, &text, max_edits).map(|f| (f.distance, f.end));
            assert_eq!(filtered, full, "round {round}, m = {m}");
        }
    }

    /// The spans of the old normaliser, which kept each folded character's span.
    fn reference_spans(text: &str) -> Vec<Span> {
        let mut spans: Vec<(char, Span)> = Vec::new();
        for (at, c) in text.char_indices() {
            let span = Span::new(at, at + c.len_utf8());
            let Some(folded) = fold_for_match(c) else {
                continue;
            };
            match spans.last_mut() {
                Some((' ', last)) if folded == ' ' => last.end = span.end,
                None if folded == ' ' => {}
                _ => spans.push((folded, span)),
            }
        }
        if spans.last().is_some_and(|(c, _)| *c == ' ') {
            spans.pop();
        }
        spans.into_iter().map(|(_, span)| span).collect()
    }

    #[test]
    fn every_folded_character_maps_back_to_its_span() {
        let mut seed = 0x5851_F42D_4C95_7F2Du64;
        let pieces = [
            "a", "B", " ", "  ", "\t", "\r\n", "*", "_", "é", "日", "😀", "’", "—", "\u{a0}", "\0",
            "ẞ",
        ];
        for _ in 0..500 {
            let mut text = String::new();
            for _ in 0..(seed % 40) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            seed = seed.wrapping_add(1);
            let normalized = Normalized::new(&text);
            let spans: Vec<Span> = (0..normalized.chars.len())
                .map(|i| Span::new(normalized.starts[i], normalized.end_of(i)))
                .collect();
            assert_eq!(spans, reference_spans(&text), "{text:?}");
        }
    }

    #[test]
    fn offsets_map_back_through_multibyte_text() {
        let source = "東京は日本の首都です。😀 Das Straßenfest ist groß.";
        let found = locate_quote("das strassenfest", source, 0.2);
        assert_eq!(found.kind, MatchKind::Approximate);
        assert!(source[found.span.unwrap().range()].starts_with("Das Stra"));
    }
}
