// Builds JS values from the tape wasm/src/wire/to_js/tape.rs, report_fields.rs and serde_values.rs
// write, which is how everything crosses from Rust to JS: numbers (each string's UTF-16
// length among them) in one Float64Array, the strings in one string, both read front to
// back. The first number says what the tape holds (`SHAPE_*`, the wire contract). Each object gets
// the fields, order and nulls that JSON.parse of the serde_json text would give, as a
// literal of fixed shape where it can. The readers of the report's types are generated
// from wasm/js/schema.mjs into the marked block below (node scripts/gen-schema.mjs); the
// tape, a serde value, and the readers of a marker (its refs) and a segment (its kind)
// are written here.

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
      case VALUE_NULL:
        return null;
      case VALUE_FALSE:
        return false;
      case VALUE_TRUE:
        return true;
      case VALUE_NUMBER:
        return this.numbers[this.n++];
      case VALUE_STRING:
        return this.string();
      case VALUE_ARRAY: {
        const out = [];
        while (this.numbers[this.n] !== VALUE_END) out.push(this.value());
        this.n++;
        return out;
      }
      case VALUE_OBJECT: {
        const out = {};
        while (this.numbers[this.n] !== VALUE_END) {
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

/** A marker: its refs are preceded by their kind (`REFS_*`). */
function marker(t) {
  const span = t.span();
  const refsKind = t.count();
  // The refs are read here rather than by `t.list`, whose calls of its reader cannot be
  // inlined (it is called with many); parsing spends a fifth of its time here.
  const refs = new Array(refsKind === REFS_SECTION ? 0 : t.count());
  if (refsKind === REFS_NUMBERS) for (let i = 0; i < refs.length; i++) refs[i] = t.count();
  else if (refsKind === REFS_IDS) for (let i = 0; i < refs.length; i++) refs[i] = t.string();
  const out = { span, refs, kind: t.name(), raw: t.string() };
  if (refsKind === REFS_SECTION) {
    out.chapter = t.string();
    out.section = t.count();
  }
  return out;
}

/** A segment: its kind (`SEGMENT_*`), then its fields. */
function segment(t) {
  if (t.count() === SEGMENT_TEXT) return { type: SEGMENT_TEXT_TYPE, text: t.string() };
  const out = { type: SEGMENT_CITE_TYPE, label: t.string(), refs: t.list(string) };
  if (t.flag()) out.sourceIndex = t.count();
  out.sourcePositions = t.list(countOrNull);
  if (t.flag()) out.title = t.string();
  if (t.flag()) out.url = t.string();
  out.valid = t.flag();
  return out;
}

// <generated by scripts/gen-schema.mjs from wasm/js/schema.mjs: edit those, not this>
// The tape's tags; their docs: wasm/src/wire/contract.rs.
const SHAPE_REPORT = 0, SHAPE_PUSH = 1, SHAPE_FINISH = 2, SHAPE_MARKERS = 3, SHAPE_VALUE = 4, SHAPE_BATCH = 5, SHAPE_HELD = 6;
const REFS_NUMBERS = 0, REFS_IDS = 1, REFS_SECTION = 2;
const SEGMENT_TEXT = 0, SEGMENT_CITE = 1;
const SEGMENT_TEXT_TYPE = "text", SEGMENT_CITE_TYPE = "cite";
const EVENT_CITE = 0, EVENT_FINDING = 1, EVENT_REVISE = 2;
const EVENT_CITE_TYPE = "cite", EVENT_FINDING_TYPE = "finding", EVENT_REVISE_TYPE = "revise";
const VALUE_NULL = 0, VALUE_FALSE = 1, VALUE_TRUE = 2, VALUE_NUMBER = 3, VALUE_STRING = 4, VALUE_ARRAY = 5, VALUE_OBJECT = 6, VALUE_END = 7;

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
  return { type: EVENT_REVISE_TYPE, span: t.span(), text: t.string(), answerStart: t.count() };
}

/** A stream's event: its kind (`EVENT_*`), then its fields. */
function streamEvent(t) {
  switch (t.count()) {
    case EVENT_CITE:
      return { type: EVENT_CITE_TYPE, segment: segment(t), span: t.span(), answerSpan: t.span() };
    case EVENT_FINDING: {
      const out = finding(t);
      out.type = EVENT_FINDING_TYPE;
      return out;
    }
    default: // EVENT_REVISE
      return revision(t);
  }
}

// What each `SHAPE_*` reads.
const SHAPES = [];
SHAPES[SHAPE_REPORT] = report;
SHAPES[SHAPE_PUSH] = (t) => ({ text: t.string(), events: t.list(streamEvent) });
// `revise` is there, undefined, when the end revised nothing.
SHAPES[SHAPE_FINISH] = (t) => ({ text: t.string(), report: report(t), revise: t.flag() ? revision(t) : undefined });
SHAPES[SHAPE_MARKERS] = (t) => t.list(marker);
SHAPES[SHAPE_VALUE] = value;
SHAPES[SHAPE_BATCH] = (t) => ({ reports: t.list(report), summary: t.value(), status: t.name() });
SHAPES[SHAPE_HELD] = (t) => ({ releasedThrough: t.count(), undecidedFrom: t.flag() ? t.count() : null });

export function readTape(numbers, strings) {
  const t = new Tape(numbers, strings);
  return SHAPES[t.count()](t);
}
