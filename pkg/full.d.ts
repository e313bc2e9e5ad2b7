// citeproof/full under a bundler's resolution: the core's declarations and the edge helpers'.
export * from "./bundler/citeproof.js";
export * from "./edge.js";
