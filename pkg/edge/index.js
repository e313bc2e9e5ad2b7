// citeproof/edge in a browser: what an edge worker needs around validation, in plain JS
// (docs/architecture.md §9). It loads no wasm module: an app that imports it beside
// `citeproof`, `citeproof/react` or `citeproof/full` downloads the one module those
// give. In Node, workerd and Deno the entry gives the full module's Rust helpers
// (../edge.js); tests/js/edge-differential.test.mjs holds the two to the same results.
export { auditRecord, citationSchema, formatContext, rejectionResponse, repairPrompt, validateRequest } from "./audit.js";
export { Metrics } from "./metrics.js";
