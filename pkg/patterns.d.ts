// citeproof/patterns under a bundler's resolution: the core's declarations (markerPatterns
// work once this entry is imported).
export * from "./bundler/citeproof.js";
