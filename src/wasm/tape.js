// The hand-written part of src/wasm/report.js, which scripts/gen-schema.mjs copies in
// whole (edit here, then run it): the reading side of the report tape
// (src/wasm/report_out.rs) — numbers (each string's UTF-16 length among them) in one
// Float64Array, the strings in one string, both read front to back — and the readers
// for the two values whose encoding is not a plain list of fields (a marker's refs, a
// segment's kind). The other readers are generated from src/wasm/schema.mjs.

export class Tape {
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

export const count = (t) => t.count();
export const string = (t) => t.string();

/** A marker: its refs are preceded by their kind (0 numbers, 1 ids, 2 a section). */
export function marker(t) {
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

/** A segment: 0 text, 1 a chip. */
export function segment(t) {
  if (t.count() === 0) return { type: "text", text: t.string() };
  const out = { type: "cite", label: t.string(), refs: t.list(string) };
  if (t.flag()) out.sourceIndex = t.count();
  if (t.flag()) out.title = t.string();
  if (t.flag()) out.url = t.string();
  out.valid = t.flag();
  return out;
}
