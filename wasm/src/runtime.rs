//! The instance's own state, shared by the exports: the panic hook, the parser of the
//! last `markerPatterns`, the clock, and (feature `talc`) the allocator.

use std::cell::RefCell;
use std::rc::Rc;

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
/// first call). Not a `#[wasm_bindgen(start)]` function, which would also be exported.
/// Out of line: inlined, the `Once` check was copied into every export.
#[inline(never)]
pub(crate) fn enter() {
    console_error_panic_hook::set_once();
}

#[wasm_bindgen(module = "/js/env.js")]
extern "C" {
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
        let parser =
            Rc::new(Parser::with_patterns(patterns).map_err(|e| to_js_error(&e.under("options")))?);
        *cell.borrow_mut() = Some((patterns.to_vec(), Rc::clone(&parser)));
        Ok(parser)
    })
}

/// A validator for `options`, its marker patterns from [`cached_parser`].
pub(crate) fn validator_for(options: Options) -> Result<Validator, JsValue> {
    let parser = cached_parser(&options.marker_patterns)?;
    Validator::with_parser(options, Parser::clone(&parser))
        .map_err(|e| to_js_error(&e.under("options")))
}
