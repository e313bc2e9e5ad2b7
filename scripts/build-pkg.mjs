// Builds the npm package in pkg/: two builds of the binding crate `citeproof-wasm`
// (wasm/): everything, with the `release` profile; and, with the `browser` profile (built
// for size), the browser core without the provider adapters, edge helpers and
// regex-lite (JS in the package: pkg/providers/, pkg/edge/, and markerPatterns run by the
// JS engine that pkg/patterns.js registers); then per
// output wasm-bindgen, the table slots of closure shims nothing calls emptied
// (`dropUnusedClosureShims`), wasm-opt, and a trim to what the package's conditional
// exports need (docs/architecture.md §9):
//
//   node/          everything, nodejs target   (Node: `citeproof`, `citeproof/full`)
//   web/           everything, web target      (workerd, Deno, `citeproof/web`)
//   bundler/       the core, bundler target    (browsers and bundlers: `citeproof`, and so
//                                               `citeproof/full`, `/react`, `/patterns`, …)
//
//   node scripts/build-pkg.mjs                 the whole package
//   node scripts/build-pkg.mjs node bundler    some of its outputs (by directory name)
//   node scripts/build-pkg.mjs node --features test-trap --out target/pkg-trap
//                                              a test-only build elsewhere (own cargo
//                                              target dir, so pkg/'s build stays cached)
//   node scripts/build-pkg.mjs web --no-default-features --out target/pkg-browser
//                                              the core, web target (its tests and size)
//
// The node and web targets are generated with wasm-bindgen's
// `--experimental-reset-state-function`, and their `citeproof.js` is a wrapper around the
// glue (`citeproof_glue.js`) that guards every export with wasm/js/recover.mjs: after a
// trap the instance is recreated. (wasm-pack cannot pass that flag, hence the direct
// calls; wasm-bindgen refuses it for the bundler target.)
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import binaryen from "binaryen";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const targets = { web: "web", bundler: "bundler", node: "nodejs" };
const recoverable = new Set(["web", "node"]);

const args = process.argv.slice(2);
/** The value after `--name`, removed from `args`. */
function flag(name) {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  if (value === undefined) throw new Error(`${name} needs a value`);
  return value;
}
const features = flag("--features");
const noDefault = args.includes("--no-default-features");
if (noDefault) args.splice(args.indexOf("--no-default-features"), 1);
const outRoot = resolve(root, flag("--out") ?? "pkg");
// `{ dir, target, build }`: what goes where, from which build.
const PACKAGE = [
  { dir: "node", target: "node", build: {} },
  { dir: "web", target: "web", build: {} },
  { dir: "bundler", target: "bundler", build: { noDefault: true } },
];
// With build flags, each target named is built with them (a test build, elsewhere).
const flagged = noDefault || features !== undefined || outRoot !== resolve(root, "pkg");
const outputs = flagged
  ? args.map((target) => ({ dir: target, target, build: { noDefault, features } }))
  : PACKAGE.filter(({ dir }) => args.length === 0 || args.includes(dir));
for (const name of args) {
  const known = flagged ? targets[name] : PACKAGE.some(({ dir }) => dir === name);
  if (!known) throw new Error(`unknown output ${name}; expected one of ${flagged ? Object.keys(targets) : PACKAGE.map(({ dir }) => dir)}`);
}
if (outputs.length === 0) throw new Error("nothing to build: name a target");

