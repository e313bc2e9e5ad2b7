//! Provider adapters against fixtures written from each provider's documented response
//! (tests/fixtures/providers/make.py; non-ASCII answers so a wrong unit would show):
//! every declared citation's span slices to the text the fixture expects.

use citeproof::model::Options;
use citeproof::model::{FindingCode, Input, MatchKind, Report, Source};
use citeproof::providers::{Json, Provider, adapt, detect, from_any};
use citeproof::validate::Validator;

fn validate(input: &Input) -> Result<Report<'_>, citeproof::Error> {
    Validator::new(Options::default())
        .expect("default options")
        .validate(input)
}

fn fixture(name: &str) -> (Json, serde_json::Value) {
    let path = format!(
        "{}/tests/fixtures/providers/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    (
        Json::parse(&text).expect("fixture parses"),
        serde_json::from_str(&text).expect("fixture is JSON"),
    )
}

fn given_sources(raw: &serde_json::Value) -> Option<Vec<Source>> {
    raw.get("_sources")
        .map(|s| serde_json::from_value(s.clone()).expect("sources"))
}

/// The text each declared citation's span covers, in declaration order.
fn declared_texts(input: &Input, report: &Report) -> Vec<Option<String>> {
    let count = input.citations.as_ref().map_or(0, Vec::len);
    (0..count)
        .map(|d| {
            let citation = report.citations.iter().find(|c| c.declared == Some(d))?;
            Some(input.answer[citation.span?.range()].to_string())
        })
        .collect()
}

fn expected(raw: &serde_json::Value) -> Vec<Option<String>> {
    raw["_expect"]
        .as_array()
        .expect("_expect")
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

fn check(name: &str, provider: Provider) -> (Input, Report<'static>) {
    let (json, raw) = fixture(name);
    assert_eq!(detect(&json), Some(provider), "{name}: detected provider");
    let input = adapt(provider, &json, given_sources(&raw)).expect("adapts");
    let input: &'static Input = Box::leak(Box::new(input));
    let report = validate(input).expect("validates");
    if provider != Provider::Perplexity {
        assert_eq!(declared_texts(input, &report), expected(&raw), "{name}");
    }
    let warnings = input
        .warnings
        .iter()
        .filter(|w| w.code == FindingCode::OffsetMismatch)
        .count();
    let expected_warnings = raw["_warnings"].as_u64().unwrap_or(0) as usize;
    assert_eq!(
        warnings, expected_warnings,
        "{name}: offset_mismatch warnings"
    );
    let unknown = input
        .warnings
        .iter()
        .find(|w| w.code == FindingCode::UnknownContent);
    assert_eq!(unknown, None, "{name}: every part is of a documented type");
    (input.clone(), report)
}

#[test]
fn anthropic_documents_cite_their_blocks_and_quotes_are_found() {
    let (input, report) = check("anthropic-documents.json", Provider::Anthropic);
    assert_eq!(
        input.answer,
        "Selon le document, l'herbe est verte 🌿 et 東京の空は青い."
    );
    assert_eq!(input.response_id.as_deref(), Some("msg_01"));
    // The caller's sources carry the documents' text: each cited_text is located.
    assert!(report.citations.iter().all(|c| c.valid), "{report:?}");
    assert!(report.citations.iter().all(|c| c.quote.is_some()));
}

#[test]
fn anthropic_without_sources_builds_them_from_the_citations() {
    let (json, _) = fixture("anthropic-documents.json");
    let input = adapt(Provider::Anthropic, &json, None).unwrap();
    let titles: Vec<_> = input.sources.iter().map(|s| s.title.as_deref()).collect();
    assert_eq!(titles, [Some("Jardin"), Some("天気.pdf"), Some("Notes")]);
    // No document text to locate `cited_text` in: the quotes are kept, unverified, and
    // nothing fails (issue 22: the chip card shows what the provider quoted).
    assert!(input.citations.iter().flatten().all(|c| c.quote.is_some()));
    let report = validate(&input).unwrap();
    assert_eq!(report.summary.valid, 3);
    for (citation, declared) in report
        .citations
        .iter()
        .zip(input.citations.iter().flatten())
    {
        assert_eq!(citation.quote.map(|q| q.kind), Some(MatchKind::Unverified));
        let stated = declared.quote.as_ref().and_then(|q| q.valid());
        assert_eq!(citation.quote_text.as_ref(), stated);
    }
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn anthropic_web_search_results_are_the_sources() {
    let (input, report) = check("anthropic-web-search.json", Provider::Anthropic);
    let urls: Vec<_> = input
        .sources
        .iter()
        .map(|s| s.url.as_deref().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            "https://de.wikipedia.org/wiki/Zugspitze",
            "https://el.wikipedia.org/wiki/Όλυμπος"
        ]
    );
    let labels: Vec<_> = report.citations.iter().map(|c| c.source_index).collect();
    assert_eq!(labels, [Some(1), Some(2)]);
}

#[test]
fn anthropic_stream_events_build_the_same_input_as_the_message() {
    let (provider, input) = from_any(&sse_events("anthropic-stream.sse"), None).unwrap();
    assert_eq!(provider, Provider::Anthropic);
    let (_, expect) = fixture("anthropic-stream.expect.json");
    assert_eq!(input.answer, expect["answer"].as_str().unwrap());
    let report = validate(&input).unwrap();
    assert_eq!(declared_texts(&input, &report), expected(&expect));
    assert_eq!(input.sources[0].title.as_deref(), Some("ねこ"));
}

#[test]
fn openai_chat_offsets_are_code_points_and_cover_the_link() {
    let (input, report) = check("openai-chat.json", Provider::OpenAi);
    assert_eq!(input.sources.len(), 2);
    assert_eq!(input.sources[1].title.as_deref(), Some("朝日新聞"));
    assert!(report.citations.iter().all(|c| c.valid));
}

#[test]
fn openai_utf16_offsets_are_recognised_without_a_warning() {
    check("openai-chat-utf16.json", Provider::OpenAi);
}

#[test]
fn openai_responses_annotations_of_every_type() {
    let (input, _) = check("openai-responses.json", Provider::OpenAi);
    let ids: Vec<_> = input.sources.iter().map(|s| s.id.as_deref()).collect();
    assert_eq!(ids, [None, Some("file-abc"), Some("file-xyz")]);
}

#[test]
fn openai_assistants_markers_are_resolved_by_their_annotations() {
    let (_, report) = check("openai-assistants.json", Provider::OpenAi);
    // Each provider marker merged with its annotation: two citations, both valid, no
    // "provider marker" finding left.
    assert_eq!(report.citations.len(), 2);
    assert!(
        report
            .citations
            .iter()
            .all(|c| c.valid && c.marker.is_some()),
        "{:?}",
        report.citations
    );
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn gemini_byte_offsets_per_part() {
    let (input, report) = check("gemini.json", Provider::Gemini);
    assert_eq!(input.model_version.as_deref(), Some("gemini-2.5-flash"));
    // A correct grounded answer passes without a finding.
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.status.name(), "pass");
    assert_eq!(input.sources[1].title.as_deref(), Some("aljazeera.com"));
}

#[test]
fn gemini_offsets_in_the_wrong_unit_are_found_by_their_text_and_warned() {
    let (_, report) = check("gemini-wrong-unit.json", Provider::Gemini);
    let warned = report
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::OffsetMismatch)
        .count();
    assert_eq!(warned, 2, "adapter warnings reach the report");
}

