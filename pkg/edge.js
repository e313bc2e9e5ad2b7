// citeproof/edge in Node, workerd and Deno: what an edge worker needs around validation,
// from the full module that `citeproof` gives there (Rust: wasm/src/api/edge.rs). A
// browser gets the same helpers in plain JS (./edge/index.js), which loads no module of
// its own (docs/architecture.md §9).
export { Metrics, auditRecord, citationSchema, formatContext, rejectionResponse, repairPrompt, validateRequest } from "citeproof";
