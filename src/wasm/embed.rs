//! `validateAsync(input, { embed, … })`: claim support with an embedding model the
//! caller brings (transformers.js, Workers AI, an API). The core stays synchronous: the
//! claims and source texts are collected, `embed` is awaited in JS, and the cosines are
//! blended into the lexical support scores (half and half).

use js_sys::{Array, Float32Array, Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;

use super::enter;
use super::errors::{invalid, to_js_error};
use super::input::{Limits, read_input};
use super::read::{MAX_LIST_ITEMS, Obj, is_revoked, read_options};
use super::report_out::report_to_js;
use super::validate::{InputArg, validator_for};
use crate::model::Input;
use crate::offsets::Unit;
use crate::support::ExternalSupport;
use crate::validate::Validator;

#[wasm_bindgen(module = "/src/wasm/embed.js")]
extern "C" {
    #[wasm_bindgen(js_name = embedThen)]
    fn embed_then(embed: &Function, texts: &Array, finish: JsValue, max_length: usize) -> Promise;
}

/// The support threshold `validateAsync` uses when the options name none: the blended
/// score of a claim its source backs is well above it (spec 001's cosine threshold is
/// 0.7; lexical scores of backed claims are 0.65 and up).
const DEFAULT_ASYNC_THRESHOLD: f64 = 0.5;

/// Like `validate`, with claim support blended from `options.embed(texts)`, which must
/// resolve to one vector (`Float32Array` or `number[]`, at most [`MAX_LIST_ITEMS`]
/// numbers) per text: the cited claims first, then every source text.
/// `supportThreshold` defaults to 0.5.
#[wasm_bindgen(js_name = validateAsync, unchecked_return_type = "Promise<Report>")]
pub fn validate_async(
    input: InputArg,
    #[wasm_bindgen(
        unchecked_param_type = "ValidateOptions & { embed: (texts: string[]) => Promise<ArrayLike<number>[]> }"
    )]
    options: JsValue,
) -> Result<Promise, JsValue> {
    enter();
    let obj = Obj::new(&options, "options", "invalid_option")?;
    let embed: Function = obj
        .get(&["embed"])
        // A revoked Proxy of a function is `typeof "function"` too, but cannot be called.
        .filter(|(_, f)| !is_revoked(f))
        .and_then(|(_, f)| f.dyn_into().ok())
        .ok_or_else(|| {
            invalid(
                "invalid_option",
                "options.embed",
                "expected a function (texts) => Promise<vectors>",
            )
        })?;
    let (mut core_options, unit) = read_options(Some(&options), &["embed"])?;
    core_options
        .support_threshold
        .get_or_insert(DEFAULT_ASYNC_THRESHOLD);
    let validator = validator_for(core_options)?;
    let input = read_input(&input, "input", unit, &Limits::of(validator.options()))?;
    let claims = validator.cited_claims(&input);
    let texts: Array = claims
        .iter()
        .map(String::as_str)
        .chain(
            input
                .sources
                .iter()
                .map(|s| s.text.as_deref().unwrap_or("")),
        )
        .map(JsValue::from_str)
        .collect();
    let finish = Closure::once_into_js(move |vectors: Array| -> Result<JsValue, JsValue> {
        finish(&validator, &input, &claims, &vectors, unit)
    });
    Ok(embed_then(&embed, &texts, finish, MAX_LIST_ITEMS))
}

/// Validates with `vectors`: as `embed.js` checked them, one `Float32Array` per text.
fn finish(
    validator: &Validator,
    input: &Input,
    claims: &[String],
    vectors: &Array,
    unit: Unit,
) -> Result<JsValue, JsValue> {
    let read = |i: u32| vectors.get(i).unchecked_into::<Float32Array>().to_vec();
    let claim_vectors: Vec<Vec<f32>> = (0..claims.len() as u32).map(read).collect();
    let source_vectors: Vec<Vec<f32>> = (claims.len() as u32..vectors.length()).map(read).collect();
    let mut external = ExternalSupport::default();
    for (claim, cv) in claims.iter().zip(&claim_vectors) {
        external.insert(
            claim,
            source_vectors.iter().map(|sv| cosine(cv, sv)).collect(),
        );
    }
    let started = super::validate::now();
    let mut report = validator
        .validate_with(input, Some(&external))
        .map_err(|e| to_js_error(&e.under("input")))?;
    report.convert_offsets(input, unit);
    report.timing_ms = super::validate::now() - started;
    Ok(report_to_js(&report))
}

/// Cosine similarity; 0 for empty or zero vectors and for mismatched dimensions.
fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}