#[test]
fn cohere_code_point_offsets() {
    let (input, _) = check("cohere.json", Provider::Cohere);
    assert_eq!(
        input.sources[1].text.as_deref(),
        Some("月は地球の衛星です。")
    );
}

#[test]
fn perplexity_markers_past_the_list_are_out_of_range() {
    let (input, report) = check("perplexity.json", Provider::Perplexity);
    assert_eq!(input.sources.len(), 3);
    let raw: Vec<_> = report.markers.iter().map(|m| m.raw).collect();
    assert_eq!(raw, ["[1]", "[2]", "[5]"]);
    let invalid: Vec<_> = report
        .citations
        .iter()
        .filter(|c| !c.valid)
        .map(|c| c.label.as_str())
        .collect();
    assert_eq!(invalid, ["5"]);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.code == FindingCode::OutOfRange)
    );
}

#[test]
fn vercel_ai_with_google_grounding_and_ui_messages() {
    let (input, _) = check("vercel-ai-google.json", Provider::VercelAi);
    assert_eq!(input.sources.len(), 1);
    let (input, report) = check("vercel-ai-ui-message.json", Provider::VercelAi);
    assert_eq!(input.answer, "Ça dépend 🤔 du contexte.");
    assert_eq!(input.sources[1].title.as_deref(), Some("Rapport 2025"));
    // No markers and no spans: the sources are declared for the whole answer.
    assert_eq!(report.summary.citation_coverage, 1.0);
}

#[test]
fn caller_sources_are_matched_and_unknown_urls_reported() {
    let (json, _) = fixture("openai-chat.json");
    let sources = vec![Source {
        url: Some("https://www.lemonde.fr/article?utm_source=openai".into()),
        ..Source::default()
    }];
    let input = adapt(Provider::OpenAi, &json, Some(sources)).unwrap();
    assert_eq!(input.sources.len(), 1, "the caller's list is kept as is");
    let report = validate(&input).unwrap();
    let codes: Vec<_> = report.citations.iter().map(|c| c.valid).collect();
    assert_eq!(codes, [true, false]);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.code == FindingCode::UnknownSource)
    );
}

