// Entry for Cloudflare Workers (workerd) and other worker runtimes that import a
// `.wasm` file as a compiled `WebAssembly.Module`: instantiate synchronously at import.
import { initSync } from "./web/citeproof.js";
import wasm from "./web/citeproof_bg.wasm";

initSync({ module: wasm });

export * from "./web/citeproof.js";
