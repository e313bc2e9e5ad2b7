//! Reading back a report object that `validate` returned (for `auditRecord`,
//! `rejectionResponse`, `repairPrompt`, `Metrics.record`): only the fields those need.

use serde::Deserialize;
use wasm_bindgen::JsValue;

use super::validate::read;
use crate::audit::{CitationFacts, ReportFacts};
use crate::model::{Input, Status, source_position};
use crate::offsets::{OffsetMap, Unit};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    pub status: Status,
    #[serde(default)]
    pub confidence: f64,
    #[serde(default)]
    pub cleaned_answer: String,
    pub summary: SummaryView,
    #[serde(default)]
    pub citations: Vec<CitationView>,
    #[serde(default)]
    pub timing_ms: f64,
}

#[derive(Deserialize)]
pub struct SummaryView {
    pub hallucinations: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CitationView {
    pub label: String,
    pub source_index: Option<u32>,
    pub declared: Option<usize>,
    pub valid: bool,
    pub claim: Option<SpanView>,
    pub support: Option<f64>,
    #[serde(default)]
    pub errors: Vec<FindingView>,
}

#[derive(Deserialize)]
pub struct SpanView {
    pub start: usize,
    pub end: usize,
}

#[derive(Deserialize)]
pub struct FindingView {
    pub message: String,
}

impl ReportView {
    /// Reads a report object; errors name the path under `report`.
    pub fn read(value: &JsValue) -> Result<ReportView, JsValue> {
        read(value, "report", "invalid_input")
    }

    /// Every error message of every citation, in order.
    pub fn error_messages(&self) -> Vec<&str> {
        self.citations
            .iter()
            .flat_map(|c| c.errors.iter().map(|f| f.message.as_str()))
            .collect()
    }

    /// The audit facts; claim spans are in `unit` of `input.answer`.
    pub fn facts(&self, input: &Input, unit: Unit) -> ReportFacts {
        let map = OffsetMap::new(&input.answer);
        let claim_text = |span: &SpanView| {
            let start = map.to_byte(span.start, unit)?;
            let end = map.to_byte(span.end, unit)?;
            input.answer.get(start..end).map(str::to_string)
        };
        ReportFacts {
            status: self.status,
            confidence: self.confidence,
            hallucinations: self.summary.hallucinations,
            citations: self
                .citations
                .iter()
                .map(|c| CitationFacts {
                    claim: c.claim.as_ref().and_then(claim_text),
                    source: c
                        .source_index
                        .and_then(|label| source_position(&input.sources, label)),
                    label: c.label.clone(),
                    declared: c.declared,
                    valid: c.valid,
                    support: c.support,
                })
                .collect(),
        }
    }
}
