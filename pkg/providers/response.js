// What every adapter shares: reading the response's JSON tree (the accessors of the
// crate's src/providers/json.rs, on the value `JSON.parse` gives), the input being put
// together (`Builder`, src/providers/mod.rs), and placing a provider's offsets in the
// answer (`settle`, src/providers/settle.rs). The answer is a JS string and spans are
// UTF-16 indices into it until `finish` converts them to the unit asked for.

import { sourceField } from "./untrusted.js";

/** Field `name` of an object; undefined when absent, null, or `value` is no object. */
export function field(value, name) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if (!Object.hasOwn(value, name)) return undefined;
  const found = value[name];
  return found === null ? undefined : found;
}

/** The value as a string, else undefined. */
export const text = (value) => (typeof value === "string" ? value : undefined);

/** The items of an array, else undefined. */
export const items = (value) => (Array.isArray(value) ? value : undefined);

/** The string field `name`. */
export const textAt = (value, name) => text(field(value, name));

/** The non-negative integer field `name` (below 10^15). */
export function indexAt(value, name) {
  const n = field(value, name);
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n < 1e15 ? n : undefined;
}

/** The items of the array field `name`; none when absent or not an array. */
export const list = (value, name) => items(field(value, name)) ?? [];

/** The `type` field: what kind of block, event or part `value` is. */
export const typeName = (value) => textAt(value, "type");

/** Whether the string field `name` is `expected`. */
export const is = (value, name, expected) => textAt(value, name) === expected;

/**
 * The name of the first field of an object that is neither null nor one of `besides`
 * (names separated by spaces): what a union keyed by field name holds.
 */
export function kindKey(value, besides) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const skip = besides.split(" ");
  return Object.keys(value).find((key) => value[key] !== null && !skip.includes(key));
}

/** An Error with `code` whose message starts with the field path (wasm/src/wire/errors.rs). */
export function coded(code, path, message) {
  return Object.assign(new Error(`${path}: ${message}`), { code });
}

/** The invalid_input error for the response field at `path`. */
export const bad = (path, message) => coded("invalid_input", `response${path}`, message);

/**
 * The `source` of a caller's source given as an Anthropic `search_result` block, which
 * the reader takes as its URL (an http(s) one) or else its id, unless a `url` or `id`
 * beside it wins (src/model/input.rs); undefined for any other source.
 */
function searchResultSource(s) {
  const source = typeName(s) === "search_result" ? textAt(s, "source") : undefined;
  if (source === undefined) return undefined;
  const slot = source.startsWith("https://") || source.startsWith("http://") ? "url" : "id";
  return sourceField(s, slot) === undefined ? source : undefined;
}

/** The keys the caller's source `s` carries: its URL, id, doc id and chunk id (a `search_result` block's `source` counts). */
const keysOf = (s) => [...["url", "id", "docId", "chunkId"].map((name) => sourceField(s, name)), searchResultSource(s)];

/** Whether the caller's source `s` carries `key` (see `keysOf`). */
const carries = (s, key) => keysOf(s).includes(key);

/** The key of a document a citation names by its title alone (Anthropic's `document_title` without its `document_index`). */
export const documentTitled = (title) => `document "${title}"`;

/** A source known by its URL and title. */
export const webSource = (url, title) => ({ url, title });

/** The input an adapter is putting together (its fields as `Input` names them). */
export class Builder {
  /**
   * `sources`: the caller's sources (kept as given), or undefined; `parseCitations`: the
   * marker parser of the wasm module the caller loads.
   */
  constructor(sources, parseCitations) {
    this.given = sources !== undefined;
    this.parseCitations = parseCitations;
    this.sources = sources ?? [];
    this.answer = "";
    /**
     * Labels of the sources by the key the provider names them with: the caller's sources
     * by their keys and their title as `documentTitled` keys it, read once (the first
     * source with a key wins), so that a citation's key is looked up, not searched for
     * among every source; or the sources added so far.
     */
    this.labels = new Map();
    this.sources.forEach((source, position) => {
      const title = sourceField(source, "title");
      for (const key of [...keysOf(source), typeof title === "string" ? documentTitled(title) : undefined]) {
        if (typeof key === "string" && !this.labels.has(key)) this.labels.set(key, this.labelAt(position));
      }
    });
    this.citations = [];
    this.warnings = [];
    /** Parts read past because their type is unknown: their name → how many. */
    this.unknown = new Map();
    this.responseId = undefined;
    this.model = undefined;
  }

  /**
   * Whether `kind`, the type of a `part` ("content block", "delta", …), is one of the
   * `known` types (names separated by spaces); a type that is not (or none) is counted
   * for the `unknown_content` warning.
   */
  knows(part, kind, known) {
    const knows = kind !== undefined && known.split(" ").includes(kind);
    if (!knows) this.countUnknown(part, kind);
    return knows;
  }

