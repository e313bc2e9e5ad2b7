// The edge worker (examples/edge-worker) under workerd (`wrangler dev`, local) on
// 127.0.0.1, in front of a mock upstream replaying OpenAI and Anthropic responses (JSON
// and SSE; good, warn-level and bad citations; slow and failing) and serving a Cloudflare
// Access team's signing keys. Callers need a credential (bearer token or Access JWT);
// bodies, request rates and browser origins are limited; no secret reaches a log or a
// response (the secrets below are distinctive so that a leak anywhere is found).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { createServer, request as httpRequest } from "node:http";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pkgDir, root, startWrangler, tempDir } from "./helpers.mjs";
import OpenAI from "openai";

const pkg = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

const CALLER_TOKEN = "caller-TOKEN-q7Zx81-do-not-log";
const UPSTREAM_KEY = "sk-UPSTREAM-KEY-m4Kp29-do-not-log";
const METRICS_TOKEN = "metrics-TOKEN-w8Rt55-do-not-log";
// The load worker's callers: two polite ones, one over its limit, one for the 429 test.
const LOAD_TOKENS = ["load-A-TOKEN-c3Vb70", "load-B-TOKEN-h6Nq12", "load-HAMMER-TOKEN-p2Lw94", "load-R-TOKEN-t5Jd33"];
const SECRETS = [CALLER_TOKEN, UPSTREAM_KEY, METRICS_TOKEN, ...LOAD_TOKENS];
const ORIGIN = "https://app.example.test";
const TEAM = "citeproof-test.cloudflareaccess.com";
const ACCESS_AUD = "citeproof-aud-4f1e";
const bearer = (token = CALLER_TOKEN) => ({ authorization: `Bearer ${token}` });
/** The identity the worker gives a token: its SHA-256 hash prefix. */
const tokenCaller = (token) => `token:${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;

// Every response the tests receive (status line, headers and body), for the leak check.
const responses = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const res = await realFetch(...args);
  const head = `${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}`;
  responses.push(res.clone().text().then((body) => `${head}\n${body}`, () => head));
  return res;
};

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

/**
 * What a model that obeys the repair prompt sends: the prompt ends with the one JSON
 * object it asks for, whose `answer` the mock fills with the corrected answer. Fails the
 * request (500) when the prompt names no shape to obey.
 */
function obeyRepairPrompt(prompt, answer) {
  const shape = /Return ONLY JSON, exactly this object and nothing before or after it: (\{.*\})$/.exec(prompt)?.[1];
  if (!shape) return null;
  return JSON.stringify({ ...JSON.parse(shape), answer });
}

/** Which answer the mock gives: by the scenario word in the first user message, the attempt and, repairing, the prompt. */
function answerFor(scenario, attempt, prompt) {
  if (attempt > 0 && /^REPAIR/.test(scenario)) {
    if (scenario === "REPAIRPLAIN") return ANSWERS.good; // ignores the format, rewrites the answer
    if (scenario === "REPAIRWRONG") return JSON.stringify({ response: ANSWERS.good }); // JSON of another shape
    const obeyed = obeyRepairPrompt(prompt, ANSWERS.good);
    return scenario === "REPAIRFENCE" && obeyed ? `\`\`\`json\n${obeyed}\n\`\`\`` : obeyed;
  }
  if (/^REPAIR/.test(scenario)) return ANSWERS.bad;
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

// The Access team's key pair; the mock serves the public half as the team's certs.
const accessKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ACCESS_KID = "test-kid-1";
const certs = JSON.stringify({ keys: [{ ...accessKeys.publicKey.export({ format: "jwk" }), kid: ACCESS_KID, alg: "RS256", use: "sig" }] });

