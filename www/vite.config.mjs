// The demo imports the package straight from ../pkg (built by scripts/build-pkg.mjs),
// the way an app that installed `citeproof` would: the bundler target and the React entry.
import { fileURLToPath } from "node:url";
import wasm from "vite-plugin-wasm";

const pkg = (file) => fileURLToPath(new URL(`../pkg/${file}`, import.meta.url));

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [wasm()],
  resolve: {
    alias: [
      { find: /^citeproof$/, replacement: pkg("bundler/citeproof.js") },
      { find: /^citeproof\/react$/, replacement: pkg("react.js") },
      { find: /^citeproof\/react\.css$/, replacement: pkg("react.css") },
    ],
    dedupe: ["react", "react-dom"],
  },
  build: { target: "esnext", outDir: "../target/www/dist", emptyOutDir: true },
  preview: { host: "127.0.0.1", port: 5173, strictPort: true },
  logLevel: "warn",
};
