//! One named case per marker syntax and per exclusion of docs/architecture.md §3.
#![cfg(not(target_arch = "wasm32"))]

use citeproof::model::{MarkerKind, Refs};
use citeproof::parse::Parser;

/// The markers of `text` as `(raw, refs)` pairs, after checking every span slices to raw.
fn found(text: &str) -> Vec<(&str, Refs<'_>)> {
    found_with_ids(text, &[])
}

fn found_with_ids<'t>(text: &'t str, ids: &[&str]) -> Vec<(&'t str, Refs<'t>)> {
    let parser = Parser::new();
    parser
        .find_iter(text, ids)
        .map(|m| {
            assert_eq!(&text[m.span.range()], m.raw, "span of {:?}", m.raw);
            (m.raw, m.refs)
        })
        .collect()
}

fn kinds(text: &str) -> Vec<MarkerKind> {
    Parser::new().find_iter(text, &[]).map(|m| m.kind).collect()
}

fn n(refs: &[u32]) -> Refs<'static> {
    Refs::Numbers(refs.into())
}

fn none(text: &str) {
    assert_eq!(found(text), vec![], "expected no marker in {text:?}");
}

// ---- numeric forms -------------------------------------------------------------------

#[test]
fn single_number_in_brackets() {
    assert_eq!(found("Paris is the capital [1]."), vec![("[1]", n(&[1]))]);
}

#[test]
fn comma_list_with_and_without_space() {
    assert_eq!(
        found("a [1, 2] b [1,2]"),
        vec![("[1, 2]", n(&[1, 2])), ("[1,2]", n(&[1, 2]))]
    );
}

#[test]
fn fullwidth_comma_and_semicolon_lists() {
    assert_eq!(
        found("a [1，2] b [1; 2]"),
        vec![("[1，2]", n(&[1, 2])), ("[1; 2]", n(&[1, 2]))]
    );
}

#[test]
fn hyphen_and_en_dash_ranges_expand() {
    assert_eq!(
        found("a [1-3] b [2–4]"),
        vec![("[1-3]", n(&[1, 2, 3])), ("[2–4]", n(&[2, 3, 4]))]
    );
}

