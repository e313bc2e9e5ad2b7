//! The JS API in a real JS engine, one suite for every engine: `tests/wasm.rs` runs it
//! under `wasm-pack test --node`, `tests/browser.rs` under `wasm-pack test --headless
//! --chrome` and `--firefox`.

use citeproof::offsets::{OffsetMap, Unit};
use citeproof_wasm::{CitationParser, ParseOptionsArg, parse_citations};
use js_sys::{Array, JsString, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

fn options(json: &str) -> Option<ParseOptionsArg> {
    Some(js_sys::JSON::parse(json).unwrap().unchecked_into())
}

fn markers(text: &str, opts: Option<ParseOptionsArg>) -> Array {
    parse_citations(JsValue::from_str(text), opts)
        .unwrap()
        .dyn_into()
        .unwrap()
}

/// `(start, end, raw)` of every marker.
fn spans(list: &Array) -> Vec<(u32, u32, String)> {
    list.iter()
        .map(|m| {
            let span = get(&m, "span");
            let n = |k| get(&span, k).as_f64().unwrap() as u32;
            (n("start"), n("end"), get(&m, "raw").as_string().unwrap())
        })
        .collect()
}

fn error_code(result: Result<impl Sized, JsValue>) -> (String, String) {
    let Err(error) = result else {
        panic!("expected an Error")
    };
    assert!(
        error.is_instance_of::<js_sys::Error>(),
        "a real Error object"
    );
    let message = get(&error, "message").as_string().unwrap();
    (get(&error, "code").as_string().unwrap(), message)
}

/// The code and message of `parseCitations(text, options)`'s error.
fn parse_error(text: &str, options_json: &str) -> (String, String) {
    error_code(parse_citations(
        JsValue::from_str(text),
        options(options_json),
    ))
}

#[wasm_bindgen_test]
fn utf16_spans_slice_to_raw_for_emoji_cjk_and_crlf() {
    let answers = [
        "The 👩‍👩‍👧 family [1] owns 😀 cats[2].",
        "東京は日本の首都です【1】。大阪［2］も大きい[3, 4]。",
        "Line one [1]\r\nLine two 𝔘 [^2^]\r\n```\r\nx[9]\r\n```\r\ne\u{301}[3]",
    ];
    for answer in answers {
        let list = markers(answer, None);
        assert!(list.length() >= 2, "{answer}");
        let js = JsString::from(answer);
        for (start, end, raw) in spans(&list) {
            assert_eq!(
                String::from(js.slice(start, end)),
                raw,
                "answer.slice in {answer:?}"
            );
        }
    }
}

/// The scanner skips plain text sixteen bytes at a time (simd128 in wasm): a marker
/// after any length of it, so in every lane of a block, is found where it starts.
#[wasm_bindgen_test]
fn a_marker_is_found_after_any_length_of_plain_text() {
    for plain in 0..70u32 {
        for marker in ["[1]", "【2】", "<sup>[3]</sup>"] {
            let text = format!("{}{marker}.", "a".repeat(plain as usize));
            let found = spans(&markers(&text, None));
            let offset = if marker.starts_with('<') { 5 } else { 0 };
            assert_eq!(found.len(), 1, "{text:?}");
            assert_eq!(found[0].0, plain + offset, "{text:?}");
        }
    }
}

#[wasm_bindgen_test]
fn utf8_and_codepoint_units_are_selectable() {
    let text = "😀 [1]";
    let utf8 = spans(&markers(text, options(r#"{"offsets":"utf8"}"#)));
    let cps = spans(&markers(text, options(r#"{"offsets":"codepoint"}"#)));
    let utf16 = spans(&markers(text, options(r#"{"offsets":"utf16"}"#)));
    assert_eq!((utf8[0].0, utf8[0].1), (5, 8));
    assert_eq!((cps[0].0, cps[0].1), (2, 5));
    assert_eq!((utf16[0].0, utf16[0].1), (3, 6));
}

#[wasm_bindgen_test]
fn markers_have_refs_and_kind_in_camel_case_shape() {
    let list = markers(
        "See [2-3] and Chapter 4, Section 1 and [abc]",
        options(r#"{"sources":[{"id":"abc"}]}"#),
    );
    assert_eq!(list.length(), 3);
    let first = list.get(0);
    assert_eq!(get(&first, "kind").as_string().unwrap(), "numeric");
    let refs: Array = get(&first, "refs").dyn_into().unwrap();
    assert_eq!(
        refs.iter().map(|r| r.as_f64().unwrap()).collect::<Vec<_>>(),
        vec![2.0, 3.0]
    );
    let section = list.get(1);
    assert_eq!(get(&section, "kind").as_string().unwrap(), "section");
    assert_eq!(get(&section, "chapter").as_string().unwrap(), "4");
    assert_eq!(get(&section, "section").as_f64().unwrap(), 1.0);
    let named = list.get(2);
    assert_eq!(get(&named, "kind").as_string().unwrap(), "named");
    assert_eq!(
        Array::from(&get(&named, "refs"))
            .get(0)
            .as_string()
            .unwrap(),
        "abc"
    );
}

#[wasm_bindgen_test]
fn bad_arguments_throw_errors_with_code_and_path() {
    let (code, message) = error_code(parse_citations(JsValue::from_f64(3.0), None));
    assert_eq!(code, "invalid_input");
    assert!(message.starts_with("text:"), "{message}");

    let (code, message) = parse_error("x", r#"{"offsets":"bytes"}"#);
    assert_eq!(code, "invalid_option");
    assert_eq!(
        message,
        r#"options.offsets: expected "utf16", "utf8" or "codepoint", got string "bytes""#
    );

    let (code, message) = parse_error("x", r#"{"markerPatterns":["ok", 3]}"#);
    assert_eq!(code, "invalid_option");
    assert!(
        message.starts_with("options.markerPatterns[1]:"),
        "{message}"
    );

    let (code, message) = parse_error("x", r#"{"markerPatterns":["(?P<refs>"]}"#);
    assert_eq!(code, "invalid_option");
    assert!(
        message.starts_with("options.markerPatterns[0]:"),
        "{message}"
    );

    let (code, message) = parse_error("x", r#"{"sources":[{"id":7}]}"#);
    assert_eq!(code, "invalid_option");
    assert!(message.starts_with("options.sources[0].id:"), "{message}");

    let (code, _) = error_code(CitationParser::new(Some(
        JsValue::from_str("nope").unchecked_into(),
    )));
    assert_eq!(code, "invalid_option");
}

#[wasm_bindgen_test]
fn unknown_option_fields_are_errors_and_null_options_are_defaults() {
    let (code, message) = parse_error("[1]", r#"{"ofsets":"utf8"}"#);
    assert_eq!(code, "invalid_option");
    assert_eq!(
        message,
        r#"options.ofsets: unknown option (did you mean "offsets"?)"#
    );
    let (_, message) = parse_error("[1]", r#"{"offsets":"utf8","somethingElse":true}"#);
    assert!(
        message.starts_with("options.somethingElse: unknown option (known: "),
        "{message}"
    );
    assert_eq!(
        markers("[1]", Some(JsValue::NULL.unchecked_into())).length(),
        1
    );
    assert_eq!(
        markers("[1]", Some(Object::new().unchecked_into())).length(),
        1
    );
}

#[wasm_bindgen_test]
fn citation_parser_compiles_patterns_once_for_many_texts() {
    let parser =
        CitationParser::new(options(r#"{"markerPatterns":["<<(?P<refs>\\d+)>>"]}"#)).unwrap();
    for text in ["a <<1>>", "b <<2>> [3]"] {
        let list: Array = parser
            .parse(JsValue::from_str(text))
            .unwrap()
            .dyn_into()
            .unwrap();
        assert_eq!(get(&list.get(0), "kind").as_string().unwrap(), "custom");
    }
}

/// A deterministic xorshift generator: the browser has no proptest runner.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
}

#[wasm_bindgen_test]
fn offset_map_agrees_with_js_string_indexing_on_random_unicode() {
    let pieces = [
        "a",
        "😀",
        "👩‍👩‍👧",
        "東",
        "e\u{301}",
        "\r\n",
        "𝔘",
        "[1]",
        "\u{a0}",
        "ß",
        "🇫🇷",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        let len = rng.next() % 60;
        let text: String = (0..len)
            .map(|_| pieces[rng.next() % pieces.len()])
            .collect();
        let js = JsString::from(text.as_str());
        let map = OffsetMap::new(&text);
        assert_eq!(map.len(Unit::Utf16), js.length() as usize);
        for (byte, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let utf16 = map.to_unit(byte, Unit::Utf16).unwrap();
            assert_eq!(String::from(js.slice(0, utf16 as u32)), text[..byte]);
            let cps = map.to_unit(byte, Unit::CodePoint).unwrap();
            // `Array.from(str)` iterates code points.
            assert_eq!(
                Array::from(&js.slice(0, utf16 as u32)).length() as usize,
                cps
            );
            assert_eq!(map.to_byte(utf16, Unit::Utf16), Some(byte));
        }
    }
}

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

#[wasm_bindgen_test]
fn validate_reports_utf16_spans_and_cleans_the_answer() {
    use citeproof_wasm::validate;
    let answer = "東京 😀 is big [1]. Osaka [3].";
    let input = js(&format!(
        r#"{{"answer":{answer:?},"sources":[{{"title":"T","text":"Tokyo is big."}}],"citations":[{{"source":1,"quote":"tokyo is BIG"}}]}}"#
    ));
    let report = validate(input.unchecked_into(), None).unwrap();
    assert_eq!(get(&report, "status").as_string().unwrap(), "fail");
    assert_eq!(
        get(&report, "cleanedAnswer").as_string().unwrap(),
        "東京 😀 is big [1]. Osaka."
    );
    let js_answer = JsString::from(answer);
    let markers: Array = get(&report, "markers").dyn_into().unwrap();
    for m in markers.iter() {
        let span = get(&m, "span");
        let (s, e) = (
            get(&span, "start").as_f64().unwrap() as u32,
            get(&span, "end").as_f64().unwrap() as u32,
        );
        assert_eq!(
            String::from(js_answer.slice(s, e)),
            get(&m, "raw").as_string().unwrap()
        );
    }
    let citation = Array::from(&get(&report, "citations")).get(0);
    assert_eq!(
        get(&get(&citation, "quote"), "match").as_string().unwrap(),
        "normalized"
    );
}

#[wasm_bindgen_test]
fn validate_rejects_unreadable_input_with_a_code_and_path() {
    use citeproof_wasm::validate;
    let input = js(r#"{"answer":"x","sources":[{"relevance":"high"}]}"#);
    let (code, message) = error_code(validate(input.unchecked_into(), None));
    assert_eq!(code, "invalid_input");
    assert!(
        message.starts_with("input.sources[0].relevance:"),
        "{message}"
    );
}

#[wasm_bindgen_test]
fn provider_adapter_spans_slice_to_the_segment_in_the_engine() {
    use citeproof_wasm::{from_any, validate};
    // Gemini measures segments in UTF-8 bytes of the part; the engine slices UTF-16.
    let part = "東京は首都です 🗼. Paris est belle.";
    let segment = "Paris est belle.";
    let start = part.find(segment).unwrap();
    let response = js(&format!(
        r#"{{"candidates":[{{"content":{{"parts":[{{"text":{part:?}}}]}},"groundingMetadata":{{
            "groundingChunks":[{{"web":{{"uri":"https://fr.example/","title":"fr"}}}}],
            "groundingSupports":[{{"segment":{{"startIndex":{start},"endIndex":{},"text":{segment:?}}},
                                   "groundingChunkIndices":[0]}}]}}}}]}}"#,
        start + segment.len()
    ));
    let input = from_any(response, None, None).unwrap();
    assert_eq!(get(&input, "provider").as_string().unwrap(), "gemini");
    let report = validate(input.unchecked_into(), None).unwrap();
    let citation = Array::from(&get(&report, "citations")).get(0);
    let span = get(&citation, "span");
    let (s, e) = (
        get(&span, "start").as_f64().unwrap() as u32,
        get(&span, "end").as_f64().unwrap() as u32,
    );
    assert_eq!(String::from(JsString::from(part).slice(s, e)), segment);
    let (code, _) = error_code(from_any(js(r#"{"hello":1}"#), None, None));
    assert_eq!(code, "unknown_provider_format");
}

/// Every kind of report: markers of each refs kind, quotes found exactly, normalised,
/// approximately and not at all, claim support, declared citations, answer-level
/// findings, chips with and without title/url, the uncertainty note, non-ASCII text.
const REPORT_CASES: &[(&str, &str)] = &[
    (
        r#"{"answer":"東京 😀 is big [1]. Osaka\r\n is old [^2^] 【3】 [9] [1, 2].\n\nUncited claim here.","sources":[{"title":"Tokyo","url":"https://example.org/t","text":"Tokyo is big, the biggest city."},{"text":"Osaka is old and famous."},{"title":"Third"}],"citations":[{"source":1,"quote":"tokyo is BIG"},{"source":2,"quote":"Osaka is old"},{"source":1,"quote":"the bigest city"},{"source":2,"quote":"nothing like it"}]}"#,
        r#"{"supportThreshold":0.5}"#,
    ),
    (
        r#"{"answer":"Named [chunk:abc123] and [intro] and [zzz].","sources":[{"id":"abc123","text":"A"},{"id":"intro","text":"B"}]}"#,
        r#"{"offsets":"utf8"}"#,
    ),
    (
        r#"{"answer":"Nothing cited at all.","sources":[]}"#,
        r#"{"requireCitations":true,"offsets":"codepoint"}"#,
    ),
];

const SPEC_FIXTURES: &[&str] = &[
    include_str!("../../../tests/fixtures/specs/spec-000-section-grounded.json"),
    include_str!("../../../tests/fixtures/specs/spec-000-section-ungrounded.json"),
    include_str!("../../../tests/fixtures/specs/spec-002-hallucinated-index.json"),
    include_str!("../../../tests/fixtures/specs/spec-002-structured-response-example.json"),
    include_str!("../../../tests/fixtures/specs/spec-003-hallucinated-chunk-id.json"),
    include_str!("../../../tests/fixtures/specs/spec-003-invented-snippet.json"),
    include_str!("../../../tests/fixtures/specs/spec-003-valid-citation.json"),
    include_str!("../../../tests/fixtures/specs/spec-004-hallucinated-span.json"),
    include_str!("../../../tests/fixtures/specs/spec-004-missing-enhanced-fields.json"),
    include_str!("../../../tests/fixtures/specs/spec-004-perfect-citation.json"),
];

/// The report `validate` builds from its tape, as JSON text, next to the native report's
/// serde_json text parsed by the engine: same fields, order, nulls and numbers.
#[wasm_bindgen_test]
fn validate_reports_equal_the_serde_json_of_the_native_report() {
    use citeproof::model::{Input, Options};
    use citeproof::validate::Validator;
    let specs = SPEC_FIXTURES.iter().map(|fixture| {
        let value: serde_json::Value = serde_json::from_str(fixture).unwrap();
        (value["input"].to_string(), "{}".to_string())
    });
    let cases = REPORT_CASES
        .iter()
        .map(|(input, options)| (input.to_string(), options.to_string()))
        .chain(specs);
    let mut kinds = std::collections::BTreeSet::new();
    for (input_json, options_json) in cases {
        let options_value: serde_json::Value = serde_json::from_str(&options_json).unwrap();
        let unit = options_value["offsets"]
            .as_str()
            .map_or(Unit::Utf16, |name| Unit::from_name(name).unwrap());
        let input: Input = serde_json::from_str(&input_json).unwrap();
        let options: Options = serde_json::from_value(options_value).unwrap();
        let mut native = Validator::new(options).unwrap().validate(&input).unwrap();
        native.convert_offsets(&input, unit);
        let expected = js_sys::JSON::stringify(&js(&serde_json::to_string(&native).unwrap()))
            .unwrap()
            .as_string()
            .unwrap();

        let report = citeproof_wasm::validate(
            js(&input_json).unchecked_into(),
            Some(js(&options_json).unchecked_into()),
        )
        .unwrap();
        Reflect::set(&report, &"timingMs".into(), &0.into()).unwrap();
        let actual = js_sys::JSON::stringify(&report)
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(actual, expected, "{input_json}");
        for needle in [
            "\"match\":\"exact\"",
            "\"match\":\"normalized\"",
            "\"match\":\"approximate\"",
            "\"match\":\"none\"",
            "\"support\":",
            "\"declared\":",
            "\"uncertaintyNote\":",
            "\"chapter\":",
            "\"sourceId\":",
            "\"type\":\"cite\"",
            "\"title\":",
            "\"kind\":\"named\"",
            "\"avgAlignment\":null",
        ] {
            if actual.contains(needle) {
                kinds.insert(needle);
            }
        }
    }
    assert_eq!(
        kinds.len(),
        13,
        "every kind of field was compared: {kinds:?}"
    );
}
