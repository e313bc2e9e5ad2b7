//! `locateQuote`: finding a quote in a source's text, for callers that check quotes of
//! their own.

use wasm_bindgen::prelude::*;

use crate::wire::errors::invalid;
use crate::wire::from_js::read::{Obj, read_unit};
use crate::wire::to_js::tape::to_js;
use crate::{runtime::enter, wire::from_js::text::read_text_at};
use citeproof::offsets::Unit;

/// Finds `quote` in `source`: exact, then normalised, then within
/// `options.maxEditRatio` (default 0.1) edits. The span indexes `source` in
/// `options.offsets` (default UTF-16).
#[wasm_bindgen(js_name = locateQuote, unchecked_return_type = "QuoteLocation")]
pub fn locate_quote(
    #[wasm_bindgen(unchecked_param_type = "string")] quote: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(
        unchecked_optional_param_type = "{ maxEditRatio?: number; offsets?: OffsetUnit } | null"
    )]
    options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    enter();
    let quote = read_text_at(&quote, "quote")?;
    let source = read_text_at(&source, "source")?;
    let options = Obj::optional(options.as_ref(), "options", "invalid_option")?;
    let (ratio, unit) = match &options {
        Some(obj) => (
            obj.number(&["maxEditRatio"])?.unwrap_or(0.1),
            read_unit(obj)?,
        ),
        None => (0.1, Unit::Utf16),
    };
    if !(0.0..=1.0).contains(&ratio) {
        return Err(invalid(
            "invalid_option",
            "options.maxEditRatio",
            "expected a number in 0–1",
        ));
    }
    let mut location = citeproof::locate::locate_quote(&quote, &source, ratio);
    if let Some(span) = location.span.as_mut() {
        *span = citeproof::offsets::OffsetMap::new(&source).span_to_unit(*span, unit);
    }
    to_js(&location)
}
