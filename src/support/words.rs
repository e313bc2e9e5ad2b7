//! The words that support scoring compares, and their hashes.

use super::stopwords::is_stopword_hash;
use crate::casefold::fold_case;
use crate::substr::Substr;

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

/// One word: its normalised term, whether it is a stopword, whether it is a number.
pub(super) struct Token {
    /// Hash of the normalised term (lower case, stemmed; numbers without commas).
    pub hash: u64,
    stop: Stop,
    pub number: bool,
    /// Whether the word makes word pairs with its neighbours: all but a letter of
    /// hiragana ([`is_function_letter`]).
    pub paired: bool,
    /// The word's [`lead`] (equal terms have equal leads); 0 for a letter of a script
    /// written without spaces, whose term no word with a lead has.
    pub lead: u32,
    /// Whether the term was read ([`Scanner::next_token_if`]): when not, the caller did
    /// not want the word's lead, and only its place, lead, `number` and `gap_may_end`
    /// are set (its other fields are placeholders).
    pub read: bool,
    /// Whether the gap before the word (from the end of the word before, or the text's
    /// start) holds a byte that may end a sentence: `.`, `!`, `?`, a line break, or the
    /// first byte of `。`, `！` or `？`. Taken as the gap is read, so that a sentence
    /// splitter looks at the gaps that have one only.
    pub gap_may_end: bool,
    pub start: usize,
    pub end: usize,
}

/// The ASCII bytes that may end a sentence, as bits of a `u64` (all are below 64).
const SENTENCE_ENDS: u64 = 1 << b'.' | 1 << b'!' | 1 << b'?' | 1 << b'\n';

/// The first three bytes of a term (all of a shorter one), with their number: two equal
/// terms have equal leads, so a word whose lead no claim's word has shares no term or
/// word pair with the claims. Computed from a word's lower-cased bytes before it is
/// stemmed (`buf[..n]`; digits without commas for a `number`): the stemmer keeps at
/// least the first three bytes of any word of four bytes or more but for a five-byte
/// word in `-ies` ("dries", whose term "dry" leads with `y`), and shorter words are not
/// stemmed. Nonzero.
#[inline(always)]
fn lead(buf: &[u8; WORD_BUFFER], n: usize, number: bool) -> u32 {
    // One load and no branch: bytes 2 to 4 are compared as one number, and the `i` of
    // "-ies" is turned into a `y` by an exclusive or.
    let mut first = [0u8; 8];
    first.copy_from_slice(&buf[..8]);
    let first = u64::from_le_bytes(first);
    let ies = (n == 5) & !number & ((first >> 16) & 0xff_ffff == 0x73_6569);
    let kept = n.min(3);
    let lead = first as u32 & ((1u32 << (8 * kept)) - 1);
    (lead ^ ((u32::from(ies) * u32::from(b'i' ^ b'y')) << 16)) | ((kept as u32) << 24)
}

/// [`lead`] of a term's bytes (a word of the general path, after folding and stemming).
fn lead_of_term(term: &[u8]) -> u32 {
    let kept = term.len().min(3);
    let mut bytes = [0u8; 4];
    bytes[..kept].copy_from_slice(&term[..kept]);
    u32::from_le_bytes(bytes) | ((kept as u32) << 24)
}

impl Token {
    /// Whether the word is a letter read as a word of its own (Han and kana, Thai, Lao,
    /// Khmer, Myanmar, Hangul): such a letter has no [`lead`].
    #[inline]
    pub(super) fn is_letter_word(&self) -> bool {
        self.lead == 0
    }

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
    std::iter::from_fn(move || scanner.next_token())
}

/// ASCII bytes as a [`Scanner`] reads them: a letter or digit lower-cased with the top
/// bit set, any other byte as it is. One table load classifies a byte and lower-cases it.
const ASCII: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0u8;
    while b < 128 {
        table[b as usize] = if b.is_ascii_alphanumeric() {
            b.to_ascii_lowercase() | 0x80
        } else {
            b
        };
        b += 1;
    }
    table
};

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

