// citeproof/edge: what an edge worker needs around validation.
export { Metrics, auditRecord, citationSchema, formatContext, rejectionResponse, repairPrompt, validateRequest } from "./node/citeproof.js";