#[test]
fn unknown_shapes_and_bad_json_are_errors() {
    let unknown = Json::parse(r#"{"hello": "world"}"#).unwrap();
    let error = from_any(&unknown, None).unwrap_err();
    assert_eq!(error.code.as_str(), "unknown_provider_format");
    for bad in [
        "",
        "{",
        r#"{"a":}"#,
        "[1,]",
        r#""\u12""#,
        "01x",
        &"[".repeat(300),
    ] {
        let error = Json::parse(bad).unwrap_err();
        assert_eq!(error.code.as_str(), "invalid_input", "{bad:?}");
    }
}

#[test]
fn json_reader_decodes_escapes_numbers_and_surrogates() {
    let json =
        Json::parse(r#"[0.95, -12.5e1, 1e300, "\ud83d\ude00\n", "\ud800x", 9007199254740993]"#)
            .unwrap();
    let items = json.items().unwrap();
    assert_eq!(items[0].number(), Some(0.95));
    assert_eq!(items[1].number(), Some(-125.0));
    // Outside the exact range (exponents past ±22) the value is within a few ulps.
    let big = items[2].number().unwrap();
    assert!((big / 1e300 - 1.0).abs() < 1e-14, "{big}");
    assert_eq!(items[3].text(), Some("😀\n"));
    assert_eq!(items[4].text(), Some("\u{FFFD}x"));
    assert_eq!(items[5].number(), Some(9007199254740992.0));
}

/// The `data:` payloads of an SSE fixture as one JSON array.
fn sse_events(name: &str) -> Json {
    let path = format!(
        "{}/tests/fixtures/providers/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let sse = std::fs::read_to_string(path).unwrap();
    let events: Vec<&str> = sse
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| d.starts_with('{'))
        .collect();
    Json::parse(&format!("[{}]", events.join(","))).unwrap()
}

#[test]
fn openai_stream_chunks_with_late_annotations() {
    let (provider, input) = from_any(&sse_events("openai-chat-stream.sse"), None).unwrap();
    assert_eq!(provider, Provider::OpenAi);
    let (_, expect) = fixture("openai-chat-stream.expect.json");
    assert_eq!(input.answer, expect["answer"].as_str().unwrap());
    let report = validate(&input).unwrap();
    assert_eq!(declared_texts(&input, &report), expected(&expect));
}

#[test]
fn gemini_stream_chunks_are_one_text_grounded_by_the_last_chunk() {
    let (_, raw) = fixture("gemini-stream.json");
    let chunks = Json::parse(&raw["chunks"].to_string()).unwrap();
    let (provider, input) = from_any(&chunks, None).unwrap();
    assert_eq!(provider, Provider::Gemini);
    let report = validate(&input).unwrap();
    assert_eq!(declared_texts(&input, &report), expected(&raw));
    assert!(input.warnings.is_empty());
}

#[test]
fn gemini_parts_marked_thought_false_are_answer_text() {
    let json = Json::parse(
        r#"{"candidates":[{"content":{"parts":[{"text":"plan","thought":true},{"text":"Answer.","thought":false}]}}]}"#,
    )
    .unwrap();
    assert_eq!(
        adapt(Provider::Gemini, &json, None).unwrap().answer,
        "Answer."
    );
}

#[test]
fn parts_of_unknown_types_are_read_past_and_counted_in_one_warning() {
    let events = Json::parse(
        r#"[{"type":"message_start","message":{"id":"m","model":"c"}},
            {"type":"future_event"},
            {"type":"content_block_start","index":0,"content_block":{"type":"future_block","text":"no"}},
            {"type":"content_block_delta","index":0,"delta":{"type":"future_delta","text":"no"}},
            {"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":""}},
            {"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"hm"}},
            {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}},
            {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Yes [1]."}},
            {"type":"content_block_delta","index":2,"delta":{"type":"future_delta"}},
            {"type":"message_stop"}]"#,
    )
    .unwrap();
    let (_, input) = from_any(&events, None).unwrap();
    assert_eq!(
        input.answer, "Yes [1].",
        "only the text block makes the answer"
    );
    let [warning] = &input.warnings[..] else {
        panic!("one warning: {:?}", input.warnings);
    };
    assert_eq!(warning.code, FindingCode::UnknownContent);
    assert_eq!(
        warning.message,
        "read past 4 parts of the response of a type this adapter does not know (event \
         \"future_event\", content block \"future_block\", delta \"future_delta\" ×2); only \
         the text and the citations it knows make the answer"
    );
    // Thinking is documented: read past without a word.
    let known = Json::parse(
        r#"{"type":"message","content":[{"type":"thinking"},{"type":"text","text":"Hi."}]}"#,
    )
    .unwrap();
    assert!(from_any(&known, None).unwrap().1.warnings.is_empty());
}

#[test]
fn gemini_parts_of_kinds_to_come_keep_their_place_and_never_hide_a_text() {
    // A support names its part by index: a part of an unknown kind before the text still
    // counts, and a field the adapter does not know beside a text does not hide it.
    let response = Json::parse(
        r#"{"candidates": [{"content": {"parts": [
            {"functionCall": {"name": "f"}},
            {"futurePart": {"x": 1}},
            {"newMeta": {"y": 2}, "text": "Spain won Euro 2024."},
            {"thoughtSignature": "abc"}
          ]},
          "groundingMetadata": {
            "groundingChunks": [{"web": {"uri": "https://uefa.example/", "title": "UEFA"}}],
            "groundingSupports": [{"segment": {"partIndex": 2, "endIndex": 20, "text": "Spain won Euro 2024."},
                                   "groundingChunkIndices": [0]}]}}]}"#,
    )
    .unwrap();
    let (_, input) = from_any(&response, None).unwrap();
    assert_eq!(input.answer, "Spain won Euro 2024.");
    let report = validate(&input).unwrap();
    let span = report.citations[0].span.unwrap();
    assert_eq!(&input.answer[span.range()], "Spain won Euro 2024.");
    // Only the part with nothing known counts; a part of metadata alone is no news.
    let [warning] = &input.warnings[..] else {
        panic!("one warning: {:?}", input.warnings);
    };
    assert!(
        warning
            .message
            .starts_with("read past 1 part of the response"),
        "{}",
        warning.message
    );
    assert!(
        warning.message.contains("part \"futurePart\""),
        "{}",
        warning.message
    );
}

