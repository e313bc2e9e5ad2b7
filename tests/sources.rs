//! Sources as retrieval libraries hand them out (LangChain `page_content`, LlamaIndex
//! `text`, Vertex AI Search and Azure AI Search `content` beside a `snippet`), read by serde
//! as the CLI reads them: a text under two of its names is one text, by precedence (the
//! full text before an excerpt or snippet), with a warning when the two differ.

use citeproof::model::{FindingCode, Input, MatchKind, Options, Severity, Source};
use citeproof::validate::Validator;

fn source(json: &str) -> Source {
    serde_json::from_str(json).expect("a source serde reads")
}

#[test]
fn a_text_given_twice_with_the_same_value_is_one_text_without_a_warning() {
    let s = source(r#"{"text": "Paris is in France.", "excerpt": "Paris is in France."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris is in France."));
    assert_eq!(s.text_differs, None);
}

#[test]
fn the_full_text_wins_over_an_excerpt_or_snippet_whatever_the_key_order() {
    let s = source(r#"{"snippet": "Paris", "content": "Paris is in France."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris is in France."));
    assert_eq!(s.text_differs, Some(["content", "snippet"]));
    let s = source(r#"{"excerpt": "Paris", "page_content": "Paris is in France."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris is in France."));
    assert_eq!(s.text_differs, Some(["page_content", "excerpt"]));
    let s = source(r#"{"content": "Paris is in France.", "text": "Paris."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris."), "`text` comes first");
    assert_eq!(s.text_differs, Some(["text", "content"]));
}

#[test]
fn a_null_text_name_is_absent() {
    let s = source(r#"{"text": null, "snippet": "Paris is in France."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris is in France."));
    assert_eq!(s.text_differs, None);
}

#[test]
fn a_snippet_alone_is_the_text() {
    let s = source(r#"{"title": "Paris", "snippet": "Paris is in France."}"#);
    assert_eq!(s.text.as_deref(), Some("Paris is in France."));
}

#[test]
fn a_text_name_of_the_wrong_type_is_still_an_error() {
    let error = serde_json::from_str::<Source>(r#"{"content": 3}"#).unwrap_err();
    assert!(error.to_string().contains("expected a string"), "{error}");
}

#[test]
fn differing_texts_validate_with_a_warning_and_the_quote_is_found_in_the_full_text() {
    let input: Input = serde_json::from_str(
        r#"{
          "answer": "Paris is the capital of France [1].",
          "sources": [{
            "content": "Paris is the capital of France. It lies on the Seine.",
            "snippet": "It lies on the Seine."
          }],
          "citations": [{ "source": 1, "quote": "Paris is the capital of France." }]
        }"#,
    )
    .expect("input");
    let report = Validator::new(Options::default())
        .expect("options")
        .validate(&input)
        .expect("report");
    let differs: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::SourceTextDiffers)
        .collect();
    assert_eq!(differs.len(), 1);
    assert_eq!(differs[0].severity, Severity::Warning);
    assert!(
        differs[0]
            .message
            .starts_with("source 1 has `content` and `snippet`")
    );
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.severity != Severity::Error),
        "{:?}",
        report.findings
    );
    let quote = report.citations[0].quote.as_ref().map(|q| q.kind);
    assert_eq!(quote, Some(MatchKind::Exact), "located in the full text");
}
