import { typeCode } from "./untrusted.js";

// Copies a JS string into wasm memory as UTF-8 with the engine's native encoder, which
// is several times faster than the per-character loop of the generated glue.
const encoder = new TextEncoder();

export function encodeInto(text, target) {
  return encoder.encodeInto(text, target).written;
}

// Whether `text` ends with the first half of a surrogate pair (a stream delta cut there).
export function endsInHighSurrogate(text) {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last < 0xdc00;
}

// What CitationStream.push returns; one call instead of one per field.
export function streamChunk(text, events) {
  return { text, events: events ?? [] };
}

// What the reader needs to know about a value it expects to be an object, in one call:
// -1 if it is not an object (or is an array); -2 for an object whose fields must be
// read one at a time (a class instance may have getters on its prototype; an object
// with more fields than a reader ever asks for would have every bit set); otherwise a
// summary of a plain object's own field names, bit `fieldBit(name)` set for each
// (bits 0-47, so the number is exact). The reader skips names whose bit is clear
// without asking the engine; most of the 25 names a source may have are absent.
//
// A revoked Proxy is not an object to read (-1; `typeCode` names it); a Proxy whose
// prototype or names cannot be read is read one field at a time (-2).
export function fieldSummary(value) {
  if (typeCode(value) !== 6) return -1;
  let names;
  try {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return -2;
    names = Object.getOwnPropertyNames(value);
  } catch {
    return -2;
  }
  if (names.length > 64) return -2;
  let low = 0;
  let high = 0;
  for (const name of names) {
    const bit = fieldBit(name);
    if (bit < 32) low |= 1 << bit;
    else high |= 1 << (bit - 32);
  }
  return high * 2 ** 32 + (low >>> 0);
}

// The same function as `name_bit` in src/wasm/read.rs, over UTF-16 units (equal to
// UTF-8 bytes for the ASCII names the reader asks for).
function fieldBit(name) {
  const len = name.length;
  const at = (i) => (i >= 0 && i < len ? name.charCodeAt(i) : 0);
  return (len * 7 + at(0) + at(len >> 1) * 3 + at(len - 1) * 5) % 48;
}