/// A recording from tests/fixtures/providers/recorded/ and its JSON.
fn recorded(name: &str) -> (Json, serde_json::Value) {
    fixture(&format!("recorded/{name}"))
}

#[test]
fn anthropic_document_citations_recorded_with_their_documents_find_each_quote_where_it_is() {
    // Claude's answers over plain-text (`char_location`) and custom-content
    // (`content_block_location`) documents, recorded by Anthropic's citations cookbook,
    // which printed each citation's `cited_text` and `document_title` but not its
    // `document_index`: the document is found by its title, never taken to be the first.
    let (_, documents) = recorded("anthropic-citations.sources.json");
    for name in [
        "anthropic-citations-text.json",
        "anthropic-citations-custom-content.json",
        "anthropic-citations-context.json",
    ] {
        let (json, raw) = recorded(name);
        let sources: Vec<Source> = serde_json::from_value(documents[name].clone()).unwrap();
        let (provider, input) = from_any(&json, Some(sources.clone())).unwrap();
        assert_eq!(provider, Provider::Anthropic);
        let report = validate(&input).unwrap();
        let stated: Vec<_> = raw["content"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|b| b["citations"].as_array().cloned().unwrap_or_default())
            .collect();
        assert_eq!(report.citations.len(), stated.len(), "{name}");
        assert!(report.findings.is_empty(), "{name}: {:?}", report.findings);
        for (citation, stated) in report.citations.iter().zip(&stated) {
            let source = &sources[citation.source_position.expect("resolved")];
            assert_eq!(source.title.as_deref(), stated["document_title"].as_str());
            let quote = citation.quote.expect("a located quote");
            assert_eq!(quote.kind, MatchKind::Exact, "{name}");
            let text = source.text.as_deref().unwrap();
            let cited = stated["cited_text"].as_str().unwrap();
            // The span is the cited text's own place in the document, to the byte.
            let at = text.find(cited).unwrap();
            assert_eq!(quote.span.unwrap().range(), at..at + cited.len(), "{name}");
        }
    }
}

#[test]
fn anthropic_document_citations_without_an_index_are_one_source_per_title() {
    let (_, mut two) = recorded("anthropic-citations-text.json");
    // A second document's citation on the last block: its own source, not document 0's.
    two["content"][2]["citations"] = serde_json::json!([{
        "type": "char_location", "cited_text": "Standard shipping takes 3-5 days.",
        "document_title": "Shipping Options and Policies"
    }]);
    let input = adapt(
        Provider::Anthropic,
        &Json::parse(&two.to_string()).unwrap(),
        None,
    )
    .unwrap();
    let titles: Vec<_> = input.sources.iter().map(|s| s.title.as_deref()).collect();
    assert_eq!(
        titles,
        [
            Some("Order Tracking Information"),
            Some("Shipping Options and Policies")
        ]
    );
    // With the caller's documents, a title none of them has is reported, not guessed.
    let given = vec![Source {
        title: Some("Order Tracking Information".into()),
        text: Some("Once your order ships, you'll receive an email with a tracking number.".into()),
        ..Source::default()
    }];
    let input = adapt(
        Provider::Anthropic,
        &Json::parse(&two.to_string()).unwrap(),
        Some(given),
    )
    .unwrap();
    let report = validate(&input).unwrap();
    let codes: Vec<_> = report.findings.iter().map(|f| f.code).collect();
    assert!(codes.contains(&FindingCode::UnknownSource), "{codes:?}");
}

#[test]
fn anthropic_pdf_page_citations_recorded_keep_their_quotes_unverified_without_the_pdf_text() {
    for name in [
        "anthropic-citations-pdf.json",
        "anthropic-citations-pdf-letter.json",
    ] {
        let (json, _) = recorded(name);
        let (_, input) = from_any(&json, None).unwrap();
        assert_eq!(input.sources.len(), 1, "{name}: one document, by its title");
        let report = validate(&input).unwrap();
        assert!(report.findings.is_empty(), "{name}: {:?}", report.findings);
        assert!(
            report
                .citations
                .iter()
                .all(|c| c.valid && c.quote.map(|q| q.kind) == Some(MatchKind::Unverified))
        );
    }
}

