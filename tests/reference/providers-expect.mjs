// Independent expectations for the recorded provider corpus in
// tests/fixtures/providers/recorded/ (see README.md and origins.json there).
//
// This module deliberately imports nothing from the project: every expectation
// is computed from the raw recorded JSON (or SSE payloads) with the provider's
// own documented semantics, so it can be used to check the project's adapters
// rather than restate them. Node 20, no dependencies.
//
//   import { expectFor, listFixtures } from './providers-expect.mjs'
//   expectFor('openai-responses-web-search.json', text)
//     -> { provider, form, answer, citations: [{ citedText, spanText, url, title,
//          sourceId, providerSpanText? }], sources: [{ url, title, id }], notes: [] }
//
// Conventions shared by every provider:
//   * `answer` is the visible text the model produced, in order. Reasoning /
//     thinking, tool inputs, tool results and Cohere tool plans are not part of it.
//   * One citation entry per (cited span, source) pair, in provider order. If a
//     provider attaches several sources to one span (Cohere `sources[]`, Gemini
//     `groundingChunkIndices[]`), the span appears once per source.
//   * `citedText` is the provider-stated quote *from the source* (Anthropic
//     `cited_text`); null for every other provider.
//   * `spanText` is the slice of `answer` the citation covers, or null when the
//     provider gives neither offsets nor a text block for it.
//   * `providerSpanText` (only where the provider repeats the span's text next to
//     its offsets: Cohere `text`, Gemini `segment.text`) lets a reader check
//     that the offsets were interpreted in the right unit.
//   * `sources` are the distinct sources (by url, else by id) the response lists
//     or cites, in first-seen order.
//   * `notes` records anything odd found while reassembling (e.g. a stream whose
//     deltas disagree with its final `response.completed`); empty when clean.
//
// Offset units (checked against the recordings, see README.md):
//   * OpenAI Responses / Chat url_citation start_index/end_index: characters of
//     that output_text / message content. The docs do not say which kind of
//     character; the OpenAI Python SDK hands them to `str` slicing (code points),
//     so we slice by code points. (Identical to UTF-16 units for every fixture
//     here: none has a character outside the BMP.)
//   * Cohere v2 citation start/end: characters (code points) of the text content.
//     https://docs.cohere.com/docs/rag-citations
//   * Gemini Segment startIndex/endIndex: UTF-8 *bytes* of the Part
//     ("Start index in the given Part, measured in bytes"),
//     https://ai.google.dev/api/generate-content#Segment . startIndex is omitted
//     when 0 (proto3 JSON drops defaults). In streams the offsets index the text
//     concatenated over all chunks (the grounding metadata only arrives in the
//     last chunk).
//   * Anthropic citations carry no offsets into the answer: a citation belongs to
//     the text block it is attached to, so spanText is that whole block.
//     https://docs.anthropic.com/en/docs/build-with-claude/citations

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';

const DIR = new URL('../fixtures/providers/recorded/', import.meta.url);

let originsCache = null;
function origins() {
  if (!originsCache) originsCache = JSON.parse(readFileSync(new URL('origins.json', DIR), 'utf8'));
  return originsCache;
}

/** The vendored fixture file names, in origins.json order. */
export function listFixtures() {
  return origins().map((o) => o.file);
}

/** The origins.json entry for one fixture (undefined if not listed). */
export function originOf(file) {
  return origins().find((o) => o.file === basename(file));
}

/** Read one vendored fixture as text. */
export function readFixture(file) {
  return readFileSync(new URL(basename(file), DIR), 'utf8');
}

// ---------------------------------------------------------------------------
// Small helpers

const utf8 = new TextEncoder();
const utf8d = new TextDecoder('utf-8', { fatal: true });

/** Slice `s` by code points [start, end). */
function sliceCodePoints(s, start, end) {
  return Array.from(s).slice(start, end).join('');
}

/** Slice `s` by UTF-8 bytes [start, end); null if the cut splits a character. */
function sliceUtf8(s, start, end) {
  const b = utf8.encode(s);
  if (start < 0 || end > b.length || start > end) return null;
  try {
    return utf8d.decode(b.subarray(start, end));
  } catch {
    return null;
  }
}

/** Parse a `.chunks.txt`: one JSON SSE `data:` payload per non-empty line. */
function parseChunks(text) {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`line ${i + 1}: ${e.message}`);
      }
    });
}

/** Parse a raw SSE body: the JSON payload of every `data:` line. */
function parseSse(body) {
  const out = [];
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).replace(/^ /, '');
    if (data === '[DONE]' || data === '') continue;
    out.push(JSON.parse(data));
  }
  return out;
}

class Collector {
  constructor(provider, form) {
    this.provider = provider;
    this.form = form;
    this.answer = '';
    this.citations = [];
    this.sources = [];
    this.notes = [];
    this.seen = new Set();
  }
  source(url, title, id) {
    const key = url != null ? `u:${url}` : id != null ? `i:${id}` : null;
    if (key == null || this.seen.has(key)) return;
    this.seen.add(key);
    this.sources.push({ url: url ?? null, title: title ?? null, id: id ?? null });
  }
  cite(c) {
    this.citations.push({
      citedText: c.citedText ?? null,
      spanText: c.spanText ?? null,
      url: c.url ?? null,
      title: c.title ?? null,
      sourceId: c.sourceId ?? null,
      ...(c.providerSpanText !== undefined ? { providerSpanText: c.providerSpanText } : {}),
    });
    this.source(c.url ?? null, c.title ?? null, c.sourceId ?? null);
  }
  result() {
    return {
      provider: this.provider,
      form: this.form,
      answer: this.answer,
      citations: this.citations,
      sources: this.sources,
      notes: this.notes,
    };
  }
}

