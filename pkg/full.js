// citeproof/full in a browser: the core (`citeproof`) and the edge helpers in plain JS,
// so that any mix of this entry with `citeproof`, `/react`, `/providers`, `/edge` loads
// one wasm module. `markerPatterns` need an engine: import `citeproof/patterns` too, which
// registers re2js on the same module (docs/architecture.md §9).
export * from "citeproof";
export * from "./edge/index.js";