const calls = [];
let certsServed = 0;
const RECORDED_EVENTS = readFileSync(join(root, "tests", "fixtures", "providers", "recorded", "anthropic-web-search.chunks.txt"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

const mock = createServer(async (req, res) => {
  if (req.url === "/certs") {
    certsServed += 1;
    return res.writeHead(200, { "content-type": "application/json" }).end(certs);
  }
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw);
  calls.push({ path: req.url, body, headers: req.headers });
  const firstUser = body.messages.find((m) => m.role === "user")?.content ?? "";
  const scenario = /\b(PASS|WARN|REPAIR|REPAIRFENCE|REPAIRPLAIN|REPAIRWRONG|REJECT|SLOW|FAIL500|STREAMFAIL|UPSOURCES|RECORDED)\b/.exec(firstUser)?.[1] ?? "PASS";
  if (scenario === "RECORDED" && body.stream) {
    // A web-search answer as Anthropic streamed it (tests/fixtures/providers/recorded).
    res.writeHead(200, { "content-type": "text/event-stream" });
    return res.end(RECORDED_EVENTS.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
  }
  const attempt = body.messages.filter((m) => m.role === "assistant").length;
  if (scenario === "FAIL500") return res.writeHead(500).end("upstream broke");
  if (scenario === "SLOW") await new Promise((r) => setTimeout(r, 2500));
  const text = answerFor(scenario, attempt, body.messages.at(-1)?.content ?? "");
  if (text === null) return res.writeHead(500).end("the repair prompt names no shape to return");
  const anthropic = req.url === "/anthropic";
  let payload = anthropic ? anthropicBody(text, body.stream) : openaiBody(text, body.stream);
  if (scenario === "UPSOURCES") payload = JSON.stringify({ ...JSON.parse(payload), sources }); // a RAG backend's response
  res.writeHead(200, { "content-type": body.stream ? "text/event-stream" : "application/json" });
  res.end(payload);
});

/** The worker's config in `dir`, with `lines` added (bindings), for workers the repo's config does not describe. */
function workerConfig(name, lines) {
  const dir = tempDir(`citeproof-${name}-`);
  const worker = join(root, "examples", "edge-worker");
  writeFileSync(
    join(dir, "wrangler.toml"),
    [
      `name = "citeproof-${name}"`,
      `main = ${JSON.stringify(join(worker, "src", "index.js"))}`,
      'compatibility_date = "2025-01-01"',
      "[alias]",
      `"citeproof" = ${JSON.stringify(join(root, "pkg", "workerd.js"))}`,
      ...lines,
    ].join("\n") + "\n",
  );
  return dir;
}

// The load worker's limit: 40 chat requests per 10 s per caller; the limits worker's body limit.
const LOAD_LIMIT = 40;
const LOAD_PERIOD = 10;
const LIMITS_MAX_BODY = 4096;

let openaiWorker;
let anthropicWorker;
let unsetWorker; // no credential configured
let devWorker; // ALLOW_UNAUTHENTICATED = "dev-only"
let loadWorker; // four callers, a low rate limit
let limitsWorker; // a small MAX_BODY_BYTES
const workers = []; // every worker started: stopped after, their logs checked for secrets
const track = (worker) => (workers.push(worker), worker);
before(async () => {
  await new Promise((resolve) => mock.listen(0, "127.0.0.1", resolve));
  const upstream = `http://127.0.0.1:${mock.address().port}`;
  const dir = join(root, "examples", "edge-worker");
  const secured = {
    CALLER_TOKEN,
    UPSTREAM_API_KEY: UPSTREAM_KEY,
    UPSTREAM_TIMEOUT_MS: "1000",
    ALLOWED_ORIGINS: `https://other.example.test, ${ORIGIN}`,
    ACCESS_TEAM_DOMAIN: TEAM,
    ACCESS_AUD,
    ACCESS_CERTS_URL: `${upstream}/certs`,
  };
  const uncredentialed = { UPSTREAM_API_KEY: UPSTREAM_KEY, UPSTREAM_URL: `${upstream}/openai` };
  const plain = { ...uncredentialed, CALLER_TOKEN };
  const loadDir = workerConfig("load", ["[[ratelimits]]", 'name = "RATE_LIMITER"', 'namespace_id = "2002"', `simple = { limit = ${LOAD_LIMIT}, period = ${LOAD_PERIOD} }`]);
  const start = (path, vars) => startWrangler(path, { vars, probe: "/metrics" }).then(track);
  [openaiWorker, anthropicWorker, unsetWorker, devWorker, loadWorker, limitsWorker] = await Promise.all([
    start(dir, { ...secured, METRICS_TOKEN, UPSTREAM_URL: `${upstream}/openai`, UPSTREAM_FORMAT: "openai" }),
    start(dir, { ...secured, UPSTREAM_URL: `${upstream}/anthropic`, UPSTREAM_FORMAT: "anthropic" }),
    start(dir, uncredentialed),
    start(dir, { ...uncredentialed, ALLOW_UNAUTHENTICATED: "dev-only" }),
    start(loadDir, { ...plain, CALLER_TOKEN: LOAD_TOKENS.join(","), RATE_LIMIT_PERIOD: String(LOAD_PERIOD) }),
    start(dir, { ...plain, MAX_BODY_BYTES: String(LIMITS_MAX_BODY) }),
  ]);
});

after(async () => {
  for (const worker of workers) worker.stop();
  await new Promise((resolve) => mock.close(resolve));
});

const chat = (worker, question, extra = {}, headers = bearer()) =>
  fetch(`${worker.url}/v1/chat`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ question, sources, ...extra }) });

/** The audit lines the worker logged, parsed: `{ citeproof_audit, caller }`. */
const auditLines = (worker) =>
  worker.log().split("\n").filter((l) => l.includes('{"citeproof_audit"')).map((l) => JSON.parse(l.slice(l.indexOf("{"))));

/** The audit records the worker logged. */
const audits = (worker) => auditLines(worker).map((l) => l.citeproof_audit);

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
    assert.doesNotMatch(text, /citation_rejected/);
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

for (const [name, worker] of [["OpenAI", () => openaiWorker], ["Anthropic", () => anthropicWorker]]) {
  test(`${name} upstream: fail -> one repair round -> the model obeys the prompt's JSON shape -> its answer is read and forwarded`, async () => {
    for (const scenario of ["REPAIR", "REPAIRFENCE"]) {
      calls.length = 0;
      const res = await chat(worker(), `${scenario}: tell me about water`);
      assert.equal(res.status, 200, scenario);
      assert.equal(res.headers.get("x-citeproof-repaired"), "1");
      assert.equal(res.headers.get("x-citeproof-status"), "pass");
      const body = await res.json();
      assert.equal(body.answer, ANSWERS.good, "the answer inside the JSON, not the JSON");
      assert.equal(body.status, "pass");
      assert.equal(calls.length, 2);
      const retry = calls[1].body.messages;
      assert.equal(retry.at(-2).role, "assistant");
      assert.equal(retry.at(-2).content, ANSWERS.bad);
      assert.match(retry.at(-1).content, /source 7 does not exist/, "the repair prompt names the failed citation");
      const record = await auditOf(worker(), body.audit_id);
      assert.equal(record.validation_result.status, "PASS");
    }
  });
}

