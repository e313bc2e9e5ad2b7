// Reading the edge helpers' arguments as the binding reads them (wasm/src/wire/from_js/),
// so that the JS helpers and the Rust ones refuse the same values with the same errors
// (tests/js/edge-differential.test.mjs holds them together): `Obj`, an object read field
// by field (read.rs's `Obj`), for options, contexts and a report given back
// (report_view.rs's `ReportView`), and what errors share. An `Input` or a list of
// sources is read by ./input-tape.js.
import {
  LIST_UNREADABLE_LENGTH,
  MAX_LIST_ITEMS,
  TYPE_OBJECT,
  TYPE_OTHER,
  TYPE_UNREADABLE_LENGTH,
  codedError,
  fieldOf,
  listItems,
  typeCode,
} from "./untrusted.js";

/** The type names of errors, indexed by `typeCode` (read.rs's `TYPES`). */
export const TYPES = ["string", "number", "boolean", "array", "null", "undefined", "object", "other value", "revoked Proxy", "array-like with no readable length"];

/** What errors call `MAX_LIST_ITEMS` (read.rs's `LIST_CEILING`). */
export const LIST_CEILING = "the most a list may hold";

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
export function shown(kind, value) {
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
export const countOf = (n) => (Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff ? n : undefined);

/** The `too_large` error for a list of `length` items over `limit`. */
export const tooMany = (path, length, limit, limitName) => codedError("too_large", path, `${length} items exceed ${limitName} (${limit})`);

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
