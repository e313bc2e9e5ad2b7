//! Claim support: how well does a cited passage back a sentence? (spec 001's semantic
//! alignment, spec 004's alignment scores.)
//!
//! No model runs here (no network, no download); the score is lexical and statistical,
//! and it is *contrastive*: a passage is judged against the other sources retrieved for
//! the same request. Two overlaps of the claim with a passage are blended — content
//! words weighted by inverse document frequency over the request's sources (lightly
//! stemmed; in scripts written without spaces, each letter is a word), and word pairs in
//! order — and the blend is set against the best blend any retrieved source reaches, so
//! an on-topic passage that says something else scores low. A number or a name in the
//! claim that the passage lacks costs, and so does a negation ("not", 不, ない, 않, …)
//! where no word of the passage negates. The constants were chosen over ExpertQA and
//! AttributionBench's datasets, each held out in turn (`cargo run --release --example
//! support_eval`, docs/support.md).
//!
//! ```
//! use citeproof::support::SupportScorer;
//! let sources = [
//!     "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.",
//!     "Berlin is the capital of Germany and its largest city.",
//! ];
//! let scorer = SupportScorer::new(&sources);
//! let claim = "The Eiffel Tower was completed in 1889.";
//! let right = scorer.support(claim, 0);
//! let wrong = scorer.support(claim, 1);
//! assert!(right.score > 0.6 && wrong.score < 0.3, "{right:?} {wrong:?}");
//! assert_eq!(scorer.best_source(claim), Some(0));
//! ```

mod common_letters;
mod common_words;
mod german_words;
mod negation;
mod sets;
mod stopwords;
mod words;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::casefold::fold_case;
use crate::error::{Error, ErrorCode};
use crate::model::Span;
use crate::substr::Substr;
use sets::{Collector, HashList, LeadKey, Members, Postings, Vocabulary};
use stopwords::{CommonTerms, is_common_letter};
use words::{Scanner, pair_hash};

/// The constants of the support score. [`SupportParams::default`] is what citeproof
/// ships: the grid's best over ExpertQA, HAGRID, AttrScore-GenSearch and BEGIN, which
/// one of the eight leave-one-out folds also chose (three before the short function
/// words of passages sharing nothing else: docs/support.md), with
/// `common_letter` and `unmatched_negation` chosen on OCNLI's training pairs; a caller with
/// labelled pairs of their own can fit others and pass them to
/// [`SupportScorer::with_params`], which checks them ([`SupportParams::check`]). The
/// two blend weights are relative (the shipped ones sum to 1; `chargram_weight`,
/// the character 5-grams' weight, is gone since they were dropped: docs/support.md,
/// "Words in place of 5-grams").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportParams {
    /// Weight of the IDF-weighted content-word recall in the blend.
    pub idf_weight: f64,
    /// Weight of the word-pair recall in the blend.
    pub pair_weight: f64,
    /// With other sources to contrast against: the share of the absolute blend in the
    /// overlap; the rest is the blend relative to the request's best source.
    pub absolute_share: f64,
    /// Steepness of the final squash `1 − e^(−k·raw)` into 0–1.
    pub squash: f64,
    /// Factor (0 to 1) per specific term of the claim missing from the passage: a
    /// number, or a name (a word written with a capital letter, other than the claim's
    /// first word: "Paris", "WHO", "Curie").
    pub missing_specific: f64,
    /// Factor on the weight of a claim's term that is one of the 1,000 commonest English
    /// content words ("think", "game", "point", …), a German function word ("der",
    /// "und", "mit", …) or, in a claim without a stopword of at most three bytes
    /// ("the", "in", a single letter, "の"), any other word of at most three letters that
    /// is not a name, a number or a letter of a script written without spaces ("na",
    /// "kwa", "کے", "میں"): a stand-in for the document frequencies an isolated request
    /// (one passage) cannot give (docs/support.md).
    pub common_term: f64,
    /// Factor on the weight of a claim's term that is one of the 100 commonest Chinese
    /// characters ("一", "是", "人", "国", …; each letter of Han is a word) or a Hangul
    /// syllable of Korean grammar (the particles 이, 는, 를, …, the verb endings 다, 었,
    /// …; each Hangul syllable is a word), the stand-in `common_term` is for English;
    /// chosen on OCNLI's training pairs (docs/support.md), and taken for the Korean
    /// syllables as it was, not chosen again.
    pub common_letter: f64,
    /// Factor (0 to 1) when the claim negates (a word of it says "not": "never", "n't", 不, ない,
    /// 않, …) and no word of the passage does: the claim says the opposite of anything
    /// the passage could back. Read off OCNLI's training pairs, once 0.5 had cost swaps
    /// on held-out files (docs/support.md, "Negation").
    pub unmatched_negation: f64,
}

impl Default for SupportParams {
    fn default() -> SupportParams {
        SupportParams {
            idf_weight: 0.5,
            pair_weight: 0.5,
            absolute_share: 0.7,
            squash: 3.0,
            missing_specific: 0.8,
            common_term: 0.5,
            common_letter: 0.15,
            unmatched_negation: 0.7,
        }
    }
}

/// The largest value [`SupportParams::check`] accepts for a constant: far above any
/// that ranks well (the shipped ones are 3 at most), and low enough that no product of
/// them in a score overflows to infinity (and then to NaN).
pub const MAX_SUPPORT_PARAM: f64 = 1000.0;

impl SupportParams {
    /// Checks that the constants keep every score a number in 0–1: each from 0 to
    /// [`MAX_SUPPORT_PARAM`], `absolute_share`, `missing_specific` and
    /// `unmatched_negation` at most 1 (the two factors lower a score for what a passage
    /// lacks; above 1 they would raise a passage sharing nothing else with a claim above
    /// one sharing a word, [`SHARED_NOTHING`]), `squash` above 0, and the two blend
    /// weights not both 0. The `Err` (code `InvalidOption`) names the first field
    /// at fault, as `SupportParams.squash`.
    pub fn check(&self) -> Result<(), Error> {
        // (field, value, whether 0 is refused, the most it may be)
        let fields = [
            ("idf_weight", self.idf_weight, false, MAX_SUPPORT_PARAM),
            ("pair_weight", self.pair_weight, false, MAX_SUPPORT_PARAM),
            ("absolute_share", self.absolute_share, false, 1.0),
            ("squash", self.squash, true, MAX_SUPPORT_PARAM),
            ("missing_specific", self.missing_specific, false, 1.0),
            ("common_term", self.common_term, false, MAX_SUPPORT_PARAM),
            (
                "common_letter",
                self.common_letter,
                false,
                MAX_SUPPORT_PARAM,
            ),
            ("unmatched_negation", self.unmatched_negation, false, 1.0),
        ];
        let refuse = |name: &str, message: String| {
            Err(Error::new(
                ErrorCode::InvalidOption,
                format!("SupportParams.{name}"),
                message,
            ))
        };
        for (name, value, above_zero, most) in fields {
            let least_ok = if above_zero {
                value > 0.0
            } else {
                value >= 0.0
            };
            // NaN fails both comparisons.
            if !(least_ok && value <= most) {
                let least = if above_zero { "above 0" } else { "from 0" };
                return refuse(name, format!("is {value}; it must be {least} to {most}"));
            }
        }
        if self.idf_weight + self.pair_weight == 0.0 {
            return refuse(
                "pair_weight",
                "is 0 as idf_weight is; one of the blend weights must be above 0".to_string(),
            );
        }
        Ok(())
    }
}

/// Bytes of a claim that are scored: a longer claim is scored on its first 2,000 bytes
/// (cut at a character boundary). Real claims are sentences (the longest of the ExpertQA
/// pairs is 666 bytes); the cap bounds the work per claim when a "claim" is a whole page
/// or one sentence carrying thousands of markers.
pub const MAX_CLAIM_BYTES: usize = 2000;

/// Sources a claim is compared with besides the ones it cites: the 8 that share the
/// most inverse-document-frequency weight of its content terms (of those sharing at
/// least [`CANDIDATE_SHARE`] of what the best one shares). The contrast and
/// `misattributed` look at these, never at every source, so scoring a request costs
/// its claims times a constant, not claims × sources.
pub const CANDIDATES: usize = 8;

/// (term, source) postings a claim's candidate search reads at most, rarest terms first;
/// a term whose postings do not fit is skipped: a term held by hundreds of sources says
/// little about which one supports the claim.
pub const CANDIDATE_POSTINGS: usize = 256;

/// The least share of the IDF weight the best-sharing source shares that another source
/// must share to be a candidate: a source holding only a claim's common words (its year
/// of a hundred) is not the better source of a claim another source matches in its rare
/// words, and blending it costs a profile read per claim that grows with the request.
pub const CANDIDATE_SHARE: f64 = 0.5;

/// (term, sentence) postings the search for a citation's evidence sentence reads at
/// most, rarest terms first, skipping a term whose postings do not fit (a long source
/// repeating a claim's common word is not scanned sentence by sentence for every claim
/// citing it).
pub const EVIDENCE_POSTINGS: usize = 1024;

/// Missing numbers and names of a claim that lower its score, at most: two already say
/// the passage lacks what the claim states. Counting every one sank claims that list
/// many names ("the American Heart Association, the World Health Organization, …") or
/// figures far below passages of other topics (docs/support.md, "Names and numbers").
pub const MISSING_SPECIFIC_COUNTED: usize = 2;

/// What a passage that shares no content term and no word pair with a claim can score
/// at most, before the squash (0.030 after it): such passages rank among themselves by
/// the share of the claim's short function words each holds (stopwords of at most three
/// bytes: "the", "in", "how"; all of them for a claim without one), times the claim's
/// factors for missing numbers, names and negation, as BM25 ranks them by the function
/// words it weighs; every passage sharing more is raised by as much, so it ranks above
/// them all. Without it, they all tied at 0: 774 of the 830 swapped citations of XNLI's
/// English dev file, and 52 of its supported ones (docs/support.md, "Passages that share
/// nothing else"). A passage without a word scores 0.
pub const SHARED_NOTHING: f64 = 0.01;

/// The first `MAX_CLAIM_BYTES` of `claim` (all of it when shorter), cut at a character
/// boundary.
fn scored_part(claim: &str) -> &str {
    if claim.len() <= MAX_CLAIM_BYTES {
        return claim;
    }
    let mut end = MAX_CLAIM_BYTES;
    while !claim.is_char_boundary(end) {
        end -= 1;
    }
    claim.sub(..end)
}

/// The order postings are read in, rarest first: each term's band (its number of
/// holders rounded up to a power of two), so a common term is read after every rarer
/// one without a sort.
/// Terms with no postings are left out; only the bands present are walked.
fn rarest_first<'l>(lists: &'l [&[u32]]) -> impl Iterator<Item = usize> + 'l {
    let band = |list: &[u32]| usize::BITS - list.len().leading_zeros();
    // Lengths are below 2^32 (u32 items), so a band is at most 32.
    let present = lists
        .iter()
        .fold(0u64, |bands, list| bands | 1 << band(list).min(63))
        & !1;
    // Bands 1 to 63: `present` is a u64 (a 64-bit `usize::BITS` would shift it out).
    (1..u64::BITS)
        .filter(move |b| present & 1 << b != 0)
        .flat_map(move |b| (0..lists.len()).filter(move |&t| band(lists[t]) == b))
}

