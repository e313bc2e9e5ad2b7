//! `validateAsync(input, { embed, judge, … })`: claim support with models the caller
//! brings — an embedding model (`embed`: transformers.js, Workers AI, an API) and a
//! judge (`judge`: an NLI or MiniCheck-style model, or an endpoint, giving the
//! probability that a passage supports a claim). The core stays synchronous: the claims
//! and source texts are collected, the hooks are awaited in JS (`embed.js`), and their
//! scores are blended into the lexical support scores: a cosine weighs as much as the
//! lexical score, a judge's probability twice as much ([`JUDGE_WEIGHT`]).

use js_sys::{Array, Float32Array, Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;

use super::validate::InputArg;
use crate::runtime::enter;
use crate::runtime::validator_for;
use crate::wire::errors::{invalid, to_js_error};
use crate::wire::from_js::input_tape::{Limits, read_input};
use crate::wire::from_js::read::{MAX_LIST_ITEMS, Obj, is_revoked, read_options};
use crate::wire::to_js::tape::report_to_js;
use citeproof::model::Input;
use citeproof::offsets::Unit;
use citeproof::support::ExternalSupport;
use citeproof::validate::Validator;

#[wasm_bindgen(module = "/js/embed.js")]
extern "C" {
    #[wasm_bindgen(js_name = supportThen)]
    fn support_then(
        embed: Option<Function>,
        judge: Option<Function>,
        texts: &Array,
        claim_count: usize,
        labels: &Array,
        pair_claims: &[u32],
        pair_sources: &[u32],
        finish: JsValue,
        max_length: usize,
    ) -> Promise;
}

/// The support threshold `validateAsync` uses when the options name none: the blended
/// score of a claim its source backs is above it (spec 001's cosine threshold is 0.7;
/// the lexical score puts 4.8 % of fully supported ExpertQA citations below 0.5,
/// docs/support.md).
const DEFAULT_ASYNC_THRESHOLD: f64 = 0.5;

/// How much a judge's probability weighs against the lexical score's 1 (and a cosine's
/// 1). An entailment judge answers the question itself where the others measure
/// likeness, so a judge that is right wins: with the judge alone, a pair it calls
/// supported (1) scores at least 2/3 and one it rejects (0) at most 1/3, whatever the
/// words say — the 0.5 threshold and a misattribution margin such as 0.3 follow it.
const JUDGE_WEIGHT: f64 = 2.0;

/// Like `validate`, with claim support blended from `options.embed(texts)` and/or
/// `options.judge(pairs)`.
/// - `embed` must resolve to one vector (`Float32Array` or `number[]`, at most
///   1,000,000 numbers, `MAX_LIST_ITEMS`) per text: the claims whose support is scored
///   first, then every source text. The cosine of a claim and a source its support
///   reads is a score.
/// - `judge` receives, at once, each claim whose support is scored paired with each
///   source its support reads (`{ claim, passage, sourceIndex }`): the sources it cites
///   and at most 8 others sharing its words (`Validator::support_pairs`), so the pairs
///   grow with the answer, not with claims × sources. It must resolve to one
///   probability (0–1) per pair.
///
/// A cosine counts as much as the lexical score, a probability twice as much.
/// `supportThreshold` defaults to 0.5.
#[wasm_bindgen(js_name = validateAsync, unchecked_return_type = "Promise<Report>")]
pub fn validate_async(
    input: InputArg,
    #[wasm_bindgen(unchecked_param_type = "ValidateAsyncOptions")] options: JsValue,
) -> Result<Promise, JsValue> {
    enter();
    let obj = Obj::new(&options, "options", "invalid_option")?;
    let embed = hook(
        &obj,
        ("embed", "options.embed"),
        "expected a function (texts) => Promise<vectors>",
    )?;
    let judge = hook(
        &obj,
        ("judge", "options.judge"),
        "expected a function (pairs) => Promise<probabilities>",
    )?;
    if embed.is_none() && judge.is_none() {
        return Err(invalid(
            "invalid_option",
            "options",
            "expected an embed or a judge function",
        ));
    }
    let (mut core_options, unit) = read_options(Some(&options), &["embed", "judge"])?;
    core_options
        .support_threshold
        .get_or_insert(DEFAULT_ASYNC_THRESHOLD);
    let validator = validator_for(core_options)?;
    let input = read_input(&input, "input", unit, &Limits::of(validator.options()))?;
    let pairs = validator
        .support_pairs(&input)
        .map_err(|e| to_js_error(&e.under("input")))?;
    // Flattened for JS: pair k is claim `pair_claims[k]` with source `pair_sources[k]`.
    let (mut pair_claims, mut pair_sources) = (Vec::new(), Vec::new());
    for (c, (_, sources)) in pairs.iter().enumerate() {
        for &s in sources {
            pair_claims.push(c as u32);
            pair_sources.push(s as u32);
        }
    }
    let claims: Vec<String> = pairs.into_iter().map(|(claim, _)| claim).collect();
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
    let labels: Array = (input.sources.iter().enumerate())
        .map(|(i, s)| JsValue::from(s.label(i)))
        .collect();
    let claim_count = claims.len();
    // One argument, `[vectors, probabilities]`: a closure of this signature is in the
    // module anyway (a second signature costs its glue).
    let (claims_of, sources_of) = (pair_claims.clone(), pair_sources.clone());
    let finish = Closure::once_into_js(move |results: Array| -> Result<JsValue, JsValue> {
        let pairs = Pairs {
            claims: &claims,
            claim_of: &claims_of,
            source_of: &sources_of,
        };
        finish(
            &validator,
            &input,
            &pairs,
            (&results.get(0), &results.get(1)),
            unit,
        )
    });
    Ok(support_then(
        embed,
        judge,
        &texts,
        claim_count,
        &labels,
        &pair_claims,
        &pair_sources,
        finish,
        MAX_LIST_ITEMS,
    ))
}

/// The function `options[name]`, if given; anything else there is an error saying what
/// it must be (`expected`, under `options.<name>`).
fn hook(
    obj: &Obj,
    (name, path): (&'static str, &str),
    expected: &str,
) -> Result<Option<Function>, JsValue> {
    let Some((_, value)) = obj.get(&[name]) else {
        return Ok(None);
    };
    // A revoked Proxy of a function is `typeof "function"` too, but cannot be called.
    value
        .dyn_into()
        .ok()
        .filter(|f: &Function| !is_revoked(f))
        .map(Some)
        .ok_or_else(|| invalid("invalid_option", path, expected))
}

/// The pairs a claim's support reads ([`Validator::support_pairs`], flattened): pair `k`
/// is claim `claims[claim_of[k]]` with source position `source_of[k]`, a claim's pairs
/// next to each other.
struct Pairs<'a> {
    claims: &'a [String],
    claim_of: &'a [u32],
    source_of: &'a [u32],
}

impl Pairs<'_> {
    /// A table of `score(k)` for each pair `k`, weighing `weight`. `score` is a trait
    /// object: the embedder's and the judge's tables share one copy of this function and
    /// of [`ExternalSupport::insert`] (generic over it, they were two of each in the
    /// browser core).
    fn table(&self, weight: f64, score: &dyn Fn(usize) -> f64) -> ExternalSupport {
        let mut table = ExternalSupport::weighted(weight);
        let mut start = 0;
        while start < self.claim_of.len() {
            let c = self.claim_of[start];
            let end = start
                + self.claim_of[start..]
                    .iter()
                    .take_while(|&&x| x == c)
                    .count();
            let scores = (start..end).map(|k| (self.source_of[k] as usize, score(k)));
            table.insert(&self.claims[c as usize], scores);
            start = end;
        }
        table
    }
}

