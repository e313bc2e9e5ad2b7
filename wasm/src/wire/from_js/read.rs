//! Reading JS objects field by field, with the exact path of any bad field in the error:
//! options, provider adapter arguments, reports given back. `validate`'s input, where
//! speed matters, is read in one pass by `input.rs` instead.
//!
//! Hand-written rather than serde: the paths come for free, no deserializer is
//! monomorphised per type (this kept ~90 KB out of the .wasm), and `NaN` reaches the
//! core as a number so it can be rejected there with its path.
//!
//! Any value may be hostile: lists are copied by `listItems` (`untrusted.js`), which
//! reads no item of a list longer than its limit, and types are told by `typeCode`,
//! which also names a revoked Proxy (on which `Array.isArray` throws).

use std::cell::RefCell;

use js_sys::Array;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::fields::get_field;
use super::text::utf8_of;
use crate::wire::contract::{
    LIST_NOT_AN_ARRAY, LIST_UNREADABLE_LENGTH, OFFSET_UNITS_EXPECTED, TYPE_OBJECT, TYPE_REVOKED,
    TYPE_UNREADABLE_LENGTH, TYPES,
};
use crate::wire::errors::{invalid, shown};
use citeproof::model::Options;
use citeproof::offsets::Unit;

#[wasm_bindgen(module = "/js/untrusted.js")]
extern "C" {
    #[wasm_bindgen(js_name = typeCode)]
    fn type_code(value: &JsValue) -> u32;
    #[wasm_bindgen(js_name = listItems)]
    pub(super) fn list_items(value: &JsValue, limit: u32) -> JsValue;
    /// The `invalid_option` error for the first own field of `value` (at `path`) whose
    /// name is not in `known` (names each followed by a comma), or `None`.
    #[wasm_bindgen(js_name = unknownField)]
    fn unknown_field(value: &JsValue, known: &str, path: &str) -> Option<JsValue>;
    /// `JSON.stringify(value)`, refusing arrays of more than `limit` items and revoked
    /// Proxies with their path under `path` (see `untrusted.js`).
    #[wasm_bindgen(js_name = jsonText, catch)]
    pub(crate) fn json_text(value: &JsValue, path: &str, limit: usize) -> Result<String, JsValue>;
}

pub use crate::wire::contract::MAX_LIST_ITEMS;

/// What errors call [`MAX_LIST_ITEMS`].
pub(crate) const LIST_CEILING: &str = "the most a list may hold";

/// The most `markerPatterns`, and its name for errors: each pattern is compiled and run
/// over the whole text.
pub(crate) const MAX_MARKER_PATTERNS: (usize, &str) = (100, "the most markerPatterns");

/// The `too_large` error for a list at `path` of `length` items, more than `limit`
/// (called `limit_name`).
pub(crate) fn too_many(path: &str, length: usize, limit: usize, limit_name: &str) -> JsValue {
    invalid(
        "too_large",
        path,
        &format!("{length} items exceed {limit_name} ({limit})"),
    )
}

/// A JS object being read, the path that names it, and the error code for bad fields.
pub struct Obj {
    value: JsValue,
    path: String,
    code: &'static str,
    /// Every name asked for so far: what [`Obj::reject_unknown`] knows.
    asked: RefCell<Vec<&'static str>>,
}

/// The JS type of a value, as error messages name it.
pub(crate) fn type_name(value: &JsValue) -> &'static str {
    TYPES
        .get(type_code(value) as usize)
        .copied()
        .unwrap_or("other value")
}

/// `value` as error messages show it: its type, and a string's or number's value.
pub(crate) fn shown_js(value: &JsValue) -> String {
    let kind = type_name(value);
    match kind {
        "boolean" => format!("{kind} {}", value.is_truthy()),
        _ => shown(kind, value.as_string().as_deref(), value.as_f64()),
    }
}

/// Whether `value` is a revoked Proxy, on which every operation throws.
pub(crate) fn is_revoked(value: &JsValue) -> bool {
    type_code(value) as usize == TYPE_REVOKED
}

