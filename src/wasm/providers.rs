//! `fromAnthropic` … `fromVercelAI` and `fromAny`: the provider response crosses once
//! as `JSON.stringify` text, the core's adapters read it, and the `Input` comes back
//! with its spans in the caller's unit.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::enter;
use super::errors::{invalid, to_js_error};
use super::input::read_sources;
use super::read::{MAX_LIST_ITEMS, Obj, json_text, read_unit};
use super::value_out::to_js;
use crate::model::{Input, Loose, Source, SourceRef, Span};
use crate::offsets::{OffsetMap, Unit};
use crate::providers::{self, Json, Provider};

#[wasm_bindgen]
extern "C" {
    /// The options of the provider adapters (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "AdapterOptions")]
    pub type AdapterOptionsArg;
    /// The sources the caller retrieved and sent (optional).
    #[wasm_bindgen(typescript_type = "Source[]")]
    pub type SourcesArg;
}

/// The `Input` as JS sees it: camelCase, spans in the caller's unit, absent fields
/// left out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputView<'a> {
    provider: &'static str,
    answer: &'a str,
    sources: &'a [Source],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    citations: Vec<DeclaredView<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<WarningView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_version: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum RefView<'a> {
    Number(f64),
    Name(&'a str),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeclaredView<'a> {
    source: Option<RefView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    span_in_answer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence_idx: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alignment_score: Option<f64>,
}

#[derive(Serialize)]
struct WarningView<'a> {
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    span: Option<Span>,
}

fn view(provider: Provider, input: &Input, unit: Unit) -> InputView<'_> {
    let map = OffsetMap::new(&input.answer);
    let span = |s: Option<Span>| s.map(|s| map.span_to_unit(s, unit));
    InputView {
        provider: provider.name(),
        answer: &input.answer,
        sources: &input.sources,
        citations: input
            .citations
            .iter()
            .flatten()
            .map(|c| DeclaredView {
                source: c.source.as_ref().and_then(Loose::valid).map(|s| match s {
                    SourceRef::Number(n) => RefView::Number(*n),
                    SourceRef::Name(name) => RefView::Name(name),
                }),
                span: span(c.span.as_ref().and_then(Loose::valid).copied()),
                quote: c.quote.as_ref().and_then(Loose::valid).map(String::as_str),
                span_in_answer: c
                    .span_in_answer
                    .as_ref()
                    .and_then(Loose::valid)
                    .map(String::as_str),
                evidence_idx: c.evidence_idx.as_ref().and_then(Loose::valid).copied(),
                alignment_score: c.alignment_score.as_ref().and_then(Loose::valid).copied(),
            })
            .collect(),
        warnings: input
            .warnings
            .iter()
            .map(|w| WarningView {
                code: w.code.name(),
                severity: w.severity_name(),
                message: &w.message,
                span: span(w.span),
            })
            .collect(),
        response_id: input.response_id.as_deref(),
        model_version: input.model_version.as_deref(),
    }
}

/// Runs `provider`'s adapter (or detects it) on `response`.
fn adapt_js(
    provider: Option<Provider>,
    response: &JsValue,
    sources: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    enter();
    if !response.is_object() {
        return Err(invalid(
            "invalid_input",
            "response",
            "expected a provider response object (or an array of stream events)",
        ));
    }
    let sources = if sources.is_undefined() || sources.is_null() {
        None
    } else {
        Some(read_sources(sources, "sources")?)
    };
    let unit = match Obj::optional(Some(options), "options", "invalid_option")? {
        Some(obj) => {
            let unit = read_unit(&obj)?;
            obj.reject_unknown(&[])?;
            unit
        }
        None => Unit::Utf16,
    };
    let text = json_text(response, "response", MAX_LIST_ITEMS)?;
    let response = Json::parse(&text).map_err(|e| to_js_error(&e))?;
    let adapted = match provider {
        Some(p) => providers::adapt(p, &response, sources).map(|input| (p, input)),
        None => providers::from_any(&response, sources),
    };
    let (provider, input) = adapted.map_err(|e| to_js_error(&e))?;
    to_js(&view(provider, &input, unit))
}

macro_rules! adapter {
    // `doc` as a literal, not a `meta`: wasm-bindgen then reads the text, where a `meta`
    // reached the `.d.ts` as `r" …"`.
    ($(#[doc = $doc:literal])* $name:ident, $js:literal, $provider:expr) => {
        $(#[doc = $doc])*
        #[wasm_bindgen(js_name = $js, unchecked_return_type = "Input")]
        pub fn $name(
            #[wasm_bindgen(unchecked_param_type = "object")] response: JsValue,
            sources: Option<SourcesArg>,
            options: Option<AdapterOptionsArg>,
        ) -> Result<JsValue, JsValue> {
            let options = options.map_or(JsValue::UNDEFINED, Into::into);
            let sources = sources.map_or(JsValue::UNDEFINED, Into::into);
            adapt_js($provider, &response, &sources, &options)
        }
    };
}

adapter!(
    /// An Anthropic Messages response, or the list of its stream events, as an `Input`.
    from_anthropic, "fromAnthropic", Some(Provider::Anthropic)
);
adapter!(
    /// An OpenAI Chat Completions response or chunk list, a Responses response or its
    /// stream events, or an Assistants message, as an `Input`.
    from_openai, "fromOpenAI", Some(Provider::OpenAi)
);
adapter!(
    /// A Gemini `generateContent` response, or the `streamGenerateContent` chunks, as an
    /// `Input`.
    from_gemini, "fromGemini", Some(Provider::Gemini)
);
adapter!(
    /// A Cohere v2 chat response, or the list of its stream events, as an `Input`.
    from_cohere, "fromCohere", Some(Provider::Cohere)
);
adapter!(
    /// A Perplexity chat completion, or its stream chunks, as an `Input`.
    from_perplexity, "fromPerplexity", Some(Provider::Perplexity)
);
adapter!(
    /// A Vercel AI SDK result, UI message, or the parts of a stream (`fullStream`, a UI
    /// message stream) as an `Input`.
    from_vercel_ai, "fromVercelAI", Some(Provider::VercelAi)
);
adapter!(
    /// Any of the above, detected by shape; an unknown shape throws
    /// `unknown_provider_format`.
    from_any, "fromAny", None
);
