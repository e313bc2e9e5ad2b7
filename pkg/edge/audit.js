// What happens around a validation, in plain JS for browsers (docs/architecture.md §9):
// spec 002's numbered context and JSON Schemas (src/prompt.rs), spec 000's request
// validation, spec 003's repair prompt, spec 001's rejection response and audit record
// (src/audit.rs). Each reads its arguments as the binding does (./read.js,
// ./input-tape.js) and gives what the Rust helpers of the full module give;
// tests/js/edge-differential.test.mjs holds the two to the same output or the same error.
import { readInput, readSources } from "./input-tape.js";
import { AUDIT_CITATION_STATUS, AUDIT_STATUS, Obj, decimal, errorMessages, readReport, readUnit } from "./read.js";
import { codedError } from "./untrusted.js";

/** A source's label: its `index`, else its 1-based position. */
const label = (source, position) => source.index ?? position + 1;

/** The first of a source's `names` present, else its label (as text). */
const nameOf = (source, position, names) => {
  for (const name of names) if (source[name] !== undefined) return source[name];
  return String(label(source, position));
};

/** How a source is named in logs: id, chunk id, doc id, url, title, else its label. */
const sourceName = (sources, position) => nameOf(sources[position], position, ["id", "chunkId", "docId", "url", "title"]);

/** A number as the module hands it out: NaN and ±Infinity as null (as serde_json writes them). */
const finite = (n) => (Number.isFinite(n) ? n : null);

/** The number of characters (code points) of `text`, as Rust's `chars().count()`, counted up to `limit`. */
function charCount(text, limit = Infinity) {
  let count = 0;
  for (let i = 0; i < text.length && count < limit; i++, count++) if (text.codePointAt(i) > 0xffff) i++;
  return count;
}

/** `text` cut to at most `max` characters (code points), never inside one. */
function firstChars(text, max) {
  let i = 0;
  for (let count = 0; i < text.length && count < max; count++) i += text.codePointAt(i) > 0xffff ? 2 : 1;
  return text.slice(0, i);
}

/** The bytes of a code point in UTF-8. */
const utf8Length = (c) => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);

/**
 * Spec 002's numbered context for the prompt: `[1] text (Source: title)`, each text cut
 * to `options.maxChars` (default 500) characters.
 */
export function formatContext(sources, options) {
  const read = readSources(sources, "sources");
  const obj = Obj.optional(options, "options", "invalid_option");
  const maxChars = obj?.count(["maxChars"]) ?? 500;
  return read
    .map((source, i) => `[${label(source, i)}] ${firstChars(source.text ?? "", maxChars)} (Source: ${source.title ?? "Untitled"})`)
    .join("\n\n");
}

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** The structured-output shapes of the specs, by style (src/prompt.rs). */
const SCHEMAS = {
  indexed: () => ({
    $schema: SCHEMA,
    title: "StructuredRAGResponse",
    type: "object",
    properties: {
      answer: { type: "string", description: "The answer, with inline citation markers like [1], [2] where claims are made." },
      citations: { type: "array", items: { type: "integer", minimum: 1 }, description: "1-based indices of the source documents used." },
      confidence: { type: "number", minimum: 0, maximum: 1 },
      missing_information: { type: ["string", "null"] },
    },
    required: ["answer", "citations", "confidence"],
  }),
  chunks: () => ({
    $schema: SCHEMA,
    title: "CitedAnswer",
    type: "object",
    properties: {
      answer: { type: "string" },
      citations: {
        type: "array",
        items: {
          type: "object",
          properties: {
            doc_id: { type: "string" },
            chunk_id: { type: "string", description: "Must be one of the retrieved chunk ids." },
            snippet: { type: "string", description: "Copied exactly from the chunk text; 120-300 characters reads best." },
            url: { type: "string" },
          },
          required: ["chunk_id", "snippet"],
        },
      },
      mode: { enum: ["answer", "clarify", "refuse"] },
    },
    required: ["answer", "citations", "mode"],
  }),
  enhanced: () => ({
    $schema: SCHEMA,
    title: "AlignedCitations",
    type: "object",
    properties: {
      answer: { type: "string" },
      citations: {
        type: "array",
        items: {
          type: "object",
          properties: {
            source: { type: "string", minLength: 1 },
            relevance: { type: "number", minimum: 0, maximum: 1 },
            quote: { type: "string", minLength: 1 },
            evidence_idx: { type: "integer", minimum: 0 },
            alignment_score: { type: "number", minimum: 0, maximum: 1 },
            span_in_answer: { type: "string" },
          },
          required: ["source", "relevance", "quote"],
        },
      },
    },
    required: ["answer", "citations"],
  }),
};

