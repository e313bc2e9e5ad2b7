// Prometheus counters for the reports of one page or process, in plain JS for browsers
// (src/metrics.rs, which says what each counter means; docs/architecture.md §9).
import { DURATION_BUCKETS as BUCKETS, STATUSES, readReport } from "./read.js";

/** Upper bounds (seconds) of the duration histogram's buckets (`BUCKETS`: as the `le` labels print them). */
const BOUNDS = BUCKETS.map(Number);

/** 2^64: the counters are u64 in Rust, whose release build wraps on overflow. */
const U64 = 2n ** 64n;

/** Prometheus counters for the reports of one isolate / process. */
export class Metrics {
  /** Empty counters. */
  constructor() {
    // Per status, in `STATUSES`' order (which the counters are printed in too).
    this.byStatus = STATUSES.map(() => 0);
    this.hallucinations = 0;
    this.repaired = [STATUSES.map(() => 0), STATUSES.map(() => 0)];
    this.repairedHallucinations = [0, 0];
    this.buckets = new Array(BOUNDS.length + 1).fill(0);
    this.durationSumMicros = 0n;
  }

  /** Counts an answer that was not repaired. */
  #observe(status, hallucinations, seconds) {
    this.byStatus[status] += 1;
    this.hallucinations += hallucinations;
    const s = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
    const bucket = BOUNDS.findIndex((le) => s <= le);
    this.buckets[bucket < 0 ? BOUNDS.length : bucket] += 1;
    // Rust's `(s * 1e6).round() as u64`: saturating at 2^64 − 1, added with wrapping.
    const micros = Math.round(s * 1e6);
    const whole = micros >= 2 ** 64 ? U64 - 1n : BigInt(micros);
    this.durationSumMicros = (this.durationSumMicros + whole) % U64;
  }

  /**
   * Counts one report (its status, hallucinations and `timingMs`): the answer as it
   * ended. After a repair, `repairedFrom` is the report on the model's first answer,
   * counted as what the model wrote, and the repair is counted by its outcome.
   */
  record(report, repairedFrom) {
    const view = readReport(report);
    const seconds = view.timingMs / 1000;
    if (repairedFrom === undefined || repairedFrom === null) {
      this.#observe(view.statusIndex, view.hallucinations, seconds);
      return;
    }
    const first = readReport(repairedFrom, "repairedFrom");
    this.#observe(view.statusIndex, view.hallucinations, seconds);
    for (const [i, { statusIndex, hallucinations }] of [first, view].entries()) {
      this.repaired[i][statusIndex] += 1;
      this.repairedHallucinations[i] += hallucinations;
    }
  }

  /** The Prometheus text exposition (version 0.0.4). */
  render() {
    const lines = [];
    const byStatus = (name, counts) => STATUSES.forEach((status, i) => lines.push(`${name}{status="${status}"} ${counts[i]}`));
    const header = (name, type, help) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    header("citation_validation_total", "counter", "Answers as they ended (after any repair), by gate status.");
    byStatus("citation_validation_total", this.byStatus);
    header("citation_hallucinations_total", "counter", "Citations pointing at a source, span or quote that does not exist (after any repair).");
    lines.push(`citation_hallucinations_total ${this.hallucinations}`);
    header("citation_model_validation_total", "counter", "Answers before any repair, by gate status.");
    // Every repaired answer was observed as it ended: the model's answers are those,
    // with each repaired one as first written instead.
    byStatus(
      "citation_model_validation_total",
      this.byStatus.map((n, i) => n - this.repaired[1][i] + this.repaired[0][i]),
    );
    header("citation_model_hallucinations_total", "counter", "Hallucinated citations before any repair.");
    const [first, ended] = this.repairedHallucinations;
    lines.push(`citation_model_hallucinations_total ${this.hallucinations - ended + first}`);
    header("citation_repairs_total", "counter", "Repairs, by gate status after.");
    byStatus("citation_repairs_total", this.repaired[1]);
    header("citation_validation_duration_seconds", "histogram", "Time spent validating one answer.");
    let cumulative = 0;
    BUCKETS.forEach((le, i) => {
      cumulative += this.buckets[i];
      lines.push(`citation_validation_duration_seconds_bucket{le="${le}"} ${cumulative}`);
    });
    cumulative += this.buckets[BOUNDS.length];
    lines.push(`citation_validation_duration_seconds_bucket{le="+Inf"} ${cumulative}`);
    const micros = String(this.durationSumMicros % 1_000_000n).padStart(6, "0");
    lines.push(`citation_validation_duration_seconds_sum ${this.durationSumMicros / 1_000_000n}.${micros}`);
    lines.push(`citation_validation_duration_seconds_count ${cumulative}`);
    return lines.join("\n") + "\n";
  }

  /** Nothing to free (the Rust class's `free`, for code written against either). */
  free() {}
}

// `using metrics = new Metrics()` where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") Metrics.prototype[Symbol.dispose] = Metrics.prototype.free;
