// A stream's declared citations count in a browser as in Node (issue 34). Node's
// `citeproof` is the full module, whose `CitationStream.finish(events)` reads the events
// with the Rust adapters; a browser's is the core, whose entry's `CitationStream` reads
// them with the JS adapters (wasm/js/stream.js). Every vendored stream recording (the SSE
// bodies, and every recorded list of stream events, written out as the SSE body it came
// in) goes through `citeproofTransform` and, with the answer its adapter reads, through
// `finish(events)` and `finish(input)` in each offset unit, with no sources and with the
// sources the stream declares: both modules give the same output, report and revision.
// Declarations neither can read (a string, an over-long list, a bad Input) throw the same
// coded error from both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { pkgDir, root, tempDir } from "./helpers.mjs";
import { listFixtures, readFixture } from "../reference/providers-expect.mjs";
import { runCases } from "./stream-declared.mjs";
import { MAX_LIST_ITEMS } from "../../wasm/js/untrusted.js";

const full = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const providers = await import(pathToFileURL(join(pkgDir, "providers.js")));

/** `events` as the SSE body they came in: `event:` named by each one's `type`, `[DONE]` after Chat Completions chunks. */
function sseBody(events) {
  const blocks = events.map((e) => `${typeof e?.type === "string" ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`);
  if (events.some((e) => e?.choices !== undefined)) blocks.push("data: [DONE]\n\n");
  return blocks.join("");
}

/** Each SSE `data:` payload of `body` parsed (`[DONE]` left out). */
function sseEvents(body) {
  return body
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n"))
    .filter((data) => data && data.trim() !== "[DONE]")
    .map((data) => JSON.parse(data));
}

/** The recordings: `[name, body]`, each an SSE body. */
function recordings() {
  const dir = join(root, "tests", "fixtures", "providers");
  const sse = readdirSync(dir)
    .filter((f) => f.endsWith(".sse"))
    .map((f) => [f, readFileSync(join(dir, f), "utf8")]);
  const made = readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.includes(".expect."))
    .map((f) => [f, JSON.parse(readFileSync(join(dir, f), "utf8")).chunks])
    .filter(([, chunks]) => Array.isArray(chunks))
    .map(([f, chunks]) => [`${f} as SSE`, sseBody(chunks)]);
  const recorded = listFixtures()
    .filter((f) => f.endsWith(".chunks.txt"))
    .map((f) => [`recorded/${f} as SSE`, sseBody(readFixture(f).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)))]);
  return [...sse, ...made, ...recorded];
}

/** The cases: each recording with no sources and with its declared sources, in each unit. */
function cases() {
  const out = [];
  for (const [name, body] of recordings()) {
    const events = sseEvents(body);
    let declared = null;
    try {
      declared = providers.fromAny(events);
    } catch {
      // no adapter reads these events: the transform still runs, finish has no answer to check
    }
    const sourceLists = [[], ...(declared?.sources.length ? [declared.sources] : [])];
    for (const sources of sourceLists) {
      for (const offsets of ["utf16", "utf8", "codepoint"]) {
        const input = declared && providers.fromAny(events, sources.length ? sources : undefined, { offsets });
        out.push({
          name: `${name}, ${sources.length} sources given, ${offsets}`,
          body,
          events,
          sources,
          offsets,
          answer: declared?.answer ?? null,
          input: input ?? null,
        });
      }
    }
  }
  // Declarations neither module can read: the same error from both.
  const bad = [
    ["a string for the events", "events", null],
    ["more events than a list may hold", new Array(MAX_LIST_ITEMS + 1).fill(0), null],
    ["events nested deeper than the JSON reader takes", [{ type: "message_start", note: "é 🐈" }, Array.from({ length: 300 }).reduce((v) => [v], 1)], null],
    ["an Input whose answer is a number", null, { answer: 5, sources: [] }],
  ];
  for (const [name, events, input] of bad) {
    out.push({ name, body: "Water boils [1].", events, sources: [], offsets: "utf16", answer: "Water boils [1].", input, bad: true });
  }
  return out;
}

const all = cases();
const node = await runCases(full, all);
const dir = tempDir("citeproof-stream-declared-");
writeFileSync(join(dir, "cases.json"), JSON.stringify(all));
// The bundler entry imports its .wasm as an ES module, which Node does behind this flag.
const browser = JSON.parse(
  execFileSync(process.execPath, ["--experimental-wasm-modules", "--no-warnings", join(root, "tests", "js", "stream-declared.mjs"), join(dir, "cases.json")], {
    maxBuffer: 1 << 28,
  }).toString(),
);

test("every stream recording: the browser core's transform and finish give Node's full module's output and report", () => {
  assert.ok(all.length >= 100, `${all.length} cases`);
  assert.equal(browser.length, node.length);
  for (let i = 0; i < node.length; i++) {
    assert.deepEqual(browser[i], node[i], node[i].name);
  }
});

test("a declaration neither module can read: the same coded error from both", () => {
  const errors = all.flatMap((c, i) => (c.bad ? [[c.name, node[i].events?.error ?? node[i].input?.error]] : []));
  assert.deepEqual(
    errors.map(([name, e]) => [name, e?.code]),
    [
      ["a string for the events", "invalid_input"],
      ["more events than a list may hold", "too_large"],
      ["events nested deeper than the JSON reader takes", "invalid_input"],
      ["an Input whose answer is a number", "invalid_input"],
    ],
  );
});

test("the declared citations count: in the SSE bodies, in finish(events) and in finish(input)", () => {
  // Against the same stream finished without its events: the markers alone.
  const counted = all.filter((c, i) => {
    if (c.answer === null || c.bad) return false;
    const bare = full.validate({ answer: c.answer, sources: c.sources.length ? c.sources : [{ title: "none" }] });
    return JSON.stringify(node[i].events.report?.citations) !== JSON.stringify(bare.citations);
  });
  const names = new Set(counted.map((c) => c.name.split(",")[0]));
  for (const name of ["anthropic-stream.sse", "openai-chat-stream.sse", "recorded/anthropic-web-search.chunks.txt as SSE"]) {
    assert.ok(names.has(name), `${name} counts declared citations (counted: ${[...names].join("; ")})`);
  }
  for (const [i, c] of all.entries()) {
    if (c.answer === null || c.bad) continue;
    // An adapter's Input and the events it was made of are the same declaration.
    assert.deepEqual(node[i].input, node[i].events, c.name);
  }
  // The transform's report counts them too: Anthropic's citations_delta, OpenAI's annotations.
  for (const name of ["anthropic-stream.sse", "openai-chat-stream.sse"]) {
    const i = all.findIndex((c) => c.name.startsWith(`${name}, 0 sources given, utf16`));
    const declared = node[i].transform.report.citations.filter((c) => c.declared != null);
    assert.ok(declared.length > 0, `${name}: ${JSON.stringify(node[i].transform.report.citations).slice(0, 300)}`);
    assert.deepEqual(browser[i].transform.report.citations, node[i].transform.report.citations, name);
  }
});
