//! Validation through the public Rust API: one test per finding code, the gate, the
//! confidence formula, and cleaning.
#![cfg(not(target_arch = "wasm32"))]

use citeproof::model::{
    DeclaredCitation, FindingCode, Input, Loose, MatchKind, Options, Policy, Report, Segment,
    Source, SourceRef, Status,
};
use citeproof::validate::Validator;

fn source(title: &str, text: &str) -> Source {
    Source {
        title: Some(title.into()),
        url: Some(format!(
            "https://example.org/{}",
            title.to_lowercase().replace(' ', "-")
        )),
        text: Some(text.into()),
        ..Source::default()
    }
}

fn sources(n: usize) -> Vec<Source> {
    (1..=n)
        .map(|i| source(&format!("Doc {i}"), &format!("Text of document {i}.")))
        .collect()
}

fn input(answer: &str, sources: Vec<Source>) -> Input {
    Input {
        answer: answer.into(),
        sources,
        ..Input::default()
    }
}

fn run(input: &Input) -> Report<'_> {
    run_with(input, Options::default())
}

fn run_with(input: &Input, options: Options) -> Report<'_> {
    Validator::new(options).unwrap().validate(input).unwrap()
}

fn codes(report: &Report<'_>) -> Vec<&'static str> {
    report.findings.iter().map(|f| f.code.name()).collect()
}

fn quoted(source: f64, quote: &str) -> DeclaredCitation {
    DeclaredCitation {
        quote: Some(Loose::Valid(quote.into())),
        ..DeclaredCitation::label(source)
    }
}

// ---- markers -------------------------------------------------------------------------

#[test]
fn marker_past_the_last_source_is_out_of_range() {
    let i = input("Fact one is true [1]. Fact two is true [4].", sources(2));
    let report = run(&i);
    assert_eq!(codes(&report), ["out_of_range"]);
    assert_eq!(
        report.findings[0].span.map(|s| &i.answer[s.range()]),
        Some("[4]")
    );
    assert_eq!(report.findings[0].citation, Some(1));
    assert_eq!(
        report.findings[0].message,
        "source 4 does not exist: 2 sources were retrieved"
    );
}

#[test]
fn out_of_range_messages_count_sources_in_words() {
    for (count, said) in [
        (0, "source 4 does not exist: no sources were retrieved"),
        (1, "source 4 does not exist: only 1 source was retrieved"),
    ] {
        let i = input("Fact one is true [4].", sources(count));
        assert_eq!(run(&i).findings[0].message, said);
    }
}

#[test]
fn out_of_range_messages_name_the_labels_the_sources_gave() {
    // Sources labelled 7, 3, 9 by their own `index`: "[2]" is within their count, so
    // the message says which labels exist; so does `[0]`'s (a `zero_index` finding).
    let labelled = |labels: &[u32]| {
        let mut srcs = sources(labels.len());
        for (s, label) in srcs.iter_mut().zip(labels) {
            s.index = Some(*label);
        }
        srcs
    };
    for (labels, cited, said) in [
        (
            &[7, 3, 9][..],
            "[2]",
            "source 2 does not exist: 3 sources were retrieved, labelled 3 to 9 (not every \
             number between)",
        ),
        (
            &[7, 3, 9],
            "[0]",
            "source 0 does not exist: 3 sources were retrieved, labelled 3 to 9 (not every \
             number between)",
        ),
        (
            &[4],
            "[1]",
            "source 1 does not exist: only 1 source was retrieved, labelled 4",
        ),
        (
            &[0, 1, 2],
            "[3]",
            "source 3 does not exist: 3 sources were retrieved, labelled 0 to 2",
        ),
        (
            &[2, 3, 4, 5, 6, 7],
            "[1]",
            "source 1 does not exist: 6 sources were retrieved, labelled 2 to 7",
        ),
        (
            &[2, 3, 4, 5, 6, 9],
            "[1]",
            "source 1 does not exist: 6 sources were retrieved, labelled 2 to 9 (not every \
             number between)",
        ),
        // Labels that are the positions + 1, given or not, are not listed.
        (
            &[1, 2],
            "[3]",
            "source 3 does not exist: 2 sources were retrieved",
        ),
    ] {
        let i = input(&format!("Fact one is true {cited}."), labelled(labels));
        let report = run(&i);
        assert_eq!(report.findings.len(), 1, "{labels:?}");
        assert_eq!(report.findings[0].message, said);
    }
}

#[test]
fn two_sources_with_one_label_are_a_warning_and_citations_name_the_first() {
    // `index` given twice, an `index` equal to another source's position + 1, and
    // three sources repeating labels (one finding for all of them).
    for (indexes, label, repeat, suffix) in [
        (vec![Some(2), Some(2), None], 2, 1, ""),
        (vec![None, None, Some(1)], 1, 2, ""),
        (
            vec![Some(5), Some(5), Some(5), Some(5)],
            5,
            1,
            " (and 2 more sources with a repeated label)",
        ),
    ] {
        let mut srcs = sources(indexes.len());
        for (s, index) in srcs.iter_mut().zip(&indexes) {
            s.index = *index;
        }
        let answer = format!("Fact one is true [{label}].");
        let i = input(&answer, srcs);
        let report = run(&i);
        assert_eq!(codes(&report), ["duplicate_label"], "{indexes:?}");
        let finding = &report.findings[0];
        assert_eq!(finding.severity, citeproof::model::Severity::Warning);
        assert_eq!(
            finding.message,
            format!(
                "sources[0] and sources[{repeat}] are both labelled {label} (a source's label \
                 is its index, else its position + 1); citations of {label} name \
                 sources[0]{suffix}"
            )
        );
        assert_eq!(report.status, Status::Pass);
    }
    // Labels given as the positions + 1 repeat nothing.
    let mut srcs = sources(2);
    srcs[0].index = Some(1);
    srcs[1].index = Some(2);
    assert_eq!(codes(&run(&input("Fact one is true [2].", srcs))), [""; 0]);
}

#[test]
fn zero_marker_is_zero_index() {
    let i = input("Arrays start at zero [0] in this claim here.", sources(2));
    let report = run(&i);
    assert_eq!(codes(&report), ["zero_index"]);
}

#[test]
fn a_zero_marker_names_the_source_labelled_zero() {
    // Retrieval code counting from 0 labels its sources 0, 1, …: `[0]` names the first.
    let mut srcs = sources(2);
    srcs[0].index = Some(0);
    srcs[1].index = Some(1);
    let i = input(
        "Fact one is true [0]. Fact two is true [1]. Fact three [2].",
        srcs,
    );
    let report = run(&i);
    assert_eq!(codes(&report), ["out_of_range"]);
    let labels: Vec<Option<u32>> = report.citations.iter().map(|c| c.source_index).collect();
    assert_eq!(labels, [Some(0), Some(1), None]);
    assert_eq!(
        report.findings[0].span.map(|s| &i.answer[s.range()]),
        Some("[2]")
    );
}

#[test]
fn unknown_named_or_chunk_marker_is_unknown_source() {
    let mut srcs = sources(1);
    srcs[0].id = Some("abc123".into());
    let i = input("Named id works [abc123] but [chunk:zzz] does not.", srcs);
    let report = run(&i);
    assert_eq!(codes(&report), ["unknown_source"]);
    assert_eq!(report.citations[0].source_index, Some(1));
    assert_eq!(report.citations[0].source_id.as_deref(), Some("abc123"));
}

#[test]
fn a_section_marker_names_the_first_source_of_its_chapter_and_section() {
    let mut srcs = sources(4);
    for (s, (chapter, section)) in
        srcs.iter_mut()
            .zip([("2", 1), ("intro 2", 1), ("2", 1), ("2", 3)])
    {
        s.chapter = Some(chapter.into());
        s.section = Some(section);
    }
    let i = input(
        "See Chapter 2, Section 1 and Chapter 2, Section 3, not Chapter 2, Section 2 \
         nor Chapter intro, Section 2.",
        srcs,
    );
    let report = run(&i);
    let resolved: Vec<_> = report.citations.iter().map(|c| c.source_index).collect();
    assert_eq!(resolved, [Some(1), Some(4), None, None]);
    assert_eq!(codes(&report), ["unknown_source", "unknown_source"]);
    assert!(
        report.findings[1]
            .message
            .contains("Chapter intro, Section 2 is not among"),
        "{}",
        report.findings[1].message
    );
}

#[test]
fn private_use_tokens_resolve_by_source_id_and_unknown_ids_are_unknown_source() {
    let mut srcs = sources(2);
    srcs[0].id = Some("turn0search0".into());
    srcs[1].id = Some("turn0file1".into());
    let i = input(
        "Rain falls in spring.\u{E200}cite\u{E202}turn0search0\u{E202}turn0file1\u{E202}L2-L4\u{E201} \
         Snow falls in winter.\u{E200}cite\u{E202}turn9search9\u{E201}",
        srcs,
    );
    let report = run(&i);
    assert_eq!(codes(&report), ["unknown_source"]);
    let resolved: Vec<_> = report.citations.iter().map(|c| c.source_index).collect();
    assert_eq!(resolved, [Some(1), Some(2), None]);
    assert!(
        !report.cleaned_answer.contains("turn9search9"),
        "the token naming no source is cleaned away"
    );
    assert!(report.cleaned_answer.contains("turn0file1"));
}

#[test]
fn repeated_source_in_one_marker_or_adjacent_markers_is_duplicate_marker() {
    let i = input(
        "Claim one is here [1, 1]. Claim two is here [2][2].",
        sources(2),
    );
    let report = run(&i);
    assert_eq!(codes(&report), ["duplicate_marker", "duplicate_marker"]);
    assert!(
        report.citations.iter().all(|c| c.valid),
        "a warning leaves citations valid"
    );
}

#[test]
fn marker_missing_from_the_declared_list_is_not_declared() {
    let mut i = input(
        "First claim is here [1]. Second claim is here [2].",
        sources(2),
    );
    i.citations = Some(vec![DeclaredCitation::label(1.0)]);
    assert_eq!(codes(&run(&i)), ["not_declared"]);
}

#[test]
fn declared_citation_never_cited_in_the_text_is_declared_unused() {
    let mut i = input("Only the first claim is cited here [1].", sources(2));
    i.citations = Some(vec![
        DeclaredCitation::label(1.0),
        DeclaredCitation::label(2.0),
    ]);
    let report = run(&i);
    assert_eq!(codes(&report), ["declared_unused"]);
    assert_eq!(
        report.citations.len(),
        2,
        "the marker and declaration 1 merged; 2 stands alone"
    );
}

/// Declared citations merge into the markers of the same source in text order, found
/// by lookups: the first unmatched marker of the source, by position or, for a source
/// that does not exist, by label.
#[test]
fn declared_citations_merge_into_the_first_unmatched_markers_of_their_sources() {
    let mut i = input(
        "One [2]. Two [1]. Three [9]. Four [2]. Five [9]. Six [1].",
        sources(2),
    );
    let declared = [2.0, 9.0, 2.0, 1.0, 9.0, 9.0, 1.0, 1.0];
    i.citations = Some(
        declared
            .iter()
            .map(|&l| DeclaredCitation::label(l))
            .collect(),
    );
    let report = run(&i);
    let pairs: Vec<(Option<usize>, Option<usize>)> = report
        .citations
        .iter()
        .map(|c| (c.marker, c.declared))
        .collect();
    assert_eq!(
        pairs,
        [
            (Some(0), Some(0)),
            (Some(1), Some(3)),
            (Some(2), Some(1)),
            (Some(3), Some(2)),
            (Some(4), Some(4)),
            (Some(5), Some(6)),
            (None, Some(5)),
            (None, Some(7)),
        ]
    );
}

/// Declared citations naming no source are matched to markers by a scan of their
/// labels, within a limit: 200 of them against 200 markers in the reverse order (20,100
/// reads) merge whole; 500 (125,250 reads) merge until the limit and leave the rest
/// apart, each with its own finding.
#[test]
fn declared_citations_naming_no_source_merge_within_a_limit() {
    // The k-th declared citation reads n - k + 1 markers; merged: those whose reads fit
    // in 65,536 + 16 per use (src/validate/resolve.rs, `UNRESOLVED_ALLOWANCE` and
    // `UNRESOLVED_STEPS`).
    let within = |n: usize| {
        let limit = 65_536 + 16 * 2 * n;
        (1..=n)
            .take_while(|m| m * n - m * (m - 1) / 2 <= limit)
            .count()
    };
    assert_eq!(within(200), 200);
    assert_eq!(within(500), 204);
    for (n, merged) in [(200_u32, within(200)), (500, within(500))] {
        let answer: String = (0..n).map(|k| format!("Claim [{}]. ", 1_000 + k)).collect();
        let mut i = input(&answer, sources(1));
        i.citations = Some(
            (0..n)
                .rev()
                .map(|k| DeclaredCitation::label(f64::from(1_000 + k)))
                .collect(),
        );
        let report = run(&i);
        let both = report
            .citations
            .iter()
            .filter(|c| c.marker.is_some() && c.declared.is_some())
            .count();
        assert_eq!(both, merged, "{n} declared");
        assert_eq!(report.citations.len(), 2 * n as usize - merged);
    }
}

// ---- declared fields (spec 004) --------------------------------------------------------

#[test]
fn declared_citation_naming_nothing_is_a_missing_field_error() {
    let mut i = input("A claim without markers but declared.", sources(1));
    i.citations = Some(vec![DeclaredCitation {
        quote: Some(Loose::Valid("Text".into())),
        ..DeclaredCitation::default()
    }]);
    let report = run(&i);
    assert_eq!(codes(&report), ["missing_field"]);
    assert!(!report.citations[0].valid);
}

#[test]
fn wrong_types_and_ranges_in_declared_fields_are_invalid_field() {
    let mut i = input(
        "The claim is backed by the first document text.",
        sources(1),
    );
    i.citations = Some(vec![DeclaredCitation {
        relevance: Some(Loose::Valid(1.7)),
        alignment_score: Some(Loose::Invalid("string")),
        evidence_idx: Some(Loose::Valid(0.0)),
        span_in_answer: Some(Loose::Valid("The claim".into())),
        quote: Some(Loose::Valid("Text of document 1".into())),
        ..DeclaredCitation::label(1.0)
    }]);
    let report = run(&i);
    assert_eq!(codes(&report), ["invalid_field", "invalid_field"]);
    assert_eq!(report.status, Status::Fail);
}

#[test]
fn evidence_index_past_the_sources_is_out_of_range() {
    let mut i = input(
        "The claim is backed by the first document text.",
        sources(2),
    );
    i.citations = Some(vec![DeclaredCitation {
        evidence_idx: Some(Loose::Valid(2.0)),
        ..quoted(1.0, "Text of document 1")
    }]);
    assert!(codes(&run(&i)).contains(&"evidence_idx_out_of_range"));
}

#[test]
fn alignment_below_threshold_is_low_alignment() {
    let mut i = input(
        "The claim is backed by the first document text.",
        sources(1),
    );
    i.citations = Some(vec![DeclaredCitation {
        relevance: Some(Loose::Valid(0.9)),
        evidence_idx: Some(Loose::Valid(0.0)),
        alignment_score: Some(Loose::Valid(0.2)),
        span_in_answer: Some(Loose::Valid("The claim is backed".into())),
        ..quoted(1.0, "Text of document 1")
    }]);
    let report = run(&i);
    assert_eq!(codes(&report), ["low_alignment"]);
    assert_eq!(report.status, Status::Warn, "average alignment 0.2 < 0.4");
}

#[test]
fn span_matching_only_in_its_first_fifty_characters_is_accepted() {
    let answer = "The quick brown fox jumps over the lazy dog near the river bank today.";
    let mut i = input(answer, sources(1));
    let span = "The quick brown fox jumps over the lazy dog near th — and then something invented";
    i.citations = Some(vec![DeclaredCitation {
        span_in_answer: Some(Loose::Valid(span.into())),
        ..quoted(1.0, "Text of document 1")
    }]);
    assert!(!codes(&run(&i)).contains(&"span_not_in_answer"));
}

// ---- quotes -----------------------------------------------------------------------------

#[test]
fn quote_with_a_typo_is_approximate_with_its_distance_and_span() {
    let mut srcs = sources(1);
    srcs[0].text = Some("Intro. The committee approved the budget in March. Outro.".into());
    let mut i = input("The budget was approved in March [1].", srcs);
    i.citations = Some(vec![quoted(
        1.0,
        "The comittee approved the budget in March",
    )]);
    let report = run(&i);
    assert_eq!(codes(&report), ["quote_approximate"]);
    let quote = report.citations[0].quote.unwrap();
    assert_eq!(
        (quote.kind, quote.distance),
        (MatchKind::Approximate, Some(1))
    );
    let text = i.sources[0].text.as_deref().unwrap();
    assert_eq!(
        &text[quote.span.unwrap().range()],
        "The committee approved the budget in March"
    );
}

#[test]
fn quote_searches_read_at_most_32_mib_and_16_times_the_request_of_source_text() {
    // 60 quotes found at the end of one source of 1 MiB: each search reads it to its end.
    // The request may read 32 MiB + 16 × its text (the source and the answer): 48 MiB and
    // a few bytes, so 49 quotes are searched (the last one passes the limit) and the
    // other 11 are unverified, each with a warning, and the status is `warn`. Found at the
    // start, a quote reads little: all 60 are searched. Line ranges are checked whatever
    // the limit: the source's lines are found once.
    const MIB: usize = 1 << 20;
    let quote = "Water boils";
    let filler = "lorem ipsum dolor sit amet\n".repeat(MIB / 27 + 1);
    let late = format!("{}{quote}", &filler[..MIB - quote.len()]);
    let early = format!("{quote}{}", &filler[..MIB - quote.len()]);
    for (text, searched) in [(late, 49), (early, 60)] {
        let lines = text.lines().count() as i64;
        let mut i = input("Water boils at 100 degrees.", vec![source("Water", &text)]);
        let ranged = |first, last| DeclaredCitation {
            line_range: Some(Loose::Valid(citeproof::model::LineRange { first, last })),
            ..quoted(1.0, quote)
        };
        let mut citations = vec![ranged(1, lines); 59];
        citations.push(ranged(5, 3));
        i.citations = Some(citations);
        let budget = 32 * MIB + 16 * (MIB + i.answer.len());
        if searched < 60 {
            assert_eq!(budget.div_ceil(MIB), searched);
        }
        let report = run(&i);
        let kinds: Vec<MatchKind> = report
            .citations
            .iter()
            .map(|c| c.quote.unwrap().kind)
            .collect();
        assert!(kinds[..searched].iter().all(|&k| k == MatchKind::Exact));
        assert!(
            kinds[searched..]
                .iter()
                .all(|&k| k == MatchKind::Unverified)
        );
        let unchecked: Vec<_> = (report.findings.iter())
            .filter(|f| f.code.name() == "quote_unchecked")
            .collect();
        assert_eq!(unchecked.len(), 60 - searched);
        if let Some(first) = unchecked.first() {
            assert_eq!(first.severity, citeproof::model::Severity::Warning);
            assert_eq!(
                first.message,
                "the quote was not searched for: the request's searches had read as much text \
                 as one request may (32 MiB and 16 times the request's text)"
            );
        }
        // The reversed range of the last citation is found either way.
        let invalid = report
            .findings
            .iter()
            .filter(|f| f.code.name() == "line_range_invalid");
        assert_eq!(invalid.count(), 1);
        assert_eq!(report.citations.iter().filter(|c| !c.valid).count(), 1);
        // Without the reversed range every citation is valid: the status is `pass` when
        // every quote was searched for, `warn` when some were not.
        i.citations.as_mut().unwrap().pop();
        let expected = if searched < 60 {
            Status::Warn
        } else {
            Status::Pass
        };
        assert_eq!(run(&i).status, expected, "{searched}");
    }
}

#[test]
fn span_in_answer_searches_share_the_requests_budget() {
    // An answer of 1,000,000 bytes (the most it may have) and 20 declared citations
    // whose `spanInAnswer` is not in it: each such span costs four reads of the answer
    // (an exact search, `locate_quote`'s exact and normalised ones, its start), so of the 32 MiB + 16 × 1,000,019 bytes the
    // request may read, 13 are searched (the last one
    // passes the limit) and the other 7 are not, each with a warning and no
    // `span_not_in_answer`. A span found as written costs one read and cites its claim;
    // past the limit it is not searched and cites none.
    const MIB: usize = 1 << 20;
    const LEN: usize = 1_000_000;
    let filler = "Water boils at one hundred degrees. ".repeat(LEN / 36 + 1);
    let answer = &filler[..LEN];
    let absent = |n: usize| DeclaredCitation {
        span_in_answer: Some(Loose::Valid(format!("Ice melts at {n} degrees"))),
        ..DeclaredCitation::label(1.0)
    };
    let mut i = input(answer, sources(1));
    i.citations = Some((0..20).map(absent).collect());
    let budget = 32 * MIB + 16 * (LEN + "Text of document 1.".len());
    let searched = budget.div_ceil(4 * LEN);
    assert_eq!(searched, 13);
    let report = run(&i);
    let count = |code: &str| {
        report
            .findings
            .iter()
            .filter(|f| f.code.name() == code)
            .count()
    };
    assert_eq!(count("span_not_in_answer"), searched);
    assert_eq!(count("quote_unchecked"), 20 - searched);
    let unchecked = (report.findings.iter())
        .find(|f| f.code.name() == "quote_unchecked")
        .unwrap();
    assert_eq!(
        unchecked.message,
        "spanInAnswer was not searched for: the request's searches had read as much text as \
         one request may (32 MiB and 16 times the request's text)"
    );
    // A found span cites the claims it overlaps where it first occurs over one (no
    // `uncited_claim` for them).
    let found = DeclaredCitation {
        span_in_answer: Some(Loose::Valid("Water boils at one hundred degrees.".into())),
        ..DeclaredCitation::label(1.0)
    };
    let short = input(
        "Water boils at one hundred degrees. Ice melts at zero.",
        sources(1),
    );
    let uncited = |citations: Vec<DeclaredCitation>| {
        let mut i = short.clone();
        i.citations = Some(citations);
        let options = Options {
            support_threshold: Some(0.5),
            ..Options::default()
        };
        let report = run_with(&i, options);
        (report.findings.iter())
            .filter(|f| f.code.name() == "uncited_claim")
            .count()
    };
    assert_eq!(uncited(vec![found.clone()]), 1);
    assert_eq!(uncited(vec![]), 2);
    // A span over both sentences cites both claims.
    let both = DeclaredCitation {
        span_in_answer: Some(Loose::Valid("degrees. Ice melts".into())),
        ..DeclaredCitation::label(1.0)
    };
    assert_eq!(uncited(vec![both]), 0);
    // A span whose first place is a heading cites the claim where it occurs next; one
    // found only outside every claim is in the answer but cites none.
    let headed = |span: &str| {
        let mut i = input(
            "# Water boils at 100 degrees\n\nWater boils at 100 degrees at sea level.",
            sources(1),
        );
        i.citations = Some(vec![DeclaredCitation {
            span_in_answer: Some(Loose::Valid(span.into())),
            ..DeclaredCitation::label(1.0)
        }]);
        let report = run(&i);
        let hallucinated = codes(&report).contains(&"span_not_in_answer");
        (hallucinated, report.summary.citation_coverage)
    };
    assert_eq!(headed("Water boils at 100 degrees"), (false, 1.0));
    assert_eq!(headed("# Water boils"), (false, 0.0));
    assert_eq!(headed("Ice melts"), (true, 0.0));
}

#[test]
fn quote_against_a_source_without_text_is_unverified_not_failed() {
    let mut srcs = sources(1);
    srcs[0].text = None;
    let mut i = input("A claim cited to a bare URL here [1].", srcs);
    i.citations = Some(vec![quoted(1.0, "anything")]);
    let report = run(&i);
    // Issue 22: nothing to check it against is not "not found": no finding, the quote
    // kept as stated for the citation card.
    assert_eq!(codes(&report), Vec::<&str>::new());
    assert!(report.citations[0].valid);
    let quote = report.citations[0].quote.unwrap();
    assert_eq!((quote.kind, quote.span), (MatchKind::Unverified, None));
    assert_eq!(report.citations[0].quote_text.as_deref(), Some("anything"));
    // With the text, the same quote is looked for, and not found.
    let mut i = input("A claim cited to a bare URL here [1].", sources(1));
    i.citations = Some(vec![quoted(1.0, "anything")]);
    assert_eq!(codes(&run(&i)), ["quote_not_found"]);
}

#[test]
fn quote_outside_the_configured_length_is_quote_length() {
    let mut i = input("A claim with a short quote here [1].", sources(1));
    i.citations = Some(vec![quoted(1.0, "Text of document 1")]);
    let report = run_with(
        &i,
        Options {
            quote_length: Some([120, 300]),
            ..Options::default()
        },
    );
    assert_eq!(codes(&report), ["quote_length"]);
}

fn engine_source() -> Source {
    let text: String = (1..=150)
        .map(|n| format!("line {n} of engine.py\n"))
        .collect();
    Source {
        id: Some("src/delegation/engine.py".into()),
        text: Some(text),
        ..Source::default()
    }
}

fn line_cited(range: &str, quote: &str) -> Input {
    let mut i = input(
        "The DelegationEngine class is defined in the engine module.",
        vec![engine_source()],
    );
    i.citations = Some(vec![DeclaredCitation {
        source: Some(Loose::Valid(SourceRef::Name(
            "src/delegation/engine.py".into(),
        ))),
        line_range: Some(Loose::Valid(
            citeproof::model::LineRange::from_str_range(range).unwrap(),
        )),
        quote: Some(Loose::Valid(quote.into())),
        ..DeclaredCitation::default()
    }]);
    i
}

#[test]
fn spec_001_quote_inside_its_line_range_is_valid() {
    assert_eq!(
        codes(&run(&line_cited("45-120", "line 50 of engine.py"))),
        Vec::<&str>::new()
    );
}

#[test]
fn spec_001_line_range_past_the_end_is_line_range_invalid() {
    assert_eq!(
        codes(&run(&line_cited("140-160", "line 145 of engine.py"))),
        ["line_range_invalid"]
    );
}

#[test]
fn spec_001_quote_outside_its_line_range_is_line_range_mismatch() {
    assert_eq!(
        codes(&run(&line_cited("45-120", "line 10 of engine.py"))),
        ["line_range_mismatch"]
    );
}

// ---- answer level -----------------------------------------------------------------------

#[test]
fn answer_without_any_citation_is_no_citations_and_fails() {
    let i = input("A confident claim with nothing behind it.", sources(2));
    let report = run(&i);
    assert_eq!(codes(&report), ["no_citations"]);
    assert_eq!(report.status, Status::Fail);
}

#[test]
fn refusal_needs_no_citations_but_an_unknown_mode_is_invalid() {
    let mut refuse = input("I cannot answer that from the documents.", sources(1));
    refuse.mode = Some("refuse".into());
    assert_eq!(codes(&run(&refuse)), Vec::<&str>::new());
    let mut odd = input("Claim [1].", sources(1));
    odd.mode = Some("chat".into());
    assert_eq!(codes(&run(&odd)), ["invalid_mode"]);
}

// ---- gate and confidence -------------------------------------------------------------------

#[test]
fn gate_fails_above_thirty_percent_invalid_and_warns_below() {
    let fail = input("A one [1]. B two [2]. C three [7].", sources(2));
    assert_eq!(run(&fail).status, Status::Fail, "1 of 3 invalid = 33%");
    let warn = input("A one [1]. B two [2]. C three [1]. D four [7].", sources(2));
    assert_eq!(run(&warn).status, Status::Warn, "1 of 4 invalid = 25%");
    let pass = input("A one is true [1]. B two is true [2].", sources(2));
    assert_eq!(run(&pass).status, Status::Pass);
}

#[test]
fn gate_warns_when_less_than_half_of_the_claims_are_cited() {
    let i = input(
        "First claim is cited [1]. Second claim is not. Third claim is not either.",
        sources(1),
    );
    let report = run(&i);
    assert_eq!(report.summary.citation_coverage, 0.333);
    assert_eq!(report.summary.uncited_claims, 2);
    assert_eq!(report.status, Status::Warn);
}

#[test]
fn confidence_follows_spec_000_relevance_bands() {
    for (relevance, grounded, expected) in [
        (0.69, true, 0.6),
        (0.70, true, 0.8),
        (0.849, true, 0.8),
        (0.85, true, 1.0),
        (0.85, false, 0.7),
        (0.5, false, 0.3),
    ] {
        let mut srcs = sources(1);
        srcs[0].relevance = Some(relevance);
        let answer = if grounded {
            "A claim here [1]."
        } else {
            "A claim here [1][5]."
        };
        let i = input(answer, srcs);
        let report = run(&i);
        assert_eq!(
            report.confidence, expected,
            "relevance {relevance}, grounded {grounded}"
        );
        assert_eq!(report.uncertain, expected < 0.7);
    }
}

#[test]
fn relevances_outside_0_to_1_are_one_warning_and_confidence_reads_none_of_them() {
    // BM25 scores or cosine similarities passed as `relevance`: not refused, and not
    // read as probabilities, not even those of them that fall in 0–1 (8.1, 5.3 and 0.4
    // would otherwise give the base of a mean below 0.7). A float32 cosine of equal
    // vectors (1.0000001) is in 0–1.
    for (relevances, confidence, warning) in [
        (
            vec![12.5],
            0.8,
            Some("sources[0].relevance: 12.5 is outside 0–1"),
        ),
        (
            vec![-0.3],
            0.8,
            Some("sources[0].relevance: -0.3 is outside 0–1"),
        ),
        (
            vec![0.4, 8.1, 5.3],
            0.8,
            Some("sources[1].relevance: 8.1 is outside 0–1 (and 1 more outside it)"),
        ),
        (
            vec![0.5, 1.5, 2.0, 3.0],
            0.8,
            Some("sources[1].relevance: 1.5 is outside 0–1 (and 2 more outside it)"),
        ),
        (vec![1.000_000_1, 0.9], 1.0, None),
        (vec![0.5, 0.6], 0.6, None),
    ] {
        let mut srcs = sources(relevances.len());
        for (s, r) in srcs.iter_mut().zip(&relevances) {
            s.relevance = Some(*r);
        }
        let i = input("A claim here [1].", srcs);
        let report = run(&i);
        assert_eq!(report.confidence, confidence, "{relevances:?}");
        let messages: Vec<String> = report.findings.iter().map(|f| f.message.clone()).collect();
        let expected: Vec<String> = warning
            .map(|w| {
                format!(
                    "{w}; the relevances are on another scale, and confidence reads none of them"
                )
            })
            .into_iter()
            .collect();
        assert_eq!(messages, expected, "{relevances:?}");
        for finding in &report.findings {
            assert_eq!(finding.code, FindingCode::InvalidField);
            assert_eq!(finding.severity, citeproof::model::Severity::Warning);
        }
        assert_eq!(report.status, Status::Pass);
    }
}

#[test]
fn input_limits_and_nan_relevance_are_errors_not_findings() {
    let validator = Validator::new(Options {
        max_answer_chars: 10,
        max_sources: 1,
        ..Options::default()
    })
    .unwrap();
    let long = input("This answer is longer than ten characters.", sources(1));
    assert_eq!(
        validator.validate(&long).unwrap_err().code,
        citeproof::ErrorCode::TooLarge
    );
    let many = input("Short.", sources(2));
    assert_eq!(validator.validate(&many).unwrap_err().path, "sources");
    let mut nan = input("Claim [1].", sources(1));
    nan.sources[0].relevance = Some(f64::NAN);
    let err = Validator::new(Options::default())
        .unwrap()
        .validate(&nan)
        .unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (citeproof::ErrorCode::InvalidInput, "sources[0].relevance")
    );
}

