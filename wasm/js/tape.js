// Builds JS values from the tape wasm/src/wire/to_js/tape.rs, report_fields.rs and serde_values.rs
// write, which is how everything crosses from Rust to JS: numbers (each string's UTF-16
// length among them) in one Float64Array, the strings in one string, both read front to
// back. The first number says what the tape holds (`Shape` in tape.rs). Each object gets
// the fields, order and nulls that JSON.parse of the serde_json text would give, as a
// literal of fixed shape where it can. The readers of the report's types are generated
// from wasm/js/schema.mjs into the marked block below (node scripts/gen-schema.mjs); the
// tape, a serde value, and the readers of a marker (its refs) and a segment (its kind)
// are written here.

// A serde value's operations (serde_values.rs).
const NULL = 0, FALSE = 1, TRUE = 2, NUMBER = 3, STRING = 4, ARRAY = 5, OBJECT = 6, END = 7;

// Lists longer than this are filled by push: V8 allocates a `new Array(n)` of more than
// 16K items in the old generation at once, and filling it with new objects cost 4–10
// times as much per item from 20,000 markers on (docs/perf-log.md, issue 21). Shorter
// ones are made at their length, because `[]` grows to 16 slots at its first push, and
// those 100-odd bytes per marker made the collector's work grow faster than the markers.
const PREALLOCATED = 16384;

class Tape {
  constructor(numbers, strings) {
    this.numbers = numbers;
    this.strings = strings;
    this.n = 0; // next number
    this.s = 0; // next string's start
    this.names = []; // the names read so far
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

  // A name from a small fixed set (a status, a finding's code, a marker's kind): a
  // string the first time, then -1 - its index among the names read. One string per
  // name for all the objects that hold it, not one per object for the garbage collector
  // to walk (a report of 80,000 findings).
  name() {
    const at = this.numbers[this.n];
    if (at < 0) {
      this.n++;
      return this.names[-1 - at];
    }
    const name = this.string();
    this.names.push(name);
    return name;
  }

  span() {
    return { start: this.numbers[this.n++], end: this.numbers[this.n++] };
  }

  list(read) {
    const length = this.count();
    if (length <= PREALLOCATED) {
      const out = new Array(length);
      for (let i = 0; i < length; i++) out[i] = read(this);
      return out;
    }
    const out = [];
    for (let i = 0; i < length; i++) out.push(read(this));
    return out;
  }

  // A serde value: what JSON.parse of serde_json's text gives.
  value() {
    switch (this.numbers[this.n++]) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case NUMBER:
        return this.numbers[this.n++];
      case STRING:
        return this.string();
      case ARRAY: {
        const out = [];
        while (this.numbers[this.n] !== END) out.push(this.value());
        this.n++;
        return out;
      }
      case OBJECT: {
        const out = {};
        while (this.numbers[this.n] !== END) {
          const key = String(this.value());
          // As JSON.parse does: "__proto__" is an own field, not the prototype.
          if (key === "__proto__") Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
          else out[key] = this.value();
        }
        this.n++;
        return out;
      }
      default:
        throw new Error(`citeproof: bad value on the tape at ${this.n - 1}`);
    }
  }
}

const string = (t) => t.string();
const countOrNull = (t) => (t.flag() ? t.count() : null);

/** A marker: its refs are preceded by their kind (0 numbers, 1 ids, 2 a section). */
function marker(t) {
  const span = t.span();
  const refsKind = t.count();
  // The refs are read here rather than by `t.list`, whose calls of its reader cannot be
  // inlined (it is called with many); parsing spends a fifth of its time here.
  const refs = new Array(refsKind === 2 ? 0 : t.count());
  if (refsKind === 0) for (let i = 0; i < refs.length; i++) refs[i] = t.count();
  else if (refsKind === 1) for (let i = 0; i < refs.length; i++) refs[i] = t.string();
  const out = { span, refs, kind: t.name(), raw: t.string() };
  if (refsKind === 2) {
    out.chapter = t.string();
    out.section = t.count();
  }
  return out;
}

