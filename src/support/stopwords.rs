//! The function words (and commonest content words, and katakana's syllable marks)
//! support scoring leaves out of a text's content terms, looked up by the hash of the
//! lower-cased word; the 1,000 commonest English content words, whose weight in a claim
//! it lowers, looked up by the hash of the term; and the 100 commonest Chinese
//! characters and the Hangul syllables of Korean grammar, whose weight in a claim it
//! lowers too, looked up by the letter.

use super::common_letters::COMMON_LETTERS;
use super::common_words::COMMON_WORDS;
use super::german_words::GERMAN_WORDS;
use super::sets::Bits;
use super::words::hash;

/// True when `word_hash` is the hash of a [`STOPWORDS`] entry. Compares hashes,
/// not strings (a string binary search per word was a tenth of support scoring), in an
/// open-addressing table built at compile time: a probe or two per word. A slot holds
/// the hash's high 32 bits (the low bits choose the slot), half the bytes of whole
/// hashes in a quarter of the slots: 1 KB of the browser core instead of 8 KB, and a
/// word taken for a stopword by chance is one in 2^32 per probe (the test below reads
/// every word of the ExpertQA data without one).
pub(super) fn is_stopword_hash(word_hash: u64) -> bool {
    let key = fingerprint(word_hash);
    let mut at = word_hash as usize % STOPWORD_SLOTS;
    while STOPWORD_TABLE[at] != 0 {
        if STOPWORD_TABLE[at] == key {
            return true;
        }
        at = (at + 1) % STOPWORD_SLOTS;
    }
    false
}

/// What a slot stores of a hash: its high half, never 0 (0 marks an empty slot).
const fn fingerprint(word_hash: u64) -> u32 {
    (word_hash >> 32) as u32 | 1
}

/// Slots for the [`STOPWORDS`]: at most 70 % full (176 words now: 69 %; at that load
/// linear probing cost the typical request with claim support 0.10 % more
/// instructions, support's own 0.15 %, than at the 64 % of 163 words, where twice the
/// slots cost the browser core 208 B more).
const STOPWORD_SLOTS: usize = 256;

/// [`STOPWORDS`] by [`fingerprint`], each in the first free slot from its hash's.
static STOPWORD_TABLE: [u32; STOPWORD_SLOTS] = {
    assert!(
        STOPWORDS.len() * 10 < STOPWORD_SLOTS * 7,
        "the table fills up"
    );
    let mut table = [0u32; STOPWORD_SLOTS];
    let mut i = 0;
    while i < STOPWORDS.len() {
        let h = hash(STOPWORDS[i].as_bytes());
        let mut at = h as usize % STOPWORD_SLOTS;
        while table[at] != 0 {
            at = (at + 1) % STOPWORD_SLOTS;
        }
        table[at] = fingerprint(h);
        i += 1;
    }
    table
};

/// The 1,000 commonest English content words ([`COMMON_WORDS`]) and the German function
/// words ([`GERMAN_WORDS`]), as terms. The English ones and the German ones of ASCII
/// letters by 16 bits of their hash, each set read out of its gaps ([`COMMON_GAPS`],
/// [`GERMAN_GAPS`]) once per process into a bitmap of all 65,536 (read once per scorer,
/// that is once per request, they took 13.6 K instructions, about 1 % of a typical
/// request's claim support; docs/perf-log.md); the seven German ones that are not ASCII
/// by their whole hash ([`GERMAN_NOT_ASCII`]). Only a claim's terms are looked up. A
/// rarer ASCII term is taken for a common English word when its top 16 bits are one of
/// the thousand's, 1.5 % of such terms, whose weight is then lowered as a common word's
/// is (and for a German one, 0.2 %).
#[derive(Debug)]
pub(super) struct CommonTerms {
    english: Fingerprints,
    german: Fingerprints,
}

/// A set of 16-bit fingerprints as one bit each of all 65,536 (8 KB): a look-up is one
/// load. A binary search of the thousand sorted English ones was 1.5 % of the typical
/// request with support through wasm (docs/perf-log.md, "Common words by a bitmap").
#[derive(Debug, PartialEq)]
struct Fingerprints(Bits);

impl Fingerprints {
    /// The set of `values`.
    fn of(values: impl Iterator<Item = u16>) -> Fingerprints {
        let mut bits = Bits::new(1 << 16);
        for value in values {
            bits.set(usize::from(value));
        }
        Fingerprints(bits)
    }

