// citeproof/edge: what an edge worker needs around validation (docs/architecture.md §9).
// In Node, workerd and Deno they come from the module `citeproof` itself; in a browser
// from the full module (`citeproof/full`), which an app downloads only when it imports
// this entry.
export { Metrics, auditRecord, citationSchema, formatContext, rejectionResponse, repairPrompt, validateRequest } from "citeproof/full";
