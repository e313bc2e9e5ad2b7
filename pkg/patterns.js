// citeproof/patterns in a browser: the core (`citeproof`, the one wasm module of every
// browser entry) with markerPatterns run by re2js (patterns-engine.js), registered as
// this module loads. The full module of Node, workerd and Deno runs them with regex-lite.
import { registerPatternEngine } from "citeproof";
import { re2PatternEngine } from "./patterns-engine.js";

registerPatternEngine(re2PatternEngine);

export * from "citeproof";
