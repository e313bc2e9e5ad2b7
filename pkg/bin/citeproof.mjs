#!/usr/bin/env node
// citeproof check FILE.jsonl|- [--gate] [--json] [--offsets UNIT] [--options FILE.json] [--jobs N]
// The npm twin of the native CLI (src/bin/citeproof.rs): same arguments, same output.
// It reads the file (or standard input, `-`) as a stream and writes each line as it is
// validated, on one thread: `--jobs` is accepted for the same command line; the native
// binary is the one that uses every core.
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const { CitationValidator } = createRequire(import.meta.url)("../node/citeproof.js");
const USAGE = "usage: citeproof check FILE.jsonl|- [--gate] [--json] [--offsets utf16|utf8|codepoint] [--options OPTIONS.json] [--jobs N]";
const PROGRESS_ABOVE = 2000;

function fail(message, code = 2) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const argv = process.argv.slice(2);
if (argv[0] === "--version") fail(`citeproof ${JSON.parse(readFileSync(new URL("../package.json", import.meta.url))).version}`);
if (argv[0] !== "check") fail(USAGE);
let file, gate = false, json = false, offsets = "utf16", options = {};
for (let i = 1; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === "--gate") gate = true;
  else if (arg === "--json") json = true;
  else if (arg === "--offsets") offsets = argv[++i] ?? fail("--offsets needs a unit");
  else if (arg === "--options") {
    const path = argv[++i] ?? fail("--options needs a file");
    try {
      options = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      fail(`${path}: ${e.message}`);
    }
  } else if (arg === "--jobs") {
    const n = argv[++i] ?? fail("--jobs needs a number");
    if (!/^[1-9][0-9]*$/.test(n)) fail(`--jobs: expected a positive number, got ${n}`);
  } else if (arg.startsWith("--")) fail(`unknown option ${arg}\n${USAGE}`);
  else file = arg;
}
if (!file) fail(USAGE);

let validator;
try {
  validator = new CitationValidator({ ...options, offsets });
} catch (e) {
  fail(`options: ${e.message}`);
}

const input = file === "-" ? process.stdin : createReadStream(file, "utf8");
input.on("error", (e) => fail(`${file}: ${e.message}`));
const lines = createInterface({ input, crlfDelay: Infinity });
const progress = process.stderr.isTTY;
const summary = { total: 0, pass: 0, warn: 0, fail: 0, hallucinations: 0 };
let badLines = 0;
const pad = (value, width, left = false) => (left ? String(value).padEnd(width) : String(value).padStart(width));
const out = [];
const flush = () => {
  if (out.length) process.stdout.write(`${out.join("\n")}\n`);
  out.length = 0;
};
if (!json) {
  out.push(`${pad("line", 6)}  ${pad("status", 6, true)} ${pad("citations", 9)} ${pad("invalid", 7)} ${pad("hallucinations", 14)} ${pad("coverage", 8)} ${pad("confidence", 10)}`);
}
let number = 0;
for await (const line of lines) {
  number++;
  if (out.length >= 256) flush();
  if (line.trim() === "") continue;
  if (progress && number > PROGRESS_ABOVE && number % 500 === 0) process.stderr.write(`\r${number} lines`);
  let input, report;
  try {
    input = JSON.parse(line);
  } catch (e) {
    badLines++;
    const message = `input: ${e.message}`;
    out.push(json ? JSON.stringify({ error: { code: "invalid_input", message }, line: number }) : `${pad(number, 6)}  error  invalid_input: ${message}`);
    continue;
  }
  try {
    report = validator.validate(input);
  } catch (e) {
    badLines++;
    out.push(json ? JSON.stringify({ error: { code: e.code, message: e.message }, line: number }) : `${pad(number, 6)}  error  ${e.code}: ${e.message}`);
    continue;
  }
  const s = report.summary;
  summary.total++;
  summary[report.status]++;
  summary.hallucinations += s.hallucinations;
  out.push(
    json
      ? JSON.stringify(report)
      : `${pad(number, 6)}  ${pad(report.status, 6, true)} ${pad(s.total, 9)} ${pad(s.invalid, 7)} ${pad(s.hallucinations, 14)} ${pad(s.citationCoverage.toFixed(2), 8)} ${pad(report.confidence.toFixed(2), 10)}`,
  );
}
if (progress && number > PROGRESS_ABOVE) process.stderr.write("\n");
const status = badLines > 0 || summary.fail > 0 ? "fail" : summary.warn > 0 ? "warn" : "pass";
// On fail, the exit code and why: only --gate makes a failing batch exit 1 (src/bin/citeproof.rs's summary_line).
const exit = status !== "fail" ? "" : gate ? "; exit 1 (--gate)" : "; exit 0 (--gate exits 1 on fail)";
const last = `${summary.total} reports: ${summary.pass} pass, ${summary.warn} warn, ${summary.fail} fail; ${summary.hallucinations} hallucinated citations; ${badLines} unreadable lines; verdict: ${status}${exit}`;
if (json) process.stderr.write(`${last}\n`);
else out.push(last);
flush();
process.exitCode = gate && status === "fail" ? 1 : 0;
