// Builds the report object (and a stream's events) from the tape src/wasm/report_out.rs writes: numbers (each
// string's UTF-16 length among them) in one Float64Array, the strings in one string,
// both read front to back. Each object is built with the fields, order and nulls that
// JSON.parse of the serde_json text would give; object literals of fixed shape are
// what makes this many times faster than JSON.parse.

class Tape {
  constructor(numbers, strings) {
    this.numbers = numbers;
    this.strings = strings;
    this.n = 0; // next number
    this.s = 0; // next string's start
  }

  count() {
    return this.numbers[this.n++];
  }

  // serde_json writes NaN and ±Infinity as null.
  float() {
    const value = this.numbers[this.n++];
    return Number.isFinite(value) ? value : null;
  }

  flag() {
    return this.numbers[this.n++] === 1;
  }

  string() {
    const start = this.s;
    this.s += this.numbers[this.n++];
    return this.strings.slice(start, this.s);
  }

  span() {
    return { start: this.numbers[this.n++], end: this.numbers[this.n++] };
  }

  list(read) {
    const out = new Array(this.count());
    for (let i = 0; i < out.length; i++) out[i] = read(this);
    return out;
  }
}

const count = (t) => t.count();
const string = (t) => t.string();

function marker(t) {
  const span = t.span();
  const refsKind = t.count();
  const refs = refsKind === 0 ? t.list(count) : refsKind === 1 ? t.list(string) : [];
  const out = { span, refs, kind: t.string(), raw: t.string() };
  if (refsKind === 2) {
    out.chapter = t.string();
    out.section = t.count();
  }
  return out;
}

function finding(t) {
  const out = { code: t.string(), severity: t.string(), message: t.string() };
  if (t.flag()) out.citation = t.count();
  if (t.flag()) out.span = t.span();
  return out;
}

function quote(t) {
  const out = {};
  if (t.flag()) out.span = t.span();
  if (t.flag()) out.distance = t.count();
  out.match = t.string();
  return out;
}

function citation(t) {
  const out = { label: t.string() };
  if (t.flag()) out.sourceIndex = t.count();
  if (t.flag()) out.sourceId = t.string();
  if (t.flag()) out.marker = t.count();
  if (t.flag()) out.span = t.span();
  if (t.flag()) out.declared = t.count();
  out.valid = t.flag();
  out.errors = t.list(finding);
  out.warnings = t.list(finding);
  out.qualityScore = t.float();
  if (t.flag()) out.quote = quote(t);
  if (t.flag()) out.quoteText = t.string();
  if (t.flag()) out.support = t.float();
  if (t.flag()) out.claim = t.span();
  if (t.flag()) out.evidence = { span: t.span(), text: t.string() };
  return out;
}

function summary(t) {
  return {
    total: t.count(),
    valid: t.count(),
    invalid: t.count(),
    avgAlignment: t.flag() ? t.float() : null,
    citationCoverage: t.float(),
    hasEvidenceIdx: t.float(),
    hasAlignmentScore: t.float(),
    hasSpan: t.float(),
    hallucinations: t.count(),
    uncitedClaims: t.count(),
  };
}

function segment(t) {
  if (t.count() === 0) return { type: "text", text: t.string() };
  const out = { type: "cite", label: t.string(), refs: t.list(string) };
  if (t.flag()) out.sourceIndex = t.count();
  if (t.flag()) out.title = t.string();
  if (t.flag()) out.url = t.string();
  out.valid = t.flag();
  return out;
}

export function buildReport(numbers, strings) {
  const t = new Tape(numbers, strings);
  const out = { status: t.string(), confidence: t.float(), uncertain: t.flag() };
  if (t.flag()) out.uncertaintyNote = t.string();
  out.cleanedAnswer = t.string();
  out.markers = t.list(marker);
  out.citations = t.list(citation);
  out.findings = t.list(finding);
  out.summary = summary(t);
  out.segments = t.list(segment);
  out.timingMs = t.float();
  return out;
}

// A CitationStream event: 0 a chip, 1 a finding.
export function buildStreamEvent(numbers, strings) {
  const t = new Tape(numbers, strings);
  if (t.count() === 0) return { type: "cite", segment: segment(t), span: t.span(), answerSpan: t.span() };
  const out = finding(t);
  out.type = "finding";
  return out;
}
