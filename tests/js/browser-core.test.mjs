// The browser core (target/pkg-browser, built by `node scripts/build-pkg.mjs web
// --no-default-features --out target/pkg-browser`): the module the lean browser entry
// will load. It validates, streams and renders as the full one does, has no provider
// adapters or edge helpers, and refuses markerPatterns with a clear error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { pkgDir, root } from "./helpers.mjs";

const dir = join(root, "target", "pkg-browser", "web");
const core = await import(pathToFileURL(join(dir, "citeproof.js")));
core.initSync({ module: readFileSync(join(dir, "citeproof_bg.wasm")) });
const full = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const input = {
  answer: "Water boils at 100 °C [1]. The moon is cheese [3].",
  sources: [{ title: "Boiling", text: "Water boils at 100 °C at sea level." }],
  citations: [{ source: 1, quote: "boils at 100 °C" }],
};

test("the browser core validates, streams and renders as the full module does", () => {
  const strip = (report) => ({ ...report, timingMs: 0 });
  assert.deepEqual(strip(core.validate(input)), strip(full.validate(input)));
  const stream = new core.CitationStream({ sources: input.sources });
  stream.push(input.answer.slice(0, 20));
  stream.push(input.answer.slice(20));
  const { report } = stream.finish();
  stream.free();
  assert.equal(report.cleanedAnswer, full.validate({ answer: input.answer, sources: input.sources }).cleanedAnswer);
  assert.equal(core.renderHtml(full.validate(input), { sources: input.sources }), full.renderHtml(full.validate(input), { sources: input.sources }));
  assert.deepEqual(core.locateQuote("boils at 100", input.sources[0].text), full.locateQuote("boils at 100", input.sources[0].text));
});

test("the browser core has no provider adapters or edge helpers, and refuses markerPatterns", () => {
  for (const name of ["fromAnthropic", "fromOpenAI", "fromAny", "auditRecord", "formatContext", "repairPrompt", "Metrics"]) {
    assert.equal(core[name], undefined, name);
    assert.equal(typeof full[name], "function", name);
  }
  assert.throws(
    () => core.parseCitations("Fact {{cite:2}}.", { markerPatterns: ["\\{\\{cite:(?P<refs>\\d+)\\}\\}"] }),
    (e) => e.code === "invalid_option" && /markerPatterns\[0\]: this build has no markerPatterns.*import from citeproof\/patterns/.test(e.message),
  );
  assert.equal(full.parseCitations("Fact {{cite:2}}.", { markerPatterns: ["\\{\\{cite:(?P<refs>\\d+)\\}\\}"] }).length, 1);
});

test("the bare browser core refuses a stream's events it cannot read, and counts the Input an adapter made of them", () => {
  // The package's browser entries read events with the JS adapters (wasm/js/stream.js,
  // tests/js/stream-declared.test.mjs); this build is the module without that wrapper.
  const body = readFileSync(join(root, "tests", "fixtures", "providers", "anthropic-stream.sse"), "utf8");
  const events = [...body.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
  const declared = full.fromAny(events);
  const stream = new core.CitationStream({ sources: [] });
  stream.push(declared.answer);
  assert.throws(
    () => stream.finish(events),
    (e) => e.code === "invalid_input" && /^events: this module has no provider adapters: pass the Input fromAny\(events\)/.test(e.message),
  );
  stream.free();
  const finished = (lib) => {
    const s = new lib.CitationStream({ sources: [] });
    s.push(declared.answer);
    const { report } = s.finish(declared);
    s.free();
    return { ...report, timingMs: 0 };
  };
  const report = finished(core);
  assert.equal(report.citations.length, 1);
  assert.equal(report.citations[0].declared, 0);
  assert.deepEqual(report, finished(full));
});
