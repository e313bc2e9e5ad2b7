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
pub(super) fn for_each_gram(text: &str, mut f: impl FnMut(u64)) -> usize {
    let mut scanner = Scanner::new(text);
    while scanner.next_token(&mut f).is_some() {}
    scanner.grams()
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
    let mut scanner = Scanner::new(text);
    std::iter::from_fn(move || scanner.next_token(&mut |_| {}))
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

/// The 5-gram window of a [`Scanner`]: the last five characters' codes, 12 bits each, in
/// one `u64` (the newest in the low bits), entered with a shift and an or. A code is
/// the folded character plus one when that fits 12 bits (every character below U+0FFF:
/// Latin, Greek, Cyrillic, Hebrew, Arabic, the Indic scripts), else 12 bits of its
/// hash, never 0. Those bits can equal any other character's code: CJK, Hangul, emoji
/// and the typographic quotes and dashes of U+2000–U+206F take this path, and two
/// windows that differ only in such a character share their codes, and so their hash,
/// about 1 time in 4,096. A window is full when its oldest code is not 0.
#[derive(Clone, Copy)]
struct Window {
    codes: u64,
    /// The last character entered was whitespace (true at the start: leading
    /// whitespace is skipped).
    last_space: bool,
    /// Windows hashed so far.
    count: usize,
}

impl Window {
    /// The bits of the five codes.
    const MASK: u64 = (1 << (12 * GRAM)) - 1;

    /// Enters the folded character `folded` (a space for whitespace) and calls `f` with
    /// the window's hash once five characters are in.
    #[inline(always)]
    fn enter(&mut self, folded: u32, f: &mut impl FnMut(u64)) {
        let space = folded == u32::from(b' ');
        if space && self.last_space {
            return;
        }
        self.last_space = space;
        let code = u64::from(folded) + 1;
        let code = if code < 0x1000 {
            code
        } else {
            (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52).max(1)
        };
        self.codes = (self.codes << 12 | code) & Window::MASK;
        if self.codes >> (12 * (GRAM - 1)) != 0 {
            self.count += 1;
            f(window_hash(self.codes));
        }
    }
}

/// How a non-ASCII character enters the 5-gram window: folded to lower case, whitespace
/// as a space.
fn folded(c: char) -> u32 {
    u32::from(if c.is_whitespace() { ' ' } else { fold_case(c) })
}

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
/// digits; a decimal point or thousands comma inside a number stays), entering every
/// character into the 5-gram window of the text folded to lower case with single
/// spaces.
///
/// One pass, where words and 5-grams were read in two: each byte is loaded and
/// classified once (one table load for ASCII, nearly every byte of a source).
pub(super) struct Scanner<'t> {
    text: &'t str,
    /// Where the next call starts reading.
    at: usize,
    window: Window,
    /// The word being read, lower-cased as it is read (commas of numbers left out):
    /// ASCII words of up to 64 bytes, nearly all, need no second pass.
    buf: [u8; WORD_BUFFER],
}

impl<'t> Scanner<'t> {
    /// A scanner at the start of `text`, its window empty.
    pub(super) fn new(text: &'t str) -> Scanner<'t> {
        Scanner {
            text,
            at: 0,
            window: Window {
                codes: 0,
                last_space: true,
                count: 0,
            },
            buf: [0; WORD_BUFFER],
        }
    }

    /// The 5-gram windows entered so far (all of the text's once
    /// [`Scanner::next_token`] has returned `None`).
    pub(super) fn grams(&self) -> usize {
        self.window.count
    }

    /// The next word, lower-cased and lightly stemmed, calling `on_gram` with the hash
    /// of each 5-gram window completed on the way; `None` at the end of the text (every
    /// window entered).
    #[inline(always)]
    pub(super) fn next_token(&mut self, on_gram: &mut impl FnMut(u64)) -> Option<Token> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut window = self.window;
        let mut at = self.at;
        // The gap: every character entered up to the first letter or digit.
        let start = loop {
            let Some(&b) = bytes.get(at) else {
                (self.at, self.window) = (at, window);
                return None;
            };
            if b < 0x80 {
                let class = ASCII[usize::from(b)];
                if class >= 0x80 {
                    break at;
                }
                window.enter(u32::from(class), on_gram);
                at += 1;
            } else {
                let (c, len) = char_at(text, at);
                if c.is_alphanumeric() {
                    break at;
                }
                window.enter(folded(c), on_gram);
                at += len;
            }
        };
        // The word, up to the character that ends it (entered too).
        let number = bytes[start].is_ascii_digit();
        let (mut n, mut ascii) = (0, true);
        let end = loop {
            let Some(&b) = bytes.get(at) else {
                break at;
            };
            if b >= 0x80 {
                let (c, len) = char_at(text, at);
                window.enter(folded(c), on_gram);
                if !c.is_alphanumeric() {
                    at += len;
                    break at - len;
                }
                ascii = false;
                at += len;
                continue;
            }
            let class = ASCII[usize::from(b)];
            let lower = class & 0x7f;
            window.enter(u32::from(lower), on_gram);
            at += 1;
            let inside_number = class < 0x80
                && (b == b'.' || b == b',')
                && bytes[at - 2].is_ascii_digit()
                && bytes.get(at).is_some_and(u8::is_ascii_digit);
            if class < 0x80 && !inside_number {
                break at - 1;
            }
            if !(number && b == b',') {
                if let Some(slot) = self.buf.get_mut(n) {
                    *slot = lower;
                }
                n += 1;
            }
        };
        (self.at, self.window) = (at, window);
        Some(self.token(start..end, n, number, ascii))
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
}