    /// Whether the set holds `term_hash`'s fingerprint.
    fn holds(&self, term_hash: u64) -> bool {
        self.0.get(usize::from(common_fingerprint(term_hash)))
    }
}

impl CommonTerms {
    /// The fingerprints, read from their gaps on first use.
    pub(super) fn get() -> &'static CommonTerms {
        static COMMON: std::sync::OnceLock<CommonTerms> = std::sync::OnceLock::new();
        COMMON.get_or_init(|| CommonTerms {
            english: Fingerprints::of(fingerprints_of(&COMMON_GAPS)),
            german: Fingerprints::of(fingerprints_of(&GERMAN_GAPS)),
        })
    }

    /// True when `term_hash` is (probably) the hash of a common English word's term.
    pub(super) fn contains(&self, term_hash: u64) -> bool {
        self.english.holds(term_hash)
    }

    /// True when the claim's `word`, whose term hashes to `term_hash`, is one of the
    /// common English words: only a word of ASCII letters is looked up (names such as
    /// Björk, España or Françoïs share 16 bits of their terms' hashes with common words,
    /// and their weight must not drop by that chance).
    pub(super) fn english(&self, word: &str, term_hash: u64) -> bool {
        word.is_ascii() && self.contains(term_hash)
    }

    /// True when the claim's `word`, whose term hashes to `term_hash`, is one of the
    /// German function words: by 16 bits of the hash for a word of ASCII letters, whole
    /// for any other ("für", "über", …).
    pub(super) fn german(&self, word: &str, term_hash: u64) -> bool {
        if word.is_ascii() {
            self.german.holds(term_hash)
        } else {
            GERMAN_NOT_ASCII.contains(&term_hash)
        }
    }
}

/// What [`CommonTerms`] keeps of a term hash: its top 16 bits.
const fn common_fingerprint(term_hash: u64) -> u16 {
    (term_hash >> 48) as u16
}

/// The distinct fingerprints of [`COMMON_WORDS`] in order, as [`gaps_of`] writes them:
/// about 1,000 bytes, computed by the compiler. Sorted 16-bit values as such took 2,000
/// bytes that gzip could not shrink (the browser core +2.2 KB instead of +1.4 KB).
static COMMON_GAPS: [u8; COMMON_GAPS_LEN] = {
    let mut gaps = [0; COMMON_GAPS_LEN];
    gaps_of(
        &sorted_fingerprints::<{ COMMON_WORDS.len() }>(&COMMON_WORDS),
        &mut gaps,
    );
    gaps
};

/// How many bytes [`COMMON_GAPS`] takes.
const COMMON_GAPS_LEN: usize = gaps_of(
    &sorted_fingerprints::<{ COMMON_WORDS.len() }>(&COMMON_WORDS),
    &mut [],
);

/// The distinct fingerprints of the [`GERMAN_WORDS`] of ASCII letters in order, as
/// [`gaps_of`] writes them (computed by the compiler).
static GERMAN_GAPS: [u8; GERMAN_GAPS_LEN] = {
    let mut gaps = [0; GERMAN_GAPS_LEN];
    gaps_of(
        &sorted_fingerprints::<GERMAN_ASCII>(&GERMAN_WORDS),
        &mut gaps,
    );
    gaps
};

/// How many bytes [`GERMAN_GAPS`] takes.
const GERMAN_GAPS_LEN: usize =
    gaps_of(&sorted_fingerprints::<GERMAN_ASCII>(&GERMAN_WORDS), &mut []);