/// What a text offers to comparisons: its content terms and word pairs.
#[derive(Clone, Debug)]
struct Profile {
    /// Content term hash (those a claim may have) → the sentences holding it, once per
    /// occurrence: its keys are the text's content terms.
    terms: Postings,
    pairs: Members,
    /// Whether the text has a word (without one, it supports nothing).
    has_words: bool,
    /// The text's sentences, for the evidence sentence of a citation: split in the same
    /// pass over the words, for every source (cheaper than splitting a cited source again
    /// for each citation, docs/perf-log.md).
    sentences: Vec<Span>,
    /// Whether a word of the text negates ([`negation::Cues`]); `None` when not read: for
    /// a scorer none of whose known claims negates (most claims do not, and reading the
    /// sources' cues costs `validate` with claim support about 6 % more instructions).
    negates: Option<bool>,
    /// The text's words of at most three bytes, for [`SHARED_NOTHING`].
    shorts: ShortWords,
}

/// A set of words of at most three bytes ("the", "in", "how"), by their leads: an ASCII
/// word that short is its [`lead`](words), so the scan's fast path hashes no term for
/// it. Each lead is one bit of 64, chosen by a multiplicative hash; two leads may share
/// a bit, which only makes a passage look as if it held a word it lacks. Every letter
/// of a script without spaces has lead 0: all of them are one bit.
#[derive(Clone, Copy, Debug, Default)]
struct ShortWords(u64);

impl ShortWords {
    #[inline]
    fn add(&mut self, lead: u32) {
        self.0 |= 1 << (lead.wrapping_mul(0x9e37_79b1) >> 26);
    }

    /// The share of this set's bits that `other` holds too (1 for an empty set: it
    /// lacks none of them).
    fn share_in(self, other: ShortWords) -> f64 {
        match self.0.count_ones() {
            0 => 1.0,
            all => f64::from((self.0 & other.0).count_ones()) / f64::from(all),
        }
    }
}

impl Profile {
    /// The profile of `text`; with `keep`, only the hashes in it (the vocabulary of the
    /// claims a scorer will be asked about) are recorded, and its negations are read
    /// only with `negations`. `buffers` are the lists the hashes gather in, kept from
    /// source to source.
    fn new(
        text: &str,
        keep: Option<&Vocabulary>,
        negations: bool,
        buffers: &mut Buffers,
    ) -> Profile {
        let (mut terms, mut pairs) = (
            Collector::new(keep, &mut buffers.terms),
            Collector::new(keep, &mut buffers.pairs),
        );
        let mut sentences = Sentences::new(text, &mut buffers.sentence_terms, &mut buffers.spans);
        // The hash of the previous word, when it was read.
        let mut previous: Option<u64> = None;
        // The lead of the previous word (at the start, one no pair's first word has:
        // leads are below 2^26), and where it is when it was passed over.
        let (mut last_lead, mut passed_over) = (u32::MAX, None);
        let mut cues = negations.then(|| negation::Cues::new(text));
        let mut has_words = false;
        let mut shorts = ShortWords::default();
        let mut scanner = Scanner::new(text);
        loop {
            // Without a vocabulary every word is wanted; with one, a word whose lead is
            // a content term's or makes a word pair's with the word before.
            let wanted = |lead| {
                keep.is_none_or(|v: &Vocabulary| v.may_term(lead) || v.may_pair(last_lead, lead))
            };
            let Some(token) = scanner.next_token_if(wanted) else {
                break;
            };
            has_words = true;
            // Every letter of a script without spaces is one word here, of lead 0, as a
            // claim's hiragana particles are.
            if token.end - token.start <= 3 {
                shorts.add(token.lead);
            }
            sentences.word(token.start, token.end, token.gap_may_end);
            if let Some(cues) = &mut cues {
                cues.word(token.start, token.end);
            }
            let lead_before = std::mem::replace(&mut last_lead, token.lead);
            // A word passed over has no term of the vocabulary and is in no word pair of
            // it with the word before; the word after may want it for theirs.
            if !token.read {
                previous = None;
                passed_over = Some(token.start..token.end);
                continue;
            }
            // The word before, passed over, makes a pair's leads with this one: it is
            // read now, for their pair.
            if let (Some(range), Some(v)) = (passed_over.take(), keep) {
                if v.may_pair(lead_before, token.lead) {
                    previous = Some(scanner.passed_over_hash(range));
                }
            }
            let h = token.hash;
            if terms.add_if(h, || !token.is_stop()) {
                sentences.term(h);
            }
            if let Some(p) = previous {
                pairs.add(pair_hash(p, h));
            }
            previous = Some(h);
        }
        sentences.finish();
        Profile {
            // The terms' set is the table's keys: every term recorded is a sentence's.
            terms: Postings::with_keys(terms.finish(), sentences.terms),
            pairs: pairs.finish(),
            has_words,
            // One allocation of the right size (grown from nothing, a source's list took
            // several).
            sentences: sentences.spans.to_vec(),
            negates: cues.map(|cues| cues.found()),
            shorts,
        }
    }
}

/// Whether a claim's word (`word` starts with it), after `gap` from the previous word,
/// is a name: it starts with a capital letter and no sentence ends in the gap (`.`, `!`,
/// `?`, `:`, a line break). A capital is a letter case folding changes: through the
/// folding table the scorer already has, not `char::is_uppercase` (its Unicode table
/// cost the browser core 577 B gzip).
fn is_name(gap: &str, word: &str) -> bool {
    !gap.bytes()
        .any(|b| matches!(b, b'.' | b'!' | b'?' | b':' | b'\n'))
        && word.chars().next().is_some_and(|c| fold_case(c) != c)
}

/// The lists a source's hashes gather in before they become its [`Profile`]'s sets: one
/// of each for a scorer, cleared for each source.
#[derive(Default)]
struct Buffers {
    terms: Vec<u64>,
    pairs: Vec<u64>,
    sentence_terms: Vec<(u64, u32)>,
    spans: Vec<Span>,
}

/// What scoring reads of a claim (its first [`MAX_CLAIM_BYTES`]), read once: its
/// distinct content words in order of first appearance and its word pairs in order. A
/// scorer built for known claims reads each when it builds its vocabulary and keeps it
/// for the claim's scores and evidence sentences, so a claim is tokenised once per
/// request, not three times.
#[derive(Clone, Debug)]
struct ClaimWords {
    /// The content terms, each once.
    terms: Vec<ClaimTerm>,
    /// The hashes of the word pairs.
    pairs: Vec<u64>,
    /// Whether a word of the claim negates ([`negation::Cues`]).
    negated: bool,
    /// The claim's stopwords of at most three bytes ("the", "in", "how"), for
    /// [`SHARED_NOTHING`]; empty, they make the claim's [`Common::Short`] words weigh as
    /// common ones.
    short_stops: ShortWords,
}

impl ClaimWords {
    /// Reads `claim`, adding its hashes to `vocabulary` and the lead keys of its content
    /// terms and word pairs to `leads`; its words gather in `buffers` first.
    fn read(
        claim: &str,
        vocabulary: &mut Vec<u64>,
        leads: &mut Vec<LeadKey>,
        buffers: &mut ClaimBuffers,
    ) -> ClaimWords {
        let claim = scored_part(claim);
        // A word is a byte or more, and but for a letter of a script written without
        // spaces (three bytes or more) a gap byte follows it: at most a word per two
        // bytes, so the lists never grow.
        let words = claim.len().div_ceil(2);
        let ClaimBuffers { seen, terms, pairs } = buffers;
        // The claim's terms seen so far.
        seen.clear_with_room(words);
        terms.clear();
        terms.reserve(words);
        pairs.clear();
        pairs.reserve(words);
        // The previous word's hash and lead, when it makes pairs.
        let mut previous: Option<(u64, u32)> = None;
        // Whether a word came before (a capital there starts no sentence).
        let mut after_first = false;
        let mut gap_start = 0;
        let common_words = CommonTerms::get();
        let mut cues = negation::Cues::new(claim);
        let mut short_stops = ShortWords::default();
        let mut scanner = Scanner::new(claim);
        while let Some(token) = scanner.next_token() {
            let h = token.hash;
            cues.word(token.start, token.end);
            if token.is_stop() {
                if token.end - token.start <= 3 {
                    short_stops.add(token.lead);
                }
            } else if seen.insert(h) {
                // A letter of a script without spaces has no lead (0): no word the
                // filter may pass over shares its term.
                if token.lead != 0 {
                    leads.push(LeadKey::term(token.lead));
                }
                let word = claim.sub(token.start..token.end);
                let specific = token.number
                    || (after_first
                        && is_name(claim.sub(gap_start..token.start), claim.sub(token.start..)));
                let letters = if specific || token.is_letter_word() {
                    4
                } else {
                    letters(word)
                };
                let common = if is_common_letter(word) {
                    Common::Letter
                } else if common_words.english(word, h)
                    // A German function word written with a capital inside the claim is
                    // a name or an acronym (MIT, ALS, ER).
                    || (!specific && common_words.german(word, h))
                {
                    Common::Word
                } else if letters < 4 {
                    Common::Short
                } else {
                    Common::No
                };
                terms.push(ClaimTerm {
                    hash: h,
                    specific,
                    common,
                });
            }
            // Only the claim's pairs leave out a function letter's: a source's pairs
            // are matched against the claims', so its others are never found.
            if let (Some((p, lead)), true) = (previous, token.paired) {
                pairs.push(pair_hash(p, h));
                // Two letters of scripts without spaces are both always read.
                if lead | token.lead != 0 {
                    leads.push(LeadKey::pair(lead, token.lead));
                }
            }
            previous = token.paired.then_some((h, token.lead));
            after_first = true;
            gap_start = token.end;
        }
        vocabulary.extend_from_slice(pairs);
        vocabulary.extend(terms.iter().map(|t| t.hash));
        // Kept for the scorer's life: no more room than the claim's words take, one
        // allocation each (gathered in lists of their own with room for every word and
        // shrunk, they took two each and the dedup table one more).
        ClaimWords {
            terms: terms.to_vec(),
            pairs: pairs.to_vec(),
            negated: cues.found(),
            short_stops,
        }
    }
}

/// How many letters a word has, counted as its bytes over its first letter's, or 4 for a
/// word that starts with a digit of any script (a number is never a [`Common::Short`]
/// word). Exact when every letter is as wide in UTF-8 as the first (ASCII, Swahili, Urdu
/// without vowel marks); otherwise near: "año" reads as four and "été" as two, and a
/// combining mark the scanner keeps in the word counts as a letter ("देश" reads as
/// three, "مِیں" as four).
fn letters(word: &str) -> usize {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) if !first.is_numeric() => word.len() / first.len_utf8(),
        _ => 4,
    }
}

