//! Runs the checks, scores, decides: the only place that knows thresholds (docs/architecture.md §5–§6).
//!
//! ```
//! use citeproof::model::{Input, Options, Source, Status};
//! use citeproof::validate::Validator;
//!
//! let input = Input {
//!     answer: "Litecoin was created in 2011 [1]. It uses Scrypt [3].".into(),
//!     sources: vec![
//!         Source { title: Some("History".into()), text: Some("Created in 2011".into()), ..Source::default() },
//!         Source { title: Some("Tech".into()), text: Some("Uses Scrypt".into()), ..Source::default() },
//!     ],
//!     ..Input::default()
//! };
//! let report = Validator::new(Options::default()).unwrap().validate(&input).unwrap();
//! assert_eq!(report.findings[0].code.name(), "out_of_range");
//! assert_eq!(report.cleaned_answer, "Litecoin was created in 2011 [1]. It uses Scrypt.");
//! assert_eq!(report.status, Status::Fail); // 1 of 2 citations invalid: over spec 004's 30%
//! ```

mod batch;
mod checks;
mod gate;
mod order;
mod phases;
mod resolve;

pub use batch::BatchSummary;

use crate::error::{Error, ErrorCode};
use crate::model::{Input, Options, Report, decimal};
use crate::parse::Parser;
use crate::support::ExternalSupport;

use phases::{
    Checked, all_findings, check_uses, claims_of, cover_claims, decide, read_mode, read_sources,
    resolve_uses, rewrite_answer, score_support,
};
pub(crate) use resolve::{Lookup, OwnedIndex, SourceIndex};

/// Per claim whose support is scored, its text (without its markers) and the positions
/// of the sources its score reads: what [`Validator::support_pairs`] returns.
pub type SupportPairs = Vec<(String, Vec<usize>)>;

/// Spec 000's note for answers whose sources may not match.
pub const UNCERTAINTY_NOTE: &str = "(Note: This answer is uncertain - sources may not match)";

/// Quality penalty per missing enhanced field (spec 004).
pub(super) const MISSING_ENHANCED_PENALTY: f64 = 0.05;
/// Quality penalty for a hallucinated span (spec 004).
pub(super) const HALLUCINATED_SPAN_PENALTY: f64 = 0.3;
/// Quality penalty for an unsupported claim (docs/architecture.md §6).
pub(super) const UNSUPPORTED_PENALTY: f64 = 0.3;

/// Validates answers with one set of options; build once, reuse for many answers.
#[derive(Clone, Debug)]
pub struct Validator {
    options: Options,
    parser: Parser,
}

impl Validator {
    /// Checks the options and compiles their marker patterns.
    pub fn new(options: Options) -> Result<Validator, Error> {
        let parser = Parser::with_patterns(&options.marker_patterns)?;
        Validator::with_parser(options, parser)
    }