/// Whether `c` is a letter of a script written without spaces between words (Han and
/// its 々 〆 〇, hiragana and katakana, Thai, Lao, Khmer, Myanmar) or of Hangul (Korean
/// words carry their particles). Each such letter is a word of its own, so a claim's terms are
/// its characters and its word pairs character bigrams, as search engines read Chinese
/// and Japanese: read as runs up to the next punctuation, a Chinese sentence was one
/// "word" no other text shares.
#[inline]
fn is_unspaced(c: char) -> bool {
    matches!(u32::from(c),
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1100..=0x11FF // Hangul jamo
        | 0x1780..=0x17FF // Khmer
        | 0x3005..=0x3007 // 々 〆 〇
        | 0x3040..=0x30FF // hiragana, katakana
        | 0x3130..=0x318F // Hangul compatibility jamo
        | 0x31F0..=0x31FF // katakana phonetic extensions
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK compatibility ideographs
        | 0xFF66..=0xFF9F // halfwidth katakana
        | 0x20000..=0x3FFFF) // CJK extensions B and on
}

/// Whether `c` is a letter of hiragana. Japanese writes its particles, endings and
/// auxiliaries in hiragana (の, が, を, している), its nouns and the stems of its verbs
/// mostly in kanji and katakana: read a letter a word, hiragana letters are function
/// words, and the pairs they make (して, てい, います) are in nearly every sentence. So
/// such a letter is a stopword and in no claim's word pair. On JNLI (Japanese NLI,
/// docs/support.md), as terms and in pairs they put citeproof below plain token recall
/// in every cell. The rule was chosen among three on JNLI's validation file; its test
/// file was read for two of them, so it is no clean held-out check of the choice.
fn is_function_letter(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x309F)
}

/// What a non-ASCII character is to the [`Scanner`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    /// Not a letter or digit: it ends a word, or lies between two.
    Gap,
    /// A letter or digit of a word of several ([`char::is_alphanumeric`]).
    Letter,
    /// A letter that is a word of its own ([`is_unspaced`]).
    Unspaced,
}

/// The [`Class`] of a non-ASCII character. The CJK ideograph blocks (extension A and
/// the unified block) and the Hangul syllables hold nothing but letters, and the
/// general punctuation (dashes, curly quotes), CJK punctuation (、。《》「」【】) and
/// full-width punctuation (，：；！？) nothing but gaps, so they need no look-up in the
/// standard library's tables of letters and digits: in a Chinese text those look-ups
/// were a sixth of claim support's time (docs/perf-log.md, "Letters without a table").
/// A test checks every character against the general rule.
#[inline]
fn class(c: char) -> Class {
    let u = u32::from(c);
    if matches!(u, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3) {
        Class::Unspaced
    } else if matches!(u, 0x2000..=0x206F | 0x3000..=0x3004 | 0x3008..=0x3020 | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20)
        || !c.is_alphanumeric()
    {
        Class::Gap
    } else if is_unspaced(c) {
        Class::Unspaced
    } else {
        Class::Letter
    }
}

/// Reads a text's words, one per call of [`Scanner::next_token`]: a run of letters and
/// digits (a decimal point or thousands comma inside a number stays), or one letter of a
/// script written without spaces ([`is_unspaced`]).
///
/// A word's ASCII letters and digits are read eight bytes at a time
/// ([`alphanumeric_run`]); other ASCII bytes one at a time through a 128-byte table (a
/// gap, a word's end, a number's decimal point), and non-ASCII characters decoded. Read
/// a byte at a time, each word's end was a branch no predictor could guess
/// (docs/perf-log.md, "Eight bytes at a time").
pub(super) struct Scanner<'t> {
    text: &'t str,
    /// Where the next call starts reading.
    at: usize,
    /// The word being read, lower-cased as it is read (commas of numbers left out):
    /// ASCII words of up to 64 bytes, nearly all, need no second pass.
    buf: [u8; WORD_BUFFER],
}

