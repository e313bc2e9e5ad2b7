//! The instance's own state, shared by the exports: the panic hook, the parser of the
//! last `markerPatterns` (in the browser core, run by a JS engine: `js_patterns`), the
//! clock, and (feature `talc`) the allocator.

#[cfg(not(feature = "patterns"))]
mod js_patterns;

use std::cell::RefCell;
use std::panic;
use std::rc::Rc;
use std::sync::Once;

use wasm_bindgen::prelude::*;

use crate::wire::errors::to_js_error;
use citeproof::model::Options;
use citeproof::parse::Parser;
use citeproof::validate::Validator;

/// The module's allocator when built for npm (feature `talc`): smaller than std's
/// dlmalloc, within a few per cent of its speed (docs/perf-log.md). The module is
/// single-threaded, as talc's `WasmDynamicTalc` requires; it grows the memory on demand.
#[cfg(all(feature = "talc", target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Called first by every export: installs the panic hook (a cheap `Once` after the
/// first call), which logs a panic's message and the JS stack: a readable console message
/// if a panic ever slips through (it should not). The hook of the crate
/// console_error_panic_hook logs the same text, but assembles it in Rust, 0.3 KB more of
/// the browser core (docs/perf-log.md). Not a `#[wasm_bindgen(start)]` function, which
/// would also be exported. Out of line: inlined, the `Once` check was copied into every
/// export.
#[inline(never)]
pub(crate) fn enter() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| panic::set_hook(Box::new(|info| panicked(&info.to_string()))));
}

#[wasm_bindgen(module = "/js/env.js")]
extern "C" {
    /// Logs a panic's message with the JS stack (`console.error`), as
    /// console_error_panic_hook did.
    fn panicked(message: &str);
    /// Milliseconds from `performance.now()`.
    pub(crate) fn now() -> f64;
}

thread_local! {
    /// The parser for the last `markerPatterns` seen by `parseCitations` / `validate`, so
    /// repeated calls with the same options compile their patterns once.
    static LAST_PARSER: RefCell<Option<(Vec<String>, Rc<Parser>)>> = const { RefCell::new(None) };
}

/// The parser for `patterns`, compiled once while the same patterns keep coming.
pub(crate) fn cached_parser(patterns: &[String]) -> Result<Rc<Parser>, JsValue> {
    LAST_PARSER.with(|cell| {
        if let Some((cached, parser)) = cell.borrow().as_ref() {
            if cached == patterns {
                return Ok(Rc::clone(parser));
            }
        }
        let parser = Rc::new(compile_parser(patterns)?);
        *cell.borrow_mut() = Some((patterns.to_vec(), Rc::clone(&parser)));
        Ok(parser)
    })
}

/// A parser for `patterns`: compiled with regex-lite where the module has the feature
/// `patterns`, else by the JS engine `citeproof/patterns` registers (`js_patterns`).
pub(crate) fn compile_parser(patterns: &[String]) -> Result<Parser, JsValue> {
    #[cfg(feature = "patterns")]
    let parser = Parser::with_patterns(patterns);
    #[cfg(not(feature = "patterns"))]
    let parser = js_patterns::parser_with(patterns);
    parser.map_err(|e| to_js_error(&e.under("options")))
}

/// A validator for `options`, its marker patterns from [`cached_parser`].
pub(crate) fn validator_for(options: Options) -> Result<Validator, JsValue> {
    let parser = cached_parser(&options.marker_patterns)?;
    Validator::with_parser(options, Parser::clone(&parser))
        .map_err(|e| to_js_error(&e.under("options")))
}