/// How many of [`GERMAN_WORDS`] are ASCII.
const GERMAN_ASCII: usize = {
    let (mut n, mut i) = (0, 0);
    while i < GERMAN_WORDS.len() {
        if GERMAN_WORDS[i].is_ascii() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The fingerprints of the `N` words of `words` that are ASCII, sorted (an insertion
/// sort of at most a thousand items, run by the compiler).
const fn sorted_fingerprints<const N: usize>(words: &[&str]) -> [u16; N] {
    let mut sorted = [0u16; N];
    let (mut n, mut i) = (0, 0);
    while i < words.len() {
        if words[i].is_ascii() {
            insert_sorted(
                &mut sorted,
                n,
                common_fingerprint(hash(words[i].as_bytes())),
            );
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "N words of ASCII letters");
    sorted
}

/// The hashes of the [`GERMAN_WORDS`] that are not ASCII, whole (computed by the
/// compiler; [`CommonTerms::german`]).
static GERMAN_NOT_ASCII: [u64; GERMAN_WORDS.len() - GERMAN_ASCII] = {
    let mut hashes = [0u64; GERMAN_WORDS.len() - GERMAN_ASCII];
    let (mut n, mut i) = (0, 0);
    while i < GERMAN_WORDS.len() {
        if !GERMAN_WORDS[i].is_ascii() {
            hashes[n] = hash(GERMAN_WORDS[i].as_bytes());
            n += 1;
        }
        i += 1;
    }
    hashes
};

/// Inserts `key` among the first `len` values of `sorted`, which are in order (a step of
/// an insertion sort the compiler runs).
const fn insert_sorted(sorted: &mut [u16], len: usize, key: u16) {
    let mut at = len;
    while at > 0 && sorted[at - 1] > key {
        sorted[at] = sorted[at - 1];
        at -= 1;
    }
    sorted[at] = key;
}

/// Writes the distinct values of `sorted` as the gaps between them (the first from 0),
/// a byte each, into `out` when it has room; returns how many bytes that takes. A byte
/// 255 adds 255 and ends no value, so a gap of 255 is the bytes 255, 0.
const fn gaps_of(sorted: &[u16], out: &mut [u8]) -> usize {
    let (mut len, mut previous, mut i) = (0, 0u16, 0);
    while i < sorted.len() {
        if i == 0 || sorted[i] != sorted[i - 1] {
            let mut gap = sorted[i] - previous;
            while gap >= 255 {
                if len < out.len() {
                    out[len] = 255;
                }
                len += 1;
                gap -= 255;
            }
            if len < out.len() {
                out[len] = gap as u8;
            }
            len += 1;
            previous = sorted[i];
        }
        i += 1;
    }
    len
}

/// Hangul syllables that are Korean grammar, each a word of its own as citeproof reads
/// Korean: the particles 이 가 은 는 을 를 의 에 도 로 와 과 서 만 and the verb endings and
/// their tense letters 다 고 며 면 게 지 니 습 었 았 였 했 요. Written from Korean grammar,
/// not read off data (KorNLI's pairs had been read before: docs/support.md, "Korean"). A
/// syllable of them inside a content word (이 of 이름 "name") weighs less too: a letter
/// is a word here.
const KOREAN_GRAMMAR_LETTERS: &str = "이가은는을를의에도로와과서만다고며면게지니습었았였했요";

/// True when `word` is one letter, one of the 100 commonest Chinese characters
/// ([`COMMON_LETTERS`]) or of the Hangul syllables of Korean grammar
/// ([`KOREAN_GRAMMAR_LETTERS`]). Only a claim's terms are asked (a word of three bytes is
/// decoded and its code point searched for in [`COMMON_LETTER_CODES`]); a source's never
/// are.
pub(super) fn is_common_letter(word: &str) -> bool {
    // Every letter of the lists is three bytes in UTF-8 (a compile-time check below).
    if word.len() != 3 {
        return false;
    }
    let mut letters = word.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => u16::try_from(u32::from(letter))
            .is_ok_and(|code| COMMON_LETTER_CODES.binary_search(&code).is_ok()),
        _ => false,
    }
}

/// How many letters [`COMMON_LETTERS`] and [`KOREAN_GRAMMAR_LETTERS`] hold (each is three
/// bytes).
const COMMON_LETTER_COUNT: usize = {
    let (mut bytes, mut row) = (KOREAN_GRAMMAR_LETTERS.len(), 0);
    while row < COMMON_LETTERS.len() {
        bytes += COMMON_LETTERS[row].len();
        row += 1;
    }
    bytes / 3
};

/// The code points of [`COMMON_LETTERS`] and [`KOREAN_GRAMMAR_LETTERS`], sorted (decoded
/// and insertion-sorted by the compiler, which checks each letter is three bytes of UTF-8:
/// 254 bytes in the module).
static COMMON_LETTER_CODES: [u16; COMMON_LETTER_COUNT] = {
    let mut codes = [0u16; COMMON_LETTER_COUNT];
    let (mut n, mut row) = (0, 0);
    while row < COMMON_LETTERS.len() {
        n = insert_letters(&mut codes, n, COMMON_LETTERS[row]);
        row += 1;
    }
    n = insert_letters(&mut codes, n, KOREAN_GRAMMAR_LETTERS);
    assert!(n == COMMON_LETTER_COUNT, "every letter inserted");
    codes
};

/// Inserts the code points of `letters` (each three bytes of UTF-8, or the compiler stops)
/// among the first `len` of `codes`, which are sorted; returns how many are now.
const fn insert_letters(codes: &mut [u16], mut len: usize, letters: &str) -> usize {
    let bytes = letters.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i] >> 4 == 0xE, "a letter of three bytes");
        let code = ((bytes[i] as u16 & 0x0F) << 12)
            | ((bytes[i + 1] as u16 & 0x3F) << 6)
            | (bytes[i + 2] as u16 & 0x3F);
        insert_sorted(codes, len, code);
        len += 1;
        i += 3;
    }
    len
}

