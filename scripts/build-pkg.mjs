// Builds the npm package in pkg/: one release build of the crate, then per target
// wasm-bindgen, wasm-opt, and a trim to what the package's conditional exports need.
//
//   node scripts/build-pkg.mjs                 all targets (web, bundler, node)
//   node scripts/build-pkg.mjs node            just one
//   node scripts/build-pkg.mjs node --features test-trap --out target/pkg-trap
//                                              a test-only build elsewhere (own cargo
//                                              target dir, so pkg/'s build stays cached)
//   node scripts/build-pkg.mjs web --no-default-features --out target/pkg-browser
//                                              the module without the provider adapters,
//                                              the edge helpers and markerPatterns: what
//                                              the lean browser entry will load (issue 25)
//
// The node and web targets are generated with wasm-bindgen's
// `--experimental-reset-state-function`, and their `citeproof.js` is a wrapper around the
// glue (`citeproof_glue.js`) that guards every export with src/wasm/recover.mjs: after a
// trap the instance is recreated. (wasm-pack cannot pass that flag, hence the direct
// calls; wasm-bindgen refuses it for the bundler target.)
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

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
const wanted = args.length ? args : Object.keys(targets);
for (const dir of wanted) {
  if (!targets[dir]) throw new Error(`unknown target ${dir}; expected one of ${Object.keys(targets)}`);
}

// The npm package binaryen provides a working wasm-opt (docs/toolchain.md).
const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` };
const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: root, env, stdio: "inherit" });

const variant = [noDefault && "no-default", features?.replace(/\W+/g, "-")].filter(Boolean).join("-");
const targetDir = variant ? join(root, "target", `features-${variant}`) : join(root, "target");
run("cargo", [
  "build", "--release", "--lib", "--target", "wasm32-unknown-unknown", "--target-dir", targetDir,
  ...(noDefault ? ["--no-default-features"] : []),
  ...(features ? ["--features", features] : []),
]);
const built = join(targetDir, "wasm32-unknown-unknown", "release", "citeproof.wasm");

for (const dir of wanted) {
  const out = join(outRoot, dir);
  rmSync(out, { recursive: true, force: true });
  run("wasm-bindgen", [
    built, "--target", targets[dir], "--out-dir", out, "--out-name", "citeproof",
    ...(recoverable.has(dir) ? ["--experimental-reset-state-function"] : []),
  ]);
  const wasm = join(out, "citeproof_bg.wasm");
  // `--converge` repeats -Oz until it stops shrinking the module (-0.4 KB gzip, a few
  // seconds more); `--strip-producers` drops the toolchain's name tag.
  run("wasm-opt", ["-Oz", "--converge", "--strip-producers", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", wasm, "-o", wasm]);
  // The node target is CommonJS; the others are ES modules. The JS snippets of
  // src/wasm/ are ES modules in every target: Node >= 20.19 require()s them as such.
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: dir === "node" ? "commonjs" : "module" }) + "\n");
  if (existsSync(join(out, "snippets"))) {
    writeFileSync(join(out, "snippets", "package.json"), JSON.stringify({ type: "module" }) + "\n");
  }
  // The classes' `[Symbol.dispose]()` needs TypeScript's disposable lib, which lib
  // ES2022/ES2023 lack (an error under skipLibCheck: false): the reference brings it in.
  const types = join(out, "citeproof.d.ts");
  writeFileSync(types, '/// <reference lib="esnext.disposable" />\n' + readFileSync(types, "utf8"));
  if (recoverable.has(dir)) await wrap(dir, out);
}

/** Moves the glue aside and writes `citeproof.js`: every export guarded by recover.mjs. */
async function wrap(dir, out) {
  renameSync(join(out, "citeproof.js"), join(out, "citeproof_glue.js"));
  copyFileSync(join(root, "src", "wasm", "recover.mjs"), join(out, "recover.mjs"));
  const types = join(out, "citeproof.d.ts");
  writeFileSync(types, readFileSync(types, "utf8").replace(/^export function __wbg_reset_state\(\): void;\n/m, ""));
  const glue = dir === "node"
    ? createRequire(import.meta.url)(join(out, "citeproof_glue.js"))
    : await import(pathToFileURL(join(out, "citeproof_glue.js")));
  const unguarded = new Set(["default", "initSync", "__wbg_reset_state"]);
  const names = Object.keys(glue).filter((name) => !unguarded.has(name)).sort();
  const header = [
    "// Generated by scripts/build-pkg.mjs: the wasm-bindgen glue (citeproof_glue.js) with",
    "// every export guarded by recover.mjs, which recreates the instance after a trap.",
  ];
  const lines = dir === "node"
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

const web = join(outRoot, "web", "citeproof_bg.wasm");
if (existsSync(web)) {
  const gzip = execFileSync("gzip", ["-9", "-c", web], { maxBuffer: 64 * 1024 * 1024 }).length;
  console.log(`wasm: ${readFileSync(web).length} B, gzip -9: ${gzip} B`);
}
