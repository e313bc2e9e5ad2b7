//! Per-citation checks of a declared citation's fields (spec 004) and quote (specs 001,
//! 003). Every threshold comes from [`Options`].

use crate::locate::{find_exact, locate_quote};
use crate::model::{
    AddFinding, DeclaredCitation, Finding, FindingCode, Input, Loose, Marker, MatchKind, Options,
    QuoteLocation, Severity, Source, Span, decimal,
};
use crate::substr::Substr;

use super::resolve::{SourceIndex, invalid_field};
use super::{UNSUPPORTED_PENALTY, round3};
use crate::model::{CitationResult, Evidence};
use crate::support::{ExternalSupport, SupportScorer};

/// What the checks of one citation found.
#[derive(Default)]
pub struct CitationChecks {
    pub findings: Vec<Finding>,
    /// Enhanced fields (evidenceIdx, alignmentScore, spanInAnswer) that are absent.
    pub missing_enhanced: usize,
    pub hallucinated_span: bool,
    /// Where `spanInAnswer` first occurs over a claim in the answer as written (the
    /// claims it overlaps there are cited).
    pub span_found: Option<Span>,
    pub quote: Option<QuoteLocation>,
    /// The quote as stated.
    pub quote_text: Option<String>,
}

/// A number field in `[0, 1]`.
fn unit_interval(
    field: &str,
    value: &Option<Loose<f64>>,
    findings: &mut Vec<Finding>,
) -> Option<f64> {
    match value {
        Some(Loose::Valid(v)) if (0.0..=1.0).contains(v) => Some(*v),
        Some(Loose::Valid(v)) => {
            findings.add(invalid_field(
                field,
                &format!("{} is outside 0–1", decimal(*v)),
            ));
            None
        }
        Some(Loose::Invalid(kind)) => {
            findings.add(invalid_field(
                field,
                &format!("expected a number, got {kind}"),
            ));
            None
        }
        None => None,
    }
}

/// Spec 004's structure, semantic and quality checks of a declared citation object
/// (its `spanInAnswer`: [`check_span`]).
pub fn check_fields(
    citation: &DeclaredCitation,
    source_count: usize,
    options: &Options,
    out: &mut CitationChecks,
) {
    let enhanced_style = citation.relevance.is_some()
        || citation.evidence_idx.is_some()
        || citation.alignment_score.is_some()
        || citation.span_in_answer.is_some();
    unit_interval("relevance", &citation.relevance, &mut out.findings);
    if let Some(score) = unit_interval(
        "alignmentScore",
        &citation.alignment_score,
        &mut out.findings,
    ) {
        if score < options.low_alignment {
            out.findings.add(Finding::new(
                FindingCode::LowAlignment,
                Severity::Warning,
                format!(
                    "alignmentScore {} is below {}",
                    decimal(score),
                    decimal(options.low_alignment)
                ),
            ));
        }
    }
    match &citation.evidence_idx {
        Some(Loose::Valid(idx)) if idx.fract() != 0.0 => out.findings.add(invalid_field(
            "evidenceIdx",
            &format!("{} is not an integer", decimal(*idx)),
        )),
        Some(Loose::Valid(idx)) if *idx < 0.0 || *idx >= source_count as f64 => {
            out.findings.add(Finding::new(
                FindingCode::EvidenceIdxOutOfRange,
                Severity::Error,
                format!("evidenceIdx {} is outside 0..{source_count}", decimal(*idx)),
            ))
        }
        Some(Loose::Invalid(kind)) => out.findings.add(invalid_field(
            "evidenceIdx",
            &format!("expected a number, got {kind}"),
        )),
        _ => {}
    }
    if let Some(Loose::Invalid(kind)) = &citation.span_in_answer {
        out.findings.add(invalid_field(
            "spanInAnswer",
            &format!("expected a string, got {kind}"),
        ));
    }
    if let Some(Loose::Invalid(kind)) = &citation.quote {
        out.findings.add(invalid_field(
            "quote",
            &format!("expected a string, got {kind}"),
        ));
    }
    if let Some(Loose::Valid(quote)) = &citation.quote {
        if quote.trim().is_empty() {
            out.findings
                .add(invalid_field("quote", "must not be empty"));
        }
    }
    if !enhanced_style {
        return;
    }
    for (field, present) in [
        ("relevance", citation.relevance.is_some()),
        ("quote", citation.quote.is_some()),
    ] {
        if !present {
            out.findings
                .add(missing(field, "a required field of spec 004 citations"));
        }
    }
    for (field, present) in [
        ("evidenceIdx", citation.evidence_idx.is_some()),
        ("alignmentScore", citation.alignment_score.is_some()),
        ("spanInAnswer", citation.span_in_answer.is_some()),
    ] {
        if !present {
            out.missing_enhanced += 1;
            out.findings
                .add(missing(field, "an enhanced field (−0.05 quality)"));
        }
    }
}

