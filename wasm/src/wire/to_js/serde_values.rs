//! Any `Serialize` value onto the tape (`tape.rs`), as a tree of operations that
//! `tape.js` turns into a JS value: the audit record, the rejection response, request
//! findings, quote locations, adapted provider inputs and batch summaries. The report
//! and a stream's events are written field by field instead, in fixed shapes
//! (`report_fields.rs`), which is faster.
//!
//! The values equal what `JSON.parse(serde_json::to_string(value))` gives: structs and
//! maps become objects with their fields in order, `None` and unit `null`, non-finite
//! floats `null`, enum variants as serde_json represents them (the tests below
//! compare both over the whole serde data model). `f32` is refused (serde_json prints
//! its shortest decimal, which no cast to `f64` reproduces; nothing citeproof returns
//! holds one).

use serde::Serialize;
use serde::ser;

use super::tape::Tape;
use crate::wire::contract::{
    VALUE_ARRAY, VALUE_END, VALUE_FALSE, VALUE_NULL, VALUE_NUMBER, VALUE_OBJECT, VALUE_STRING,
    VALUE_TRUE,
};

// The operations of a value, numbered in the wire contract (wasm/js/schema.mjs). A number
// is `VALUE_NUMBER` and its value; a string is `VALUE_STRING` and then the string as the
// tape writes one; arrays and objects run from `VALUE_ARRAY` or `VALUE_OBJECT` to
// `VALUE_END`, an object's fields each a key (a string, or a map key's value) followed by
// its value.

/// Why a value could not be written.
#[derive(Debug)]
pub struct TapeError(String);

impl std::fmt::Display for TapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TapeError {}

impl ser::Error for TapeError {
    fn custom<T: std::fmt::Display>(message: T) -> TapeError {
        TapeError(message.to_string())
    }
}

impl Tape {
    fn op(&mut self, op: f64) {
        self.numbers.push(op);
    }

    fn number(&mut self, value: f64) {
        // serde_json writes NaN and ±Infinity as null.
        if value.is_finite() {
            self.numbers.extend([VALUE_NUMBER, value]);
        } else {
            self.op(VALUE_NULL);
        }
    }

    fn text(&mut self, value: &str) {
        self.op(VALUE_STRING);
        self.string(value);
    }

    /// `{ variant: … }`, serde_json's form of a variant with data; closed by [`Self::end`]
    /// (twice for tuple and struct variants).
    fn open_variant(&mut self, variant: &str) {
        self.op(VALUE_OBJECT);
        self.text(variant);
    }

    fn end(&mut self) {
        self.op(VALUE_END);
    }
}

type Done = Result<(), TapeError>;

