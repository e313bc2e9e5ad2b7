// Reads `validate`'s input (or a list of sources) in one pass in JS and hands it to the
// module as a tape, which wasm/src/wire/from_js/input_tape.rs decodes in the same order: two calls across
// the boundary instead of one or more per field. Fields are read with plain property
// access, so getters (class instances) work; a getter that throws reads as absent. A
// list is read only once its length is within its limit (wasm/js/untrusted.js).
//
// The tape is a list of numbers. A field is 0 when absent (undefined or null under each
// of its names), else 1 + the index of the name it was found under, then its value; a
// field given under two of its names is that plus TWICE × (1 + the index of the other),
// and no value (a source's text is read by precedence instead: see `firstOf`). A value
// is a tag and what the tag needs:
//   STRING                 the next string (strings are copied separately, in order)
//   NUMBER n
//   PAIR type a b          two numbers: a line range [a, b] or a span {start, end}
//   LIST n, n values       an array; only n when n is over the list's limit
//   OBJECT, its fields     an object (not an array)
//   OTHER type             anything else, for the error or finding to name
//   LONG n                 an answer of n UTF-16 units, over its limit (not copied)
// `type` is an index into the type names of wasm/src/wire/from_js/read.rs.
// The tags and TWICE are the wire contract's (wasm/js/schema.mjs), shared with the reader.
import {
  INPUT_LIST as LIST,
  INPUT_LONG as LONG,
  INPUT_NUMBER as NUMBER,
  INPUT_OBJECT as OBJECT,
  INPUT_OTHER as OTHER,
  INPUT_PAIR as PAIR,
  INPUT_STRING as STRING,
  TWICE,
  TYPE_ARRAY,
  TYPE_OBJECT,
  TYPE_UNREADABLE_LENGTH,
  lengthOf,
  typeCode,
} from "./untrusted.js";

const encoder = new TextEncoder();

// What `field` counts as present: anything but undefined and null.
const present = (value) => value !== undefined && value !== null;

// An object that is not null, an array, a function or a revoked Proxy.
const isObject = (value) => typeCode(value) === TYPE_OBJECT;

// The tape's numbers go into a Float64Array that doubles when full, not a JS array: an
// array of more than 16K numbers lives in V8's large-object space, where each push costs
// three times as much, and validating 4,000 sources took 9–10 times as long as 500
// (docs/perf-log.md, issue 21). The buffer of the last walk taken is kept for the next one
// (a getter may start a walk inside another: that one gets a buffer of its own).
let spare = null;

// Buffers up to this many numbers (8 MB) are kept for the next walk.
const SPARE_MAX = 1 << 20;

class Walk {
  // `maxItems`: the most items of a list that has no limit of its own.
  constructor(maxItems) {
    this.tape = spare ?? new Float64Array(1024);
    spare = null;
    this.n = 0; // numbers on the tape
    this.strings = [];
    this.units = 0;
    this.maxItems = maxItems;
  }

  push(a) {
    if (this.n === this.tape.length) {
      const tape = new Float64Array(2 * this.n);
      tape.set(this.tape);
      this.tape = tape;
    }
    this.tape[this.n++] = a;
  }

  push2(a, b) {
    this.push(a);
    this.push(b);
  }

  // Writes the field's presence and returns its value (undefined when absent, and when
  // given under two of its names: the reader refuses it).
  field(object, names) {
    for (let i = 0; i < names.length; i++) {
      let value;
      try {
        value = object[names[i]];
      } catch {
        continue;
      }
      if (present(value)) {
        for (let j = i + 1; j < names.length; j++) {
          let other;
          try {
            other = object[names[j]];
          } catch {
            continue;
          }
          if (present(other)) {
            this.push(i + 1 + TWICE * (j + 1));
            return undefined;
          }
        }
        this.push(i + 1);
        return value;
      }
    }
    this.push(0);
    return undefined;
  }