/** A JSON Schema for the model's structured output: `indexed` (spec 002), `chunks` (spec 003) or `enhanced` (spec 004). */
export function citationSchema(options) {
  const style = Obj.optional(options, "options", "invalid_option")?.string(["style"]) ?? "indexed";
  if (!Object.hasOwn(SCHEMAS, style)) throw codedError("invalid_option", "options.style", 'expected "indexed", "chunks" or "enhanced"');
  return SCHEMAS[style]();
}

/** Longest question spec 000 accepts, in characters after trimming. */
const MAX_QUESTION_CHARS = 2000;

/** Rust's `str::trim`: Unicode White_Space at both ends. */
const trim = (text) => text.replace(/^[\p{White_Space}]+|[\p{White_Space}]+$/gu, "");

/**
 * Spec 000's request validation (question of 1–2000 characters, well-formed sources): a
 * list of `request_invalid` findings, empty when the request is fine.
 */
export function validateRequest(request) {
  const obj = new Obj(request, "request", "invalid_input");
  const question = obj.string(["question", "query"]);
  const given = obj.get(["sources"]);
  const sources = given ? readSources(given[1], "request.sources") : [];
  const findings = [];
  const fail = (message) => findings.push({ code: "request_invalid", severity: "error", message });
  const trimmed = question === undefined ? undefined : trim(question);
  if (trimmed === undefined) fail("question: required");
  else if (trimmed === "") fail("question: must not be empty");
  else if (charCount(trimmed) > MAX_QUESTION_CHARS) fail(`question: ${charCount(trimmed)} characters exceed ${MAX_QUESTION_CHARS}`);
  sources.forEach((s, i) => {
    if (s.relevance !== undefined && !(s.relevance >= 0 && s.relevance <= 1)) fail(`sources[${i}].relevance: ${decimal(s.relevance)} is outside 0–1`);
    if (s.chapter !== undefined && trim(s.chapter) === "") fail(`sources[${i}].chapter: must not be empty`);
    if ([s.text, s.url, s.id, s.chunkId, s.docId].every((v) => v === undefined)) fail(`sources[${i}]: has neither text, url nor an id`);
  });
  return findings;
}

/** `ctx.input` (or an empty input) and the unit of the report's offsets (`ctx.offsets`). */
function contextInput(ctx) {
  const obj = Obj.optional(ctx, "ctx", "invalid_option");
  if (!obj) return [{ answer: "", sources: [] }, "utf16"];
  const unit = readUnit(obj);
  const found = obj.get(["input"]);
  return [found ? readInput(found[1], "ctx.input") : { answer: "", sources: [] }, unit];
}

/** The shape a repaired answer is asked for (src/audit.rs's `REPAIR_SHAPE`). */
const REPAIR_SHAPE = '{"answer": "<the whole corrected answer>"}';

/** Spec 003's one repair instruction naming each failed citation; `ctx.input` adds the ids the model may cite (without it, none are named). */
export function repairPrompt(report, ctx) {
  const view = readReport(report);
  const [input] = contextInput(ctx);
  const allowed = input.sources.map((s, i) => nameOf(s, i, ["id", "chunkId", "docId"]));
  const failures = errorMessages(view)
    .map((failure) => `- ${failure}\n`)
    .join("");
  // No ids known (no ctx.input, or no sources): the clause that names them is left out.
  const names = allowed.length === 0 ? "" : ` so that every citation names one of: ${allowed.join(", ")}`;
  return (
    `Return the same answer, but fix citations${names}. ` +
    "Quotes (snippets) must be copied exactly from the corresponding source text. " +
    `These citations failed validation:\n${failures}` +
    `Cite inline as [id]. Return ONLY JSON, exactly this object and nothing before or after it: ${REPAIR_SHAPE}`
  );
}

/** An optional string field of `obj` (undefined when `obj` is). */
const textOf = (obj, name) => obj?.string([name]);

/**
 * Spec 001's rejection response: `{ status: "rejected", reason, suggestion,
 * partial_response, audit_id }`; the id is `ctx.auditId` or a random UUID.
 */
export function rejectionResponse(report, ctx) {
  const view = readReport(report);
  const auditId = textOf(Obj.optional(ctx, "ctx", "invalid_option"), "auditId") ?? globalThis.crypto.randomUUID();
  const errors = errorMessages(view);
  const reason =
    errors.length === 0
      ? "The answer did not pass citation validation"
      : `Unable to verify citation: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`;
  return {
    status: "rejected",
    reason,
    suggestion: "Please rephrase your question or narrow it to the documents you expect to be cited",
    partial_response: view.cleanedAnswer,
    audit_id: auditId,
  };
}

/**
 * The UTF-16 offsets of `offsets`, given in `unit` of `text`, in a Map; an offset that
 * does not fall on a character boundary has no entry. One walk of the text for all of
 * them (a walk per offset made n claims of a long answer cost n × its length).
 */