test("a repaired reply in plain text is read as the answer; JSON of another shape is never forwarded", async () => {
  const plain = await chat(openaiWorker, "REPAIRPLAIN: tell me about water");
  assert.equal(plain.status, 200);
  assert.equal((await plain.json()).answer, ANSWERS.good);
  const wrong = await chat(openaiWorker, "REPAIRWRONG: tell me about water");
  assert.equal(wrong.status, 422, "no answer can be read from it: the first answer's failure stands");
  const body = await wrong.json();
  assert.equal(body.status, "rejected");
  assert.ok(!JSON.stringify(body).includes('"response"'), "the reply is not passed on");
  assert.match(body.reason, /source 7 does not exist/);
});

test("/metrics counts the model's answers before repair, the answers as they ended, and the repairs", async () => {
  const read = async () => {
    const text = await (await fetch(`${anthropicWorker.url}/metrics`, { headers: bearer() })).text();
    execFileSync("promtool", ["check", "metrics"], { input: text });
    const value = (line) => Number(new RegExp(`^${line.replace(/[{}]/g, "\\$&")} (\\d+)$`, "m").exec(text)?.[1]);
    return {
      modelFail: value('citation_model_validation_total{status="fail"}'),
      modelHallucinations: value("citation_model_hallucinations_total"),
      pass: value('citation_validation_total{status="pass"}'),
      fail: value('citation_validation_total{status="fail"}'),
      hallucinations: value("citation_hallucinations_total"),
      repairedPass: value('citation_repairs_total{status="pass"}'),
      repairedFail: value('citation_repairs_total{status="fail"}'),
    };
  };
  const before = await read();
  const n = 8;
  for (let i = 0; i < n; i++) assert.equal((await chat(anthropicWorker, `REPAIR: water ${i}`)).status, 200);
  assert.equal((await chat(anthropicWorker, "REJECT: the moon")).status, 422);
  const after = await read();
  const delta = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
  // Each first answer cites two sources that do not exist ([7], [9]): the model's
  // hallucinations are counted although the repaired answers forwarded have none.
  assert.deepEqual(delta, {
    modelFail: n + 1,
    modelHallucinations: 2 * (n + 1),
    pass: n,
    fail: 1,
    hallucinations: 2,
    repairedPass: n,
    repairedFail: 1,
  });
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

/**
 * The chunks an OpenAI SDK hands over from an SSE body, as openai-node's `Stream`
 * (`fromSSEResponse`) and openai-python's `Stream.__stream__` read it: events up to
 * `data: [DONE]`, where they stop; every other event's data is a JSON chunk, and one that
 * carries `error` throws (as `APIError`) instead of being handed over.
 */
function openaiClientChunks(sse) {
  const chunks = [];
  for (const block of sse.split("\n\n")) {
    const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
    if (!data) continue;
    if (data.startsWith("[DONE]")) return { chunks, done: true };
    const chunk = JSON.parse(data);
    if (chunk?.error) return { chunks, error: chunk.error };
    chunks.push(chunk);
  }
  return { chunks, done: false };
}

/**
 * What an Anthropic SDK does with an SSE body (anthropic-sdk-typescript's and -python's
 * `Stream`): `message_*` and `content_block_*` events are handed over, `ping` and unknown
 * events skipped, and `event: error` throws.
 */
function anthropicClientEvents(sse) {
  const events = [];
  for (const block of sse.split("\n\n")) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event === "error") return { events, error: JSON.parse(data).error };
    if (/^(message|content_block)_/.test(event ?? "")) events.push(JSON.parse(data));
  }
  return { events };
}

test("a stream that ends in fail: the verdict comes before [DONE], as a chunk OpenAI clients read and throw on", async () => {
  const res = await chat(openaiWorker, "STREAMFAIL please", { stream: true });
  const text = await res.text();
  const { chunks, error } = openaiClientChunks(text);
  assert.ok(error, `an OpenAI client stops with an error before [DONE]: ${text}`);
  assert.equal(error.type, "citation_rejected");
  assert.match(error.message, /Unable to verify citation/);
  const verdict = JSON.parse(/^data: (\{.*"citeproof".*\})$/m.exec(text)[1]).citeproof;
  assert.equal(verdict.status, "fail");
  assert.equal(verdict.rejection.status, "rejected");
  assert.ok(verdict.audit_id && verdict.rejection.audit_id === verdict.audit_id);
  assert.ok(text.indexOf('"citeproof"') < text.indexOf("data: [DONE]"), "before the end marker");
  assert.ok(text.indexOf("event: citations") < text.indexOf('"citeproof"'));
  assert.ok(chunks.some((c) => c.choices?.[0]?.delta?.content), "the answer's chunks came before");
  assert.equal((await auditOf(openaiWorker, verdict.audit_id)).validation_result.status, "REJECT");
});

test("a passing stream's verdict comes before [DONE] as a chunk with no choices and `citeproof`", async () => {
  const text = await (await chat(openaiWorker, "PASS streaming verdict", { stream: true })).text();
  const { chunks, done, error } = openaiClientChunks(text);
  assert.ok(done && !error);
  const verdicts = chunks.filter((c) => c.citeproof);
  assert.equal(verdicts.length, 1);
  assert.deepEqual(verdicts[0].choices, []);
  assert.equal(verdicts[0].object, "chat.completion.chunk");
  assert.equal(verdicts[0].citeproof.status, "pass");
  assert.equal(chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join(""), ANSWERS.good);
});

