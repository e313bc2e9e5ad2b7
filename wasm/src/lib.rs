//! The JavaScript binding: the only code that knows about `wasm_bindgen`, `js_sys` and
//! `JsValue` (docs/architecture.md §1). It reads JS arguments with exact field paths in its errors,
//! calls the core, and converts byte spans to the caller's offset unit.

#[cfg(feature = "edge")]
mod around;
mod embed;
mod errors;
mod fields;
mod input;
mod input_names;
mod locate;
mod options;
#[cfg(feature = "providers")]
mod providers;
mod read;
mod render;
mod report_fields;
#[cfg(feature = "edge")]
mod report_view;
mod stream;
mod tape;
mod tape_serde;
mod validate;

#[cfg(feature = "edge")]
pub use around::{
    Metrics, audit_record, citation_schema, format_context, rejection_response, repair_prompt,
    validate_request,
};
pub use embed::validate_async;
pub use locate::locate_quote;
#[cfg(feature = "providers")]
pub use providers::{
    from_anthropic, from_any, from_cohere, from_gemini, from_openai, from_perplexity,
    from_vercel_ai,
};
pub use render::{citation_tree, render_html};
pub use stream::{CitationStream, citeproof_transform};
pub use validate::{CitationValidator, InputArg, ValidateOptionsArg, validate, validate_batch};

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use crate::parse::Parser;
use errors::{invalid, to_js_error};
use options::ParseOptions;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

#[wasm_bindgen]
extern "C" {
    /// The options object of `parseCitations` / `new CitationParser` (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "ParseOptions")]
    pub type ParseOptionsArg;
}

/// Bytes of linear memory the module holds. Wasm memory grows and never shrinks, so a
/// long-lived worker can watch this for leaks (`benches/memory.mjs` records the curve).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// Test-only (feature `test-trap`): panics inside the module, which traps the instance
/// the way a bug would; the package's wrapper must then recreate it.
#[cfg(feature = "test-trap")]
#[wasm_bindgen(js_name = "__trap")]
pub fn trap() {
    enter();
    panic!("forced trap (feature test-trap)");
}

/// The module's allocator when built for npm (feature `talc`): 2.4-2.8 KB gzip smaller
/// than std's dlmalloc, within a few per cent of its speed (Cargo.toml, docs/perf-log.md). The module is
/// single-threaded, as talc's `WasmDynamicTalc` requires; it grows the memory on demand.
#[cfg(feature = "talc")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Called first by every export: installs the panic hook (a cheap `Once` after the
/// first call). Not a `#[wasm_bindgen(start)]` function, which would also be exported.
/// Out of line: inlined, the `Once` check was copied into every export.
#[inline(never)]
pub(crate) fn enter() {
    console_error_panic_hook::set_once();
}

thread_local! {
    /// The parser for the last `markerPatterns` seen by `parseCitations` / `validate`, so
    /// repeated calls with the same options compile their patterns once.
    static LAST_PARSER: RefCell<Option<(Vec<String>, Rc<Parser>)>> = const { RefCell::new(None) };
}

pub(crate) fn cached_parser(patterns: &[String]) -> Result<Rc<Parser>, JsValue> {
    LAST_PARSER.with(|cell| {
        if let Some((cached, parser)) = cell.borrow().as_ref() {
            if cached == patterns {
                return Ok(Rc::clone(parser));
            }
        }
        let parser =
            Rc::new(Parser::with_patterns(patterns).map_err(|e| to_js_error(&e.under("options")))?);
        *cell.borrow_mut() = Some((patterns.to_vec(), Rc::clone(&parser)));
        Ok(parser)
    })
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
        let parser = Parser::with_patterns(&options.marker_patterns)
            .map_err(|e| to_js_error(&e.under("options")))?;
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

#[wasm_bindgen(module = "/src/wasm/text.js")]
extern "C" {
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(text: &js_sys::JsString, target: &mut [u8]) -> u32;
}

/// The JS string `value` (the argument named `path`) as UTF-8 (lone surrogates become
/// U+FFFD, one UTF-16 unit each, so UTF-16 offsets still index the caller's string).
pub(crate) fn read_text_at(value: &JsValue, path: &str) -> Result<String, JsValue> {
    let text = value
        .dyn_ref::<js_sys::JsString>()
        .ok_or_else(|| invalid("invalid_input", path, "expected a string"))?;
    utf8_of(text).ok_or_else(|| invalid("invalid_input", path, "could not be encoded as UTF-8"))
}

/// `text` as UTF-8 (see [`read_text_at`]); `None` if the encoder's output were not
/// UTF-8, which the engine's `TextEncoder` never gives.
fn utf8_of(text: &js_sys::JsString) -> Option<String> {
    // Each UTF-16 unit encodes to at most 3 UTF-8 bytes.
    let mut buffer = vec![0; text.length() as usize * 3];
    let written = encode_into(text, &mut buffer) as usize;
    buffer.truncate(written);
    String::from_utf8(buffer).ok()
}

fn parse_to_js(parser: &Parser, text: &str, options: &ParseOptions) -> JsValue {
    let ids: Vec<&str> = options.source_ids.iter().map(String::as_str).collect();
    tape::markers_to_js(text, parser.find_iter(text, &ids), options.offsets)
}