/// A `missing_field` warning for `field`. Out of line: an error path inlined at several
/// places otherwise, each copy costing wasm bytes.
#[inline(never)]
fn missing(field: &str, what: &str) -> Finding {
    Finding::new(
        FindingCode::MissingField,
        Severity::Warning,
        format!("{field} is missing: {what}"),
    )
}

/// How many places of a `spanInAnswer` outside every claim (a heading, a question) are
/// passed over before it is taken to cite no claim.
const SPAN_PLACES: usize = 16;

/// Searches for a declared citation's `spanInAnswer` in the answer while `budget` (the
/// request's searches, [`quote_budget`]) lasts: the first place it occurs over a claim
/// (`over_claim`), within [`SPAN_PLACES`] places, is where it cites; a span the answer
/// does not hold, as written, normalised or by its first characters, is a hallucinated
/// span. A search spends the answer up to where it stopped, four times the answer when
/// the span is not there.
pub fn check_span(
    citation: &DeclaredCitation,
    answer: &str,
    over_claim: impl Fn(Span) -> bool,
    (options, budget): (&Options, &mut usize),
    out: &mut CitationChecks,
) {
    let Some(Loose::Valid(span)) = &citation.span_in_answer else {
        return;
    };
    if *budget == 0 {
        out.findings.add(not_searched("spanInAnswer"));
        return;
    }
    // Past a place, the search goes on from its end.
    let (mut from, mut places) = (0, 0);
    let read = loop {
        let Some(at) = find_exact(answer.sub(from..), span) else {
            break if places == 0 {
                4 * answer.len()
            } else {
                answer.len()
            };
        };
        let place = Span::new(from + at, from + at + span.len());
        places += 1;
        if over_claim(place) {
            out.span_found = Some(place);
        }
        if out.span_found.is_some() || span.is_empty() || places == SPAN_PLACES {
            break place.end;
        }
        from = place.end;
    };
    *budget = budget.saturating_sub(read);
    if places == 0 && !span_is_near(span, answer, options.partial_span_chars) {
        out.hallucinated_span = true;
        out.findings.add(Finding::new(
            FindingCode::SpanNotInAnswer,
            Severity::Error,
            "hallucinated span: spanInAnswer does not occur in the answer".into(),
        ));
    }
}

/// Whether a span not in the answer as written is there once normalised, or its first
/// `partial_chars` characters are (spec 004: exact, else normalised, else its start).
fn span_is_near(span: &str, answer: &str, partial_chars: usize) -> bool {
    if locate_quote(span, answer, 0.0).kind != MatchKind::None {
        return true;
    }
    let cut = span
        .char_indices()
        .nth(partial_chars)
        .map_or(span.len(), |(i, _)| i);
    find_exact(answer, span.sub(..cut)).is_some()
}

/// Bytes of text the searches of one request may read (quotes in their sources,
/// `spanInAnswer` in the answer), besides [`QUOTE_READ_FACTOR`] times the request's text
/// (a search reads its text up to where the quote ends, or all of it when the quote is not
/// there).
pub const QUOTE_READ_FLOOR: usize = 32 << 20;
/// How many times the request's own text (answer and source texts) its searches may
/// read, besides [`QUOTE_READ_FLOOR`].
pub const QUOTE_READ_FACTOR: usize = 16;

