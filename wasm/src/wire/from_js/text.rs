//! JS strings as UTF-8, through the engine's `TextEncoder` (`js/text.js`).

use wasm_bindgen::prelude::*;

use crate::wire::errors::invalid;

#[wasm_bindgen(module = "/js/text.js")]
extern "C" {
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(text: &js_sys::JsString, target: &mut [u8]) -> u32;
}

/// The JS string `value` (the argument named `path`) as UTF-8 (lone surrogates become
/// U+FFFD, one UTF-16 unit each, so UTF-16 offsets still index the caller's string).
pub fn read_text_at(value: &JsValue, path: &str) -> Result<String, JsValue> {
    let text = value
        .dyn_ref::<js_sys::JsString>()
        .ok_or_else(|| invalid("invalid_input", path, "expected a string"))?;
    utf8_of(text).ok_or_else(|| invalid("invalid_input", path, "could not be encoded as UTF-8"))
}

/// `text` as UTF-8 (see [`read_text_at`]); `None` if the encoder's output were not
/// UTF-8, which the engine's `TextEncoder` never gives.
pub fn utf8_of(text: &js_sys::JsString) -> Option<String> {
    // Each UTF-16 unit encodes to at most 3 UTF-8 bytes.
    let mut buffer = vec![0; text.length() as usize * 3];
    let written = encode_into(text, &mut buffer) as usize;
    buffer.truncate(written);
    String::from_utf8(buffer).ok()
}
