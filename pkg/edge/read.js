// Reading the edge helpers' arguments as the binding reads them (wasm/src/wire/from_js/),
// so that the JS helpers and the Rust ones refuse the same values with the same errors
// (tests/js/edge-differential.test.mjs holds them together):
//   - `Obj`: an object read field by field (read.rs's `Obj`), for options, contexts and
//     a report given back (report_view.rs's `ReportView`);
//   - `readInput`, `readSources`: an `Input` or a list of sources, walked by the
//     binding's own walk (input.js, copied in by scripts/build-pkg.mjs) and its tape
//     decoded as input_tape.rs decodes it.
import { readInput as walkInput, readSources as walkSources, takeInput } from "./input.js";
import {
  INPUT_LIST,
  INPUT_LONG,
  INPUT_NUMBER,
  INPUT_OBJECT,
  INPUT_PAIR,
  INPUT_STRING,
  LIST_UNREADABLE_LENGTH,
  MAX_LIST_ITEMS,
  TWICE,
  TYPE_OBJECT,
  TYPE_OTHER,
  TYPE_REVOKED,
  TYPE_UNREADABLE_LENGTH,
  codedError,
  fieldOf,
  listItems,
  typeCode,
} from "./untrusted.js";

/** The type names of errors, indexed by `typeCode` (read.rs's `TYPES`). */
const TYPES = ["string", "number", "boolean", "array", "null", "undefined", "object", "other value", "revoked Proxy", "array-like with no readable length"];

/** What errors call `MAX_LIST_ITEMS` (read.rs's `LIST_CEILING`). */
const LIST_CEILING = "the most a list may hold";

/**
 * `x` with at most four decimals, trailing zeros dropped (src/model/mod.rs's `decimal`):
 * how errors and findings write a number.
 */