#[test]
fn adjacent_markers_are_separate() {
    assert_eq!(
        found("fact[1][2]."),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
}

#[test]
fn refs_keep_written_order_and_duplicates() {
    assert_eq!(found("x [3, 1, 3]"), vec![("[3, 1, 3]", n(&[3, 1, 3]))]);
}

#[test]
fn footnote_forms() {
    assert_eq!(
        found("a[^1] b[^2^]"),
        vec![("[^1]", n(&[1])), ("[^2^]", n(&[2]))]
    );
    assert_eq!(kinds("a[^1] b[^2^]"), vec![MarkerKind::Footnote; 2]);
}

#[test]
fn cjk_lenticular_forms() {
    assert_eq!(
        found("东京【1】和【3†source】"),
        vec![("【1】", n(&[1])), ("【3†source】", n(&[3]))]
    );
    assert_eq!(kinds("【1】"), vec![MarkerKind::Cjk]);
}

#[test]
fn provider_lenticular_form_has_refs_left_to_the_adapter() {
    let markers = found("Answer 【4:0†source】.");
    assert_eq!(
        markers,
        vec![("【4:0†source】", Refs::Numbers(vec![].into()))]
    );
    assert_eq!(kinds("【4:0†source】"), vec![MarkerKind::Provider]);
}

#[test]
fn chatgpt_browsing_lenticular_form_is_a_provider_marker_not_source_85() {
    // `【85†L261-269】`: the browsing tool's cursor 85 and lines 261–269 of that page.
    for text in ["【85†L261-269】", "【7†L8-L13】", "【12†L4】"] {
        assert_eq!(
            found(text),
            vec![(text, Refs::Numbers(vec![].into()))],
            "{text}"
        );
        assert_eq!(kinds(text), vec![MarkerKind::Provider], "{text}");
    }
    // Anything else after the dagger keeps the cjk reading.
    assert_eq!(found("【3†L】"), vec![("【3†L】", n(&[3]))]);
}

#[test]
fn fullwidth_square_brackets() {
    assert_eq!(found("文本［3］。"), vec![("［3］", n(&[3]))]);
}

#[test]
fn labeled_forms_doc_source_ref_citation() {
    let text = "a [doc1] b [Source 3] c [Sources: 2, 5] d [ref 1] e [citation:1] f [cite: 1] \
                g [web:1][web:2]";
    assert_eq!(
        found(text),
        vec![
            ("[doc1]", n(&[1])),
            ("[Source 3]", n(&[3])),
            ("[Sources: 2, 5]", n(&[2, 5])),
            ("[ref 1]", n(&[1])),
            ("[citation:1]", n(&[1])),
            ("[cite: 1]", n(&[1])),
            ("[web:1]", n(&[1])),
            ("[web:2]", n(&[2])),
        ]
    );
    assert!(kinds(text).iter().all(|k| *k == MarkerKind::Labeled));
}

#[test]
fn numeric_link_is_one_marker_spanning_the_link() {
    let text = "see [1](https://a.example/x) and [[2]](https://b.example/(y))";
    assert_eq!(
        found(text),
        vec![
            ("[1](https://a.example/x)", n(&[1])),
            ("[[2]](https://b.example/(y))", n(&[2]))
        ]
    );
    assert_eq!(kinds(text), vec![MarkerKind::Link; 2]);
}

#[test]
fn superscript_marker_span_is_the_bracket_only() {
    assert_eq!(found("claim<sup>[1]</sup>"), vec![("[1]", n(&[1]))]);
}

#[test]
fn parenthetical_source_forms() {
    let text = "claim (Source 3) and (Sources 2, 5) and (source: 4)";
    assert_eq!(
        found(text),
        vec![
            ("(Source 3)", n(&[3])),
            ("(Sources 2, 5)", n(&[2, 5])),
            ("(source: 4)", n(&[4]))
        ]
    );
}

#[test]
fn parenthetical_without_the_word_source_is_text() {
    none("in (2019) and (see 3)");
}

#[test]
fn markers_glued_to_words_are_markers() {
    assert_eq!(
        found("values[1]. in 2017[50] (PLS)[1] Great![2]"),
        vec![
            ("[1]", n(&[1])),
            ("[50]", n(&[50])),
            ("[1]", n(&[1])),
            ("[2]", n(&[2]))
        ]
    );
}

#[test]
fn zero_and_large_labels_are_markers() {
    assert_eq!(
        found("x [0] y [99]"),
        vec![("[0]", n(&[0])), ("[99]", n(&[99]))]
    );
}

#[test]
fn section_reference_spec_000() {
    let text = "As covered in Chapter 3, Section 2 and Chapter intro, Section 10.";
    let markers = found(text);
    assert_eq!(markers.len(), 2);
    assert_eq!(
        markers[0],
        (
            "Chapter 3, Section 2",
            Refs::Section {
                chapter: "3",
                section: 2
            }
        )
    );
    assert_eq!(
        markers[1].1,
        Refs::Section {
            chapter: "intro",
            section: 10
        }
    );
}

#[test]
fn section_reference_needs_the_comma_and_both_words() {
    none("Chapter 3 Section 2, Chapter 3, section 2, SubChapter 3, Section 2");
}

#[test]
fn chunk_prefixed_named_id() {
    assert_eq!(
        found("fact [chunk:abc123]."),
        vec![("[chunk:abc123]", Refs::Ids(vec!["abc123"]))]
    );
}

#[test]
fn bracketed_id_is_a_marker_only_when_it_names_a_source() {
    let text = "fact [abc123] and [other].";
    assert_eq!(
        found_with_ids(text, &["abc123"]),
        vec![("[abc123]", Refs::Ids(vec!["abc123"]))]
    );
    assert_eq!(found(text), vec![]);
}

#[test]
fn custom_pattern_adds_a_syntax() {
    let parser = Parser::with_patterns(&[r"\{\{cite:(?P<refs>[^}]+)\}\}"]).unwrap();
    let text = "a {{cite:2, 5}} b {{cite:intro}} `{{cite:9}}`";
    let markers: Vec<_> = parser.find_iter(text, &[]).collect();
    assert_eq!(markers.len(), 2, "the pattern inside code is excluded too");
    assert_eq!(markers[0].refs, n(&[2, 5]));
    assert_eq!(markers[1].refs, Refs::Ids(vec!["intro"]));
    assert_eq!(markers[1].kind, MarkerKind::Custom);
}

#[test]
fn custom_pattern_without_refs_group_is_an_invalid_option() {
    let err = Parser::with_patterns(&["ok", r"\d+"]).unwrap_err();
    assert_eq!(err.code, citeproof::ErrorCode::InvalidOption);
    assert_eq!(err.path, "markerPatterns[0]");
}

#[test]
fn custom_pattern_matching_the_empty_string_never_loops_and_yields_to_an_earlier_marker() {
    let parser = Parser::with_patterns(&[r"(?P<refs>\d*)"]).unwrap();
    let markers: Vec<_> = parser.find_iter("a 12 b [3]", &[]).collect();
    assert_eq!(
        markers.iter().map(|m| m.raw).collect::<Vec<_>>(),
        vec!["12", "[3]"]
    );
}

// ---- exclusions ----------------------------------------------------------------------

#[test]
fn fenced_code_is_not_scanned() {
    none("```python\nx = a[1]\n```\n");
    none("~~~\nb[2]\n~~~");
}

#[test]
fn unclosed_fence_runs_to_the_end() {
    none("text\n```\nx[1]\nmore [2]");
}

#[test]
fn text_after_a_closed_fence_is_scanned() {
    assert_eq!(found("```\nx[1]\n```\nafter [2]"), vec![("[2]", n(&[2]))]);
}

#[test]
fn fence_inside_a_list_item_is_code() {
    none("1. Step:\n    ```js\n    arr[1]\n    ```\n");
}

#[test]
fn inline_code_span_is_not_scanned() {
    assert_eq!(found("use `a[1]` here [2]"), vec![("[2]", n(&[2]))]);
    none("``a ` b[1]``");
}

#[test]
fn unmatched_backtick_is_literal() {
    assert_eq!(found("a ` b [1]"), vec![("[1]", n(&[1]))]);
}

#[test]
fn code_span_does_not_cross_a_blank_line() {
    assert_eq!(found("a `b\n\nc [1] d`"), vec![("[1]", n(&[1]))]);
}

#[test]
fn html_code_and_pre_are_not_scanned() {
    none("<code>a[1]</code> <pre class=\"x\">b[2]</pre> <CODE>c[3]</CODE>");
}

#[test]
fn unclosed_html_code_is_text() {
    assert_eq!(found("<code>a[1]"), vec![("[1]", n(&[1]))]);
}

#[test]
fn html_comment_is_not_scanned() {
    assert_eq!(found("<!-- [1] --> x [2]"), vec![("[2]", n(&[2]))]);
}

#[test]
fn markdown_link_text_and_destination_are_not_markers() {
    none("[the paper](https://x.example/a[1]) and [text](/p?q=[2])");
}

#[test]
fn image_is_not_a_marker() {
    none("![1](fig.png) ![chart [2]](c.png)");
}

#[test]
fn reference_label_with_definition_after_is_not_a_marker() {
    assert_eq!(
        found("see [the study][1].\n\n[1]: https://x.example"),
        vec![]
    );
}

#[test]
fn reference_label_with_definition_before_is_not_a_marker() {
    none("[2]: https://x.example\n\nsee [the study][2].");
}

#[test]
fn reference_label_without_definition_is_a_marker() {
    assert_eq!(found("see [the study][1]."), vec![("[1]", n(&[1]))]);
}

#[test]
fn adjacent_numbers_stay_two_markers_even_with_definitions() {
    let text = "fact [1][2].\n\n[1]: https://a.example\n[2]: https://b.example";
    assert_eq!(found(text), vec![("[1]", n(&[1])), ("[2]", n(&[2]))]);
}

#[test]
fn footnote_then_defined_label_is_one_marker() {
    let text = "fact [^1^][1].\n\n[1]: https://a.example";
    assert_eq!(found(text), vec![("[^1^]", n(&[1]))]);
}

#[test]
fn definition_lines_are_not_markers() {
    none("[1]: https://a.example\n[^2]: A footnote text [3].\n  [4]: <https://b.example>");
}

#[test]
fn definition_inside_fenced_code_does_not_define() {
    assert_eq!(
        found("see [it][1]\n```\n[1]: x\n```"),
        vec![("[1]", n(&[1]))]
    );
}

#[test]
fn task_list_boxes_are_not_markers() {
    let ids = ["x", " "];
    assert_eq!(
        found_with_ids("- [x] done\n* [ ] todo\n1. [X] ok", &ids),
        vec![]
    );
}

#[test]
fn escaped_brackets_are_not_markers() {
    none(r"literal \[1\] and \[2]");
    assert_eq!(found(r"a backslash \\[3]"), vec![("[3]", n(&[3]))]);
}

#[test]
fn bare_url_swallows_brackets_glued_to_it() {
    none("see https://x.example/a[1] and www.example.org/b[2] and <https://y.example/[3]>");
}

#[test]
fn url_detection_is_not_fooled_by_words_or_glued_schemes() {
    assert_eq!(
        found("flow[1] www[2] xhttps://a.b/[3]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2])), ("[3]", n(&[3]))]
    );
    none("(see HTTPS://A.example/x[1]) and (https://b.example/(Source 2))");
}

#[test]
fn a_long_run_of_glued_markers_finds_every_one() {
    let text = "[1]".repeat(100_000);
    assert_eq!(Parser::new().find_iter(&text, &[]).count(), 100_000);
}

#[test]
fn text_after_a_bare_url_is_scanned() {
    assert_eq!(found("see https://x.example/a [1]"), vec![("[1]", n(&[1]))]);
}

#[test]
fn decimal_alphanumeric_and_negative_labels_are_not_markers() {
    none("a [1.5] b [1a] c [-1] d [v2]");
}

#[test]
fn reversed_range_is_not_a_marker() {
    none("a [3-1]");
}

#[test]
fn link_text_holding_a_marker_is_still_a_link() {
    none("[a claim [1]](https://x.example)");
}

#[test]
fn nested_non_link_brackets_leave_the_inner_marker() {
    assert_eq!(found("[see [1]]"), vec![("[1]", n(&[1]))]);
}

#[test]
fn crlf_line_endings_keep_fences_and_definitions() {
    none("```\r\nx[1]\r\n```\r\n[2]: https://a.example\r\n");
    assert_eq!(
        found("a [1]\r\nb [2]\r\n"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
}

#[test]
fn blockquoted_fence_is_code() {
    none("> ```\n> x[1]\n> ```");
}

#[test]
fn kind_names_match_their_serde_spelling_and_all_lists_every_kind_in_order() {
    for (i, kind) in citeproof::MarkerKind::ALL.iter().enumerate() {
        assert_eq!(*kind as usize, i);
        let serde_name = serde_json::to_string(kind).unwrap();
        assert_eq!(format!("\"{}\"", kind.name()), serde_name);
    }
}

// ---- what follows a link, an autolink or markup (issue 21) ----------------------------

#[test]
fn marker_right_after_a_link_with_a_url_destination() {
    assert_eq!(
        found("See [the guide](https://a.example/x)[2]."),
        vec![("[2]", n(&[2]))]
    );
}

#[test]
fn second_link_marker_after_a_first_one() {
    assert_eq!(
        kinds("[[1]](https://a.example)[[2]](https://b.example)"),
        vec![MarkerKind::Link, MarkerKind::Link]
    );
}

#[test]
fn marker_right_after_an_autolink() {
    assert_eq!(found("<https://a.example/r>[3]"), vec![("[3]", n(&[3]))]);
    assert_eq!(found("<me@a.example>[4]"), vec![("[4]", n(&[4]))]);
}

#[test]
fn marker_right_after_an_image_or_a_code_span_holding_a_url() {
    assert_eq!(
        found("![chart](https://a.example/c.png)[1] `https://x`[2]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
}

#[test]
fn bare_url_swallows_a_bracket_glued_to_its_path_but_not_to_its_host() {
    // As GFM autolinks (markdown-it's linkify) read them: the path takes the bracket in,
    // a host ends before it.
    assert_eq!(
        found("see https://a.example/x[1] and www.b.example[2], https://c.example[3]"),
        vec![("[2]", n(&[2])), ("[3]", n(&[3]))]
    );
}

// ---- markup is never shown as text (issue 21, docs/markers.md "Markup") ---------------

#[test]
fn tag_internals_and_attribute_values_are_not_markers() {
    assert_eq!(
        found("<a href=\"[7]\" title='[8]' data-x=[9]>text [1]</a>"),
        vec![("[1]", n(&[1]))]
    );
}

#[test]
fn script_and_style_content_is_not_a_marker() {
    assert_eq!(
        found("<script>x = a[1];</script> <STYLE>p[2] {}</STYLE> ok [3]"),
        vec![("[3]", n(&[3]))]
    );
}

#[test]
fn comments_instructions_declarations_and_cdata_are_not_markers() {
    assert_eq!(
        found(
            "<!--> [1] <!---> [2] <!-- [3] --> <?php a[4] ?> <!DOCTYPE x[5]> <![CDATA[ [6] ]]> [7]"
        ),
        vec![("[1]", n(&[1])), ("[2]", n(&[2])), ("[7]", n(&[7]))]
    );
}

#[test]
fn a_lone_angle_bracket_is_text() {
    assert_eq!(
        found("a < b [1] and <3 [2] and <a href=\"x [3]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2])), ("[3]", n(&[3]))]
    );
}

#[test]
fn a_run_of_lenticular_openers_is_text_and_the_marker_after_it_is_found() {
    let text = format!("{}【1】", "【".repeat(1000));
    assert_eq!(found(&text), vec![("【1】", n(&[1]))]);
}

#[test]
fn labeled_word_may_end_in_an_abbreviating_period() {
    assert_eq!(
        found("Claim [Ref. 4], more [Refs. 2, 5]."),
        vec![("[Ref. 4]", n(&[4])), ("[Refs. 2, 5]", n(&[2, 5]))]
    );
    none("Claim [Ref.. 4] [e.g. 4]");
}

#[test]
fn a_known_source_id_wins_over_the_labeled_reading() {
    assert_eq!(
        found_with_ids("[docs2] and [doc2]", &["docs2"]),
        vec![("[docs2]", Refs::Ids(vec!["docs2"])), ("[doc2]", n(&[2]))]
    );
}

// ---- OpenAI's private-use-area citation tokens (issue 21) -----------------------------

#[test]
fn private_use_tokens_name_their_source_ids() {
    let text = "Rain falls.\u{E200}cite\u{E202}turn0search0\u{E201} Snow.\u{E200}cite\u{E202}turn0file1\u{E202}L8-L13\u{E201} Both\u{E200}cite\u{E202}turn0search0\u{E202}turn1news2\u{E201}";
    assert_eq!(
        found(text),
        vec![
            (
                "\u{E200}cite\u{E202}turn0search0\u{E201}",
                Refs::Ids(vec!["turn0search0"])
            ),
            (
                "\u{E200}cite\u{E202}turn0file1\u{E202}L8-L13\u{E201}",
                Refs::Ids(vec!["turn0file1"])
            ),
            (
                "\u{E200}cite\u{E202}turn0search0\u{E202}turn1news2\u{E201}",
                Refs::Ids(vec!["turn0search0", "turn1news2"])
            ),
        ]
    );
    assert_eq!(kinds(text), vec![MarkerKind::PrivateUse; 3]);
}

#[test]
fn private_use_tokens_of_other_families_or_malformed_are_not_markers() {
    none(
        "a\u{E200}navlist\u{E202}turn0search0\u{E201} b\u{E200}cite\u{E201} c\u{E200}cite\u{E202}has space\u{E201} d\u{E200}cite\u{E202}x",
    );
    none("`\u{E200}cite\u{E202}turn0search0\u{E201}`");
}

#[test]
fn private_use_token_glued_to_a_url_is_still_a_marker() {
    assert_eq!(
        kinds("see https://a.example/x(y)\u{E200}cite\u{E202}turn0search3\u{E201}"),
        vec![MarkerKind::PrivateUse]
    );
}

// ---- fences and definitions inside list items (issue 21, class 2) ---------------------

#[test]
fn fence_opened_on_a_list_item_line_is_code() {
    let text = "1. Run:\n2. ```python\n   data[1] = 2\n\n   print(data[2])\n   ```\n3. Done [3].";
    assert_eq!(found(text), vec![("[3]", n(&[3]))]);
}

#[test]
fn fence_opened_on_a_nested_or_quoted_list_item_line_is_code() {
    none("- 1. ```\n     a[1]\n     ```\n");
    none("> - ~~~\n>   a[2]\n>   ~~~\n");
}

#[test]
fn definition_inside_a_list_item_defines_its_label() {
    none("- [1]: https://a.example\n\nSee [the study][1].");
}

#[test]
fn list_markers_without_a_fence_leave_the_line_as_prose() {
    assert_eq!(
        found("1. Step [1]\n- item [2]\n2024. A year [3]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2])), ("[3]", n(&[3]))]
    );
}

// ---- links, HTML blocks and paragraph ends as CommonMark reads them (issue 21) -------
// Each case was a disagreement with commonmark.js in tests/reference/markdown.mjs.

#[test]
fn text_of_a_full_reference_link_is_not_a_marker() {
    none("[see [3] here][ref]\n\n[ref]: https://a.example");
    none("![chart [4]][ref]\n\n[ref]: https://a.example/c.png");
    assert_eq!(
        found("[see [3] here][nodef]"),
        vec![("[3]", n(&[3]))],
        "an undefined label makes no link"
    );
}

#[test]
fn a_marker_whose_label_is_defined_elsewhere_is_one_link_marker() {
    assert_eq!(
        kinds("[7][ref]\n\n[ref]: https://a.example"),
        vec![MarkerKind::Link]
    );
}

#[test]
fn link_destinations_in_angle_brackets_and_titles_in_parentheses() {
    none("[a [1]](<my url> (title)) [b [2]](/u\n  \"t\")");
}

#[test]
fn code_spans_autolinks_and_html_bind_tighter_than_link_brackets() {
    assert_eq!(
        found("[[1]not a `link](/foo`) [x <b a=\"](/y)\">[2]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
}

#[test]
fn a_link_inside_link_text_makes_the_outer_one_text() {
    assert_eq!(found("[[1] foo [bar](/uri)](/uri)"), vec![("[1]", n(&[1]))]);
}

#[test]
fn definitions_spread_over_lines_are_not_prose() {
    none("[foo]:\n/url-[1]\n'the [2] title'\n\n[foo]");
}

#[test]
fn html_blocks_hide_their_markup_and_show_their_text() {
    assert_eq!(
        found("<div class=\"[1]\">\ntext [2] <span title='[3]'>x</span>\n</div>\n\nafter [4]"),
        vec![("[2]", n(&[2])), ("[4]", n(&[4]))]
    );
    none("<DIV [5]CLASS=\"foo\">\n</div>");
}

#[test]
fn a_code_span_ends_with_its_paragraph() {
    assert_eq!(
        found("`a [1]\n----\n` [2]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
    assert_eq!(
        found("- `one [1]\n- two` [2]"),
        vec![("[1]", n(&[1])), ("[2]", n(&[2]))]
    );
}

#[test]
fn a_fence_ends_with_its_block_quote_or_list_item() {
    assert_eq!(found("> ```\n> a[1]\n\nb [2]"), vec![("[2]", n(&[2]))]);
    assert_eq!(
        found("- a\n- ```\n  b[1]\n\nc [2]\n  ```"),
        vec![("[2]", n(&[2]))]
    );
}

// ---- inline constructs end with their paragraph (CommonMark §6; verdicts from
// markdown-it and commonmark.js, the `boundaries` set of tests/reference/markdown.mjs) --

#[test]
fn raw_html_whose_closer_is_past_the_paragraph_is_text() {
    for text in [
        "x <!a [1]\n\n>",
        "x <!a [1]\n```\n>",
        "x <?a [1]\n\n?>",
        "x <!-- [1]\n\n-->",
        "x <![CDATA[ [1]\n# h\n]]>",
    ] {
        assert_eq!(found(text), vec![("[1]", n(&[1]))], "{text:?}");
    }
    none("x <!a [1]\ny >"); // one paragraph: a declaration
    none("x <!-- [1]\ny -->");
}

#[test]
fn code_element_content_is_code_only_up_to_an_end_tag_in_its_paragraph() {
    none("a <code> [1] b\nc </code> d");
    assert_eq!(
        found("a <code> [1] b\n\nc </code> d"),
        vec![("[1]", n(&[1]))]
    );
    assert_eq!(
        found("a <code> b\n```\n</code> [1]\n"),
        vec![],
        "the fence is code"
    );
    none("a <script> [1]\n\n</script>"); // a browser reads script to its end tag
}

#[test]
fn link_text_goes_on_past_an_unclosed_backtick_run() {
    none("a [x [1]```\nd ](u) e");
    none("a [x b\n[1]``\nd ](u) e");
}

#[test]
fn brackets_in_an_html_block_are_markers_never_links() {
    assert_eq!(found("a\n<div>\nd [1](u) e"), vec![("[1]", n(&[1]))]);
}
