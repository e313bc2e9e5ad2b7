// citeproof edge worker: sits between an app and its LLM, verifies the citations of every
// answer against the sources retrieved for it, and only then forwards it.
//
// Routes
//   POST /v1/chat               { question, sources, stream?, model? } -> { answer, citations, confidence, status, findings, audit_id }
//   POST /v1/chat/completions   an OpenAI chat request + `sources` -> the OpenAI response, cleaned, + `citeproof`;
//                               nothing an OpenAI SDK cannot read: a rejection (422) carries
//                               OpenAI's `error` object, a stream only completion chunks
//   GET  /metrics               Prometheus text for this isolate
//   OPTIONS *                   CORS preflight (see cors.js)
//
// Answers carry `x-citeproof-status` (pass | warn), `x-citeproof-audit-id` and, when the
// model's first answer failed and was repaired, `x-citeproof-repaired: 1`; a streamed
// answer's verdict comes before the stream's end marker (see streamVerified).
//
// Every route needs a caller credential (access.js); chat requests are also rate-limited
// per caller and size-limited (limits.js). Refusals are not audited: they never reach
// verification. Neither the caller's token nor UPSTREAM_API_KEY is ever logged or echoed.
//
// Sources come from the caller (`sources` in the request body) or, when the caller sends
// none, from the upstream's response (a top-level `sources` array, as RAG backends return).
//
// Environment
//   UPSTREAM_URL         the LLM endpoint (OpenAI chat completions or Anthropic messages)
//   UPSTREAM_FORMAT      "openai" (default) or "anthropic"
//   UPSTREAM_API_KEY     sent as `Authorization: Bearer …` (openai) or `x-api-key` (anthropic)
//   UPSTREAM_TIMEOUT_MS  default 30000; a slower upstream gives 504
//   MODEL                model name when the caller gives none
//   CITEPROOF_MODE       "verify" (default) or "passthrough" (forward untouched; for load comparison)
//   AUDIT_QUEUE / AUDIT_KV  optional Queue / KV bindings that also receive each audit record
//   CALLER_TOKEN, METRICS_TOKEN, ACCESS_*, ALLOW_UNAUTHENTICATED   see access.js
//   MAX_BODY_BYTES, RATE_LIMITER, RATE_LIMIT_PERIOD                 see limits.js
//   ALLOWED_ORIGINS                                                 see cors.js
import {
  Metrics,
  auditRecord,
  citeproofTransform,
  formatContext,
  rejectionResponse,
  repairPrompt,
  validate,
  validateRequest,
} from "citeproof";
import { authenticate, configurationError } from "./access.js";
import { originAllowed, preflight, withCors } from "./cors.js";
import { rateLimited, readLimitedBody } from "./limits.js";

const metrics = new Metrics();
const upstreamErrors = { status: 0, timeout: 0, network: 0 };
const refusals = { unauthenticated: 0, forbidden: 0, rate_limited: 0, too_large: 0, origin: 0 };

const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

class UpstreamError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind; // "status" | "timeout" | "network"
  }
}

