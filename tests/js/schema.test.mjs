// The boundary schema (wasm/js/schema.mjs) drives the Rust tape writers, the JS readers
// and the TypeScript interfaces of the report, and the names of the input's fields on
// both sides; the generated files must be what it gives, and the two places it cannot
// write (serde's aliases for the CLI, the Rust reader's field order) must agree with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./helpers.mjs";
import { inputs } from "../../wasm/js/schema.mjs";

const snake = (name) => name.replace(/[A-Z]/g, (c, i) => (i ? "_" : "") + c.toLowerCase());
const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

test("the files generated from wasm/js/schema.mjs are up to date", () => {
  const run = spawnSync(process.execPath, [join(root, "scripts", "gen-schema.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
});

/**
 * `{ field: [serde name, ...aliases] }` of a struct of src/model/input.rs (camelCase). A
 * `Source` is read through `SourceFields`, with its text under each of its names apart
 * (by precedence, `TEXT_NAMES`): those fields come out as the one field `text`.
 */
function serdeNames(source, struct) {
  const reader = struct === "Source" ? "SourceFields" : struct;
  const start = source.search(new RegExp(`(pub )?struct ${reader} \\{`));
  assert.ok(start >= 0, reader);
  const body = source.slice(start, source.indexOf("\n}\n", start));
  const names = {};
  let attributes = "";
  for (const line of body.split("\n").slice(1)) {
    const field = /^ {4}(?:pub )?(\w+):/.exec(line);
    if (field) {
      const aliases = [...attributes.matchAll(/alias = "(\w+)"/g)].map((m) => m[1]);
      const rename = /rename = "(\w+)"/.exec(attributes)?.[1];
      // Read under no name: `skip` or `skip_deserializing` (not `skip_serializing_if`).
      if (!/#\[serde\([^\]]*\bskip(_deserializing)?\b/.test(attributes)) names[field[1]] = [rename ?? camel(field[1]), ...aliases];
      attributes = "";
    } else if (!/^\s*\/\/\/?/.test(line)) attributes += line; // attributes, over lines as rustfmt wraps them
  }
  if (struct === "Source") {
    const list = /pub const TEXT_NAMES: \[&str; \d+\] = \[([^\]]*)\]/.exec(source)[1];
    const texts = [...list.matchAll(/"(\w+)"/g)].map((m) => m[1]);
    for (const name of texts) {
      assert.deepEqual(names[name], [name], `SourceFields.${name}: the text under one name`);
      delete names[name];
    }
    names.text = texts;
  }
  return names;
}

test("serde reads every input field under the names the schema gives it, and no other", () => {
  const source = readFileSync(join(root, "src", "model", "input.rs"), "utf8");
  for (const [type, fields] of Object.entries(inputs)) {
    const serde = serdeNames(source, type);
    for (const [rust, names] of fields) assert.deepEqual(serde[rust], names, `${type}.${rust}`);
    // A field serde knows under an alias is in the schema (answer, sources, … have none).
    const declared = new Set(fields.map(([rust]) => rust));
    for (const [rust, names] of Object.entries(serde)) {
      if (names.length > 1) assert.ok(declared.has(rust), `${type}.${rust}: aliases ${names.slice(1)} not in the schema`);
    }
  }
});

test("the Rust reader takes the input's fields in the schema's order", () => {
  const reader = readFileSync(join(root, "wasm", "src", "wire", "from_js", "input_tape.rs"), "utf8");
  for (const [type, fields] of Object.entries(inputs)) {
    const used = [...reader.matchAll(new RegExp(`\\b${snake(type)}::([A-Z_]+)\\b`, "g"))].map((m) => m[1].toLowerCase());
    assert.deepEqual(used, fields.map(([rust]) => rust), type);
  }
});
