// citeproof/full in a browser: the core (`citeproof`) and the edge helpers in plain JS,
// so that any mix of this entry with `citeproof`, `/react`, `/providers`, `/edge` loads
// one wasm module. `markerPatterns` is the one thing of Node's full module left out: it
// needs regex-lite (+21.3 KB gzip), in `citeproof/patterns` (docs/architecture.md §9).
export * from "citeproof";
export * from "./edge/index.js";