/// The bytes of text the searches of `input` may read: linear in the request, and far
/// above what real requests read (docs/guide.md, "Limits").
pub fn quote_budget(input: &Input) -> usize {
    let sources: usize = (input.sources.iter())
        .filter_map(|s| s.text.as_ref())
        .map(String::len)
        .sum();
    let text = input.answer.len().saturating_add(sources);
    QUOTE_READ_FLOOR.saturating_add(QUOTE_READ_FACTOR.saturating_mul(text))
}

/// The warning for `what`, not searched for since the request's searches were spent.
fn not_searched(what: &str) -> Finding {
    Finding::new(
        FindingCode::QuoteUnchecked,
        Severity::Warning,
        format!(
            "{what} was not searched for: the request's searches had read as much text as \
             one request may ({} MiB and {QUOTE_READ_FACTOR} times the request's text)",
            QUOTE_READ_FLOOR >> 20
        ),
    )
}

/// Locates the quote in the source's text and checks its length and line range.
/// `lines` are the source's lines ([`line_spans`], made once per source by the caller)
/// when the citation has a line range; `budget` the bytes the request's quote searches
/// may still read ([`quote_budget`]).
pub fn check_quote(
    citation: &DeclaredCitation,
    (source, lines): (Option<&Source>, Option<&[Span]>),
    options: &Options,
    budget: &mut usize,
    out: &mut CitationChecks,
) {
    let quote = citation
        .quote
        .as_ref()
        .and_then(Loose::valid)
        .filter(|q| !q.trim().is_empty());
    let line_range = match &citation.line_range {
        Some(Loose::Valid(range)) => Some(*range),
        Some(Loose::Invalid(kind)) => {
            out.findings.add(Finding::new(
                FindingCode::LineRangeInvalid,
                Severity::Error,
                format!("lineRange: expected [first, last] or \"first-last\", got {kind}"),
            ));
            None
        }
        None => None,
    };
    let Some(source) = source else { return };
    let text = source.text.as_deref();
    let first_line = i64::from(source.first_line.unwrap_or(1));
    let mut valid_range = None;
    if let Some(range) = line_range {
        let last_line = first_line + lines.map_or(0, |l| l.len() as i64) - 1;
        if range.first > range.last
            || range.first < first_line
            || range.last > last_line
            || text.is_none()
        {
            out.findings.add(Finding::new(
                FindingCode::LineRangeInvalid,
                Severity::Error,
                format!(
                    "lines {}-{} are not inside the source (lines {first_line}-{last_line})",
                    range.first, range.last
                ),
            ));
        } else {
            valid_range = Some(range);
        }
    }
    let Some(quote) = quote else { return };
    out.quote_text = Some(quote.clone());
    let chars = quote.chars().count();
    if let Some([min, max]) = options.quote_length {
        if chars < min || chars > max {
            out.findings.add(Finding::new(
                FindingCode::QuoteLength,
                Severity::Warning,
                format!("the quote has {chars} characters; {min}–{max} keeps it readable"),
            ));
        }
    }
    // A quote search reads the source up to where the quote ends, or all of it (more than
    // once) when it is not there: the request's searches are counted against `budget`,
    // and once it is spent a quote is left unverified, with a warning (n quotes of one
    // long source would cost n × its length). The search that spends it may pass it by
    // one source's length.
    if text.is_some() && *budget == 0 {
        out.findings.add(not_searched("the quote"));
    }
    let Some(text) = text.filter(|_| *budget > 0) else {
        // Nothing to check it against, or no search left: unverified, which is neither
        // found nor not found.
        out.quote = Some(QuoteLocation {
            span: None,
            distance: None,
            kind: MatchKind::Unverified,
        });
        return;
    };
    let location = locate_quote(quote, text, options.max_edit_ratio);
    let read = match (location.kind, location.span) {
        (MatchKind::Exact, Some(span)) => span.end,
        _ => text.len(),
    };
    *budget = budget.saturating_sub(read);
    out.quote = Some(location);
    match (location.kind, location.span) {
        (MatchKind::None, _) | (_, None) => out.findings.add(Finding::new(
            FindingCode::QuoteNotFound,
            Severity::Error,
            "the quote does not occur in the cited source".into(),
        )),
        (kind, Some(span)) => {
            if kind == MatchKind::Approximate {
                out.findings.add(Finding::new(
                    FindingCode::QuoteApproximate,
                    Severity::Warning,
                    format!(
                        "the quote matches the source only approximately ({} edits)",
                        location.distance.unwrap_or(0)
                    ),
                ));
            }
            if let (Some(range), Some(lines)) = (valid_range, lines) {
                // The lines holding the quote's first and last byte, by binary search
                // (the lines end in order).
                let line_of = |found: usize| found.min(lines.len() - 1) as i64;
                let first = first_line + line_of(lines.partition_point(|l| l.end <= span.start));
                let last = first_line + line_of(lines.partition_point(|l| l.end < span.end));
                if first < range.first || last > range.last {
                    out.findings.add(Finding::new(
                        FindingCode::LineRangeMismatch,
                        Severity::Error,
                        format!(
                            "the quote is on lines {first}-{last}, outside {}-{}",
                            range.first, range.last
                        ),
                    ));
                }
            }
        }
    }
}

