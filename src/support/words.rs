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
/// with single spaces; returns the number of windows (0 when the text is too short to
/// compare). The window hash is a polynomial rolling hash (one multiply-add per
/// character), then mixed.
pub(super) fn for_each_gram(text: &str, mut f: impl FnMut(u64)) -> usize {
    /// The base of the rolling hash and its fifth power (to drop the oldest character).
    const BASE: u64 = 0x9e37_79b9_7f4a_7c15;
    const DROP: u64 = BASE
        .wrapping_mul(BASE)
        .wrapping_mul(BASE)
        .wrapping_mul(BASE)
        .wrapping_mul(BASE);
    let mut window = [0u64; 8];
    let mut filled = 0usize;
    let mut rolling: u64 = 0;
    let mut last_space = true;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // ASCII (nearly every character of a source) without decoding or tables.
        let (space, folded) = match bytes[at] {
            b @ 0..0x80 => {
                at += 1;
                // `char::is_whitespace` for ASCII: `is_ascii_whitespace` plus U+000B.
                (
                    b.is_ascii_whitespace() || b == 0x0b,
                    u32::from(b.to_ascii_lowercase()),
                )
            }
            _ => {
                let (c, len) = char_at(text, at);
                at += len;
                (c.is_whitespace(), u32::from(fold_case(c)))
            }
        };
        if space && last_space {
            continue;
        }
        last_space = space;
        let code = u64::from(if space { u32::from(b' ') } else { folded }) + 1;
        // The window's oldest code leaves as the new one enters: the codes are kept in
        // a ring of eight (a mask, not a division by 5, finds a slot).
        let oldest = window[filled.wrapping_sub(GRAM) % 8];
        window[filled % 8] = code;
        rolling = rolling
            .wrapping_mul(BASE)
            .wrapping_add(code.wrapping_sub(oldest.wrapping_mul(DROP)));
        filled += 1;
        if filled >= GRAM {
            f(mix(rolling));
        }
    }
    filled.saturating_sub(GRAM - 1)
}

/// One word: its normalised term, whether it is a stopword, whether it is a number.
pub(super) struct Token {
    /// Hash of the normalised term (lower case, stemmed; numbers without commas).
    pub hash: u64,
    pub stop: bool,
    pub number: bool,
    pub start: usize,
    pub end: usize,
}

/// The words of `text`: runs of letters and digits (a decimal point or thousands comma
/// inside a number stays), lower-cased and lightly stemmed.
pub(super) fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut buf = [0u8; WORD_BUFFER];
    std::iter::from_fn(move || {
        while at < text.len() {
            let b = bytes[at];
            if b < 0x80 {
                if b.is_ascii_alphanumeric() {
                    break;
                }
                at += 1;
                continue;
            }
            let (c, len) = char_at(text, at);
            if c.is_alphanumeric() {
                break;
            }
            at += len;
        }
        if at >= text.len() {
            return None;
        }
        let start = at;
        let number = bytes[start].is_ascii_digit();
        // The word is lower-cased into `buf` as it is read (commas of numbers left out):
        // ASCII words of up to 64 bytes, nearly all, need no second pass.
        let mut n = 0;
        let mut ascii = true;
        while at < text.len() {
            let b = bytes[at];
            if b.is_ascii_alphanumeric() {
                if let Some(slot) = buf.get_mut(n) {
                    *slot = b.to_ascii_lowercase();
                }
                n += 1;
                at += 1;
                continue;
            }
            let (c, len) = char_at(text, at);
            let inside_number = (c == '.' || c == ',')
                && bytes[at - 1].is_ascii_digit()
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
            if inside_number {
                if !(number && c == ',') {
                    if let Some(slot) = buf.get_mut(n) {
                        *slot = b;
                    }
                    n += 1;
                }
            } else if c.is_alphanumeric() {
                ascii = false;
            } else {
                break;
            }
            at += len;
        }
        let (hash, stop, number) = if ascii && n <= buf.len() {
            ascii_term(&mut buf, n, number)
        } else {
            term(text.sub(start..at))
        };
        Some(Token {
            hash,
            stop,
            number,
            start,
            end: at,
        })
    })
}

/// The term of an ASCII word already lower-cased into `buf[..n]` (numbers without
/// commas): its hash, whether it is a stopword, whether it is a number. The same result
/// as [`term`] on the raw word.
fn ascii_term(buf: &mut [u8; WORD_BUFFER], n: usize, number: bool) -> (u64, bool, bool) {
    let whole = hash_in_buffer(buf, n);
    if number {
        return (whole, false, true);
    }
    let stop = n < 2 || (n <= 10 && is_stopword_hash(whole));
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
        (token.hash, token.stop, token.number)
    }

    #[test]
    fn grams_of_ascii_and_other_text_match_a_char_by_char_reading() {
        // The reading before the ASCII fast path, kept as the oracle: every char
        // decoded, `char::is_whitespace`, `fold_case`, the same rolling hash.
        fn by_chars(text: &str) -> Vec<u64> {
            const BASE: u64 = 0x9e37_79b9_7f4a_7c15;
            let drop = (0..4).fold(BASE, |p, _| p.wrapping_mul(BASE));
            let (mut window, mut filled, mut rolling) = ([0u64; GRAM], 0, 0u64);
            let (mut last_space, mut out) = (true, Vec::new());
            for c in text.chars() {
                let c = if c.is_whitespace() { ' ' } else { c };
                if c == ' ' && last_space {
                    continue;
                }
                last_space = c == ' ';
                let code = u64::from(u32::from(fold_case(c))) + 1;
                let slot = filled % GRAM;
                rolling = rolling
                    .wrapping_mul(BASE)
                    .wrapping_add(code)
                    .wrapping_sub(window[slot].wrapping_mul(drop));
                window[slot] = code;
                filled += 1;
                if filled >= GRAM {
                    out.push(mix(rolling));
                }
            }
            out
        }
        for text in [
            "Plain ASCII text, with  double\tspaces\r\nand\u{b}tabs.",
            "  Émile Zola ÉCRIT à Paris\u{a0}— 東京 😀 ΣΊΣΥΦΟΣ \u{2003}end ",
            "x\u{1c}y\u{85}z",
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