// The npm package binaryen provides wasm-opt (installed by scripts/setup.sh).
const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` };
const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: root, env, stdio: "inherit" });

// LLVM's inline threshold for the browser core. At "z" it is 5, so the scanner's and the
// tape's small helpers (str slicing, `Vec::push`, char encoding) stay calls; 35 buys most
// of their speed back for little size, and more buys little more (docs/perf-log.md, "The
// browser core's inline threshold"). Cargo profiles cannot carry it, so it is passed as a rustflag, added to
// .cargo/config.toml's simd128; a RUSTFLAGS in the environment replaces both (cargo's rule).
const BROWSER_INLINE_THRESHOLD = 35;

// wasm-opt inlines every function that has one caller, whatever its size (Binaryen's
// default). The sources' scan of claim support (src/support/words.rs) then lands inside
// `validate`, a function so big that V8's optimising compiler keeps the scan's state on
// the stack. Capped at 300 (Binaryen's size unit, expressions), the full module's
// `validate` with claim support costs 8 % fewer instructions and the module is 1.1 KB
// smaller; the browser core, capped at 40, is 4.9 KB smaller for 0.8-1.6 % more
// instructions (docs/perf-log.md, "One-caller inlining").
const ONE_CALLER_INLINE_MAX = { full: 300, core: 40 };

/**
 * Builds the binding crate (once per set of flags); returns the path of its wasm. The browser
 * core (`--no-default-features`) is built with Cargo.toml's `browser` profile (our code
 * for size too) and `BROWSER_INLINE_THRESHOLD`; everything else with `release`. Each
 * build has the feature `talc` (the allocator) besides the ones asked for.
 */
const builds = new Map();
function cargoBuild({ noDefault, features, profile = noDefault ? "browser" : "release" }) {
  const variant = [noDefault && "no-default", features?.replace(/\W+/g, "-")].filter(Boolean).join("-");
  if (builds.has(`${variant} ${profile}`)) return builds.get(`${variant} ${profile}`);
  const targetDir = variant ? join(root, "target", `features-${variant}`) : join(root, "target");
  run("cargo", [
    "build", "--package", "citeproof-wasm", "--profile", profile, "--lib", "--target", "wasm32-unknown-unknown", "--target-dir", targetDir,
    ...(noDefault ? ["--no-default-features"] : []),
    ...(profile === "browser"
      ? ["--config", `target.wasm32-unknown-unknown.rustflags=["-C", "llvm-args=-inline-threshold=${BROWSER_INLINE_THRESHOLD}"]`]
      : []),
    // Every npm build takes talc as its allocator (wasm/Cargo.toml's feature `talc`).
    "--features", ["talc", features].filter(Boolean).join(","),
  ]);
  const built = join(targetDir, "wasm32-unknown-unknown", profile, "citeproof_wasm.wasm");
  builds.set(`${variant} ${profile}`, built);
  return built;
}

// The JS provider adapters (pkg/providers/, citeproof/providers) read the caller's
// arguments with the binding's own reader of untrusted values, so that both
// implementations refuse the same values with the same errors.
// The JS edge helpers (pkg/edge/, citeproof/edge in a browser) read theirs with it too,
// and read an `Input` with the binding's own walk (input.js), decoding its tape in JS.
if (!flagged) {
  copyFileSync(join(root, "wasm", "js", "untrusted.js"), join(outRoot, "providers", "untrusted.js"));
  for (const file of ["untrusted.js", "input.js"]) copyFileSync(join(root, "wasm", "js", file), join(outRoot, "edge", file));
}

// The guide, the figures it links to, the marker grammar and the edge worker example ship
// in the package (the npm README links to the guide; the package has no homepage), at the
// same paths relative to each other as in the repository, so that the guide's relative
// links work in node_modules/citeproof. A link to a file the package does not carry
// (architecture.md, the tests) becomes its text.
const SHIPPED = ["docs/guide.md", "docs/markers.md", "BENCHMARKS.md", "examples/edge-worker/src", "examples/edge-worker/wrangler.toml", "examples/edge-worker/.dev.vars.example"];
if (!flagged) {
  for (const dir of ["docs", "examples"]) rmSync(join(outRoot, dir), { recursive: true, force: true });
  for (const path of SHIPPED) cpSync(join(root, path), join(outRoot, path), { recursive: true });
  for (const path of SHIPPED.filter((p) => p.endsWith(".md"))) {
    const file = join(outRoot, path);
    // [label](target): a relative target with a `.` or `/` in it (not `[1](url)` in a code span).
    const text = readFileSync(file, "utf8").replace(/\[([^\]\n]*)\]\(([^)\s#:]*[./][^)\s#:]*)(#[^)\s]*)?\)/g, (link, label, target) =>
      existsSync(resolve(dirname(file), target)) ? link : label,
    );
    writeFileSync(file, text);
  }
}

for (const { dir, target, build } of outputs) {
  const built = cargoBuild(build);
  const out = join(outRoot, dir);
  rmSync(out, { recursive: true, force: true });
  run("wasm-bindgen", [
    built, "--target", targets[target], "--out-dir", out, "--out-name", "citeproof",
    ...(recoverable.has(target) ? ["--experimental-reset-state-function"] : []),
  ]);
  const wasm = join(out, "citeproof_bg.wasm");
  dropUnusedClosureShims(wasm);
  // `--converge` repeats -Oz until it stops shrinking the module (smaller for a few
  // seconds more); `--strip-producers` drops the toolchain's name tag, and
  // `--strip-target-features` the section listing the wasm features the compiler used
  // (for linkers and optimisers; engines ignore it): 157 bytes of every module.
  const oneCaller = ONE_CALLER_INLINE_MAX[build.noDefault ? "core" : "full"];
  run("wasm-opt", ["-Oz", "--converge", `--one-caller-inline-max-function-size=${oneCaller}`, "--strip-producers", "--strip-target-features", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", wasm, "-o", wasm]);
  // The node target is CommonJS; the others are ES modules. The JS snippets of
  // wasm/js/ are ES modules in every target: Node >= 20.19 require()s them as such.
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: target === "node" ? "commonjs" : "module" }) + "\n");
  if (existsSync(join(out, "snippets"))) {
    writeFileSync(join(out, "snippets", "package.json"), JSON.stringify({ type: "module" }) + "\n");
  }
  // The classes' `[Symbol.dispose]()` needs TypeScript's disposable lib, which lib
  // ES2022/ES2023 lack (an error under skipLibCheck: false): the reference brings it in.
  const types = join(out, "citeproof.d.ts");
  writeFileSync(types, '/// <reference lib="esnext.disposable" />\n' + readFileSync(types, "utf8"));
  if (recoverable.has(target)) await wrap(target, out);
  if (target === "bundler") guardWasmImport(out);
  exportPlainJs(target, out, build);
}

/**
 * Empties the table slots of wasm-bindgen's closure shims (`invoke`), so that wasm-opt
 * removes the shims and what only they call. Each closure type that any linked import
 * describes (js-sys's `Promise::then`, `Array::for_each`, …) puts its shim's address in
 * the function table, through a describe function that wasm-bindgen runs and deletes;
 * the address stays in the table, so wasm-opt keeps about 40 shims that nothing calls.
 * None can be called through the table: the table is not exported, and no code left
 * holds a shim's index (it was only in the describe functions). JS calls the closures it
 * gets through the exports wasm-bindgen generates for them, which call their shim
 * directly. Each emptied slot holds a function that traps (`unreachable`).
 * −564 B gzip -9 on the browser core (docs/perf-log.md, "The browser core's dead closure
 * shims"). Needs the name section, which wasm-bindgen keeps.
 */
function dropUnusedClosureShims(wasm) {
  const shim = /^wasm_bindgen::convert::closures::_::invoke::h[0-9a-f]{16}$/;
  const module = binaryen.readBinary(readFileSync(wasm));
  const empty = "citeproof::emptied_table_slot";
  module.addFunction(empty, binaryen.none, binaryen.none, [], module.unreachable());
  const segments = Array.from({ length: module.getNumElementSegments() }, (_, i) =>
    binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(i)),
  );
  for (const { name, table, offset, data } of segments) {
    const start = binaryen.getExpressionInfo(offset);
    if (start.id !== binaryen.ConstId) throw new Error(`${wasm}: element segment ${name} at a computed offset`);
    module.removeElementSegment(name);
    const slots = data.map((func) => (shim.test(func) ? empty : func));
    module.addActiveElementSegment(table, name, slots, module.i32.const(start.value));
  }
  if (!module.validate()) throw new Error(`${wasm}: invalid after emptying the closure shims' table slots`);
  writeFileSync(wasm, module.emitBinary());
  module.dispose();
}

