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

#[test]
fn an_anthropic_search_result_block_is_a_source_its_text_blocks_joined_by_a_paragraph_break() {
    let s = source(
        r#"{"type": "search_result", "source": "https://docs.example.com/guide", "title": "Guide",
            "content": [{"type": "text", "text": "Block one."}, {"type": "text", "text": "Block two."}],
            "citations": {"enabled": true}}"#,
    );
    assert_eq!(s.url.as_deref(), Some("https://docs.example.com/guide"));
    assert_eq!(s.id, None);
    assert_eq!(s.title.as_deref(), Some("Guide"));
    assert_eq!(s.text.as_deref(), Some("Block one.\n\nBlock two."));
}

#[test]
fn a_search_result_source_that_is_no_url_is_its_id_and_a_given_id_wins() {
    let s = source(r#"{"type": "search_result", "source": "kb/42", "content": []}"#);
    assert_eq!((s.id.as_deref(), s.url), (Some("kb/42"), None));
    assert_eq!(s.text.as_deref(), Some(""));
    let s = source(r#"{"type": "search_result", "source": "kb/42", "id": "doc-7"}"#);
    assert_eq!(s.id.as_deref(), Some("doc-7"));
    // Only a search result's `source` names it: elsewhere the field is read past.
    let s = source(r#"{"type": "chunk", "source": "kb/42", "text": "x"}"#);
    assert_eq!((s.id, s.url), (None, None));
}

#[test]
fn a_content_list_with_a_block_that_is_no_text_block_is_refused() {
    let refused = serde_json::from_str::<Source>(
        r#"{"type": "search_result", "source": "kb/1", "content": [{"type": "image", "source": {}}]}"#,
    );
    assert!(refused.is_err());
}
