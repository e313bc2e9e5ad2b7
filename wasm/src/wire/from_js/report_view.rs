//! Reading back a report object that `validate` returned (for `auditRecord`,
//! `rejectionResponse`, `repairPrompt`, `Metrics.record`): only the fields those need.

use wasm_bindgen::JsValue;

use super::read::Obj;
use crate::wire::errors::invalid;
use citeproof::audit::{CitationFacts, ReportFacts};
use citeproof::model::{Input, Status};
use citeproof::offsets::{OffsetMap, Unit};

pub struct ReportView {
    pub status: Status,
    pub confidence: f64,
    pub cleaned_answer: String,
    pub hallucinations: usize,
    pub citations: Vec<CitationView>,
    pub timing_ms: f64,
}

pub struct CitationView {
    pub label: String,
    pub source_position: Option<usize>,
    pub declared: Option<usize>,
    pub valid: bool,
    pub claim: Option<(usize, usize)>,
    pub support: Option<f64>,
    pub errors: Vec<String>,
}

impl ReportView {
    /// Reads a report object; errors name the path under `report`.
    pub fn read(value: &JsValue) -> Result<ReportView, JsValue> {
        ReportView::read_at(value, "report")
    }

    /// Reads a report object given as the argument `path` (`repairedFrom`); errors name
    /// the path under it.
    pub fn read_at(value: &JsValue, path: &str) -> Result<ReportView, JsValue> {
        let obj = Obj::new(value, path, "invalid_input")?;
        let status = match obj.string(&["status"])?.as_deref() {
            Some("pass") => Status::Pass,
            Some("warn") => Status::Warn,
            Some("fail") => Status::Fail,
            _ => {
                return Err(invalid(
                    "invalid_input",
                    &format!("{path}.status"),
                    r#"expected "pass", "warn" or "fail""#,
                ));
            }
        };
        let hallucinations = match obj.object(&["summary"])? {
            Some(summary) => summary.count(&["hallucinations"])?.unwrap_or(0) as usize,
            None => 0,
        };
        let mut citations = Vec::new();
        for (item, path) in obj.array(&["citations"])?.unwrap_or_default() {
            let c = Obj::new(&item, &path, "invalid_input")?;
            let claim = match c.object(&["claim"])? {
                Some(span) => Some((
                    span.count(&["start"])?.unwrap_or(0) as usize,
                    span.count(&["end"])?.unwrap_or(0) as usize,
                )),
                None => None,
            };
            let mut errors = Vec::new();
            for (finding, finding_path) in c.array(&["errors"])?.unwrap_or_default() {
                if let Some(message) =
                    Obj::new(&finding, &finding_path, "invalid_input")?.string(&["message"])?
                {
                    errors.push(message);
                }
            }
            citations.push(CitationView {
                label: c.string(&["label"])?.unwrap_or_default(),
                source_position: c.count(&["sourcePosition"])?.map(|p| p as usize),
                declared: c.count(&["declared"])?.map(|d| d as usize),
                valid: c.boolean(&["valid"])?.unwrap_or(false),
                claim,
                support: c.number(&["support"])?,
                errors,
            });
        }
        Ok(ReportView {
            status,
            confidence: obj.number(&["confidence"])?.unwrap_or(0.0),
            cleaned_answer: obj.string(&["cleanedAnswer"])?.unwrap_or_default(),
            hallucinations,
            citations,
            timing_ms: obj.number(&["timingMs"])?.unwrap_or(0.0),
        })
    }

    /// Every error message of every citation, in order.
    pub fn error_messages(&self) -> Vec<&str> {
        self.citations
            .iter()
            .flat_map(|c| c.errors.iter().map(String::as_str))
            .collect()
    }

    /// The audit facts; claim spans are in `unit` of `input.answer`.
    pub fn facts(&self, input: &Input, unit: Unit) -> ReportFacts {
        let map = OffsetMap::new(&input.answer);
        let claim_range = |&(start, end): &(usize, usize)| {
            let start = map.to_byte(start, unit)?;
            let end = map.to_byte(end, unit)?;
            (start <= end).then_some(start..end)
        };
        ReportFacts {
            status: self.status,
            confidence: self.confidence,
            hallucinations: self.hallucinations,
            citations: self
                .citations
                .iter()
                .map(|c| CitationFacts {
                    claim: c.claim.as_ref().and_then(claim_range),
                    // A report given back may name any position: only a retrieved
                    // source's counts.
                    source: c.source_position.filter(|&p| p < input.sources.len()),
                    label: c.label.clone(),
                    declared: c.declared,
                    valid: c.valid,
                    support: c.support,
                })
                .collect(),
        }
    }
}