/// The lists a claim's words gather in before they become its [`ClaimWords`]: one of
/// each for a scorer's claims, emptied for each claim.
#[derive(Default)]
struct ClaimBuffers {
    /// The claim's content terms seen so far.
    seen: HashList,
    terms: Vec<ClaimTerm>,
    pairs: Vec<u64>,
}

/// A claim's content term.
#[derive(Clone, Copy, Debug)]
struct ClaimTerm {
    hash: u64,
    /// A number or a name: missing from a passage, it costs `missing_specific`.
    specific: bool,
    /// Whether it is a common word or letter, whose weight is scaled down.
    common: Common,
}

/// Which list of common terms a claim's term is in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Common {
    /// One of the 1,000 commonest English words ([`CommonTerms::english`]) or a German
    /// function word not written as a name ([`CommonTerms::german`]): its weight is
    /// scaled by `common_term`.
    Word,
    /// One of the 100 commonest Chinese characters or a Hangul syllable of Korean grammar
    /// ([`is_common_letter`]): its weight is scaled by `common_letter`.
    Letter,
    /// A word of at most three letters ([`letters`]) that is none of the above, no name
    /// and no letter read as a word of its own. In a claim without a stopword of at most
    /// three bytes (its [`ShortWords`] empty; "the", "in", a single letter, "use", "の"
    /// are such stopwords), most likely written in a language without a list here, it
    /// weighs as a common word does (`common_term`); in any other claim, fully. A
    /// language's commonest words are its shortest (Swahili "na", "kwa"; Urdu "کے",
    /// "میں"). XNLI in Urdu and Swahili, docs/support.md.
    Short,
    /// None of these.
    No,
}

/// The sentences of a text, split as its words go by: in the gaps between words at `.`,
/// `!`, `?`, a line break, `。`, `！` or `？` (the marks claims end at), each ending after its
/// terminators and the closing quotes and brackets after them, with the content terms
/// given for it.
struct Sentences<'t, 'b> {
    text: &'t str,
    /// The sentences ended so far.
    spans: &'b mut Vec<Span>,
    /// (term hash, sentence) for every content term.
    terms: &'b mut Vec<(u64, u32)>,
    /// Where the current sentence starts.
    start: usize,
    /// The end of the last word.
    gap_start: usize,
}

impl<'t, 'b> Sentences<'t, 'b> {
    /// Sentences of `text`, gathered in `spans` with their terms in `terms` (both
    /// cleared first).
    fn new(
        text: &'t str,
        terms: &'b mut Vec<(u64, u32)>,
        spans: &'b mut Vec<Span>,
    ) -> Sentences<'t, 'b> {
        terms.clear();
        spans.clear();
        Sentences {
            text,
            spans,
            terms,
            start: 0,
            gap_start: 0,
        }
    }

    /// The next word, at `start..end`: a sentence ends in the gap before it when the gap
    /// holds a terminator, which it may only when `gap_may_end` (the scanner's
    /// [`words::Token::gap_may_end`], taken as it read the gap: most gaps are a space,
    /// not searched again).
    fn word(&mut self, start: usize, end: usize, gap_may_end: bool) {
        if !gap_may_end {
            self.gap_start = end;
            return;
        }
        // Bytes, not chars: a gap is a byte or two, and `。` (E3 80 82), `！` (EF BC
        // 81) and `？` (EF BC 9F) can only match where they start, UTF-8 being
        // self-synchronising.
        let gap = &self.text.as_bytes()[self.gap_start..start];
        let terminator = (0..gap.len()).find(|&at| match gap[at] {
            b'.' | b'!' | b'?' | b'\n' => true,
            0xe3 => gap[at + 1..].starts_with(&[0x80, 0x82]),
            0xef => matches!(gap[at + 1..], [0xbc, 0x81 | 0x9f, ..]),
            _ => false,
        });
        if let Some(at) = terminator {
            let gap = self.text.sub(self.gap_start..start);
            // The sentence ends after its terminators and closing quotes or brackets;
            // what else the gap holds (an emoji, a bullet) is left out.
            let closers = gap
                .sub(at..)
                .chars()
                // A `matches!`, not `"…".contains(c)`: `str::contains` of a non-ASCII
                // char searches with std's Two-Way searcher, 2.3 KB of wasm otherwise
                // unused by the browser core.
                .take_while(|c| {
                    matches!(
                        c,
                        '.' | '!'
                            | '?'
                            | '。'
                            | '！'
                            | '？'
                            | '"'
                            | '\''
                            | '”'
                            | '’'
                            | ')'
                            | ']'
                            | '」'
                            | '』'
                            | '）'
                    )
                })
                .map(char::len_utf8)
                .sum::<usize>();
            let end = self.gap_start + at + closers.max(1);
            self.spans.push(Span::new(self.start, end));
            self.start = start;
        }
        self.gap_start = end;
    }

    /// A content term of the current sentence.
    fn term(&mut self, hash: u64) {
        self.terms.push((hash, self.spans.len() as u32));
    }

    /// Ends the last sentence at the end of the text.
    fn finish(&mut self) {
        self.spans.push(Span::new(self.start, self.text.len()));
    }
}

/// The claim side of a comparison, computed once per claim.
struct ClaimProfile<'w> {
    /// Distinct content terms: hash, weight, is a number or a name.
    terms: Vec<(u64, f64, bool)>,
    total_weight: f64,
    pairs: &'w [u64],
    /// The claim's words, for its evidence sentences.
    words: &'w ClaimWords,
}

/// Support scores from outside the crate (an embedding model's cosine similarities, a
/// judge's probabilities), per claim text and source position, with the weight they
/// carry against the lexical score's 1 when blended. A claim needs scores only for the
/// sources its support reads (`Validator::support_pairs`); a source it has none for
/// counts 0.
///
/// ```
/// use citeproof::support::ExternalSupport;
/// let mut external = ExternalSupport::default();
/// external.insert("Paris is in France.", [(3, 0.12), (0, 0.91)]);
/// assert_eq!(external.get("Paris is in France.", 0), Some(0.91));
/// assert_eq!(external.get("Paris is in France.", 3), Some(0.12));
/// assert_eq!(external.get("Paris is in France.", 1), None);
/// assert_eq!(external.weight(), 1.0);
/// assert_eq!(ExternalSupport::weighted(2.0).weight(), 2.0);
/// ```
#[derive(Clone, Debug)]
pub struct ExternalSupport {
    /// Per claim text, its number: the index of its map in `at`.
    by_claim: HashMap<String, usize>,
    /// Per claim, source position → index of its score in `values`. Maps of the types the
    /// crate has already (a map of its own cost the module 1 KB, gzip); a source beyond
    /// `u32::MAX` has no score.
    at: Vec<HashMap<u32, usize>>,
    values: Vec<f64>,
    weight: f64,
}

impl Default for ExternalSupport {
    fn default() -> ExternalSupport {
        ExternalSupport::weighted(1.0)
    }
}

impl ExternalSupport {
    /// An empty table whose scores weigh `weight` against the lexical score's 1.
    pub fn weighted(weight: f64) -> ExternalSupport {
        ExternalSupport {
            by_claim: HashMap::new(),
            at: Vec::new(),
            values: Vec::new(),
            weight,
        }
    }

    /// How much these scores weigh against the lexical score's 1.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// Records scores of `claim` as (source position, score), with any recorded for it
    /// before (a claim the answer repeats, with other sources); of two scores for one
    /// source, the later counts.
    pub fn insert(&mut self, claim: &str, scores: impl IntoIterator<Item = (usize, f64)>) {
        let k = match self.by_claim.get(claim) {
            Some(&k) => k,
            None => {
                self.by_claim.insert(claim.to_string(), self.at.len());
                self.at.push(HashMap::with_capacity(0));
                self.at.len() - 1
            }
        };
        for (source, score) in scores {
            let Ok(source) = u32::try_from(source) else {
                continue;
            };
            let next = self.values.len();
            let i = *self.at[k].entry(source).or_insert(next);
            if i == next {
                self.values.push(score);
            } else {
                self.values[i] = score;
            }
        }
    }

    /// The number of `claim`'s scores, if it has any: looked up once for all its sources.
    pub(crate) fn claim(&self, claim: &str) -> Option<usize> {
        self.by_claim.get(claim).copied()
    }

    /// The score recorded for the claim numbered `claim` ([`ExternalSupport::claim`])
    /// against source `source`.
    pub(crate) fn score(&self, claim: usize, source: usize) -> Option<f64> {
        let &i = self.at.get(claim)?.get(&u32::try_from(source).ok()?)?;
        Some(self.values[i])
    }

    /// The score recorded for `claim` against source `source`.
    pub fn get(&self, claim: &str, source: usize) -> Option<f64> {
        self.score(self.claim(claim)?, source)
    }
}

/// A support score in 0–1 and the passage stretch it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Support {
    /// 0 (a passage without a word, or sharing nothing with the claim, not even a short
    /// function word) to 1; a passage sharing no content word or word pair scores at
    /// most 0.030 ([`SHARED_NOTHING`]).
    pub score: f64,
    /// The passage sentence sharing most content words with the claim (bytes of the
    /// passage); `None` when no sentence shares one.
    pub span: Option<Span>,
}

/// Scores claims against the sources of one request; build once per request.
///
/// Building costs the sources' text (each is read once). Scoring a claim with
/// [`SupportScorer::score_cited`] costs at most [`MAX_CLAIM_BYTES`] of it against the
/// sources it cites and [`CANDIDATES`] others, found through an index of the sources'
/// terms; [`SupportScorer::scores`] and the calls built on it score every source.
#[derive(Clone, Debug)]
pub struct SupportScorer<'a> {
    sources: Vec<&'a str>,
    profiles: Vec<Profile>,
    /// The known claims, each with its words as read for the vocabulary, in the order
    /// given; `cursor` is the one asked about last (claims are asked about in order).
    claims: Vec<(&'a str, ClaimWords)>,
    cursor: Cell<usize>,
    /// Content term hash → the sources holding it (its document frequency is their count).
    holders: Postings,
    /// At least two sources have text: a claim's blend is set against the best one.
    contrasted: bool,
    /// Scores are blended with a judge's or an embedder's, which may rank best a source
    /// saying the claim in other words: the candidates are the [`CANDIDATES`] sharing
    /// most, however little (no [`CANDIDATE_SHARE`]).
    pub(crate) blended: bool,
    params: SupportParams,
    /// Per source or sentence of a source, the weight a [`SupportScorer::tally`] has
    /// summed so far (zero between tallies): one table for the scorer, so a search costs
    /// the postings it reads, not the number of sources or sentences.
    scratch: RefCell<Vec<f64>>,
    /// The items a tally has met so far, in order (empty between tallies).
    met: RefCell<Vec<u32>>,
}

