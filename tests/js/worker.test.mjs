// The edge worker (examples/edge-worker) under workerd (`wrangler dev`, local) on
// 127.0.0.1, in front of a mock upstream replaying OpenAI and Anthropic responses (JSON
// and SSE; good, warn-level and bad citations; slow and failing).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { root, startWrangler, tempDir } from "./helpers.mjs";

const sources = [
  { title: "Boiling point", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
  { title: "Moon", url: "https://example.org/moon", text: "The Moon orbits the Earth." },
];
const ANSWERS = {
  good: "Water boils at 100 °C at sea level [1]. Tokyo is the capital of Japan [2].",
  warn: "Water boils at 100 °C [1]. Tokyo is Japan's capital [2]. The Moon orbits the Earth [3]. Again, water boils [1]. Cheese [9].",
  bad: "The Moon is made of cheese [7]. Water boils at 50 °C [9].",
};

/** Which answer the mock gives: by the scenario word in the first user message and the attempt. */
function answerFor(scenario, attempt) {
  if (scenario === "REPAIR") return attempt === 0 ? ANSWERS.bad : ANSWERS.good;
  if (scenario === "REJECT" || scenario === "STREAMFAIL") return ANSWERS.bad;
  if (scenario === "WARN") return ANSWERS.warn;
  return ANSWERS.good;
}

const pieces = (text) => text.match(/.{1,7}/gsu);
function openaiBody(text, stream) {
  if (!stream) return JSON.stringify({ id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }] });
  return [
    ...pieces(text).map((content) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`),
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
    "data: [DONE]\n\n",
  ].join("");
}
function anthropicBody(text, stream) {
  if (!stream) return JSON.stringify({ id: "m1", type: "message", role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" });
  return [
    ["message_start", { type: "message_start", message: { id: "m1", role: "assistant", content: [] } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ...pieces(text).map((t) => ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } }]),
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" } }],
    ["message_stop", { type: "message_stop" }],
  ].map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

const calls = [];
const mock = createServer(async (req, res) => {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw);
  calls.push({ path: req.url, body });
  const firstUser = body.messages.find((m) => m.role === "user")?.content ?? "";
  const scenario = /\b(PASS|WARN|REPAIR|REJECT|SLOW|FAIL500|STREAMFAIL|UPSOURCES)\b/.exec(firstUser)?.[1] ?? "PASS";
  const attempt = body.messages.filter((m) => m.role === "assistant").length;
  if (scenario === "FAIL500") return res.writeHead(500).end("upstream broke");
  if (scenario === "SLOW") await new Promise((r) => setTimeout(r, 2500));
  const text = answerFor(scenario, attempt);
  const anthropic = req.url === "/anthropic";
  let payload = anthropic ? anthropicBody(text, body.stream) : openaiBody(text, body.stream);
  if (scenario === "UPSOURCES") payload = JSON.stringify({ ...JSON.parse(payload), sources }); // a RAG backend's response
  res.writeHead(200, { "content-type": body.stream ? "text/event-stream" : "application/json" });
  res.end(payload);
});

let openaiWorker;
let anthropicWorker;
before(async () => {
  await new Promise((resolve) => mock.listen(0, "127.0.0.1", resolve));
  const upstream = `http://127.0.0.1:${mock.address().port}`;
  const dir = join(root, "examples", "edge-worker");
  [openaiWorker, anthropicWorker] = await Promise.all([
    startWrangler(dir, { vars: { UPSTREAM_URL: `${upstream}/openai`, UPSTREAM_FORMAT: "openai", UPSTREAM_TIMEOUT_MS: "1000" }, probe: "/metrics" }),
    startWrangler(dir, { vars: { UPSTREAM_URL: `${upstream}/anthropic`, UPSTREAM_FORMAT: "anthropic", UPSTREAM_TIMEOUT_MS: "1000" }, probe: "/metrics" }),
  ]);
});

after(async () => {
  openaiWorker?.stop();
  anthropicWorker?.stop();
  await new Promise((resolve) => mock.close(resolve));
});

