// The package under real Deno and Bun (their binaries from the npm registry, devDependencies):
// a project with `citeproof` in its node_modules imports it by name and runs one script
// (validate, a stream, a provider adapter, markers, a coded error) whose answers must
// equal Node's. Deno picks the `deno` export condition (pkg/deno.js) and runs with no
// permissions at all (the node entry, which reads its .wasm from disk, would need
// --allow-read); Bun picks `node`, as it does for Node-API packages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pkgDir, root, tempDir } from "./helpers.mjs";

const SCRIPT = `
import { validate, CitationStream, fromAny, parseCitations } from "citeproof";
import * as providers from "citeproof/providers";
const report = validate({ answer: "Water boils at 100 °C [1]. The moon [3].", sources: [{ text: "Water boils at 100 °C." }] }, { policy: "clean" });
const stream = new CitationStream({ sources: [{}] });
let shown = "";
for (const delta of ["Fact [", "1] and [", "7]."]) shown += stream.push(delta).text;
shown += stream.finish().text;
const message = { type: "message", id: "m1", content: [{ type: "text", text: "Hi [1].", citations: [] }] };
const input = fromAny(message);
// citeproof/providers, plain JS, reads responses as the module's adapters do (the AI SDK's
// with parseCitations of citeproof: no markers, so the source cites the whole answer).
const ui = { parts: [{ type: "text", text: "Water boils." }, { type: "source-url", sourceId: "s", url: "https://a.example/" }] };
const same = JSON.stringify(providers.fromAny(message)) === JSON.stringify(input) && JSON.stringify(providers.fromAny(ui)) === JSON.stringify(fromAny(ui));
let code = null;
try { validate({ answer: 42 }); } catch (e) { code = e.code; }
console.log(JSON.stringify({ status: report.status, cleaned: report.cleanedAnswer, shown, provider: input.provider, same, markers: parseCitations("a [1] b 【2†x】").length, code }));
`;

/** A project with `citeproof` (this package) in its node_modules and SCRIPT as main.mjs. */
function project(prefix) {
  const dir = tempDir(prefix);
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(pkgDir, join(dir, "node_modules", "citeproof"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", dependencies: { citeproof: "*" } }));
  writeFileSync(join(dir, "main.mjs"), SCRIPT);
  return dir;
}

/** The JSON line `command args` prints in `dir`. */
function answer(command, args, dir, env = {}) {
  const out = execFileSync(command, args, { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  return JSON.parse(out.trim().split("\n").at(-1));
}

/** What every runtime must answer: Node's answer, and that answer's expected values. */
function assertAsNode(got, dir) {
  assert.deepEqual(got, answer(process.execPath, ["main.mjs"], dir));
  assert.equal(got.status, "fail", "an out-of-range marker fails the answer");
  assert.equal(got.cleaned, "Water boils at 100 °C [1]. The moon.");
  assert.equal(got.shown, "Fact [1] and.");
  assert.deepEqual([got.provider, got.same, got.markers, got.code], ["anthropic", true, 2, "invalid_input"]);
}

test("Deno imports the package through its deno condition and validates, streams and adapts, with no permissions", () => {
  const dir = project("citeproof-deno-");
  writeFileSync(join(dir, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
  const deno = join(root, "node_modules", ".bin", "deno");
  assertAsNode(answer(deno, ["run", "--no-prompt", "main.mjs"], dir, { DENO_NO_UPDATE_CHECK: "1" }), dir);
});

test("Bun imports the package and validates, streams and adapts as Node does", () => {
  const dir = project("citeproof-bun-");
  const bun = join(root, "node_modules", ".bin", "bun");
  const resolved = answer(bun, ["-e", 'console.log(JSON.stringify(Bun.resolveSync("citeproof", process.cwd())))'], dir);
  assert.match(resolved, /node[\\/]citeproof\.js$/, "Bun takes the node entry");
  assertAsNode(answer(bun, ["main.mjs"], dir, { DO_NOT_TRACK: "1", BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }), dir);
});