#[test]
fn mistral_stream_with_chunk_lists_reads_as_the_whole_chunked_message() {
    // docs.mistral.ai's chunked content (TextChunk, ReferenceChunk, ToolReferenceChunk),
    // once as a message and once streamed, its `delta.content` now a string, now a list,
    // as Mistral streams it (a first delta `[{"type":"reference","reference_ids":[]},
    // {"type":"text",…}]` is what async-openai's users met from mistral-large-latest).
    let message = r#"{"id":"m1","object":"chat.completion","model":"mistral-large-latest",
      "choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":[
        {"type":"text","text":"Ada Lovelace wrote the first program — 1843 ✨."},
        {"type":"reference","reference_ids":[0,2]},
        {"type":"text","text":" Babbage designed the engine."},
        {"type":"tool_reference","tool":"web_search","title":"Analytical Engine","url":"https://example.org/engine"}]}}]}"#;
    let chunk = |delta: &str| {
        format!(
            r#"{{"id":"m1","object":"chat.completion.chunk","model":"mistral-large-latest","choices":[{{"index":0,"delta":{delta},"finish_reason":null}}]}}"#
        )
    };
    let stream = [
        chunk(
            r#"{"role":"assistant","content":[{"type":"reference","reference_ids":[]},{"type":"text","text":"Ada Lovelace wrote "}]}"#,
        ),
        chunk(r#"{"content":"the first program — 18"}"#),
        chunk(r#"{"content":"43 ✨."}"#),
        chunk(r#"{"content":[{"type":"reference","reference_ids":[0,2]}]}"#),
        chunk(r#"{"content":" Babbage designed"}"#),
        chunk(
            r#"{"content":[{"type":"text","text":" the engine."},{"type":"tool_reference","tool":"web_search","title":"Analytical Engine","url":"https://example.org/engine"}]}"#,
        ),
        chunk(r#"{}"#),
    ];
    let stream = Json::parse(&format!("[{}]", stream.join(","))).unwrap();
    let (provider, streamed) = from_any(&stream, None).unwrap();
    assert_eq!(provider, Provider::OpenAi);
    let (_, whole) = from_any(&Json::parse(message).unwrap(), None).unwrap();
    assert_eq!(
        streamed.answer,
        "Ada Lovelace wrote the first program — 1843 ✨. Babbage designed the engine."
    );
    assert_eq!(streamed.answer, whole.answer);
    // (Compared as printed: the model types leave out PartialEq.)
    assert_eq!(
        format!("{:?}", streamed.sources),
        format!("{:?}", whole.sources)
    );
    assert_eq!(
        format!("{:?}", streamed.citations),
        format!("{:?}", whole.citations)
    );
    assert!(streamed.warnings.is_empty(), "{:?}", streamed.warnings);
    let report = validate(&streamed).unwrap();
    let spans: Vec<_> = report
        .citations
        .iter()
        .map(|c| &streamed.answer[c.span.unwrap().range()])
        .collect();
    assert_eq!(
        spans,
        [
            "Ada Lovelace wrote the first program — 1843 ✨.",
            "Ada Lovelace wrote the first program — 1843 ✨.",
            " Babbage designed the engine."
        ]
    );
}

#[test]
fn perplexity_reasoning_in_think_tags_is_not_the_answer() {
    // sonar-reasoning-pro / sonar-deep-research start the content with `<think>…</think>`
    // (a real sonar-deep-research response seen 2026-11-28 reasons over "Search result
    // 1", "[2]"…; its repository has no licence, so this one follows docs.perplexity.ai).
    let content = "<think>\nSearch result 1 says Tokyo [1]; maybe [3] too.\n</think>\n\nTokyo is the capital of Japan [1].";
    let response = serde_json::json!({
        "id": "p1", "model": "sonar-reasoning-pro", "object": "chat.completion",
        "citations": ["https://example.org/tokyo", "https://example.org/kyoto"],
        "search_results": [
            { "title": "Tokyo", "url": "https://example.org/tokyo", "snippet": "Tokyo is the capital of Japan." },
            { "title": "Kyoto", "url": "https://example.org/kyoto" }
        ],
        "choices": [{ "index": 0, "finish_reason": "stop", "message": { "role": "assistant", "content": content } }]
    });
    let (provider, input) = from_any(&Json::parse(&response.to_string()).unwrap(), None).unwrap();
    assert_eq!(provider, Provider::Perplexity);
    assert_eq!(input.answer, "Tokyo is the capital of Japan [1].");
    let report = validate(&input).unwrap();
    assert_eq!(
        report.citations.len(),
        1,
        "the [3] of the reasoning is not cited"
    );
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.code != FindingCode::OutOfRange)
    );
    // Streamed, the block split across chunks, reads the same.
    let pieces = [
        "<thi",
        "nk>\nSearch result 1 says Tokyo [1]; maybe [3] too.\n</th",
        "ink>\n\nTokyo is the capital",
        " of Japan [1].",
    ];
    let chunks: Vec<_> = pieces
        .iter()
        .map(|piece| {
            let mut chunk = response.clone();
            chunk["object"] = "chat.completion.chunk".into();
            chunk["choices"] = serde_json::json!([{ "index": 0, "delta": { "content": piece } }]);
            chunk
        })
        .collect();
    let streamed = Json::parse(&serde_json::Value::from(chunks).to_string()).unwrap();
    let (_, from_stream) = from_any(&streamed, None).unwrap();
    assert_eq!(from_stream.answer, input.answer);
    // A reasoning block that never closes (a cut stream) is kept: no answer is made up.
    let cut = content.replace("</think>", "");
    let mut open = response.clone();
    open["choices"][0]["message"]["content"] = cut.clone().into();
    let (_, input) = from_any(&Json::parse(&open.to_string()).unwrap(), None).unwrap();
    assert_eq!(input.answer, cut);
}

#[test]
fn anthropic_search_result_locations_resolve_to_the_callers_search_result_blocks() {
    // The caller's sources are the request's `search_result` blocks: `source` is read as
    // the URL (an http one) or the id, the text blocks joined by a paragraph break.
    let (input, report) = check("anthropic-search-results.json", Provider::Anthropic);
    let first = &input.sources[0];
    assert_eq!(
        first.url.as_deref(),
        Some("https://docs.company.com/api-reference")
    );
    assert_eq!(
        first.text.as_deref(),
        Some(
            "Alle API-Anfragen brauchen einen Schlüssel 🔑 im Authorization-Header.\n\n\
             Limits: 1000 Anfragen pro Stunde."
        )
    );
    assert_eq!(input.sources[1].id.as_deref(), Some("kb/quickstart"));
    assert_eq!(input.sources[1].url, None);
    // By URL, by id, and (a `source` the list lacks) by `search_result_index`.
    let labels: Vec<_> = report.citations.iter().map(|c| c.source_index).collect();
    assert_eq!(labels, [Some(1), Some(2), Some(2)]);
    // Each `cited_text` is found in the blocks it names; the one spanning both blocks
    // reads the paragraph break as the space the provider wrote.
    let kinds: Vec<_> = report
        .citations
        .iter()
        .map(|c| c.quote.map(|q| q.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            Some(MatchKind::Normalized),
            Some(MatchKind::Exact),
            Some(MatchKind::Exact)
        ]
    );
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn anthropic_search_result_locations_without_caller_sources_list_each_result_once() {
    let (json, _) = fixture("anthropic-search-results.json");
    let input = adapt(Provider::Anthropic, &json, None).expect("adapts");
    let listed: Vec<_> = input
        .sources
        .iter()
        .map(|s| (s.url.as_deref(), s.id.as_deref(), s.title.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                Some("https://docs.company.com/api-reference"),
                None,
                Some("API-Referenz – Authentifizierung")
            ),
            (None, Some("kb/quickstart"), Some("スタートガイド")),
            (None, Some("kb/quickstart-v2"), Some("スタートガイド")),
        ]
    );
}

#[test]
fn anthropic_search_results_a_custom_tool_returned_are_the_sources_with_their_text() {
    // A conversation's blocks: tool_use, the tool_result of search_result blocks, the
    // cited answer. Each result is a source with its text, so each quote is found.
    let (input, report) = check("anthropic-search-results-tool.json", Provider::Anthropic);
    let listed: Vec<_> = input
        .sources
        .iter()
        .map(|s| (s.url.as_deref(), s.id.as_deref(), s.text.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                Some("https://docs.company.com/product-guide"),
                None,
                Some(
                    "Der Standard-Timeout ist 30 s ⏱️.\n\nEr lässt sich zwischen 10 und 120 s einstellen."
                )
            ),
            (
                None,
                Some("kb/troubleshooting"),
                Some("タイムアウトの主な原因はネットワーク遅延です。")
            ),
        ]
    );
    let found: Vec<_> = report
        .citations
        .iter()
        .map(|c| (c.source_index, c.quote.map(|q| q.kind)))
        .collect();
    assert_eq!(
        found,
        [
            (Some(1), Some(MatchKind::Normalized)),
            (Some(2), Some(MatchKind::Exact))
        ]
    );
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

/// Each citation's source label and how its quote matched.
type Cited = Vec<(Option<u32>, Option<MatchKind>)>;

/// The conversation fixture's citations as (source label, quote match) and its
/// `offset_mismatch` warnings' messages, each with the answer text at its span.
fn search_results_read(input: &Input) -> (Cited, Vec<String>) {
    let report = validate(input).expect("validates");
    let errors: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.severity == citeproof::model::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let cited = report
        .citations
        .iter()
        .map(|c| (c.source_index, c.quote.map(|q| q.kind)))
        .collect();
    let warned = input
        .warnings
        .iter()
        .filter(|w| w.code == FindingCode::OffsetMismatch)
        .map(|w| format!("{} @ {}", w.message, &input.answer[w.span.unwrap().range()]))
        .collect();
    (cited, warned)
}

#[test]
fn anthropic_search_result_index_counts_results_across_messages_and_tool_results() {
    // tests/fixtures/providers/anthropic-search-results-conversation.json: result 0 in the
    // user's message, results 1 and 2 in a tool_result, 0 and 2 from one page (one
    // `source`). Citation 2 names result 2: it is that result (its quote is found there),
    // with the caller's sources and without them.
    let (input, _) = check(
        "anthropic-search-results-conversation.json",
        Provider::Anthropic,
    );
    let warned = [
        "blocks 1..2 (end exclusive) of search result 1, which has 2, do not hold the quote \
         @ Der Starter-Plan kostet 10 € im Monat",
        "blocks 1..3 (end exclusive) of search result 1, which has 2, do not hold the quote \
         @ Enterprise auf Anfrage",
    ];
    let found = [
        (Some(1), Some(MatchKind::Exact)),
        (Some(3), Some(MatchKind::Exact)),
        (Some(2), Some(MatchKind::Exact)),
        (Some(2), Some(MatchKind::Exact)),
    ];
    assert_eq!(
        search_results_read(&input),
        (found.to_vec(), warned.map(String::from).to_vec())
    );
    let (json, _) = fixture("anthropic-search-results-conversation.json");
    let own = adapt(Provider::Anthropic, &json, None).unwrap();
    let listed: Vec<_> = own
        .sources
        .iter()
        .map(|s| (s.url.as_deref().or(s.id.as_deref()), s.text.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                Some("https://docs.company.com/overview"),
                Some("Acme Dashboard überwacht verteilte Systeme 📈.\n\nEs alarmiert in Echtzeit.")
            ),
            (
                Some("kb/pricing"),
                Some("Starter: 10 € pro Nutzer und Monat.\n\nEnterprise: Preis auf Anfrage.")
            ),
            (
                Some("https://docs.company.com/overview"),
                Some("Dashboards lassen sich frei gestalten 🎛️.")
            ),
        ]
    );
    assert_eq!(
        search_results_read(&own),
        (found.to_vec(), warned.map(String::from).to_vec())
    );
}

#[test]
fn anthropic_search_result_block_ranges_must_hold_the_quote() {
    // end_block_index is exclusive; the quote is the range's text, however the API joins
    // the blocks (white space is left out of the comparison).
    let (_, raw) = fixture("anthropic-search-results-conversation.json");
    let warnings_with = |start: u64, end: u64, quote: &str| {
        let mut response = raw.clone();
        let citation = &mut response["content"][3]["citations"][0];
        citation["start_block_index"] = start.into();
        citation["end_block_index"] = end.into();
        citation["cited_text"] = quote.into();
        response["content"].as_array_mut().unwrap().truncate(4);
        let json = Json::parse(&response.to_string()).unwrap();
        let input = adapt(Provider::Anthropic, &json, None).unwrap();
        input
            .warnings
            .iter()
            .map(|w| w.message.clone())
            .collect::<Vec<_>>()
    };
    let both = "Acme Dashboard überwacht verteilte Systeme 📈.";
    assert!(warnings_with(0, 2, &format!("{both}Es alarmiert in Echtzeit.")).is_empty());
    assert!(warnings_with(0, 2, &format!("{both}\nEs alarmiert in Echtzeit.")).is_empty());
    assert!(warnings_with(0, 1, "überwacht verteilte").is_empty());
    assert_eq!(
        warnings_with(1, 2, both),
        ["blocks 1..2 (end exclusive) of search result 0, which has 2, do not hold the quote"]
    );
    // An empty range holds nothing; an inclusive reading (0..0 for block 0) is not the API's.
    assert_eq!(
        warnings_with(0, 0, both),
        ["blocks 0..0 (end exclusive) of search result 0, which has 2, do not hold the quote"]
    );
    assert_eq!(
        warnings_with(2, 1, both),
        ["blocks 2..1 (end exclusive) of search result 0, which has 2, do not hold the quote"]
    );
    // A range far longer than its quote is not searched (the check stays linear).
    let mut long = raw.clone();
    long["content"][0]["content"][1]["text"] = "x".repeat(400).into();
    long["content"].as_array_mut().unwrap().truncate(4);
    long["content"][3]["citations"][0]["end_block_index"] = 2.into();
    long["content"][3]["citations"][0]["cited_text"] = "nowhere".into();
    let json = Json::parse(&long.to_string()).unwrap();
    assert!(
        adapt(Provider::Anthropic, &json, None)
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn a_document_index_past_the_callers_sources_names_no_source_whatever_its_size() {
    // A position past the caller's one source is no label of it, however large: never
    // wrapped around to 32 bits (4294967296 would be the first source's label 1).
    let sources = vec![Source {
        title: Some("Doc".into()),
        text: Some("Water boils at 100 °C.".into()),
        ..Source::default()
    }];
    let not_a_label = &["missing_field", "invalid_field"][..];
    for (position, code) in [
        ("1", &["out_of_range"][..]),
        ("4294967295", not_a_label),
        ("4294967296", not_a_label),
        ("1000000000000", not_a_label),
    ] {
        let response = format!(
            r#"{{"type":"message","role":"assistant","content":[{{"type":"text",
            "text":"Water boils at 100 °C.","citations":[{{"type":"char_location",
            "cited_text":"Water boils","document_index":{position},"document_title":"Doc",
            "start_char_index":0,"end_char_index":11}}]}}]}}"#
        );
        let json = Json::parse(&response).unwrap();
        let (_, input) = from_any(&json, Some(sources.clone())).unwrap();
        let report = validate(&input).unwrap();
        let codes: Vec<_> = report.findings.iter().map(|f| f.code.name()).collect();
        assert_eq!(codes, code, "{position}: {:?}", report.findings);
        assert_eq!(report.citations[0].source_position, None, "{position}");
    }
}

