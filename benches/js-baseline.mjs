// Issue 10's comparison with the JS-only path a user would otherwise write: the specs'
// validator (`/\[(\d+)\]/g` for markers, an index check against the source list, and
// `includes()` — then the first 50 characters — for quotes; spec 002 and spec 004).
// Both run on the same cases, built from the 153 real ExpertQA answers by planting one
// known fault (or one harmless variation) in each; prints, per kind, how often each
// validator flags the case, and the time of both over all cases in one run.
//
//   node benches/js-baseline.mjs     (needs pkg/node: node scripts/build-pkg.mjs node)
import { cpus } from "node:os";
import { citeproof, dataset, median } from "./common.mjs";

const { validate } = citeproof();
const answers = dataset("answers-val.jsonl");

/** The JS-only validator of the specs: `true` when it reports a problem. */
function naiveFlags({ answer, sources, citations = [] }) {
  let flagged = false;
  for (const match of answer.matchAll(/\[(\d+)\]/g)) {
    const n = Number.parseInt(match[1], 10);
    if (n < 1 || n > sources.length) flagged = true;
  }
  for (const citation of citations) {
    if (citation.quote == null) continue;
    const text = sources[citation.source - 1]?.text ?? "";
    if (!text.includes(citation.quote) && !text.includes(citation.quote.substring(0, 50))) flagged = true;
  }
  return flagged;
}

/**
 * citeproof flags a case when its report has an error-severity finding (with the default
 * policy `clean` the report is then `warn` if cleaning repaired the answer, else `fail`).
 * Claim support reports warnings (`unsupported_claim`, `misattributed`): counted in a
 * column of their own.
 */
const OPTIONS = { supportThreshold: 0.5 };
const SUPPORT_CODES = new Set(["unsupported_claim", "misattributed"]);
const isError = (f) => f.severity === "error";
const flagsWith = (options, counts) => (input) => validate(input, options).findings.some(counts);
const citeproofFlags = flagsWith(OPTIONS, isError);
const citeproofSupportFlags = flagsWith(OPTIONS, (f) => isError(f) || SUPPORT_CODES.has(f.code));
/** Without claim support (no `supportThreshold`), for the time comparison. */
const citeproofPlainFlags = flagsWith({}, isError);

