// The package under real Deno (the `deno` binary from the npm registry, a devDependency):
// a project with `citeproof` in its node_modules imports it by name, so Deno picks the
// `deno` export condition (pkg/deno.js). Run with no permissions at all: the node entry,
// which reads its .wasm from disk, would need --allow-read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pkgDir, root, tempDir } from "./helpers.mjs";

const SCRIPT = `
import { validate, CitationStream, fromAny, parseCitations } from "citeproof";
const report = validate({ answer: "Water boils at 100 °C [1]. The moon [3].", sources: [{ text: "Water boils at 100 °C." }] }, { policy: "clean" });
const stream = new CitationStream({ sources: [{}] });
let shown = "";
for (const delta of ["Fact [", "1] and [", "7]."]) shown += stream.push(delta).text;
shown += stream.finish().text;
const input = fromAny({ type: "message", id: "m1", content: [{ type: "text", text: "Hi [1].", citations: [] }] });
let code = null;
try { validate({ answer: 42 }); } catch (e) { code = e.code; }
console.log(JSON.stringify({ status: report.status, cleaned: report.cleanedAnswer, shown, provider: input.provider, markers: parseCitations("a [1] b 【2†x】").length, code }));
`;

test("Deno imports the package through its deno condition and validates, streams and adapts, with no permissions", () => {
  const dir = tempDir("citeproof-deno-");
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(pkgDir, join(dir, "node_modules", "citeproof"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", dependencies: { citeproof: "*" } }));
  writeFileSync(join(dir, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
  writeFileSync(join(dir, "main.mjs"), SCRIPT);
  const deno = join(root, "node_modules", ".bin", "deno");
  const out = execFileSync(deno, ["run", "--no-prompt", "main.mjs"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
  const got = JSON.parse(out.trim().split("\n").at(-1));
  // The same script in Node, through the node entry: both runtimes answer alike.
  const node = execFileSync(process.execPath, ["main.mjs"], { cwd: dir, encoding: "utf8" });
  assert.deepEqual(got, JSON.parse(node.trim().split("\n").at(-1)));
  assert.equal(got.status, "fail", "an out-of-range marker fails the answer");
  assert.equal(got.cleaned, "Water boils at 100 °C [1]. The moon.");
  assert.equal(got.shown, "Fact [1] and.");
  assert.deepEqual([got.provider, got.markers, got.code], ["anthropic", 2, "invalid_input"]);
});