/// Gemini offsets that miss their text, in a part of `filler` bytes before and after it.
fn gemini_missing_by(filler: usize, cited: &str) -> Input {
    let said = "Wässer kocht bei 100 °C.";
    let text = format!("{}{said}{}", "a".repeat(filler), "b".repeat(filler));
    let json = serde_json::json!({
        "candidates": [{
            "content": { "role": "model", "parts": [{ "text": text }] },
            "groundingMetadata": {
                "groundingChunks": [{ "web": { "uri": "https://example.org/water", "title": "Water" } }],
                "groundingSupports": [{
                    "segment": { "startIndex": 0, "endIndex": cited.len(), "text": cited },
                    "groundingChunkIndices": [0]
                }]
            }
        }]
    });
    from_any(&Json::parse(&json.to_string()).unwrap(), None)
        .unwrap()
        .1
}

/// Offsets that miss their text are searched for within 32 KiB of them (a search of the
/// whole part per citation made n citations of a part of length n cost n²): the text is
/// found 30,000 bytes away, not 40,000, and the message says how far it looked.
#[test]
fn offsets_that_miss_are_searched_for_within_32_kib_of_them() {
    let said = "Wässer kocht bei 100 °C.";
    let near = gemini_missing_by(30_000, said);
    let span = near.warnings[0].span.expect("found nearby");
    assert_eq!(&near.answer[span.range()], said);
    assert_eq!(span.start, 30_000);
    let far = gemini_missing_by(40_000, said);
    assert_eq!(far.warnings[0].span, None);
    assert_eq!(
        far.warnings[0].message,
        "offsets 0–26 do not hold the cited text, and it is not in the answer within 32 KiB of them"
    );
    assert!(far.citations.as_ref().unwrap()[0].span.is_none());
}

