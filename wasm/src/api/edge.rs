//! The JS API around a validation: `formatContext`, `citationSchema`, `validateRequest`,
//! `repairPrompt`, `rejectionResponse`, `auditRecord`, and the `Metrics` class.

use wasm_bindgen::prelude::*;

use crate::runtime::enter;
use crate::wire::errors::invalid;
use crate::wire::from_js::input_tape::{Limits, read_input, read_sources};
use crate::wire::from_js::read::{Obj, read_unit};
use crate::wire::from_js::report_view::ReportView;
use crate::wire::to_js::tape::to_js;
use citeproof::audit::{self, AuditContext};
use citeproof::metrics::Metrics as CoreMetrics;
use citeproof::model::Input;
use citeproof::offsets::Unit;
use citeproof::prompt::{self, SchemaStyle};

#[wasm_bindgen(module = "/js/env.js")]
extern "C" {
    #[wasm_bindgen(js_name = isoNow)]
    fn iso_now() -> String;
    #[wasm_bindgen(js_name = randomId)]
    fn random_id() -> String;
}

/// `ctx.input` (or an empty input), and the offset unit of the report (`ctx.offsets`).
fn context_input(ctx: &JsValue) -> Result<(Input, Unit), JsValue> {
    let Some(obj) = Obj::optional(Some(ctx), "ctx", "invalid_option")? else {
        return Ok((Input::default(), Unit::Utf16));
    };
    let unit = read_unit(&obj)?;
    let input = match obj.get(&["input"]) {
        Some((_, value)) => read_input(&value, "ctx.input", unit, &Limits::ANY_ANSWER)?,
        None => Input::default(),
    };
    Ok((input, unit))
}

/// Spec 002's numbered context for the prompt: `[1] text (Source: title)`, each text
/// cut to `options.maxChars` (default 500) characters.
#[wasm_bindgen(js_name = formatContext)]
pub fn format_context(
    #[wasm_bindgen(unchecked_param_type = "Source[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ maxChars?: number } | null")] options: Option<
        JsValue,
    >,
) -> Result<String, JsValue> {
    enter();
    let sources = read_sources(&sources, "sources")?;
    let options = Obj::optional(options.as_ref(), "options", "invalid_option")?;
    let max_chars = match options {
        Some(obj) => obj.count(&["maxChars"])?.map_or(500, |n| n as usize),
        None => 500,
    };
    Ok(prompt::format_context(&sources, max_chars))
}

/// A JSON Schema for the model's structured output: `indexed` (spec 002), `chunks`
/// (spec 003) or `enhanced` (spec 004).
#[wasm_bindgen(js_name = citationSchema, unchecked_return_type = "Record<string, unknown>")]
pub fn citation_schema(
    #[wasm_bindgen(
        unchecked_optional_param_type = "{ style?: \"indexed\" | \"chunks\" | \"enhanced\" } | null"
    )]
    options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    enter();
    let name = match Obj::optional(options.as_ref(), "options", "invalid_option")? {
        Some(obj) => obj.string(&["style"])?,
        None => None,
    };
    let style = match name {
        Some(name) => SchemaStyle::from_name(&name).ok_or_else(|| {
            invalid(
                "invalid_option",
                "options.style",
                r#"expected "indexed", "chunks" or "enhanced""#,
            )
        })?,
        None => SchemaStyle::Indexed,
    };
    js_sys::JSON::parse(prompt::citation_schema(style))
}

/// Spec 000's request validation (question of 1–2000 characters, well-formed sources):
/// a list of `request_invalid` findings, empty when the request is fine.
#[wasm_bindgen(js_name = validateRequest, unchecked_return_type = "Finding[]")]
pub fn validate_request(
    #[wasm_bindgen(unchecked_param_type = "Partial<Input>")] request: JsValue,
) -> Result<JsValue, JsValue> {
    enter();
    let obj = Obj::new(&request, "request", "invalid_input")?;
    let input = Input {
        question: obj.string(&["question", "query"])?,
        sources: match obj.get(&["sources"]) {
            Some((_, sources)) => read_sources(&sources, "request.sources")?,
            None => Vec::new(),
        },
        ..Input::default()
    };
    to_js(&audit::validate_request(&input))
}