impl<'a> SupportScorer<'a> {
    /// Profiles every source text (an empty text supports nothing).
    pub fn new<S: AsRef<str>>(sources: &'a [S]) -> SupportScorer<'a> {
        SupportScorer::profile(sources, None, Vec::new())
    }

    /// A scorer that will only be asked about `claims`: each source keeps only what
    /// those claims contain, which makes profiling several times cheaper, and is read for
    /// negations only when one of them negates. Scores are the same as
    /// [`SupportScorer::new`]'s for these claims (and for another claim, as far as what
    /// it adds is in no source, and it negates only if one of them does). Each claim is
    /// read once, here, and borrowed for the scorer's life: asked about in the order
    /// given, a claim costs no second reading.
    pub fn for_claims<S: AsRef<str>>(sources: &'a [S], claims: &[&'a str]) -> SupportScorer<'a> {
        // Every content term and word pair hash of the claims (stopwords are
        // never content terms, so theirs are left out).
        let (mut vocabulary, mut leads) = (Vec::new(), Vec::new());
        let mut known = Vec::with_capacity(claims.len());
        let mut buffers = ClaimBuffers::default();
        for &claim in claims {
            let words = ClaimWords::read(claim, &mut vocabulary, &mut leads, &mut buffers);
            known.push((claim, words));
        }
        let vocabulary = Vocabulary::new(vocabulary, &leads);
        SupportScorer::profile(sources, Some(vocabulary), known)
    }

    fn profile<S: AsRef<str>>(
        sources: &'a [S],
        keep: Option<Vocabulary>,
        claims: Vec<(&'a str, ClaimWords)>,
    ) -> SupportScorer<'a> {
        let sources: Vec<&str> = sources.iter().map(AsRef::as_ref).collect();
        let mut buffers = Buffers::default();
        // A source's negations matter only to a claim that negates.
        let negations = keep.is_none() || claims.iter().any(|(_, words)| words.negated);
        let profiles: Vec<Profile> = sources
            .iter()
            .map(|s| Profile::new(s, keep.as_ref(), negations, &mut buffers))
            .collect();
        let mut held = Vec::new();
        for (i, p) in profiles.iter().enumerate() {
            held.extend(p.terms.keys().map(|h| (h, i as u32)));
        }
        let contrasted = profiles.iter().filter(|p| p.has_words).count() > 1;
        let items = (profiles.iter().map(|p| p.sentences.len())).fold(profiles.len(), usize::max);
        SupportScorer {
            sources,
            profiles,
            claims,
            cursor: Cell::new(0),
            holders: Postings::new(&held),
            contrasted,
            blended: false,
            params: SupportParams::default(),
            scratch: RefCell::new(vec![0.0; items]),
            met: RefCell::new(Vec::new()),
        }
    }

    /// The same scorer with other constants, once [`SupportParams::check`] accepts them
    /// (its `Err` otherwise: constants that would make scores outside 0–1 or NaN).
    pub fn with_params(self, params: SupportParams) -> Result<SupportScorer<'a>, Error> {
        params.check()?;
        Ok(SupportScorer { params, ..self })
    }

    /// The words of `claim`: those read when the scorer was built when it is the known
    /// claim asked about last or the next one, else read now (into `fresh`). Known means
    /// the same `&str` (address and length): comparing texts would cost a whole claim per
    /// call, and a sentence citing 4,000 sources is asked about 4,000 times.
    fn words<'s>(&'s self, claim: &str, fresh: &'s mut Option<ClaimWords>) -> &'s ClaimWords {
        let at = self.cursor.get();
        match (at..self.claims.len().min(at + 2)).find(|&k| std::ptr::eq(self.claims[k].0, claim)) {
            Some(k) => {
                self.cursor.set(k);
                &self.claims[k].1
            }
            None => fresh.insert(ClaimWords::read(
                claim,
                &mut Vec::new(),
                &mut Vec::new(),
                &mut ClaimBuffers::default(),
            )),
        }
    }

    /// The claim side of `claim`'s comparisons (its words read into `fresh` unless the
    /// scorer knows them).
    fn claim_profile<'s>(
        &'s self,
        claim: &str,
        fresh: &'s mut Option<ClaimWords>,
    ) -> ClaimProfile<'s> {
        let words = self.words(claim, fresh);
        let docs = self.profiles.len() as f64;
        let terms: Vec<(u64, f64, bool)> = (words.terms.iter())
            .map(|term| {
                // Document frequency: how many sources hold the term.
                let df = self.holders.get(term.hash).len() as f64;
                let common = match term.common {
                    Common::Word => self.params.common_term,
                    Common::Letter => self.params.common_letter,
                    Common::No => 1.0,
                    Common::Short if words.short_stops.0 != 0 => 1.0,
                    Common::Short => self.params.common_term,
                };
                let weight = (1.0 + (docs + 1.0) / (df + 0.5)).ln() * common;
                (term.hash, weight, term.specific)
            })
            .collect();
        let total_weight = terms.iter().map(|(_, w, _)| w).sum();
        ClaimProfile {
            terms,
            total_weight,
            pairs: &words.pairs,
            words,
        }
    }

    /// The [`CANDIDATES`] sources sharing the most IDF weight of the claim's content
    /// terms (ties: the earlier source), each at least [`CANDIDATE_SHARE`] of what the
    /// first shares unless the scores are `blended`, read from at most
    /// [`CANDIDATE_POSTINGS`] postings, rarest terms first: given to `take`, the most
    /// weight first.
    fn candidates(&self, claim: &ClaimProfile, mut take: impl FnMut(usize)) {
        let lists: Vec<&[u32]> = claim
            .terms
            .iter()
            .map(|&(h, _, _)| self.holders.get(h))
            .collect();
        // The best few in one pass over the sources met (at most 256), kept in order in
        // a list of at most 8 (no sort): the most weight first, ties to the earlier
        // source. Each source met costs one comparison with the last kept unless it
        // enters the list.
        let ahead = |a: (u32, f64), b: (u32, f64)| a.1 > b.1 || (a.1 == b.1 && a.0 < b.0);
        let mut top = [(0u32, 0.0f64); CANDIDATES];
        let mut kept = 0;
        let weight = |t: usize| claim.terms[t].1;
        self.tally(
            &lists,
            &weight,
            CANDIDATE_POSTINGS,
            &mut |source, shared| {
                let item = (source, shared);
                if kept == CANDIDATES && !ahead(item, top[kept - 1]) {
                    return;
                }
                let at = (top[..kept].iter())
                    .position(|&other| ahead(item, other))
                    .unwrap_or(kept);
                // Those behind move back a place; a full list drops its last.
                top.copy_within(at..kept.min(CANDIDATES - 1), at + 1);
                top[at] = item;
                kept = (kept + 1).min(CANDIDATES);
            },
        );
        // The first kept shares the most: the others need their share of it.
        let share = if self.blended { 0.0 } else { CANDIDATE_SHARE };
        let enough = share * top[0].1;
        for &(source, _) in top[..kept]
            .iter()
            .take_while(|&&(_, shared)| shared >= enough)
        {
            take(source as usize);
        }
    }

    /// Sums, per item (a source or a sentence), the weight of each of `lists` holding
    /// it, reading the lists rarest first for at most `budget` postings; a list that
    /// does not fit what is left is skipped whole (reading part of it would favour the
    /// earlier items), and a list of weight 0 is not read. Each item met is given to
    /// `visit` with its sum, in the order met; the scratch tables are left at zero and
    /// empty, so a tally costs the postings it reads and allocates nothing once the
    /// scorer's list of items met has grown to its longest.
    fn tally(
        &self,
        lists: &[&[u32]],
        weight: &dyn Fn(usize) -> f64,
        mut budget: usize,
        visit: &mut dyn FnMut(u32, f64),
    ) {
        let mut sums = self.scratch.borrow_mut();
        let mut met = self.met.borrow_mut();
        for t in rarest_first(lists) {
            let w = weight(t);
            // A list of weight 0 adds nothing, and its items would be met again (their
            // sum still 0) and listed twice: it is not read.
            if w <= 0.0 {
                continue;
            }
            let Some(left) = budget.checked_sub(lists[t].len()) else {
                continue;
            };
            budget = left;
            for &item in lists[t] {
                let sum = &mut sums[item as usize];
                if *sum == 0.0 {
                    met.push(item);
                }
                *sum += w;
            }
        }
        for item in met.drain(..) {
            visit(item, std::mem::take(&mut sums[item as usize]));
        }
    }

    /// The blend of the two overlaps of `claim` with source `i`, before contrast.
    fn blend(&self, claim: &ClaimProfile, i: usize) -> f64 {
        // A text without words has no term and no pair: its blend is 0.
        let p = &self.profiles[i];
        let pair_share = if claim.pairs.is_empty() {
            0.0
        } else {
            let found = claim.pairs.iter().filter(|x| p.pairs.contains(x)).count();
            found as f64 / claim.pairs.len() as f64
        };
        // A claim of function words alone ("How can it be.") says what its word pairs
        // say: they stand for its terms too, so it is judged by them alone, on the
        // scale of every blend, not scored 0 against every passage.
        if claim.terms.is_empty() {
            return (self.params.idf_weight + self.params.pair_weight) * pair_share;
        }
        let found: f64 = claim
            .terms
            .iter()
            .filter(|(h, _, _)| p.terms.contains(h))
            .map(|(_, w, _)| w)
            .sum();
        // A claim whose terms all weigh 0 (factors set to 0) shares none of its weight.
        let idf_share = if claim.total_weight > 0.0 {
            found / claim.total_weight
        } else {
            0.0
        };
        self.params.idf_weight * idf_share + self.params.pair_weight * pair_share
    }

    /// How well source `i` supports `claim`, judged against all sources of the request.
    pub fn support(&self, claim: &str, i: usize) -> Support {
        let mut fresh = None;
        let profile = self.claim_profile(claim, &mut fresh);
        let best = (0..self.profiles.len())
            .map(|j| self.blend(&profile, j))
            .fold(0.0, f64::max);
        Support {
            score: self.score(&profile, i, self.blend(&profile, i), best),
            span: self.best_sentence(&profile, i),
        }
    }

    /// Scores `claim` against the sources it cites (`cited`: positions, each once) and
    /// its [`CANDIDATES`] best other sources, in bounded work: `(position, score)`, the
    /// cited ones first in their order. The contrast is set against the best of these
    /// (the source a full scan would find best is among the candidates unless it shares
    /// little of the claim's rarer words). What `validate` uses.
    ///
    /// ```
    /// use citeproof::support::SupportScorer;
    /// let sources = ["Berlin is in Germany.", "The Eiffel Tower was completed in 1889."];
    /// let scorer = SupportScorer::new(&sources);
    /// let scored = scorer.score_cited("The Eiffel Tower was completed in 1889.", &[0]);
    /// assert_eq!(scored[0].0, 0);
    /// assert!(scored.iter().any(|&(i, s)| i == 1 && s > scored[0].1));
    /// ```
    pub fn score_cited(&self, claim: &str, cited: &[usize]) -> Vec<(usize, f64)> {
        let mut fresh = None;
        let profile = self.claim_profile(claim, &mut fresh);
        // Each source with its blend, then its score: one list, the call's answer.
        let mut scored: Vec<(usize, f64)> = Vec::with_capacity(cited.len() + CANDIDATES);
        scored.extend(
            (cited.iter().copied())
                .filter(|&i| i < self.profiles.len())
                .map(|i| (i, 0.0)),
        );
        self.candidates(&profile, |candidate| {
            if !cited.contains(&candidate) {
                scored.push((candidate, 0.0));
            }
        });
        for (i, blend) in &mut scored {
            *blend = self.blend(&profile, *i);
        }
        let best = scored.iter().map(|&(_, blend)| blend).fold(0.0, f64::max);
        for (i, score) in &mut scored {
            *score = self.score(&profile, *i, *score, best);
        }
        scored
    }

    /// The score of source `i` from its blend (`absolute`) and the best blend of the
    /// sources weighed with it (`best`, at least `absolute`): contrast, missing numbers
    /// and names, negation, and for a blend of 0 the claim's short function words
    /// ([`SHARED_NOTHING`]), squashed into 0–1.
    fn score(&self, profile: &ClaimProfile, i: usize, absolute: f64, best: f64) -> f64 {
        let params = &self.params;
        let p = &self.profiles[i];
        // Each number or name of the claim the passage lacks multiplies by the factor, up
        // to the first [`MISSING_SPECIFIC_COUNTED`].
        let missing = profile
            .terms
            .iter()
            .filter(|&&(h, _, specific)| specific && !p.terms.contains(&h))
            .take(MISSING_SPECIFIC_COUNTED)
            .count();
        // A claim that negates, against a passage where nothing does.
        let negation = if profile.words.negated && p.negates == Some(false) {
            params.unmatched_negation
        } else {
            1.0
        };
        // The overlap, and what lifts it above every passage sharing nothing else.
        let (overlap, lift) = if absolute > 0.0 {
            // Contrast needs something to contrast against: with one source, the overlap
            // is the absolute blend alone. (`best` is the best of blends that include
            // this one, so it is above 0 too.)
            let overlap = if self.contrasted {
                let relative = absolute / best;
                params.absolute_share * absolute + (1.0 - params.absolute_share) * relative
            } else {
                absolute
            };
            (overlap, SHARED_NOTHING)
        } else if p.has_words {
            // The share of the claim's short function words the passage holds.
            (
                SHARED_NOTHING * profile.words.short_stops.share_in(p.shorts),
                0.0,
            )
        } else {
            (0.0, 0.0)
        };
        let raw = overlap * params.missing_specific.powi(missing as i32) * negation + lift;
        // A monotone squash into 0–1 (ranking unchanged).
        let score = 1.0 - (-params.squash * raw).exp();
        (score.clamp(0.0, 1.0) * 1000.0).round() / 1000.0
    }

    /// Scores `claim` against every source: `scores[i]` for source `i`, with the passage
    /// sentence each rests on. Work grows with the number of sources.
    pub fn support_all(&self, claim: &str) -> Vec<Support> {
        let mut fresh = None;
        let profile = self.claim_profile(claim, &mut fresh);
        self.scores_of(&profile)
            .into_iter()
            .enumerate()
            .map(|(i, score)| Support {
                score,
                span: self.best_sentence(&profile, i),
            })
            .collect()
    }

    /// The scores of `claim` against every source (what [`SupportScorer::support_all`]
    /// gives without looking for the supporting sentences). Work grows with the number
    /// of sources; [`SupportScorer::score_cited`] is bounded.
    pub fn scores(&self, claim: &str) -> Vec<f64> {
        let mut fresh = None;
        self.scores_of(&self.claim_profile(claim, &mut fresh))
    }

    /// Every source's score for `profile`, by position.
    fn scores_of(&self, profile: &ClaimProfile) -> Vec<f64> {
        self.scores_from(profile, &self.blends_of(profile))
    }

    /// The blend of `profile` with every source, by position.
    fn blends_of(&self, profile: &ClaimProfile) -> Vec<f64> {
        (0..self.profiles.len())
            .map(|j| self.blend(profile, j))
            .collect()
    }

    /// Every source's score from its blend in `blends` ([`Self::blends_of`]).
    fn scores_from(&self, profile: &ClaimProfile, blends: &[f64]) -> Vec<f64> {
        let best = blends.iter().copied().fold(0.0, f64::max);
        blends
            .iter()
            .enumerate()
            .map(|(i, &absolute)| self.score(profile, i, absolute, best))
            .collect()
    }

    /// The source that supports `claim` best, if any supports it at all: of the sources
    /// sharing a content term or a word pair with it (one sharing only short function
    /// words supports nothing, whatever its [`SHARED_NOTHING`] rank).
    pub fn best_source(&self, claim: &str) -> Option<usize> {
        let mut fresh = None;
        let profile = self.claim_profile(claim, &mut fresh);
        let blends = self.blends_of(&profile);
        let scores = self.scores_from(&profile, &blends);
        (0..scores.len())
            .filter(|&i| blends[i] > 0.0)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
    }

    /// The sentence of source `i` sharing most content words with `claim` (the first
    /// of equals; bytes of the source), or `None` when none shares one: the evidence a
    /// citation card shows. Reads at most [`EVIDENCE_POSTINGS`] term occurrences of the
    /// source, rarest terms first.
    ///
    /// ```
    /// use citeproof::support::SupportScorer;
    /// let sources = ["Paris is large. The tower opened in 1889. It is iron."];
    /// let scorer = SupportScorer::new(&sources);
    /// let span = scorer.supporting_sentence("The tower opened in 1889.", 0).unwrap();
    /// assert_eq!(&sources[0][span.range()], "The tower opened in 1889.");
    /// assert_eq!(scorer.supporting_sentence("Cats purr.", 0), None);
    /// ```
    pub fn supporting_sentence(&self, claim: &str, i: usize) -> Option<Span> {
        let mut fresh = None;
        self.sentence_of(self.words(claim, &mut fresh), i)
    }

    fn best_sentence(&self, claim: &ClaimProfile, i: usize) -> Option<Span> {
        self.sentence_of(claim.words, i)
    }

    /// The sentence of source `i` holding most occurrences of the claim's distinct
    /// content terms.
    fn sentence_of(&self, claim: &ClaimWords, i: usize) -> Option<Span> {
        let text = self.sources[i];
        let profile = &self.profiles[i];
        let lists: Vec<&[u32]> = (claim.terms.iter())
            .map(|t| profile.terms.get(t.hash))
            .collect();
        let (mut most, mut best) = (0.0, u32::MAX);
        self.tally(&lists, &|_| 1.0, EVIDENCE_POSTINGS, &mut |sentence, n| {
            if n > most || (n == most && sentence < best) {
                (most, best) = (n, sentence);
            }
        });
        let best = *profile.sentences.get(best as usize)?;
        let sentence = text.sub(best.range());
        let lead = sentence.len() - sentence.trim_start().len();
        Some(Span::new(
            best.start + lead,
            best.start + sentence.trim_end().len(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_number_lowers_support() {
        let sources = ["The reactor reached criticality in December 1942 in Chicago."];
        let scorer = SupportScorer::new(&sources);
        let right = scorer.support("The reactor reached criticality in 1942.", 0);
        let wrong = scorer.support("The reactor reached criticality in 1952.", 0);
        assert!(right.score > wrong.score, "{right:?} {wrong:?}");
    }

    /// A scorer of `sources` that ignores missing numbers and names (factor 1).
    fn without_specifics<'a>(sources: &'a [&'a str]) -> SupportScorer<'a> {
        SupportScorer::new(sources)
            .with_params(SupportParams {
                missing_specific: 1.0,
                ..SupportParams::default()
            })
            .expect("valid constants")
    }

    /// The score of `claim` against `passage` alone (an isolated request, where document
    /// frequencies weigh every word alike), with the factor `set` writes at `value`.
    fn alone(claim: &str, passage: &str, set: fn(&mut SupportParams, f64), value: f64) -> f64 {
        let mut params = SupportParams::default();
        set(&mut params, value);
        let sources = [passage];
        let scorer = SupportScorer::new(&sources).with_params(params);
        scorer.expect("valid constants").support(claim, 0).score
    }

    /// Scores `claim` against `common` and against `rare`, each alone, with the factor
    /// `set` writes at 1 and at `factor`. Each passage holds half of the claim's content
    /// terms, out of order (none of its word pairs): alike at 1, the passage of common
    /// terms lower at `factor`, by more than `apart`.
    fn common_terms_weigh_less(
        claim: &str,
        (common, rare): (&str, &str),
        set: fn(&mut SupportParams, f64),
        factor: f64,
        apart: f64,
    ) {
        let support = |passage, value| alone(claim, passage, set, value);
        assert!(support(common, factor) < support(common, 1.0));
        assert!(support(rare, factor) > support(rare, 1.0));
        assert!((support(rare, 1.0) - support(common, 1.0)).abs() < 0.05);
        assert!(support(rare, factor) - support(common, factor) > apart);
    }

    #[test]
    fn a_passage_holding_only_a_claims_common_words_supports_it_less() {
        // "think", "game", "point" and "work" are among the 1,000 common words,
        // "glaze", "kiln", "porcelain" and "cobalt" are not.
        common_terms_weigh_less(
            "Potters think the game point of cobalt porcelain glaze work is the kiln.",
            (
                "Point, work, game: what we think.",
                "Kiln, glaze, porcelain, cobalt.",
            ),
            |p, factor| p.common_term = factor,
            0.5,
            0.1,
        );
    }

    #[test]
    fn a_passage_holding_only_a_claims_german_function_words_supports_it_less() {
        // "und", "mit", "dass", "oder" (ASCII) and "für", "über", "während", "können"
        // (not, looked up whole) are German function words; "Töpfer", "Glasur",
        // "Brennofen" and "Kobalt" are not (lower-cased here: a missing name would cost
        // the same in both passages).
        for (claim, common) in [
            (
                "töpfer und glasur mit brennofen dass kobalt oder",
                "oder, dass, mit, und",
            ),
            (
                "töpfer für glasur über brennofen während kobalt können",
                "können, während, über, für",
            ),
        ] {
            common_terms_weigh_less(
                claim,
                (common, "kobalt, brennofen, glasur, töpfer"),
                |p, factor| p.common_term = factor,
                0.5,
                0.1,
            );
        }
    }

    #[test]
    fn a_passage_holding_only_the_short_words_of_a_claim_without_a_short_function_word_supports_it_less()
     {
        // Swahili and Urdu have no list here: in a claim of theirs, which holds no short
        // function word of a language that has one, words of one to three letters
        // ("na", "kwa", "ya", "hii"; "کے", "میں", "سے", "اور") weigh as common words,
        // longer ones ("mtoto", "kijiji", "mwalimu", "shule"; "بچے" has three letters
        // too, so "گاؤں", "استاد", "اسکول", "کتابیں") do not.
        for (claim, short, long) in [
            (
                "mtoto na kijiji kwa mwalimu ya shule hii",
                "hii, ya, kwa, na",
                "shule, mwalimu, kijiji, mtoto",
            ),
            (
                "کتابیں کے گاؤں میں استاد سے اسکول اور",
                "اور، سے، میں، کے",
                "اسکول، استاد، گاؤں، کتابیں",
            ),
        ] {
            common_terms_weigh_less(
                claim,
                (short, long),
                |p, factor| p.common_term = factor,
                0.5,
                0.1,
            );
        }
    }

    #[test]
    fn a_short_word_weighs_fully_in_a_claim_with_a_short_function_word() {
        // "tea" and "qi" weigh half in a claim without a short function word, fully in
        // one with "the" or "in" (English, which has its list: a short word not on it is
        // a content word).
        for (without, with, word) in [
            (
                "Potters fired tea bowls.",
                "Potters fired the tea bowls.",
                "tea",
            ),
            ("Potters qi glaze.", "Potters in qi glaze.", "qi"),
        ] {
            let (half, whole) = weighed(without, word);
            assert!(half < whole, "{without}: {half} {whole}");
            let (half, whole) = weighed(with, word);
            assert_eq!(half, whole, "{with}");
        }
        // A word of four letters weighs fully in either claim.
        let (half, whole) = weighed("Potters fired kiln bowls.", "kiln");
        assert_eq!(half, whole);
    }

    /// The score of `claim` against `passage` alone with `common_term` at 0.5 and at 1.
    fn weighed(claim: &str, passage: &str) -> (f64, f64) {
        let common_term: fn(&mut SupportParams, f64) = |p, factor| p.common_term = factor;
        (
            alone(claim, passage, common_term, 0.5),
            alone(claim, passage, common_term, 1.0),
        )
    }

    #[test]
    fn a_short_word_that_is_a_name_a_number_or_a_letter_of_a_script_without_spaces_keeps_its_weight()
     {
        // In claims without a short function word, where a word of at most three letters
        // weighs half ("Eu" opening a claim is no name), a name ("EU" inside the claim),
        // a number in ASCII or in Urdu's digits ("42", "۴۲") and a Chinese letter (a word
        // of one letter, read as all of its script's letters are) keep their weight.
        let (half, whole) = weighed("Eu potters glaze bowls.", "Eu");
        assert!(half < whole, "{half} {whole}");
        for (claim, passage) in [
            ("Potters glaze EU bowls.", "EU"),
            ("Potters glaze 42 bowls.", "42"),
            ("استاد ۴۲ اسکول", "۴۲"),
            ("陶工釉", "釉"),
        ] {
            let words = ClaimWords::read(
                claim,
                &mut Vec::new(),
                &mut Vec::new(),
                &mut ClaimBuffers::default(),
            );
            assert_eq!(words.short_stops.0, 0, "{claim}");
            let (half, whole) = weighed(claim, passage);
            assert_eq!(half, whole, "{claim}");
        }
    }

    #[test]
    fn a_german_function_word_written_as_a_name_keeps_its_weight() {
        // "mit" is a German function word; "MIT" inside a claim is a name (the
        // institute), which the common words' factor must not touch.
        let (half, whole) = weighed("Forscher bauten mit Kobalt.", "mit");
        assert!(half < whole, "{half} {whole}");
        let (half, whole) = weighed("Forscher bauten MIT Kobalt.", "MIT");
        assert_eq!(half, whole);
    }

    #[test]
    fn a_missing_name_lowers_support_and_a_claims_first_word_is_no_name() {
        let sources = ["The reactor in Chicago reached criticality under Fermi."];
        let scorer = SupportScorer::new(&sources);
        let named = scorer.support("Fermi's reactor in Chicago reached criticality.", 0);
        let misnamed = scorer.support("Szilard's reactor in Chicago reached criticality.", 0);
        assert!(named.score > misnamed.score, "{named:?} {misnamed:?}");
        // The same words, the unknown one first (capitalised as any first word) or not
        // at all: no name is missing, so the scores are the same as lower-case ones.
        let plain = without_specifics(&sources);
        for claim in [
            "Criticality was reached in Chicago.",
            "Slowly the reactor went critical.",
        ] {
            assert_eq!(
                scorer.support(claim, 0).score,
                plain.support(claim, 0).score,
                "{claim}"
            );
        }
        // After a sentence end inside the claim a capital starts a sentence, not a name.
        let two = "The reactor went critical. Slowly it ran.";
        assert_eq!(scorer.support(two, 0).score, plain.support(two, 0).score);
    }

    #[test]
    fn missing_names_and_numbers_count_up_to_two() {
        let sources = ["Health bodies publish guidance on diets and exercise."];
        let scorer = SupportScorer::new(&sources);
        let plain = without_specifics(&sources);
        let score = |claim: &str| {
            (
                scorer.support(claim, 0).score,
                plain.support(claim, 0).score,
            )
        };
        let (two, two_plain) = score("Health bodies such as Alpha and Beta publish guidance.");
        let (four, four_plain) =
            score("Health bodies such as Alpha, Beta, Gamma and Delta publish guidance.");
        let squash = |s: f64| -(1.0 - s).ln() / SupportParams::default().squash;
        let factor = |on: f64, off: f64| squash(on) / squash(off);
        // Two missing names: the factor twice; four: still twice (rounding aside).
        assert!(
            (factor(two, two_plain) - 0.64).abs() < 0.02,
            "{two} {two_plain}"
        );
        assert!(
            (factor(four, four_plain) - 0.64).abs() < 0.02,
            "{four} {four_plain}"
        );
    }

    #[test]
    fn the_span_is_the_best_matching_sentence() {
        let sources = [
            "Filler about other things. The reactor reached criticality in 1942 in Chicago. More filler.",
        ];
        let scorer = SupportScorer::new(&sources);
        let s = scorer.support("The first reactor reached criticality in 1942.", 0);
        assert_eq!(
            &sources[0][s.span.unwrap().range()],
            "The reactor reached criticality in 1942 in Chicago."
        );
    }

    #[test]
    fn a_sentence_ends_after_its_terminator_and_closing_quote() {
        let sources = ["He said \"ice melts at 0 °C.\" 😀 • Salt lowers the freezing point."];
        let scorer = SupportScorer::new(&sources);
        let ice = scorer.supporting_sentence("Ice melts at zero.", 0).unwrap();
        assert_eq!(&sources[0][ice.range()], "He said \"ice melts at 0 °C.\"");
        let salt = scorer.supporting_sentence("Salt lowers it.", 0).unwrap();
        assert_eq!(&sources[0][salt.range()], "Salt lowers the freezing point.");
    }

    #[test]
    fn a_scorer_for_known_claims_scores_like_the_full_one() {
        let sources = [
            "The reactor reached criticality in December 1942 in Chicago under Fermi.",
            "Berlin is the capital of Germany; 3.7 million people live there.",
            "Short",
            "",
        ];
        let claims = [
            "The reactor reached criticality in 1942.",
            "Berlin has 3.7 million people.",
            "Fermi led it",
            "The reactor never reached criticality in 1942.",
        ];
        let full = SupportScorer::new(&sources);
        let known = SupportScorer::for_claims(&sources, &claims);
        // The claim that negates scores less against the passage where nothing does.
        assert!(known.scores(claims[3])[0] < known.scores(claims[0])[0]);
        for claim in claims {
            assert_eq!(full.scores(claim), known.scores(claim), "{claim}");
            // The evidence sentences too: a known scorer keeps only the claims' terms of
            // each sentence, which are all the choice counts.
            assert_eq!(full.support_all(claim), known.support_all(claim), "{claim}");
        }
        // Claims it was not built for, read when asked: what they add to the known
        // claims' words is in no source, so a source found holding a hash the vocabulary
        // lacks would be a wrong score. (A known claim negates, so the sources' negations
        // were read.)
        for claim in [
            "Berlin has 3.7 million quokkas",
            "Fermi reached zanzibar in 1942",
            "Berlin never had 3.7 million people",
        ] {
            assert_eq!(full.scores(claim), known.scores(claim), "{claim}");
            assert!(
                full.scores(claim)
                    .iter()
                    .any(|&s| s > shared_nothing_ceiling()),
                "{claim}"
            );
            assert_eq!(full.support_all(claim), known.support_all(claim), "{claim}");
        }
    }

    #[test]
    fn words_passed_over_for_their_leads_change_no_score() {
        // A known scorer reads a source's word in full only when some claim's content
        // term has its lead, or a claim's word pair the leads of the word and the word
        // before or after it. Words whose leads differ from their raw first bytes
        // ("dries" leads with "dry"), numbers with commas, full-width digits and the
        // Kelvin sign (the general path, always read), a word longer than the word
        // buffer, stopwords read only for their pairs (before a word read for its term,
        // after one, before a Chinese letter, two in a row); each claim must find them,
        // and score as a scorer reading every word does.
        let long = "LONG".to_string() + &"abcdefghij".repeat(7) + "ies";
        let sources = [
            format!(
                "Dries and dried fields. Sales of 1,200 units in ２０２０. The \u{212a}elvin scale. The {long} word."
            ),
            "Dry spells cost 1200 units in 2020.".to_string(),
            // A sentence starting with a word passed over: its span starts there.
            "Alpha. Zzz gamma delta.".to_string(),
            "Nothing here.".to_string(),
            // "the" and "in" are passed over until the word after them wants them for
            // a pair; "of the" are a pair of stopwords.
            "He swam the river, made in 中国, and most of the way.".to_string(),
        ];
        let claims = [
            "Dry fields.",
            "Sales of 1200 units in 2020.",
            "The kelvin scale.",
            &format!("The {} word.", long.to_lowercase()),
            "Gamma delta.",
            "She saw the river.",
            "Toys in 中国.",
            "Part of the way.",
        ];
        let full = SupportScorer::new(&sources);
        let known = SupportScorer::for_claims(&sources, &claims);
        for claim in claims {
            assert_eq!(full.scores(claim), known.scores(claim), "{claim}");
            assert_eq!(full.support_all(claim), known.support_all(claim), "{claim}");
        }
        // The evidence sentence holds the word passed over.
        let evidence = known.support_all(claims[4])[2].span.unwrap();
        assert_eq!(&sources[2][evidence.range()], "Zzz gamma delta.");
        for claim in &claims[1..4] {
            assert!(
                known.scores(claim)[0] > 0.8,
                "{claim}: {:?}",
                known.scores(claim)
            );
        }
        // Both of "Dry fields."'s terms are in the first source ("Dries", "fields").
        assert!(known.scores(claims[0])[0] > known.scores(claims[0])[2]);
        assert!(known.scores(claims[0])[0] > 0.5);
        // The stopwords passed over at first are read for their pairs: the last
        // source holds "the river"; "in 中" and "中国"; "of the", "the way".
        let profile = &known.profiles[4];
        for (claim, pairs) in claims[5..].iter().zip([1, 2, 2]) {
            let buffers = &mut ClaimBuffers::default();
            let words = ClaimWords::read(claim, &mut Vec::new(), &mut Vec::new(), buffers);
            let found = words.pairs.iter().filter(|h| profile.pairs.contains(h));
            assert_eq!(found.count(), pairs, "{claim}");
        }
    }

    #[test]
    fn a_passage_holding_only_a_claims_common_chinese_letters_supports_it_less() {
        // 国 家 大 学 的 人 民 用 are among the 100 common letters, 窑 炉 烧 制 钴 蓝 瓷 釉
        // are not; each passage holds its half in reverse order.
        common_terms_weigh_less(
            "国家大学的人民用窑炉烧制钴蓝瓷釉。",
            (
                "用、民、人、的、学、大、家、国。",
                "釉、瓷、蓝、钴、制、烧、炉、窑。",
            ),
            |p, factor| p.common_letter = factor,
            SupportParams::default().common_letter,
            0.3,
        );
    }

    #[test]
    fn only_ascii_words_are_taken_for_common_english_words() {
        // The common words are kept as 16 bits of their terms' hashes, which the terms of
        // España, Björk and Françoïs share with some of them: the common words' factor
        // must not move these words' scores.
        let claim = "Björk, España, Françoïs.";
        let common_term: fn(&mut SupportParams, f64) = |p, factor| p.common_term = factor;
        for passage in ["España.", "Björk.", "Françoïs and Björk."] {
            let (half, whole) = (
                alone(claim, passage, common_term, 0.5),
                alone(claim, passage, common_term, 1.0),
            );
            assert_eq!(half, whole, "{passage}");
        }
    }

    #[test]
    fn constants_that_would_make_scores_outside_0_to_1_are_refused() {
        let sources = ["Berlin is in Germany."];
        let base = SupportParams::default();
        assert!(base.check().is_ok());
        // The field named, and how the shipped constants are spoilt.
        type Spoil = fn(&mut SupportParams);
        let refused: [(&str, Spoil); 14] = [
            ("idf_weight", |p| p.idf_weight = f64::NAN),
            ("idf_weight", |p| p.idf_weight = 1e308),
            ("pair_weight", |p| p.pair_weight = -0.1),
            ("pair_weight", |p| {
                (p.idf_weight, p.pair_weight) = (0.0, 0.0)
            }),
            ("absolute_share", |p| p.absolute_share = 1.5),
            ("squash", |p| p.squash = 0.0),
            ("missing_specific", |p| p.missing_specific = f64::INFINITY),
            ("missing_specific", |p| p.missing_specific = 1e200),
            ("common_term", |p| p.common_term = -1.0),
            ("common_letter", |p| p.common_letter = f64::NAN),
            ("common_letter", |p| {
                p.common_letter = MAX_SUPPORT_PARAM + 1.0
            }),
            ("unmatched_negation", |p| p.unmatched_negation = -0.5),
            // Factors for what a passage lacks that would raise its score.
            ("missing_specific", |p| p.missing_specific = 1.25),
            ("unmatched_negation", |p| p.unmatched_negation = 2.0),
        ];
        for (field, spoil) in refused {
            let mut params = base;
            spoil(&mut params);
            let error = SupportScorer::new(&sources)
                .with_params(params)
                .unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidOption, "{field}");
            assert_eq!(error.path, format!("SupportParams.{field}"));
        }
        // Factors of 0, and weights above 1, are constants someone may fit: accepted,
        // and every score a number in 0–1, at the largest values too.
        let fitted = SupportParams {
            common_term: 0.0,
            missing_specific: 1.0,
            idf_weight: 2.0,
            ..base
        };
        let most = SupportParams {
            idf_weight: MAX_SUPPORT_PARAM,
            pair_weight: MAX_SUPPORT_PARAM,
            squash: MAX_SUPPORT_PARAM,
            missing_specific: 1.0,
            common_term: MAX_SUPPORT_PARAM,
            common_letter: MAX_SUPPORT_PARAM,
            unmatched_negation: 1.0,
            ..base
        };
        let sources = [
            "Berlin is in Germany.",
            "Paris is in France.",
            "是的，在北京。",
        ];
        for params in [fitted, most] {
            let scorer = SupportScorer::new(&sources).with_params(params).unwrap();
            for claim in [
                "Berlin is in France, said Curie and Fermi.",
                "Berlin is not in France, said Curie and Fermi.",
                "是在北京的人。",
            ] {
                for support in scorer.support_all(claim) {
                    assert!((0.0..=1.0).contains(&support.score), "{params:?} {claim}");
                }
            }
        }
    }

    #[test]
    fn a_claim_whose_terms_all_weigh_nothing_scores_a_number() {
        // With the common words' factor set to 0, this claim's content terms weigh 0 in
        // all: its share of them is 0, not 0/0.
        let params = SupportParams {
            common_term: 0.0,
            ..SupportParams::default()
        };
        let sources = [
            "Kiln and glaze.",
            "Point, work, game: what we think.",
            "Game point: think of the work.",
        ];
        let scorer = (SupportScorer::new(&sources).with_params(params)).expect("valid constants");
        let claim = "Think of the game point.";
        for i in 0..sources.len() {
            let score = scorer.support(claim, i).score;
            assert!(score.is_finite() && (0.0..=1.0).contains(&score), "{score}");
        }
        // Every source once at most, though each of the claim's terms adds 0 to its sum.
        let cited = scorer.score_cited(claim, &[0]);
        assert!(cited.iter().all(|(_, s)| s.is_finite()), "{cited:?}");
        let positions: std::collections::HashSet<usize> = cited.iter().map(|&(i, _)| i).collect();
        assert_eq!(positions.len(), cited.len(), "{cited:?}");
    }

    #[test]
    fn a_negating_claim_scores_less_against_a_passage_where_nothing_negates() {
        let negation = |p: &mut SupportParams, f| p.unmatched_negation = f;
        let shipped = SupportParams::default().unmatched_negation;
        for (claim, says, denies) in [
            (
                "The trial did not find that the drug lowers blood pressure.",
                "The trial found that the drug lowers blood pressure in adults.",
                "The trial did not find that the drug lowers blood pressure in adults.",
            ),
            (
                "The museum isn't open on Mondays.",
                "The museum is open on Mondays and Tuesdays.",
                "The museum doesn't open its doors on Mondays.",
            ),
            (
                "男性は帽子をかぶっていない。",
                "男性は帽子をかぶっている。",
                "男性は帽子をかぶっていない。",
            ),
            ("他没有去北京。", "他去了北京。", "他没有去北京。"),
            (
                "아이가 웃지 않는다.",
                "아이가 웃는다.",
                "아이가 웃지 않는다.",
            ),
            (
                "ٹرین وقت پر نہیں پہنچی۔",
                "ٹرین وقت پر پہنچی۔",
                "ٹرین وقت پر نہیں پہنچی۔",
            ),
            (
                "Hakuna treni leo.",
                "Kuna treni leo.",
                "Hapana, hakuna treni leo.",
            ),
        ] {
            // Against a passage saying the opposite: the factor, and nothing else.
            let plain = alone(claim, says, negation, 1.0);
            let negated = alone(claim, says, negation, shipped);
            assert!(
                plain > 0.3 && negated < plain,
                "{claim}: {plain} → {negated}"
            );
            // The factor scales the overlap, below the lift every passage sharing a word
            // gets ([`SHARED_NOTHING`]); the squash's steepness is 3.
            let raw = -(1.0 - plain).ln() / 3.0;
            let expected = 1.0 - (-3.0 * (shipped * (raw - SHARED_NOTHING) + SHARED_NOTHING)).exp();
            assert!(
                (negated - expected).abs() < 0.002,
                "{claim}: {negated} {expected}"
            );
            // Against a passage that negates too, the factor is not applied.
            let agreeing = alone(claim, denies, negation, 1.0);
            assert_eq!(alone(claim, denies, negation, shipped), agreeing, "{claim}");
            assert!(agreeing > negated, "{claim}");
        }
        // A claim that does not negate is not touched, whatever its passage says.
        let claim = "The museum is open on Mondays.";
        let passage = "The museum is not open on Mondays.";
        assert_eq!(
            alone(claim, passage, negation, 1.0),
            alone(claim, passage, negation, shipped)
        );
    }

    #[test]
    fn sources_are_read_for_negations_only_when_a_claim_may_negate() {
        let sources = [
            "The bridge opened in 1932.",
            "The bridge was never painted.",
        ];
        let read = |scorer: SupportScorer| -> Vec<Option<bool>> {
            scorer.profiles.iter().map(|p| p.negates).collect()
        };
        let (plain, negating) = ("The bridge opened in 1932.", "It did not open in 1932.");
        assert_eq!(
            read(SupportScorer::for_claims(&sources, &[plain])),
            [None, None]
        );
        let both = [plain, negating];
        let read_all = [Some(false), Some(true)];
        assert_eq!(read(SupportScorer::for_claims(&sources, &both)), read_all);
        assert_eq!(read(SupportScorer::new(&sources)), read_all);
        // So a claim that negates, asked of a scorer built for claims none of which does,
        // is not taken to negate (as `for_claims` says): it scores as with the factor at 1.
        let known = SupportScorer::for_claims(&sources, &[plain]);
        let unread = known.scores("The bridge never opened in 1932.");
        let without = SupportScorer::for_claims(&sources, &[plain])
            .with_params(SupportParams {
                unmatched_negation: 1.0,
                ..SupportParams::default()
            })
            .unwrap();
        assert_eq!(unread, without.scores("The bridge never opened in 1932."));
        let full = SupportScorer::new(&sources).scores("The bridge never opened in 1932.");
        assert!(full[0] < unread[0], "{full:?} {unread:?}");
    }

    #[test]
    fn japanese_endings_and_particles_do_not_make_support() {
        // The claim shares its noun (ボール) with the first caption, and only its
        // hiragana (が, を, ています) with the second, which says something else.
        let sources = ["ボールが空に飛んだ。", "犬が走っていて、猫を見ています。"];
        let scorer = SupportScorer::new(&sources);
        let claim = "男の子がボールを投げています。";
        let (noun, endings) = (scorer.support(claim, 0), scorer.support(claim, 1));
        assert!(noun.score > endings.score, "{noun:?} {endings:?}");
    }

    #[test]
    fn katakana_syllable_marks_alone_make_no_support() {
        // The claim's loanword コーヒー shares only its long-vowel mark ー with ボール,
        // and the whole word with the second caption.
        let sources = ["ボールを投げている。", "コーヒーが好きだ。"];
        let scorer = SupportScorer::new(&sources);
        let scores = scorer.scores("コーヒーを飲んでいる。");
        assert!(scores[0] <= shared_nothing_ceiling(), "{scores:?}");
        assert!(scores[1] > 0.5, "{scores:?}");
        // The marks stay in word pairs: コーヒー's pairs (コー, ーヒ, ヒー) are what rank
        // the word above its letters コ and ヒ without them.
        let scorer = SupportScorer::new(&["コーヒーが好きだ。", "コヒが好きだ。"]);
        let scores = scorer.scores("コーヒーを飲む。");
        assert!(scores[0] > scores[1], "{scores:?}");
    }

    /// The score of [`SHARED_NOTHING`] after the shipped squash, rounded as scores are.
    fn shared_nothing_ceiling() -> f64 {
        let squash = SupportParams::default().squash;
        ((1.0 - (-squash * SHARED_NOTHING).exp()) * 1000.0).round() / 1000.0
    }

    #[test]
    fn passages_sharing_nothing_rank_by_the_claims_short_function_words_below_any_sharing_more() {
        let claim = "How did I get buckled into this seat?";
        let sources = [
            // A paraphrase sharing no content word and no word pair, but the claim's
            // short function words "how", "did" and "i".
            "I did stay, fastened in, and that is how.",
            // One of them ("how").
            "Engines roar; how loud.",
            // None of them.
            "Paris hosts many museums.",
            // One content word.
            "A seat by the window.",
            // Nothing at all.
            "",
        ];
        let scorer = SupportScorer::new(&sources);
        let scores = scorer.scores(claim);
        let ceiling = shared_nothing_ceiling();
        assert!(ceiling > 0.0 && ceiling < 0.05, "{ceiling}");
        assert!(scores[0] <= ceiling && scores[0] > scores[1], "{scores:?}");
        assert!(scores[1] > scores[2], "{scores:?}");
        assert_eq!(scores[2], 0.0, "{scores:?}");
        assert!(scores[3] > ceiling, "{scores:?}");
        assert_eq!(scores[4], 0.0, "an empty passage supports nothing");
        // A claim without a short function word lacks none of them: every passage
        // sharing nothing else scores the ceiling, times the claim's missing names.
        let names = scorer.scores("Fermi Curie");
        assert!(
            names[..4].iter().all(|&s| s > 0.0 && s < ceiling),
            "{names:?}"
        );
        assert!(names[..4].windows(2).all(|w| w[0] == w[1]), "{names:?}");
        // Sharing only short function words supports nothing: the best source is one
        // sharing a content word, and a claim sharing none has no best source.
        assert_eq!(scorer.best_source(claim), Some(3));
        assert_eq!(scorer.best_source("Fermi Curie"), None);
    }

    #[test]
    fn a_claim_of_function_words_alone_is_judged_by_its_word_pairs() {
        // No content word: the passage that says it supports it; one that holds some of
        // its word pairs does less; one without them (or with its words in other
        // orders) scores only what holding its short function words gives.
        // (Before, every passage scored 0: QAGS's "How can it be.", judged supported.)
        let sources = [
            "How can it be, in this century, that such a thing happens?",
            "Can it be true? Nobody knows how.",
            "It can be seen how the river bends.",
        ];
        let scorer = SupportScorer::new(&sources);
        let scores = scorer.scores("How can it be.");
        assert!(scores[0] > scores[1], "{scores:?}");
        assert!(scores[1] > scores[2], "{scores:?}");
        assert_eq!(scores[2], shared_nothing_ceiling());
        assert!(scores[0] > 0.5, "{scores:?}");
        // Without word pairs either (a single function word), only that word is judged:
        // every passage holds "it".
        assert_eq!(scorer.scores("It."), [shared_nothing_ceiling(); 3]);
    }

    #[test]
    fn full_width_digits_are_the_numbers_ascii_digits_are() {
        // The same year in full-width digits (as Japanese and Chinese text often writes
        // it) and in ASCII ones: one number.
        let sources = ["東京タワーは1958年に完成した。"];
        let scorer = SupportScorer::new(&sources);
        let ascii = scorer.support("東京タワーは1958年に完成した。", 0).score;
        let wide = scorer
            .support("東京タワーは１９５８年に完成した。", 0)
            .score;
        assert_eq!(wide, ascii);
        // A year the passage lacks costs as much in either form: a full-width one is a
        // number too (the missing number's factor), not a word.
        let other_ascii = scorer.support("東京タワーは1968年に完成した。", 0).score;
        let other_wide = scorer
            .support("東京タワーは１９６８年に完成した。", 0)
            .score;
        assert!(other_ascii < ascii, "{other_ascii} {ascii}");
        assert_eq!(other_wide, other_ascii);
    }

    #[test]
    fn a_claim_in_a_script_without_spaces_is_read_letter_by_letter() {
        // Each Han or katakana letter is a term and each pair of such neighbours a word
        // pair (a hiragana letter is neither, `is_function_letter`): the
        // claim says what the first passage says in another order and other words.
        let sources = [
            "東京タワーは1958年に完成した。高さは333メートルです。",
            "万里の長城は中国の古代の防御施設である。",
        ];
        let scorer = SupportScorer::new(&sources);
        let claim = "1958年に東京タワーが完成した。";
        let (right, wrong) = (scorer.support(claim, 0), scorer.support(claim, 1));
        assert!(
            right.score > 0.6 && wrong.score < 0.3,
            "{right:?} {wrong:?}"
        );
        let span = right.span.expect("an evidence sentence");
        assert_eq!(&sources[0][span.range()], "東京タワーは1958年に完成した。");
        assert_eq!(scorer.best_source("万里の長城は中国にある。"), Some(1));
    }

    #[test]
    fn a_chinese_sentence_ends_at_its_full_width_marks() {
        let sources = ["北京是中国的首都吗？对啊！」故宫在北京。上海是最大的城市。"];
        let scorer = SupportScorer::new(&sources);
        let sentence = |claim: &str| {
            let span = scorer.supporting_sentence(claim, 0).expect("a sentence");
            &sources[0][span.range()]
        };
        assert_eq!(sentence("北京是首都"), "北京是中国的首都吗？");
        assert_eq!(sentence("故宫在北京"), "故宫在北京。");
        assert_eq!(
            sentence("对啊"),
            "对啊！」",
            "a closing bracket stays with its sentence"
        );
        assert_eq!(sentence("上海是城市"), "上海是最大的城市。");
    }

    #[test]
    fn a_sentence_ends_at_a_terminator_in_its_gap_not_at_a_decimal_point() {
        // The scanner reads "3.5" as one word, so its point lies in no gap: a search of
        // the gaps that started before the word would take it for the sentence's end.
        let sources = ["It is 3.5 big. Next one? Yes!\nLast line"];
        for scorer in [
            SupportScorer::new(&sources),
            SupportScorer::for_claims(&sources, &["It is big."]),
        ] {
            let sentences: Vec<&str> = (scorer.profiles[0].sentences.iter())
                .map(|span| &sources[0][span.range()])
                .collect();
            assert_eq!(
                sentences,
                ["It is 3.5 big.", "Next one?", "Yes!", "Last line"]
            );
        }
    }

    #[test]
    fn a_known_claim_scores_alike_asked_in_order_out_of_order_or_as_a_copy() {
        let sources = [
            "The reactor reached criticality in December 1942 in Chicago under Fermi.",
            "Berlin is the capital of Germany; 3.7 million people live there.",
            "Fermi moved to Chicago in 1942 and led the reactor team.",
        ];
        let claims = [
            "The reactor reached criticality in 1942.",
            "Berlin has 3.7 million people.",
            "Fermi led the team in Chicago.",
            "Fermi did not lead the team in Chicago.",
        ];
        let read = |scorer: &SupportScorer, claim: &str| {
            let scored = scorer.score_cited(claim, &[0]);
            let evidence: Vec<_> = (0..sources.len())
                .map(|i| scorer.supporting_sentence(claim, i))
                .collect();
            (scored, evidence)
        };
        let scorer = SupportScorer::for_claims(&sources, &claims);
        // In order (each claim's words as read for the vocabulary), then backwards and as
        // copies (read again, but for the last claim itself): the same scores and
        // sentences.
        let in_order: Vec<_> = claims.iter().map(|c| read(&scorer, c)).collect();
        for (k, claim) in claims.iter().enumerate().rev() {
            assert_eq!(read(&scorer, claim), in_order[k], "{claim}");
            let copy = String::from(*claim);
            assert_eq!(read(&scorer, &copy), in_order[k], "{claim}");
        }
        assert!(in_order[0].0[0].1 > 0.5 && in_order[0].1[0].is_some());
    }

    #[test]
    fn a_claim_is_scored_against_its_cited_sources_and_a_few_candidates_only() {
        let sources: Vec<String> = (0..2_000)
            .map(|i| format!("Passage {i}: the value of item{i} rose after reform {i}."))
            .collect();
        let claim = "The value of item1234 rose after the reform.";
        let scorer = SupportScorer::for_claims(&sources, &[claim]);
        let cited = [7, 8, 9];
        let scored = scorer.score_cited(claim, &cited);
        assert!(scored.len() <= cited.len() + CANDIDATES, "{}", scored.len());
        let sources_scored: Vec<usize> = scored.iter().map(|&(i, _)| i).collect();
        assert_eq!(sources_scored[..3], cited, "the cited ones first");
        let (best, _) = scored
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .copied()
            .unwrap();
        assert_eq!(
            best, 1234,
            "the source with the claim's rare term is a candidate"
        );
    }

    #[test]
    fn a_source_sharing_only_a_common_word_is_no_candidate() {
        // Each year is held by 1 in 100 sources: a source holding only the claim's year
        // shares less than half the weight its own source shares (item150 and 1950).
        let mut sources: Vec<String> = (0..300)
            .map(|i| {
                format!(
                    "Passage {i}: the value of item{i} rose in {}.",
                    1900 + i % 100
                )
            })
            .collect();
        let claim = "The value of item150 rose in 1950.";
        let scorer = SupportScorer::for_claims(&sources, &[claim]);
        let scored: Vec<usize> = scorer
            .score_cited(claim, &[150])
            .iter()
            .map(|&(i, _)| i)
            .collect();
        assert_eq!(scored, [150], "sources 50 and 250 share only 1950");
        // A source that shares the rare term too is one.
        sources[7] = "Item150 rose in 1950, the report says.".to_string();
        let scorer = SupportScorer::for_claims(&sources, &[claim]);
        let scored: Vec<usize> = scorer
            .score_cited(claim, &[150])
            .iter()
            .map(|&(i, _)| i)
            .collect();
        assert_eq!(scored, [150, 7]);
    }

    #[test]
    fn the_evidence_search_reads_rare_terms_first_in_a_long_source() {
        // Thousands of sentences share the claim's common word; the one with its rare
        // word is found although the search reads a bounded number of postings.
        let mut text = "The market grew. ".repeat(5_000);
        text.push_str("The market for zeppelins grew.");
        let sources = [text.as_str()];
        let scorer = SupportScorer::new(&sources);
        let span = scorer
            .supporting_sentence("The zeppelin market grew.", 0)
            .unwrap();
        assert_eq!(&text[span.range()], "The market for zeppelins grew.");
    }

    #[test]
    fn only_the_first_claim_bytes_are_scored() {
        let sources = ["Cats purr when they are content."];
        let scorer = SupportScorer::new(&sources);
        let short = "Cats purr when content.";
        let long = format!("{short} {}", "Dogs bark loudly. ".repeat(500));
        assert_eq!(scored_part(&long).len(), MAX_CLAIM_BYTES);
        let cut = format!("{}é", "x".repeat(MAX_CLAIM_BYTES - 1));
        assert_eq!(
            scored_part(&cut).len(),
            MAX_CLAIM_BYTES - 1,
            "at a char boundary"
        );
        assert!(scorer.support(short, 0).score > scorer.support(&long, 0).score);
    }

    #[test]
    fn an_empty_source_supports_nothing() {
        let sources = ["", "Some text about cats."];
        let scorer = SupportScorer::new(&sources);
        assert_eq!(scorer.support("Cats are text.", 0).score, 0.0);
    }
}