export function decimal(x) {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  const scaled = Math.round(Math.abs(x) * 10_000);
  if (scaled >= 9.0e15) {
    // Rust's `as u64` of the magnitude: truncated, saturating at 2^64 − 1.
    const magnitude = Math.abs(x) >= 2 ** 64 ? 2n ** 64n - 1n : BigInt(Math.trunc(Math.abs(x)));
    return x < 0 ? `-${magnitude}` : `${magnitude}`;
  }
  const whole = Math.floor(scaled / 10_000);
  const frac = scaled % 10_000;
  const sign = x < 0 && scaled > 0 ? "-" : "";
  if (frac === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(frac).padStart(4, "0").replace(/0+$/, "")}`;
}

/** How an error message shows a value of type `kind` (errors.rs's `shown`). */
function shown(kind, value) {
  if (typeof value === "string") {
    const chars = [...wellFormed(value)];
    return `${kind} "${chars.slice(0, 40).join("")}"${chars.length > 40 ? "…" : ""}`;
  }
  if (typeof value === "number") return `${kind} ${decimal(value)}`;
  if (typeof value === "boolean") return `${kind} ${value}`;
  return kind;
}

/** The JS type of `value` as errors name it. */
const typeName = (value) => TYPES[typeCode(value)] ?? TYPES[TYPE_OTHER];

/** `n` as a count (a non-negative integer up to 2^32 − 1), else undefined (read.rs's `count_of`). */
const countOf = (n) => (Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff ? n : undefined);

/** The `too_large` error for a list of `length` items over `limit`. */
const tooMany = (path, length, limit, limitName) => codedError("too_large", path, `${length} items exceed ${limitName} (${limit})`);

/** A JS object being read: its path names it in errors, which carry `code`. */
export class Obj {
  /** `value` must be a plain object (not an array). */
  constructor(value, path, code) {
    if (typeCode(value) !== TYPE_OBJECT) throw codedError(code, path, `expected an object, got ${typeName(value)}`);
    this.value = value;
    this.path = path;
    this.code = code;
  }

  /** An optional object: undefined and null read as undefined. */
  static optional(value, path, code) {
    return value === undefined || value === null ? undefined : new Obj(value, path, code);
  }

  error(name, expected, got) {
    return codedError(this.code, `${this.path}.${name}`, `expected ${expected}, got ${shown(typeName(got), got)}`);
  }

  /** The first of `names` present (not undefined or null): `[name, value]`, else undefined. */
  get(names) {
    for (const name of names) {
      const value = fieldOf(this.value, name);
      if (value !== undefined && value !== null) return [name, value];
    }
    return undefined;
  }

  /** A string field. */
  string(names) {
    const found = this.get(names);
    if (!found) return undefined;
    if (typeof found[1] !== "string") throw this.error(found[0], "a string", found[1]);
    return wellFormed(found[1]);
  }

  /** A number field (NaN included). */
  number(names) {
    const found = this.get(names);
    if (!found) return undefined;
    if (typeof found[1] !== "number") throw this.error(found[0], "a number", found[1]);
    return found[1];
  }

  /** A non-negative integer field. */
  count(names) {
    const found = this.get(names);
    if (!found) return undefined;
    const n = typeof found[1] === "number" ? countOf(found[1]) : undefined;
    if (n === undefined) throw this.error(found[0], "a non-negative integer", found[1]);
    return n;
  }

  /** A boolean field. */
  boolean(names) {
    const found = this.get(names);
    if (!found) return undefined;
    if (typeof found[1] !== "boolean") throw this.error(found[0], "a boolean", found[1]);
    return found[1];
  }

  /** An array field of at most `MAX_LIST_ITEMS` items: `[item, path]` pairs. */
  array(names) {
    const found = this.get(names);
    if (!found) return undefined;
    const path = `${this.path}.${found[0]}`;
    const items = listItems(found[1], MAX_LIST_ITEMS);
    if (typeof items === "number") {
      if (items >= 0) throw tooMany(path, items, MAX_LIST_ITEMS, LIST_CEILING);
      const got = items === LIST_UNREADABLE_LENGTH ? TYPES[TYPE_UNREADABLE_LENGTH] : typeName(found[1]);
      throw codedError(this.code, path, `expected an array, got ${got}`);
    }
    return items.map((item, i) => [item, `${path}[${i}]`]);
  }

  /** A nested object field. */
  object(names) {
    const found = this.get(names);
    return found ? new Obj(found[1], `${this.path}.${found[0]}`, this.code) : undefined;
  }
}

/**
 * A string as the module copies it in (UTF-8, by the engine's encoder): a lone
 * surrogate becomes U+FFFD.
 */
const wellFormed = (text) => (typeof text.toWellFormed === "function" ? text.toWellFormed() : text.replace(/\p{Surrogate}/gu, "\uFFFD"));

/** `offsets` of an options or context object: "utf16" (default), "utf8" or "codepoint". */
export function readUnit(obj) {
  const found = obj.get(["offsets"]);
  if (!found) return "utf16";
  if (!["utf16", "utf8", "codepoint"].includes(found[1])) throw obj.error(found[0], '"utf16", "utf8" or "codepoint"', found[1]);
  return found[1];
}

/**
 * A report that `validate` returned, given back: the fields the helpers need
 * (report_view.rs). Errors name the path under `report`.
 */
export function readReport(value) {
  const obj = new Obj(value, "report", "invalid_input");
  const statusName = obj.string(["status"]);
  const status = ["pass", "warn", "fail"].indexOf(statusName);
  if (status < 0) throw codedError("invalid_input", "report.status", 'expected "pass", "warn" or "fail"');
  const summary = obj.object(["summary"]);
  const hallucinations = summary ? (summary.count(["hallucinations"]) ?? 0) : 0;
  const citations = [];
  for (const [item, path] of obj.array(["citations"]) ?? []) {
    const c = new Obj(item, path, "invalid_input");
    const span = c.object(["claim"]);
    const claim = span ? [span.count(["start"]) ?? 0, span.count(["end"]) ?? 0] : undefined;
    const errors = [];
    for (const [finding, findingPath] of c.array(["errors"]) ?? []) {
      const message = new Obj(finding, findingPath, "invalid_input").string(["message"]);
      if (message !== undefined) errors.push(message);
    }
    citations.push({
      label: c.string(["label"]) ?? "",
      sourcePosition: c.count(["sourcePosition"]),
      declared: c.count(["declared"]),
      valid: c.boolean(["valid"]) ?? false,
      claim,
      support: c.number(["support"]),
      errors,
    });
  }
  return {
    status: statusName,
    statusIndex: status,
    confidence: obj.number(["confidence"]) ?? 0,
    cleanedAnswer: obj.string(["cleanedAnswer"]) ?? "",
    hallucinations,
    citations,
    timingMs: obj.number(["timingMs"]) ?? 0,
  };
}

/** Every error message of every citation of a report read by `readReport`, in order. */
export const errorMessages = (report) => report.citations.flatMap((c) => c.errors);

// --- The input tape (input.js writes it; input_tape.rs's decoder, in JS) ---

/** The field names of the input, its sources and declared citations, in tape order (input_names.rs). */
const INPUT_NAMES = {
  question: ["question", "query"],
  mode: ["mode"],
  requestId: ["requestId", "request_id"],
  sessionId: ["sessionId", "session_id"],
  responseId: ["responseId", "response_id"],
  modelVersion: ["modelVersion", "model_version"],
  topK: ["topK", "top_k"],
};
const SOURCE_FIELDS = [
  ["index", ["index"], "count"],
  ["id", ["id"], "string"],
  ["docId", ["docId", "doc_id"], "string"],
  ["chunkId", ["chunkId", "chunk_id"], "string"],
  ["title", ["title", "doc_title", "section_title"], "string"],
  ["url", ["url"], "string"],
  ["slug", ["slug"], "string"],
  ["payloadId", ["payloadId", "payload_id"], "string"],
  ["chunkType", ["chunkType", "chunk_type"], "string"],
];
const TEXT_NAMES = ["text", "content", "page_content", "excerpt", "snippet"];
const DECLARED_FIELDS = [
  ["source", "index"],
  ["docId", "doc_id"],
  ["chunkId", "chunk_id"],
  ["quote", "snippet", "cited_text"],
  ["lineRange", "line_range"],
  ["evidenceIdx", "evidence_idx"],
  ["alignmentScore", "alignment_score"],
  ["spanInAnswer", "span_in_answer"],
  ["relevance", "relevance_score"],
  ["claim", "claim_text"],
  ["span"],
];

const decoder = new TextDecoder();

/** One walk of input.js, taken out: its numbers and strings, read front to back. */
class Tape {
  constructor(walk) {
    const sizes = new Float64Array(3);
    walk(sizes);
    this.numbers = new Float64Array(sizes[0]);
    const lengths = new Uint32Array(sizes[1]);
    const bytes = new Uint8Array(sizes[2] * 3);
    takeInput(bytes, this.numbers, lengths);
    this.strings = [];
    let at = 0;
    for (const length of lengths) {
      this.strings.push(decoder.decode(bytes.subarray(at, at + length)));
      at += length;
    }
    this.at = 0;
    this.nextString = 0;
  }

  number() {
    return this.numbers[this.at++] ?? 0;
  }

  /** The next value: `{ tag, … }` as input_tape.rs's `Value`. */
  value() {
    const kind = (code) => TYPES[code] ?? TYPES[TYPE_OTHER];
    switch (this.number()) {
      case INPUT_STRING:
        return { tag: "string", text: this.strings[this.nextString++] ?? "" };
      case INPUT_NUMBER:
        return { tag: "number", n: this.number() };
      case INPUT_PAIR: {
        const holder = kind(this.number());
        return { tag: "pair", kind: holder, a: this.number(), b: this.number() };
      }
      case INPUT_LIST:
        return { tag: "list", length: this.number() };
      case INPUT_OBJECT:
        return { tag: "object" };
      case INPUT_LONG:
        return { tag: "long", units: this.number() };
      default:
        return { tag: "other", kind: kind(this.number()) };
    }
  }

  /** The next field: undefined if absent, else `[name, value]` (`{ tag: "twice" }` when given under two names). */
  field(names) {
    const found = this.number();
    const name = (at) => names[at - 1] ?? "?";
    if (found === 0) return undefined;
    if (found >= TWICE) return [name(found % TWICE), { tag: "twice", other: name(Math.floor(found / TWICE)) }];
    return [name(found), this.value()];
  }
}

/** A tape value's type as errors name it. */
function tapeType(value) {
  switch (value.tag) {
    case "string":
    case "long":
      return "string";
    case "number":
      return "number";
    case "pair":
    case "other":
      return value.kind;
    case "list":
      return "array";
    case "object":
      return "object";
    default:
      return "a second name";
  }
}

/** A tape value as errors show it. */
function tapeShown(value) {
  if (value.tag === "string") return shown("string", value.text);
  if (value.tag === "number") return shown("number", value.n);
  return tapeType(value);
}

/** The reader of one object on the tape (input_tape.rs's `Fields`). */
class Fields {
  constructor(tape, path) {
    this.tape = tape;
    this.path = path;
  }

  error(name, expected, got) {
    const message = got.tag === "twice" ? `given twice, as \`${name}\` and as \`${got.other}\`: give one` : `expected ${expected}, got ${tapeShown(got)}`;
    return codedError("invalid_input", `${this.path}.${name}`, message);
  }

  string(names) {
    const found = this.tape.field(names);
    if (!found) return undefined;
    if (found[1].tag !== "string") throw this.error(found[0], "a string", found[1]);
    return found[1].text;
  }

  number(names) {
    const found = this.tape.field(names);
    if (!found) return undefined;
    if (found[1].tag !== "number") throw this.error(found[0], "a number", found[1]);
    return found[1].n;
  }

  count(names) {
    const found = this.tape.field(names);
    if (!found) return undefined;
    const n = found[1].tag === "number" ? countOf(found[1].n) : undefined;
    if (n === undefined) throw this.error(found[0], "a non-negative integer", found[1]);
    return n;
  }

  /** A source's text, under the first of its names present; then the tape's "differs" slot. */
  firstOf(names) {
    const found = this.tape.field(names);
    if (found && found[1].tag !== "string") throw this.error(found[0], "a string", found[1]);
    this.tape.number();
    return found?.[1].text;
  }

  /** A field whose wrong type is a finding, not an error: its value, or undefined if absent. */
  loose(names) {
    const found = this.tape.field(names);
    if (!found) return undefined;
    const [name, value] = found;
    if (value.tag === "other" && value.kind === TYPES[TYPE_REVOKED]) throw this.error(name, "a value", value);
    if (value.tag === "twice") throw this.error(name, "one value", value);
    return value;
  }
}