/**
 * The plain-JS exports: the renderers (`renderHtml`, `citationTree`, `citationChips`,
 * wasm/js/render.js) and `citeproofTransform` (wasm/js/transform.js, over the entry's
 * own `CitationStream`, guarded where the target recovers from traps). Each entry
 * exports them next to the binding's exports, from copies beside the binding's other JS
 * (the snippets directory, whose untrusted.js they import), without a call through the
 * module. Their types are in wasm/js/types.d.ts. A bundler build without the Rust
 * provider adapters (the browser core) exports wasm/js/stream.js's `CitationStream`
 * instead of the glue's: its `finish(events)` reads the events with the JS adapters in
 * pkg/providers/ (so only built into pkg/, where that relative import resolves). Where
 * the module runs markerPatterns on a JS engine (the browser core: wasm/js/patterns.js),
 * the entry also exports that file's `registerPatternEngine`, which `citeproof/patterns`
 * calls (pkg/patterns.js); it is internal, so it has no declaration.
 */
function exportPlainJs(target, out, build) {
  const snippets = join(out, "snippets");
  const [crate] = readdirSync(snippets).filter((name) => existsSync(join(snippets, name, "js", "untrusted.js")));
  if (!crate) throw new Error(`${snippets}: no js/untrusted.js from the binding`);
  // (Built elsewhere, a bundler core keeps the glue's class, which refuses events.)
  const readsEvents = target === "bundler" && build.noDefault && !(build.features ?? "").includes("providers") && outRoot === resolve(root, "pkg");
  const files = ["render.js", "transform.js", ...(readsEvents ? ["stream.js"] : [])];
  for (const file of files) copyFileSync(join(root, "wasm", "js", file), join(snippets, crate, "js", file));
  const render = JSON.stringify(`./snippets/${crate}/js/render.js`);
  const transform = JSON.stringify(`./snippets/${crate}/js/transform.js`);
  const stream = JSON.stringify(`./snippets/${crate}/js/stream.js`);
  const names = ["citationChips", "citationTree", "renderHtml"];
  const patterns = existsSync(join(snippets, crate, "js", "patterns.js")) ? JSON.stringify(`./snippets/${crate}/js/patterns.js`) : undefined;
  const lines = target === "node"
    ? [
        `const render = require(${render});`,
        ...names.map((name) => `exports.${name} = render.${name};`),
        `exports.citeproofTransform = require(${transform}).citeproofTransformOver(exports.CitationStream);`,
        ...(patterns ? [`exports.registerPatternEngine = require(${patterns}).registerPatternEngine;`] : []),
      ]
    : [
        `export { ${names.join(", ")} } from ${render};`,
        `import { citeproofTransformOver } from ${transform};`,
        // The wrapped entry's own (guarded) class; the bundler glue re-exports the class
        // (the core: stream.js's, which reads events).
        ...(recoverable.has(target) ? [] : [`import { CitationStream } from ${readsEvents ? stream : '"./citeproof_bg.js"'};`]),
        ...(readsEvents ? [`export { CitationStream } from ${stream};`] : []),
        "export const citeproofTransform = citeproofTransformOver(CitationStream);",
        ...(patterns ? [`export { registerPatternEngine } from ${patterns};`] : []),
      ];
  const entry = join(out, "citeproof.js");
  let glue = readFileSync(entry, "utf8");
  if (readsEvents) {
    // The glue's export list names the class: stream.js's replaces it.
    const listed = /(export \{[^}]*?)\bCitationStream, ([^}]*\} from "\.\/citeproof_bg\.js";)/;
    if (!listed.test(glue)) throw new Error(`${entry}: wasm-bindgen's bundler glue changed (no CitationStream in its export list)`);
    glue = glue.replace(listed, "$1$2");
  }
  writeFileSync(entry, glue + lines.join("\n") + "\n");
}