// ---- the cases ---------------------------------------------------------------------------
const usable = answers.filter((a) => {
  const texts = a.sources.map((s) => s.text ?? "");
  const numbers = [...a.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  return (
    texts.length >= 3 &&
    texts.every((t) => t.length >= 300) &&
    numbers.length > 0 &&
    numbers.every((n) => n >= 1 && n <= texts.length) // the original answer is clean by the naive rule
  );
});

/** `count` characters of `text` from about its middle, cut at word boundaries. */
function excerpt(text, count) {
  const start = text.indexOf(" ", text.length >> 2) + 1;
  const end = text.lastIndexOf(" ", start + count);
  return text.slice(start, end);
}

/** The answer with ` marker` after its first sentence that has a marker. */
function plant(answer, marker) {
  const at = answer.search(/\[\d+\]/);
  return `${answer.slice(0, at)}${marker} ${answer.slice(at)}`;
}

/**
 * The answer's citations declared as structured data, as a model with structured output
 * gives them: one per cited source, the first cited one carrying `quote`, taken from
 * source `from` (`(cited) => number`, 1-based).
 */
function declared(a, quoteOf, from = (cited) => cited) {
  const cited = [...new Set([...a.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))];
  return cited.map((source, i) =>
    i === 0 ? { source, quote: quoteOf(excerpt(a.sources[from(source) - 1].text, 90)) } : { source },
  );
}

/** Another source than `n` of `count`. */
const other = (count) => (n) => (n % count) + 1;

/** Each kind: whether its cases are faulty, and how to make one from a real answer. */
const KINDS = {
  "out of range [N]": { faulty: true, make: (a, n) => ({ ...a, answer: plant(a.answer, `[${n + 2}]`) }) },
  "out of range [^N^]": { faulty: true, make: (a, n) => ({ ...a, answer: plant(a.answer, `[^${n + 2}^]`) }) },
  "out of range 【N】": { faulty: true, make: (a, n) => ({ ...a, answer: plant(a.answer, `【${n + 2}】`) }) },
  "out of range in a list [1, N]": { faulty: true, make: (a, n) => ({ ...a, answer: plant(a.answer, `[1, ${n + 2}]`) }) },
  "out of range range [1-N]": { faulty: true, make: (a, n) => ({ ...a, answer: plant(a.answer, `[1-${n + 2}]`) }) },
  "quote not in the cited source": {
    faulty: true,
    make: (a, n) => ({ ...a, citations: declared(a, (q) => q, other(n)) }),
  },
  "quote cites a source past the end": {
    faulty: true,
    make: (a, n) => ({ ...a, citations: [...declared(a, (q) => q), { source: n + 1, quote: excerpt(a.sources[0].text, 90) }] }),
  },
  "marker swapped to another source": {
    faulty: true,
    make: (a, n) => ({ ...a, answer: a.answer.replace(/\[(\d+)\]/, (_, k) => `[${other(n)(Number(k))}]`) }),
  },
  "verbatim quote": { faulty: false, make: (a) => ({ ...a, citations: declared(a, (q) => q) }) },
  "quote re-spaced and re-cased": {
    faulty: false,
    make: (a) => ({
      ...a,
      citations: declared(a, (q) => q[0].toUpperCase() + q.slice(1).replace(" ", "  ").replace(/ (\S+)$/, "\n$1")),
    }),
  },
  "index in a code span `x[N]`": {
    faulty: false,
    make: (a, n) => ({ ...a, answer: `${a.answer}\n\nIn code this is \`items[${n + 2}]\`.` }),
  },
  "original answer": { faulty: false, make: (a) => a },
};

const cases = [];
for (const [kind, { faulty, make }] of Object.entries(KINDS)) {
  for (const answer of usable) {
    const input = make({ answer: answer.answer, sources: answer.sources }, answer.sources.length);
    cases.push({ kind, faulty, input });
  }
}

// ---- catch rates -------------------------------------------------------------------------
const rows = [];
for (const kind of Object.keys(KINDS)) {
  const ofKind = cases.filter((c) => c.kind === kind);
  const rate = (flags) => ofKind.filter((c) => flags(c.input)).length / ofKind.length;
  rows.push({
    kind,
    faulty: KINDS[kind].faulty,
    naive: rate(naiveFlags),
    citeproof: rate(citeproofFlags),
    support: rate(citeproofSupportFlags),
  });
}

// ---- time over all cases, interleaved rounds ----------------------------------------------
function timeAll(flags) {
  const start = process.hrtime.bigint();
  for (const c of cases) flags(c.input);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const contenders = { naive: naiveFlags, citeproof: citeproofPlainFlags, "citeproof + support": citeproofFlags };
const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < 18; round++) {
  for (const [name, flags] of Object.entries(contenders)) {
    const ms = timeAll(flags);
    if (round >= 3) times[name].push(ms); // three rounds of warm-up
  }
}

const pct = (x) => `${(100 * x).toFixed(0)} %`.padStart(6);
console.log(`${cpus()[0].model} (${cpus().length} cores), Node ${process.version}`);
console.log(`${cases.length} cases from ${usable.length} real answers; citeproof options ${JSON.stringify(OPTIONS)}`);
console.log("share of cases flagged: naive | citeproof errors | citeproof errors + support warnings");
console.log(`${"case kind".padEnd(36)} ${"expected".padEnd(9)} ${"naive".padStart(6)} ${"errors".padStart(7)} ${"+support".padStart(9)}`);
for (const row of rows) {
  const expected = row.faulty ? "flag" : "pass";
  console.log(`${row.kind.padEnd(36)} ${expected.padEnd(9)} ${pct(row.naive)} ${pct(row.citeproof).padStart(7)} ${pct(row.support).padStart(9)}`);
}
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const caught = (key) => mean(rows.filter((r) => r.faulty).map((r) => r[key]));
const falseAlarms = (key) => mean(rows.filter((r) => !r.faulty).map((r) => r[key]));
for (const [label, of] of [["faults caught", caught], ["false alarms ", falseAlarms]]) {
  console.log(`${label} (mean over kinds): naive ${pct(of("naive"))}, citeproof errors ${pct(of("citeproof"))}, + support ${pct(of("support"))}`);
}
const naive = median(times.naive);
console.log(`time for all ${cases.length} cases, median of 15 interleaved rounds:`);
for (const [name, samples] of Object.entries(times)) {
  const ms = median(samples);
  const perCase = ((1000 * ms) / cases.length).toFixed(1);
  console.log(`  ${name.padEnd(20)} ${ms.toFixed(2).padStart(8)} ms  ${perCase.padStart(6)} µs/case  ${(ms / naive).toFixed(1).padStart(6)}× naive`);
}
