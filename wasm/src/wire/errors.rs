//! JS `Error` objects with a stable `code` property (docs/architecture.md §8).

use wasm_bindgen::JsValue;

use citeproof::error::Error;

/// A JS `Error` whose message starts with the field path and whose `code` is `code`.
pub fn invalid(code: &str, path: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(&format!("{path}: {message}"));
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

/// How an error message shows a bad value: its type, then a string's first 40
/// characters in quotes or a number as written (`string "bytes"`, `number 1.5`).
pub fn shown(kind: &str, string: Option<&str>, number: Option<f64>) -> String {
    match (string, number) {
        (Some(text), _) => {
            let cut = text.char_indices().nth(40).map_or(text.len(), |(at, _)| at);
            // `get`, not `[..cut]`: the cut is at a char, and std's slicing panic path
            // would escape chars with Unicode tables (src/substr.rs).
            let head = text.get(..cut).unwrap_or(text);
            let more = if cut < text.len() { "…" } else { "" };
            // Quoted by hand: `{:?}` would bring in the Unicode tables of Rust's escaping.
            format!("{kind} \"{head}\"{more}")
        }
        (None, Some(n)) => format!("{kind} {}", citeproof::model::decimal(n)),
        (None, None) => kind.to_string(),
    }
}

/// The JS form of a core [`Error`]. Out of line: every export's error path calls it.
#[inline(never)]
pub fn to_js_error(error: &Error) -> JsValue {
    invalid(error.code.as_str(), &error.path, &error.message)
}