const chat = (worker, question, extra = {}) =>
  fetch(`${worker.url}/v1/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question, sources, ...extra }) });

/** The audit records the worker logged, parsed. */
const audits = (worker) =>
  worker.log().split("\n").filter((l) => l.includes('{"citeproof_audit"')).map((l) => JSON.parse(l.slice(l.indexOf("{"))).citeproof_audit);

/** The audit record with `id`, once the worker's log line has arrived (it lags the response). */
async function auditOf(worker, id) {
  for (let i = 0; i < 50; i++) {
    const record = audits(worker).find((a) => a.audit_id === id);
    if (record) return record;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no audit record ${id} in the worker log`);
}

for (const [name, worker] of [["OpenAI", () => openaiWorker], ["Anthropic", () => anthropicWorker]]) {
  test(`${name} upstream: pass forwards the cleaned answer with citations and confidence`, async () => {
    const res = await chat(worker(), "PASS: when does water boil?");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-citeproof-status"), "pass");
    const body = await res.json();
    assert.equal(body.answer, ANSWERS.good);
    assert.equal(body.status, "pass");
    assert.deepEqual(body.citations.map((c) => [c.label, c.title, c.url]), [["[1]", "Boiling point", "https://example.org/boil"], ["[2]", "Japan", "https://example.org/japan"]]);
    assert.ok(body.confidence > 0 && body.confidence <= 1);
    const record = await auditOf(worker(), body.audit_id);
    assert.equal(record.validation_result.status, "PASS");
    assert.equal(record.query, "PASS: when does water boil?");
  });

  test(`${name} upstream: stream passes cleaned SSE through and ends with a citations event`, async () => {
    const res = await chat(worker(), "PASS streaming", { stream: true });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const text = await res.text();
    assert.match(text, /event: citations\ndata: /);
    const payload = JSON.parse(/event: citations\ndata: (.*)\n/.exec(text)[1]);
    assert.equal(payload.report.cleanedAnswer, ANSWERS.good);
    assert.doesNotMatch(text, /event: rejected/);
  });
}

test("warn forwards the answer with its findings and x-citeproof-status: warn", async () => {
  const res = await chat(openaiWorker, "WARN: several facts");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-citeproof-status"), "warn");
  const body = await res.json();
  assert.equal(body.status, "warn");
  assert.ok(!body.answer.includes("[9]"), "the invalid marker was cleaned");
  assert.deepEqual(body.findings.map((f) => f.code), ["out_of_range"]);
});

test("fail -> one repair round with repairPrompt -> pass", async () => {
  calls.length = 0;
  const res = await chat(openaiWorker, "REPAIR: tell me about water");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-citeproof-repaired"), "1");
  assert.equal((await res.json()).answer, ANSWERS.good);
  assert.equal(calls.length, 2);
  const retry = calls[1].body.messages;
  assert.equal(retry.at(-2).role, "assistant");
  assert.equal(retry.at(-2).content, ANSWERS.bad);
  assert.match(retry.at(-1).content, /source 7 does not exist/, "the repair prompt names the failed citation");
});

test("fail -> repair -> still fail -> 422 with spec 001's rejection", async () => {
  calls.length = 0;
  const res = await chat(anthropicWorker, "REJECT: tell me about the moon");
  assert.equal(res.status, 422);
  const body = await res.json();
  assert.equal(body.status, "rejected");
  assert.ok(body.reason && body.suggestion && body.audit_id);
  assert.equal(calls.length, 2);
  const record = await auditOf(anthropicWorker, body.audit_id);
  assert.equal(record.validation_result.status, "REJECT");
});

test("a stream that ends in fail ends with a rejection event", async () => {
  const res = await chat(openaiWorker, "STREAMFAIL please", { stream: true });
  const text = await res.text();
  const rejected = /event: rejected\ndata: (.*)\n/.exec(text);
  assert.ok(rejected, text);
  assert.equal(JSON.parse(rejected[1]).status, "rejected");
  assert.ok(text.indexOf("event: citations") < text.indexOf("event: rejected"));
});

test("OpenAI-compatible /v1/chat/completions: the response keeps its shape, cleaned, plus `citeproof`", async () => {
  const res = await fetch(`${openaiWorker.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-x", temperature: 0.2, messages: [{ role: "user", content: "WARN completions" }], sources }),
  });
  const body = await res.json();
  const sent = calls.at(-1).body;
  assert.deepEqual([sent.model, sent.temperature, sent.sources], ["gpt-x", 0.2, undefined], "other parameters go upstream, sources do not");
  assert.equal(body.object, "chat.completion");
  assert.ok(!body.choices[0].message.content.includes("[9]"));
  assert.equal(body.citeproof.status, "warn");
});

test("without sources in the request, the upstream response's `sources` are used", async () => {
  const res = await fetch(`${anthropicWorker.url}/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ question: "UPSOURCES: water" }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.status, "pass");
  assert.deepEqual(body.citations.map((c) => c.title), ["Boiling point", "Japan"]);
});

