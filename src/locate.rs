//! Finding a quote in its source: exact, then normalised, then approximate (DESIGN.md §5).
//!
//! The approximate step is Myers' bit-parallel edit distance in Hyyrö's block form: the
//! quote is split into 64-row blocks, so quotes of any length work, and each text
//! character costs O(⌈m / 64⌉) word operations. Semi-global: the match may start and end
//! anywhere in the source. A pigeonhole filter (a match within `k` edits contains one of
//! `k + 1` quote pieces exactly) restricts the search to windows around piece hits, so
//! long sources stay fast.
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

use crate::casefold::fold_case;
use crate::model::{MatchKind, QuoteLocation, Span};

/// Locates `quote` in `source`; approximate matches may have up to
/// `floor(max_edit_ratio × quote characters)` edits.
pub fn locate_quote(quote: &str, source: &str, max_edit_ratio: f64) -> QuoteLocation {
    if !quote.is_empty() {
        if let Some(start) = source.find(quote) {
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
            span: Some(Span::new(
                text.spans[m.start].start,
                text.spans[m.end - 1].end,
            )),
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

fn not_found() -> QuoteLocation {
    QuoteLocation {
        span: None,
        distance: None,
        kind: MatchKind::None,
    }
}

/// A text folded for comparison, with the source span of every folded character.
struct Normalized {
    chars: Vec<char>,
    spans: Vec<Span>,
}

impl Normalized {
    /// Lower case, whitespace runs (NBSP included) to one space, curly quotes and dashes
    /// to ASCII, markdown emphasis (`*`, `_`) dropped; leading/trailing space trimmed.
    fn new(text: &str) -> Normalized {
        let mut out = Normalized {
            chars: Vec::with_capacity(text.len()),
            spans: Vec::with_capacity(text.len()),
        };
        for (at, c) in text.char_indices() {
            let span = Span::new(at, at + c.len_utf8());
            let folded = match c {
                c if c.is_ascii_alphanumeric() => c.to_ascii_lowercase(),
                '*' | '_' => continue,
                c if c.is_whitespace() => ' ',
                '‘' | '’' | '‚' | '‛' | '′' | '`' => '\'',
                '“' | '”' | '„' | '‟' | '″' => '"',
                '–' | '—' | '‒' | '−' | '‐' | '‑' => '-',
                c => fold_case(c),
            };
            if folded == ' ' {
                match out.chars.last() {
                    Some(' ') => {
                        if let Some(last) = out.spans.last_mut() {
                            last.end = span.end;
                        }
                        continue;
                    }
                    None => continue,
                    Some(_) => {}
                }
            }
            out.chars.push(folded);
            out.spans.push(span);
        }
        if out.chars.last() == Some(&' ') {
            out.chars.pop();
            out.spans.pop();
        }
        out
    }
}

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

/// Text ranges worth searching: around exact hits of the `k + 1` pattern pieces, merged.
/// Falls back to the whole text when pieces would be too short to be selective.
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
    let reach = m + max_edits;
    // Hits come in text order, so the windows do too: merging is one pass.
    let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
    for hit in piece_hits(pattern, piece_len, pieces, text) {
        let window = hit.saturating_sub(reach)..(hit + reach).min(text.len());
        match merged.last_mut() {
            Some(last) if window.start <= last.end => last.end = last.end.max(window.end),
            _ => merged.push(window),
        }
    }
    merged
}

/// Every text position where one of the `pieces` consecutive `piece_len`-character
/// pieces of `pattern` occurs, in text order. One pass over the text with a rolling
/// hash of the last `piece_len` characters (all pieces have that length); a hash equal
/// to a piece's is confirmed by comparing the characters.
fn piece_hits(pattern: &[char], piece_len: usize, pieces: usize, text: &[char]) -> Vec<usize> {
    const BASE: u64 = 0x100_0000_01b3;
    let hash = |chars: &[char]| {
        chars.iter().fold(0u64, |h, &c| {
            h.wrapping_mul(BASE).wrapping_add(u64::from(c))
        })
    };
    let piece = |i: usize| &pattern[i * piece_len..(i + 1) * piece_len];
    let mut wanted: Vec<u64> = (0..pieces).map(|i| hash(piece(i))).collect();
    wanted.sort_unstable();
    // A 64-bit summary of the wanted hashes' top bits: most positions fail this test
    // and skip the binary search.
    let summary = wanted.iter().fold(0u64, |bits, &h| bits | 1 << (h >> 58));
    let drop_factor = (1..piece_len).fold(1u64, |f, _| f.wrapping_mul(BASE));
    let mut hits = Vec::new();
    if text.len() < piece_len {
        return hits;
    }
    let mut rolling = hash(&text[..piece_len]);
    for start in 0..=text.len() - piece_len {
        if start > 0 {
            let out = u64::from(text[start - 1]).wrapping_mul(drop_factor);
            let new = u64::from(text[start + piece_len - 1]);
            rolling = rolling
                .wrapping_sub(out)
                .wrapping_mul(BASE)
                .wrapping_add(new);
        }
        if summary & 1 << (rolling >> 58) == 0 || wanted.binary_search(&rolling).is_err() {
            continue;
        }
        let window = &text[start..start + piece_len];
        if (0..pieces).any(|i| piece(i) == window) {
            hits.push(start);
        }
    }
    hits
}

/// The pattern compiled for Myers' algorithm: per character, a bit mask per 64-row block
/// of the rows where it occurs. ASCII characters index a flat table; others (rare in
/// quotes) are searched in a short list.
struct BitPattern {
    len: usize,
    blocks: usize,
    /// `ascii[c * blocks + b]`: rows of block `b` holding ASCII character `c`.
    ascii: Vec<u64>,
    other: Vec<(char, Vec<u64>)>,
    zero: Vec<u64>,
}

impl BitPattern {
    fn new(pattern: impl Iterator<Item = char> + Clone) -> BitPattern {
        let len = pattern.clone().count();
        let blocks = len.div_ceil(64);
        let mut ascii = vec![0u64; 128 * blocks];
        let mut other: Vec<(char, Vec<u64>)> = Vec::new();
        for (row, c) in pattern.enumerate() {
            let bit = 1 << (row % 64);
            if c.is_ascii() {
                ascii[c as usize * blocks + row / 64] |= bit;
            } else {
                match other.iter_mut().find(|(o, _)| *o == c) {
                    Some((_, masks)) => masks[row / 64] |= bit,
                    None => {
                        let mut masks = vec![0; blocks];
                        masks[row / 64] = bit;
                        other.push((c, masks));
                    }
                }
            }
        }
        BitPattern {
            len,
            blocks,
            ascii,
            other,
            zero: vec![0; blocks],
        }
    }

    /// The block masks of character `c`.
    fn masks(&self, c: char) -> &[u64] {
        if c.is_ascii() {
            let at = c as usize * self.blocks;
            &self.ascii[at..at + self.blocks]
        } else {
            self.other
                .iter()
                .find(|(o, _)| *o == c)
                .map_or(&self.zero, |(_, m)| m)
        }
    }

    /// Runs the columns of `text`. `anchored`: the alignment must start at text position
    /// 0 (the top row grows by one per column) instead of anywhere (top row all zero).
    /// Calls `column(j, score)` with the edit distance of the whole pattern ending
    /// after text character `j`; stops when it returns false.
    fn run(&self, text: &[char], anchored: bool, mut column: impl FnMut(usize, usize) -> bool) {
        if self.blocks == 1 {
            return self.run_one_block(text, anchored, column);
        }
        let mut plus = vec![!0u64; self.blocks]; // vertical +1 deltas
        let mut minus = vec![0u64; self.blocks]; // vertical -1 deltas
        let last_bit = (self.len - 1) % 64;
        let mut score = self.len as isize;
        for (j, c) in text.iter().enumerate() {
            let eqs = self.masks(*c);
            let mut carry: i32 = if anchored { 1 } else { 0 };
            for b in 0..self.blocks {
                let out_bit = if b + 1 == self.blocks { last_bit } else { 63 };
                carry = advance_block(&mut plus[b], &mut minus[b], eqs[b], carry, out_bit);
            }
            score += carry as isize;
            if !column(j, score.max(0) as usize) {
                return;
            }
        }
    }

    /// [`run`](Self::run) for patterns of at most 64 characters (most quotes): one word
    /// per vector, no block loop, no allocation.
    fn run_one_block(
        &self,
        text: &[char],
        anchored: bool,
        mut column: impl FnMut(usize, usize) -> bool,
    ) {
        let (mut plus, mut minus) = (!0u64, 0u64);
        let last_bit = self.len - 1;
        let mut score = self.len as isize;
        let carry = i32::from(anchored);
        for (j, &c) in text.iter().enumerate() {
            let eq = self.masks(c)[0];
            score += advance_block(&mut plus, &mut minus, eq, carry, last_bit) as isize;
            if !column(j, score.max(0) as usize) {
                return;
            }
        }
    }

    /// The least distance over all end positions, and the first end (exclusive) where
    /// it occurs. Stops at the first exact end: nothing can beat it.
    fn search(&self, text: &[char], anchored: bool) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        self.run(text, anchored, |j, score| {
            if best.is_none_or(|(d, _)| score < d) {
                best = Some((score, j + 1));
            }
            score > 0
        });
        best
    }

    /// The shortest text prefix the pattern aligns to (anchored) with `distance` edits
    /// or fewer.
    fn first_end_with(&self, text: &[char], distance: usize) -> Option<usize> {
        if self.len <= distance {
            return Some(0);
        }
        let mut found = None;
        self.run(text, true, |j, score| {
            if score <= distance {
                found = Some(j + 1);
                false
            } else {
                true
            }
        });
        found
    }
}

/// One 64-row block of one column (Myers 1999, Hyyrö 2003). `carry` is the horizontal
/// delta entering at the block's top row; returns the delta leaving at row `out_bit`.
fn advance_block(plus: &mut u64, minus: &mut u64, eq: u64, carry: i32, out_bit: usize) -> i32 {
    let (pv, mv) = (*plus, *minus);
    let eq = eq | u64::from(carry < 0);
    let xv = eq | mv;
    let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
    let mut ph = mv | !(xh | pv);
    let mut mh = pv & xh;
    let out = ((ph >> out_bit) & 1) as i32 - ((mh >> out_bit) & 1) as i32;
    ph <<= 1;
    mh <<= 1;
    if carry < 0 {
        mh |= 1;
    } else if carry > 0 {
        ph |= 1;
    }
    *plus = mh | !(xv | ph);
    *minus = ph & xv;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain dynamic programming: the reference for the bit-parallel search.
    fn reference_distance(pattern: &[char], text: &[char]) -> usize {
        let mut row: Vec<usize> = (0..=pattern.len()).collect();
        let mut best = row[pattern.len()];
        for &c in text {
            let mut diag = row[0];
            row[0] = 0;
            for i in 1..=pattern.len() {
                let up = row[i];
                row[i] = (diag + usize::from(pattern[i - 1] != c))
                    .min(row[i - 1] + 1)
                    .min(up + 1);
                diag = up;
            }
            best = best.min(row[pattern.len()]);
        }
        best
    }

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn bit_parallel_distance_matches_dynamic_programming_across_block_sizes() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &m in &[1usize, 5, 63, 64, 65, 130, 200] {
            for _ in 0..20 {
                let pattern: Vec<char> = (0..m)
                    .map(|_| (b'a' + (next() % 4) as u8) as char)
                    .collect();
                let text: Vec<char> = (0..(m + 40))
                    .map(|_| (b'a' + (next() % 4) as u8) as char)
                    .collect();
                let bits = BitPattern::new(pattern.iter().copied())
                    .search(&text, false)
                    .unwrap()
                    .0;
                assert_eq!(bits, reference_distance(&pattern, &text), "m = {m}");
            }
        }
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
            let expected: Vec<usize> = (0..(text.len() + 1).saturating_sub(piece_len))
                .filter(|&at| {
                    (0..pieces).any(|i| {
                        text[at..at + piece_len] == pattern[i * piece_len..(i + 1) * piece_len]
                    })
                })
                .collect();
            assert_eq!(piece_hits(&pattern, piece_len, pieces, &text), expected);
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

    #[test]
    fn offsets_map_back_through_multibyte_text() {
        let source = "東京は日本の首都です。😀 Das Straßenfest ist groß.";
        let found = locate_quote("das strassenfest", source, 0.2);
        assert_eq!(found.kind, MatchKind::Approximate);
        assert!(source[found.span.unwrap().range()].starts_with("Das Stra"));
    }
}
