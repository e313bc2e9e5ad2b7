// An `Input` or a list of sources given to an edge helper, read as the binding reads
// them: walked by the binding's own walk (input.js, copied beside this file by
// scripts/build-pkg.mjs), its tape decoded as wasm/src/wire/from_js/input_tape.rs
// decodes it, so that the same values are refused with the same errors.
import { readInput as walkInput, readSources as walkSources, takeInput } from "./input.js";
import {
  INPUT_LIST,
  INPUT_LONG,
  INPUT_NUMBER,
  INPUT_OBJECT,
  INPUT_PAIR,
  INPUT_STRING,
  MAX_LIST_ITEMS,
  SOURCE_NAMES,
  TWICE,
  TYPE_OTHER,
  TYPE_REVOKED,
  codedError,
  tooManyItems,
} from "./untrusted.js";
import { TYPES, countOf, shown } from "./read.js";

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
/**
 * How each field of a source is read, in the tape's order; their names (and aliases) are
 * the generated `SOURCE_NAMES` of untrusted.js, which the walk writes the tape by.
 */
const SOURCE_KINDS = {
  chapter: "chapter",
  index: "count",
  id: "string",
  docId: "string",
  chunkId: "string",
  title: "string",
  url: "string",
  slug: "string",
  payloadId: "string",
  chunkType: "string",
  text: "firstOf",
  section: "count",
  relevance: "number",
  firstLine: "count",
};
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
  if (found[1].length > MAX_LIST_ITEMS) throw tooManyItems(path, found[1].length);
  return items(tape, found[1].length, path, item);
}

/** One source: the fields the helpers use. */
function readSource(tape, path) {
  const head = tape.value();
  if (head.tag !== "object") throw notAnObject(path, head);
  const fields = new Fields(tape, path);
  const source = {};
  for (const [key, names] of Object.entries(SOURCE_NAMES)) {
    const kind = SOURCE_KINDS[key];
    if (kind !== "chapter") {
      source[key] = fields[kind](names);
      continue;
    }
    const chapter = tape.field(names);
    if (!chapter) continue;
    const [name, value] = chapter;
    // As the reader keeps it: a string, or an integer written out (only its emptiness is used here).
    if (value.tag === "string") source.chapter = value.text;
    else if (value.tag === "number" && Number.isInteger(value.n)) source.chapter = String(value.n);
    else throw fields.error(name, "a string or an integer", value);
  }
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
  if (head.length > MAX_LIST_ITEMS) throw tooManyItems(path, head.length);
  return items(tape, head.length, path, readSource);
}

