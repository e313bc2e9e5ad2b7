//! Field access on JS objects for the field-by-field reader (`read.rs`), with the field
//! names interned.

use std::cell::RefCell;

use js_sys::Reflect;
use wasm_bindgen::JsValue;

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
pub(crate) fn get_field(object: &JsValue, name: &'static str) -> Option<JsValue> {
    with_key(name, |key| Reflect::get(object, key).ok())
}