const notAnObject = (path, got) => codedError("invalid_input", path, `expected an object, got ${tapeType(got)}`);

/** The `length` items of a list that follow on the tape, each read by `item(tape, path)`. */
function items(tape, length, path, item) {
  const out = [];
  for (let i = 0; i < length; i++) out.push(item(tape, `${path}[${i}]`));
  return out;
}

/** A list field of the input of at most `limit` items: undefined if absent. */
function listField(tape, fields, name, item) {
  const found = tape.field([name]);
  if (!found) return undefined;
  if (found[1].tag !== "list") throw fields.error(found[0], "an array", found[1]);
  const path = `${fields.path}.${found[0]}`;
  if (found[1].length > MAX_LIST_ITEMS) throw tooMany(path, found[1].length, MAX_LIST_ITEMS, LIST_CEILING);
  return items(tape, found[1].length, path, item);
}

/** One source: the fields the helpers use. */
function readSource(tape, path) {
  const head = tape.value();
  if (head.tag !== "object") throw notAnObject(path, head);
  const fields = new Fields(tape, path);
  const source = {};
  const chapter = tape.field(["chapter", "chapter_id"]);
  if (chapter) {
    const [name, value] = chapter;
    if (value.tag === "string") source.chapter = value.text;
    else if (value.tag === "number" && Number.isInteger(value.n)) source.chapter = String(Math.trunc(value.n));
    else throw fields.error(name, "a string or an integer", value);
  }
  for (const [key, names, kind] of SOURCE_FIELDS) source[key] = fields[kind](names);
  source.text = fields.firstOf(TEXT_NAMES);
  source.section = fields.count(["section", "section_number"]);
  source.relevance = fields.number(["relevance", "relevance_score"]);
  source.firstLine = fields.count(["firstLine", "first_line"]);
  return source;
}