function toUtf16(text, offsets, unit) {
  const found = new Map();
  if (unit === "utf16") {
    for (const offset of offsets) {
      const low = text.charCodeAt(offset);
      const split = offset > 0 && offset < text.length && low >= 0xdc00 && low < 0xe000 && text.charCodeAt(offset - 1) >= 0xd800 && text.charCodeAt(offset - 1) < 0xdc00;
      if (offset <= text.length && !split) found.set(offset, offset);
    }
    return found;
  }
  let units = 0;
  let count = 0;
  for (const offset of [...new Set(offsets)].sort((a, b) => a - b)) {
    while (count < offset && units < text.length) {
      const c = text.codePointAt(units);
      count += unit === "utf8" ? utf8Length(c) : 1;
      units += c > 0xffff ? 2 : 1;
    }
    if (count === offset) found.set(offset, units);
  }
  return found;
}

/**
 * Characters of claim text an audit record writes whole beyond 4 × the answer's; from
 * the first claim that would pass them on, a claim longer than CUT_CLAIM_CHARS is its
 * first CUT_CLAIM_CHARS characters and "…" (src/audit.rs, `CLAIM_ALLOWANCE`: a sentence
 * carrying n markers is n claims).
 */
const CLAIM_ALLOWANCE = 65_536;
const CUT_CLAIM_CHARS = 80;

/** The claim texts of one audit record of `answer`, whole while the allowance lasts. */
function claimTexts(answer) {
  let left = CLAIM_ALLOWANCE + 4 * charCount(answer);
  return (claim) => {
    const chars = charCount(claim, left + 1);
    if (chars <= left) {
      left -= chars;
      return claim;
    }
    left = 0;
    const cut = firstChars(claim, CUT_CLAIM_CHARS);
    return cut.length < claim.length ? `${cut}…` : claim;
  };
}

/**
 * Spec 001's audit record (snake_case) with spec 003's retrieval ids. `ctx.input` is the
 * validated input (for the query, claims and source ids); `ctx.auditId` and
 * `ctx.timestamp` default to a random UUID and now; `ctx.offsets` is the unit the report
 * was made with.
 */
export function auditRecord(report, ctx) {
  const view = readReport(report);
  const [input, unit] = contextInput(ctx);
  const obj = Obj.optional(ctx, "ctx", "invalid_option");
  const auditId = textOf(obj, "auditId") ?? globalThis.crypto.randomUUID();
  const timestamp = textOf(obj, "timestamp") ?? new Date().toISOString();
  const offsets = toUtf16(input.answer, view.citations.flatMap((c) => c.claim ?? []), unit);
  const claimText = claimTexts(input.answer);
  const claimAt = ([start, end]) => {
    const [from, to] = [offsets.get(start), offsets.get(end)];
    return from === undefined || to === undefined || from > to ? null : claimText(input.answer.slice(from, to));
  };
  const citations = view.citations.map((c) => ({
    ...c,
    claimText: c.claim ? claimAt(c.claim) : null,
    // A report given back may name any position: only a retrieved source's counts.
    source: c.sourcePosition !== undefined && c.sourcePosition < input.sources.length ? c.sourcePosition : undefined,
  }));
  const valid = citations.filter((c) => c.valid);
  // Each cited source's name once, in the order first cited (a Set keeps the order: a
  // search of the list per citation made n citations of n sources cost n²).
  const citedIds = new Set();
  for (const c of valid) {
    if (c.source !== undefined) citedIds.add(sourceName(input.sources, c.source));
  }
  const declared = input.citations ?? [];
  return {
    audit_id: auditId,
    timestamp,
    session_id: input.sessionId ?? null,
    query: input.question ?? null,
    response_id: input.responseId ?? null,
    validation_result: {
      status: AUDIT_STATUS[view.status],
      citations_validated: valid.length,
      citations_failed: citations.length - valid.length,
      hallucinations_detected: view.hallucinations,
      confidence_score: finite(view.confidence),
    },
    citations: citations.map((c) => ({
      claim: c.claimText,
      source: c.source === undefined ? c.label : sourceName(input.sources, c.source),
      line_range: (c.declared !== undefined && declared[c.declared]?.lineRange) || null,
      validation_status: AUDIT_CITATION_STATUS[c.valid],
      semantic_score: finite(c.support),
    })),
    processing_time_ms: finite(view.timingMs),
    model_version: input.modelVersion ?? null,
    retrieval: {
      top_k: input.topK ?? null,
      retrieved_ids: input.sources.map((_, p) => sourceName(input.sources, p)),
      cited_ids: [...citedIds],
    },
  };
}
