// Builds the npm package in pkg/: one wasm-pack build per target, then trims each
// target folder to what the package's conditional exports need.
//
//   node scripts/build-pkg.mjs            all targets (web, bundler, node)
//   node scripts/build-pkg.mjs node       just one
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const targets = { web: "web", bundler: "bundler", node: "nodejs" };
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(targets);

// wasm-pack runs wasm-opt from PATH; the npm package binaryen provides a working one.
const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` };

for (const dir of wanted) {
  if (!targets[dir]) throw new Error(`unknown target ${dir}; expected one of ${Object.keys(targets)}`);
  const out = join(root, "pkg", dir);
  rmSync(out, { recursive: true, force: true });
  execFileSync(
    "wasm-pack",
    ["build", "--release", "--no-pack", "--target", targets[dir], "--out-dir", out, "--out-name", "citeproof"],
    { cwd: root, env, stdio: "inherit" },
  );
  for (const generated of [".gitignore", "package.json", "README.md"]) {
    rmSync(join(out, generated), { force: true });
  }
  // The node target is CommonJS; the others are ES modules. The JS snippets of
  // src/wasm/ are ES modules in every target: Node >= 20.19 require()s them as such.
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: dir === "node" ? "commonjs" : "module" }) + "\n");
  if (existsSync(join(out, "snippets"))) {
    writeFileSync(join(out, "snippets", "package.json"), JSON.stringify({ type: "module" }) + "\n");
  }
}

const wasm = join(root, "pkg", "web", "citeproof_bg.wasm");
if (existsSync(wasm)) {
  const gzip = execFileSync("gzip", ["-9", "-c", wasm], { maxBuffer: 64 * 1024 * 1024 }).length;
  console.log(`wasm: ${readFileSync(wasm).length} B, gzip -9: ${gzip} B`);
}
