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
