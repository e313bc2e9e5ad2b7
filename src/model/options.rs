//! Every threshold and switch of validation, with the defaults of docs/architecture.md §5–§8.

use serde::Deserialize;

/// What to do with markers that point nowhere (docs/architecture.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Report only; the answer is returned untouched.
    Flag,
    /// Remove markers that point nowhere (and the one space before each).
    #[default]
    Clean,
    /// Like `clean`; a `fail` makes the rejection response the thing to send.
    Strict,
}

/// Validation options. Every field has a default; the JS API and the CLI's options file
/// take the same fields in camelCase (an unknown name is an `invalid_option` error).
///
/// ```
/// use citeproof::model::{Options, Policy};
/// let options = Options { policy: Policy::Flag, ..Options::default() };
/// assert_eq!(options.max_invalid_ratio, 0.3);
/// ```
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Options {
    /// Cleaning policy.
    pub policy: Policy,
    /// Relabel sources 1..n in order of first use and rewrite markers to match.
    pub renumber: bool,
    /// Fail an answer with no citations at all (spec 004 P0).
    pub require_citations: bool,
    /// Fail above this share of invalid citations (spec 004: 30%).
    pub max_invalid_ratio: f64,
    /// A citation's `alignmentScore` below this is `low_alignment` (spec 004: 0.3).
    pub low_alignment: f64,
    /// Warn when the mean `alignmentScore` is below this (spec 004: 0.4).
    pub min_avg_alignment: f64,
    /// Warn when fewer claims than this share are cited (spec 004: 50%).
    pub min_coverage: f64,
    /// Warn when fewer declared citations than this share carry `evidenceIdx` (spec 004: 80%).
    pub min_evidence_idx_ratio: f64,
    /// Approximate quote matches may differ in at most this share of the quote's
    /// characters (docs/architecture.md §5: 0.1).
    pub max_edit_ratio: f64,
    /// When set, quotes outside `[min, max]` characters get `quote_length` (spec 003
    /// suggests `[120, 300]`).
    pub quote_length: Option<[usize; 2]>,
    /// `spanInAnswer` falls back to its first this-many characters (spec 004: 50).
    pub partial_span_chars: usize,
    /// `uncertain` when confidence is below this (spec 000: 0.7).
    pub uncertain_below: f64,
    /// Answers longer than this many characters are a `too_large` error.
    pub max_answer_chars: usize,
    /// More sources than this are a `too_large` error.
    pub max_sources: usize,
    /// Extra marker syntaxes (regexes with a `refs` group).
    pub marker_patterns: Vec<String>,
    /// The `unsupported_claim` threshold, off when `None`: cited claims whose source
    /// scores below it are `unsupported_claim`, and sentences without a citation are
    /// `uncited_claim`. Opt-in: on ExpertQA's real answers, 0.5 flags 4.8 % of the
    /// citations experts judged fully supported and 4.6 % of the partly supported ones;
    /// only from 0.6 (11.0 % and 14.8 %) does it flag the partly supported more often
    /// (docs/support.md).
    pub support_threshold: Option<f64>,
    /// How much better (in support score) another source must support a cited claim
    /// for `misattributed` ("did you mean \[4\]?"); off when `None` (`false` in JS and in
    /// an options file). Opt-in: held out, no margin flags at most 2 % of fully
    /// supported citations and catches 80 % of citations moved to another passage on
    /// every dataset (on HAGRID every margin flags over 5 %; docs/support.md). At 0.3,
    /// on ExpertQA's real answers, it flags 2 % and catches 71 %.
    #[serde(deserialize_with = "number_or_false")]
    pub misattribution_margin: Option<f64>,
    /// A marker ending a paragraph also covers the paragraph's sentences without one
    /// (`… fact. … fact. [1]`) for coverage and `uncited_claim`.
    pub paragraph_citations: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            policy: Policy::Clean,
            renumber: false,
            require_citations: true,
            max_invalid_ratio: 0.3,
            low_alignment: 0.3,
            min_avg_alignment: 0.4,
            min_coverage: 0.5,
            min_evidence_idx_ratio: 0.8,
            max_edit_ratio: 0.1,
            quote_length: None,
            partial_span_chars: 50,
            uncertain_below: 0.7,
            max_answer_chars: 1_000_000,
            max_sources: 10_000,
            marker_patterns: Vec::new(),
            support_threshold: None,
            misattribution_margin: None,
            paragraph_citations: true,
        }
    }
}

/// A number, or `false` for "off" (`null` is refused, so "off" is always said plainly).
fn number_or_false<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrFalse {
        Number(f64),
        Switch(bool),
    }
    match NumberOrFalse::deserialize(d)? {
        NumberOrFalse::Number(n) => Ok(Some(n)),
        NumberOrFalse::Switch(false) => Ok(None),
        NumberOrFalse::Switch(true) => Err(serde::de::Error::custom(
            "a number from 0 to 1, or false to turn the check off",
        )),
    }
}