test("bad requests are 400 with spec 000 findings", async () => {
  const empty = await chat(openaiWorker, "   ");
  assert.equal(empty.status, 400);
  assert.ok((await empty.json()).findings.some((f) => f.code === "request_invalid"));
  const long = await chat(openaiWorker, "x".repeat(2001));
  assert.equal(long.status, 400);
  const notJson = await fetch(`${openaiWorker.url}/v1/chat`, { method: "POST", body: "{" });
  assert.equal(notJson.status, 400);
  assert.equal((await fetch(`${openaiWorker.url}/nope`)).status, 404);
});

test("upstream 500 -> 502 and a timeout -> 504, each with an audit record", async () => {
  const broken = await chat(openaiWorker, "FAIL500 now");
  assert.equal(broken.status, 502);
  const brokenId = (await broken.json()).audit_id;
  const slow = await chat(openaiWorker, "SLOW answer");
  assert.equal(slow.status, 504);
  const slowId = (await slow.json()).audit_id;
  assert.equal((await auditOf(openaiWorker, brokenId)).validation_result.status, "ERROR");
  assert.match((await auditOf(openaiWorker, slowId)).error, /within 1000 ms/);
});

test("/metrics serves valid Prometheus text counting this isolate's validations", async () => {
  const text = await (await fetch(`${openaiWorker.url}/metrics`)).text();
  execFileSync("promtool", ["check", "metrics"], { input: text });
  assert.match(text, /citation_validation_total\{status="pass"\} [1-9]/);
  assert.match(text, /citeproof_upstream_errors_total\{kind="timeout"\} 1/);
});

test("with a KV binding, every audit record is also stored under audit:<id>", async () => {
  // The same worker with a KV namespace (wrangler simulates it locally, no network).
  const dir = tempDir("citeproof-kv-");
  const worker = join(root, "examples", "edge-worker");
  writeFileSync(
    join(dir, "wrangler.toml"),
    [
      'name = "citeproof-kv"',
      `main = ${JSON.stringify(join(worker, "src", "index.js"))}`,
      'compatibility_date = "2025-01-01"',
      "[alias]",
      `"citeproof" = ${JSON.stringify(join(root, "pkg", "workerd.js"))}`,
      "[[kv_namespaces]]",
      'binding = "AUDIT_KV"',
      'id = "audit"',
    ].join("\n") + "\n",
  );
  const upstream = `http://127.0.0.1:${mock.address().port}/openai`;
  const kvWorker = await startWrangler(dir, { vars: { UPSTREAM_URL: upstream }, probe: "/metrics" });
  try {
    const body = await (await chat(kvWorker, "PASS with KV")).json();
    const stored = execFileSync(join(root, "node_modules", ".bin", "wrangler"), ["kv", "key", "get", `audit:${body.audit_id}`, "--binding", "AUDIT_KV", "--local", "--persist-to", kvWorker.state], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    });
    const record = JSON.parse(stored.slice(stored.indexOf("{")));
    assert.equal(record.audit_id, body.audit_id);
    assert.equal(record.validation_result.status, "PASS");
    assert.deepEqual(record, await auditOf(kvWorker, body.audit_id), "the KV copy is the logged record");
  } finally {
    kvWorker.stop();
  }
});

test("one audit line per request", async () => {
  // On the OpenAI worker: pass, stream, warn, repair, stream-fail, completions, three bad
  // requests, upstream 500 and timeout; /metrics and 404s are not requests to audit.
  const expected = 11;
  for (let i = 0; i < 50 && audits(openaiWorker).length < expected; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 300));
  const records = audits(openaiWorker);
  assert.equal(records.length, expected, records.map((r) => r.validation_result.status).join());
  assert.equal(new Set(records.map((r) => r.audit_id)).size, expected);
  assert.equal(records.filter((r) => r.validation_result.status === "INVALID_REQUEST").length, 3);
});