test("an Anthropic stream that ends in fail: an error event before message_stop, which Anthropic clients throw on", async () => {
  const text = await (await chat(anthropicWorker, "STREAMFAIL please", { stream: true })).text();
  const { events, error } = anthropicClientEvents(text);
  assert.ok(error, text);
  assert.equal(error.type, "citation_rejected");
  assert.ok(!events.some((e) => e.type === "message_stop"), "the error comes before message_stop");
  assert.ok(text.indexOf("event: error") < text.indexOf("event: message_stop"));
  const rejection = JSON.parse(/^event: error\ndata: (.*)$/m.exec(text)[1]).citeproof;
  assert.equal(rejection.status, "rejected");
});

test("OpenAI-compatible /v1/chat/completions: the response keeps its shape, cleaned, plus `citeproof`", async () => {
  const res = await fetch(`${openaiWorker.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer() },
    body: JSON.stringify({ model: "gpt-x", temperature: 0.2, messages: [{ role: "user", content: "WARN completions" }], sources }),
  });
  const body = await res.json();
  const sent = calls.at(-1).body;
  assert.deepEqual([sent.model, sent.temperature, sent.sources], ["gpt-x", 0.2, undefined], "other parameters go upstream, sources do not");
  assert.equal(body.object, "chat.completion");
  assert.ok(!body.choices[0].message.content.includes("[9]"));
  assert.equal(body.citeproof.status, "warn");
});

/** The real `openai` SDK pointed at the worker's OpenAI-compatible endpoint, as an app configures it. */
const openaiSdk = () => new OpenAI({ apiKey: CALLER_TOKEN, baseURL: `${openaiWorker.url}/v1`, maxRetries: 0 });
/** A chat request as an app sends it through the SDK, with the sources the worker checks against. */
const sdkRequest = (content, extra = {}) => ({ model: "gpt-x", messages: [{ role: "user", content }], sources, ...extra });

test("the openai SDK, not streamed: a repaired answer reads right as choices[0].message.content, with its verdict and x-citeproof-repaired", async () => {
  const { data, response } = await openaiSdk().chat.completions.create(sdkRequest("REPAIR: water via the SDK")).withResponse();
  assert.equal(data.choices[0].message.content, ANSWERS.good, "the answer inside the repair JSON, not the JSON");
  assert.equal(data.citeproof.status, "pass");
  assert.deepEqual(data.citeproof.citations.map((c) => c.label), ["[1]", "[2]"]);
  assert.equal(response.headers.get("x-citeproof-repaired"), "1");
  assert.equal(response.headers.get("x-citeproof-status"), "pass");
  // A rejected answer is the SDK's 422 error, with the rejection's reason.
  await assert.rejects(openaiSdk().chat.completions.create(sdkRequest("REJECT: the moon via the SDK")), (error) => {
    assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
    assert.match(JSON.stringify(error.error ?? error.message), /source 7 does not exist/);
    return true;
  });
});

test("the openai SDK, streamed: every chunk it yields is a chat.completion.chunk, and the verdict is one of them, before the end", async () => {
  const stream = await openaiSdk().chat.completions.create(sdkRequest("PASS: water via the SDK", { stream: true }));
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  // What apps write (the SDK's README): a chunk that is not a completion chunk throws here.
  const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
  assert.equal(text, ANSWERS.good);
  assert.ok(chunks.every((c) => c.object === "chat.completion.chunk" && Array.isArray(c.choices)), JSON.stringify(chunks.filter((c) => !c.choices)));
  const verdicts = chunks.filter((c) => c.citeproof);
  assert.equal(verdicts.length, 1, "the SDK stops at [DONE]: it yielded the verdict, so the verdict came before");
  assert.equal(verdicts[0].citeproof.status, "pass");
  assert.deepEqual(verdicts[0].citeproof.citations.map((c) => c.label), ["[1]", "[2]"]);
});

test("the openai SDK, streamed, an answer that fails: the answer's chunks, then the SDK throws the rejection before the end", async () => {
  const stream = await openaiSdk().chat.completions.create(sdkRequest("STREAMFAIL via the SDK", { stream: true }));
  const seen = [];
  await assert.rejects(
    (async () => {
      for await (const chunk of stream) seen.push(chunk);
    })(),
    (error) => {
      assert.ok(error instanceof OpenAI.APIError, String(error));
      assert.equal(error.type, "citation_rejected");
      assert.match(error.message, /Unable to verify citation/);
      return true;
    },
  );
  assert.ok(seen.some((c) => c.choices[0]?.delta?.content), "the answer's text came first");
  assert.ok(seen.every((c) => Array.isArray(c.choices)));
});

test("without sources in the request, the upstream response's `sources` are used", async () => {
  const res = await fetch(`${anthropicWorker.url}/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer() },
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
  const notJson = await fetch(`${openaiWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: "{" });
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
  const text = await (await fetch(`${openaiWorker.url}/metrics`, { headers: bearer(METRICS_TOKEN) })).text();
  execFileSync("promtool", ["check", "metrics"], { input: text });
  assert.match(text, /citation_validation_total\{status="pass"\} [1-9]/);
  assert.match(text, /citeproof_upstream_errors_total\{kind="timeout"\} 1/);
});

// ---- Access: who may call ----

/** A POST /v1/chat the tests send raw (node:http), to set what fetch will not: Host. */
function rawPost(worker, { headers = {}, body = "" } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${worker.url}/v1/chat`, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        responses.push(Promise.resolve(`${res.statusCode} ${JSON.stringify(res.headers)}\n${text}`));
        resolve({ status: res.statusCode, headers: res.headers, text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("no credential -> 401 with www-authenticate: Bearer; a wrong one -> 403; neither reaches the upstream", async () => {
  const before = calls.length;
  const none = await chat(openaiWorker, "PASS without a token", {}, {});
  assert.equal(none.status, 401);
  assert.match(none.headers.get("www-authenticate"), /^Bearer\b/);
  assert.equal((await none.json()).error, "unauthenticated");
  const basic = await chat(openaiWorker, "PASS with basic auth", {}, { authorization: "Basic dXNlcjpwYXNz" });
  assert.equal(basic.status, 401);
  for (const token of ["wrong-token", `${CALLER_TOKEN}x`, CALLER_TOKEN.slice(0, -1), METRICS_TOKEN]) {
    const wrong = await chat(openaiWorker, "PASS with a wrong token", {}, bearer(token));
    assert.equal(wrong.status, 403, token);
    assert.equal((await wrong.json()).error, "forbidden");
  }
  const completions = await fetch(`${openaiWorker.url}/v1/chat/completions`, { method: "POST", body: "{}" });
  assert.equal(completions.status, 401);
  assert.equal(calls.length, before, "no upstream call for a refused request");
});

test("/metrics takes METRICS_TOKEN alone when it is set, else a caller's credential", async () => {
  assert.equal((await fetch(`${openaiWorker.url}/metrics`)).status, 401);
  assert.equal((await fetch(`${openaiWorker.url}/metrics`, { headers: bearer() })).status, 403, "a caller's token cannot read metrics once METRICS_TOKEN is set");
  assert.equal((await fetch(`${openaiWorker.url}/metrics`, { headers: bearer(METRICS_TOKEN) })).status, 200);
  assert.equal((await fetch(`${anthropicWorker.url}/metrics`, { headers: bearer() })).status, 200);
  assert.equal((await fetch(`${anthropicWorker.url}/metrics`, { headers: bearer(METRICS_TOKEN) })).status, 403);
});

test("with no caller credential configured the worker refuses to serve: 500 naming CALLER_TOKEN", async () => {
  for (const [path, init] of [["/metrics", {}], ["/v1/chat", { method: "POST", headers: bearer(), body: "{}" }], ["/v1/chat/completions", { method: "POST", body: "{}" }]]) {
    const res = await fetch(`${unsetWorker.url}${path}`, init);
    assert.equal(res.status, 500, path);
    const body = await res.json();
    assert.equal(body.error, "not_configured");
    assert.match(body.message, /wrangler secret put CALLER_TOKEN/);
  }
});

test('ALLOW_UNAUTHENTICATED="dev-only" serves without a credential on loopback only', async () => {
  const local = await chat(devWorker, "PASS in local development", {}, {});
  assert.equal(local.status, 200);
  const id = (await local.json()).audit_id;
  await auditOf(devWorker, id);
  assert.equal(auditLines(devWorker).find((l) => l.citeproof_audit.audit_id === id).caller, "anonymous");
  // The same worker reached under a deployed hostname refuses to serve.
  const deployed = await rawPost(devWorker, { headers: { host: "citeproof-edge.example.workers.dev", "content-type": "application/json" }, body: JSON.stringify({ question: "PASS deployed", sources }) });
  assert.equal(deployed.status, 500);
  assert.match(JSON.parse(deployed.text).message, /dev-only.*CALLER_TOKEN/s);
});

/** An Access JWT signed RS256 with `key` (the team's by default). */
function accessJwt(overrides = {}, { key = accessKeys.privateKey, kid = ACCESS_KID } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const claims = { aud: [ACCESS_AUD], iss: `https://${TEAM}`, sub: "user-7d2c", email: "ada@example.test", iat: now, nbf: now, exp: now + 600, ...overrides };
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signed = `${encode({ alg: "RS256", kid, typ: "JWT" })}.${encode(claims)}`;
  return `${signed}.${sign("sha256", Buffer.from(signed), key).toString("base64url")}`;
}
const accessHeader = (jwt) => ({ "cf-access-jwt-assertion": jwt });

test("a valid Cloudflare Access JWT admits the caller as its subject", async () => {
  const res = await chat(anthropicWorker, "PASS via Access", {}, accessHeader(accessJwt()));
  assert.equal(res.status, 200);
  const id = (await res.json()).audit_id;
  await auditOf(anthropicWorker, id);
  assert.equal(auditLines(anthropicWorker).find((l) => l.citeproof_audit.audit_id === id).caller, "access:user-7d2c");
});

test("an expired, wrong-audience, wrong-issuer, not-yet-valid or forged Access JWT -> 403", async () => {
  const now = Math.floor(Date.now() / 1000);
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const cases = {
    expired: [accessJwt({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 }), /expired/],
    "wrong aud": [accessJwt({ aud: ["someone-elses-app"] }), /aud/],
    "wrong iss": [accessJwt({ iss: "https://evil.cloudflareaccess.com" }), /iss/],
    "not yet valid": [accessJwt({ nbf: now + 3600 }), /not valid yet/],
    "signed by another key": [accessJwt({}, { key: other }), /signature/],
    "unknown kid": [accessJwt({}, { kid: "nope" }), /signature/],
    "not a JWT": ["abc.def", /malformed/],
  };
  for (const [name, [jwt, message]] of Object.entries(cases)) {
    const res = await chat(anthropicWorker, "PASS via Access", {}, accessHeader(jwt));
    assert.equal(res.status, 403, name);
    assert.match((await res.json()).message, message, name);
  }
  // A bad JWT is not rescued by a good bearer token: every credential presented must hold.
  const both = await chat(anthropicWorker, "PASS via Access", {}, { ...bearer(), ...accessHeader(cases.expired[0]) });
  assert.equal(both.status, 403);
  assert.equal(certsServed, 1, "the team's keys were fetched once and cached, an unknown kid included");
});

// ---- Limits ----

const MIB = 1024 * 1024;

/** `text` as a stream body, which fetch sends with transfer-encoding: chunked and no content-length. */
function chunked(text) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1024) controller.enqueue(bytes.slice(i, i + 1024));
      controller.close();
    },
  });
}