/// OpenAI's `url_citation` offsets are checked against the link when its URL is within
/// 32 KiB of them; further away (or nowhere), they are taken as given, without a warning.
#[test]
fn openai_url_citations_are_checked_against_a_link_near_them() {
    let link = "([Water](https://example.org/water))";
    let respond = |filler: usize| {
        let text = format!("Wässer kocht.{} {link}", " x".repeat(filler / 2));
        let at = text.chars().count() - "https://example.org/water))".len();
        let json = serde_json::json!({
            "object": "response",
            "output": [{ "type": "message", "role": "assistant", "content": [{
                "type": "output_text", "text": text,
                "annotations": [{ "type": "url_citation", "url": "https://example.org/water",
                    "title": "Water", "start_index": 0, "end_index": 13 }]
            }]}]
        });
        let input = from_any(&Json::parse(&json.to_string()).unwrap(), None)
            .unwrap()
            .1;
        (input, at)
    };
    let (near, at) = respond(1_000);
    let span = near.warnings[0].span.expect("the URL, found nearby");
    assert_eq!(&near.answer[span.range()], "https://example.org/water");
    assert_eq!(near.answer[..span.start].chars().count(), at);
    let (far, _) = respond(40_000);
    assert!(far.warnings.is_empty(), "{:?}", far.warnings);
    let span = far.citations.as_ref().unwrap()[0].span.as_ref().unwrap();
    assert_eq!(&far.answer[span.valid().unwrap().range()], "Wässer kocht.");
}

