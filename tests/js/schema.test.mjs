// The report's boundary schema (src/wasm/schema.mjs) drives the Rust tape writers, the
// JS readers and the TypeScript interfaces; the generated files must be what it gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "./helpers.mjs";

test("the files generated from src/wasm/schema.mjs are up to date", () => {
  const run = spawnSync(process.execPath, [join(root, "scripts", "gen-schema.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
});
