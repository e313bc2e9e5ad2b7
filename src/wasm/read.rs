//! Reading JS objects field by field, with the exact path of any bad field in the error:
//! options, provider adapter arguments, reports given back. `validate`'s input, where
//! speed matters, is read in one pass by `input.rs` instead.
//!
//! Hand-written rather than serde: the paths come for free, no deserializer is
//! monomorphised per type (this kept ~90 KB out of the .wasm), and `NaN` reaches the
//! core as a number so it can be rejected there with its path.

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};

use super::errors::invalid;
use super::fields::{field_summary, get_field, name_bit};
use super::utf8_of;
use crate::model::{Options, Policy};
use crate::offsets::Unit;

/// A JS object being read, the path that names it, and the error code for bad fields.
pub struct Obj {
    value: JsValue,
    /// A plain object's own field names, summarised: bit [`name_bit`] of each. A name
    /// whose bit is clear is absent without asking the engine. `None`: ask for every
    /// name.
    field_summary: Option<u64>,
    path: String,
    code: &'static str,
}

/// The JS type of a value, as error messages name it.
fn type_name(value: &JsValue) -> &'static str {
    if value.is_string() {
        "string"
    } else if value.as_f64().is_some() {
        "number"
    } else if value.as_bool().is_some() {
        "boolean"
    } else if value.is_array() {
        "array"
    } else if value.is_null() {
        "null"
    } else if value.is_undefined() {
        "undefined"
    } else if value.is_object() {
        "object"
    } else {
        "other value"
    }
}