/// The items of `value` with their paths, if it is an array of at most `limit.0` items
/// (`limit.1` names that limit); else the error for the value at `path`.
pub(crate) fn read_list(
    value: &JsValue,
    path: &str,
    code: &str,
    (limit, limit_name): (usize, &str),
) -> Result<Vec<(JsValue, String)>, JsValue> {
    let items = list_items(value, limit as u32);
    let Some(array) = items.dyn_ref::<Array>() else {
        // What `listItems` returns instead: the length over the limit, or why not.
        let found = items.as_f64().unwrap_or(LIST_NOT_AN_ARRAY);
        let got = if found == LIST_UNREADABLE_LENGTH {
            TYPES[TYPE_UNREADABLE_LENGTH]
        } else {
            type_name(value)
        };
        return Err(if found >= 0.0 {
            too_many(path, found as usize, limit, limit_name)
        } else {
            invalid(code, path, &format!("expected an array, got {got}"))
        });
    };
    Ok(array
        .iter()
        .enumerate()
        .map(|(i, item)| (item, item_path(path, i)))
        .collect())
}

impl Obj {
    /// `value` must be a plain object (not an array).
    pub fn new(value: &JsValue, path: &str, code: &'static str) -> Result<Obj, JsValue> {
        if type_code(value) as usize != TYPE_OBJECT {
            return Err(invalid(
                code,
                path,
                &format!("expected an object, got {}", type_name(value)),
            ));
        }
        Ok(Obj {
            value: value.clone(),
            path: path.to_string(),
            code,
            asked: RefCell::new(Vec::new()),
        })
    }

    /// An optional object: `undefined`/`null` read as `None`.
    pub fn optional(
        value: Option<&JsValue>,
        path: &str,
        code: &'static str,
    ) -> Result<Option<Obj>, JsValue> {
        match value {
            Some(v) if !v.is_undefined() && !v.is_null() => Obj::new(v, path, code).map(Some),
            _ => Ok(None),
        }
    }

