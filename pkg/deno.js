// Entry for Deno: the web build, its wasm imported as a compiled `WebAssembly.Module`
// (a source-phase import: no read permission needed) and instantiated at import.
import { initSync } from "./web/citeproof.js";
import source wasm from "./web/citeproof_bg.wasm";

initSync({ module: wasm });

export * from "./web/citeproof.js";
