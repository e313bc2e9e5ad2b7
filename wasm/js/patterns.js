// markerPatterns in the browser core, which has no regex engine of its own (its size
// budget, docs/architecture.md §9): the patterns run on a JS engine that
// `citeproof/patterns` registers (pkg/patterns.js, re2js). The core passes each scan's
// text once, as UTF-8 bytes, and then byte offsets, so nothing is converted per search.
//
// An engine is `{ compile(source) }`: it returns a compiled pattern or throws an Error
// whose message says why. A compiled pattern has `hasRefs` (a group named `refs`) and
// `matcher(bytes)`, whose `find(at)` searches leftmost-first from byte `at` (anchors and
// word boundaries seeing the bytes before it), then `start(group?)` / `end(group?)` give
// byte offsets (-1: the group took no part), as re2js's Matcher does.

let engine;
// The patterns being compiled (`compilePattern` adds to it, `takePatterns` takes it).
let pending = [];
// Compiled pattern lists by handle, until the core drops them.
const lists = new Map();
let nextHandle = 0;
let lastError = "";

/** Makes `next` the engine of every later markerPatterns compile (citeproof/patterns). */
export function registerPatternEngine(next) {
  engine = next;
}

/**
 * Compiles `source` into the list being made: 0, or -1 if it has no group `refs`, -2 if
 * no engine is registered, -3 if it does not compile (`patternError` says why). On a
 * refusal the list is dropped: the core refuses the whole list.
 */
export function compilePattern(source) {
  const outcome = compiled(source);
  if (outcome !== 0) pending = [];
  return outcome;
}

function compiled(source) {
  if (engine === undefined) return -2;
  let pattern;
  try {
    pattern = engine.compile(source);
  } catch (error) {
    lastError = String(error?.message ?? error);
    return -3;
  }
  if (!pattern.hasRefs) return -1;
  pending.push(pattern);
  return 0;
}

/** Why the last `compilePattern` that returned -3 failed. */
export function patternError() {
  return lastError;
}

/** The patterns compiled since the last call, as one list: its handle. */
export function takePatterns() {
  lists.set(nextHandle, pending);
  pending = [];
  return nextHandle++;
}

/** Forgets the list `handle` (the core dropped it). */
export function releasePatterns(handle) {
  lists.delete(handle);
}

/** One scan with the list `handle`: its own copy of the text's bytes (`bytes` is a view of wasm memory). */
export function scanBytes(handle, bytes) {
  const copy = bytes.slice();
  const patterns = lists.get(handle);
  return { bytes: copy, patterns, matchers: patterns.map((pattern) => pattern.matcher(copy)), next: [], last: -1 };
}

// A match or group as one number, `start * 2 ** 32 + end` (exact: wasm offsets are
// below 2 ** 32), or -1: one value crosses back per search.
const pack = (start, end) => (start < 0 ? -1 : start * 4294967296 + end);

/** The leftmost non-empty match of `matcher` at or after byte `at` of `bytes`: `[start, end]` or null. */
function nonEmpty(matcher, bytes, at) {
  while (at <= bytes.length && matcher.find(at)) {
    const [start, end] = [matcher.start(), matcher.end()];
    if (end > start) return [start, end];
    // Past an empty match by one UTF-8 character (a lead byte gives its length).
    const lead = bytes[end];
    at = end + (lead === undefined || lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);
  }
  return null;
}

/**
 * The earliest non-empty match at or after byte `at` of any of the scan's patterns (on
 * a tie, the first pattern's), packed. Each pattern's match is kept while it still starts
 * at or after `at` (`at` never decreases in a scan), as the core's regex-lite engine does
 * (src/parse/patterns.rs).
 */
export function nextMatch(scan, at) {
  let best = -1;
  scan.matchers.forEach((matcher, i) => {
    let next = scan.next[i];
    if (next === undefined || (next !== null && next[0] < at)) next = scan.next[i] = nonEmpty(matcher, scan.bytes, at);
    if (next !== null && (best < 0 || next[0] < scan.next[best][0])) best = i;
  });
  scan.last = best;
  return best < 0 ? -1 : pack(...scan.next[best]);
}

/**
 * The group `refs` of the match `nextMatch` returned last, its pattern matched against
 * the match's bytes alone; packed, as offsets in the text.
 */
export function patternRefs(scan) {
  const [start, end] = scan.next[scan.last];
  const matcher = scan.patterns[scan.last].matcher(scan.bytes.subarray(start, end));
  if (!matcher.find(0) || matcher.start("refs") < 0) return -1;
  return pack(start + matcher.start("refs"), start + matcher.end("refs"));
}
