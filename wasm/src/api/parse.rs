//! `parseCitations` and `CitationParser`: the markers of a text, spans in the caller's
//! unit.

use wasm_bindgen::prelude::*;

use crate::runtime::{cached_parser, compile_parser, enter};
use crate::wire::from_js::options::ParseOptions;
use crate::wire::from_js::text::read_text_at;
use crate::wire::to_js::tape::markers_to_js;
use citeproof::parse::Parser;

#[wasm_bindgen]
extern "C" {
    /// The options object of `parseCitations` / `new CitationParser` (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "ParseOptions")]
    pub type ParseOptionsArg;
}

/// Finds the citation markers in `text`. Spans are UTF-16 indices unless
/// `options.offsets` says otherwise; throws an `Error` with `code` on bad arguments.
#[wasm_bindgen(js_name = parseCitations, unchecked_return_type = "Marker[]")]
pub fn parse_citations(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<ParseOptionsArg>,
) -> Result<JsValue, JsValue> {
    enter();
    let string = read_text_at(&text, "text")?;
    let options = ParseOptions::read(options.as_deref(), "options")?;
    let parser = cached_parser(&options.marker_patterns)?;
    Ok(parse_to_js(&parser, &string, &options))
}

/// A marker parser whose options (`markerPatterns`, `sourceIds`, `offsets`) are read and
/// compiled once, for parsing many texts.
#[wasm_bindgen]
pub struct CitationParser {
    parser: Parser,
    options: ParseOptions,
}

#[wasm_bindgen]
impl CitationParser {
    /// Compiles `options`; throws an `Error` with `code: "invalid_option"` on bad ones.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<ParseOptionsArg>) -> Result<CitationParser, JsValue> {
        enter();
        let options = ParseOptions::read(options.as_deref(), "options")?;
        let parser = compile_parser(&options.marker_patterns)?;
        Ok(CitationParser { parser, options })
    }

    /// The markers of `text`, as `parseCitations(text, options)` would return them.
    #[wasm_bindgen(unchecked_return_type = "Marker[]")]
    pub fn parse(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsValue> {
        enter();
        let string = read_text_at(&text, "text")?;
        Ok(parse_to_js(&self.parser, &string, &self.options))
    }
}

fn parse_to_js(parser: &Parser, text: &str, options: &ParseOptions) -> JsValue {
    let ids: Vec<&str> = options.source_ids.iter().map(String::as_str).collect();
    markers_to_js(text, parser.find_iter(text, &ids), options.offsets)
}
