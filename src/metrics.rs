//! Prometheus counters for validations, in the text exposition format (spec 002 §5.1).
//!
//! An answer that failed and was repaired is counted twice over: what the model wrote
//! first (`citation_model_*`) and what came of it (`citation_validation_total`,
//! `citation_hallucinations_total`: the answer forwarded, or rejected), with
//! `citation_repairs_total` counting the repairs by their outcome. Without a repair both
//! sets count the same answer, so a repaired hallucination never disappears from them.
//!
//! ```
//! use citeproof::metrics::Metrics;
//! use citeproof::model::Status;
//! let mut metrics = Metrics::new();
//! metrics.observe(Status::Pass, 0, 0.0007);
//! metrics.observe(Status::Fail, 2, 0.02);
//! metrics.observe_repaired((Status::Fail, 1), (Status::Pass, 0), 0.003);
//! let text = metrics.render();
//! assert!(text.contains("citation_validation_total{status=\"fail\"} 1\n"));
//! assert!(text.contains("citation_validation_duration_seconds_bucket{le=\"0.001\"} 1\n"));
//! assert!(text.contains("citation_hallucinations_total 2\n"));
//! assert!(text.contains("citation_model_validation_total{status=\"fail\"} 2\n"));
//! assert!(text.contains("citation_model_hallucinations_total 3\n"));
//! assert!(text.contains("citation_repairs_total{status=\"pass\"} 1\n"));
//! ```

use std::fmt::Write;

use crate::model::Status;

/// Upper bounds (seconds) of the duration histogram's buckets (docs/architecture.md §7).
pub const DURATION_BUCKETS: [f64; 7] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1];
/// The same bounds as the `le` labels print them (the wire contract's `durationBuckets`,
/// which the JS metrics read).
pub const DURATION_BUCKET_LABELS: [&str; 7] =
    ["0.0001", "0.0005", "0.001", "0.005", "0.01", "0.05", "0.1"];

/// Counts of validations by status, hallucinated citations, and a duration histogram;
/// of the answers as they ended (after any repair) and as the model first wrote them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    /// By status, of the answers as they ended.
    by_status: [u64; 3],
    hallucinations: u64,
    /// Repaired answers, by status: `[0]` as the model first wrote them, `[1]` as they
    /// ended. The model's answers are the ones that ended, these taken back and given.
    repaired: [[u64; 3]; 2],
    /// Hallucinated citations in repaired answers, as first written and as ended.
    repaired_hallucinations: [u64; 2],
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

    /// Records an answer that was not repaired: its status, hallucinated citations, and
    /// duration (counted as the model wrote it and as it ended alike).
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

    /// Records an answer that was repaired: the model's first answer (`first`: status and
    /// hallucinated citations), the repaired one (`repaired`: what was forwarded or
    /// rejected, counted as [`observe`](Self::observe) counts), and the time both took.
    pub fn observe_repaired(
        &mut self,
        first: (Status, usize),
        repaired: (Status, usize),
        seconds: f64,
    ) {
        self.observe(repaired.0, repaired.1, seconds);
        for (i, (status, hallucinations)) in [first, repaired].into_iter().enumerate() {
            self.repaired[i][status as usize] += 1;
            self.repaired_hallucinations[i] += hallucinations as u64;
        }
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
            "# HELP citation_validation_total Answers as they ended (after any repair), by gate status.\n",
        );
        out.push_str("# TYPE citation_validation_total counter\n");
        by_status(&mut out, "citation_validation_total", &self.by_status);
        out.push_str("# HELP citation_hallucinations_total Citations pointing at a source, span or quote that does not exist (after any repair).\n");
        out.push_str("# TYPE citation_hallucinations_total counter\n");
        let _ = writeln!(out, "citation_hallucinations_total {}", self.hallucinations);
        out.push_str(
            "# HELP citation_model_validation_total Answers before any repair, by gate status.\n",
        );
        out.push_str("# TYPE citation_model_validation_total counter\n");
        // Every repaired answer was observed as it ended: the model's answers are those,
        // with each repaired one as first written instead.
        let model = |i: usize| self.by_status[i] - self.repaired[1][i] + self.repaired[0][i];
        by_status(
            &mut out,
            "citation_model_validation_total",
            &[model(0), model(1), model(2)],
        );
        out.push_str("# HELP citation_model_hallucinations_total Hallucinated citations before any repair.\n");
        out.push_str("# TYPE citation_model_hallucinations_total counter\n");
        let [first, ended] = self.repaired_hallucinations;
        let _ = writeln!(
            out,
            "citation_model_hallucinations_total {}",
            self.hallucinations - ended + first
        );
        out.push_str("# HELP citation_repairs_total Repairs, by gate status after.\n");
        out.push_str("# TYPE citation_repairs_total counter\n");
        by_status(&mut out, "citation_repairs_total", &self.repaired[1]);
        out.push_str(
            "# HELP citation_validation_duration_seconds Time spent validating one answer.\n",
        );
        out.push_str("# TYPE citation_validation_duration_seconds histogram\n");
        let mut cumulative = 0;
        for (i, le) in DURATION_BUCKET_LABELS.iter().enumerate() {
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

/// One `name{status="…"} n` line per gate status, `counts` indexed by [`Status`].
fn by_status(out: &mut String, name: &str, counts: &[u64; 3]) {
    for status in [Status::Pass, Status::Warn, Status::Fail] {
        let count = counts[status as usize];
        let _ = writeln!(out, "{name}{{status=\"{}\"}} {count}", status.name());
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

    #[test]
    fn a_repaired_answer_counts_what_the_model_wrote_and_what_it_became() {
        let mut m = Metrics::new();
        for _ in 0..64 {
            m.observe_repaired((Status::Fail, 1), (Status::Pass, 0), 0.002);
        }
        m.observe_repaired((Status::Fail, 2), (Status::Fail, 1), 0.002);
        m.observe(Status::Warn, 0, 0.001);
        let text = m.render();
        for line in [
            "citation_validation_total{status=\"pass\"} 64\n",
            "citation_validation_total{status=\"warn\"} 1\n",
            "citation_validation_total{status=\"fail\"} 1\n",
            "citation_hallucinations_total 1\n",
            "citation_model_validation_total{status=\"fail\"} 65\n",
            "citation_model_validation_total{status=\"warn\"} 1\n",
            "citation_model_hallucinations_total 66\n",
            "citation_repairs_total{status=\"pass\"} 64\n",
            "citation_repairs_total{status=\"warn\"} 0\n",
            "citation_repairs_total{status=\"fail\"} 1\n",
            "citation_validation_duration_seconds_count 66\n",
        ] {
            assert!(text.contains(line), "{line}{text}");
        }
    }
}
