// The native CLI (target/release/citeproof) and the npm bin (pkg/bin/citeproof.mjs) on
// the same JSON Lines: same table, same reports, same gate.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pkgDir, root, tempDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);

const dir = tempDir("citeproof-cli-");
const good = join(dir, "good.jsonl");
const mixed = join(dir, "mixed.jsonl");
const adapted = join(dir, "adapted.jsonl");
const native = join(root, "target", "release", "citeproof");
const npmBin = join(pkgDir, "bin", "citeproof.mjs");

before(() => {
  execFileSync("cargo", ["build", "--release", "--quiet", "--bin", "citeproof"], { cwd: root, stdio: "inherit" });
  const answers = readFileSync(join(root, "data", "expertqa", "answers-val.jsonl"), "utf8").trim().split("\n").slice(0, 20);
  // Answers that pass or warn: the original markers minus those past the kept sources.
  writeFileSync(good, `${answers.slice(1, 3).join("\n")}\n`);
  const broken = JSON.parse(answers[0]);
  broken.answer += " An invented claim [42].";
  // A source's text given under two of its names, with different values: read by both
  // readers by the same precedence (serde in the native CLI, the JS walk in the npm one:
  // one schema, wasm/js/schema.mjs), with a warning.
  const twice = JSON.stringify({ answer: "A claim [1].", sources: [{ content: "A claim.", snippet: "claim" }] });
  writeFileSync(mixed, [...answers, JSON.stringify(broken), '{"answer": 3}', twice, "not json", ""].join("\n"));
  // Provider responses adapted in JS: declared citations with UTF-16 spans.
  const { fromAny } = require(join(pkgDir, "node", "citeproof.js"));
  const fixture = (name) => JSON.parse(readFileSync(join(root, "tests", "fixtures", "providers", name), "utf8"));
  const inputs = ["gemini.json", "openai-chat.json", "cohere.json"].map((name) => fromAny(fixture(name)));
  writeFileSync(adapted, inputs.map((i) => JSON.stringify(i)).join("\n") + "\n");
});

