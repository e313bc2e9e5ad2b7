// Builds the JS marker objects from the flat Uint32Array the wasm side fills: one
// boundary crossing per call instead of one per field (see src/wasm/dto.rs for the layout).
export function buildMarkers(text, flat, kinds) {
  const count = flat[0];
  const refsBase = 1 + count * 8;
  const out = new Array(count);
  for (let i = 0, p = 1; i < count; i++, p += 8) {
    const refKind = flat[p + 5];
    const at = refsBase + flat[p + 6];
    const len = flat[p + 7];
    const marker = {
      span: { start: flat[p + 2], end: flat[p + 3] },
      refs: [],
      kind: kinds[flat[p + 4]],
      raw: text.slice(flat[p], flat[p + 1]),
    };
    if (refKind === 0) {
      for (let r = 0; r < len; r++) marker.refs.push(flat[at + r]);
    } else if (refKind === 1) {
      for (let r = 0; r < len; r++) marker.refs.push(text.slice(flat[at + 2 * r], flat[at + 2 * r + 1]));
    } else {
      marker.chapter = text.slice(flat[at], flat[at + 1]);
      marker.section = len;
    }
    out[i] = marker;
  }
  return out;
}