test("a body over the default 1 MiB -> 413 from its content-length; a chunked body under it is read", async () => {
  const big = JSON.stringify({ question: "PASS big", sources, padding: "x".repeat(MIB) });
  const declared = await fetch(`${openaiWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: big });
  assert.equal(declared.status, 413);
  assert.equal((await declared.json()).error, "body_too_large");
  const small = await fetch(`${openaiWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: chunked(JSON.stringify({ question: "PASS chunked", sources })), duplex: "half" });
  assert.equal(small.status, 200);
});

test("MAX_BODY_BYTES: over it -> 413, declared or chunked (counted while reading)", async () => {
  const over = JSON.stringify({ question: "PASS big", sources, padding: "x".repeat(LIMITS_MAX_BODY) });
  const under = await fetch(`${limitsWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: chunked(JSON.stringify({ question: "PASS small", sources })), duplex: "half" });
  assert.equal(under.status, 200);
  const declared = await fetch(`${limitsWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: over });
  assert.equal(declared.status, 413);
  // Last request to this worker: after the worker stops reading a chunked body, wrangler
  // dev's proxy (not production) fails the next request on its connection to workerd with
  // a 503 "worker restarted mid-request".
  const streamed = await fetch(`${limitsWorker.url}/v1/chat`, { method: "POST", headers: bearer(), body: chunked(over), duplex: "half" });
  assert.equal(streamed.status, 413);
  assert.equal((await streamed.json()).error, "body_too_large");
  assert.equal(calls.filter((c) => c.body.messages.some((m) => m.content === "PASS big")).length, 0, "nothing over the limit went upstream");
});