  other(value) {
    this.push2(OTHER, typeCode(value));
  }

  // A field read under the first of its `names` present (a source's text: the full text
  // before an excerpt), written as `field` writes it, then 0, or 1 + the index of the
  // first later name present with another value (a string compared by value).
  firstOf(object, names) {
    let at = 0;
    let value;
    let differs = 0;
    for (let i = 0; i < names.length && !differs; i++) {
      let v;
      try {
        v = object[names[i]];
      } catch {
        continue;
      }
      if (!present(v)) continue;
      if (!at) {
        at = i + 1;
        value = v;
      } else if (v !== value) {
        differs = i + 1;
      }
    }
    this.push(at);
    if (at) this.scalar(value);
    this.push(differs);
  }

  // A string, a number, or something else.
  scalar(value) {
    if (typeof value === "string") {
      this.push(STRING);
      this.strings.push(value);
      this.units += value.length;
    } else if (typeof value === "number") {
      this.push2(NUMBER, value);
    } else {
      this.other(value);
    }
  }

  scalars(object, ...fields) {
    for (const names of fields) {
      const value = this.field(object, names);
      if (value !== undefined) this.scalar(value);
    }
  }

  // An array of at most `limit` items, each written by `item`. Of a longer one only its
  // length is written, which the reader refuses (too_large): a sparse array or a Proxy
  // claiming 2^32 − 1 items costs one read, not 2^32 − 1.
  list(value, item, limit) {
    if (typeCode(value) !== TYPE_ARRAY) return this.other(value);
    const length = lengthOf(value);
    if (length < 0) return this.push2(OTHER, TYPE_UNREADABLE_LENGTH);
    this.push2(LIST, length);
    if (length > limit) return;
    for (let i = 0; i < length; i++) {
      let v;
      try {
        v = value[i];
      } catch {
        v = undefined; // as a getter that throws: absent
      }
      item.call(this, v);
    }
  }

  // Writes a field found under name `at` (1-based; 0: absent) with its value (none
  // when it was given twice).
  put(at, value) {
    this.push(at);
    if (at !== 0 && at < TWICE) this.scalar(value);
  }

  source(s) {
    if (!isObject(s)) return this.other(s);
    this.push(OBJECT);
    this.sourceFields(searchResult(s, this.maxItems) ?? s);
  }

  citation(value) {
    if (typeof value === "number") return this.push2(NUMBER, value);
    if (!isObject(value)) return this.other(value);
    this.push(OBJECT);
    this.declaredCitationFields(value);
  }

  // `{ start, end }`: two numbers, else the value for the error to name.
  span(span) {
    let start;
    let end;
    try {
      start = span.start;
      end = span.end;
    } catch {
      // read as no bounds
    }
    if (typeof span !== "string" && typeof start === "number" && typeof end === "number") {
      this.push2(PAIR, typeCode(span));
      this.push2(start, end);
    } else {
      this.other(span);
    }
  }