    /// `Err` for the first own field whose name was never asked for and is not in
    /// `also` (a misspelt option would otherwise be ignored without a word), naming the
    /// known name nearest to it (at most 2 edits, or a third of its length, away), else
    /// every known name. Call it after reading every field.
    pub fn reject_unknown(&self, also: &[&'static str]) -> Result<(), JsValue> {
        let mut known = String::new();
        for name in self.asked.borrow().iter().chain(also) {
            known.push_str(name);
            known.push(',');
        }
        unknown_field(&self.value, &known, &self.path).map_or(Ok(()), Err)
    }

    /// The path of field `name`.
    pub fn path_of(&self, name: &str) -> String {
        format!("{}.{name}", self.path)
    }

    /// The error for field `name`: `expected …, got …` (`got` as errors show it).
    pub(super) fn error(&self, name: &str, expected: &str, got: &JsValue) -> JsValue {
        invalid(
            self.code,
            &self.path_of(name),
            &format!("expected {expected}, got {}", shown_js(got)),
        )
    }

    /// The first of `names` that is present (not `undefined`/`null`), with its name.
    pub fn get(&self, names: &[&'static str]) -> Option<(&'static str, JsValue)> {
        self.asked.borrow_mut().extend_from_slice(names);
        names.iter().find_map(|&name| {
            get_field(&self.value, name)
                .filter(|v| !v.is_undefined() && !v.is_null())
                .map(|v| (name, v))
        })
    }

    /// A string field (copied in with the engine's UTF-8 encoder).
    pub fn string(&self, names: &[&'static str]) -> Result<Option<String>, JsValue> {
        self.get(names)
            .map(|(name, v)| match v.dyn_ref::<js_sys::JsString>() {
                // The path is made only for an error: most reads have none.
                Some(text) => utf8_of(text).ok_or_else(|| {
                    invalid(
                        self.code,
                        &self.path_of(name),
                        "could not be encoded as UTF-8",
                    )
                }),
                None => Err(self.error(name, "a string", &v)),
            })
            .transpose()
    }

    /// A number field (`NaN` included: the core decides about it).
    pub fn number(&self, names: &[&'static str]) -> Result<Option<f64>, JsValue> {
        self.get(names)
            .map(|(name, v)| v.as_f64().ok_or_else(|| self.error(name, "a number", &v)))
            .transpose()
    }

    /// A non-negative integer field.
    pub fn count(&self, names: &[&'static str]) -> Result<Option<u32>, JsValue> {
        self.get(names)
            .map(|(name, v)| {
                v.as_f64()
                    .and_then(count_of)
                    .ok_or_else(|| self.error(name, "a non-negative integer", &v))
            })
            .transpose()
    }

    /// A boolean field.
    pub fn boolean(&self, names: &[&'static str]) -> Result<Option<bool>, JsValue> {
        self.get(names)
            .map(|(name, v)| v.as_bool().ok_or_else(|| self.error(name, "a boolean", &v)))
            .transpose()
    }

    /// An array field of at most [`MAX_LIST_ITEMS`] items: its items with their paths.
    pub fn array(&self, names: &[&'static str]) -> Result<Option<Vec<(JsValue, String)>>, JsValue> {
        self.array_of_at_most(names, (MAX_LIST_ITEMS, LIST_CEILING))
    }

    fn array_of_at_most(
        &self,
        names: &[&'static str],
        limit: (usize, &str),
    ) -> Result<Option<Vec<(JsValue, String)>>, JsValue> {
        self.get(names)
            .map(|(name, v)| read_list(&v, &self.path_of(name), self.code, limit))
            .transpose()
    }

    /// An array of at most `limit.0` strings (`limit.1` names that limit).
    pub fn strings(
        &self,
        names: &[&'static str],
        limit: (usize, &str),
    ) -> Result<Option<Vec<String>>, JsValue> {
        self.array_of_at_most(names, limit)?
            .map(|items| {
                items
                    .into_iter()
                    .map(|(item, path)| {
                        item.as_string().ok_or_else(|| {
                            invalid(
                                self.code,
                                &path,
                                &format!("expected a string, got {}", shown_js(&item)),
                            )
                        })
                    })
                    .collect()
            })
            .transpose()
    }

    #[cfg(feature = "edge")]
    /// A nested object field.
    pub fn object(&self, names: &[&'static str]) -> Result<Option<Obj>, JsValue> {
        match self.get(names) {
            Some((name, v)) => Obj::new(&v, &self.path_of(name), self.code).map(Some),
            None => Ok(None),
        }
    }
}

/// `n` as a count (a non-negative integer up to `u32::MAX`), if it is one.
pub(crate) fn count_of(n: f64) -> Option<u32> {
    (n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n)).then_some(n as u32)
}

/// `path[i]`, without `core::fmt` (every array item gets one; most are never shown).
pub(crate) fn item_path(path: &str, i: usize) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = i;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut out = String::with_capacity(path.len() + digits.len() - at + 2);
    out.push_str(path);
    out.push('[');
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
    out.push(']');
    out
}

/// `options` of `validate`: the core options and the offset unit. A field that is
/// neither one of these nor in `also` (what the caller reads itself, such as
/// `validateAsync`'s `embed`) is an `invalid_option` error.
pub fn read_options(
    value: Option<&JsValue>,
    also: &[&'static str],
) -> Result<(Options, Unit), JsValue> {
    let Some(obj) = Obj::optional(value, "options", "invalid_option")? else {
        return Ok((Options::default(), Unit::Utf16));
    };
    let read = super::option_fields::read_option_fields(&obj)?;
    obj.reject_unknown(also)?;
    Ok(read)
}

/// `offsets`: `"utf16"` (default), `"utf8"` or `"codepoint"`.
pub fn read_unit(obj: &Obj) -> Result<Unit, JsValue> {
    match obj.get(&["offsets"]) {
        Some((name, v)) => v
            .as_string()
            .and_then(|n| Unit::from_name(&n))
            .ok_or_else(|| obj.error(name, OFFSET_UNITS_EXPECTED, &v)),
        None => Ok(Unit::Utf16),
    }
}

/// Overwrites `slot` with `value` when the field was given.
pub(super) fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::super::option_fields::read_option_fields;
    use super::{Obj, item_path};
    use crate::wire::contract::VALIDATE_OPTIONS;

    #[wasm_bindgen_test]
    fn item_paths_are_written_like_format() {
        for i in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(item_path("input.sources", i), format!("input.sources[{i}]"));
        }
    }

    /// `citeproofTransform` (JS) checks option names against the contract's list.
    #[wasm_bindgen_test]
    fn reads_the_options_the_contract_names_in_its_order_and_no_other() {
        let empty = js_sys::Object::new().into();
        let Ok(obj) = Obj::new(&empty, "options", "invalid_option") else {
            panic!("an empty object is read as options");
        };
        assert!(
            read_option_fields(&obj).is_ok(),
            "an empty options object is valid"
        );
        assert_eq!(*obj.asked.borrow(), VALIDATE_OPTIONS);
    }
}