/** Calls the upstream LLM with `messages`; resolves to the Response (a stream when asked). */
async function callUpstream(env, { messages, model, stream, params }) {
  const format = env.UPSTREAM_FORMAT ?? "openai";
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  const rest = messages.filter((m) => m.role !== "system");
  const body =
    format === "anthropic"
      ? { model: model ?? env.MODEL ?? "claude", max_tokens: 1024, system: system || undefined, messages: rest, stream }
      : { ...params, model: model ?? env.MODEL ?? "gpt", messages, stream };
  const headers = { "content-type": "application/json" };
  if (env.UPSTREAM_API_KEY) {
    if (format === "anthropic") headers["x-api-key"] = env.UPSTREAM_API_KEY;
    else headers.authorization = `Bearer ${env.UPSTREAM_API_KEY}`;
  }
  const timeout = Number(env.UPSTREAM_TIMEOUT_MS ?? 30000);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response;
  try {
    response = await fetch(env.UPSTREAM_URL, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
    if (!stream) await response.clone().arrayBuffer(); // the whole body within the timeout
  } catch (error) {
    clearTimeout(timer);
    if (controller.signal.aborted) throw new UpstreamError("timeout", `upstream did not answer within ${timeout} ms`);
    throw new UpstreamError("network", `upstream unreachable: ${error.message}`);
  }
  clearTimeout(timer);
  if (!response.ok) throw new UpstreamError("status", `upstream answered ${response.status}`);
  return response;
}

/** The answer text and any sources of a non-streamed upstream response. */
async function readAnswer(response) {
  const body = await response.json();
  const text = Array.isArray(body.content)
    ? body.content.filter((b) => b.type === "text").map((b) => b.text).join("")
    : body.choices?.[0]?.message?.content ?? "";
  return { body, text, sources: Array.isArray(body.sources) ? body.sources : null };
}

/**
 * The answer in a reply to repairPrompt, which asks for exactly `{"answer": "…"}`: that
 * object's `answer` (also inside a Markdown code fence, as chat models often wrap JSON).
 * A reply that is no JSON at all is read as the answer itself (a model that ignored the
 * format but rewrote the answer); JSON without a string `answer` gives `null`: no answer
 * can be read from it, and it is never forwarded as one.
 */
function repairedAnswer(text) {
  const body = /^\s*```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/i.exec(text)?.[1] ?? text;
  if (!/^\s*[{[]/.test(body)) return text;
  try {
    const parsed = JSON.parse(body);
    return typeof parsed?.answer === "string" ? parsed.answer : null;
  } catch {
    return null; // JSON begun and broken: not an answer either
  }
}

// The caller (a token's hash prefix, an Access subject or "anonymous") goes beside the
// record, which stays spec 001's, so each answer can be traced to who asked for it.
function logAudit(env, ctx, record, caller) {
  console.log(JSON.stringify({ citeproof_audit: record, caller }));
  if (env.AUDIT_QUEUE) ctx.waitUntil(env.AUDIT_QUEUE.send(record));
  if (env.AUDIT_KV) ctx.waitUntil(env.AUDIT_KV.put(`audit:${record.audit_id}`, JSON.stringify(record)));
}

/** Spec 001's audit record for a request that never got an answer to validate. */
function errorAudit(question, error, started) {
  return {
    audit_id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    query: question,
    validation_result: { status: "ERROR", citations_validated: 0, citations_failed: 0, hallucinations_detected: 0, confidence_score: 0 },
    citations: [],
    processing_time_ms: Date.now() - started,
    error: error.message,
  };
}

function upstreamFailure(env, ctx, req, error, started) {
  upstreamErrors[error.kind] += 1;
  const record = errorAudit(req.question, error, started);
  logAudit(env, ctx, record, req.caller);
  const status = error.kind === "timeout" ? 504 : 502;
  return json({ error: error.kind === "timeout" ? "upstream_timeout" : "upstream_error", message: error.message, audit_id: record.audit_id }, status);
}

/** The request body `text` as `{ question, messages, sources, stream, model, openai }`, or `{ invalid }`. */
function readRequest(text, path) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return { invalid: { error: "invalid_json", findings: [] } };
  }
  const openai = path === "/v1/chat/completions";
  const messages = openai && Array.isArray(body.messages) ? body.messages : null;
  const question = openai ? [...(messages ?? [])].reverse().find((m) => m.role === "user")?.content : body.question;
  const sources = body.sources ?? [];
  const findings = validateRequest({ question: typeof question === "string" ? question : "", sources });
  if (openai && !messages) findings.unshift({ code: "request_invalid", severity: "error", message: "messages: expected an array" });
  if (findings.some((f) => f.severity === "error")) return { invalid: { error: "invalid_request", findings }, question };
  const built = messages ?? [
    { role: "system", content: `Answer from these sources only and cite them as [n].\n\n${formatContext(sources, { maxChars: 2000 })}` },
    { role: "user", content: question },
  ];
  // The caller's other OpenAI parameters (temperature, max_tokens, …) go upstream as sent.
  const { sources: _sources, messages: _messages, stream: _stream, model: _model, question: _question, ...params } = body;
  return { question, messages: built, sources, stream: body.stream === true, model: body.model, openai, params: openai ? params : {} };
}

async function verify(env, ctx, req, started) {
  let response;
  try {
    response = await callUpstream(env, req);
  } catch (error) {
    if (error instanceof UpstreamError) return upstreamFailure(env, ctx, req, error, started);
    throw error;
  }
  if (env.CITEPROOF_MODE === "passthrough") return new Response(response.body, response);
  if (req.stream) return streamVerified(env, ctx, req, response, started);

  let answer = await readAnswer(response);
  const sources = req.sources.length ? req.sources : answer.sources ?? [];
  const input = { answer: answer.text, sources, question: req.question };
  let report = validate(input);
  let firstReport = null; // the model's own answer's report, once it was sent back for repair
  if (report.status === "fail") {
    // One repair round (spec 003): the failed answer and a prompt naming each bad citation,
    // which asks for `{"answer": "…"}` and nothing else (repairPrompt's last words).
    const retry = {
      ...req,
      messages: [...req.messages, { role: "assistant", content: answer.text }, { role: "user", content: repairPrompt(report, { input }) }],
    };
    let repaired;
    try {
      repaired = await readAnswer(await callUpstream(env, retry));
    } catch (error) {
      if (error instanceof UpstreamError) return upstreamFailure(env, ctx, req, error, started);
      throw error;
    }
    firstReport = report;
    const text = repairedAnswer(repaired.text);
    if (text !== null) {
      answer = repaired;
      input.answer = text;
      report = validate(input);
    } // else: JSON of another shape, no answer to read; the first answer's failure stands
  }
  report.timingMs = Date.now() - started;
  metrics.record(report, firstReport ?? undefined);
  const record = auditRecord(report, { input });
  logAudit(env, ctx, record, req.caller);
  if (report.status === "fail") {
    const rejection = rejectionResponse(report, { auditId: record.audit_id });
    // OpenAI SDKs read an error's message and type from `error` (else: "422 status code (no body)").
    if (req.openai) rejection.error = rejectionError(rejection);
    return json(rejection, 422);
  }

  const headers = { "x-citeproof-status": report.status, "x-citeproof-audit-id": record.audit_id };
  if (firstReport) headers["x-citeproof-repaired"] = "1";
  const citations = report.segments.filter((s) => s.type === "cite");
  const verdict = { status: report.status, confidence: report.confidence, citations, findings: report.status === "warn" ? report.findings : [] };
  if (req.openai) {
    const body = answer.body;
    if (Array.isArray(body.content)) body.content = [{ type: "text", text: report.cleanedAnswer }];
    else if (body.choices?.[0]?.message) body.choices[0].message.content = report.cleanedAnswer;
    return json({ ...body, citeproof: { ...verdict, audit_id: record.audit_id } }, 200, headers);
  }
  return json({ answer: report.cleanedAnswer, ...verdict, audit_id: record.audit_id }, 200, headers);
}

/**
 * Streams the upstream SSE cleaned, with the verdict before the stream's end marker, where
 * clients that stop reading there still see it. The transform sends its `citations` event
 * once the answer has ended (before OpenAI's `data: [DONE]`, Anthropic's `message_delta`
 * and `message_stop`); the verdict follows that event:
 * - OpenAI: a `chat.completion.chunk` with no choices and a `citeproof` member (status,
 *   confidence, citations, findings, audit_id), which SDKs hand over like any chunk; on
 *   `fail` it also carries `error` (the rejection's reason), on which the OpenAI SDKs
 *   throw, and the rejection itself as `citeproof.rejection`. On the OpenAI-compatible
 *   route the `citations` event is left out: OpenAI SDKs hand over every event's data as a
 *   chunk, and one without `choices` breaks the loop apps write
 *   (`chunk.choices[0]?.delta?.content`);
 * - Anthropic: on `fail`, an `event: error` (`{"type":"error","error":{…}}`, on which the
 *   Anthropic SDKs throw), with the rejection as `citeproof`.
 */
/** A rejection as OpenAI's `error` object, which OpenAI SDKs throw with its message and type. */
function rejectionError(rejection) {
  return { message: rejection.reason, type: "citation_rejected", code: "citation_rejected" };
}

function streamVerified(env, ctx, req, response, started) {
  const input = { sources: req.sources, question: req.question };
  const format = env.UPSTREAM_FORMAT ?? "openai";
  const transform = citeproofTransform(input, { format: env.UPSTREAM_FORMAT ?? "auto" });
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = ""; // text after the last whole event
  let sent = false;
  /** Audits and counts the ended stream; returns the verdict's SSE text. */
  async function verdictEvent() {
    sent = true;
    const report = await transform.report;
    report.timingMs = Date.now() - started;
    metrics.record(report);
    // The upstream's response id: Anthropic's `message_start`, OpenAI's chunk `id`.
    const first = transform.events[0];
    const responseId = first?.message?.id ?? first?.id;
    const record = auditRecord(report, { input: { ...input, answer: transform.answer ?? "", responseId } });
    logAudit(env, ctx, record, req.caller);
    const failed = report.status === "fail";
    const rejection = failed ? rejectionResponse(report, { auditId: record.audit_id }) : null;
    if (format === "anthropic") {
      if (!failed) return "";
      const error = { type: "error", error: { type: "citation_rejected", message: rejection.reason }, citeproof: rejection };
      return `event: error\ndata: ${JSON.stringify(error)}\n\n`;
    }
    const citations = report.segments.filter((s) => s.type === "cite");
    const verdict = { status: report.status, confidence: report.confidence, citations, findings: report.findings, audit_id: record.audit_id };
    const chunk = { id: responseId, object: "chat.completion.chunk", model: first?.model, choices: [], citeproof: verdict };
    if (failed) {
      verdict.rejection = rejection;
      chunk.error = rejectionError(rejection);
    }
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
  const verdict = new TransformStream({
    async transform(bytes, controller) {
      pending += decoder.decode(bytes, { stream: true });
      const cut = pending.lastIndexOf("\n\n") + 2; // the transform writes whole events, "\n\n" after each
      if (cut < 2) return;
      let text = pending.slice(0, cut);
      pending = pending.slice(cut);
      const citations = sent ? -1 : text.search(/(^|\n)event: citations\n/);
      if (citations >= 0) {
        const start = citations + (text[citations] === "\n" ? 1 : 0);
        const end = text.indexOf("\n\n", citations + 1) + 2;
        const kept = req.openai ? start : end; // the OpenAI-compatible route: the verdict in its place
        text = text.slice(0, kept) + (await verdictEvent()) + text.slice(end);
      }
      controller.enqueue(encoder.encode(text));
    },
    async flush(controller) {
      const rest = pending + decoder.decode();
      controller.enqueue(encoder.encode(rest + (sent ? "" : await verdictEvent())));
    },
  });
  const body = response.body.pipeThrough(transform).pipeThrough(verdict);
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

function renderMetrics() {
  const lines = [
    "# HELP citeproof_upstream_errors_total Upstream calls that failed, by kind.",
    "# TYPE citeproof_upstream_errors_total counter",
    ...Object.entries(upstreamErrors).map(([kind, n]) => `citeproof_upstream_errors_total{kind="${kind}"} ${n}`),
    "# HELP citeproof_refused_total Requests refused before verification, by reason.",
    "# TYPE citeproof_refused_total counter",
    ...Object.entries(refusals).map(([reason, n]) => `citeproof_refused_total{reason="${reason}"} ${n}`),
  ];
  return `${metrics.render()}${lines.join("\n")}\n`;
}

/** A JSON refusal, counted under `reason` in /metrics. */
function refusal(reason, status, error, message, headers = {}) {
  refusals[reason] += 1;
  return json({ error, message }, status, headers);
}

function authRefusal({ status, error, message }) {
  if (status === 401) return refusal("unauthenticated", 401, error, message, { "www-authenticate": 'Bearer realm="citeproof"' });
  if (status === 403) return refusal("forbidden", 403, error, message);
  return json({ error, message }, status); // 503: Access's keys are unreachable, no fault of the caller's
}

const ROUTES = new Set(["GET /metrics", "POST /v1/chat", "POST /v1/chat/completions"]);

// Cheapest refusals first, and everything a caller can cost (upstream calls, body reading,
// audit lines) only after it has proved who it is and is within its rate.
async function route(request, env, ctx) {
  const started = Date.now();
  const url = new URL(request.url);
  if (!originAllowed(request, env)) return refusal("origin", 403, "origin_not_allowed", "this origin is not in ALLOWED_ORIGINS");
  const misconfigured = configurationError(env, url);
  if (misconfigured) return json({ error: "not_configured", message: misconfigured }, 500);
  if (!env.RATE_LIMITER) return json({ error: "not_configured", message: "bind a rate limiter as RATE_LIMITER ([[ratelimits]] in wrangler.toml)" }, 500);
  if (!ROUTES.has(`${request.method} ${url.pathname}`)) return json({ error: "not_found" }, 404);

  const metricsRoute = url.pathname === "/metrics";
  const { caller, refused } = await authenticate(request, env, { metrics: metricsRoute });
  if (refused) return authRefusal(refused);
  if (metricsRoute) return new Response(renderMetrics(), { headers: { "content-type": "text/plain; version=0.0.4" } });

  const retryAfter = await rateLimited(env, caller);
  if (retryAfter) return refusal("rate_limited", 429, "rate_limited", `too many requests; retry in ${retryAfter} s`, { "retry-after": retryAfter });
  const text = await readLimitedBody(request, env);
  if (text === null) return refusal("too_large", 413, "body_too_large", "the request body is larger than MAX_BODY_BYTES");

  const req = readRequest(text, url.pathname);
  if (req.invalid) {
    // Spec 000: refused before any model call, and audited like every other request.
    const message = req.invalid.findings.map((f) => f.message).join("; ") || "the body is not JSON";
    const record = errorAudit(typeof req.question === "string" ? req.question : null, new Error(message), started);
    record.validation_result.status = "INVALID_REQUEST";
    logAudit(env, ctx, record, caller);
    return json({ ...req.invalid, audit_id: record.audit_id }, 400);
  }
  return verify(env, ctx, { ...req, caller }, started);
}

export default {
  async fetch(request, env, ctx) {
    // Browsers send preflights without credentials, so they are answered before any check.
    if (request.method === "OPTIONS") return preflight(request, env);
    return withCors(await route(request, env, ctx), request, env);
  },
};