/// Validates with what `embed.js` checked: one `Float32Array` per text (or undefined
/// without `embed`), and the judge's probabilities, one per pair (an array of numbers,
/// or undefined).
fn finish(
    validator: &Validator,
    input: &Input,
    pairs: &Pairs<'_>,
    (vectors, judged): (&JsValue, &JsValue),
    unit: Unit,
) -> Result<JsValue, JsValue> {
    let mut tables = Vec::new();
    if let Some(vectors) = vectors.dyn_ref::<Array>() {
        let read = |i: u32| vectors.get(i).unchecked_into::<Float32Array>().to_vec();
        let count = pairs.claims.len() as u32;
        let claim_vectors: Vec<Vec<f32>> = (0..count).map(read).collect();
        let source_vectors: Vec<Vec<f32>> = (count..vectors.length()).map(read).collect();
        tables.push(pairs.table(1.0, &|k| {
            let (c, s) = (pairs.claim_of[k] as usize, pairs.source_of[k] as usize);
            match (claim_vectors.get(c), source_vectors.get(s)) {
                (Some(cv), Some(sv)) => cosine(cv, sv),
                _ => 0.0,
            }
        }));
    }
    if let Some(judged) = judged.dyn_ref::<Array>() {
        let probabilities: Vec<f64> = judged.iter().map(|p| p.as_f64().unwrap_or(0.0)).collect();
        tables.push(pairs.table(JUDGE_WEIGHT, &|k| {
            probabilities.get(k).copied().unwrap_or(0.0)
        }));
    }
    let started = crate::runtime::now();
    let mut report = validator
        .validate_with(input, &tables)
        .map_err(|e| to_js_error(&e.under("input")))?;
    report.convert_offsets(input, unit);
    report.timing_ms = crate::runtime::now() - started;
    Ok(report_to_js(&report))
}

/// Cosine similarity; 0 for empty or zero vectors, for mismatched dimensions and for a
/// vector holding NaN or an infinity (no score is better than a NaN one).
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
    let cos = dot / (na.sqrt() * nb.sqrt());
    if cos.is_finite() { cos } else { 0.0 }
}