test("over the per-caller rate limit -> 429 with retry-after; other callers are unaffected", async () => {
  const caller = LOAD_TOKENS[3];
  let limited;
  // Empty bodies (400, audited) count against the limit as any request does; a window
  // that turns over midway gives at most one more window's worth.
  for (let i = 0; i <= 2 * LOAD_LIMIT && !limited; i++) {
    const res = await fetch(`${loadWorker.url}/v1/chat`, { method: "POST", headers: bearer(caller), body: "{}" });
    if (res.status === 429) limited = res;
    else assert.equal(res.status, 400);
  }
  assert.ok(limited, "never limited");
  assert.equal(limited.headers.get("retry-after"), String(LOAD_PERIOD));
  assert.equal((await limited.json()).error, "rate_limited");
  assert.equal((await chat(loadWorker, "PASS another caller", {}, bearer(LOAD_TOKENS[0]))).status, 200);
});

// ---- CORS ----

test("CORS: preflight 204 for an allowed origin, 403 otherwise; allow-origin only for allowed origins", async () => {
  const preflight = (origin) =>
    fetch(`${openaiWorker.url}/v1/chat`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
  const allowed = await preflight(ORIGIN);
  assert.equal(allowed.status, 204);
  assert.equal(allowed.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(allowed.headers.get("access-control-allow-headers"), /authorization/);
  assert.match(allowed.headers.get("access-control-allow-methods"), /POST/);
  const denied = await preflight("https://evil.example.test");
  assert.equal(denied.status, 403);
  assert.equal(denied.headers.get("access-control-allow-origin"), null);

  // A request from a denied origin is refused before anything else, even with a valid token.
  const before = calls.length;
  const evil = await chat(openaiWorker, "PASS from evil", {}, { ...bearer(), origin: "https://evil.example.test" });
  assert.equal(evil.status, 403);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
  assert.equal(calls.length, before);
  // An allowed origin can read its errors too (here the 401).
  const unauthenticated = await chat(openaiWorker, "PASS from the app", {}, { origin: ORIGIN });
  assert.equal(unauthenticated.status, 401);
  assert.equal(unauthenticated.headers.get("access-control-allow-origin"), ORIGIN);

  const ok = await chat(anthropicWorker, "PASS from the app", {}, { ...bearer(), origin: ORIGIN });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(ok.headers.get("access-control-expose-headers"), /x-citeproof-status/);
  const server = await chat(anthropicWorker, "PASS from a server");
  assert.equal(server.headers.get("access-control-allow-origin"), null, "no Origin, no CORS headers");
});

test("with a KV binding, every audit record is also stored under audit:<id>", async () => {
  // The same worker with a KV namespace (wrangler simulates it locally, no network).
  const dir = workerConfig("kv", [
    "[[kv_namespaces]]", 'binding = "AUDIT_KV"', 'id = "audit"',
    "[[ratelimits]]", 'name = "RATE_LIMITER"', 'namespace_id = "3003"', "simple = { limit = 60, period = 60 }",
  ]);
  const upstream = `http://127.0.0.1:${mock.address().port}/openai`;
  const kvWorker = await startWrangler(dir, { vars: { UPSTREAM_URL: upstream, CALLER_TOKEN, UPSTREAM_API_KEY: UPSTREAM_KEY }, probe: "/metrics" });
  track(kvWorker);
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
  // On the OpenAI worker: pass, stream, warn, repair (JSON, fenced JSON, plain text, JSON
  // of another shape), stream-fail, a passing stream's verdict, completions, three bad
  // requests, upstream 500 and timeout, the small chunked body, and the openai SDK's four
  // (repair, reject, stream, stream-fail); /metrics, 404s and refusals (401, 403, 413,
  // CORS) never reach verification and are not audited.
  const expected = 20;
  for (let i = 0; i < 50 && audits(openaiWorker).length < expected; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 300));
  const records = audits(openaiWorker);
  assert.equal(records.length, expected, records.map((r) => r.validation_result.status).join());
  assert.equal(new Set(records.map((r) => r.audit_id)).size, expected);
  assert.equal(records.filter((r) => r.validation_result.status === "INVALID_REQUEST").length, 3);
  assert.ok(auditLines(openaiWorker).every((l) => l.caller === tokenCaller(CALLER_TOKEN)), "each line names its caller");
});

// ---- Load: wrk against the load worker ----

// One caller per wrk thread: its token (thread i takes token i, modulo the list), a pause
// before each request, and a cap on the responses it waits for, after which it idles, so
// that no request is in flight when wrk stops: every request that reached the worker is
// one wrk counted. done() prints each thread's statuses.
const WRK_SCRIPT = `
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end
function init(args)
  pause, cap = tonumber(args[1]), tonumber(args[2])
  token = args[3 + (index - 1) % (#args - 2)]
  ok, limited, retry_after, other, leaks = 0, 0, 0, 0, 0
  wrk.method = "POST"
  wrk.path = "/v1/chat"
  wrk.headers["content-type"] = "application/json"
  wrk.headers["authorization"] = "Bearer " .. token
  wrk.body = '{"question":"PASS under load","sources":[{"title":"Boiling point","text":"Water boils at 100 °C at sea level."},{"title":"Japan","text":"Tokyo is the capital of Japan."}]}'
  req = wrk.format()
end
function delay()
  if ok + limited + other >= cap then return 3600000 end
  return pause
end
function request()
  return req
end
function response(status, headers, body)
  if status == 200 then ok = ok + 1
  elseif status == 429 then
    limited = limited + 1
    if headers["retry-after"] or headers["Retry-After"] then retry_after = retry_after + 1 end
  else other = other + 1 end
  if string.find(body, token, 1, true) then leaks = leaks + 1 end
end
function done(summary)
  for _, t in ipairs(threads) do
    io.write(string.format('RESULT {"token":"%s","cap":%d,"ok":%d,"limited":%d,"retry_after":%d,"other":%d,"leaks":%d}\\n',
      t:get("token"), t:get("cap"), t:get("ok"), t:get("limited"), t:get("retry_after"), t:get("other"), t:get("leaks")))
  end
  io.write(string.format('TOTAL %d\\n', summary.requests))
end
`;

/** Runs wrk for `seconds` with `threads` callers; resolves to its stdout. */
function runWrk(url, script, { threads, connections = threads, seconds, pause, cap, tokens }) {
  const args = ["-t", String(threads), "-c", String(connections), "-d", `${seconds}s`, "--timeout", "5s", "-s", script, url, "--", String(pause), String(cap), ...tokens];
  return new Promise((resolve, reject) => execFile("wrk", args, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))));
}