// ---------------------------------------------------------------------------
// Anthropic Messages
// Response shape: https://docs.anthropic.com/en/api/messages
// Streaming (message_start, content_block_start/delta/stop by `index`,
//   text_delta, input_json_delta, thinking_delta, signature_delta,
//   citations_delta, message_delta, message_stop):
//   https://docs.anthropic.com/en/docs/build-with-claude/streaming
// Citations on text blocks (web_search_result_location: url, title, cited_text;
//   char_location / page_location / content_block_location: document_index,
//   document_title, cited_text): https://docs.anthropic.com/en/docs/build-with-claude/citations
// Server tool result blocks: web_search_tool_result (content[] of
//   web_search_result {url,title}):
//   https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
//   web_fetch_tool_result (content {type: web_fetch_result, url, content: document {title}}):
//   https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-fetch-tool

function anthropicBlocks(c, blocks) {
  for (const b of blocks) {
    if (!b) continue;
    if (b.type === 'text') {
      c.answer += b.text ?? '';
      for (const ci of b.citations ?? []) {
        c.cite({
          citedText: ci.cited_text ?? null,
          spanText: b.text ?? '',
          url: ci.url ?? null,
          title: ci.title ?? ci.document_title ?? null,
          sourceId:
            ci.document_index != null
              ? String(ci.document_index)
              : ci.search_result_index != null
                ? String(ci.search_result_index)
                : null,
        });
      }
    } else if (b.type === 'web_search_tool_result' && Array.isArray(b.content)) {
      for (const r of b.content) if (r.type === 'web_search_result') c.source(r.url, r.title, null);
    } else if (b.type === 'web_fetch_tool_result' && b.content && b.content.type === 'web_fetch_result') {
      c.source(b.content.url, b.content.content?.title ?? null, null);
    }
  }
}

function anthropicResponse(j) {
  const c = new Collector('anthropic', 'response');
  anthropicBlocks(c, j.content ?? []);
  return c;
}