impl ser::Serializer for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Done {
        self.op(if v { VALUE_TRUE } else { VALUE_FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Done {
        // As JSON.parse reads the integer serde_json prints: the nearest f64.
        self.number(v as f64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Done {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_f32(self, _: f32) -> Done {
        Err(TapeError("f32 values are not supported".into()))
    }
    fn serialize_f64(self, v: f64) -> Done {
        self.number(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Done {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Done {
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Done {
        // serde_json: an array of numbers.
        self.op(VALUE_ARRAY);
        for &byte in v {
            self.number(f64::from(byte));
        }
        self.end();
        Ok(())
    }
    fn serialize_none(self) -> Done {
        self.op(VALUE_NULL);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Done {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Done {
        self.text(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Done {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.end();
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, TapeError> {
        self.op(VALUE_ARRAY);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, TapeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, TapeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, TapeError> {
        self.open_variant(variant);
        self.op(VALUE_ARRAY);
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, TapeError> {
        self.op(VALUE_OBJECT);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, TapeError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, TapeError> {
        self.open_variant(variant);
        self.op(VALUE_OBJECT);
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self); // the array
        Tape::end(self); // the `{ variant: … }` object
        Ok(())
    }
}

impl ser::SerializeMap for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Done {
        // Written as a value; tape.js turns it into a string as serde_json would
        // for the keys it accepts (strings, integers up to 2^53, booleans).
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        self.text(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        self.text(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Tape::end(self); // the fields
        Tape::end(self); // the `{ variant: … }` object
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::super::tape::to_js;

    #[derive(Serialize)]
    enum External {
        Unit,
        Newtype(u8),
        Tuple(u8, String),
        Struct { inner: Option<u8> },
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    enum Tagged {
        Text { text: String },
        Chip { label: String, valid: bool },
    }

    #[derive(Serialize)]
    #[serde(untagged)]
    enum Untagged {
        Number(u32),
        Name(String),
    }

    #[derive(Serialize)]
    struct Newtype(f64);

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Every {
        flag_on: bool,
        flag_off: bool,
        small: i8,
        negative: i64,
        huge: u64,
        fraction: f64,
        not_a_number: f64,
        infinite: f64,
        minus_zero: f64,
        letter: char,
        text: String,
        absent: Option<String>,
        present: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u32>,
        unit: (),
        pair: (u8, &'static str),
        bytes: Vec<u8>,
        nested: Vec<Vec<u32>>,
        empty: Vec<u32>,
        externals: Vec<External>,
        tagged: Vec<Tagged>,
        untagged: Vec<Untagged>,
        newtype: Newtype,
        by_number: BTreeMap<u32, &'static str>,
        by_name: BTreeMap<&'static str, Option<bool>>,
    }

    #[wasm_bindgen_test]
    fn values_equal_json_parse_of_serde_json_text() -> Result<(), JsValue> {
        let value = Every {
            flag_on: true,
            flag_off: false,
            small: -8,
            negative: i64::MIN,
            huge: u64::MAX,
            fraction: 0.1 + 0.2,
            not_a_number: f64::NAN,
            infinite: f64::NEG_INFINITY,
            minus_zero: -0.0,
            letter: '😀',
            text: "東京 😀 \"quoted\" back\\slash \r\n\t\u{0} end".into(),
            absent: None,
            present: Some(7),
            skipped: None,
            unit: (),
            pair: (1, "one"),
            bytes: vec![0, 255],
            nested: vec![vec![1, 2], vec![]],
            empty: vec![],
            externals: vec![
                External::Unit,
                External::Newtype(3),
                External::Tuple(4, "four".into()),
                External::Struct { inner: None },
            ],
            tagged: vec![
                Tagged::Text { text: "a".into() },
                Tagged::Chip {
                    label: "[1]".into(),
                    valid: true,
                },
            ],
            untagged: vec![Untagged::Number(2), Untagged::Name("intro".into())],
            newtype: Newtype(2.5),
            by_number: BTreeMap::from([(10, "ten"), (2, "two")]),
            by_name: BTreeMap::from([("__proto__", Some(true)), ("plain", None)]),
        };
        let stringify = |v: &JsValue| -> Result<String, JsValue> {
            js_sys::JSON::stringify(v)?
                .as_string()
                .ok_or_else(|| "JSON.stringify gave no string".into())
        };
        let text = serde_json::to_string(&value).map_err(|e| JsValue::from(e.to_string()))?;
        let expected = stringify(&js_sys::JSON::parse(&text)?)?;
        let actual = to_js(&value)?;
        assert_eq!(stringify(&actual)?, expected);
        // An own "__proto__" field, as JSON.parse makes it, not a prototype.
        let by_name = js_sys::Reflect::get(&actual, &"byName".into())?;
        let proto = js_sys::Object::get_prototype_of(&by_name);
        assert!(proto.eq(&js_sys::Object::get_prototype_of(&js_sys::Object::new())));
        assert_eq!(
            js_sys::Object::keys(&by_name.into()).length(),
            2,
            "__proto__ and plain"
        );
        Ok(())
    }

    #[wasm_bindgen_test]
    fn f32_values_are_refused() {
        assert!(to_js(&1.5f32).is_err());
    }
}
