//! The words and character n-grams that support scoring compares, and their hashes.

use super::stopwords::is_stopword_hash;
use crate::casefold::fold_case;
use crate::substr::Substr;

/// Character n-gram length.
pub(super) const GRAM: usize = 5;

/// A hash of `bytes`, mixed so the low bits are usable as a hash table index: eight
/// bytes (little-endian, the last chunk zero-padded) per multiply, the length folded in
/// first. `const` for the stopword table; [`hash_in_buffer`] is the same function read
/// from a word buffer with whole-word loads.
pub(super) const fn hash(bytes: &[u8]) -> u64 {
    let mut state = HASH_SEED ^ bytes.len() as u64;
    let mut i = 0;
    while i < bytes.len() {
        let mut chunk = 0u64;
        let mut k = 0;
        while k < 8 && i + k < bytes.len() {
            chunk |= (bytes[i + k] as u64) << (8 * k);
            k += 1;
        }
        state = absorb(state, chunk);
        i += 8;
    }
    mix(state)
}

/// [`hash`] of `buf[..n]`, loading eight bytes at a time (bytes past `n` are masked).
#[inline]
fn hash_in_buffer(buf: &[u8; WORD_BUFFER], n: usize) -> u64 {
    let mut state = HASH_SEED ^ n as u64;
    let mut i = 0;
    while i < n {
        let mut chunk = [0u8; 8];
        chunk.copy_from_slice(&buf[i..i + 8]);
        let left = n - i;
        let mask = if left >= 8 {
            !0
        } else {
            (1u64 << (8 * left)) - 1
        };
        state = absorb(state, u64::from_le_bytes(chunk) & mask);
        i += 8;
    }
    mix(state)
}

/// Room for a lower-cased ASCII word; longer words take the general path.
const WORD_BUFFER: usize = 64;

