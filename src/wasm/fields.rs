//! Field access on JS objects for the field-by-field reader (`read.rs`): interned field
//! names and a summary of a plain object's field names.

use std::cell::RefCell;

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    /// Field names as JS strings, made once: decoding a name from wasm memory on every
    /// lookup cost more than the lookup. Keyed by the `&'static str`'s address and length
    /// (two names could share a start if the linker merged their bytes). Each key lives
    /// as long as the module (there are ~100), so a lookup hands out a `'static`
    /// reference and holds no borrow while JS runs: a getter may call back into the
    /// module and read fields itself.
    static KEYS: RefCell<Vec<((usize, usize), &'static JsValue)>> =
        const { RefCell::new(Vec::new()) };
}

/// Calls `f` with `name` as a JS string, made once per name and kept in [`KEYS`]
/// (borrowed, not cloned: a clone is a new slot in the externref table).
pub fn with_key<R>(name: &'static str, f: impl FnOnce(&JsValue) -> R) -> R {
    let address = (name.as_ptr() as usize, name.len());
    let key = KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        match keys.iter().find(|(a, _)| *a == address) {
            Some(&(_, key)) => key,
            None => {
                let key: &'static JsValue = Box::leak(Box::new(JsValue::from_str(name)));
                keys.push((address, key));
                key
            }
        }
    });
    f(key)
}

/// `object[name]`.
pub(super) fn get_field(object: &JsValue, name: &'static str) -> Option<JsValue> {
    with_key(name, |key| Reflect::get(object, key).ok())
}

#[wasm_bindgen(module = "/src/wasm/text.js")]
extern "C" {
    #[wasm_bindgen(js_name = fieldSummary)]
    /// -1: not an object (or an array); -2: an object without a summary; else the
    /// summary of its field names ([`name_bit`] of each).
    pub(super) fn field_summary(value: &JsValue) -> f64;
}

/// One of 48 bits, picked by `name`'s length and its first, middle and last bytes
/// (`fieldBit` in `text.js` is the same function; 48 bits keep the summary an exact JS
/// number).
pub(super) fn name_bit(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let at = |i: usize| bytes.get(i).map_or(0, |&b| u32::from(b));
    let len = bytes.len();
    let hash = (len as u32)
        .wrapping_mul(7)
        .wrapping_add(at(0))
        .wrapping_add(at(len / 2).wrapping_mul(3))
        .wrapping_add(at(len.wrapping_sub(1)).wrapping_mul(5));
    1 << (hash % 48)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::{field_summary, name_bit};

    /// `fieldBit` in text.js and [`name_bit`] agree on ASCII names of every length a
    /// reader asks for (a disagreement would hide present fields).
    #[wasm_bindgen_test]
    fn js_and_rust_pick_the_same_bit_for_a_name() -> Result<(), JsValue> {
        let mut state = 0x2545_f491_u32;
        for len in 1..=40 {
            for _ in 0..25 {
                let name: String = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 17;
                        state ^= state << 5;
                        char::from(b'!' + (state % 94) as u8)
                    })
                    .collect();
                let object = js_sys::Object::new();
                js_sys::Reflect::set(&object, &name.as_str().into(), &1.into())?;
                let summary = field_summary(&object);
                assert!(summary >= 0.0, "a plain object has a summary");
                assert_eq!(summary as u64, name_bit(&name), "{name:?}");
            }
        }
        Ok(())
    }
}
