//! The function words (and commonest content words) support scoring leaves out of a
//! text's content terms, looked up by the hash of the lower-cased word.

use super::words::hash;

/// True when `word_hash` is the hash of a lower-case function word. Compares hashes,
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

/// Slots for the [`STOPWORDS`]: at most about half full.
const STOPWORD_SLOTS: usize = 256;

/// [`STOPWORDS`] by [`fingerprint`], each in the first free slot from its hash's.
static STOPWORD_TABLE: [u32; STOPWORD_SLOTS] = {
    assert!(
        STOPWORDS.len() * 3 < STOPWORD_SLOTS * 2,
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

/// Function words, and 32 of the commonest English content words ("one", "new",
/// "people", "including", …: an isolated request's one passage gives no document
/// frequencies to weigh them down; docs/support.md), left out of content terms (sorted
/// for binary search).
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
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_listed_once_in_order() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn no_word_of_real_passages_is_taken_for_a_stopword_by_its_fingerprint() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/expertqa/support-val.jsonl"
        );
        let text = std::fs::read_to_string(path).expect("the ExpertQA pairs in the repository");
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
}