impl Obj {
    /// `value` must be a plain object (not an array).
    pub fn new(value: &JsValue, path: &str, code: &'static str) -> Result<Obj, JsValue> {
        let summary = field_summary(value);
        if summary == -1.0 {
            return Err(invalid(
                code,
                path,
                &format!("expected an object, got {}", type_name(value)),
            ));
        }
        Ok(Obj {
            value: value.clone(),
            field_summary: (summary >= 0.0).then_some(summary as u64),
            path: path.to_string(),
            code,
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

    /// The path of field `name`.
    pub fn path_of(&self, name: &str) -> String {
        format!("{}.{name}", self.path)
    }

    fn error(&self, name: &str, expected: &str, got: &JsValue) -> JsValue {
        invalid(
            self.code,
            &self.path_of(name),
            &format!("expected {expected}, got {}", type_name(got)),
        )
    }

    /// The first of `names` that is present (not `undefined`/`null`), with its name.
    pub fn get(&self, names: &[&'static str]) -> Option<(&'static str, JsValue)> {
        names.iter().find_map(|&name| {
            let known_absent = self
                .field_summary
                .is_some_and(|bits| bits & name_bit(name) == 0);
            if known_absent {
                return None;
            }
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

    /// An array field: its items with their paths.
    pub fn array(&self, names: &[&'static str]) -> Result<Option<Vec<(JsValue, String)>>, JsValue> {
        self.get(names)
            .map(|(name, v)| {
                let array = v
                    .dyn_ref::<Array>()
                    .ok_or_else(|| self.error(name, "an array", &v))?;
                let path = self.path_of(name);
                Ok(array
                    .to_vec()
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| (item, item_path(&path, i)))
                    .collect())
            })
            .transpose()
    }

    /// An array of strings.
    pub fn strings(&self, names: &[&'static str]) -> Result<Option<Vec<String>>, JsValue> {
        self.array(names)?
            .map(|items| {
                items
                    .into_iter()
                    .map(|(item, path)| {
                        item.as_string().ok_or_else(|| {
                            invalid(
                                self.code,
                                &path,
                                &format!("expected a string, got {}", type_name(&item)),
                            )
                        })
                    })
                    .collect()
            })
            .transpose()
    }

    /// A nested object field.
    pub fn object(&self, names: &[&'static str]) -> Result<Option<Obj>, JsValue> {
        match self.get(names) {
            Some((name, v)) => Obj::new(&v, &self.path_of(name), self.code).map(Some),
            None => Ok(None),
        }
    }
}

/// `n` as a count (a non-negative integer up to `u32::MAX`), if it is one.
pub(super) fn count_of(n: f64) -> Option<u32> {
    (n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n)).then_some(n as u32)
}

/// `path[i]`, without `core::fmt` (every array item gets one; most are never shown).
pub(super) fn item_path(path: &str, i: usize) -> String {
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

/// `options` of `validate`: the core options and the offset unit.
pub fn read_options(value: Option<&JsValue>) -> Result<(Options, Unit), JsValue> {
    let mut options = Options::default();
    let Some(obj) = Obj::optional(value, "options", "invalid_option")? else {
        return Ok((options, Unit::Utf16));
    };
    let unit = read_unit(&obj)?;
    if let Some((name, v)) = obj.get(&["policy"]) {
        options.policy = match v.as_string().as_deref() {
            Some("flag") => Policy::Flag,
            Some("clean") => Policy::Clean,
            Some("strict") => Policy::Strict,
            _ => return Err(obj.error(name, r#""flag", "clean" or "strict""#, &v)),
        };
    }
    set(&mut options.renumber, obj.boolean(&["renumber"])?);
    set(
        &mut options.require_citations,
        obj.boolean(&["requireCitations"])?,
    );
    set(
        &mut options.max_invalid_ratio,
        obj.number(&["maxInvalidRatio"])?,
    );
    set(&mut options.low_alignment, obj.number(&["lowAlignment"])?);
    set(
        &mut options.min_avg_alignment,
        obj.number(&["minAvgAlignment"])?,
    );
    set(&mut options.min_coverage, obj.number(&["minCoverage"])?);
    set(
        &mut options.min_evidence_idx_ratio,
        obj.number(&["minEvidenceIdxRatio"])?,
    );
    set(&mut options.max_edit_ratio, obj.number(&["maxEditRatio"])?);
    set(
        &mut options.uncertain_below,
        obj.number(&["uncertainBelow"])?,
    );
    set(
        &mut options.partial_span_chars,
        obj.count(&["partialSpanChars"])?.map(|n| n as usize),
    );
    set(
        &mut options.max_answer_chars,
        obj.count(&["maxAnswerChars"])?.map(|n| n as usize),
    );
    set(
        &mut options.max_sources,
        obj.count(&["maxSources"])?.map(|n| n as usize),
    );
    set(
        &mut options.marker_patterns,
        obj.strings(&["markerPatterns"])?,
    );
    options.support_threshold = obj.number(&["supportThreshold"])?;
    set(
        &mut options.paragraph_citations,
        obj.boolean(&["paragraphCitations"])?,
    );
    set(
        &mut options.misattribution_margin,
        obj.number(&["misattributionMargin"])?,
    );
    if let Some((name, v)) = obj.get(&["quoteLength"]) {
        let pair = v.dyn_ref::<Array>().filter(|a| a.length() == 2);
        let bound = |i: u32| {
            pair?
                .get(i)
                .as_f64()
                .filter(|n| n.fract() == 0.0 && *n >= 0.0)
                .map(|n| n as usize)
        };
        options.quote_length = Some([
            bound(0).ok_or_else(|| obj.error(name, "[min, max] characters", &v))?,
            bound(1).ok_or_else(|| obj.error(name, "[min, max] characters", &v))?,
        ]);
    }
    Ok((options, unit))
}

/// `offsets`: `"utf16"` (default), `"utf8"` or `"codepoint"`.
pub fn read_unit(obj: &Obj) -> Result<Unit, JsValue> {
    match obj.get(&["offsets"]) {
        Some((name, v)) => v
            .as_string()
            .and_then(|n| Unit::from_name(&n))
            .ok_or_else(|| obj.error(name, r#""utf16", "utf8" or "codepoint""#, &v)),
        None => Ok(Unit::Utf16),
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::item_path;

    #[wasm_bindgen_test]
    fn item_paths_are_written_like_format() {
        for i in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(item_path("input.sources", i), format!("input.sources[{i}]"));
        }
    }
}
