//! The function words support scoring leaves out of a text's content terms, looked up by
//! the hash of the lower-cased word.

use super::words::hash;

/// True when `word_hash` is the hash of a lower-case function word. Compares hashes,
/// not strings (a string binary search per word was a tenth of support scoring), in an
/// open-addressing table built at compile time: a probe or two per word.
pub(super) fn is_stopword_hash(word_hash: u64) -> bool {
    let key = word_hash | 1;
    let mut at = key as usize % STOPWORD_SLOTS;
    while STOPWORD_TABLE[at] != 0 {
        if STOPWORD_TABLE[at] == key {
            return true;
        }
        at = (at + 1) % STOPWORD_SLOTS;
    }
    false
}

const STOPWORD_SLOTS: usize = 1024;

/// [`STOPWORDS`] hashed (`| 1`, so 0 marks an empty slot) into [`STOPWORD_SLOTS`] slots.
static STOPWORD_TABLE: [u64; STOPWORD_SLOTS] = {
    let mut table = [0u64; STOPWORD_SLOTS];
    let mut i = 0;
    while i < STOPWORDS.len() {
        let h = hash(STOPWORDS[i].as_bytes()) | 1;
        let mut at = h as usize % STOPWORD_SLOTS;
        while table[at] != 0 {
            at = (at + 1) % STOPWORD_SLOTS;
        }
        table[at] = h;
        i += 1;
    }
    table
};

/// Function words that carry no claim content (sorted for binary search).
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
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
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
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "may",
    "me",
    "might",
    "more",
    "most",
    "must",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
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
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
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
}