/** Per-token sums of wrk's RESULT lines and its own request count. */
function wrkResults(stdout) {
  const byToken = {};
  for (const line of stdout.split("\n").filter((l) => l.startsWith("RESULT "))) {
    const r = JSON.parse(line.slice(7));
    const sum = (byToken[r.token] ??= { ok: 0, limited: 0, retry_after: 0, other: 0, leaks: 0, capped: true });
    for (const key of ["ok", "limited", "retry_after", "other", "leaks"]) sum[key] += r[key];
    sum.capped &&= r.ok + r.limited + r.other >= r.cap;
  }
  return { byToken, total: Number(/^TOTAL (\d+)$/m.exec(stdout)[1]), reported: Number(/(\d+) requests in /.exec(stdout)[1]) };
}

/** Whether wrk is installed, installing it with apt when it is not. */
function haveWrk() {
  const present = () => {
    try {
      execFileSync("wrk", ["--version"], { stdio: "ignore" });
      return true;
    } catch (error) {
      return error.code !== "ENOENT"; // `wrk --version` exits 1 after printing it
    }
  };
  if (present()) return true;
  try {
    execFileSync("apt-get", ["install", "-y", "wrk"], { stdio: "ignore", timeout: 120000 });
  } catch {
    return false;
  }
  return present();
}

