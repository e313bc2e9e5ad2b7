// Builds the JS marker objects from the flat Uint32Array the wasm side fills: one
// boundary crossing per call instead of one per field (see src/wasm/dto.rs for the layout).
//
// Arrays are made the way V8 fills them in time linear in the markers (docs/perf-log.md,
// issue 21): the list grows by push, because a `new Array(n)` of more than 16K items is
// allocated at once in the old generation, and filling it with new objects cost 4–10
// times as much per marker from 20,000 markers on; each `refs` is made at its length,
// because `[]` grows to 16 slots at its first push, and those 100-odd bytes per marker
// made the collector's work grow faster than the markers.
export function buildMarkers(text, flat, kinds) {
  const count = flat[0];
  const refsBase = 1 + count * 8;
  const out = [];
  for (let i = 0, p = 1; i < count; i++, p += 8) {
    const refKind = flat[p + 5];
    const at = refsBase + flat[p + 6];
    const len = flat[p + 7];
    const marker = {
      span: { start: flat[p + 2], end: flat[p + 3] },
      refs: new Array(refKind === 2 ? 0 : len),
      kind: kinds[flat[p + 4]],
      raw: text.slice(flat[p], flat[p + 1]),
    };
    if (refKind === 0) {
      for (let r = 0; r < len; r++) marker.refs[r] = flat[at + r];
    } else if (refKind === 1) {
      for (let r = 0; r < len; r++) marker.refs[r] = text.slice(flat[at + 2 * r], flat[at + 2 * r + 1]);
    } else {
      marker.chapter = text.slice(flat[at], flat[at + 1]);
      marker.section = len;
    }
    out.push(marker);
  }
  return out;
}