  // The fields with aliases, from wasm/js/schema.mjs: each name is read at its own
  // site, whose inline cache stays monomorphic over a request's same-shaped sources (a
  // keyed read over many names is megamorphic: 2.6 µs of a typical `validate`,
  // docs/perf-log.md). Per field, its names in order: `at` is the name found (1-based),
  // 0 while none is.
  // <generated by scripts/gen-schema.mjs from wasm/js/schema.mjs: edit those, not this>
  inputFields(o) {
    let v;
    let at;
    at = 0;
    if (!at) { try { v = o.question; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.query; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.query)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.mode; } catch { v = undefined; } if (present(v)) at = 1; }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.requestId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.request_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.request_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.sessionId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.session_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.session_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.responseId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.response_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.response_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.modelVersion; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.model_version; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.model_version)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.topK; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.top_k; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.top_k)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
  }

  sourceFields(o) {
    let v;
    let at;
    at = 0;
    if (!at) { try { v = o.chapter; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.chapter_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.chapter_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.index; } catch { v = undefined; } if (present(v)) at = 1; }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.id; } catch { v = undefined; } if (present(v)) at = 1; }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.docId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.doc_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.doc_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.chunkId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.chunk_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.chunk_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.title; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.doc_title; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.doc_title)) at += TWICE * 2; } catch { /* absent */ } }
    if (!at) { try { v = o.section_title; } catch { v = undefined; } if (present(v)) at = 3; } else if (at < TWICE) { try { if (present(o.section_title)) at += TWICE * 3; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.url; } catch { v = undefined; } if (present(v)) at = 1; }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.slug; } catch { v = undefined; } if (present(v)) at = 1; }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.payloadId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.payload_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.payload_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.chunkType; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.chunk_type; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.chunk_type)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    this.firstOf(o, ["text", "content", "page_content", "excerpt", "snippet"]);
    at = 0;
    if (!at) { try { v = o.section; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.section_number; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.section_number)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.relevance; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.relevance_score; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.relevance_score)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.firstLine; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.first_line; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.first_line)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
  }

  declaredCitationFields(o) {
    let v;
    let at;
    at = 0;
    if (!at) { try { v = o.source; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.index; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.index)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.docId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.doc_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.doc_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.chunkId; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.chunk_id; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.chunk_id)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.quote; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.snippet; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.snippet)) at += TWICE * 2; } catch { /* absent */ } }
    if (!at) { try { v = o.cited_text; } catch { v = undefined; } if (present(v)) at = 3; } else if (at < TWICE) { try { if (present(o.cited_text)) at += TWICE * 3; } catch { /* absent */ } }
    this.put(at, v);
    { const value = this.field(o, ["lineRange", "line_range"]); if (value !== undefined) this.lineRange(value); }
    at = 0;
    if (!at) { try { v = o.evidenceIdx; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.evidence_idx; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.evidence_idx)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.alignmentScore; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.alignment_score; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.alignment_score)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.spanInAnswer; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.span_in_answer; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.span_in_answer)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.relevance; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.relevance_score; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.relevance_score)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    at = 0;
    if (!at) { try { v = o.claim; } catch { v = undefined; } if (present(v)) at = 1; }
    if (!at) { try { v = o.claim_text; } catch { v = undefined; } if (present(v)) at = 2; } else if (at < TWICE) { try { if (present(o.claim_text)) at += TWICE * 2; } catch { /* absent */ } }
    this.put(at, v);
    { const value = this.field(o, ["span"]); if (value !== undefined) this.span(value); }
  }
// </generated>

  // `[first, last]`: two numbers, read only from an array of exactly two items.
  lineRange(range) {
    if (typeCode(range) === TYPE_ARRAY && lengthOf(range) === 2) {
      let first;
      let last;
      try {
        first = range[0];
        last = range[1];
      } catch {
        // read as no bounds
      }
      if (typeof first === "number" && typeof last === "number") {
        this.push2(PAIR, TYPE_ARRAY);
        this.push2(first, last);
        return;
      }
    }
    this.scalar(range);
  }

  warning(value) {
    if (!isObject(value)) return this.other(value);
    this.push(OBJECT);
    this.scalars(value, ["code"]);
    const span = this.field(value, ["span"]);
    if (span !== undefined) {
      if (isObject(span)) {
        this.push(OBJECT);
        this.scalars(span, ["start"], ["end"]);
      } else {
        this.other(span);
      }
    }
    this.scalars(value, ["message"]);
  }

  // An answer longer than `maxAnswerUnits` UTF-16 units is written as LONG, not copied.
  input(value, maxSources, maxAnswerUnits) {
    if (!isObject(value)) return this.other(value);
    this.push(OBJECT);
    const answer = this.field(value, ["answer"]);
    if (typeof answer === "string" && answer.length > maxAnswerUnits) {
      this.push2(LONG, answer.length);
    } else if (answer !== undefined) {
      this.scalar(answer);
    }
    const sources = this.field(value, ["sources"]);
    if (sources !== undefined) this.list(sources, this.source, maxSources);
    const citations = this.field(value, ["citations"]);
    if (citations !== undefined) this.list(citations, this.citation, this.maxItems);
    this.inputFields(value);
    const warnings = this.field(value, ["warnings"]);
    if (warnings !== undefined) this.list(warnings, this.warning, this.maxItems);
  }
}