function run(command, args) {
  const [cmd, ...rest] = command === "native" ? [native] : [process.execPath, npmBin];
  const result = spawnSync(cmd, [...rest, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Unreadable-line messages come from different JSON readers; everything else must match. */
const comparable = (text) => text.replace(/(error {2}invalid_input: )input[^\n]*/g, "$1…");

test("both CLIs print the same table and summary", () => {
  const n = run("native", ["check", mixed]);
  const j = run("npm", ["check", mixed]);
  assert.equal(comparable(n.stdout), comparable(j.stdout));
  // A failing batch without --gate: the verdict, and that the exit code is 0 until --gate.
  assert.match(n.stdout, /22 reports: \d+ pass, \d+ warn, \d+ fail; \d+ hallucinated citations; 2 unreadable lines; verdict: fail; exit 0 \(--gate exits 1 on fail\)\n$/);
  assert.match(n.stdout, /^ {2}line {2}status citations/);
  assert.equal(n.code, 0, "without --gate the exit code is 0");
});

test("both CLIs print the same reports with --json", () => {
  const n = run("native", ["check", mixed, "--json"]);
  const j = run("npm", ["check", mixed, "--json"]);
  const parse = (stdout) =>
    stdout.trim().split("\n").map((line) => {
      const value = JSON.parse(line);
      delete value.timingMs;
      if (value.error) value.error.message = value.error.message.split(":")[0];
      return value;
    });
  const [nativeReports, npmReports] = [parse(n.stdout), parse(j.stdout)];
  assert.equal(nativeReports.length, 24);
  // The text given twice, differently: the full text read, and a warning, in both.
  const twiceLine = nativeReports[22];
  assert.deepEqual(twiceLine.findings.map((f) => [f.code, f.severity, f.message]), [
    ["source_text_differs", "warning", "source 1 has `content` and `snippet` with different texts; `content` is read (the full text wins over an excerpt or snippet)"],
  ]);
  assert.deepEqual(nativeReports, npmReports);
  assert.equal(nativeReports[20].summary.hallucinations, 1, "the broken answer");
  assert.deepEqual(nativeReports[21], { error: { code: "invalid_input", message: "input.answer" }, line: 22 });
  assert.equal(n.stderr, j.stderr, "the summary goes to stderr with --json");
});

test("--gate exits 1 on a failing batch and 0 on a passing one, in both", () => {
  for (const cli of ["native", "npm"]) {
    const failed = run(cli, ["check", mixed, "--gate"]);
    assert.equal(failed.code, 1, cli);
    assert.match(failed.stdout, /; verdict: fail; exit 1 \(--gate\)\n$/, cli);
    // --json: the summary on stderr says the same.
    assert.match(run(cli, ["check", mixed, "--json"]).stderr, /; verdict: fail; exit 0 \(--gate exits 1 on fail\)\n$/, cli);
    const ok = run(cli, ["check", good, "--gate"]);
    assert.equal(ok.code, 0, `${cli}: ${ok.stdout}`);
    assert.match(ok.stdout, /; verdict: (pass|warn)\n$/, cli);
  }
});

test("bad arguments exit 2 with usage", () => {
  for (const cli of ["native", "npm"]) {
    const r = run(cli, ["lint", good]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^usage: citeproof check FILE\.jsonl/);
    assert.equal(run(cli, ["check", good, "--offsets", "bytes"]).code, 2);
  }
});

test("adapted provider inputs: spans read in the --offsets unit, same reports in both", () => {
  const n = run("native", ["check", adapted, "--json"]);
  const j = run("npm", ["check", adapted, "--json"]);
  assert.equal(n.code, 0, n.stderr);
  const parse = (stdout) =>
    stdout.trim().split("\n").map((line) => {
      const report = JSON.parse(line);
      delete report.timingMs;
      return report;
    });
  const reports = parse(n.stdout);
  assert.deepEqual(reports, parse(j.stdout));
  const inputs = readFileSync(adapted, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(reports.length, 3);
  for (const [i, report] of reports.entries()) {
    const input = inputs[i];
    for (const c of report.citations.filter((c) => c.declared != null)) {
      const declared = input.citations[c.declared].span;
      assert.deepEqual(c.span, declared, `${input.provider}: the span comes back in the same unit`);
    }
  }
});

test("--options sets claim support: both CLIs report the misattributed claim, naming the right source, or nothing when it is off", () => {
  const swapped = join(dir, "swapped.jsonl");
  const options = join(dir, "support.json");
  const input = {
    answer: "The Eiffel Tower was completed in 1889 for the World Fair in Paris [2]. Berlin is the capital of Germany [1].",
    sources: [{ text: "The Eiffel Tower was completed in 1889 for the World Fair in Paris." }, { text: "Berlin is the capital of Germany and its largest city." }],
  };
  writeFileSync(swapped, `${JSON.stringify(input)}\n`);
  writeFileSync(options, JSON.stringify({ supportThreshold: 0.5, misattributionMargin: 0.25 }));
  const reports = ["native", "npm"].map((cli) => {
    const r = run(cli, ["check", swapped, "--json", "--options", options]);
    assert.equal(r.code, 0, `${cli}: ${r.stderr}`);
    const report = JSON.parse(r.stdout);
    delete report.timingMs;
    return report;
  });
  assert.deepEqual(reports[0], reports[1]);
  const codes = reports[0].findings.map((f) => f.code);
  assert.deepEqual(codes, ["unsupported_claim", "misattributed", "unsupported_claim", "misattributed"]);
  assert.match(reports[0].findings[1].message, /did you mean \[1\]\?/);
  assert.match(reports[0].findings[3].message, /did you mean \[2\]\?/);
  // A margin alone reports only the misattributions; by default, or with
  // `misattributionMargin: false`, claim support is off.
  writeFileSync(options, JSON.stringify({ misattributionMargin: 0.25 }));
  const plain = JSON.parse(run("native", ["check", swapped, "--json", "--options", options]).stdout);
  assert.deepEqual(plain.findings.map((f) => f.code), ["misattributed", "misattributed"]);
  const byDefault = JSON.parse(run("native", ["check", swapped, "--json"]).stdout);
  assert.deepEqual(byDefault.findings, []);
  writeFileSync(options, JSON.stringify({ misattributionMargin: false }));
  const off = ["native", "npm"].map((cli) => JSON.parse(run(cli, ["check", swapped, "--json", "--options", options]).stdout));
  for (const report of off) {
    assert.deepEqual(report.findings, []);
    assert.ok(report.citations.every((c) => c.support === undefined));
  }
});

test("the native CLI reads a stream in input order: any --jobs gives the one-thread output, and - reads stdin", () => {
  // 3,000 lines (the 20 answers again and again, blank and bad lines among them): many
  // chunks, so workers finish out of order and the writer must restore it.
  const lines = readFileSync(mixed, "utf8").split("\n");
  const many = join(dir, "many.jsonl");
  const manyLines = Array.from({ length: 3000 }, (_, i) => lines[i % lines.length]);
  writeFileSync(many, manyLines.join("\n"));
  const strip = (stdout) => stdout.replace(/"timingMs":[0-9.e+-]+/g, '"timingMs":0');
  const one = run("native", ["check", many, "--json", "--jobs", "1"]);
  assert.equal(one.code, 0, one.stderr);
  for (const jobs of ["2", "3", "8"]) {
    const several = run("native", ["check", many, "--json", "--jobs", jobs]);
    assert.equal(strip(several.stdout), strip(one.stdout), `--jobs ${jobs}`);
    assert.equal(several.stderr, one.stderr);
  }
  const table = run("native", ["check", many]).stdout.trim().split("\n").slice(1, -1);
  const numbers = table.map((row) => Number(row.trim().split(/\s+/)[0]));
  assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b), "rows in input order");
  assert.equal(numbers.length, manyLines.filter((l) => l.trim() !== "").length, "a row per non-blank line");
  for (const cli of ["native", "npm"]) {
    const piped = spawnSync(cli === "native" ? native : process.execPath, [...(cli === "native" ? [] : [npmBin]), "check", "-"], { input: readFileSync(mixed), encoding: "utf8" });
    assert.equal(comparable(piped.stdout), comparable(run(cli, ["check", mixed]).stdout), cli);
  }
  assert.match(run("native", ["check", many, "--jobs", "0"]).stderr, /--jobs: expected a positive number, got 0/);
  assert.match(run("npm", ["check", many, "--jobs", "x"]).stderr, /--jobs: expected a positive number, got x/);
});

test("an Anthropic search_result block as a source: both CLIs and validate read it alike", () => {
  // `source` the URL, `title`, the text blocks joined by a paragraph break (the quote
  // spans both blocks, as a search_result_location with end_block_index 2 would).
  const input = {
    answer: "Keys go in the header [1].",
    sources: [{
      type: "search_result", source: "https://docs.example.com/auth", title: "Auth 🔑",
      content: [{ type: "text", text: "Keys go in the header." }, { type: "text", text: "Limits: 1000 an hour." }],
      citations: { enabled: true },
    }],
    citations: [{ source: 1, quote: "Keys go in the header. Limits: 1000 an hour." }],
  };
  const file = join(dir, "search-result.jsonl");
  writeFileSync(file, `${JSON.stringify(input)}\n`);
  const reports = ["native", "npm"].map((command) => {
    const out = run(command, ["check", file, "--json"]);
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout.trim());
    delete report.timingMs;
    return report;
  });
  assert.deepEqual(reports[0], reports[1]);
  const { validate } = require(join(pkgDir, "node", "citeproof.js"));
  const direct = validate(input);
  delete direct.timingMs;
  assert.equal(direct.status, "pass");
  assert.deepEqual(direct.citations.map((c) => [c.sourceIndex, c.quote.match]), [[1, "normalized"]]);
  for (const report of reports) assert.deepEqual(report.citations, direct.citations);
});