#[test]
fn perplexity_citations_repeating_a_url_give_its_text_to_the_first_four() {
    // A crafted response may list one URL n times: each repeat copying the result's
    // snippet would make n × its length from a response of n + its length. The first
    // four citations of the URL carry its title and text; later ones the URL alone, as a
    // URL without a search result does, and every marker still names a source.
    let url = "https://example.org/tokyo";
    let response = serde_json::json!({
        "id": "p1", "model": "sonar", "object": "chat.completion",
        "citations": [url, url, url, url, url, url, "https://example.org/kyoto"],
        "search_results": [
            { "title": "Tokyo", "url": url, "snippet": "Tokyo is the capital of Japan." },
        ],
        "choices": [{ "index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "Tokyo is the capital of Japan [4][6][7]." } }]
    });
    let (_, input) = from_any(&Json::parse(&response.to_string()).unwrap(), None).unwrap();
    let carried: Vec<(Option<&str>, Option<&str>)> = input
        .sources
        .iter()
        .map(|s| (s.title.as_deref(), s.text.as_deref()))
        .collect();
    let tokyo = (Some("Tokyo"), Some("Tokyo is the capital of Japan."));
    assert_eq!(
        carried,
        [
            tokyo,
            tokyo,
            tokyo,
            tokyo,
            (None, None),
            (None, None),
            (None, None)
        ]
    );
    assert!(input.sources.iter().all(|s| s.url.is_some()));
    let report = validate(&input).unwrap();
    assert_eq!(report.citations.len(), 3);
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.code != FindingCode::OutOfRange)
    );
}
