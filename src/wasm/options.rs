//! Reading option objects field by field, so every error names its exact path.

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::errors::invalid;
use crate::offsets::Unit;

/// The options of `parseCitations` / `new CitationParser`.
#[derive(Debug, Default)]
pub struct ParseOptions {
    /// The unit of returned spans.
    pub offsets: Unit,
    /// Extra marker regexes, each with a `refs` group.
    pub marker_patterns: Vec<String>,
    /// Ids that `[id]` may name: `sourceIds` plus `sources[].id`.
    pub source_ids: Vec<String>,
}

impl ParseOptions {
    /// Reads `value` (an object, `undefined` or `null`) found at `path`.
    pub fn read(value: Option<&JsValue>, path: &str) -> Result<ParseOptions, JsValue> {
        let mut options = ParseOptions::default();
        let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(options);
        };
        if !value.is_object() || value.is_array() {
            return Err(invalid("invalid_option", path, "expected an object"));
        }
        if let Some(offsets) = field(value, "offsets") {
            options.offsets = offsets
                .as_string()
                .and_then(|name| Unit::from_name(&name))
                .ok_or_else(|| {
                    invalid(
                        "invalid_option",
                        &format!("{path}.offsets"),
                        r#"expected "utf16", "utf8" or "codepoint""#,
                    )
                })?;
        }
        if let Some(patterns) = field(value, "markerPatterns") {
            options.marker_patterns = string_array(&patterns, &format!("{path}.markerPatterns"))?;
        }
        if let Some(ids) = field(value, "sourceIds") {
            options.source_ids = string_array(&ids, &format!("{path}.sourceIds"))?;
        }
        if let Some(sources) = field(value, "sources") {
            let sources_path = format!("{path}.sources");
            let sources = as_array(&sources, &sources_path)?;
            for (i, source) in sources.iter().enumerate() {
                if !source.is_object() {
                    return Err(invalid(
                        "invalid_option",
                        &format!("{sources_path}[{i}]"),
                        "expected an object",
                    ));
                }
                if let Some(id) = field(&source, "id") {
                    let id = id.as_string().ok_or_else(|| {
                        invalid(
                            "invalid_option",
                            &format!("{sources_path}[{i}].id"),
                            "expected a string",
                        )
                    })?;
                    options.source_ids.push(id);
                }
            }
        }
        Ok(options)
    }
}

/// The value of `object[name]`, or `None` when it is absent, `undefined` or `null`.
fn field(object: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

fn as_array(value: &JsValue, path: &str) -> Result<Array, JsValue> {
    value
        .dyn_ref::<Array>()
        .cloned()
        .ok_or_else(|| invalid("invalid_option", path, "expected an array"))
}

fn string_array(value: &JsValue, path: &str) -> Result<Vec<String>, JsValue> {
    as_array(value, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_string().ok_or_else(|| {
                invalid(
                    "invalid_option",
                    &format!("{path}[{i}]"),
                    "expected a string",
                )
            })
        })
        .collect()
}
