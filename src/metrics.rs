//! Prometheus counters for validations, in the text exposition format (spec 002 §5.1).
//!
//! ```
//! use citeproof::metrics::Metrics;
//! use citeproof::model::Status;
//! let mut metrics = Metrics::new();
//! metrics.observe(Status::Pass, 0, 0.0007);
//! metrics.observe(Status::Fail, 2, 0.02);
//! let text = metrics.render();
//! assert!(text.contains("citation_validation_total{status=\"fail\"} 1\n"));
//! assert!(text.contains("citation_validation_duration_seconds_bucket{le=\"0.001\"} 1\n"));
//! assert!(text.contains("citation_hallucinations_total 2\n"));
//! ```

use std::fmt::Write;

use crate::model::Status;

/// Upper bounds (seconds) of the duration histogram's buckets (docs/architecture.md §7).
pub const DURATION_BUCKETS: [f64; 7] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1];
/// The same bounds as the `le` labels print them.
const BUCKET_LABELS: [&str; 7] = ["0.0001", "0.0005", "0.001", "0.005", "0.01", "0.05", "0.1"];

/// Counts of validations by status, hallucinated citations, and a duration histogram.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    by_status: [u64; 3],
    hallucinations: u64,
    /// Non-cumulative counts per bucket; the last slot is `+Inf`.
    buckets: [u64; DURATION_BUCKETS.len() + 1],
    /// Sum of durations in microseconds (printed in seconds without float formatting).
    duration_sum_micros: u64,
}

impl Metrics {
    /// Empty counters.
    pub fn new() -> Metrics {
        Metrics::default()
    }

    /// Records one validation: its status, hallucinated citations, and duration.
    pub fn observe(&mut self, status: Status, hallucinations: usize, seconds: f64) {
        self.by_status[status as usize] += 1;
        self.hallucinations += hallucinations as u64;
        let seconds = if seconds.is_finite() && seconds > 0.0 {
            seconds
        } else {
            0.0
        };
        let bucket = DURATION_BUCKETS
            .iter()
            .position(|&le| seconds <= le)
            .unwrap_or(DURATION_BUCKETS.len());
        self.buckets[bucket] += 1;
        self.duration_sum_micros += (seconds * 1e6).round() as u64;
    }

    /// Validations recorded.
    pub fn count(&self) -> u64 {
        self.by_status.iter().sum()
    }

    /// The Prometheus text exposition (version 0.0.4): HELP and TYPE lines, cumulative
    /// buckets ending in `+Inf`, `_sum` and `_count`.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(1024);
        out.push_str(
            "# HELP citation_validation_total Citation validations performed, by gate status.\n",
        );
        out.push_str("# TYPE citation_validation_total counter\n");
        for (i, status) in [Status::Pass, Status::Warn, Status::Fail]
            .into_iter()
            .enumerate()
        {
            let _ = writeln!(
                out,
                "citation_validation_total{{status=\"{}\"}} {}",
                status.name(),
                self.by_status[i]
            );
        }
        out.push_str("# HELP citation_hallucinations_total Citations pointing at a source, span or quote that does not exist.\n");
        out.push_str("# TYPE citation_hallucinations_total counter\n");
        let _ = writeln!(out, "citation_hallucinations_total {}", self.hallucinations);
        out.push_str(
            "# HELP citation_validation_duration_seconds Time spent validating one answer.\n",
        );
        out.push_str("# TYPE citation_validation_duration_seconds histogram\n");
        let mut cumulative = 0;
        for (i, le) in BUCKET_LABELS.iter().enumerate() {
            cumulative += self.buckets[i];
            let _ = writeln!(
                out,
                "citation_validation_duration_seconds_bucket{{le=\"{le}\"}} {cumulative}"
            );
        }
        cumulative += self.buckets[DURATION_BUCKETS.len()];
        let _ = writeln!(
            out,
            "citation_validation_duration_seconds_bucket{{le=\"+Inf\"}} {cumulative}"
        );
        let (whole, micros) = (
            self.duration_sum_micros / 1_000_000,
            self.duration_sum_micros % 1_000_000,
        );
        let _ = writeln!(
            out,
            "citation_validation_duration_seconds_sum {whole}.{micros:06}"
        );
        let _ = writeln!(
            out,
            "citation_validation_duration_seconds_count {cumulative}"
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative_and_count_equals_inf() {
        let mut m = Metrics::new();
        for s in [0.00005, 0.0003, 0.003, 0.2, f64::NAN] {
            m.observe(Status::Warn, 0, s);
        }
        let text = m.render();
        assert!(text.contains("{le=\"0.0001\"} 2\n"), "{text}"); // 0.00005 and NaN -> 0
        assert!(text.contains("{le=\"0.005\"} 4\n"));
        assert!(text.contains("{le=\"0.1\"} 4\n"));
        assert!(text.contains("{le=\"+Inf\"} 5\n"));
        assert!(text.contains("citation_validation_duration_seconds_count 5\n"));
        assert_eq!(m.count(), 5);
    }
}
