// The hostile request shapes of issue 35, shared by the storm test (which asserts they
// scale linearly) and benches/hostile-memory.mjs (which prints the wasm memory each
// holds). `examples/hostile_support.rs` builds the same shapes natively.

/**
 * `n` sources of varied text; `ids`: each with the id `doc-i`. Written as literals, as
 * JSON.parse gives them: objects made by a spread (`{ ...(ids ? { id } : {}), text }`, as
 * this was) get a new map each after the first few in Node 20, so the JS reader's field
 * reads took V8's load-miss path and the ids shape timed that, not claim support (2.9
 * against 1.8 ms at 250 sources; docs/perf-log.md, "The storm's 4,000 sources").
 */
function passages(n, ids = false) {
  return Array.from({ length: n }, (_, i) => {
    const text = `Passage ${i} says the value of item${i} rose in year ${1900 + (i % 100)} after reform ${i}.`;
    return ids ? { id: `doc-${i}`, text } : { text };
  });
}

/** The claim that source `i` of {@link passages} supports. */
export const claimFor = (i) => `The value of item${i} rose in ${1900 + (i % 100)}`;

/**
 * The hostile shapes: `make(n)` builds the request of `n` sources, `timedFrom` the smaller
 * of the two sizes the storm test times through wasm, `example` the shape's name for
 * `examples/hostile_support`, whose instructions the storm test counts natively.
 */
export const HOSTILE = {
  "every source cited by its own claim": {
    make: (n) => ({
      answer: Array.from({ length: n }, (_, i) => `${claimFor(i)} [${i + 1}]. `).join(""),
      sources: passages(n),
    }),
    timedFrom: 250,
    example: "all",
  },
  "one sentence citing every source": {
    make: (n) => ({
      answer: `Every item rose ${Array.from({ length: n }, (_, i) => `[${i + 1}]`).join("")}.`,
      sources: passages(n),
    }),
    timedFrom: 500,
    example: "one",
  },
  "sources cited by [doc-i] ids": {
    make: (n) => ({
      answer: Array.from({ length: n }, (_, i) => `${claimFor(i)} [doc-${i}]. `).join(""),
      sources: passages(n, true),
    }),
    timedFrom: 250,
    example: "ids",
  },
};

/** The options the hostile shapes are validated with: claim support on, room for the answer. */
export const LARGE = { maxAnswerChars: 5e6, misattributionMargin: 0.25 };
