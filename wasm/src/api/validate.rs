//! `validate` and `CitationValidator`: reading `Input`/`Options` from JS objects with
//! exact field paths in errors, and the report back with spans in the caller's unit.

use wasm_bindgen::prelude::*;

use crate::runtime::{enter, now, validator_for};
use crate::wire::errors::to_js_error;
use crate::wire::from_js::input_tape::{Limits, read_input};
use crate::wire::from_js::read::{LIST_CEILING, MAX_LIST_ITEMS, read_list, read_options};
use crate::wire::to_js::tape::{batch_to_js, report_to_js};
use citeproof::offsets::Unit;
use citeproof::validate::Validator;

#[wasm_bindgen]
extern "C" {
    /// The input of `validate` (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "Input")]
    pub type InputArg;
    /// The options of `validate` (see `types.d.ts`).
    #[wasm_bindgen(typescript_type = "ValidateOptions")]
    pub type ValidateOptionsArg;
}

fn run(validator: &Validator, input: &JsValue, unit: Unit) -> Result<JsValue, JsValue> {
    let started = now();
    let limits = Limits::of(validator.options());
    let input = read_input(input, "input", unit, &limits)?;
    let mut report = validator
        .validate(&input)
        .map_err(|e| to_js_error(&e.under("input")))?;
    report.convert_offsets(&input, unit);
    report.timing_ms = now() - started;
    Ok(report_to_js(&report))
}

/// Validates `input`'s citations; returns the report (see `types.d.ts`).
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn validate(input: InputArg, options: Option<ValidateOptionsArg>) -> Result<JsValue, JsValue> {
    enter();
    let (options, unit) = read_options(options.as_deref(), &[])?;
    run(&validator_for(options)?, &input, unit)
}

/// Validates every input with the same options: `{ reports, summary, status }`, the
/// status being the worst report's (spec 004's batch gate). A bad input throws, naming
/// `inputs[i]`; more than `MAX_LIST_ITEMS` (1,000,000) inputs are `too_large`.
#[wasm_bindgen(js_name = validateBatch, unchecked_return_type = "BatchResult")]
pub fn validate_batch(
    #[wasm_bindgen(unchecked_param_type = "Input[]")] inputs: JsValue,
    options: Option<ValidateOptionsArg>,
) -> Result<JsValue, JsValue> {
    enter();
    let inputs = read_list(
        &inputs,
        "inputs",
        "invalid_input",
        (MAX_LIST_ITEMS, LIST_CEILING),
    )?;
    let (options, unit) = read_options(options.as_deref(), &[])?;
    let validator = validator_for(options)?;
    let limits = Limits::of(validator.options());
    batch_to_js(inputs.len(), |i, tape, summary| {
        let (input, path) = &inputs[i];
        let started = now();
        let parsed = read_input(input, path, unit, &limits)?;
        let mut report = validator
            .validate(&parsed)
            .map_err(|e| to_js_error(&e.under(path)))?;
        summary.add_report(&report);
        report.convert_offsets(&parsed, unit);
        report.timing_ms = now() - started;
        tape.report(&report);
        Ok(())
    })
}

/// A validator whose options are read and compiled once, for many answers.
#[wasm_bindgen]
pub struct CitationValidator {
    validator: Validator,
    unit: Unit,
}

#[wasm_bindgen]
impl CitationValidator {
    /// Reads and checks `options`; throws an `Error` with `code: "invalid_option"`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<ValidateOptionsArg>) -> Result<CitationValidator, JsValue> {
        enter();
        let (options, unit) = read_options(options.as_deref(), &[])?;
        let validator = validator_for(options)?;
        Ok(CitationValidator { validator, unit })
    }

    /// Validates `input` as `validate(input, options)` would.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn validate(&self, input: InputArg) -> Result<JsValue, JsValue> {
        enter();
        run(&self.validator, &input, self.unit)
    }
}
