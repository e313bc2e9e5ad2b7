// Trap recovery (issue 10): a test-only build (cargo feature `test-trap`, which exports
// `__trap()` panicking inside the module) shows that after a trap the package's wrapper
// throws a coded Error, recreates the instance, and the next call works.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const out = join(root, "target", "pkg-trap");
let api;

before(() => {
  execFileSync("node", [join(root, "scripts", "build-pkg.mjs"), "node", "web", "--features", "test-trap", "--out", out], { stdio: "pipe" });
  api = require(join(out, "node", "citeproof.js"));
});

const input = {
  answer: "Water boils at 100 °C [1]. Tokyo is the capital [2].",
  sources: [{ text: "Water boils at 100 °C." }, { text: "Tokyo is the capital of Japan." }],
};
const untimed = ({ timingMs, ...report }) => report;

/** Runs `f`, which must throw; returns the error. */
function thrown(f) {
  try {
    f();
  } catch (error) {
    return error;
  }
  assert.fail("expected a throw");
}

test("a trap throws internal_error, and the next call runs on a fresh instance", () => {
  const expected = untimed(api.validate(input));
  // Grow the old instance's memory, so that a fresh one is visibly new.
  api.validate({ ...input, answer: input.answer.repeat(20_000) }, { maxAnswerChars: 5e6 });
  const grown = api.memoryBytes();
  const error = thrown(() => api.__trap());
  assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError));
  assert.equal(error.code, "internal_error");
  assert.ok(error.cause instanceof WebAssembly.RuntimeError, "the trap is the cause");
  assert.ok(api.memoryBytes() < grown, "a new instance, with a new memory");
  assert.deepEqual(untimed(api.validate(input)), expected);
  for (let i = 0; i < 3; i++) {
    assert.equal(thrown(() => api.__trap()).code, "internal_error");
    assert.deepEqual(untimed(api.validate(input)), expected, `after trap ${i + 2}`);
  }
});

test("a panic logs its message, where it panicked and the JS stack on the console", (t) => {
  const logged = [];
  t.mock.method(console, "error", (text) => logged.push(text));
  thrown(() => api.__trap());
  assert.equal(logged.length, 1);
  assert.match(logged[0], /^panicked at wasm\/src\/api\/module\.rs:\d+:\d+:\nforced trap \(feature test-trap\)\n\nStack:\n\nError\n {4}at /);
});

test("objects made before a trap throw stale_instance; new ones work", async () => {
  const stream = new api.CitationStream({ sources: input.sources });
  stream.push("Water boils ");
  const validator = new api.CitationValidator({ policy: "flag" });
  thrown(() => api.__trap());
  assert.equal(thrown(() => stream.push("at 100 °C [1].")).code, "stale_instance");
  assert.equal(thrown(() => validator.validate(input)).code, "stale_instance");
  const fresh = new api.CitationStream({ sources: input.sources });
  fresh.push(input.answer);
  assert.equal(fresh.finish().report.markers.length, 2);
  assert.ok(fresh instanceof api.CitationStream, "instanceof still holds for the guarded class");
  // Async exports go through the same guard.
  const report = await api.validateAsync(input, { embed: async (texts) => texts.map(() => [1, 0]) });
  assert.equal(report.markers.length, 2);
});

test("after a trap, freeing an object made before it frees nothing of the new instance's", () => {
  // In a child process with a time limit: the bug spun inside wasm (a synchronous loop no
  // test timeout interrupts), so a regression fails here instead of hanging the run.
  const script = `
    const assert = require("node:assert/strict");
    const api = require(${JSON.stringify(join(out, "node", "citeproof.js"))});
    const sources = ${JSON.stringify(input.sources)};
    const a = new api.CitationStream({ sources });
    a.push("Water boils [1");
    const parser = new api.CitationParser();
    try { api.__trap(); } catch (e) { assert.equal(e.code, "internal_error"); }
    const b = new api.CitationStream({ sources });
    b.push("Water boils at 100 °C [1");
    // a's and parser's memory was the old instance's; their pointers may be b's in the
    // new one (freed, b's next push spun forever).
    a.free();
    parser[Symbol.dispose]();
    a.free();
    b.push("]. Tokyo is the capital [2].");
    assert.equal(b.finish().report.markers.length, 2);
    process.stdout.write("ok");
  `;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(run.signal, null, "the child was killed at its time limit: a push spun");
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "ok");
});

test("a freed object, or a method called on another object, is a coded error and no trap", () => {
  const parser = new api.CitationParser();
  parser.free();
  const freed = thrown(() => parser.parse("a [1]"));
  assert.equal(freed.code, "invalid_input");
  assert.match(freed.message, /was freed/);
  parser.free();
  const validator = new api.CitationValidator();
  const stream = new api.CitationStream({ sources: input.sources });
  stream.push("Water boils ");
  for (const call of [
    () => api.CitationParser.prototype.parse.call(validator, "x"),
    () => api.CitationParser.prototype.parse.call(null, "x"),
    () => api.CitationValidator.prototype.validate.call(stream, input),
    () => api.CitationValidator.prototype.free.call(stream),
    () => api.CitationStream.prototype.push.call({ __wbg_ptr: 1 }, "x"),
    () => Object.getOwnPropertyDescriptor(api.CitationStream.prototype, "held").get.call(new api.Metrics()),
  ]) {
    const error = thrown(call);
    assert.equal(error.code, "invalid_input", `${call}: ${error.message}`);
  }
  // No trap: the objects made before still work.
  assert.equal(validator.validate(input).markers.length, 2);
  stream.push("at 100 °C [1].");
  assert.equal(stream.finish().report.markers.length, 1);
});

test("the web target recovers the same way", async () => {
  const { readFileSync } = await import("node:fs");
  const web = await import(pathToFileURL(join(out, "web", "citeproof.js")));
  web.initSync({ module: readFileSync(join(out, "web", "citeproof_bg.wasm")) });
  const expected = untimed(web.validate(input));
  assert.equal(thrown(() => web.__trap()).code, "internal_error");
  assert.deepEqual(untimed(web.validate(input)), expected);
});

test("the published package has no __trap, and its exports are guarded", () => {
  const published = require(join(pkgDir, "node", "citeproof.js"));
  assert.equal(published.__trap, undefined);
  assert.equal(published.validate.name, "guarded");
  assert.equal(typeof published.validate(input).status, "string");
});