    /// Like [`Validator::new`] with `options.marker_patterns` already compiled into
    /// `parser`, for a caller that keeps compiled patterns across calls (the JS binding
    /// does). `parser` must come from the same patterns: nothing checks it.
    pub fn with_parser(options: Options, parser: Parser) -> Result<Validator, Error> {
        for (name, value) in [
            ("maxInvalidRatio", options.max_invalid_ratio),
            ("lowAlignment", options.low_alignment),
            ("minAvgAlignment", options.min_avg_alignment),
            ("minCoverage", options.min_coverage),
            ("minEvidenceIdxRatio", options.min_evidence_idx_ratio),
            ("maxEditRatio", options.max_edit_ratio),
            ("uncertainBelow", options.uncertain_below),
            ("supportThreshold", options.support_threshold.unwrap_or(0.0)),
            (
                "misattributionMargin",
                options.misattribution_margin.unwrap_or(0.0),
            ),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    name,
                    format!("{} is outside 0–1", decimal(value)),
                ));
            }
        }
        if let Some([min, max]) = options.quote_length {
            if min > max {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    "quoteLength",
                    "min is greater than max",
                ));
            }
        }
        Ok(Validator { options, parser })
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The marker parser for the options' patterns.
    pub(crate) fn parser(&self) -> &Parser {
        &self.parser
    }

    /// Validates one answer. `Err` only for input that cannot be used (limits, NaN
    /// relevance); every problem with the citations is a finding in the report.
    pub fn validate<'a>(&self, input: &'a Input) -> Result<Report<'a>, Error> {
        self.validate_with(input, &[])
    }

    /// What an embedding model or a judge must score for [`Validator::validate_with`]:
    /// per claim whose support is scored (a claim citing a source with text), in answer
    /// order, its text (the sentence without its markers, as support reads it) and the
    /// positions of the sources its score reads: the sources it cites, then at most
    /// [`crate::support::CANDIDATES`] others sharing its words. So the pairs grow with
    /// the answer and the sources each claim cites, never with claims × sources. A
    /// sentence the answer repeats is there once per repetition, with the sources that
    /// repetition's score reads (`validateAsync` asks its hooks about each text and pair
    /// once). Empty when support is not scored (neither `support_threshold` nor
    /// `misattribution_margin` set). `Err` as [`Validator::validate`]'s.
    ///
    /// ```
    /// use citeproof::model::{Input, Options, Source};
    /// use citeproof::validate::Validator;
    ///
    /// let text = |t: &str| Source { text: Some(t.into()), ..Source::default() };
    /// let mut sources = vec![text("The Eiffel Tower was completed in 1889.")];
    /// sources.extend((0..100).map(|i| text(&format!("Page {i} on cooking rice."))));
    /// let input = Input {
    ///     answer: "The tower was completed in 1889 [1].".into(),
    ///     sources,
    ///     ..Input::default()
    /// };
    /// let options = Options { support_threshold: Some(0.5), ..Options::default() };
    /// let pairs = Validator::new(options).unwrap().support_pairs(&input).unwrap();
    /// // The claim without its marker, and the one source it cites: no other shares its words.
    /// assert_eq!(pairs, vec![("The tower was completed in 1889.".to_string(), vec![0])]);
    /// ```
    pub fn support_pairs(&self, input: &Input) -> Result<SupportPairs, Error> {
        let mut pairs = Vec::new();
        self.run(input, &[], Some(&mut pairs))?;
        Ok(pairs)
    }

    /// [`Validator::validate`], blending `external` support scores into the lexical
    /// ones: each table (an embedding model's cosines, a judge's probabilities, per claim
    /// and source) by its weight against the lexical score's 1. The phases, in order
    /// (`phases.rs`, docs/architecture.md): resolve each use of a source, check each
    /// use, cover the claims, score support, decide the gate, rewrite the answer, gather
    /// the findings.
    pub fn validate_with<'a>(
        &self,
        input: &'a Input,
        external: &[ExternalSupport],
    ) -> Result<Report<'a>, Error> {
        self.run(input, external, None)
    }

    /// [`Validator::validate_with`]; with `pairs`, support is scored as if blended with
    /// an external table (every source sharing a claim's words can be a candidate) and
    /// each claim's text and the sources its score read are pushed to it: what
    /// [`Validator::support_pairs`] returns. One function for both, so the pairs are the
    /// ones a blended validation reads, and the module holds one copy of the phases.
    #[inline(never)]
    fn run<'a>(
        &self,
        input: &'a Input,
        external: &[ExternalSupport],
        pairs: Option<&mut SupportPairs>,
    ) -> Result<Report<'a>, Error> {
        self.check_input(input)?;
        let options = &self.options;
        let answer = input.answer.as_str();
        let index = SourceIndex::new(&input.sources);
        let ids = index.marker_ids();
        let markers: Vec<_> = self.parser.find_iter(answer, &ids).collect();
        let mut findings = input.warnings.clone();
        read_sources(input, &index, &mut findings);
        let mode = read_mode(input, &mut findings);

        let uses = resolve_uses(input, &index, &markers);
        let claims = claims_of(answer, &markers);
        let has_markers = !markers.is_empty();
        let Checked {
            mut citations,
            positions,
            spans_found,
        } = check_uses(input, &index, (has_markers, &claims), uses, options);
        let coverage = cover_claims(
            input,
            (&markers, claims, &spans_found),
            &mut citations,
            options,
        );
        score_support(
            (input, &index, &markers, &positions),
            &mut citations,
            &coverage,
            (options, external, pairs),
            &mut findings,
        );
        let decision = decide(input, mode, &citations, &mut findings, &coverage, options);
        let (cleaned_answer, segments) =
            rewrite_answer(input, &markers, &citations, &positions, options);
        let findings = all_findings(findings, &citations);
        Ok(Report {
            status: decision.status,
            confidence: decision.confidence,
            uncertain: decision.uncertain,
            uncertainty_note: decision.uncertain.then_some(UNCERTAINTY_NOTE),
            cleaned_answer,
            markers,
            citations,
            findings,
            summary: decision.summary,
            segments,
            timing_ms: 0.0,
        })
    }

    fn check_input(&self, input: &Input) -> Result<(), Error> {
        let chars = input.answer.chars().count();
        if chars > self.options.max_answer_chars {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "answer",
                format!(
                    "{chars} characters exceed maxAnswerChars ({})",
                    self.options.max_answer_chars
                ),
            ));
        }
        if input.sources.len() > self.options.max_sources {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "sources",
                format!(
                    "{} exceed maxSources ({})",
                    match input.sources.len() {
                        1 => "1 source".to_string(),
                        n => format!("{n} sources"),
                    },
                    self.options.max_sources
                ),
            ));
        }
        for (i, source) in input.sources.iter().enumerate() {
            if let Some(r) = source.relevance {
                if !r.is_finite() {
                    return Err(Error::new(
                        ErrorCode::InvalidInput,
                        format!("sources[{i}].relevance"),
                        format!("{} is not a finite number", decimal(r)),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `x` rounded to three decimals, as every score in a report is.
pub(super) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