/**
 * The bundler target imports its `.wasm` as an ES module (the WebAssembly/ES module
 * integration). Where a bundler does not do that, the glue died in its first call with
 * "Cannot read properties of undefined (reading '__wbindgen_externrefs')": a bundler with
 * no wasm support hands it a namespace without the module's exports, and Vite's dev
 * server without vite-plugin-wasm pre-bundles the glue into a copy that the instance
 * does not call back (it calls the original, whose `wasm` was never set). Both now throw
 * an error with `code` `wasm_not_loaded` that says which plugin to add.
 */
function guardWasmImport(out) {
  const file = join(out, "citeproof.js");
  const glue = readFileSync(file, "utf8");
  const set = "__wbg_set_wasm(wasm);\n";
  const start = "wasm.__wbindgen_start();\n";
  if (!glue.includes(set) || !glue.includes(start)) throw new Error(`${file}: wasm-bindgen's bundler glue changed (no __wbg_set_wasm(wasm) / __wbindgen_start() call)`);
  const advice =
    "citeproof: citeproof_bg.wasm was not loaded as a WebAssembly ES module. With Vite (build and dev), add vite-plugin-wasm: " +
    "import wasm from 'vite-plugin-wasm' and plugins: [react(), wasm()] in vite.config (citeproof's README, Vite + React); " +
    "with webpack, set experiments.asyncWebAssembly.";
  const guarded = glue
    .replace(set, `if (typeof wasm.__wbindgen_start !== "function") throw wasmNotLoaded();\n${set}`)
    .replace(start, "try {\n    wasm.__wbindgen_start();\n} catch (cause) {\n    throw wasmNotLoaded(cause);\n}\n")
    .concat(`function wasmNotLoaded(cause) {\n    return Object.assign(new Error(${JSON.stringify(advice)}, { cause }), { code: "wasm_not_loaded" });\n}\n`);
  writeFileSync(file, guarded);
}