  /** Counts a `part` of an unknown type `kind` (or none) for `unknown_content`. */
  countUnknown(part, kind) {
    const name = kind === undefined ? `${part} without a type` : `${part} "${kind}"`;
    this.unknown.set(name, (this.unknown.get(name) ?? 0) + 1);
  }

  /** Appends a piece of the answer; returns where it starts. */
  pushText(piece) {
    const base = this.answer.length;
    this.answer += piece;
    return base;
  }

  /**
   * The label of the source the provider names `key`: a caller's source with that URL
   * or id, else the source added for `key` before, else `make()` added to the list (only
   * when the caller gave none). A key the caller's sources lack is named as is.
   */
  label(key, make) {
    const known = this.labels.get(key);
    if (known !== undefined) return known;
    if (this.given) return key;
    this.sources.push(make());
    const label = this.sources.length;
    this.labels.set(key, label);
    return label;
  }

  /** Whether the caller's source at 0-based `position` carries `key` as its URL or id (see `label`). */
  carriesAt(position, key) {
    return position < this.sources.length && carries(this.sources[position], key);
  }

  /** The label of the caller's source at 0-based `position` (its `index`, else position + 1). */
  labelAt(position) {
    const index = sourceField(this.sources[position], "index");
    return position < this.sources.length && typeof index === "number" ? index : position + 1;
  }

  /** Gives a source listed without a title the `title` a citation states. */
  fillTitle(label, title) {
    if (typeof label !== "number" || this.given) return;
    const listed = this.sources[label - 1];
    if (listed && listed.title === undefined) listed.title = title;
  }

  /** Declares a citation of `source` at `span` (UTF-16, or undefined) with `quote`. */
  cite(source, span, quote) {
    this.citations.push({ source, quote, span });
  }

  /**
   * The `Input` (as wasm/src/api/providers.rs gives it: absent fields left out), its spans
   * in `unit`.
   */
  finish(provider, unit) {
    if (this.unknown.size > 0) {
      let total = 0;
      const names = [];
      for (const [name, count] of this.unknown) {
        total += count;
        names.push(count > 1 ? `${name} ×${count}` : name);
      }
      this.warnings.push({
        code: "unknown_content",
        severity: "warning",
        message:
          `read past ${total} part${total === 1 ? "" : "s"} of the response of a type this adapter does not know ` +
          `(${names.join(", ")}); only the text and the citations it knows make the answer`,
      });
    }
    const to = spanIn(this.answer, unit);
    const sources = this.given ? this.sources : this.sources.map(({ id, title, url, text }) => defined({ id, title, url, text }));
    const input = { provider, answer: this.answer, sources };
    if (this.citations.length > 0) {
      input.citations = this.citations.map(({ source, quote, span }) => defined({ source, quote, span: span && to(span) }));
    }
    if (this.responseId !== undefined) input.responseId = this.responseId;
    if (this.model !== undefined) input.modelVersion = this.model;
    if (this.warnings.length > 0) input.warnings = this.warnings.map((w) => defined({ ...w, span: w.span && to(w.span) }));
    return input;
  }
}

/**
 * `object` without its undefined fields. Sources, citations and warnings are written with
 * their fields in the order of the crate's structs, so that `JSON.stringify` of an Input
 * is the Rust adapter's to the byte.
 */
function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** Converts a UTF-16 span of `whole` to `unit` ("utf16", "utf8" or "codepoint"). */
function spanIn(whole, unit) {
  if (unit === "utf16") return (span) => span;
  const map = offsetMap(whole);
  return ({ start, end }) => ({ start: map.from(start, unit), end: map.from(end, unit) });
}

/**
 * The offsets of `s` in every unit, built once in one pass: `from(i, unit)` gives UTF-16
 * index `i` in `unit`, `to(offset, unit)` the UTF-16 index of an offset in `unit`
 * (undefined inside a character or past the end), `length(unit)`.
 */