/** Rust's `str::parse::<i64>` of a trimmed string: the integer as a BigInt, else undefined. */
function parseI64(text) {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return undefined;
  const n = BigInt(trimmed);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/** A declared citation's line range, when it is a valid one: `"first-last"`. */
function lineRangeOf(value) {
  if (value?.tag === "string") {
    const dash = value.text.indexOf("-");
    const [first, last] = dash < 0 ? [value.text, value.text] : [value.text.slice(0, dash), value.text.slice(dash + 1)];
    const a = parseI64(first);
    const b = parseI64(last);
    return a === undefined || b === undefined ? undefined : `${a}-${b}`;
  }
  if (value?.tag === "pair") {
    const whole = (n) => Number.isInteger(n) && Math.abs(n) < 1e15;
    return whole(value.a) && whole(value.b) ? `${value.a + 0}-${value.b + 0}` : undefined;
  }
  return undefined;
}

/** One declared citation: its line range is what the helpers use. */
function readDeclared(tape, path) {
  const head = tape.value();
  if (head.tag === "number") return {};
  if (head.tag !== "object") throw notAnObject(path, head);
  const fields = new Fields(tape, path);
  const read = {};
  for (const names of DECLARED_FIELDS) {
    const value = fields.loose(names);
    if (names[0] === "lineRange") read.lineRange = lineRangeOf(value);
  }
  return read;
}

/** One warning an adapter left: checked as `validate` checks it, then not kept. */
function readWarning(tape, path) {
  const head = tape.value();
  if (head.tag !== "object") throw notAnObject(path, head);
  const fields = new Fields(tape, path);
  const code = fields.string(["code"]);
  if (!["offset_mismatch", "unknown_content", "source_text_differs"].includes(code)) {
    throw codedError(
      "invalid_input",
      `${path}.code`,
      'expected "offset_mismatch", "unknown_content" or "source_text_differs" (the warnings provider adapters raise)',
    );
  }
  const span = tape.field(["span"]);
  if (span) {
    if (span[1].tag !== "object") throw notAnObject(`${path}.${span[0]}`, span[1]);
    const bounds = new Fields(tape, `${path}.span`);
    bounds.count(["start"]);
    bounds.count(["end"]);
  }
  fields.string(["message"]);
  return {};
}

/**
 * An `Input` given back to a helper (`ctx.input`), read as `validate` reads it with no
 * limit on sources or the answer: `{ answer, sources, citations, question, sessionId,
 * responseId, modelVersion, topK }`, each source with the fields the helpers use.
 */
export function readInput(value, path) {
  const tape = new Tape((sizes) => walkInput(value, sizes, MAX_LIST_ITEMS, MAX_LIST_ITEMS, Number.MAX_VALUE));
  const head = tape.value();
  if (head.tag !== "object") throw notAnObject(path, head);
  const fields = new Fields(tape, path);
  const answer = tape.field(["answer"]);
  if (!answer) throw codedError("invalid_input", `${path}.answer`, "missing: the answer to validate");
  if (answer[1].tag !== "string") throw fields.error(answer[0], "a string", answer[1]);
  const sources = listField(tape, fields, "sources", readSource) ?? [];
  const citations = listField(tape, fields, "citations", readDeclared);
  const input = { answer: answer[1].text, sources, citations };
  for (const [key, names] of Object.entries(INPUT_NAMES)) input[key] = key === "topK" ? fields.count(names) : fields.string(names);
  listField(tape, fields, "warnings", readWarning);
  return input;
}

/** An array of at most `MAX_LIST_ITEMS` sources. */
export function readSources(value, path) {
  const tape = new Tape((sizes) => walkSources(value, sizes, MAX_LIST_ITEMS));
  const head = tape.value();
  if (head.tag !== "list") throw codedError("invalid_input", path, `expected an array of sources, got ${tapeType(head)}`);
  if (head.length > MAX_LIST_ITEMS) throw tooMany(path, head.length, MAX_LIST_ITEMS, LIST_CEILING);
  return items(tape, head.length, path, readSource);
}

