// The XSS corpus page (tests/js/xss.test.mjs): built like an app that installed
// `citeproof` (the bundler target and the React entry), served on 127.0.0.1.
import { fileURLToPath } from "node:url";
import wasm from "vite-plugin-wasm";

const pkg = (file) => fileURLToPath(new URL(`../../../pkg/${file}`, import.meta.url));

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [wasm()],
  resolve: {
    alias: [
      { find: /^citeproof$/, replacement: pkg("bundler/citeproof.js") },
      { find: /^citeproof\/react$/, replacement: pkg("react.js") },
      { find: /^citeproof\/markdown$/, replacement: pkg("markdown.js") },
    ],
    dedupe: ["react", "react-dom"],
  },
  build: { target: "esnext", outDir: "../../../target/xss-page", emptyOutDir: true },
  logLevel: "warn",
};