export function offsetMap(s) {
  const n = s.length;
  // Per UTF-16 index: UTF-8 bytes and code points before it (inside a pair: -1).
  const bytes = new Int32Array(n + 1);
  const points = new Int32Array(n + 1);
  let b = 0;
  let p = 0;
  for (let i = 0; i < n; i++) {
    bytes[i] = b;
    points[i] = p;
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c < 0xdc00 && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    b += c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    p += 1;
    if (pair) {
      i++;
      bytes[i] = -1;
      points[i] = -1;
    }
  }
  bytes[n] = b;
  points[n] = p;
  const table = (unit) => (unit === "utf8" ? bytes : points);
  const map = {
    length: (unit) => (unit === "utf16" ? n : table(unit)[n]),
    from: (i, unit) => (unit === "utf16" ? i : table(unit)[i]),
    to(offset, unit) {
      if (unit === "utf16") return offset <= n && bytes[offset] >= 0 ? offset : undefined;
      const at = map.atOrAfter(offset, unit);
      return table(unit)[at] === offset ? at : undefined;
    },
    /** The first UTF-16 index of a character whose offset in `unit` (not UTF-16) is at least `offset`; `n` past the end. */
    atOrAfter(offset, unit) {
      const counts = table(unit);
      // Binary search: counts grow, pairs' insides skipped.
      let [lo, hi] = [0, n];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        let m = mid;
        if (counts[m] < 0) m -= 1;
        if (counts[m] < offset) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
  return map;
}

/**
 * Places `start..end` of `part` (the piece of the answer starting at `base`). `units`
 * lists the units to try, the documented one first; `expect` says what the span holds
 * (`{ text }`, `{ link }` or `{}`). The first unit whose span holds it is taken; when
 * none does, the expected text nearest to the offsets (read in the first unit, within
 * NEARBY bytes of them) is taken instead, with an `offset_mismatch` warning. Returns
 * `{ span, warning }`, UTF-16. `map` is `part`'s `offsetMap`, made by the caller once for
 * all the citations of the part (one per citation made n citations of a part of length n
 * cost n²; so did a map kept for the last text and found again by comparing texts,
 * which compared them character by character: 18x the time for 8x the annotations).
 */
export function settle(part, base, [start, end], units, expect, map) {
  const holds = ({ start: from, end: to }, strict) => {
    const held = part.slice(from, to);
    if (expect.text !== undefined) return held === expect.text;
    if (expect.link === undefined) return true;
    if (map.from(to, "utf8") - map.from(from, "utf8") > NEARBY || !held.includes(expect.link)) return false;
    return !strict || ((held.startsWith("[") || held.startsWith("(")) && held.endsWith(")"));
  };
  const inUnit = (unit) => {
    const from = map.to(start, unit);
    const to = map.to(end, unit);
    return from !== undefined && to !== undefined && from <= to ? { start: from, end: to } : undefined;
  };
  const firstHolding = (strict) => {
    for (const unit of units) {
      const span = inUnit(unit);
      if (span && holds(span, strict)) return span;
    }
    return undefined;
  };
  const shift = (span) => span && { start: span.start + base, end: span.end + base };
  const held = firstHolding(true) ?? firstHolding(false);
  if (held) return { span: shift(held), warning: undefined };
  const needle = expect.text ?? expect.link ?? "";
  const guessAt = map.to(Math.min(start, map.length(units[0])), units[0]);
  const found = nearest(part, needle, guessAt === undefined ? 0 : map.from(guessAt, "utf8"), map);
  if (found === undefined && expect.link !== undefined) {
    // The URL is not near the offsets: nothing to check them against.
    const given = units.map(inUnit).find(Boolean);
    if (given) return { span: shift(given), warning: undefined };
  }
  const span = shift(found === undefined ? undefined : { start: found, end: found + needle.length });
  const message = span
    ? `offsets ${start}–${end} do not hold the cited text; it was found nearby, at this finding's span`
    : needle === "" || expect.link !== undefined
      ? `offsets ${start}–${end} are outside the text`
      : `offsets ${start}–${end} do not hold the cited text, and it is not in the answer within 32 KiB of them`;
  return { span, warning: { code: "offset_mismatch", severity: "warning", message, span } };
}

/**
 * UTF-8 bytes on either side of a provider's offsets searched for the text they should
 * hold, when they do not hold it (src/providers/settle.rs, `NEARBY`): a search of the
 * whole text per citation made n citations of a text of length n cost n². A span longer
 * than this holds no link.
 */
const NEARBY = 32 * 1024;

/**
 * The UTF-16 index of the occurrence of `needle` in `s` whose UTF-8 offset is nearest
 * `near`, of those starting within NEARBY bytes of it; read from the window's start,
 * without overlaps.
 */
function nearest(s, needle, near, map) {
  if (needle === "") return undefined;
  const from = map.atOrAfter(Math.max(0, near - NEARBY), "utf8");
  // The window alone: V8 may copy a slice, and a slice from the text's start would copy
  // all of it before the window.
  const window = s.slice(from, map.atOrAfter(near + NEARBY, "utf8") + needle.length);
  let best;
  let bestDistance = Infinity;
  for (let at = window.indexOf(needle); at >= 0; at = window.indexOf(needle, at + needle.length)) {
    const distance = Math.abs(map.from(from + at, "utf8") - near);
    if (distance <= NEARBY && distance < bestDistance) [best, bestDistance] = [from + at, distance];
  }
  return best;
}