/** A segment: 0 text, 1 a chip. */
function segment(t) {
  if (t.count() === 0) return { type: "text", text: t.string() };
  const out = { type: "cite", label: t.string(), refs: t.list(string) };
  if (t.flag()) out.sourceIndex = t.count();
  out.sourcePositions = t.list(countOrNull);
  if (t.flag()) out.title = t.string();
  if (t.flag()) out.url = t.string();
  out.valid = t.flag();
  return out;
}

// <generated by scripts/gen-schema.mjs from wasm/js/schema.mjs: edit those, not this>
function report(t) {
  const out = { status: t.name(), confidence: t.float(), uncertain: t.flag() };
  if (t.flag()) out.uncertaintyNote = t.string();
  out.cleanedAnswer = t.string();
  out.markers = t.list(marker);
  out.citations = t.list(citationResult);
  out.findings = t.list(finding);
  out.summary = summary(t);
  out.segments = t.list(segment);
  out.timingMs = t.float();
  return out;
}

function citationResult(t) {
  const out = { label: t.string() };
  if (t.flag()) out.sourceIndex = t.count();
  if (t.flag()) out.sourcePosition = t.count();
  if (t.flag()) out.sourceId = t.string();
  if (t.flag()) out.marker = t.count();
  if (t.flag()) out.span = t.span();
  if (t.flag()) out.declared = t.count();
  out.valid = t.flag();
  out.errors = t.list(finding);
  out.warnings = t.list(finding);
  out.qualityScore = t.float();
  if (t.flag()) out.quote = quoteLocation(t);
  if (t.flag()) out.quoteText = t.string();
  if (t.flag()) out.support = t.float();
  if (t.flag()) out.claim = t.span();
  if (t.flag()) out.evidence = evidence(t);
  return out;
}

function quoteLocation(t) {
  const out = {};
  if (t.flag()) out.span = t.span();
  if (t.flag()) out.distance = t.count();
  out.match = t.name();
  return out;
}

function evidence(t) {
  return { span: t.span(), text: t.string() };
}

function finding(t) {
  const out = { code: t.name(), severity: t.name(), message: t.string() };
  if (t.flag()) out.citation = t.count();
  if (t.flag()) out.span = t.span();
  return out;
}

function summary(t) {
  return { total: t.count(), valid: t.count(), invalid: t.count(), avgAlignment: t.flag() ? t.float() : null, citationCoverage: t.float(), hasEvidenceIdx: t.float(), hasAlignmentScore: t.float(), hasSpan: t.float(), hallucinations: t.count(), uncitedClaims: t.count() };
}
// </generated>

const value = (t) => t.value();

/** A stream's revision: its span, text and answer start. */
function revision(t) {
  return { type: "revise", span: t.span(), text: t.string(), answerStart: t.count() };
}

/** A stream's event: 0 a chip, 1 a finding, 2 a revision. */
function streamEvent(t) {
  switch (t.count()) {
    case 0:
      return { type: "cite", segment: segment(t), span: t.span(), answerSpan: t.span() };
    case 1: {
      const out = finding(t);
      out.type = "finding";
      return out;
    }
    default:
      return revision(t);
  }
}

// What each `Shape` of tape.rs reads, by its number.
const SHAPES = [
  report,
  (t) => ({ text: t.string(), events: t.list(streamEvent) }),
  // `revise` is there, undefined, when the end revised nothing.
  (t) => ({ text: t.string(), report: report(t), revise: t.flag() ? revision(t) : undefined }),
  (t) => t.list(marker),
  value,
  (t) => ({ reports: t.list(report), summary: t.value(), status: t.name() }),
  (t) => ({ releasedThrough: t.count(), undecidedFrom: t.flag() ? t.count() : null }),
];

export function readTape(numbers, strings) {
  const t = new Tape(numbers, strings);
  return SHAPES[t.count()](t);
}