const HASH_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// One eight-byte chunk into the hash state.
const fn absorb(state: u64, chunk: u64) -> u64 {
    (state ^ chunk)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

/// Spreads a hash state over all bits.
const fn mix(state: u64) -> u64 {
    (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

#[inline]
pub(super) fn pair_hash(a: u64, b: u64) -> u64 {
    (a.rotate_left(17) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Calls `f` with the hash of every 5-character window of `text` folded to lower case
/// with single spaces (a [`Scanner`]'s 5-grams); returns the number of windows (0 when
/// the text is too short to compare).
#[cfg(test)]
pub(super) fn for_each_gram(text: &str, f: impl FnMut(u64)) -> usize {
    let mut scanner = Scanner::new(text, Vec::new());
    while scanner.next_token().is_some() {}
    scanner.grams(f)
}

/// One word: its normalised term, whether it is a stopword, whether it is a number.
pub(super) struct Token {
    /// Hash of the normalised term (lower case, stemmed; numbers without commas).
    pub hash: u64,
    stop: Stop,
    pub number: bool,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// Whether the word is a stopword. Looked up when asked: with a vocabulary, a
    /// source's words are asked only when a claim has their term, which most do not.
    #[inline]
    pub(super) fn is_stop(&self) -> bool {
        match self.stop {
            Stop::Decided(stop) => stop,
            Stop::IfListed(whole) => is_stopword_hash(whole),
        }
    }
}

/// Whether a word is a stopword: decided, or so when the stopword table lists the
/// hash of the whole word.
#[derive(Clone, Copy)]
enum Stop {
    /// Known from the word's length (or the general path, which looks it up at once).
    Decided(bool),
    /// A stopword if the stopword table lists this hash of the whole word.
    IfListed(u64),
}

/// The words of `text` (a [`Scanner`]'s tokens), in order.
#[cfg(test)]
pub(super) fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    let mut scanner = Scanner::new(text, Vec::new());
    std::iter::from_fn(move || scanner.next_token())
}

/// ASCII bytes as a [`Scanner`] reads them: lower-cased, whitespace (`char::is_whitespace`:
/// `is_ascii_whitespace` and U+000B) as a space, with the top bit set for a letter or
/// digit. One table load classifies a byte for both the words and the 5-grams.
const ASCII: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0u8;
    while b < 128 {
        table[b as usize] = if b.is_ascii_whitespace() || b == 0x0b {
            b' '
        } else if b.is_ascii_alphanumeric() {
            b.to_ascii_lowercase() | 0x80
        } else {
            b
        };
        b += 1;
    }
    table
};

/// The code of the folded character `folded` in a 5-gram window: the character plus one
/// when that fits 12 bits (every character below U+0FFF: Latin, Greek, Cyrillic,
/// Hebrew, Arabic, the Indic scripts), else 12 bits of its hash, never 0. Those bits can
/// equal any other character's code: CJK, Hangul, emoji and the typographic quotes and
/// dashes of U+2000–U+206F take this path, and two windows that differ only in such a
/// character share their codes, and so their hash, about 1 time in 4,096.
#[inline(always)]
fn code(folded: u32) -> u16 {
    let code = folded + 1;
    if code < 0x1000 {
        code as u16
    } else {
        ((u64::from(code).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as u16).max(1)
    }
}

/// Of eight bytes (little-endian in `x`), how many at the front are ASCII letters or
/// digits, and all eight with ASCII capitals lower-cased: bytewise comparisons in one
/// word (each byte is at least 0x80 once its top bit is set, and each bound subtracted
/// at most 0x80, so no subtraction borrows from its neighbour).
#[inline(always)]
fn alphanumeric_run(x: u64) -> (usize, u64) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte of `x` that is at least `bound`.
    let at_least = |x: u64, bound: u8| ((x | HIGH) - ONES * u64::from(bound)) & HIGH;
    let within = |x: u64, low: u8, high: u8| at_least(x, low) & !at_least(x, high + 1);
    let ascii = !x & HIGH;
    let upper = within(x, b'A', b'Z') & ascii;
    let letter = within(x | (ONES * 0x20), b'a', b'z') & ascii;
    let digit = within(x, b'0', b'9') & ascii;
    let run = (!(letter | digit) & HIGH).trailing_zeros() as usize / 8;
    (run, x | (upper >> 2))
}

/// How a non-ASCII character enters the 5-gram window: folded to lower case, whitespace
/// as a space.
fn folded(c: char) -> u32 {
    u32::from(if c.is_whitespace() { ' ' } else { fold_case(c) })
}

/// The bits of a window's five 12-bit codes (the newest in the low bits).
const WINDOW_MASK: u64 = (1 << (12 * GRAM)) - 1;

/// The hash of a window's codes: a xor-shift that brings the older codes into the low
/// bits, a multiply that spreads them upwards, a xor-shift that brings the high bits
/// down. Each step is invertible, so windows with distinct codes have distinct hashes.
#[inline(always)]
fn window_hash(codes: u64) -> u64 {
    let spread = (codes ^ (codes >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    spread ^ (spread >> 32)
}

/// Reads a text once, for its words and its 5-grams: each call of
/// [`Scanner::next_token`] reads up to the end of the next word (a run of letters and
/// digits; a decimal point or thousands comma inside a number stays), writing the code
/// of every character on the way (see [`code`]) into a list: the text folded to lower
/// case with single spaces. [`Scanner::grams`] then hashes its 5-character windows in a
/// loop of its own.
///
/// A word's ASCII letters and digits are read eight bytes at a time
/// ([`alphanumeric_run`]); other ASCII bytes one at a time through a 128-byte table (a
/// gap, a word's end, a number's decimal point), and non-ASCII characters decoded. Read
/// a byte at a time, each word's end was a branch no predictor could guess, and V8 kept
/// the interleaved 5-gram window's state on the stack: the words in eight-byte runs and
/// the windows in a loop of their own took 8 % off claim support's cost per claim
/// through wasm (docs/perf-log.md, "Eight bytes at a time").
pub(super) struct Scanner<'t> {
    text: &'t str,
    /// Where the next call starts reading.
    at: usize,
    /// The codes written so far are `codes[..coded]`; it has room for one a byte.
    codes: Vec<u16>,
    coded: usize,
    /// The last character coded was whitespace (true at the start: leading whitespace
    /// is skipped, and a run of whitespace is coded once).
    last_space: bool,
    /// The word being read, lower-cased as it is read (commas of numbers left out):
    /// ASCII words of up to 64 bytes, nearly all, need no second pass.
    buf: [u8; WORD_BUFFER],
}

impl<'t> Scanner<'t> {
    /// A scanner at the start of `text`, writing its codes into `codes` (a list kept
    /// from text to text: it grows to the longest text's bytes and is never cleared).
    pub(super) fn new(text: &'t str, mut codes: Vec<u16>) -> Scanner<'t> {
        if codes.len() < text.len() {
            codes.resize(text.len(), 0);
        }
        Scanner {
            text,
            at: 0,
            codes,
            coded: 0,
            last_space: true,
            buf: [0; WORD_BUFFER],
        }
    }

    /// Writes the code of a character of a gap (`folded`, a space for whitespace),
    /// unless it is whitespace after whitespace.
    #[inline(always)]
    fn code_gap(&mut self, folded: u32) {
        let space = folded == u32::from(b' ');
        if space && self.last_space {
            return;
        }
        self.last_space = space;
        if let Some(slot) = self.codes.get_mut(self.coded) {
            *slot = code(folded);
        }
        self.coded += 1;
    }

    /// The next word, lower-cased and lightly stemmed; `None` at the end of the text
    /// (every character coded).
    #[inline(always)]
    pub(super) fn next_token(&mut self) -> Option<Token> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut at = self.at;
        // The gap: every character coded up to the first letter or digit.
        let start = loop {
            let Some(&b) = bytes.get(at) else {
                self.at = at;
                return None;
            };
            if b < 0x80 {
                let class = ASCII[usize::from(b)];
                if class >= 0x80 {
                    break at;
                }
                self.code_gap(u32::from(class));
                at += 1;
            } else {
                let (c, len) = char_at(text, at);
                if c.is_alphanumeric() {
                    break at;
                }
                self.code_gap(folded(c));
                at += len;
            }
        };
        // The word, up to the character that ends it (left for the next gap). A letter
        // or digit is never whitespace: its code is written as it comes.
        self.last_space = false;
        let number = bytes[start].is_ascii_digit();
        let (mut n, mut ascii, mut coded) = (0, true, self.coded);
        // Eight bytes at a time while they are ASCII letters and digits: most words end
        // in their first eight, with no branch per byte. Each chunk's codes and
        // lower-cased bytes are written whole; those past the word's end are written
        // over or never read (`coded` and `n` say how far they count).
        while let (Some(chunk), Some(slots), Some(word)) = (
            bytes.get(at..at + 8),
            self.codes.get_mut(coded..coded + 8),
            self.buf.get_mut(n..n + 8),
        ) {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            let (run, lower) = alphanumeric_run(x);
            let lower_bytes = lower.to_le_bytes();
            for (slot, &b) in slots.iter_mut().zip(&lower_bytes) {
                *slot = code(u32::from(b));
            }
            word.copy_from_slice(&lower_bytes);
            (at, coded, n) = (at + run, coded + run, n + run);
            if run < 8 {
                break;
            }
        }
        let end = loop {
            let Some(&b) = bytes.get(at) else {
                break at;
            };
            if b >= 0x80 {
                let (c, len) = char_at(text, at);
                if !c.is_alphanumeric() {
                    break at;
                }
                if let Some(slot) = self.codes.get_mut(coded) {
                    *slot = code(folded(c));
                }
                coded += 1;
                ascii = false;
                at += len;
                continue;
            }
            let class = ASCII[usize::from(b)];
            if class < 0x80 {
                let inside_number = (b == b'.' || b == b',')
                    && bytes[at - 1].is_ascii_digit()
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
                if !inside_number {
                    break at;
                }
            }
            let lower = class & 0x7f;
            if let Some(slot) = self.codes.get_mut(coded) {
                *slot = code(u32::from(lower));
            }
            coded += 1;
            at += 1;
            if !(number && b == b',') {
                if let Some(slot) = self.buf.get_mut(n) {
                    *slot = lower;
                }
                n += 1;
            }
        };
        (self.at, self.coded) = (at, coded);
        Some(self.token(start..end, n, number, ascii))
    }

    /// Calls `on_gram` with the hash of each 5-character window of the codes written
    /// (all of the text's once [`Scanner::next_token`] has returned `None`), in order;
    /// returns how many there were (0 when the text is too short to compare).
    pub(super) fn grams(&self, mut on_gram: impl FnMut(u64)) -> usize {
        let codes = self.codes.get(..self.coded).unwrap_or_default();
        let (first, rest) = codes.split_at(codes.len().min(GRAM - 1));
        let mut window = first.iter().fold(0, |w, &c| w << 12 | u64::from(c));
        for &c in rest {
            window = (window << 12 | u64::from(c)) & WINDOW_MASK;
            on_gram(window_hash(window));
        }
        rest.len()
    }

    /// The code list, for the next text.
    pub(super) fn into_codes(self) -> Vec<u16> {
        self.codes
    }

    /// The token of the word at `range`, lower-cased into `buf[..n]` when `ascii`.
    fn token(
        &mut self,
        range: std::ops::Range<usize>,
        n: usize,
        number: bool,
        ascii: bool,
    ) -> Token {
        let (hash, stop, number) = if ascii && n <= self.buf.len() {
            ascii_term(&mut self.buf, n, number)
        } else {
            let (hash, stop, number) = term(self.text.sub(range.clone()));
            (hash, Stop::Decided(stop), number)
        };
        Token {
            hash,
            stop,
            number,
            start: range.start,
            end: range.end,
        }
    }
}

/// The term of an ASCII word already lower-cased into `buf[..n]` (numbers without
/// commas): its hash, whether it is a stopword, whether it is a number. The same result
/// as [`term`] on the raw word.
fn ascii_term(buf: &mut [u8; WORD_BUFFER], n: usize, number: bool) -> (u64, Stop, bool) {
    let whole = hash_in_buffer(buf, n);
    if number {
        return (whole, Stop::Decided(false), true);
    }
    let stop = match n {
        0..2 => Stop::Decided(true),
        2..=10 => Stop::IfListed(whole),
        _ => Stop::Decided(false),
    };
    let (keep, suffix) = stem_len(&buf[..n]);
    if keep == n {
        // Most words are not stemmed: the word's hash is its term's.
        return (whole, stop, false);
    }
    // The stem is written over the word's end: the kept part, then the replacement
    // suffix (never longer than the suffix it replaces).
    let stemmed = keep + suffix.len();
    buf[keep..stemmed].copy_from_slice(suffix.as_bytes());
    (hash_in_buffer(buf, stemmed), stop, false)
}

/// The normalised term of any word as a hash, whether it is a stopword, whether it is a
/// number: case folded char by char, stemmed, commas of numbers dropped.
fn term(raw: &str) -> (u64, bool, bool) {
    let number = raw.as_bytes()[0].is_ascii_digit();
    let word: String = raw.chars().map(fold_case).collect();
    let stop = !number
        && (word.len() < 2 || (word.len() <= 10 && is_stopword_hash(hash(word.as_bytes()))));
    let normalised = if number {
        word.replace(',', "")
    } else {
        stem(word)
    };
    (hash(normalised.as_bytes()), stop, number)
}

/// How much of `word` the stemmer keeps, and what it appends.
fn stem_len(word: &[u8]) -> (usize, &'static str) {
    // Byte comparisons of the last three bytes, not `ends_with` (a memcmp call each).
    let n = word.len();
    let at = |back: usize| if back <= n { word[n - back] } else { 0 };
    // Every suffix of [`STEMS`] ends in one of these: most words stop here.
    if !matches!(at(1), b's' | b'g' | b'd' | b'y') {
        return (n, "");
    }
    if at(2) == b's' && at(1) == b's' {
        return (n, "");
    }
    for &(suffix, replacement, min) in &STEMS {
        let suffix = suffix.as_bytes();
        if n >= min && (1..=suffix.len()).all(|k| at(k) == suffix[suffix.len() - k]) {
            return (n - suffix.len(), replacement);
        }
    }
    (n, "")
}

/// Suffix, replacement, minimum word length. (`stem_len` relies on their last letters.)
const STEMS: [(&str, &str, usize); 6] = [
    ("ies", "y", 5),
    ("ing", "", 6),
    ("ed", "", 5),
    ("es", "", 5),
    ("ly", "", 5),
    ("s", "", 4),
];

/// The character at byte `at` (a boundary) and its length; ASCII without decoding.
#[inline]
fn char_at(text: &str, at: usize) -> (char, usize) {
    let b = text.as_bytes()[at];
    if b < 0x80 {
        (b as char, 1)
    } else {
        let c = text.sub(at..).chars().next().unwrap_or('\u{fffd}');
        (c, c.len_utf8())
    }
}

/// Strips the commonest English inflections so "studies"/"study", "reported"/"reports" meet.
fn stem(mut word: String) -> String {
    if word.is_ascii() {
        let (keep, suffix) = stem_len(word.as_bytes());
        word.truncate(keep);
        word.push_str(suffix);
    }
    word
}

#[cfg(test)]
mod tests {
    use super::super::stopwords::STOPWORDS;
    use super::*;

    /// The term of a one-word text through the tokenizer (the ASCII fast path for ASCII
    /// words).
    fn term(raw: &str) -> (u64, bool, bool) {
        let token = tokens(raw).next().unwrap();
        assert_eq!(token.end, raw.len(), "{raw:?} is one word");
        (token.hash, token.is_stop(), token.number)
    }

    #[test]
    fn grams_of_ascii_and_other_text_match_a_char_by_char_reading() {
        // The oracle: every char decoded, `char::is_whitespace`, `fold_case`, the
        // window's last five codes kept in a list and packed for the hash. It shares the
        // code of a character and `window_hash` with the scan, so it checks the reading
        // (the ASCII table, whitespace runs, when a window is full); the hash itself is
        // checked by the next test.
        fn by_chars(text: &str) -> Vec<u64> {
            let (mut codes, mut last_space, mut out) = (Vec::new(), true, Vec::new());
            for c in text.chars() {
                let c = if c.is_whitespace() { ' ' } else { c };
                if c == ' ' && last_space {
                    continue;
                }
                last_space = c == ' ';
                let code = u64::from(u32::from(fold_case(c))) + 1;
                codes.push(if code < 0x1000 {
                    code
                } else {
                    (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52).max(1)
                });
                if let Some(last) = codes.last_chunk::<GRAM>() {
                    out.push(window_hash(last.iter().fold(0, |w, &c| w << 12 | c)));
                }
            }
            out
        }
        for text in [
            "Plain ASCII text, with  double\tspaces\r\nand\u{b}tabs.",
            "  Émile Zola ÉCRIT à Paris\u{a0}— 東京 😀 ΣΊΣΥΦΟΣ \u{2003}end ",
            "x\u{1c}y\u{85}z",
            "e\u{301}t\u{301}\u{301} caf\u{e9}\r\n\r\n1,\u{301}",
            "Ends in an emoji 😀",
            // Eight-byte runs: ended by a non-ASCII letter, a decimal point, a chunk's
            // end, the text's end; capitals past the first chunk.
            "abcdefghé x 12345678.5 abcdefgh abcdefgh",
            "REPORTEDLY UNDERSTANDINGS abcdefghABCDEFGHijk",
        ] {
            let mut got = Vec::new();
            let windows = for_each_gram(text, |g| got.push(g));
            assert_eq!(windows, got.len());
            assert_eq!(got, by_chars(text), "{text:?}");
        }
        // Runs of whitespace count once, leading whitespace not at all: "a b " is too
        // short for a 5-gram, "a b c" is one, "abc def" three.
        assert_eq!(for_each_gram("  a \t b\n", |_| {}), 0);
        assert_eq!(for_each_gram("a  b\tc", |_| {}), 1);
        assert_eq!(for_each_gram("abc \r\n def", |_| {}), 3);
    }

    #[test]
    fn a_window_hash_depends_on_every_character_and_nothing_else() {
        let grams = |text: &str| {
            let mut got = Vec::new();
            for_each_gram(text, |g| got.push(g));
            got
        };
        // The same five characters hash alike wherever they stand, and each position
        // counts: changing any one of them changes the hash.
        assert_eq!(grams("tower")[0], grams("the tower")[4]);
        for at in 0..GRAM {
            let mut changed = *b"tower";
            changed[at] = b'x';
            assert_ne!(
                grams("tower")[0],
                grams(std::str::from_utf8(&changed).unwrap())[0]
            );
        }
        // The hash is invertible on codes: every window of a real passage that differs
        // from another has another hash.
        let text = "The Eiffel Tower, completed in 1889, was the tallest structure \
                    in the world until 1930; 東京タワー was finished in 1958 😀.";
        let folded: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
        let hashes = grams(text);
        assert_eq!(hashes.len(), folded.len() - (GRAM - 1));
        let mut seen = std::collections::HashMap::new();
        for (window, &hash) in folded.windows(GRAM).zip(&hashes) {
            assert_eq!(*seen.entry(hash).or_insert(window), window);
        }
        // Characters above U+0FFF get a code too (never 0, which marks an empty slot).
        assert_eq!(grams("東京タワー").len(), 1);
        assert_eq!(grams("😀😀😀😀😀").len(), 1);
        // U+20A9's 12 bits of hash are 0: a window opening with it is full all the same.
        assert_eq!(grams("₩1234").len(), 1);
    }

    #[test]
    fn words_are_runs_of_letters_and_digits_read_like_the_general_path() {
        // The oracle: char by char, a word is a run of alphanumeric chars, with a `.`
        // or `,` between two ASCII digits inside it; each normalised by `term`.
        fn by_chars(text: &str) -> Vec<(usize, usize, u64, bool, bool)> {
            let bytes = text.as_bytes();
            let inside = |at: usize, c: char| {
                (c == '.' || c == ',')
                    && at > 0
                    && bytes[at - 1].is_ascii_digit()
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
            };
            let mut words = Vec::new();
            let mut start = None;
            for (at, c) in text.char_indices() {
                match start {
                    None if c.is_alphanumeric() => start = Some(at),
                    Some(from) if !c.is_alphanumeric() && !inside(at, c) => {
                        words.push((from, at));
                        start = None;
                    }
                    _ => {}
                }
            }
            words.extend(start.map(|from| (from, text.len())));
            words
                .into_iter()
                .map(|(from, to)| {
                    let (hash, stop, number) = super::term(&text[from..to]);
                    (from, to, hash, stop, number)
                })
                .collect()
        }
        for text in [
            "Growth was 3.5% in 2019, then 1,200 units (a1,2 and 1,,2; 3.5.7).",
            "  Émile Zola ÉCRIT à Paris\u{a0}— 東京 😀 ΣΊΣΥΦΟΣ x\u{1c}y\u{85}z end",
            "Studies REPORTED, the THE walking flies: lovely us 12,345.",
            &format!("{} word", "x".repeat(70)),
            "9.",
            ",1",
            "1,",
            "3. x",
            "line one\r\nline two,\r\n3,5\r\n",
            "\u{301}start, after\u{301} a mark 😀",
            &format!("{},5 units", "1,234".repeat(15)),
            // Eight-byte runs (see the 5-gram oracle), and words of 56 to 65 bytes, on
            // both sides of the word buffer's 64.
            "abcdefghé x 12345678.5 abcdefgh REPORTEDLY UNDERSTANDINGS abcdefghABCDEFGHijk",
            &(56..=65)
                .map(|n| "Ab".repeat(n / 2) + &"c".repeat(n % 2))
                .collect::<Vec<_>>()
                .join(" "),
            "",
        ] {
            let got: Vec<_> = tokens(text)
                .map(|t| (t.start, t.end, t.hash, t.is_stop(), t.number))
                .collect();
            assert_eq!(got, by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn the_buffer_hash_is_the_byte_hash() {
        let mut buf = [0xa5u8; WORD_BUFFER]; // bytes past the word must not count
        for word in ["", "a", "abcdefg", "abcdefgh", "abcdefghi", &"x".repeat(64)] {
            buf[..word.len()].copy_from_slice(word.as_bytes());
            assert_eq!(
                hash_in_buffer(&buf, word.len()),
                hash(word.as_bytes()),
                "{word}"
            );
        }
        assert_ne!(hash(b"ab"), hash(b"ab\0"), "the length counts");
    }

    #[test]
    fn ascii_and_general_paths_normalise_alike() {
        for word in [
            "Studies",
            "REPORTED",
            "class",
            "The",
            "x",
            "1,200",
            "3.5",
            "2019",
            "a1,2",
            "Themselvesx",
            "walking",
            "flies",
            "us",
            "lovely",
        ] {
            assert_eq!(term(word), super::term(word), "{word}");
        }
        assert_eq!(
            term("Studies").0,
            hash(stem("studies".to_string()).as_bytes())
        );
        assert_eq!(term("1,200").0, hash(b"1200"));
        assert!(term("The").1, "a stopword");
    }

    #[test]
    fn stopwords_are_recognised_by_hash_and_content_words_are_not() {
        assert!(
            STOPWORDS.iter().all(|w| term(w).1),
            "every stopword, through the fast path"
        );
        assert!(
            STOPWORDS.iter().all(|w| w.len() <= 10),
            "the length cut-off"
        );
        assert!(!term("tower").1 && !term("Themselvesx").1 && term("THE").1);
    }

    #[test]
    fn every_suffix_ends_in_a_letter_the_shortcut_lets_through() {
        for (suffix, _, _) in STEMS {
            let word = format!("abcdefgh{suffix}");
            assert_ne!(stem_len(word.as_bytes()), (word.len(), ""), "{suffix}");
        }
    }

    #[test]
    fn stemming_meets_inflections() {
        assert_eq!(stem("studies".into()), "study");
        assert_eq!(stem("reported".into()), stem("reports".into()));
        assert_eq!(stem("class".into()), "class");
    }

    #[test]
    fn decimals_and_thousands_stay_one_number() {
        let terms: Vec<u64> = tokens("Growth was 3.5% in 2019, then 1,200 units.")
            .map(|t| t.hash)
            .collect();
        assert!(
            terms.contains(&hash(b"3.5")) && terms.contains(&hash(b"1200")),
            "{terms:?}"
        );
    }

    #[test]
    fn eight_bytes_at_a_time_read_as_the_ascii_table_does() {
        // Every byte value at every place of a chunk of letters and digits: the run
        // stops at the first byte the table does not mark as a letter or digit (every
        // byte from 0x80 up), and each byte is lower-cased as the table does.
        let filler = *b"aZ09zA9m";
        for place in 0..8 {
            for b in 0..=255u8 {
                let mut chunk = filler;
                chunk[place] = b;
                let (run, lower) = alphanumeric_run(u64::from_le_bytes(chunk));
                let alphanumeric = b.is_ascii_alphanumeric();
                assert_eq!(
                    run,
                    if alphanumeric { 8 } else { place },
                    "{b:#x} at {place}"
                );
                let want: Vec<u8> = chunk
                    .iter()
                    .map(|&c| {
                        if c < 0x80 {
                            ASCII[usize::from(c)] & 0x7f
                        } else {
                            c
                        }
                    })
                    .collect();
                // Bytes past the run are written but never read: only the run's must agree.
                assert_eq!(lower.to_le_bytes()[..run], want[..run], "{b:#x} at {place}");
            }
        }
    }
}
