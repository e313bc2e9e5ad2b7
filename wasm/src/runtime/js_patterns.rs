//! `markerPatterns` in the browser core (no feature `patterns`, so no regex-lite): run on
//! the JS engine that `citeproof/patterns` registers (`js/patterns.js`). Each scan hands
//! JS its text once, as UTF-8 bytes; each search passes byte offsets.

use std::ops::Range;
use std::sync::Arc;

use citeproof::Error;
use citeproof::parse::{MarkerPatterns, Parser, PatternFault, PatternSearch};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/patterns.js")]
extern "C" {
    #[wasm_bindgen(js_name = compilePattern)]
    fn compile_pattern(source: &str) -> i32;
    #[wasm_bindgen(js_name = patternError)]
    fn pattern_error() -> String;
    #[wasm_bindgen(js_name = takePatterns)]
    fn take_patterns() -> u32;
    #[wasm_bindgen(js_name = releasePatterns)]
    fn release_patterns(handle: u32);
    #[wasm_bindgen(js_name = scanBytes)]
    fn scan_bytes(handle: u32, bytes: &[u8]) -> JsValue;
    #[wasm_bindgen(js_name = nextMatch)]
    fn next_match(scan: &JsValue, at: u32) -> f64;
    #[wasm_bindgen(js_name = patternRefs)]
    fn pattern_refs(scan: &JsValue) -> f64;
}

/// A parser for `patterns`, compiled by the registered JS engine; with none registered,
/// the core's refusal, which names `citeproof/patterns`.
pub(crate) fn parser_with(patterns: &[String]) -> Result<Parser, Error> {
    if patterns.is_empty() {
        return Ok(Parser::new());
    }
    for (i, pattern) in patterns.iter().enumerate() {
        let fault = match compile_pattern(pattern) {
            0 => continue,
            -1 => PatternFault::NoRefsGroup,
            -2 => PatternFault::NoEngine,
            _ => PatternFault::Syntax(&pattern_error()),
        };
        return Err(fault.at(i));
    }
    Ok(Parser::with_marker_patterns(Arc::new(JsPatterns(
        take_patterns(),
    ))))
}

/// The handle of a list of patterns compiled in `js/patterns.js`, released when dropped.
struct JsPatterns(u32);

impl Drop for JsPatterns {
    fn drop(&mut self) {
        release_patterns(self.0);
    }
}

impl MarkerPatterns for JsPatterns {
    fn search<'s>(&'s self, text: &str) -> Box<dyn PatternSearch + 's> {
        Box::new(JsSearch(scan_bytes(self.0, text.as_bytes())))
    }
}

/// One scan: JS's matchers over its copy of the text.
struct JsSearch(JsValue);

/// A range from `js/patterns.js`'s `start * 2 ** 32 + end` (negative: none).
fn unpack(packed: f64) -> Option<Range<usize>> {
    (packed >= 0.0).then(|| {
        let packed = packed as u64;
        (packed >> 32) as usize..(packed & 0xffff_ffff) as usize
    })
}

impl PatternSearch for JsSearch {
    fn next_match(&mut self, _text: &str, at: usize) -> Option<Range<usize>> {
        unpack(next_match(&self.0, at as u32))
    }

    fn refs(&mut self, _text: &str) -> Option<Range<usize>> {
        unpack(pattern_refs(&self.0))
    }
}