/// The values [`gaps_of`] wrote, in order.
fn fingerprints_of(gaps: &[u8]) -> impl Iterator<Item = u16> + '_ {
    gaps.iter()
        .scan(0u16, |at, &gap| {
            *at += u16::from(gap);
            Some((gap != u8::MAX).then_some(*at))
        })
        .flatten()
}

/// Function words, 32 of the commonest English content words ("one", "new",
/// "people", "including", …: an isolated request's one passage gives no document
/// frequencies to weigh them down; docs/support.md), and katakana's syllable marks,
/// left out of content terms (sorted for binary search). The marks (the long-vowel mark
/// ー and the small kana ァ … ヶ, each a word of its own as every katakana letter is)
/// lengthen or change the letter before them and mean nothing alone: as terms they
/// matched any loanword (コーヒー and ボール shared ー). They stay in word pairs, which
/// carry the word (ヒー, ール). Their half-width forms (ｰ, ｧ … ｯ) and the small kana of
/// the phonetic extensions (ㇰ … ㇿ, for Ainu) are not listed: rare in text, and 26 more
/// entries would need a larger table.
pub(super) const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "based",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "different",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "even",
    "example",
    "few",
    "first",
    "for",
    "from",
    "further",
    "get",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "however",
    "i",
    "if",
    "in",
    "include",
    "including",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "known",
    "like",
    "made",
    "make",
    "many",
    "may",
    "me",
    "might",
    "more",
    "most",
    "much",
    "must",
    "my",
    "myself",
    "new",
    "no",
    "nor",
    "not",
    "now",
    "number",
    "of",
    "off",
    "often",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "part",
    "people",
    "same",
    "several",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "this",
    "those",
    "through",
    "time",
    "to",
    "too",
    "two",
    "under",
    "until",
    "up",
    "use",
    "used",
    "using",
    "various",
    "very",
    "was",
    "way",
    "we",
    "well",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "year",
    "years",
    "you",
    "your",
    "yours",
    "yourself",
    "ァ",
    "ィ",
    "ゥ",
    "ェ",
    "ォ",
    "ッ",
    "ャ",
    "ュ",
    "ョ",
    "ヮ",
    "ヵ",
    "ヶ",
    "ー",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::words::Scanner;

    /// The text of the ExpertQA pairs in the repository: real passages and claims.
    fn expertqa_pairs() -> String {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/expertqa/support-val.jsonl"
        );
        std::fs::read_to_string(path).expect("the ExpertQA pairs in the repository")
    }

    #[test]
    fn stopwords_are_listed_once_in_order() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn no_word_of_real_passages_is_taken_for_a_stopword_by_its_fingerprint() {
        let text = expertqa_pairs();
        let mut words = 0;
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            let word = word.to_lowercase();
            if !word.is_empty() && STOPWORDS.binary_search(&word.as_str()).is_err() {
                words += 1;
                assert!(!is_stopword_hash(hash(word.as_bytes())), "{word}");
            }
        }
        assert!(words > 100_000, "{words} words read");
    }

    /// The listed letters, Chinese and Korean.
    fn listed_letters() -> String {
        COMMON_LETTERS.concat() + KOREAN_GRAMMAR_LETTERS
    }

    #[test]
    fn the_common_chinese_letters_and_korean_grammar_letters_are_found_and_no_others() {
        for letter in [
            "一", "是", "的", "国", "人", "所", "이", "는", "를", "다", "었",
        ] {
            assert!(is_common_letter(letter), "{letter}");
        }
        // Rarer Han letters, kana, other Hangul, two letters, Latin words of three bytes.
        for word in [
            "釉", "钴", "鲸", "ア", "の", "한", "학", "교", "国家", "的的", "는다", "the", "é", "",
        ] {
            assert!(!is_common_letter(word), "{word}");
        }
        // Every character of three bytes: exactly the listed ones, each listed once.
        let listed = listed_letters();
        let found = ('\u{800}'..='\u{FFFF}')
            .filter(|&c| is_common_letter(c.encode_utf8(&mut [0; 4])))
            .inspect(|&c| assert!(listed.contains(c), "{c}"))
            .count();
        assert_eq!(found, listed.chars().count());
        assert_eq!(found, 100 + 27);
    }

    #[test]
    fn every_common_letter_is_a_claim_term_of_its_own() {
        // (That the table finds each, and no other, is the test above.)
        for letter in listed_letters().chars() {
            let letter = letter.to_string();
            let mut scanner = Scanner::new(&letter);
            let token = scanner.next_token().expect("a word");
            assert_eq!((token.start, token.end), (0, letter.len()), "{letter}");
            assert!(!token.is_stop(), "{letter}");
            assert!(scanner.next_token().is_none());
        }
    }

    /// Asserts that `word` is one word, its own term (stemmed no further) and no
    /// stopword; its term's hash.
    fn own_term(word: &str) -> u64 {
        let token = super::super::words::tokens(word).next().expect("a word");
        let span = (token.start, token.end);
        assert_eq!(span, (0, word.len()), "{word} is one word");
        let whole = hash(word.as_bytes());
        assert_eq!(token.hash, whole, "{word} is stemmed further");
        assert!(!token.is_stop(), "{word} is a stopword");
        token.hash
    }

    #[test]
    fn every_common_word_is_its_own_term_and_found_by_the_table() {
        let common = CommonTerms::get();
        for word in COMMON_WORDS {
            assert!(common.english(word, own_term(word)), "{word}");
        }
        // The gaps hold each word's fingerprint and no other: sorted, each once.
        let mut fingerprints: Vec<u16> = COMMON_WORDS
            .iter()
            .map(|w| common_fingerprint(hash(w.as_bytes())))
            .collect();
        fingerprints.sort_unstable();
        fingerprints.dedup();
        assert!(fingerprints_of(&COMMON_GAPS).eq(fingerprints.iter().copied()));
        assert_eq!(common.english, Fingerprints::of(fingerprints.into_iter()));
    }

    #[test]
    fn every_german_word_is_its_own_term_and_found_by_the_table() {
        let common = CommonTerms::get();
        for word in GERMAN_WORDS {
            assert!(common.german(word, own_term(word)), "{word}");
        }
        // Each once, and none an English common word already.
        let mut words = GERMAN_WORDS.to_vec();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), GERMAN_WORDS.len());
        assert!(GERMAN_WORDS.iter().all(|w| !COMMON_WORDS.contains(w)));
    }

    #[test]
    fn gaps_give_back_the_distinct_values_across_runs_of_255() {
        let sorted = [0, 0, 254, 255, 510, 511, 765, 1020, 65_535];
        let mut gaps = [0u8; 600];
        let len = gaps_of(&sorted, &mut gaps);
        assert_eq!(len, gaps_of(&sorted, &mut []), "counted as written");
        assert_eq!(&gaps[..5], &[0, 254, 1, 255, 0]);
        let mut distinct = sorted.to_vec();
        distinct.dedup();
        assert_eq!(fingerprints_of(&gaps[..len]).collect::<Vec<_>>(), distinct);
        // The bitmap of those values holds them and no other.
        let set = Fingerprints::of(distinct.iter().copied());
        for value in 0..=u16::MAX {
            let held = set.holds(u64::from(value) << 48 | 0xffff);
            assert_eq!(held, distinct.contains(&value), "{value}");
        }
    }

    #[test]
    fn few_distinct_terms_of_real_passages_are_taken_for_common_words_by_chance() {
        let text = expertqa_pairs();
        let listed: std::collections::HashSet<u64> =
            COMMON_WORDS.iter().map(|w| hash(w.as_bytes())).collect();
        let terms: std::collections::HashSet<u64> = super::super::words::tokens(&text)
            .filter(|t| !t.is_stop() && !t.number && !listed.contains(&t.hash))
            .map(|t| t.hash)
            .collect();
        let common = CommonTerms::get();
        let taken = terms.iter().filter(|&&h| common.contains(h)).count();
        // 1,000 of 65,536 fingerprints: about 1.5 % by chance.
        let share = taken as f64 / terms.len() as f64;
        assert!(
            terms.len() > 5_000 && share < 0.025,
            "{taken} of {} terms",
            terms.len()
        );
    }
}