/// The byte span of every line (without its line break).
pub fn line_spans(text: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut start = 0;
    for line in crate::byteset::lines(text) {
        let content = line.trim_end_matches(['\n', '\r']);
        spans.push(Span::new(start, start + content.len()));
        start += line.len();
    }
    if spans.is_empty() {
        spans.push(Span::new(0, 0));
    }
    spans
}

/// One claim's citations (next to each other: markers are in answer order) and the
/// sources support scores it against because it cites them: each scorable one once, in
/// marker order.
struct ClaimCites {
    /// The claim's citations, a range of the report's.
    citations: std::ops::Range<usize>,
    /// The claim as support reads it: its sentence without its markers ([`claim_text`]).
    text: String,
    cited: Vec<usize>,
}

/// The text of the claim at `claim` without the answer's markers inside it (`markers`:
/// every marker of the answer, in order), each with the spaces before it: "… in 1889
/// [1][2]." reads "… in 1889.", and letters the marker stood between are kept apart
/// ("France [1]and" reads "France and"). A marker's label is no word of the claim: read
/// as one, "[1]" was a number no passage held (the missing number's factor, 0.8, and a
/// term short), and "[doc-3]" two more words.
fn claim_text(answer: &str, claim: Span, markers: &[Marker<'_>]) -> String {
    let first = markers.partition_point(|m| m.span.start < claim.start);
    let mut text = String::with_capacity(claim.end - claim.start);
    let mut at = claim.start;
    let inside = markers[first..]
        .iter()
        .map(|m| m.span)
        .take_while(|m| m.end <= claim.end);
    for m in inside {
        if m.end <= at {
            continue;
        }
        text.push_str(
            answer
                .sub(at..m.start.max(at))
                .trim_end_matches([' ', '\t']),
        );
        at = m.end;
        let next = answer.sub(at..claim.end).chars().next();
        if text.ends_with(char::is_alphanumeric) && next.is_some_and(char::is_alphanumeric) {
            text.push(' ');
        }
    }
    text.push_str(answer.sub(at..claim.end));
    let lead = text.len() - text.trim_start().len();
    text.drain(..lead);
    text
}

/// Whether support scores `citation` (at source position `p`): a valid use of a source
/// with text.
fn scorable(citation: &CitationResult, p: usize, texts: &[&str]) -> bool {
    citation.valid && !texts[p].is_empty()
}

/// The claims whose support is scored, each with the sources it cites (a claim with no
/// scorable citation is not one of them).
fn claim_cites(
    (answer, markers): (&str, &[Marker<'_>]),
    citations: &[CitationResult],
    positions: &[Option<usize>],
    texts: &[&str],
) -> Vec<ClaimCites> {
    // Sources already cited by the current claim (a claim may repeat one marker many
    // times), reset after each claim.
    let mut seen = vec![false; texts.len()];
    let mut claims = Vec::new();
    let mut start = 0;
    while start < citations.len() {
        let claim = citations[start].claim;
        let len = citations[start..]
            .iter()
            .take_while(|c| c.claim == claim)
            .count();
        let end = start + len;
        if let Some(claim) = claim {
            let mut cited = Vec::new();
            let run = &citations[start..end];
            for (citation, &position) in run.iter().zip(&positions[start..end]) {
                if let Some(p) = position.filter(|&p| scorable(citation, p, texts))
                    && !seen[p]
                {
                    seen[p] = true;
                    cited.push(p);
                }
            }
            for &p in &cited {
                seen[p] = false;
            }
            if !cited.is_empty() {
                claims.push(ClaimCites {
                    citations: start..end,
                    text: claim_text(answer, claim, markers),
                    cited,
                });
            }
        }
        start = end;
    }
    claims
}

/// The request's source texts ("" for a source without one).
fn source_texts(input: &crate::model::Input) -> Vec<&str> {
    input
        .sources
        .iter()
        .map(|s| s.text.as_deref().unwrap_or(""))
        .collect()
}

/// Scores each cited claim against its sources (and the other sources most like it):
/// below `support_threshold` is `unsupported_claim` (−0.3 quality); another source
/// better by `misattribution_margin` (and not below the threshold) that the claim does
/// not cite too is `misattributed`, named so a UI can offer it. Each citation scored gets
/// the source's best-matching sentence as its `evidence`.
///
/// Each claim is scored once, against the sources it cites and
/// [`crate::support::CANDIDATES`] others, so the work grows with the answer and the
/// sources, never with their product or with the square of one claim's markers.
///
/// With `pairs`, each claim's text and the sources its score read are pushed to it
/// (`Validator::support_pairs`), scored as if `external` held a table: what an embedding
/// model or a judge must score for it.
pub(super) fn check_support(
    (input, index, markers, positions): (
        &crate::model::Input,
        &SourceIndex<'_>,
        &[Marker<'_>],
        &[Option<usize>],
    ),
    citations: &mut [CitationResult],
    options: &Options,
    (external, mut pairs): (&[ExternalSupport], Option<&mut super::SupportPairs>),
) {
    let texts = source_texts(input);
    if texts.iter().all(|t| t.is_empty()) {
        return;
    }
    let claims = claim_cites((&input.answer, markers), citations, positions, &texts);
    let known: Vec<&str> = claims.iter().map(|c| c.text.as_str()).collect();
    let mut scorer = SupportScorer::for_claims(&texts, &known);
    // Blended with a judge's or an embedder's scores, a source sharing few of the claim's
    // words may still be its source: every source sharing any can be a candidate.
    scorer.blended = !external.is_empty() || pairs.is_some();
    let run = ClaimRun {
        texts: &texts,
        scorer,
        index,
        options,
        external,
    };
    // Which sources the current claim cites, marked by position (reset after each
    // claim), their scores and evidence sentences once found.
    let mut cites = vec![false; texts.len()];
    let mut own = vec![0.0; texts.len()];
    let mut evidence: Vec<Option<Option<Evidence>>> = vec![None; texts.len()];
    for ClaimCites {
        citations: range,
        text,
        cited,
    } in &claims
    {
        for &p in cited {
            cites[p] = true;
        }
        let scored = run.scores(text, cited);
        if let Some(pairs) = pairs.as_deref_mut() {
            pairs.push((text.clone(), scored.iter().map(|&(p, _)| p).collect()));
        }
        for &(p, score) in &scored {
            if cites[p] {
                own[p] = score;
            }
        }
        let better = better_source(&scored, &cites, options.support_threshold);
        let runs = citations[range.clone()]
            .iter_mut()
            .zip(&positions[range.clone()]);
        for (citation, position) in runs {
            let Some(p) = position.filter(|&p| scorable(citation, p, &texts)) else {
                continue;
            };
            let found = evidence[p].get_or_insert_with(|| run.evidence(text, p));
            citation.evidence = found.clone();
            run.judge(citation, own[p], better);
        }
        for &p in cited {
            cites[p] = false;
            evidence[p] = None;
        }
    }
}

/// The source the claim does not cite that scores best (ties: the later one), if it
/// reaches `threshold`: what `misattributed` proposes when it beats the cited source by
/// the margin.
fn better_source(
    scored: &[(usize, f64)],
    cites: &[bool],
    threshold: Option<f64>,
) -> Option<(usize, f64)> {
    scored
        .iter()
        .copied()
        .filter(|&(q, s)| !cites[q] && s >= threshold.unwrap_or(0.0))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
}

/// What scoring the citations of one claim needs.
struct ClaimRun<'a> {
    texts: &'a [&'a str],
    scorer: SupportScorer<'a>,
    index: &'a SourceIndex<'a>,
    options: &'a Options,
    external: &'a [ExternalSupport],
}

impl ClaimRun<'_> {
    /// The claim's score against the sources it cites and its candidates (by
    /// position): the lexical score, averaged with each external table (embedding
    /// cosines, a judge's probabilities) that scored it, by their weights (the lexical
    /// score's is 1). The claim's text is looked up once per table; each source scored,
    /// once more. A score outside 0–1 counts as the nearest bound, and one that is not a
    /// number as 0.
    fn scores(&self, text: &str, cited: &[usize]) -> Vec<(usize, f64)> {
        let mut scores = self.scorer.score_cited(text, cited);
        let tables: Vec<(&ExternalSupport, usize)> = (self.external.iter())
            .filter_map(|e| Some((e, e.claim(text)?)))
            .collect();
        if tables.is_empty() {
            return scores;
        }
        let total: f64 = 1.0 + tables.iter().map(|(e, _)| e.weight()).sum::<f64>();
        for (i, score) in scores.iter_mut() {
            let external: f64 = (tables.iter())
                .map(|&(e, k)| {
                    let s = e.score(k, *i).unwrap_or(0.0);
                    e.weight() * if s >= 0.0 { s.min(1.0) } else { 0.0 }
                })
                .sum();
            *score = round3((*score + external) / total);
        }
        scores
    }

    fn evidence(&self, text: &str, p: usize) -> Option<Evidence> {
        let span = self.scorer.supporting_sentence(text, p)?;
        Some(Evidence {
            span,
            text: self.texts[p].sub(span.range()).to_string(),
        })
    }

    /// Records the citation's support (`own`) and its findings; `better`: the best
    /// source its claim does not cite (see [`better_source`]).
    fn judge(&self, citation: &mut CitationResult, own: f64, better: Option<(usize, f64)>) {
        citation.support = Some(own);
        let threshold = self.options.support_threshold;
        if let Some(threshold) = threshold.filter(|&t| own < t) {
            citation.quality_score =
                round3((citation.quality_score - UNSUPPORTED_PENALTY).max(0.0));
            citation.warnings.add(Finding {
                code: FindingCode::UnsupportedClaim,
                severity: Severity::Warning,
                message: format!(
                    "source {} scores {} for this claim, below {}",
                    citation.label,
                    decimal(own),
                    decimal(threshold)
                ),
                citation: None,
                span: citation.span,
            });
        }
        let Some(margin) = self.options.misattribution_margin else {
            return;
        };
        if let Some((q, s)) = better.filter(|&(_, s)| s >= own + margin) {
            citation.warnings.add(Finding {
                code: FindingCode::Misattributed,
                severity: Severity::Warning,
                message: format!(
                    "did you mean [{}]? it supports this claim better ({} vs {})",
                    self.index.label(q),
                    decimal(s),
                    decimal(own)
                ),
                citation: None,
                span: citation.span,
            });
        }
    }
}
