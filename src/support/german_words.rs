//! German function words, whose weight in a claim is lowered as the commonest English
//! words' is (`SupportParams::common_term`): a stand-in for the document frequencies an
//! isolated request cannot give, in a language whose function words the English lists
//! do not hold. Written from German grammar (no list was read off data; German XNLI's
//! pairs had been read, docs/support.md): the articles, the
//! personal, possessive, demonstrative and interrogative pronouns, the commonest
//! prepositions and conjunctions, the forms of "sein", "haben", "werden" and the modal
//! verbs, and a few particles and adverbs ("auch", "noch", "nur", "schon", "sehr", …).
//! The negations ("nicht", "kein", …) are not here: they are cues of their own
//! (negation.rs). Each is written as the term the tokenizer makes of it ("meine" is
//! stemmed to "mein", "etwas" to "etwa"; a test checks). Left out: the words that are
//! English stopwords ("was", "in", "an", "am", "will", "so"), which are no terms; those
//! among the English common words ("die", "man", "war"), which weigh half already; and
//! "alles", "diese" and "dieses", whose terms ("all", "dies") the tokenizer reads
//! otherwise when they stand alone (a stopword; "die"), so the table cannot list them;
//! and "bin", "nun" and "seit", which are English words too or the term of another
//! German one ("Seite", page). A German function word written with a capital inside a
//! claim (MIT, ALS, ER) keeps its weight (`ClaimWords::read` in mod.rs).

/// The words, as terms (see the module comment).
#[rustfmt::skip]
pub(super) const GERMAN_WORDS: [&str; 122] = [
    "der", "das", "dem", "den", "des", "ein", "eine", "einen", "einem", "einer",
    "und", "oder", "aber", "denn", "sondern", "dass", "ob", "wenn", "weil", "als",
    "wie", "während", "ich", "du", "er", "sie", "es", "wir", "ihr", "mich", "mir",
    "dich", "dir", "sich", "uns", "euch", "ihn", "ihm", "ihnen", "mein", "meinen",
    "meinem", "meiner", "dein", "sein", "seinen", "seinem", "seiner", "ihre", "ihren",
    "ihrem", "ihrer", "unser", "dieser", "diesen", "diesem", "wer", "wo",
    "welch", "welcher", "zu", "zum", "zur", "im", "auf", "mit", "von", "vom", "für",
    "bei", "beim", "aus", "nach", "um", "über", "unter", "vor", "durch", "gegen",
    "ohne", "bis", "ist", "sind", "waren", "bist", "wird",
    "werden", "wurd", "wurden", "worden", "haben", "hat", "hatt", "hatten", "habe",
    "gewesen", "kann", "können", "konnt", "muss", "müssen", "musst", "soll", "sollt",
    "wollt", "würde", "wäre", "auch", "noch", "nur", "schon", "sehr", "dann", "da",
    "hier", "mehr", "doch", "ja", "immer", "etwa", "alle", "viel",
];