impl<'t> Scanner<'t> {
    /// A scanner at the start of `text`.
    pub(super) fn new(text: &'t str) -> Scanner<'t> {
        Scanner {
            text,
            at: 0,
            buf: [0; WORD_BUFFER],
        }
    }

    /// The next word, lower-cased and lightly stemmed; `None` at the end of the text.
    #[inline(always)]
    pub(super) fn next_token(&mut self) -> Option<Token> {
        self.next_token_if(|_| true)
    }

    /// The next word, its term read only when `wanted` takes its [`lead`] (else a token
    /// with `read` false): most words of a source share no term with a request's claims,
    /// and are not stemmed or hashed. A word outside the ASCII fast path is always read.
    /// `None` at the end of the text.
    #[inline(always)]
    pub(super) fn next_token_if(&mut self, wanted: impl Fn(u32) -> bool) -> Option<Token> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut at = self.at;
        // Whether a byte of the gap may end a sentence (its bit of `SENTENCE_ENDS`).
        let mut ends = 0;
        // The gap, up to the first letter or digit.
        let start = loop {
            let Some(&b) = bytes.get(at) else {
                self.at = at;
                return None;
            };
            if b < 0x80 {
                if ASCII[usize::from(b)] >= 0x80 {
                    break at;
                }
                ends |= SENTENCE_ENDS >> (b & 63) & u64::from(b < 64);
                at += 1;
            } else {
                let (c, len) = char_at(text, at);
                ends |= u64::from(matches!(c, '。' | '！' | '？'));
                match class(c) {
                    Class::Unspaced => {
                        // A word of one letter, its term its bytes: these scripts have
                        // no case and no suffixes to stem (the general path would
                        // allocate to find that out).
                        self.at = at + len;
                        let whole = hash(&bytes[at..at + len]);
                        let function = is_function_letter(c);
                        return Some(Token {
                            hash: whole,
                            stop: if function {
                                Stop::Decided(true)
                            } else {
                                Stop::IfListed(whole)
                            },
                            number: false,
                            paired: !function,
                            lead: 0,
                            read: true,
                            gap_may_end: ends != 0,
                            start: at,
                            end: at + len,
                        });
                    }
                    Class::Letter => break at,
                    Class::Gap => at += len,
                }
            }
        };
        // The word, up to the character that ends it (left for the next gap).
        let number = bytes[start].is_ascii_digit();
        let (mut n, mut ascii) = (0, true);
        // Eight bytes at a time while they are ASCII letters and digits: most words end
        // in their first eight, with no branch per byte. Each chunk's lower-cased bytes
        // are written whole; those past the word's end are written over or never read
        // (`n` says how far they count).
        while let (Some(chunk), Some(word)) = (bytes.get(at..at + 8), self.buf.get_mut(n..n + 8)) {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            let (run, lower) = alphanumeric_run(x);
            word.copy_from_slice(&lower.to_le_bytes());
            (at, n) = (at + run, n + run);
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
                if class(c) != Class::Letter {
                    break at;
                }
                ascii = false;
                at += len;
                continue;
            }
            let read = ASCII[usize::from(b)];
            if read < 0x80 {
                let inside_number = (b == b'.' || b == b',')
                    && bytes[at - 1].is_ascii_digit()
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
                if !inside_number {
                    break at;
                }
            }
            at += 1;
            if !(number && b == b',') {
                if let Some(slot) = self.buf.get_mut(n) {
                    *slot = read & 0x7f;
                }
                n += 1;
            }
        };
        self.at = at;
        let fast = ascii && n <= WORD_BUFFER;
        // Taken for every word (the general path's buffer holds no word, and its lead is
        // then unused): a branch around it cost 0.4 % more instructions.
        let lead = lead(&self.buf, n, number);
        if fast && !wanted(lead) {
            return Some(Token {
                hash: 0,
                stop: Stop::Decided(true),
                number,
                paired: false,
                lead,
                read: false,
                gap_may_end: ends != 0,
                start,
                end,
            });
        }
        let mut token = self.token(start..end, n, number, fast, lead);
        token.gap_may_end = ends != 0;
        Some(token)
    }

    /// The hash of the term of a word the scanner passed over (a token with `read`
    /// false) at `range`: such a word is ASCII and fits the word buffer, so it is
    /// lower-cased again from the text, with no second scan for its end. For a word
    /// passed over that the word after it wants for their pair.
    pub(super) fn passed_over_hash(&mut self, range: std::ops::Range<usize>) -> u64 {
        let word = &self.text.as_bytes()[range.clone()];
        let number = word.first().is_some_and(u8::is_ascii_digit);
        let mut n = 0;
        for &b in word {
            // A number's commas are left out, as the scan leaves them out.
            if !(number && b == b',') {
                if let Some(slot) = self.buf.get_mut(n) {
                    *slot = b.to_ascii_lowercase();
                }
                n += 1;
            }
        }
        self.token(range, n.min(WORD_BUFFER), number, true, 0).hash
    }

    /// The token of the word at `range`, lower-cased into `buf[..n]` on the ASCII
    /// `fast` path, where its lead is `lead` (the general path finds its own).
    fn token(
        &mut self,
        range: std::ops::Range<usize>,
        n: usize,
        number: bool,
        fast: bool,
        lead: u32,
    ) -> Token {
        let (hash, stop, number, lead) = if fast {
            let (hash, stop, number) = ascii_term(&mut self.buf, n, number);
            (hash, stop, number, lead)
        } else {
            let (hash, stop, number, lead) = term(self.text.sub(range.clone()));
            (hash, Stop::Decided(stop), number, lead)
        };
        Token {
            hash,
            stop,
            number,
            paired: true,
            lead,
            read: true,
            gap_may_end: false,
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
/// number, and its [`lead`]: case folded char by char, full-width digits read as ASCII
/// ones ([`narrow_digit`]), stemmed, commas of numbers dropped.
fn term(raw: &str) -> (u64, bool, bool, u32) {
    let word: String = raw.chars().map(|c| narrow_digit(fold_case(c))).collect();
    let number = word.as_bytes()[0].is_ascii_digit();
    let stop = !number
        && (word.len() < 2 || (word.len() <= 10 && is_stopword_hash(hash(word.as_bytes()))));
    let normalised = if number {
        word.replace(',', "")
    } else {
        stem(word)
    };
    (
        hash(normalised.as_bytes()),
        stop,
        number,
        lead_of_term(normalised.as_bytes()),
    )
}

/// The ASCII digit of a full-width one (０–９, U+FF10–U+FF19), which Chinese and Japanese
/// text writes as often as ASCII digits (JNLI's captions: 238 sentences of 4,868 with
/// full-width digits, 211 with ASCII ones); any other character as it is. So "２人" and
/// "2人" share their number, and a claim's "３" is a number the passage must hold.
fn narrow_digit(c: char) -> char {
    match c {
        '０'..='９' => char::from(b'0' + (u32::from(c) - u32::from('０')) as u8),
        _ => c,
    }
}

/// How much of `word` the stemmer keeps, and what it appends: the first rule of `STEMS`
/// (the tests' list) that applies, computed with no branch. The rules' last letters
/// differ but for `-ies`, `-es` and `-s`, so at most one rule fits once those three are
/// told apart. As a loop over the rules it was half of a word's term through wasm
/// (every word ending in `e`, `s`, `g`, `d` or `y` walked them); as a `match` on the
/// last byte, an indirect jump that the words' endings kept mispredicting.
#[inline(always)]
fn stem_len(word: &[u8]) -> (usize, &'static str) {
    let n = word.len();
    // The byte `back` places from the end (0 before the word).
    let at = |back: usize| if back <= n { word[n - back] } else { 0 };
    let (last, second, third) = (at(1), at(2), at(3));
    let ends_s = (last == b's') & (second != b's');
    let ies = ends_s & (second == b'e') & (third == b'i') & (n >= 5);
    let es = ends_s & (second == b'e') & !ies & (n >= 5);
    let s = ends_s & !(ies | es) & (n >= 4);
    let ing = (last == b'g') & (second == b'n') & (third == b'i') & (n >= 6);
    let ed = (last == b'd') & (second == b'e') & (n >= 5);
    let ly = (last == b'y') & (second == b'l') & (n >= 5);
    let e = (last == b'e') & (n >= 5);
    let strip = 3 * usize::from(ies | ing) + 2 * usize::from(es | ed | ly) + usize::from(s | e);
    (n - strip, if ies { "y" } else { "" })
}

/// The stemmer's rules, in the order it tries them: suffix, replacement, minimum word
/// length; a word ending in `ss` keeps it. [`stem_len`] computes the same, and
/// `scripts/gen-common-words.py` holds the same list.
#[cfg(test)]
const STEMS: [(&str, &str, usize); 7] = [
    ("ies", "y", 5),
    ("ing", "", 6),
    ("ed", "", 5),
    ("es", "", 5),
    ("ly", "", 5),
    ("s", "", 4),
    ("e", "", 5),
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
    fn words_are_runs_of_letters_and_digits_read_like_the_general_path() {
        // The oracle: char by char, a word is a run of alphanumeric chars, with a `.`
        // or `,` between two ASCII digits inside it, or one letter of a script written
        // without spaces; each normalised by `term`, a function letter a stopword that
        // makes no pairs.
        fn by_chars(text: &str) -> Vec<(usize, usize, u64, bool, bool, bool)> {
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
                let ends = (!c.is_alphanumeric() && !inside(at, c)) || is_unspaced(c);
                if let (Some(from), true) = (start, ends) {
                    words.push((from, at));
                    start = None;
                }
                if c.is_alphanumeric() && is_unspaced(c) {
                    words.push((at, at + c.len_utf8()));
                } else if start.is_none() && c.is_alphanumeric() {
                    start = Some(at);
                }
            }
            words.extend(start.map(|from| (from, text.len())));
            words
                .into_iter()
                .map(|(from, to)| {
                    let (hash, stop, number, _) = super::term(&text[from..to]);
                    let function = text[from..to].chars().all(is_function_letter);
                    (from, to, hash, stop || function, number, !function)
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
            // Scripts written without spaces: a word a letter, next to other words.
            "東京タワーは1958年に完成した。iPhone手机 서울은 ภาษาไทย ຄຳ ខ្មែរ မြန်မာ 𠀋x",
            "abcdefgh東 abcdefghijklmnop京 ก\u{e48}x ab\u{e48}cd 人々 ㅋㅋ 1,5年 3.5万",
            // Eight-byte runs: ended by a non-ASCII letter, a decimal point, a chunk's
            // end, the text's end; capitals past the first chunk. Words of 56 to 65
            // bytes, on both sides of the word buffer's 64.
            "abcdefghé x 12345678.5 abcdefgh REPORTEDLY UNDERSTANDINGS abcdefghABCDEFGHijk",
            &(56..=65)
                .map(|n| "Ab".repeat(n / 2) + &"c".repeat(n % 2))
                .collect::<Vec<_>>()
                .join(" "),
            "",
        ] {
            let got: Vec<_> = tokens(text)
                .map(|t| (t.start, t.end, t.hash, t.is_stop(), t.number, t.paired))
                .collect();
            assert_eq!(got, by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn the_class_of_every_character_is_the_general_rule() {
        // The blocks `class` takes without a look-up must be letters through and
        // through, in the Unicode version of this toolchain.
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let rule = match (c.is_alphanumeric(), is_unspaced(c)) {
                (false, _) => Class::Gap,
                (true, true) => Class::Unspaced,
                (true, false) => Class::Letter,
            };
            assert_eq!(class(c), rule, "{c:?} U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn hiragana_letters_and_no_others_are_function_letters() {
        for c in ['の', 'を', 'ぁ', 'ゟ', 'て'] {
            assert!(is_function_letter(c), "{c}");
        }
        for c in ['ノ', 'ー', '東', '々', 'ア', '、', 'a', '가', 'ก'] {
            assert!(!is_function_letter(c), "{c}");
        }
    }

    #[test]
    fn a_letter_of_a_script_without_spaces_is_its_own_term() {
        // The shortcut's premise: no such letter folds to another, and it is not stemmed
        // (non-ASCII): its term is the hash of its bytes, as the general path makes it,
        // and it is a stopword as the general path says, or a function letter.
        for c in (0..=0x3FFFFu32).filter_map(char::from_u32) {
            if is_unspaced(c) && c.is_alphanumeric() {
                assert_eq!(fold_case(c), c, "{c:?}");
                let word = c.to_string();
                let token = tokens(&word).next().unwrap();
                let (hash, stop, number, _) = super::term(&word);
                let function = is_function_letter(c);
                assert_eq!(
                    (token.hash, token.is_stop(), token.number, token.paired),
                    (hash, stop || function, number, !function),
                    "{c:?}"
                );
            }
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
            let (hash, stop, number, _) = super::term(word);
            assert_eq!(term(word), (hash, stop, number), "{word}");
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
    fn the_stemmer_applies_the_first_rule_that_fits() {
        // The oracle: the rules of STEMS in order, a word ending in "ss" kept.
        fn by_rules(word: &str) -> (usize, &'static str) {
            if word.ends_with("ss") {
                return (word.len(), "");
            }
            for (suffix, replacement, min) in STEMS {
                if word.len() >= min && word.ends_with(suffix) {
                    return (word.len() - suffix.len(), replacement);
                }
            }
            (word.len(), "")
        }
        for word in &stemmer_words() {
            assert_eq!(stem_len(word.as_bytes()), by_rules(word), "{word:?}");
        }
    }

    /// Every word of up to five letters over the stemmer's rules' letters and two
    /// others (the empty word first), and every rule's suffix after stems of 0 to 4
    /// letters.
    fn stemmer_words() -> Vec<String> {
        let letters = [b'i', b'e', b's', b'n', b'g', b'd', b'l', b'y', b'a', b'x'];
        let mut words = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = (words.iter())
                .flat_map(|w| letters.iter().map(move |&c| format!("{w}{}", c as char)))
                .collect();
            words.extend(longer);
        }
        for (suffix, _, _) in STEMS {
            for stem in ["", "a", "ab", "abc", "abcd", "ss"] {
                words.push(format!("{stem}{suffix}"));
            }
        }
        words
    }

    #[test]
    fn a_word_has_the_lead_of_its_term() {
        // The oracle: the term's bytes as the general path makes them, and their first
        // three. Each word of the fast path is read after a longer word and before a
        // chunk's worth of others, so bytes left in the buffer on both sides of it would
        // show. The stemmer's words in lower and upper case, six-letter words with
        // "ies" inside, numbers.
        fn normalised(raw: &str) -> String {
            let word: String = raw.chars().map(|c| narrow_digit(fold_case(c))).collect();
            if word.as_bytes()[0].is_ascii_digit() {
                word.replace(',', "")
            } else {
                stem(word)
            }
        }
        let mut words = stemmer_words();
        words.remove(0);
        let upper: Vec<String> = words.iter().map(|w| w.to_uppercase()).collect();
        words.extend(upper);
        for word in [
            "1",
            "12",
            "123",
            "1,2",
            "12ies",
            "3ies",
            "1,234,567",
            "2.5",
            "abiess",
            "xxiesa",
            "ssiess",
            "DRIES",
            "Dries",
            "Studies",
        ] {
            words.push(word.to_string());
        }
        for word in &words {
            let text = format!("Abcdefghijklmnopq {word}, xyzzy xyzzy.");
            let token = tokens(&text).nth(1).unwrap();
            assert_eq!(&text[token.start..token.end], word, "one word");
            assert_eq!(
                token.lead,
                lead_of_term(normalised(word).as_bytes()),
                "{word:?}"
            );
        }
        // The general path takes its lead from its term: a word there and a word of the
        // fast path with the same term have the same lead.
        for (general, fast) in [
            ("２０２０", "2020"),
            ("１２ies", "12ies"),
            ("\u{212a}elvin", "kelvin"),
            ("\u{212a}ies", "kies"),
            (&("x".repeat(62) + "ing"), &"x".repeat(62)),
        ] {
            let (general, fast) = (
                tokens(general).next().unwrap(),
                tokens(fast).next().unwrap(),
            );
            assert_eq!(general.hash, fast.hash, "the same term");
            assert_eq!(general.lead, fast.lead);
        }
    }

    #[test]
    fn a_word_is_read_in_full_only_when_its_lead_is_wanted() {
        let wanted: Vec<u32> = tokens("dry 1200").map(|t| t.lead).collect();
        let text = "Dries dried 1,200 dry ２０２０ x";
        let mut scanner = Scanner::new(text);
        let mut read = Vec::new();
        while let Some(token) = scanner.next_token_if(|lead| wanted.contains(&lead)) {
            let word = &text[token.start..token.end];
            read.push((word, token.read.then_some(token.hash)));
        }
        let term = |word: &str| Some(tokens(word).next().unwrap().hash);
        assert_eq!(
            read,
            [
                ("Dries", term("dry")),
                ("dried", None),
                ("1,200", term("1200")),
                ("dry", term("dry")),
                // Outside the ASCII fast path, a word is always read.
                ("２０２０", term("2020")),
                ("x", None),
            ]
        );
    }

    #[test]
    fn a_gap_may_end_a_sentence_when_it_holds_a_terminator() {
        // Every gap of texts made of words and one or two of these between them, read
        // with words wanted and not: the flag is whether the gap holds a terminator.
        let gaps = [
            " ",
            ". ",
            "!",
            "?",
            "\n",
            "\r\n",
            ", ",
            "。",
            "！",
            "？",
            "、",
            "—",
            "\u{7f}",
            "\"",
            "?)",
            "…",
            "\t",
            "@",
            "~",
            "；",
            " \u{1f600} ",
        ];
        let ends = |gap: &str| gap.contains(['.', '!', '?', '\n', '。', '！', '？']);
        for first in gaps {
            for second in gaps {
                let text = format!("{first}Alpha{second}中{first}beta{second}9{second}");
                for wanted in [true, false] {
                    let mut scanner = Scanner::new(&text);
                    let mut gap_start = 0;
                    while let Some(token) = scanner.next_token_if(|_| wanted) {
                        let gap = &text[gap_start..token.start];
                        assert_eq!(token.gap_may_end, ends(gap), "{text:?}: {gap:?}");
                        gap_start = token.end;
                    }
                }
            }
        }
    }

    #[test]
    fn a_word_passed_over_hashes_as_it_would_have_been_read() {
        // Every word of the ASCII fast path, passed over, then hashed from its place:
        // capitals, stems, a number's commas and decimal point, a word filling the
        // buffer, a word after a longer one (the buffer holds the longer one's bytes).
        let long = "Q".repeat(WORD_BUFFER);
        let text = format!("Dries Running 1,200.5 a1,2 {long} fish THE studies x9 Ab");
        let mut scanner = Scanner::new(&text);
        let mut passed = Vec::new();
        while let Some(token) = scanner.next_token_if(|_| false) {
            assert!(!token.read, "{}", &text[token.start..token.end]);
            passed.push(token.start..token.end);
        }
        assert_eq!(passed.len(), 10);
        let full: Vec<u64> = tokens(&text).map(|t| t.hash).collect();
        let mut again = Scanner::new(&text);
        let hashes: Vec<u64> = passed
            .into_iter()
            .map(|range| again.passed_over_hash(range))
            .collect();
        assert_eq!(hashes, full);
    }

    #[test]
    fn stemming_meets_inflections() {
        assert_eq!(stem("studies".into()), "study");
        assert_eq!(stem("reported".into()), stem("reports".into()));
        assert_eq!(stem("class".into()), "class");
        assert_eq!(stem("completed".into()), stem("complete".into()));
        assert_eq!(stem("degrees".into()), stem("degree".into()));
        assert_eq!(stem("made".into()), "made", "four letters keep their e");
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