#[test]
fn options_out_of_range_are_invalid_options() {
    let err = Validator::new(Options {
        max_edit_ratio: 2.0,
        ..Options::default()
    })
    .unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (citeproof::ErrorCode::InvalidOption, "maxEditRatio")
    );
}

// ---- cleaning --------------------------------------------------------------------------------

const MARKDOWN: &str = "# Title\n\nClaim one [1] and bad [9].\r\n\n| a | b [7] |\n|---|---|\n\n```\ncode[9]\n```\n- item [2][8]\n";

#[test]
fn clean_removes_bad_markers_and_one_space_keeping_every_other_byte() {
    let i = input(MARKDOWN, sources(2));
    let report = run(&i);
    assert_eq!(
        report.cleaned_answer,
        "# Title\n\nClaim one [1] and bad.\r\n\n| a | b |\n|---|---|\n\n```\ncode[9]\n```\n- item [2]\n"
    );
}

#[test]
fn flag_leaves_the_answer_untouched_and_marks_chips_invalid() {
    let i = input(MARKDOWN, sources(2));
    let report = run_with(
        &i,
        Options {
            policy: Policy::Flag,
            ..Options::default()
        },
    );
    assert_eq!(report.cleaned_answer, MARKDOWN);
    let invalid: Vec<&str> = report
        .segments
        .iter()
        .filter_map(|s| match s {
            Segment::Cite {
                label,
                valid: false,
                ..
            } => Some(label.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(invalid, ["[9]", "[7]", "[8]"]);
}

#[test]
fn mixed_marker_keeps_its_valid_refs_in_its_own_form() {
    let i = input(
        "Claim A [1, 9]. Claim B 【2, 8†source】. Claim C [Sources: 1, 7].",
        sources(2),
    );
    let report = run(&i);
    assert_eq!(
        report.cleaned_answer,
        "Claim A [1]. Claim B 【2†source】. Claim C [Sources: 1]."
    );
}

#[test]
fn renumber_relabels_sources_by_first_use() {
    let i = input("First [3]. Then [1][3]. Finally [2, 3].", sources(3));
    let report = run_with(
        &i,
        Options {
            renumber: true,
            ..Options::default()
        },
    );
    assert_eq!(
        report.cleaned_answer,
        "First [1]. Then [2][1]. Finally [3, 1]."
    );
    let chips: Vec<(String, Option<u32>)> = report
        .segments
        .iter()
        .filter_map(|s| match s {
            Segment::Cite {
                refs, source_index, ..
            } => Some((refs.join(","), *source_index)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chips[0],
        ("1".to_string(), Some(3)),
        "chip shows the new label, points at original source 3"
    );
}

#[test]
fn segments_rebuild_the_cleaned_answer_and_carry_source_details() {
    let i = input("Water boils [1]. Ice melts [2][5].", sources(2));
    let report = run(&i);
    let rebuilt: String = report
        .segments
        .iter()
        .map(|s| match s {
            Segment::Text { text } => text.as_str(),
            Segment::Cite { label, .. } => label.as_str(),
        })
        .collect();
    assert_eq!(rebuilt, report.cleaned_answer);
    let Segment::Cite {
        title, url, valid, ..
    } = &report.segments[1]
    else {
        panic!("chip second")
    };
    assert_eq!(
        (title.as_deref(), url.as_deref(), *valid),
        (Some("Doc 1"), Some("https://example.org/doc-1"), true)
    );
}

#[test]
fn quote_found_reports_exact_match_and_source_span() {
    let mut i = input(
        "Paris is the capital [1].",
        vec![source("Atlas", "Facts: Paris is the capital of France.")],
    );
    i.citations = Some(vec![quoted(1.0, "Paris is the capital of France")]);
    let report = run(&i);
    let quote = report.citations[0].quote.unwrap();
    assert_eq!(quote.kind, MatchKind::Exact);
    assert_eq!(quote.span.map(|s| s.start), Some(7));
}

#[test]
fn a_declared_source_cited_twice_in_the_text_is_not_undeclared() {
    let mut i = input(
        "First claim is here [1]. Second claim repeats it [1].",
        sources(1),
    );
    i.citations = Some(vec![DeclaredCitation::label(1.0)]);
    assert_eq!(codes(&run(&i)), Vec::<&str>::new());
}

// ---- claim support (issue 6) ----------------------------------------------------------

fn support_sources() -> Vec<Source> {
    vec![
        source(
            "Eiffel",
            "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris. \
             It was designed by the engineering company of Gustave Eiffel and is made of wrought iron.",
        ),
        source(
            "Berlin",
            "Berlin is the capital and largest city of Germany. The Berlin Wall divided the city from 1961 \
             until it fell in November 1989, leading to German reunification in 1990.",
        ),
    ]
}

/// Both opt-in support checks: the short sources here (under 300 characters) are
/// judged with the threshold for short chunks.
fn with_support() -> Options {
    Options {
        support_threshold: Some(0.5),
        ..misattribution_only()
    }
}

/// `misattributed` alone, at the margin docs/support.md guides to (0.3).
fn misattribution_only() -> Options {
    Options {
        misattribution_margin: Some(0.3),
        ..Options::default()
    }
}

#[test]
fn a_claims_markers_are_not_words_of_the_claim_its_support_reads() {
    // The support of a claim is its sentence's without the markers: "[1]" is no number
    // the passage must hold, "[1][2]" no two, an id no words.
    use citeproof::support::SupportScorer;
    let sources = support_sources();
    let texts: Vec<&str> = sources.iter().filter_map(|s| s.text.as_deref()).collect();
    let sentence = "The Eiffel Tower was completed in 1889 in Paris.";
    let expected = SupportScorer::new(&texts).score_cited(sentence, &[0])[0].1;
    let with_ids: Vec<Source> = (sources.iter().zip(["doc-3", "doc-4"]))
        .map(|(s, id)| Source {
            id: Some(id.into()),
            ..s.clone()
        })
        .collect();
    for (answer, sources) in [
        (
            "The Eiffel Tower was completed in 1889 in Paris [1].",
            sources.clone(),
        ),
        (
            "The Eiffel Tower was completed in 1889 in Paris. [1]",
            sources.clone(),
        ),
        (
            "The Eiffel Tower was completed in 1889 in Paris [1][2].",
            sources.clone(),
        ),
        (
            "The Eiffel Tower was completed in 1889 in Paris [doc-3].",
            with_ids,
        ),
        // A marker written against the next word leaves the words apart.
        (
            "The Eiffel Tower was completed [1]in 1889 in Paris.",
            sources.clone(),
        ),
    ] {
        let cited = input(answer, sources);
        let report = run_with(&cited, with_support());
        assert_eq!(report.citations[0].support, Some(expected), "{answer}");
    }
}

#[test]
fn a_claim_of_function_words_alone_is_judged_by_its_word_pairs_and_never_misattributed() {
    // "How can it be?" has no content word. Cited to the passage that asks it, it is
    // supported (it scored 0 before); cited to one without its words it scores 0, and
    // the other passage, which holds them, is no candidate (nor does the bridge hold
    // any of its short function words, "how", "can", "it", "be"): candidates are found
    // through a claim's content words, so `misattributed` does not fire.
    let sources = vec![
        source(
            "Essay",
            "How can it be, in this century, that a citizen is denied the right to vote?",
        ),
        source(
            "Bridge",
            "The bridge opened in 1932 and carries six lanes of traffic.",
        ),
    ];
    let (own, one, other) = (
        input("How can it be? [1]", sources.clone()),
        input("So how would it be, or was it? [1]", sources.clone()),
        input("How can it be? [2]", sources),
    );
    let own = run_with(&own, with_support());
    // All three of its pairs are there, and no other source is weighed against it: a raw
    // score of 1, lifted above the passages that share nothing else, 1 - e^-3(1 + 0.01),
    // to the report's three decimals.
    let all = own.citations[0].support.expect("scored");
    let raw = 1.0 + citeproof::support::SHARED_NOTHING;
    assert_eq!(all, ((1.0 - (-3.0 * raw).exp()) * 1000.0).round() / 1000.0);
    assert!(codes(&own).is_empty(), "{:?}", codes(&own));
    // One pair of seven ("it be"): still above 0.59, the floor of a claim no other source
    // is weighed against, in a request of two sources.
    let one = run_with(&one, with_support());
    let some = one.citations[0].support.expect("scored");
    assert!(some > 0.59 && some < all, "{some}");
    let other = run_with(&other, with_support());
    assert_eq!(other.citations[0].support, Some(0.0));
    assert_eq!(codes(&other), ["unsupported_claim"]);
}

#[test]
fn support_pairs_hold_a_repeated_sentence_once_per_repetition_with_its_own_sources() {
    let sentence = "The Eiffel Tower was completed in 1889 in Paris";
    let answer = format!("{sentence} [1]. {sentence} [2].");
    let repeated = input(&answer, support_sources());
    let pairs = Validator::new(with_support())
        .unwrap()
        .support_pairs(&repeated)
        .unwrap();
    let text = format!("{sentence}.");
    // Each cites its own source first; the Berlin passage shares none of its words.
    assert_eq!(pairs, vec![(text.clone(), vec![0]), (text, vec![1, 0])]);
}

#[test]
fn claim_support_is_opt_in_and_a_margin_flags_only_the_misattribution() {
    // Cited to the Eiffel passage, backed by the Berlin one.
    let wrong = input(
        "The Berlin Wall fell in November 1989, leading to reunification [1].",
        support_sources(),
    );
    let report = run(&wrong);
    assert_eq!(report.citations[0].support, None, "not scored by default");
    assert_eq!(codes(&report), Vec::<&str>::new());
    let report = run_with(&wrong, misattribution_only());
    assert!(report.citations[0].support.is_some());
    assert_eq!(codes(&report), ["misattributed"]);
    assert_eq!(report.citations[0].quality_score, 1.0);
    // An uncited sentence and a weakly supported claim need `support_threshold`.
    let right = input(
        "The Berlin Wall fell in 1989 [2]. Paris has many bakeries and cafes [1].",
        support_sources(),
    );
    assert_eq!(
        codes(&run_with(&right, misattribution_only())),
        Vec::<&str>::new()
    );
}

#[test]
fn a_source_the_same_claim_also_cites_is_no_misattribution() {
    let i = input(
        "The Berlin Wall fell in November 1989, leading to reunification [1] [2].",
        support_sources(),
    );
    let report = run_with(&i, misattribution_only());
    assert!(report.citations.iter().all(|c| c.support.is_some()));
    assert_eq!(codes(&report), Vec::<&str>::new());
}

#[test]
fn a_claim_that_negates_scores_less_cited_to_a_passage_where_nothing_negates() {
    // The two passages share every term and pair with the claim, and only the
    // negation tells them apart: Japanese writes it in hiragana (ない, the past なかった),
    // letters that are neither terms nor in word pairs; the German passage that negates
    // says "nie" where the claim says "nicht", words the other passage lacks too (and so
    // does the Swahili one).
    for (answer, says, denies) in [
        (
            "男性は帽子をかぶっていない[1]。",
            "男性は帽子をかぶっている。",
            "男性は帽子をかぶっていない。",
        ),
        (
            "男性は帽子をかぶっていなかった[1]。",
            "男性は帽子をかぶっていた。",
            "男性は帽子をかぶっていなかった。",
        ),
        (
            "Der Zug fuhr nicht pünktlich ab [1].",
            "Der Zug fuhr pünktlich ab.",
            "Der Zug fuhr nie pünktlich ab.",
        ),
        // Swahili's "there is no" against its "no" (Urdu's نہیں, which has no other
        // form, by the scorer's constants below).
        (
            "Hakuna treni leo [1].",
            "Kuna treni leo.",
            "Hapana, treni leo.",
        ),
    ] {
        let support = |passage: &str| {
            let i = input(answer, vec![source("Caption", passage)]);
            let report = run_with(&i, misattribution_only());
            report.citations[0].support.unwrap()
        };
        let (says, denies) = (support(says), support(denies));
        assert!(says < denies, "{answer}: {says} {denies}");
    }
}

#[test]
fn an_urdu_claim_that_negates_scores_less_against_a_passage_where_nothing_negates() {
    // Urdu has one negation cue, نہیں: a passage that negates shares it with the claim,
    // so the factor is told apart by the scorer's constants, not by a second passage.
    use citeproof::support::{SupportParams, SupportScorer};
    let passage = ["ٹرین وقت پر پہنچی۔"];
    let claim = "ٹرین وقت پر نہیں پہنچی۔";
    let shipped = SupportScorer::new(&passage).scores(claim)[0];
    let params = SupportParams {
        unmatched_negation: 1.0,
        ..SupportParams::default()
    };
    let unfactored = SupportScorer::new(&passage)
        .with_params(params)
        .unwrap()
        .scores(claim)[0];
    assert!(shipped < unfactored, "{shipped} {unfactored}");
}

#[test]
fn korean_particles_and_endings_weigh_less_than_the_claims_other_syllables() {
    // "The student read a book": 학 생 책 읽 carry the meaning, 이 을 었 다 are grammar
    // (Korean is read a syllable a word). A passage holding three of the first scores
    // above one holding all four of the second.
    let answer = "학생이 책을 읽었다 [1].";
    let support = |passage: &str| {
        let i = input(answer, vec![source("Passage", passage)]);
        let report = run_with(&i, misattribution_only());
        report.citations[0].support.unwrap()
    };
    let (content, grammar) = (support("학생 책"), support("이것을 먹었다"));
    assert!(content > grammar, "{content} {grammar}");
}

#[test]
fn a_claim_its_source_backs_scores_high_and_passes() {
    let i = input(
        "The Eiffel Tower was completed in 1889 for the World's Fair in Paris [1].",
        support_sources(),
    );
    let report = run_with(&i, with_support());
    let support = report.citations[0].support.unwrap();
    assert!(support >= 0.5, "{support}");
    assert_eq!(codes(&report), Vec::<&str>::new());
    assert_eq!(report.status, Status::Pass);
}

#[test]
fn a_claim_cited_to_the_wrong_source_is_unsupported_and_misattributed_naming_the_right_one() {
    let i = input(
        "The Berlin Wall fell in November 1989, leading to reunification [1].",
        support_sources(),
    );
    let report = run_with(&i, with_support());
    assert_eq!(codes(&report), ["unsupported_claim", "misattributed"]);
    assert!(
        report.findings[1].message.starts_with("did you mean [2]?"),
        "{}",
        report.findings[1].message
    );
    assert_eq!(report.citations[0].quality_score, 0.7);
    assert_eq!(report.status, Status::Warn);
}

#[test]
fn a_factual_sentence_without_a_marker_is_an_uncited_claim() {
    let i = input(
        "The Eiffel Tower was completed in 1889 in Paris [1]. Berlin is the largest city of Germany.",
        support_sources(),
    );
    let report = run_with(&i, with_support());
    assert_eq!(codes(&report), ["uncited_claim"]);
    assert_eq!(
        report.findings[0].span.map(|s| &i.answer[s.range()]),
        Some("Berlin is the largest city of Germany.")
    );
}

#[test]
fn a_paragraph_final_marker_covers_the_paragraph_unless_turned_off() {
    let i = input(
        "Water boils at sea level. It boils lower on mountains. [1]\n\nIce floats on water.",
        sources(1),
    );
    assert_eq!(run(&i).summary.citation_coverage, 0.667);
    let strict = run_with(
        &i,
        Options {
            paragraph_citations: false,
            ..Options::default()
        },
    );
    assert_eq!(strict.summary.citation_coverage, 0.333);
    let uncited = run_with(
        &i,
        Options {
            paragraph_citations: false,
            support_threshold: Some(0.5),
            ..Options::default()
        },
    );
    let texts: Vec<&str> = uncited
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::UncitedClaim)
        .map(|f| &i.answer[f.span.unwrap().range()])
        .collect();
    assert_eq!(texts, ["Water boils at sea level.", "Ice floats on water."]);
}

#[test]
fn an_options_file_turns_the_misattribution_check_on_with_a_margin_and_off_with_false() {
    let read = |json: &str| serde_json::from_str::<Options>(json);
    assert_eq!(read("{}").unwrap().misattribution_margin, None);
    assert_eq!(
        read(r#"{"misattributionMargin": 0.2}"#)
            .unwrap()
            .misattribution_margin,
        Some(0.2)
    );
    assert_eq!(
        read(r#"{"misattributionMargin": false}"#)
            .unwrap()
            .misattribution_margin,
        None
    );
    let error = read(r#"{"misattributionMargin": true}"#).unwrap_err();
    assert!(error.to_string().contains("or false"), "{error}");
}