/// Spec 003's one repair instruction naming each failed citation; `ctx.input` adds the
/// ids the model may cite (without it, or with no sources, the prompt names none).
#[wasm_bindgen(js_name = repairPrompt)]
pub fn repair_prompt(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ input?: Input } | null")] ctx: Option<
        JsValue,
    >,
) -> Result<String, JsValue> {
    enter();
    let view = ReportView::read(&report)?;
    let (input, _) = context_input(&ctx.unwrap_or(JsValue::UNDEFINED))?;
    Ok(audit::repair_prompt(
        &view.error_messages(),
        &audit::allowed_ids(&input.sources),
    ))
}

/// Spec 001's rejection response: `{ status: "rejected", reason, suggestion,
/// partial_response, audit_id }`; the id is `ctx.auditId` or a random UUID.
#[wasm_bindgen(js_name = rejectionResponse, unchecked_return_type = "RejectionResponse")]
pub fn rejection_response(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ auditId?: string } | null")] ctx: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    enter();
    let view = ReportView::read(&report)?;
    let audit_id = match Obj::optional(ctx.as_ref(), "ctx", "invalid_option")? {
        Some(obj) => obj.string(&["auditId"])?,
        None => None,
    }
    .unwrap_or_else(random_id);
    to_js(&audit::rejection_response(
        &view.error_messages(),
        &view.cleaned_answer,
        &audit_id,
    ))
}

/// Spec 001's audit record (snake_case) with spec 003's retrieval ids. `ctx.input` is
/// the validated input (for the query, claims and source ids); `ctx.auditId` and
/// `ctx.timestamp` default to a random UUID and now; `ctx.offsets` is the unit the
/// report was made with.
#[wasm_bindgen(js_name = auditRecord, unchecked_return_type = "AuditRecord")]
pub fn audit_record(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "AuditContext | null")] ctx: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    enter();
    let view = ReportView::read(&report)?;
    let ctx = ctx.unwrap_or(JsValue::UNDEFINED);
    let (input, unit) = context_input(&ctx)?;
    let ctx = Obj::optional(Some(&ctx), "ctx", "invalid_option")?;
    let text = |name: &'static str| -> Result<Option<String>, JsValue> {
        ctx.as_ref()
            .map(|obj| obj.string(&[name]))
            .transpose()
            .map(Option::flatten)
    };
    let context = AuditContext {
        audit_id: text("auditId")?.unwrap_or_else(random_id),
        timestamp: text("timestamp")?.unwrap_or_else(iso_now),
        processing_time_ms: view.timing_ms,
    };
    to_js(&audit::audit_record(
        &view.facts(&input, unit),
        &input,
        &context,
    ))
}

/// Prometheus counters for the reports of one isolate / process.
#[wasm_bindgen]
pub struct Metrics {
    inner: CoreMetrics,
}

#[wasm_bindgen]
impl Metrics {
    /// Empty counters.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Metrics {
        enter();
        Metrics {
            inner: CoreMetrics::new(),
        }
    }

    /// Counts one report (its status, hallucinations and `timingMs`): the answer as it
    /// ended. After a repair, `repairedFrom` is the report on the model's first answer,
    /// counted as what the model wrote, and the repair is counted by its outcome.
    pub fn record(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
        #[wasm_bindgen(js_name = repairedFrom, unchecked_optional_param_type = "Report | null")]
        repaired_from: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let view = ReportView::read(&report)?;
        let (ended, seconds) = ((view.status, view.hallucinations), view.timing_ms / 1000.0);
        match repaired_from.filter(|first| !first.is_undefined()) {
            Some(first) => {
                let first = ReportView::read_at(&first, "repairedFrom")?;
                let first = (first.status, first.hallucinations);
                self.inner.observe_repaired(first, ended, seconds);
            }
            None => self.inner.observe(ended.0, ended.1, seconds),
        }
        Ok(())
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        self.inner.render()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}
