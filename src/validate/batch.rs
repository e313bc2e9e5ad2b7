//! Aggregates over many reports: the batch gate of spec 004's CI use.

use serde::Serialize;

use crate::model::{Report, Status};

/// Counts over a batch of reports.
///
/// ```
/// use citeproof::validate::BatchSummary;
/// use citeproof::model::Status;
/// let mut summary = BatchSummary::default();
/// summary.add(Status::Pass, 0);
/// summary.add(Status::Fail, 2);
/// assert_eq!((summary.fail, summary.hallucinations, summary.status()), (1, 2, Status::Fail));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchSummary {
    /// Reports counted.
    pub total: usize,
    /// Reports that passed.
    pub pass: usize,
    /// Reports that warned.
    pub warn: usize,
    /// Reports that failed.
    pub fail: usize,
    /// Hallucinated citations over all reports.
    pub hallucinations: usize,
}

impl BatchSummary {
    /// Counts one report's status and hallucinations.
    pub fn add(&mut self, status: Status, hallucinations: usize) {
        self.total += 1;
        match status {
            Status::Pass => self.pass += 1,
            Status::Warn => self.warn += 1,
            Status::Fail => self.fail += 1,
        }
        self.hallucinations += hallucinations;
    }

    /// Counts `report`.
    pub fn add_report(&mut self, report: &Report<'_>) {
        self.add(report.status, report.summary.hallucinations);
    }

    /// The batch gate: the worst status seen (`pass` for an empty batch).
    pub fn status(&self) -> Status {
        if self.fail > 0 {
            Status::Fail
        } else if self.warn > 0 {
            Status::Warn
        } else {
            Status::Pass
        }
    }
}
