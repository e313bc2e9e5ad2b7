//! JS `Error` objects with a stable `code` property (DESIGN.md §8).

use wasm_bindgen::JsValue;

use crate::error::Error;

/// A JS `Error` whose message starts with the field path and whose `code` is `code`.
pub fn invalid(code: &str, path: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(&format!("{path}: {message}"));
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

/// The JS form of a core [`Error`].
pub fn to_js_error(error: &Error) -> JsValue {
    invalid(error.code.as_str(), &error.path, &error.message)
}
