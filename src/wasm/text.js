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

// The own field names of a plain object, one per line: the reader looks fields up in
// this list instead of asking the engine for each name it accepts (a source has 25).
// `undefined` for any other object (a class instance may have getters on its
// prototype) and for objects with more fields than a reader ever asks for (the list
// would cost more than it saves): those are read one field at a time.
export function plainFieldNames(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const names = Object.getOwnPropertyNames(value);
  return names.length > 64 ? undefined : names.join("\n");
}