test("load: under wrk, the over-limit caller gets 429s, the others none, and every request verified is audited once", async (t) => {
  if (!haveWrk()) return t.skip("wrk is not installed and `apt-get install -y wrk` failed");
  const dir = tempDir("citeproof-wrk-");
  const script = join(dir, "callers.lua");
  writeFileSync(script, WRK_SCRIPT);
  const [politeA, politeB, hammer] = LOAD_TOKENS;
  const auditsBefore = auditLines(loadWorker).length;
  // Two polite callers, a request every 100 ms, 20 each: at most 20 per 10 s window, under
  // the limit of 40. Concurrently one caller sends 300 on four connections as fast as it can.
  const [politeOut, hammerOut] = await Promise.all([
    runWrk(loadWorker.url, script, { threads: 2, seconds: 8, pause: 100, cap: 20, tokens: [politeA, politeB] }),
    runWrk(loadWorker.url, script, { threads: 2, connections: 4, seconds: 8, pause: 0, cap: 150, tokens: [hammer] }),
  ]);
  const polite = wrkResults(politeOut);
  const heavy = wrkResults(hammerOut);
  const runs = { polite, heavy };
  t.diagnostic(`wrk: ${JSON.stringify(runs)}`);
  for (const { byToken, total, reported } of [polite, heavy]) {
    assert.equal(total, reported, "wrk's own count agrees with the script's");
    for (const r of Object.values(byToken)) assert.ok(r.capped, "each caller got all its answers before wrk stopped");
  }

  for (const token of [politeA, politeB]) {
    const r = polite.byToken[token];
    assert.deepEqual([r.ok, r.limited, r.other], [20, 0, 0], `polite caller ${token.slice(0, 6)}`);
  }
  const h = heavy.byToken[hammer];
  assert.equal(h.other, 0);
  assert.ok(h.limited > 0, "the hammering caller was limited");
  assert.ok(h.ok >= LOAD_LIMIT && h.ok <= 2 * LOAD_LIMIT, `${h.ok} allowed: one window's limit (two if a window turned over)`);
  assert.equal(h.retry_after, h.limited, "every 429 carries retry-after");
  assert.equal(polite.byToken[politeA].leaks + polite.byToken[politeB].leaks + h.leaks, 0);

  // Exactly one audit line per request that reached verification, i.e. per 200.
  const expected = polite.byToken[politeA].ok + polite.byToken[politeB].ok + h.ok;
  for (let i = 0; i < 100 && auditLines(loadWorker).length - auditsBefore < expected; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500));
  const lines = auditLines(loadWorker).slice(auditsBefore);
  t.diagnostic(`requests: ${polite.total + heavy.total}, 429s: ${h.limited}, audit lines: ${lines.length}`);
  assert.equal(lines.length, expected);
  assert.equal(new Set(lines.map((l) => l.citeproof_audit.audit_id)).size, expected);
  const count = (token) => lines.filter((l) => l.caller === tokenCaller(token)).length;
  assert.deepEqual([count(politeA), count(politeB), count(hammer)], [20, 20, h.ok]);
  assert.ok(lines.every((l) => l.citeproof_audit.validation_result.status === "PASS"));

  const metrics = await (await fetch(`${loadWorker.url}/metrics`, { headers: bearer(politeA) })).text();
  const refused = Number(/citeproof_refused_total\{reason="rate_limited"\} (\d+)/.exec(metrics)[1]);
  assert.ok(refused >= h.limited, `metrics count the 429s (${refused})`);
});

// ---- Secrets ----

test("no secret in any worker's log or in any response", async () => {
  // Every route, with no, a wrong and a good credential, on the OpenAI worker…
  for (const headers of [{}, bearer("wrong"), bearer(), bearer(METRICS_TOKEN), { origin: ORIGIN, ...bearer() }]) {
    await (await fetch(`${openaiWorker.url}/metrics`, { headers })).text();
    await (await fetch(`${openaiWorker.url}/nope`, { headers })).text();
    await (await fetch(`${openaiWorker.url}/v1/chat`, { method: "OPTIONS", headers: { ...headers, origin: ORIGIN } })).text();
    await (await chat(openaiWorker, "FAIL500 secrets", {}, headers)).text();
    await (await fetch(`${openaiWorker.url}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ messages: [{ role: "user", content: "REJECT secrets" }], sources }) })).text();
  }
  // …the upstream did receive the key (so it was in use), and never a caller's token.
  assert.ok(calls.some((c) => c.headers.authorization === `Bearer ${UPSTREAM_KEY}`));
  assert.ok(calls.some((c) => c.headers["x-api-key"] === UPSTREAM_KEY));
  assert.ok(calls.every((c) => !JSON.stringify(c).includes(CALLER_TOKEN)), "the caller's token is not forwarded");

  const texts = await Promise.all(responses);
  assert.ok(texts.length > 100, `${texts.length} responses checked`);
  for (const secret of SECRETS) {
    for (const worker of workers) assert.ok(!worker.log().includes(secret), `${secret} in ${worker.url}'s log`);
    assert.equal(texts.filter((text) => text.includes(secret)).length, 0, `${secret} in a response`);
  }
});

test("a recorded Anthropic web-search stream passes through the worker with its declared citations and audit", async () => {
  // No sources from the caller: the answer cites the web results the upstream found.
  const res = await chat(anthropicWorker, "RECORDED: tech news today", { stream: true, sources: [] });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.doesNotMatch(text, /citation_rejected/);
  const sent = text
    .split("\n\n")
    .filter((b) => b.includes('"text_delta"'))
    .map((b) => JSON.parse(b.slice(b.indexOf("data:") + 5)).delta.text)
    .join("");
  const expected = pkg.validate(pkg.fromAnthropic(RECORDED_EVENTS));
  assert.equal(sent, expected.cleanedAnswer, "the whole answer arrives");
  const payload = JSON.parse(/event: citations\ndata: (.*)\n/.exec(text)[1]);
  assert.equal(payload.report.status, "pass");
  assert.equal(payload.report.citations.length, expected.citations.length);
  assert.ok(payload.report.citations.length >= 14);
  assert.deepEqual(payload.report.citations.map((c) => [c.span, c.quoteText]), expected.citations.map((c) => [c.span, c.quoteText]));
  // The audit line is logged once the stream has ended: it lags the body.
  let record;
  for (let i = 0; i < 50 && !record; i++) {
    record = audits(anthropicWorker).find((a) => a.query === "RECORDED: tech news today");
    if (!record) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(record?.validation_result.status, "PASS");
  assert.equal(record.validation_result.citations_validated, expected.summary.valid);
  assert.equal(record.validation_result.citations_failed, 0);
  assert.equal(record.citations.length, expected.citations.length);
  assert.equal(record.response_id, "msg_01LHpEgU4KbfgXGVi3UtHQY1", "the stream's message id");
});