function anthropicStream(events) {
  const c = new Collector('anthropic', 'stream');
  const blocks = [];
  let stopped = false;
  for (const e of events) {
    switch (e.type) {
      case 'message_start':
        for (const [i, b] of (e.message?.content ?? []).entries()) blocks[i] = structuredClone(b);
        break;
      case 'content_block_start':
        blocks[e.index] = structuredClone(e.content_block);
        break;
      case 'content_block_delta': {
        const b = blocks[e.index];
        const d = e.delta;
        if (!b) {
          c.notes.push(`delta for unopened block ${e.index}`);
          break;
        }
        if (d.type === 'text_delta') b.text = (b.text ?? '') + d.text;
        else if (d.type === 'citations_delta') (b.citations ??= []).push(d.citation);
        else if (d.type === 'input_json_delta') b._json = (b._json ?? '') + d.partial_json;
        else if (d.type === 'thinking_delta') b.thinking = (b.thinking ?? '') + d.thinking;
        else if (d.type === 'signature_delta') b.signature = (b.signature ?? '') + d.signature;
        else c.notes.push(`unknown delta type ${d.type}`);
        break;
      }
      case 'content_block_stop': {
        const b = blocks[e.index];
        if (b && b._json !== undefined) {
          b.input = b._json === '' ? {} : JSON.parse(b._json);
          delete b._json;
        }
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      default:
        break; // ping, message_delta, error
    }
  }
  if (!stopped) c.notes.push('stream has no message_stop');
  anthropicBlocks(c, blocks);
  return c;
}

// ---------------------------------------------------------------------------
// OpenAI Responses (also xAI Responses, same wire shape)
// Response object (output[] items; message.content[] output_text with
//   annotations url_citation {start_index,end_index,url,title} and
//   file_citation {file_id, filename, index}):
//   https://platform.openai.com/docs/api-reference/responses/object
//   https://platform.openai.com/docs/guides/tools-web-search
//   https://platform.openai.com/docs/guides/tools-file-search
// Streaming events (response.output_text.delta keyed by item_id/output_index/
//   content_index, response.output_text.annotation.added with annotation_index,
//   response.output_text.done, response.completed):
//   https://platform.openai.com/docs/api-reference/responses-streaming
// xAI: https://docs.x.ai/docs/guides/tools/search-tools (url_citation without
//   offsets in the recordings).

function responsesParts(c, parts) {
  // parts: [{ text, annotations }] in output order
  for (const p of parts) {
    const text = p.text ?? '';
    c.answer += text;
    for (const a of p.annotations ?? []) {
      if (a.type === 'url_citation') {
        const has = Number.isInteger(a.start_index) && Number.isInteger(a.end_index);
        c.cite({
          spanText: has ? sliceCodePoints(text, a.start_index, a.end_index) : null,
          url: a.url,
          title: a.title ?? null,
          sourceId: null,
        });
      } else if (a.type === 'file_citation' || a.type === 'container_file_citation') {
        // file_citation has `index`, a single insertion point, not a span;
        // container_file_citation carries start_index/end_index.
        const has = Number.isInteger(a.start_index) && Number.isInteger(a.end_index);
        c.cite({
          spanText: has ? sliceCodePoints(text, a.start_index, a.end_index) : null,
          url: null,
          title: a.filename ?? null,
          sourceId: a.file_id ?? null,
        });
      } else if (a.type === 'file_path') {
        // a generated file, not a citation
      } else {
        c.notes.push(`unknown annotation type ${a.type}`);
      }
    }
  }
}

function responsesOutputParts(output) {
  const parts = [];
  for (const item of output ?? []) {
    if (item.type !== 'message') continue;
    for (const p of item.content ?? []) if (p.type === 'output_text') parts.push(p);
  }
  return parts;
}

function responsesListedSources(c, output) {
  // web_search_call.action.sources is only present when the request asked for it.
  for (const item of output ?? []) {
    if (item.type === 'web_search_call') {
      for (const s of item.action?.sources ?? []) if (s.url) c.source(s.url, s.title ?? null, null);
    }
  }
}

function responsesResponse(provider, j) {
  const c = new Collector(provider, 'response');
  responsesParts(c, responsesOutputParts(j.output));
  responsesListedSources(c, j.output);
  return c;
}

function responsesStream(provider, events) {
  const c = new Collector(provider, 'stream');
  const parts = new Map(); // key -> { order, text, annotations: [] }
  const key = (e) => `${e.output_index}/${e.content_index}`;
  const get = (e) => {
    const k = key(e);
    if (!parts.has(k)) parts.set(k, { output_index: e.output_index, content_index: e.content_index, text: '', annotations: [], done: null });
    return parts.get(k);
  };
  const completed = [];
  for (const e of events) {
    switch (e.type) {
      case 'response.content_part.added':
        if (e.part?.type === 'output_text') get(e);
        break;
      case 'response.output_text.delta':
        get(e).text += e.delta;
        break;
      case 'response.output_text.annotation.added': {
        const p = get(e);
        if (Number.isInteger(e.annotation_index)) p.annotations[e.annotation_index] = e.annotation;
        else p.annotations.push(e.annotation);
        break;
      }
      case 'response.output_text.done':
        get(e).done = e.text;
        break;
      case 'response.completed':
        completed.push(e.response);
        break;
      default:
        break;
    }
  }
  const ordered = [...parts.values()].sort((a, b) => a.output_index - b.output_index || a.content_index - b.content_index);
  for (const p of ordered) {
    if (p.done != null && p.done !== p.text) c.notes.push(`output ${p.output_index}/${p.content_index}: deltas differ from output_text.done`);
    p.annotations = p.annotations.filter(Boolean);
  }
  responsesParts(c, ordered);
  if (completed.length === 1) {
    const final = responsesOutputParts(completed[0].output);
    const finalText = final.map((p) => p.text).join('');
    if (finalText !== c.answer) c.notes.push('deltas differ from response.completed output_text');
    const nFinal = final.reduce((n, p) => n + (p.annotations?.length ?? 0), 0);
    const nStream = ordered.reduce((n, p) => n + p.annotations.length, 0);
    if (nFinal !== nStream) c.notes.push(`annotation.added count ${nStream} != response.completed count ${nFinal}`);
    responsesListedSources(c, completed[0].output);
  } else if (completed.length === 0) {
    c.notes.push('stream has no response.completed');
  } else {
    c.notes.push(`stream has ${completed.length} response.completed events`);
  }
  return c;
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// https://platform.openai.com/docs/api-reference/chat/object (message.content,
//   message.annotations[] {type: url_citation, url_citation: {start_index,
//   end_index, url, title}} for search models,
//   https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat)
// Streaming: concatenate choices[0].delta.content,
//   https://platform.openai.com/docs/api-reference/chat-streaming

// OpenRouter (OpenAI-compatible) sends start_index = end_index = 0 when the model
// behind it gave no position (https://openrouter.ai/docs/features/web-search): no span.
function chatAnnotations(c, text, annotations) {
  for (const a of annotations ?? []) {
    if (a.type !== 'url_citation') continue;
    const u = a.url_citation ?? a;
    const has = Number.isInteger(u.start_index) && Number.isInteger(u.end_index) && !(u.start_index === 0 && u.end_index === 0);
    c.cite({ spanText: has ? sliceCodePoints(text, u.start_index, u.end_index) : null, url: u.url, title: u.title ?? null });
  }
}

function chatResponse(j) {
  const c = new Collector('openai', 'response');
  const m = j.choices?.[0]?.message ?? {};
  c.answer = typeof m.content === 'string' ? m.content : '';
  chatAnnotations(c, c.answer, m.annotations);
  return c;
}

function chatStream(events) {
  const c = new Collector('openai', 'stream');
  const annotations = [];
  for (const e of events) {
    const ch = (e.choices ?? []).find((x) => (x.index ?? 0) === 0);
    if (!ch) continue;
    if (typeof ch.delta?.content === 'string') c.answer += ch.delta.content;
    if (Array.isArray(ch.delta?.annotations)) annotations.push(...ch.delta.annotations);
  }
  chatAnnotations(c, c.answer, annotations);
  return c;
}

// ---------------------------------------------------------------------------
// Perplexity (OpenAI-compatible chat completions + top-level `citations`
//   (array of URLs, numbered [1], [2], ... in the answer text) and, in newer
//   responses, `search_results` [{title, url, date}]):
//   https://docs.perplexity.ai/api-reference/chat-completions-post
// Perplexity gives no offsets, so each entry of `citations` becomes a citation
// with spanText null and sourceId = its 1-based marker number. We do not parse
// the [n] markers out of the text: that would be our interpretation, not the
// provider's statement. Streams repeat `citations` on every chunk; the last
// chunk that carries it wins. The last stream chunk has object
// "chat.completion.done".

function perplexityCollect(c, citations, searchResults) {
  const titles = new Map((searchResults ?? []).map((r) => [r.url, r.title ?? null]));
  (citations ?? []).forEach((url, i) => {
    c.cite({ spanText: null, url, title: titles.get(url) ?? null, sourceId: String(i + 1) });
  });
  for (const r of searchResults ?? []) c.source(r.url, r.title ?? null, null);
}

function perplexityResponse(j) {
  const c = new Collector('perplexity', 'response');
  c.answer = j.choices?.[0]?.message?.content ?? '';
  perplexityCollect(c, j.citations, j.search_results);
  return c;
}

function perplexityStream(events) {
  const c = new Collector('perplexity', 'stream');
  let citations = null;
  let searchResults = null;
  for (const e of events) {
    const d = e.choices?.[0]?.delta;
    if (typeof d?.content === 'string') c.answer += d.content;
    if (Array.isArray(e.citations)) citations = e.citations;
    if (Array.isArray(e.search_results)) searchResults = e.search_results;
  }
  perplexityCollect(c, citations, searchResults);
  return c;
}

// ---------------------------------------------------------------------------
// Cohere v2 chat
// Response: message.content[] {type: text, text}; message.citations[]
//   {start, end, text, sources: [{type, id, document: {id, text, title?, url?}}]}
//   https://docs.cohere.com/reference/chat , https://docs.cohere.com/docs/rag-citations
// Stream: message-start, content-start/content-delta(delta.message.content.text)/
//   content-end, citation-start (delta.message.citations = one citation),
//   citation-end, tool-plan-delta, tool-call-*, message-end:
//   https://docs.cohere.com/reference/chat-stream , https://docs.cohere.com/docs/rag-streaming
// Offsets: characters of the generated text.

function cohereCitations(c, text, citations) {
  for (const ci of citations ?? []) {
    if (ci.type && ci.type !== 'TEXT_CONTENT') continue; // PLAN / THINKING_CONTENT citations are not on the answer
    const has = Number.isInteger(ci.start) && Number.isInteger(ci.end);
    const spanText = has ? sliceCodePoints(text, ci.start, ci.end) : null;
    for (const s of ci.sources ?? []) {
      const doc = s.document ?? {};
      c.cite({
        spanText,
        providerSpanText: ci.text ?? null,
        url: doc.url ?? null,
        title: doc.title ?? null,
        sourceId: s.id ?? doc.id ?? null,
      });
    }
  }
}

function cohereResponse(j) {
  const c = new Collector('cohere', 'response');
  c.answer = (j.message?.content ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('');
  cohereCitations(c, c.answer, j.message?.citations);
  return c;
}

function cohereStream(events) {
  const c = new Collector('cohere', 'stream');
  const parts = [];
  const citations = [];
  for (const e of events) {
    if (e.type === 'content-start') {
      const ct = e.delta?.message?.content;
      parts[e.index ?? 0] = { type: ct?.type ?? 'text', text: ct?.text ?? '' };
    } else if (e.type === 'content-delta') {
      const p = (parts[e.index ?? 0] ??= { type: 'text', text: '' });
      p.text += e.delta?.message?.content?.text ?? '';
    } else if (e.type === 'citation-start') {
      const ci = e.delta?.message?.citations;
      if (Array.isArray(ci)) citations.push(...ci);
      else if (ci) citations.push(ci);
    }
  }
  c.answer = parts.filter((p) => p && p.type === 'text').map((p) => p.text).join('');
  cohereCitations(c, c.answer, citations);
  return c;
}

// ---------------------------------------------------------------------------
// Gemini generateContent / streamGenerateContent
// Response: candidates[0].content.parts[] (text; `thought: true` parts are
//   reasoning summaries, not the answer); candidates[0].groundingMetadata
//   {groundingChunks[] {web {uri,title}} | {maps {uri,title,placeId}} |
//   {retrievedContext {uri,title}}, groundingSupports[] {segment {partIndex?,
//   startIndex?, endIndex, text}, groundingChunkIndices[]}}:
//   https://ai.google.dev/api/generate-content#GroundingMetadata
//   https://ai.google.dev/gemini-api/docs/google-search
//   https://ai.google.dev/gemini-api/docs/maps-grounding
// Stream (SSE, alt=sse): each chunk is a GenerateContentResponse; text parts
//   concatenate; groundingMetadata is carried by the chunk(s) that have it (all
//   other chunks in the recordings carry an empty {}).

function geminiChunkInfo(ch) {
  if (ch?.web) return { url: ch.web.uri ?? null, title: ch.web.title ?? null, id: null };
  if (ch?.maps) return { url: ch.maps.uri ?? null, title: ch.maps.title ?? null, id: ch.maps.placeId ?? null };
  if (ch?.retrievedContext) {
    const r = ch.retrievedContext;
    return { url: r.uri ?? null, title: r.title ?? null, id: r.documentName ?? null };
  }
  return { url: null, title: null, id: null };
}

function geminiGrounding(c, answer, partTexts, gm) {
  if (!gm) return;
  const chunks = gm.groundingChunks ?? [];
  // sourceId / id: the Maps placeId when there is one, else the chunk's index
  // in groundingChunks (what groundingChunkIndices refer to).
  chunks.forEach((ch, idx) => {
    const s = geminiChunkInfo(ch);
    c.source(s.url, s.title, s.id ?? String(idx));
  });
  for (const sup of gm.groundingSupports ?? []) {
    const seg = sup.segment ?? {};
    const start = seg.startIndex ?? 0;
    const end = seg.endIndex ?? 0;
    // Offsets are bytes of the Part named by partIndex; without partIndex (and
    // always in streams) they index the whole answer text.
    const base = seg.partIndex != null && partTexts ? (partTexts[seg.partIndex] ?? '') : answer;
    const spanText = sliceUtf8(base, start, end);
    if (spanText == null) c.notes.push(`segment ${start}-${end} is not a UTF-8 boundary slice`);
    for (const i of sup.groundingChunkIndices ?? []) {
      const s = geminiChunkInfo(chunks[i]);
      c.cite({ spanText, providerSpanText: seg.text ?? null, url: s.url, title: s.title, sourceId: s.id ?? String(i) });
    }
  }
}

function geminiResponse(j, form = 'response') {
  const c = new Collector('gemini', form);
  const cand = j.candidates?.[0] ?? {};
  const parts = cand.content?.parts ?? [];
  const partTexts = parts.map((p) => (typeof p.text === 'string' && !p.thought ? p.text : ''));
  c.answer = partTexts.join('');
  geminiGrounding(c, c.answer, partTexts, cand.groundingMetadata);
  return c;
}

function geminiStream(events) {
  const c = new Collector('gemini', 'stream');
  let gm = null;
  for (const e of events) {
    const cand = e.candidates?.[0];
    if (!cand) continue;
    for (const p of cand.content?.parts ?? []) if (typeof p.text === 'string' && !p.thought) c.answer += p.text;
    const g = cand.groundingMetadata;
    if (g && Object.keys(g).length > 0) {
      if (gm) c.notes.push('more than one chunk carries groundingMetadata; the last one wins');
      gm = g;
    }
  }
  geminiGrounding(c, c.answer, null, gm);
  return c;
}

// Gemini Interactions API (steps[] of model_output with content[] text +
// annotations[] url_citation {start_index, end_index, url, title}):
//   https://ai.google.dev/gemini-api/docs/interactions
// The docs do not state the unit of start_index/end_index; the recording is
// pure ASCII, so bytes and characters coincide. We slice by UTF-8 bytes, like
// generateContent segments.
function geminiInteraction(j) {
  const c = new Collector('gemini', 'response');
  for (const st of j.steps ?? []) {
    if (st.type !== 'model_output') continue;
    for (const p of st.content ?? []) {
      if (p.type !== 'text') continue;
      c.answer += p.text ?? '';
      for (const a of p.annotations ?? []) {
        if (a.type !== 'url_citation') continue;
        c.cite({ spanText: sliceUtf8(p.text ?? '', a.start_index ?? 0, a.end_index ?? 0), url: a.url, title: a.title ?? null });
      }
    }
  }
  return c;
}

// ---------------------------------------------------------------------------
// Amazon Bedrock Converse / ConverseStream
// Response: output.message.content[] of ContentBlock unions ({text}, {citationsContent:
//   {content: [{text}], citations: [{title, sourceContent: [{text}], location:
//   {documentChar|documentPage|documentChunk: {documentIndex, start, end}} |
//   {web: {url, domain}} | {searchResultLocation: {searchResultIndex, …}}}]}},
//   {reasoningContent}, {toolUse}, …):
//   https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
//   https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CitationsContentBlock.html
// Stream: events keyed by name (messageStart, contentBlockStart, contentBlockDelta
//   {contentBlockIndex, delta: {text} | {citation} | {reasoningContent} | {toolUse}},
//   contentBlockStop, messageStop, metadata):
//   https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
// Location start/end count the *document's* characters, pages or chunks, not the
// answer's: a citation covers the text of the block it belongs to. citedText is the
// sourceContent texts joined.

function bedrockCite(c, blockText, ci) {
  const loc = ci.location ?? {};
  const kind = Object.keys(loc)[0];
  const place = kind ? loc[kind] : {};
  const quote = (ci.sourceContent ?? []).map((x) => x.text ?? '').join('');
  const index = place.documentIndex ?? place.searchResultIndex;
  c.cite({
    citedText: quote === '' ? null : quote,
    spanText: blockText,
    url: place.url ?? null,
    title: ci.title ?? null,
    sourceId: place.url == null && index != null ? String(index) : null,
  });
}

function bedrockResponse(j) {
  const c = new Collector('bedrock', 'response');
  for (const b of j.output?.message?.content ?? []) {
    if (typeof b.text === 'string') c.answer += b.text;
    else if (b.citationsContent) {
      const text = (b.citationsContent.content ?? []).map((x) => x.text ?? '').join('');
      c.answer += text;
      for (const ci of b.citationsContent.citations ?? []) bedrockCite(c, text, ci);
    }
  }
  return c;
}

function bedrockStream(events) {
  const c = new Collector('bedrock', 'stream');
  const blocks = [];
  for (const e of events) {
    const d = e.contentBlockDelta;
    if (!d) continue;
    const b = (blocks[d.contentBlockIndex] ??= { text: '', citations: [] });
    if (typeof d.delta?.text === 'string') b.text += d.delta.text;
    if (d.delta?.citation) b.citations.push(d.delta.citation);
  }
  for (const b of blocks) {
    if (!b) continue;
    c.answer += b.text;
    for (const ci of b.citations) bedrockCite(c, b.text, ci);
  }
  return c;
}

// The Interactions API's stream: events with `event_type`; `step.delta` appends
// `delta.text` (type "text") to step `index`, and a `text_annotation_delta` (alias
// `text_annotation`) delta lists annotations indexed into that step's whole text.
function geminiInteractionStream(events) {
  const c = new Collector('gemini', 'stream');
  const steps = new Map();
  for (const e of events) {
    if (e.event_type !== 'step.delta') continue;
    const s = steps.get(e.index) ?? { text: '', annotations: [] };
    steps.set(e.index, s);
    if (e.delta?.type === 'text') s.text += e.delta.text ?? '';
    if (e.delta?.type === 'text_annotation_delta' || e.delta?.type === 'text_annotation') s.annotations.push(...(e.delta.annotations ?? []));
  }
  for (const s of [...steps.entries()].sort((a, b) => a[0] - b[0]).map((x) => x[1])) {
    c.answer += s.text;
    for (const a of s.annotations) {
      if (a.type !== 'url_citation') continue;
      c.cite({ spanText: sliceUtf8(s.text, a.start_index ?? 0, a.end_index ?? 0), url: a.url, title: a.title ?? null });
    }
  }
  return c;
}

// ---------------------------------------------------------------------------
// VCR cassettes (pydantic-ai, YAML written by PyYAML with width=120). The
// expectation is taken from the FIRST interaction's response: `parsed_body`
// (a JSON body re-serialised as YAML) or `body.string` (a raw SSE body).

export function cassetteFirstResponse(text) {
  const doc = parseYaml(text);
  const r = doc?.interactions?.[0]?.response;
  if (!r) throw new Error('cassette has no interactions[0].response');
  if (r.parsed_body !== undefined) return { kind: 'json', body: r.parsed_body };
  const s = r.body?.string;
  if (typeof s !== 'string') throw new Error('cassette response has neither parsed_body nor body.string');
  return { kind: 'sse', events: parseSse(s) };
}

// ---------------------------------------------------------------------------
// Dispatcher

function providerOf(file) {
  const o = originOf(file);
  if (o) return o.provider;
  return basename(file).split('-')[0];
}

/**
 * Expected reading of one vendored fixture, computed only from its raw text.
 * @param {string} file fixture name (as in origins.json)
 * @param {string} [text] its content (read from disk when omitted)
 */
export function expectFor(file, text = readFixture(file)) {
  const name = basename(file);
  const provider = providerOf(name);
  let c;
  if (name.endsWith('.yaml')) {
    const r = cassetteFirstResponse(text);
    if (provider !== 'gemini') throw new Error(`no cassette reader for provider ${provider}`);
    c = r.kind === 'json' ? geminiResponse(r.body) : geminiStream(r.events);
  } else if (name.endsWith('.chunks.txt')) {
    const ev = parseChunks(text);
    if (provider === 'anthropic') c = anthropicStream(ev);
    else if (provider === 'openai' || provider === 'xai' || provider === 'azure') {
      c = ev.some((e) => typeof e.type === 'string' && e.type.startsWith('response.'))
        ? responsesStream(provider, ev)
        : chatStream(ev);
    } else if (provider === 'perplexity') c = perplexityStream(ev);
    else if (provider === 'cohere') c = cohereStream(ev);
    else if (provider === 'gemini') c = ev[0]?.event_type ? geminiInteractionStream(ev) : geminiStream(ev);
    else if (provider === 'bedrock') c = bedrockStream(ev);
    else throw new Error(`no stream reader for provider ${provider}`);
  } else if (name.endsWith('.json')) {
    const j = JSON.parse(text);
    if (provider === 'anthropic') c = anthropicResponse(j);
    else if (provider === 'openai' || provider === 'xai' || provider === 'azure') {
      c = Array.isArray(j.output) ? responsesResponse(provider, j) : chatResponse(j);
    } else if (provider === 'perplexity') c = perplexityResponse(j);
    else if (provider === 'cohere') c = cohereResponse(j);
    else if (provider === 'gemini') c = Array.isArray(j.steps) ? geminiInteraction(j) : geminiResponse(j);
    else if (provider === 'bedrock') c = bedrockResponse(j);
    else throw new Error(`no response reader for provider ${provider}`);
  } else {
    throw new Error(`unknown fixture extension: ${name}`);
  }
  c.provider = provider;
  const o = originOf(name);
  if (o?.form) c.form = o.form;
  return c.result();
}

// ---------------------------------------------------------------------------
// Minimal YAML reader: the subset PyYAML's emitter produces for VCR cassettes
// (block mappings and sequences, indentless sequences under a key, plain /
// single-quoted / double-quoted scalars folded over several lines, literal
// block scalars `|`, `|-`, `|+` with optional indentation indicator, empty flow
// collections `{}` / `[]`). Anything else throws rather than guessing.
// Rules: YAML 1.1 / 1.2 spec sections 7.3 (flow scalars, line folding) and 8.1
// (block scalars); plain-scalar resolution follows PyYAML's YAML 1.1 resolver.

export function parseYaml(src) {
  let lines = src.replace(/\r\n?/g, '\n').split('\n');
  // a single document: drop a leading `---` and anything from a `...` end marker on
  const endMark = lines.findIndex((l) => /^\.\.\.\s*$/.test(l));
  if (endMark >= 0) lines = lines.slice(0, endMark);
  const startMark = lines.findIndex((l) => !/^\s*(#.*)?$/.test(l));
  if (startMark >= 0 && /^---\s*$/.test(lines[startMark])) lines[startMark] = '';
  let i = 0;
  const indentOf = (l) => l.length - l.replace(/^ +/, '').length;
  const isBlank = (l) => /^\s*(#.*)?$/.test(l);
  const skipBlank = () => {
    while (i < lines.length && isBlank(lines[i])) i++;
  };
  const fail = (msg) => {
    throw new Error(`yaml line ${i + 1}: ${msg}`);
  };

  const KEY = /^((?:'(?:[^']|'')*')|(?:"(?:[^"\\]|\\.)*")|(?:[^\s'"#\-?:,\[\]{}&*!|>%@`][^#]*?|-[^\s#][^#]*?)):(?: +|$)/;

  function parseNode(minIndent) {
    skipBlank();
    if (i >= lines.length) return null;
    const ind = indentOf(lines[i]);
    if (ind < minIndent) return null;
    const t = lines[i].slice(ind);
    if (t === '-' || t.startsWith('- ')) return parseSeq(ind);
    if (KEY.test(t)) return parseMap(ind);
    // a bare scalar document / item
    const rest = t;
    i++;
    return scalarFrom(rest, ind - 1);
  }

  function parseSeq(ind) {
    const out = [];
    for (;;) {
      skipBlank();
      if (i >= lines.length) break;
      const l = lines[i];
      const li = indentOf(l);
      if (li < ind) break;
      if (li > ind) fail('bad sequence indentation');
      const t = l.slice(ind);
      if (!(t === '-' || t.startsWith('- '))) break;
      const rest = t === '-' ? '' : t.slice(2).replace(/^ +/, '');
      if (rest === '') {
        i++;
        out.push(parseNode(ind + 1));
      } else {
        const col = l.length - rest.length;
        if (rest === '-' || rest.startsWith('- ') || KEY.test(rest)) {
          lines[i] = ' '.repeat(col) + rest; // re-read the item as a node at its own column
          out.push(parseNode(col));
        } else {
          i++;
          out.push(scalarFrom(rest, ind));
        }
      }
    }
    return out;
  }

  function parseMap(ind) {
    const out = {};
    for (;;) {
      skipBlank();
      if (i >= lines.length) break;
      const l = lines[i];
      const li = indentOf(l);
      if (li < ind) break;
      if (li > ind) fail('bad mapping indentation');
      const t = l.slice(ind);
      if (t === '-' || t.startsWith('- ')) break; // indentless sequence belongs to the parent key
      const m = KEY.exec(t);
      if (!m) fail(`expected a mapping key: ${JSON.stringify(t.slice(0, 40))}`);
      let key = m[1];
      if (key.startsWith("'")) key = key.slice(1, -1).replace(/''/g, "'");
      else if (key.startsWith('"')) key = JSON.parse(key);
      key = key.trimEnd();
      const rest = t.slice(m[0].length);
      i++;
      if (rest === '' || rest.startsWith('#')) {
        skipBlank();
        if (i < lines.length) {
          const ni = indentOf(lines[i]);
          const nt = lines[i].slice(ni);
          if (ni > ind) out[key] = parseNode(ni);
          else if (ni === ind && (nt === '-' || nt.startsWith('- '))) out[key] = parseSeq(ind);
          else out[key] = null;
        } else out[key] = null;
      } else {
        out[key] = scalarFrom(rest, ind);
      }
    }
    return out;
  }

  // A scalar whose first line (after `key: ` or `- `) is `rest`; continuation
  // lines must be indented deeper than `parentIndent`.
  function scalarFrom(rest, parentIndent) {
    if (rest[0] === '|' || rest[0] === '>') return blockScalar(rest, parentIndent);
    if (rest[0] === "'") return singleQuoted(rest, parentIndent);
    if (rest[0] === '"') return doubleQuoted(rest, parentIndent);
    if (rest === '{}') return {};
    if (rest === '[]') return [];
    if (rest[0] === '{' || rest[0] === '[') fail('non-empty flow collections are not supported');
    if (rest[0] === '&' || rest[0] === '*' || rest[0] === '!') fail('anchors, aliases and tags are not supported');
    return plain(rest, parentIndent);
  }

  // The raw lines of a quoted scalar: `first` (its first line's content) plus
  // every following line up to the one for which isEnd(line, isFirst) is true.
  // Folding happens later (spec 6.5 / 7.3).
  function foldLines(first, parentIndent, isEnd) {
    const raw = [first];
    while (!isEnd(raw[raw.length - 1], raw.length === 1)) {
      if (i >= lines.length) fail('unterminated scalar');
      const l = lines[i];
      if (l.trim() !== '' && indentOf(l) <= parentIndent) fail('scalar continuation not indented');
      raw.push(l);
      i++;
    }
    return raw;
  }

  function singleQuoted(rest, parentIndent) {
    // a line closes the scalar if a quote is left once the '' escapes are removed
    const closes = (line, isFirst) => /'/.test((isFirst ? line.slice(1) : line).replace(/''/g, ''));
    const raw = foldLines(rest, parentIndent, closes);
    const text = raw.map((l, k) => (k === 0 ? l.slice(1) : l));
    // cut after the closing quote on the last line
    const last = text[text.length - 1];
    let end = -1;
    for (let k = 0; k < last.length; k++) {
      if (last[k] === "'") {
        if (last[k + 1] === "'") {
          k++;
          continue;
        }
        end = k;
        break;
      }
    }
    const trailing = last.slice(end + 1).trim();
    if (trailing !== '' && !trailing.startsWith('#')) fail('junk after single-quoted scalar');
    text[text.length - 1] = last.slice(0, end);
    return foldFlow(text, false).replace(/''/g, "'");
  }

  function doubleQuoted(rest, parentIndent) {
    const closes = (s, isFirst) => {
      const body = isFirst ? s.slice(1) : s;
      for (let k = 0; k < body.length; k++) {
        if (body[k] === '\\') k++;
        else if (body[k] === '"') return true;
      }
      return false;
    };
    const raw = foldLines(rest, parentIndent, closes);
    const segs = raw.map((l, k) => (k === 0 ? l.slice(1) : l));
    // Walk the raw text, decoding escapes and folding line breaks.
    let out = '';
    let protectedLen = 0; // chars produced by escapes must survive trimming
    for (let k = 0; k < segs.length; k++) {
      const s = k === 0 ? segs[k] : segs[k].replace(/^[ \t]+/, '');
      let escapedBreak = false;
      let closed = false;
      for (let p = 0; p < s.length; p++) {
        const ch = s[p];
        if (ch === '"') {
          const trailing = s.slice(p + 1).trim();
          if (trailing !== '' && !trailing.startsWith('#')) fail('junk after double-quoted scalar');
          closed = true;
          break;
        }
        if (ch !== '\\') {
          out += ch;
          continue;
        }
        p++;
        if (p >= s.length) {
          escapedBreak = true;
          break;
        }
        const e = s[p];
        const simple = { 0: '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029' };
        if (e in simple) out += simple[e];
        else if (e === 'x' || e === 'u' || e === 'U') {
          const n = { x: 2, u: 4, U: 8 }[e];
          const hex = s.slice(p + 1, p + 1 + n);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) fail('bad escape');
          out += String.fromCodePoint(parseInt(hex, 16));
          p += n;
        } else fail(`unknown escape \\${e}`);
        protectedLen = out.length;
      }
      if (closed) break;
      if (k === segs.length - 1) fail('unterminated double-quoted scalar');
      // line break inside the scalar
      if (escapedBreak) continue; // escaped line break: no folding character
      // trim unescaped trailing white space, then fold
      let cut = out.length;
      while (cut > protectedLen && (out[cut - 1] === ' ' || out[cut - 1] === '\t')) cut--;
      out = out.slice(0, cut);
      let empties = 0; // the closing line is never blank, so this stops before it
      while (k + 1 < segs.length && segs[k + 1].trim() === '') {
        empties++;
        k++;
      }
      out += empties > 0 ? '\n'.repeat(empties) : ' ';
      protectedLen = out.length;
    }
    return out;
  }

  // Fold already-unquoted flow lines (single-quoted / plain).
  function foldFlow(segs, isPlain) {
    let out = '';
    for (let k = 0; k < segs.length; k++) {
      let s = k === 0 ? segs[k] : segs[k].replace(/^[ \t]+/, '');
      if (k < segs.length - 1) s = s.replace(/[ \t]+$/, '');
      out += s;
      if (k < segs.length - 1) {
        let empties = 0;
        while (k + 1 < segs.length - 1 && segs[k + 1].trim() === '') {
          empties++;
          k++;
        }
        out += empties > 0 ? '\n'.repeat(empties) : ' ';
      }
    }
    return isPlain ? out.trim() : out;
  }

  function plain(rest, parentIndent) {
    const segs = [rest.replace(/\s+#.*$/, '')];
    // continuation: following non-blank lines deeper than parentIndent that are
    // not themselves keys/items at a mapping level (the emitter indents them).
    for (;;) {
      let j = i;
      const blanks = [];
      while (j < lines.length && lines[j].trim() === '') {
        blanks.push('');
        j++;
      }
      if (j >= lines.length) break;
      const l = lines[j];
      if (indentOf(l) <= parentIndent) break;
      const t = l.slice(indentOf(l));
      if (t.startsWith('#')) break;
      segs.push(...blanks, l);
      i = j + 1;
    }
    const s = foldFlow(segs, true);
    return resolvePlain(s);
  }

  function blockScalar(header, parentIndent) {
    const m = /^([|>])([1-9])?([-+])?([1-9])?\s*(#.*)?$/.exec(header);
    if (!m) fail(`bad block scalar header ${header}`);
    if (m[1] === '>') fail('folded block scalars are not supported');
    const explicit = m[2] || m[4];
    const chomp = m[3] || '';
    let blockIndent = explicit ? parentIndent + Number(explicit) : null;
    const body = [];
    for (;;) {
      if (i >= lines.length) break;
      const l = lines[i];
      if (l.trim() === '') {
        body.push(l);
        i++;
        continue;
      }
      const li = indentOf(l);
      if (blockIndent == null) {
        if (li <= parentIndent) break;
        blockIndent = li;
      }
      if (li < blockIndent) break;
      body.push(l);
      i++;
    }
    if (blockIndent == null) blockIndent = parentIndent + 1;
    const content = body.map((l) => (l.length >= blockIndent ? l.slice(blockIndent) : ''));
    // trailing empty lines are subject to chomping
    let n = content.length;
    while (n > 0 && content[n - 1] === '') n--;
    const core = content.slice(0, n).join('\n');
    const trailingBreaks = content.length - n;
    if (chomp === '-') return core;
    if (chomp === '+') return core + '\n'.repeat((n > 0 ? 1 : 0) + trailingBreaks);
    return n > 0 ? core + '\n' : '';
  }

  // PyYAML's YAML 1.1 implicit resolvers (yaml/resolver.py).
  function resolvePlain(s) {
    if (s === '' || s === '~' || /^(null|Null|NULL)$/.test(s)) return null;
    if (/^(yes|Yes|YES|true|True|TRUE|on|On|ON)$/.test(s)) return true;
    if (/^(no|No|NO|false|False|FALSE|off|Off|OFF)$/.test(s)) return false;
    if (/^[-+]?(0|[1-9][0-9_]*)$/.test(s)) return Number(s.replace(/_/g, ''));
    if (/^[-+]?0b[01_]+$/.test(s)) return sign(s) * Number.parseInt(s.replace(/[-+_]|0b/g, ''), 2);
    if (/^[-+]?0[0-7_]+$/.test(s)) return sign(s) * Number.parseInt(s.replace(/[-+_]/g, ''), 8);
    if (/^[-+]?0x[0-9a-fA-F_]+$/.test(s)) return sign(s) * Number.parseInt(s.replace(/[-+_]|0x/g, ''), 16);
    if (/^[-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?$/.test(s) || /^\.[0-9_]+([eE][-+][0-9]+)?$/.test(s)) {
      return Number(s.replace(/_/g, '').replace(/\.$/, '.0').replace(/\.([eE])/, '.0$1'));
    }
    if (/^[-+]?\.(inf|Inf|INF)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
    if (/^\.(nan|NaN|NAN)$/.test(s)) return NaN;
    if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(s)) fail('sexagesimal numbers are not supported');
    if (
      /^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)$/.test(s)
    ) {
      fail('timestamps are not supported');
    }
    return s;
  }
  const sign = (s) => (s.startsWith('-') ? -1 : 1);

  const doc = parseNode(0);
  skipBlank();
  if (i < lines.length) fail('trailing content');
  return doc;
}

// ---------------------------------------------------------------------------
// CLI: node tests/reference/providers-expect.mjs [--json] [file...]

function summarize(file, e) {
  const spans = e.citations.filter((c) => c.spanText != null).length;
  const checked = e.citations.filter((c) => c.providerSpanText != null);
  const agree = checked.filter((c) => c.providerSpanText === c.spanText).length;
  return {
    file,
    provider: e.provider,
    form: e.form,
    answerChars: e.answer.length,
    citations: e.citations.length,
    withSpan: spans,
    spanCheck: checked.length ? `${agree}/${checked.length}` : '-',
    sources: e.sources.length,
    notes: e.notes.length,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const asJson = args.includes('--json');
  const files = args.filter((a) => !a.startsWith('--'));
  // A `sources` file holds the documents a request sent, not a response: nothing to expect.
  const list = files.length ? files.map((f) => basename(f)) : listFixtures().filter((f) => originOf(f).form !== 'sources');
  let failed = 0;
  const rows = [];
  const results = {};
  for (const f of list) {
    try {
      const e = expectFor(f);
      results[f] = e;
      rows.push(summarize(f, e));
    } catch (err) {
      failed++;
      rows.push({ file: f, error: err.message });
    }
  }
  // Derived files must read exactly like the cassette they were extracted from.
  for (const o of origins()) {
    if (!o.derived_from || !results[o.file] || !results[o.derived_from]) continue;
    const a = results[o.file];
    const b = results[o.derived_from];
    const same = JSON.stringify({ ...a, form: null }) === JSON.stringify({ ...b, form: null });
    if (!same) {
      failed++;
      rows.push({ file: o.file, error: `differs from ${o.derived_from}` });
    }
  }
  if (asJson) {
    console.log(JSON.stringify(files.length ? results : rows, null, 2));
  } else {
    const cols = ['file', 'provider', 'form', 'answerChars', 'citations', 'withSpan', 'spanCheck', 'sources', 'notes'];
    const table = [cols, ...rows.map((r) => (r.error ? [r.file, `ERROR: ${r.error}`] : cols.map((k) => String(r[k]))))];
    const widths = cols.map((_, k) => Math.max(...table.filter((r) => r.length === cols.length || k === 0).map((r) => (r[k] ?? '').length)));
    for (const r of table) console.log(r.length === 2 ? `${r[0].padEnd(widths[0])}  ${r[1]}` : r.map((v, k) => v.padEnd(widths[k])).join('  '));
    for (const [f, e] of Object.entries(results)) for (const n of e.notes) console.log(`note ${f}: ${n}`);
  }
  process.exit(failed ? 1 : 0);
}