/** Moves the glue aside and writes `citeproof.js`: every export guarded by recover.mjs. */
async function wrap(target, out) {
  renameSync(join(out, "citeproof.js"), join(out, "citeproof_glue.js"));
  copyFileSync(join(root, "wasm", "js", "recover.mjs"), join(out, "recover.mjs"));
  const types = join(out, "citeproof.d.ts");
  writeFileSync(types, readFileSync(types, "utf8").replace(/^export function __wbg_reset_state\(\): void;\n/m, ""));
  const glue = target === "node"
    ? createRequire(import.meta.url)(join(out, "citeproof_glue.js"))
    : await import(pathToFileURL(join(out, "citeproof_glue.js")));
  const unguarded = new Set(["default", "initSync", "__wbg_reset_state"]);
  const names = Object.keys(glue).filter((name) => !unguarded.has(name)).sort();
  const header = [
    "// Generated by scripts/build-pkg.mjs: the wasm-bindgen glue (citeproof_glue.js) with",
    "// every export guarded by recover.mjs, which recreates the instance after a trap.",
  ];
  const lines = target === "node"
    ? [
        ...header,
        'const glue = require("./citeproof_glue.js");',
        'const { guard } = require("./recover.mjs");',
        "const reset = glue.__wbg_reset_state;",
        ...names.map((name) => `exports.${name} = guard(glue.${name}, reset);`),
      ]
    : [
        ...header,
        'import * as glue from "./citeproof_glue.js";',
        'import { guard } from "./recover.mjs";',
        "const reset = glue.__wbg_reset_state;",
        "export default glue.default;",
        "export const initSync = glue.initSync;",
        ...names.map((name) => `export const ${name} = guard(glue.${name}, reset);`),
      ];
  writeFileSync(join(out, "citeproof.js"), lines.join("\n") + "\n");
}

for (const { dir } of outputs) {
  const wasm = join(outRoot, dir, "citeproof_bg.wasm");
  const gzip = execFileSync("gzip", ["-9", "-c", wasm], { maxBuffer: 64 * 1024 * 1024 }).length;
  console.log(`${dir}: wasm ${readFileSync(wasm).length} B, gzip -9 ${gzip} B`);
}