// What joins the text blocks of a source's `content` given as a list: a paragraph break
// (src/model/input.rs's SEARCH_RESULT_BLOCK_SEPARATOR, which says why).
const BLOCK_SEPARATOR = "\n\n";

// A source read as src/model/input.rs reads it when it is (like) an Anthropic
// `search_result` block: `content` a list of at most `maxItems` text blocks becomes their
// texts joined, and a `search_result`'s `source` its `url` (an http(s) one) or else its
// `id`, where that field is absent. Undefined when there is nothing to change, and when
// a block is no text block (the list is then written as it is, for the reader to refuse).
// The result reads every other field through `s`, getters included.
function searchResult(s, maxItems) {
  let content;
  let kind;
  let source;
  try {
    content = s.content;
    kind = s.type;
    source = s.source;
  } catch {
    return undefined;
  }
  const own = {};
  if (typeCode(content) === TYPE_ARRAY) {
    const length = lengthOf(content);
    if (length < 0 || length > maxItems) return undefined;
    const texts = [];
    for (let i = 0; i < length; i++) {
      let block;
      let text;
      try {
        block = content[i];
        text = isObject(block) && block.type === "text" ? block.text : undefined;
      } catch {
        return undefined;
      }
      if (typeof text !== "string") return undefined;
      texts.push(text);
    }
    own.content = texts.join(BLOCK_SEPARATOR);
  }
  if (kind === "search_result" && typeof source === "string") {
    const slot = source.startsWith("https://") || source.startsWith("http://") ? "url" : "id";
    let given;
    try {
      given = s[slot];
    } catch {
      given = undefined;
    }
    if (!present(given)) own[slot] = source;
  }
  if (Object.keys(own).length === 0) return undefined;
  return Object.assign(Object.create(s), own);
}

// The last walk, until `takeInput` copies it into the module. A getter that calls back
// into the module finishes its own walk and take before this one is stored.
let pending = null;

function finish(walk, sizes) {
  pending = walk;
  sizes[0] = walk.n;
  sizes[1] = walk.strings.length;
  sizes[2] = walk.units;
}

// Walks `validate`'s input; `sizes` receives [tape length, strings, UTF-16 units]. The
// limits are wasm/src/wire/from_js/input_tape.rs's `Limits`.
export function readInput(value, sizes, maxItems, maxSources, maxAnswerUnits) {
  const walk = new Walk(maxItems);
  walk.input(value, maxSources, maxAnswerUnits);
  finish(walk, sizes);
}

// Walks an array of at most `maxItems` sources (a value: LIST or OTHER).
export function readSources(value, sizes, maxItems) {
  const walk = new Walk(maxItems);
  walk.list(value, walk.source, maxItems);
  finish(walk, sizes);
}

// Copies the last walk: the tape, every string as UTF-8 one after the other into
// `bytes` (3 bytes per UTF-16 unit always suffice), and each string's length in bytes.
export function takeInput(bytes, tape, lengths) {
  const walk = pending;
  pending = null;
  tape.set(walk.tape.subarray(0, walk.n));
  if (walk.tape.length <= SPARE_MAX) spare = walk.tape;
  let at = 0;
  for (let i = 0; i < walk.strings.length; i++) {
    const written = encoder.encodeInto(walk.strings[i], bytes.subarray(at)).written;
    lengths[i] = written;
    at += written;
  }
}
