//! `fromAnthropic` … `fromVercelAI` and `fromAny`: the provider response crosses once
//! as `JSON.stringify` text, the core's adapters read it, and the `Input` comes back
//! with its spans in the caller's unit.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::runtime::enter;
use crate::wire::errors::{invalid, to_js_error};
use crate::wire::from_js::input_tape::read_sources;
use crate::wire::from_js::read::{MAX_LIST_ITEMS, Obj, json_text, read_unit};
use crate::wire::to_js::tape::to_js;
use citeproof::model::Input;
use citeproof::offsets::Unit;
use citeproof::providers::{self, Json, Provider};

#[wasm_bindgen]
extern "C" {
    /// The options of the provider adapters (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "AdapterOptions")]
    pub type AdapterOptionsArg;
    /// The sources the caller retrieved and sent (optional).
    #[wasm_bindgen(typescript_type = "Source[]")]
    pub type SourcesArg;
}

/// What an adapter returns to JS: the provider's name, then the input's fields as the
/// model writes them (`Input`'s serde form), spans in the caller's unit.
#[derive(Serialize)]
struct Adapted<'a> {
    provider: &'static str,
    #[serde(flatten)]
    input: &'a Input,
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
    let (provider, mut input) = adapted.map_err(|e| to_js_error(&e))?;
    input.spans_to_unit(unit);
    to_js(&Adapted {
        provider: provider.name(),
        input: &input,
    })
}

macro_rules! adapter {
    // The doc is written as `#[doc = " …"]`, not `///`: a `///` line in a macro's input
    // reaches the macro as a raw string, `#[doc = r" …"]`, which wasm-bindgen copies into
    // the `.d.ts` with its `r"`.
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
    #[doc = " An Anthropic Messages response, or the list of its stream events, as an `Input`."]
    from_anthropic,
    "fromAnthropic",
    Some(Provider::Anthropic)
);
adapter!(
    #[doc = " An OpenAI Chat Completions response or chunk list, a Responses response or its"]
    #[doc = " stream events, or an Assistants message, as an `Input`."]
    from_openai,
    "fromOpenAI",
    Some(Provider::OpenAi)
);
adapter!(
    #[doc = " A Gemini `generateContent` response, or the `streamGenerateContent` chunks, as an"]
    #[doc = " `Input`."]
    from_gemini,
    "fromGemini",
    Some(Provider::Gemini)
);
adapter!(
    #[doc = " A Cohere v2 chat response, or the list of its stream events, as an `Input`."]
    from_cohere,
    "fromCohere",
    Some(Provider::Cohere)
);
adapter!(
    #[doc = " A Perplexity chat completion, or its stream chunks, as an `Input`."]
    from_perplexity,
    "fromPerplexity",
    Some(Provider::Perplexity)
);
adapter!(
    #[doc = " A Vercel AI SDK result, UI message, or the parts of a stream (`fullStream`, a UI"]
    #[doc = " message stream) as an `Input`."]
    from_vercel_ai,
    "fromVercelAI",
    Some(Provider::VercelAi)
);
adapter!(
    #[doc = " An Amazon Bedrock Converse response, or the list of its ConverseStream events, as"]
    #[doc = " an `Input`."]
    from_bedrock,
    "fromBedrock",
    Some(Provider::Bedrock)
);
adapter!(
    #[doc = " Any format the other `from…` adapters read, detected by shape; an unknown shape throws"]
    #[doc = " `unknown_provider_format`."]
    from_any,
    "fromAny",
    None
);
