var __defProp = Object.defineProperty;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/env.js
var env_exports = {};
__export(env_exports, {
  isoNow: () => isoNow,
  now: () => now,
  randomId: () => randomId
});
function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
__name(now, "now");
function isoNow() {
  return (/* @__PURE__ */ new Date()).toISOString();
}
__name(isoNow, "isoNow");
function randomId() {
  return globalThis.crypto.randomUUID();
}
__name(randomId, "randomId");

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/markers.js
function buildMarkers(text, flat, kinds) {
  const count = flat[0];
  const refsBase = 1 + count * 8;
  const out = new Array(count);
  for (let i = 0, p = 1; i < count; i++, p += 8) {
    const refKind = flat[p + 5];
    const at = refsBase + flat[p + 6];
    const len = flat[p + 7];
    const marker = {
      span: { start: flat[p + 2], end: flat[p + 3] },
      refs: [],
      kind: kinds[flat[p + 4]],
      raw: text.slice(flat[p], flat[p + 1])
    };
    if (refKind === 0) {
      for (let r = 0; r < len; r++) marker.refs.push(flat[at + r]);
    } else if (refKind === 1) {
      for (let r = 0; r < len; r++) marker.refs.push(text.slice(flat[at + 2 * r], flat[at + 2 * r + 1]));
    } else {
      marker.chapter = text.slice(flat[at], flat[at + 1]);
      marker.section = len;
    }
    out[i] = marker;
  }
  return out;
}
__name(buildMarkers, "buildMarkers");

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/text.js
var text_exports = {};
__export(text_exports, {
  encodeInto: () => encodeInto,
  endsInHighSurrogate: () => endsInHighSurrogate,
  streamChunk: () => streamChunk
});
var encoder = new TextEncoder();
function encodeInto(text, target) {
  return encoder.encodeInto(text, target).written;
}
__name(encodeInto, "encodeInto");
function endsInHighSurrogate(text) {
  const last = text.charCodeAt(text.length - 1);
  return last >= 55296 && last < 56320;
}
__name(endsInHighSurrogate, "endsInHighSurrogate");
function streamChunk(text, events) {
  return { text, events: events ?? [] };
}
__name(streamChunk, "streamChunk");

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/transform.js
var FORMATS = ["auto", "text", "openai", "anthropic", "ndjson"];
function codedError(code, message) {
  return Object.assign(new Error(message), { code });
}
__name(codedError, "codedError");
function citationsPayload(report, sources) {
  const seen = /* @__PURE__ */ new Set();
  const citations = [];
  for (const c of report.citations) {
    if (!c.valid || c.sourceIndex == null || seen.has(c.sourceIndex)) continue;
    seen.add(c.sourceIndex);
    const position = sources.findIndex((s, i) => (s.index ?? i + 1) === c.sourceIndex);
    const source = sources[position] ?? {};
    citations.push({ index: c.sourceIndex, title: source.title ?? "", url: source.url ?? null, slug: source.slug ?? null });
  }
  return { status: "citations", citations, isComplete: true, report };
}
__name(citationsPayload, "citationsPayload");
function makeTransform(stream, input, options) {
  const format = options?.format ?? "auto";
  if (!FORMATS.includes(format)) {
    throw codedError("invalid_option", `options.format: "${format}" is not one of ${FORMATS.join(", ")}`);
  }
  const sources = Array.isArray(input?.sources) ? input.sources : [];
  const decoder = new TextDecoder();
  const encoder2 = new TextEncoder();
  let resolveReport, rejectReport;
  const report = new Promise((resolve, reject) => {
    resolveReport = resolve;
    rejectReport = reject;
  });
  report.catch(() => {
  });
  let kind = format === "auto" ? null : format;
  let binary = false;
  let pending = "";
  let finished = null;
  let heldStop = null;
  let lastDeltaIndex = 0;
  let ndjsonField = null;
  const finish = /* @__PURE__ */ __name(() => {
    if (!finished) {
      transform.answer = stream.answer;
      finished = stream.finish();
      resolveReport(finished.report);
    }
    return finished;
  }, "finish");
  const citationsEvent = /* @__PURE__ */ __name(() => `event: citations
data: ${JSON.stringify(citationsPayload(finished.report, sources))}

`, "citationsEvent");
  function detect(text, last) {
    const start = text.trimStart();
    if (!start) return last ? "text" : null;
    if (/^(data|event|id|retry):/.test(start) || start.startsWith(":")) {
      if (start.includes('"choices"')) return "openai";
      if (/"type"\s*:\s*"(message_start|content_block_start|content_block_delta)"/.test(start)) return "anthropic";
      return last || start.split(/\r?\n\r?\n/).length > 3 ? "openai" : null;
    }
    if (start.startsWith("{")) return "ndjson";
    const couldBeSse = ["data:", "event:", "id:", "retry:"].some((p) => start.length < p.length && p.startsWith(start));
    return couldBeSse && !last ? null : "text";
  }
  __name(detect, "detect");
  function sseBlock(block) {
    let event = "message";
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    return { event, data: data.join("\n") };
  }
  __name(sseBlock, "sseBlock");
  function parseJson(data, what) {
    try {
      return JSON.parse(data);
    } catch {
      throw codedError("invalid_input", `${what} is not JSON: ${data.slice(0, 80)}`);
    }
  }
  __name(parseJson, "parseJson");
  function openaiEvent(block) {
    const { data } = sseBlock(block);
    if (!data) return block + "\n\n";
    if (data.trim() === "[DONE]") {
      if (finished) return block + "\n\n";
      const end2 = finish();
      const tail = end2.text ? `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: end2.text }, finish_reason: null }] })}

` : "";
      return tail + citationsEvent() + block + "\n\n";
    }
    const chunk = parseJson(data, "an OpenAI stream event");
    const choice = chunk?.choices?.[0];
    if (!choice || finished) return block + "\n\n";
    const delta = choice.delta ?? {};
    let text = typeof delta.content === "string" ? stream.push(delta.content).text : null;
    let after = "";
    if (choice.finish_reason != null) {
      text = (text ?? "") + finish().text;
      after = citationsEvent();
    }
    if (text !== null) choice.delta = { ...delta, content: text };
    return `data: ${JSON.stringify(chunk)}

` + after;
  }
  __name(openaiEvent, "openaiEvent");
  function anthropicEvent(block) {
    const { event, data } = sseBlock(block);
    const payload = data ? parseJson(data, "an Anthropic stream event") : {};
    const type = payload.type ?? event;
    let out = "";
    if (heldStop && type !== "message_delta" && type !== "message_stop") {
      out += heldStop;
      heldStop = null;
    }
    if (finished) return out + block + "\n\n";
    if (type === "content_block_delta" && payload.delta?.type === "text_delta") {
      lastDeltaIndex = payload.index ?? 0;
      payload.delta.text = stream.push(payload.delta.text ?? "").text;
      return out + `event: content_block_delta
data: ${JSON.stringify(payload)}

`;
    }
    if (type === "content_block_stop" && payload.index === lastDeltaIndex) {
      heldStop = block + "\n\n";
      return out;
    }
    if (type === "message_delta" || type === "message_stop") {
      const end2 = finish();
      if (end2.text) {
        const delta = { type: "content_block_delta", index: lastDeltaIndex, delta: { type: "text_delta", text: end2.text } };
        out += `event: content_block_delta
data: ${JSON.stringify(delta)}

`;
      }
      out += (heldStop ?? "") + citationsEvent();
      heldStop = null;
    }
    return out + block + "\n\n";
  }
  __name(anthropicEvent, "anthropicEvent");
  const TEXT_FIELDS = ["text", "content", "delta", "response"];
  function ndjsonLine(line) {
    if (!line.trim()) return line + "\n";
    const object = parseJson(line, "an NDJSON line");
    if (finished) return line + "\n";
    const holder = typeof object?.message?.content === "string" ? object.message : object;
    ndjsonField ??= TEXT_FIELDS.find((f) => typeof holder?.[f] === "string") ?? null;
    if (ndjsonField && typeof holder[ndjsonField] === "string") {
      holder[ndjsonField] = stream.push(holder[ndjsonField]).text;
    }
    if (object?.done === true) {
      if (ndjsonField) holder[ndjsonField] = (holder[ndjsonField] ?? "") + finish().text;
      else finish();
      return JSON.stringify(object) + "\n" + ndjsonCitations();
    }
    return JSON.stringify(object) + "\n";
  }
  __name(ndjsonLine, "ndjsonLine");
  const ndjsonCitations = /* @__PURE__ */ __name(() => JSON.stringify({ event: "citations", data: citationsPayload(finished.report, sources) }) + "\n", "ndjsonCitations");
  function take(text, last) {
    pending += text;
    kind ??= detect(pending, last);
    if (!kind) return "";
    if (kind === "text") {
      const out2 = stream.push(pending).text;
      pending = "";
      return out2;
    }
    let out = "";
    if (kind === "ndjson") {
      const lines = pending.split("\n");
      pending = last ? "" : lines.pop();
      for (const line of lines) out += ndjsonLine(line);
      return out;
    }
    const blocks2 = pending.split(/\r?\n\r?\n/);
    pending = last ? "" : blocks2.pop();
    for (const block of blocks2) {
      if (!block.trim()) continue;
      out += kind === "openai" ? openaiEvent(block) : anthropicEvent(block);
    }
    return out;
  }
  __name(take, "take");
  function end() {
    let out = take(decoder.decode(), true);
    if (finished) return out + (heldStop ?? "");
    const tail = finish().text;
    if (kind === "text" || !kind) return out + tail;
    if (kind === "ndjson") {
      const line = tail ? JSON.stringify({ [ndjsonField ?? "text"]: tail }) + "\n" : "";
      return out + line + ndjsonCitations();
    }
    if (kind === "openai" && tail) {
      out += `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: tail }, finish_reason: null }] })}

`;
    }
    if (kind === "anthropic" && tail) {
      const delta = { type: "content_block_delta", index: lastDeltaIndex, delta: { type: "text_delta", text: tail } };
      out += `event: content_block_delta
data: ${JSON.stringify(delta)}

`;
    }
    return out + (heldStop ?? "") + citationsEvent();
  }
  __name(end, "end");
  const emit = /* @__PURE__ */ __name((controller, text) => {
    if (text) controller.enqueue(binary ? encoder2.encode(text) : text);
  }, "emit");
  const transform = new TransformStream({
    transform(chunk, controller) {
      try {
        let text;
        if (typeof chunk === "string") text = chunk;
        else if (chunk instanceof Uint8Array || ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer) {
          binary = true;
          text = decoder.decode(chunk, { stream: true });
        } else throw codedError("invalid_input", "chunk: expected a string or bytes");
        emit(controller, take(text, false));
      } catch (error) {
        rejectReport(error);
        throw error;
      }
    },
    flush(controller) {
      try {
        emit(controller, end());
      } catch (error) {
        rejectReport(error);
        throw error;
      }
    }
  });
  transform.report = report;
  transform.answer = null;
  return transform;
}
__name(makeTransform, "makeTransform");

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/embed.js
var embed_exports = {};
__export(embed_exports, {
  embedThen: () => embedThen
});
function embedThen(embed, texts, finish) {
  return Promise.resolve().then(() => embed(texts)).then((vectors) => finish(vectors));
}
__name(embedThen, "embedThen");

// ../../pkg/web/snippets/citeproof-c1b750986603a30c/src/wasm/render.js
var render_exports = {};
__export(render_exports, {
  citationTree: () => citationTree,
  escapeHtml: () => escapeHtml,
  renderHtml: () => renderHtml,
  safeUrl: () => safeUrl
});
var CHIP = "\uFFFC";
function safeUrl(url) {
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
__name(safeUrl, "safeUrl");
function hostname(href) {
  try {
    return new URL(href).hostname.replace(/^www\./, "");
  } catch {
    return null;
  }
}
__name(hostname, "hostname");
function chipDetails(segment, sources, citations) {
  const byLabel = new Map(sources.map((s, i) => [String(s?.index ?? i + 1), s]));
  const refs = segment.refs?.length ? segment.refs : [String(segment.sourceIndex ?? "")];
  const cards = refs.map((label) => {
    const source = byLabel.get(String(label));
    const href = safeUrl(source?.url ?? (String(segment.sourceIndex) === String(label) ? segment.url : null));
    const cited = citations.find((c) => String(c.sourceIndex) === String(label) && c.quote?.span);
    const text = source?.text ?? source?.content;
    const quote = cited && typeof text === "string" ? text.slice(cited.quote.span.start, cited.quote.span.end) : null;
    return {
      label: String(label),
      found: Boolean(source) || String(segment.sourceIndex) === String(label) && segment.valid,
      title: String(source?.title ?? (String(segment.sourceIndex) === String(label) ? segment.title ?? "" : "")),
      href,
      host: href ? hostname(href) : null,
      quote
    };
  });
  const missing = cards.filter((c) => !c.found).map((c) => c.label);
  return {
    label: String(segment.label ?? ""),
    badge: refs.length > 1 ? `${refs[0]} +${refs.length - 1}` : String(refs[0] ?? segment.label ?? ""),
    valid: segment.valid !== false,
    reason: segment.valid === false ? missing.length ? `Cites ${missing.map((l) => `[${l}]`).join(", ")}, which ${missing.length > 1 ? "were" : "was"} not among the retrieved sources.` : "This citation did not pass validation." : null,
    sources: cards
  };
}
__name(chipDetails, "chipDetails");
function inline(text, chips) {
  const out = [];
  let plain = "";
  const flush = /* @__PURE__ */ __name(() => {
    if (plain) out.push({ type: "text", text: plain });
    plain = "";
  }, "flush");
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && /[!-/:-@[-`{-~]/.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === CHIP) {
      flush();
      out.push({ type: "chip", chip: chips.shift() });
      i += 1;
      continue;
    }
    if (c === "\n") {
      flush();
      out.push({ type: "break" });
      i += 1;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))[0];
      const close = text.indexOf(run, i + run.length);
      if (close > 0 && !text.slice(i + run.length, close).includes(CHIP)) {
        flush();
        out.push({ type: "code", text: text.slice(i + run.length, close) });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (c === "*" && text[i + 1] === "*" || c === "_" && text[i + 1] === "_") {
      const close = text.indexOf(c + c, i + 2);
      if (close > i + 2) {
        flush();
        out.push({ type: "strong", children: inline(text.slice(i + 2, close), chips) });
        i = close + 2;
        continue;
      }
    }
    if (c === "*" && text[i + 1] !== " " && text[i + 1] !== "*") {
      const close = text.indexOf("*", i + 1);
      if (close > i + 1 && text[close - 1] !== " ") {
        flush();
        out.push({ type: "em", children: inline(text.slice(i + 1, close), chips) });
        i = close + 1;
        continue;
      }
    }
    if (c === "[") {
      const link = /^\[([^\]\n]*)\]\(([^)\s\uFFFC]*)(?:\s+"[^"\n]*")?\)/.exec(text.slice(i));
      if (link) {
        flush();
        const children = inline(link[1], chips);
        const href = safeUrl(link[2]);
        out.push(href ? { type: "link", href, children } : { type: "span", children });
        i += link[0].length;
        continue;
      }
    }
    if ((c === "h" || c === "H") && /^https?:\/\//i.test(text.slice(i, i + 8)) && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? "")) {
      const raw = /^[^\s<]+/.exec(text.slice(i))[0].replace(/[.,;:!?)\]'"]+$/, "").split(CHIP)[0];
      const href = safeUrl(raw);
      if (href) {
        flush();
        out.push({ type: "link", href, children: [{ type: "text", text: raw }] });
        i += raw.length;
        continue;
      }
    }
    plain += c;
    i += 1;
  }
  flush();
  return out;
}
__name(inline, "inline");
function blocks(lines, chips) {
  const out = [];
  let i = 0;
  const isBlank = /* @__PURE__ */ __name((line) => !line.trim(), "isBlank");
  const listItem = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const startsBlock = /* @__PURE__ */ __name((line) => /^\s{0,3}(```|~~~|#{1,6}\s|>)/.test(line) || listItem.test(line), "startsBlock");
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !new RegExp(`^\\s{0,3}${fence[1][0]}{${fence[1].length},}\\s*$`).test(lines[i])) body.push(lines[i++]);
      i += 1;
      const text = body.join("\n");
      for (const _ of text.matchAll(new RegExp(CHIP, "g"))) chips.shift();
      out.push({ type: "code", lang: fence[2] || null, text: text.replaceAll(CHIP, "") });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push({ type: "heading", level: heading[1].length, children: inline(heading[2], chips) });
      i += 1;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s{0,3}>\s?/, ""));
      out.push({ type: "quote", children: blocks(quoted, chips) });
      continue;
    }
    const item = listItem.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]);
      const items = [];
      while (i < lines.length) {
        const next = listItem.exec(lines[i]);
        if (next && /\d/.test(next[1]) === ordered) {
          items.push([next[2]]);
          i += 1;
        } else if (items.length && !isBlank(lines[i]) && /^\s+/.test(lines[i]) && !startsBlock(lines[i])) {
          items.at(-1).push(lines[i].trim());
          i += 1;
        } else break;
      }
      out.push({ type: "list", ordered, items: items.map((parts) => inline(parts.join("\n"), chips)) });
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]))) para.push(lines[i++]);
    out.push({ type: "paragraph", children: inline(para.join("\n"), chips) });
  }
  return out;
}
__name(blocks, "blocks");
function citationTree(report, options) {
  const segments = Array.isArray(report?.segments) ? report.segments : [];
  const sources = Array.isArray(options?.sources) ? options.sources : [];
  const citations = Array.isArray(report?.citations) ? report.citations : [];
  const chips = [];
  let text = "";
  for (const segment of segments) {
    if (segment?.type === "cite") {
      chips.push(chipDetails(segment, sources, citations));
      text += CHIP;
    } else {
      text += String(segment?.text ?? "").replaceAll(CHIP, "\uFFFD");
    }
  }
  return blocks(text.split(/\r?\n/), chips);
}
__name(citationTree, "citationTree");
var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
__name(escapeHtml, "escapeHtml");
function inlineHtml(nodes) {
  return nodes.map((node) => {
    switch (node.type) {
      case "text":
        return escapeHtml(node.text);
      case "break":
        return "<br>";
      case "code":
        return `<code>${escapeHtml(node.text)}</code>`;
      case "strong":
        return `<strong>${inlineHtml(node.children)}</strong>`;
      case "em":
        return `<em>${inlineHtml(node.children)}</em>`;
      case "span":
        return inlineHtml(node.children);
      case "link":
        return `<a href="${escapeHtml(node.href)}" rel="noopener noreferrer nofollow">${inlineHtml(node.children)}</a>`;
      case "chip":
        return chipHtml(node.chip);
      default:
        return "";
    }
  }).join("");
}
__name(inlineHtml, "inlineHtml");
function chipHtml(chip) {
  const first = chip.sources[0];
  const title = chip.valid ? chip.sources.map((s) => s.title || s.host || `Source ${s.label}`).join(" \xB7 ") : chip.reason;
  const cls = `citeproof-chip${chip.valid ? "" : " citeproof-chip--invalid"}`;
  const badge = escapeHtml(chip.badge);
  const inner = first?.href && chip.valid ? `<a href="${escapeHtml(first.href)}" rel="noopener noreferrer nofollow">${badge}</a>` : badge;
  return `<sup class="${cls}" title="${escapeHtml(title)}">${inner}</sup>`;
}
__name(chipHtml, "chipHtml");
function blockHtml(nodes) {
  return nodes.map((node) => {
    switch (node.type) {
      case "paragraph":
        return `<p>${inlineHtml(node.children)}</p>`;
      case "heading":
        return `<h${node.level}>${inlineHtml(node.children)}</h${node.level}>`;
      case "quote":
        return `<blockquote>${blockHtml(node.children)}</blockquote>`;
      case "code":
        return `<pre><code>${escapeHtml(node.text)}</code></pre>`;
      case "list": {
        const tag = node.ordered ? "ol" : "ul";
        return `<${tag}>${node.items.map((item) => `<li>${inlineHtml(item)}</li>`).join("")}</${tag}>`;
      }
      default:
        return "";
    }
  }).join("\n");
}
__name(blockHtml, "blockHtml");
function renderHtml(report, options) {
  return `<div class="citeproof-answer">${blockHtml(citationTree(report, options))}</div>`;
}
__name(renderHtml, "renderHtml");

// ../../pkg/web/citeproof.js
var CitationParser = class {
  static {
    __name(this, "CitationParser");
  }
  __destroy_into_raw() {
    const ptr = this.__wbg_ptr;
    this.__wbg_ptr = 0;
    CitationParserFinalization.unregister(this);
    return ptr;
  }
  free() {
    const ptr = this.__destroy_into_raw();
    wasm.__wbg_citationparser_free(ptr, 0);
  }
  /**
   * Compiles `options`; throws an `Error` with `code: "invalid_option"` on bad ones.
   * @param {ParseOptions | null} [options]
   */
  constructor(options) {
    const ret = wasm.citationparser_new(isLikeNone(options) ? 0 : addToExternrefTable0(options));
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    this.__wbg_ptr = ret[0];
    CitationParserFinalization.register(this, this.__wbg_ptr, this);
    return this;
  }
  /**
   * The markers of `text`, as `parseCitations(text, options)` would return them.
   * @param {string} text
   * @returns {Marker[]}
   */
  parse(text) {
    const ret = wasm.citationparser_parse(this.__wbg_ptr, text);
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
  }
};
if (Symbol.dispose) CitationParser.prototype[Symbol.dispose] = CitationParser.prototype.free;
var CitationStream = class _CitationStream {
  static {
    __name(this, "CitationStream");
  }
  static __wrap(ptr) {
    const obj = Object.create(_CitationStream.prototype);
    obj.__wbg_ptr = ptr;
    CitationStreamFinalization.register(obj, obj.__wbg_ptr, obj);
    return obj;
  }
  __destroy_into_raw() {
    const ptr = this.__wbg_ptr;
    this.__wbg_ptr = 0;
    CitationStreamFinalization.unregister(this);
    return ptr;
  }
  free() {
    const ptr = this.__destroy_into_raw();
    wasm.__wbg_citationstream_free(ptr, 0);
  }
  /**
   * The answer received so far, as pushed (what the report's spans index).
   * @returns {string}
   */
  get answer() {
    let deferred1_0;
    let deferred1_1;
    try {
      const ret = wasm.citationstream_answer(this.__wbg_ptr);
      deferred1_0 = ret[0];
      deferred1_1 = ret[1];
      return getStringFromWasm0(ret[0], ret[1]);
    } finally {
      wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
  }
  /**
   * Ends the stream: `{ text, report }`, the rest of the cleaned answer and the
   * report for the whole answer (equal to `validate`'s). Throws when called twice.
   * @returns {StreamEnd}
   */
  finish() {
    const ret = wasm.citationstream_finish(this.__wbg_ptr);
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
  }
  /**
   * A stream for `input` (as for `validate`; `answer` may be omitted) and `options`
   * (as for `validate`; `markerPatterns` are not supported). Throws an `Error` with a
   * `code` on bad arguments.
   * @param {StreamInput} input
   * @param {ValidateOptions | null} [options]
   */
  constructor(input, options) {
    const ret = wasm.citationstream_new(input, isLikeNone(options) ? 0 : addToExternrefTable0(options));
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    this.__wbg_ptr = ret[0];
    CitationStreamFinalization.register(this, this.__wbg_ptr, this);
    return this;
  }
  /**
   * Appends `delta`; returns `{ text, events }`: the cleaned text to append to what
   * is shown, and the `cite` / `finding` events in it.
   * @param {string} delta
   * @returns {StreamChunk}
   */
  push(delta) {
    const ret = wasm.citationstream_push(this.__wbg_ptr, delta);
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
  }
  /**
   * The cleaned text released so far.
   * @returns {string}
   */
  get released() {
    let deferred1_0;
    let deferred1_1;
    try {
      const ret = wasm.citationstream_released(this.__wbg_ptr);
      deferred1_0 = ret[0];
      deferred1_1 = ret[1];
      return getStringFromWasm0(ret[0], ret[1]);
    } finally {
      wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
  }
};
if (Symbol.dispose) CitationStream.prototype[Symbol.dispose] = CitationStream.prototype.free;
var CitationValidator = class {
  static {
    __name(this, "CitationValidator");
  }
  __destroy_into_raw() {
    const ptr = this.__wbg_ptr;
    this.__wbg_ptr = 0;
    CitationValidatorFinalization.unregister(this);
    return ptr;
  }
  free() {
    const ptr = this.__destroy_into_raw();
    wasm.__wbg_citationvalidator_free(ptr, 0);
  }
  /**
   * Reads and checks `options`; throws an `Error` with `code: "invalid_option"`.
   * @param {ValidateOptions | null} [options]
   */
  constructor(options) {
    const ret = wasm.citationvalidator_new(isLikeNone(options) ? 0 : addToExternrefTable0(options));
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    this.__wbg_ptr = ret[0];
    CitationValidatorFinalization.register(this, this.__wbg_ptr, this);
    return this;
  }
  /**
   * Validates `input` as `validate(input, options)` would.
   * @param {Input} input
   * @returns {Report}
   */
  validate(input) {
    const ret = wasm.citationvalidator_validate(this.__wbg_ptr, input);
    if (ret[2]) {
      throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
  }
};
if (Symbol.dispose) CitationValidator.prototype[Symbol.dispose] = CitationValidator.prototype.free;
var Metrics = class {
  static {
    __name(this, "Metrics");
  }
  __destroy_into_raw() {
    const ptr = this.__wbg_ptr;
    this.__wbg_ptr = 0;
    MetricsFinalization.unregister(this);
    return ptr;
  }
  free() {
    const ptr = this.__destroy_into_raw();
    wasm.__wbg_metrics_free(ptr, 0);
  }
  /**
   * Empty counters.
   */
  constructor() {
    const ret = wasm.metrics_new();
    this.__wbg_ptr = ret;
    MetricsFinalization.register(this, this.__wbg_ptr, this);
    return this;
  }
  /**
   * Counts one report (its status, hallucinations and `timingMs`).
   * @param {Report} report
   */
  record(report) {
    const ret = wasm.metrics_record(this.__wbg_ptr, report);
    if (ret[1]) {
      throw takeFromExternrefTable0(ret[0]);
    }
  }
  /**
   * The Prometheus text exposition.
   * @returns {string}
   */
  render() {
    let deferred1_0;
    let deferred1_1;
    try {
      const ret = wasm.metrics_render(this.__wbg_ptr);
      deferred1_0 = ret[0];
      deferred1_1 = ret[1];
      return getStringFromWasm0(ret[0], ret[1]);
    } finally {
      wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
  }
};
if (Symbol.dispose) Metrics.prototype[Symbol.dispose] = Metrics.prototype.free;
function auditRecord(report, ctx) {
  const ret = wasm.auditRecord(report, isLikeNone(ctx) ? 0 : addToExternrefTable0(ctx));
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(auditRecord, "auditRecord");
function citeproofTransform(input, options) {
  const ret = wasm.citeproofTransform(input, isLikeNone(options) ? 0 : addToExternrefTable0(options));
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(citeproofTransform, "citeproofTransform");
function formatContext(sources, options) {
  let deferred2_0;
  let deferred2_1;
  try {
    const ret = wasm.formatContext(sources, isLikeNone(options) ? 0 : addToExternrefTable0(options));
    var ptr1 = ret[0];
    var len1 = ret[1];
    if (ret[3]) {
      ptr1 = 0;
      len1 = 0;
      throw takeFromExternrefTable0(ret[2]);
    }
    deferred2_0 = ptr1;
    deferred2_1 = len1;
    return getStringFromWasm0(ptr1, len1);
  } finally {
    wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
  }
}
__name(formatContext, "formatContext");
function rejectionResponse(report, ctx) {
  const ret = wasm.rejectionResponse(report, isLikeNone(ctx) ? 0 : addToExternrefTable0(ctx));
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(rejectionResponse, "rejectionResponse");
function repairPrompt(report, ctx) {
  let deferred2_0;
  let deferred2_1;
  try {
    const ret = wasm.repairPrompt(report, isLikeNone(ctx) ? 0 : addToExternrefTable0(ctx));
    var ptr1 = ret[0];
    var len1 = ret[1];
    if (ret[3]) {
      ptr1 = 0;
      len1 = 0;
      throw takeFromExternrefTable0(ret[2]);
    }
    deferred2_0 = ptr1;
    deferred2_1 = len1;
    return getStringFromWasm0(ptr1, len1);
  } finally {
    wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
  }
}
__name(repairPrompt, "repairPrompt");
function validate(input, options) {
  const ret = wasm.validate(input, isLikeNone(options) ? 0 : addToExternrefTable0(options));
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(validate, "validate");
function validateRequest(request) {
  const ret = wasm.validateRequest(request);
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(validateRequest, "validateRequest");
function __wbg_get_imports() {
  const import0 = {
    __proto__: null,
    __wbg___wbindgen_boolean_get_4f1baf9a00be3c74: /* @__PURE__ */ __name(function(arg0) {
      const v = arg0;
      const ret = typeof v === "boolean" ? v : void 0;
      return isLikeNone(ret) ? 16777215 : ret ? 1 : 0;
    }, "__wbg___wbindgen_boolean_get_4f1baf9a00be3c74"),
    __wbg___wbindgen_is_function_741ff2bb612836f5: /* @__PURE__ */ __name(function(arg0) {
      const ret = typeof arg0 === "function";
      return ret;
    }, "__wbg___wbindgen_is_function_741ff2bb612836f5"),
    __wbg___wbindgen_is_null_c22311b1cc228e3a: /* @__PURE__ */ __name(function(arg0) {
      const ret = arg0 === null;
      return ret;
    }, "__wbg___wbindgen_is_null_c22311b1cc228e3a"),
    __wbg___wbindgen_is_object_8b968c3ab8e96595: /* @__PURE__ */ __name(function(arg0) {
      const val = arg0;
      const ret = typeof val === "object" && val !== null;
      return ret;
    }, "__wbg___wbindgen_is_object_8b968c3ab8e96595"),
    __wbg___wbindgen_is_string_fc456fee5d3317de: /* @__PURE__ */ __name(function(arg0) {
      const ret = typeof arg0 === "string";
      return ret;
    }, "__wbg___wbindgen_is_string_fc456fee5d3317de"),
    __wbg___wbindgen_is_undefined_be5b34249ff1fc15: /* @__PURE__ */ __name(function(arg0) {
      const ret = arg0 === void 0;
      return ret;
    }, "__wbg___wbindgen_is_undefined_be5b34249ff1fc15"),
    __wbg___wbindgen_number_get_934b640d0889af78: /* @__PURE__ */ __name(function(arg0, arg1) {
      const obj = arg1;
      const ret = typeof obj === "number" ? obj : void 0;
      getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
    }, "__wbg___wbindgen_number_get_934b640d0889af78"),
    __wbg___wbindgen_string_get_7ce8eee7fd327545: /* @__PURE__ */ __name(function(arg0, arg1) {
      const obj = arg1;
      const ret = typeof obj === "string" ? obj : void 0;
      var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
      var len1 = WASM_VECTOR_LEN;
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
    }, "__wbg___wbindgen_string_get_7ce8eee7fd327545"),
    __wbg___wbindgen_throw_4c88d8bf264fd984: /* @__PURE__ */ __name(function(arg0, arg1) {
      throw new Error(getStringFromWasm0(arg0, arg1));
    }, "__wbg___wbindgen_throw_4c88d8bf264fd984"),
    __wbg__wbg_cb_unref_09736879a3f67559: /* @__PURE__ */ __name(function(arg0) {
      arg0._wbg_cb_unref();
    }, "__wbg__wbg_cb_unref_09736879a3f67559"),
    __wbg_buildMarkers_2d456fd4b694703b: /* @__PURE__ */ __name(function(arg0, arg1, arg2, arg3) {
      const ret = buildMarkers(arg0, getArrayU32FromWasm0(arg1, arg2), arg3);
      return ret;
    }, "__wbg_buildMarkers_2d456fd4b694703b"),
    __wbg_citationstream_new: /* @__PURE__ */ __name(function(arg0) {
      const ret = CitationStream.__wrap(arg0);
      return ret;
    }, "__wbg_citationstream_new"),
    __wbg_concat_3d00c6c70212d5c4: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = arg0.concat(arg1);
      return ret;
    }, "__wbg_concat_3d00c6c70212d5c4"),
    __wbg_encodeInto_f044cd321e7a0934: /* @__PURE__ */ __name(function(arg0, arg1, arg2) {
      const ret = encodeInto(arg0, getArrayU8FromWasm0(arg1, arg2));
      return ret;
    }, "__wbg_encodeInto_f044cd321e7a0934"),
    __wbg_error_757e9472f8410341: /* @__PURE__ */ __name(function(arg0, arg1) {
      let deferred0_0;
      let deferred0_1;
      try {
        deferred0_0 = arg0;
        deferred0_1 = arg1;
        console.error(getStringFromWasm0(arg0, arg1));
      } finally {
        wasm.__wbindgen_free(deferred0_0, deferred0_1, 1);
      }
    }, "__wbg_error_757e9472f8410341"),
    __wbg_get_2080c49015e35254: /* @__PURE__ */ __name(function() {
      return handleError(function(arg0, arg1) {
        const ret = Reflect.get(arg0, arg1);
        return ret;
      }, arguments);
    }, "__wbg_get_2080c49015e35254"),
    __wbg_get_d7176cfb76d71114: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = arg0[arg1 >>> 0];
      return ret;
    }, "__wbg_get_d7176cfb76d71114"),
    __wbg_get_unchecked_e6325ad374eff861: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = arg0[arg1 >>> 0];
      return ret;
    }, "__wbg_get_unchecked_e6325ad374eff861"),
    __wbg_instanceof_Float32Array_94718abab7dc1d7f: /* @__PURE__ */ __name(function(arg0) {
      let result;
      try {
        result = arg0 instanceof Float32Array;
      } catch (_) {
        result = false;
      }
      const ret = result;
      return ret;
    }, "__wbg_instanceof_Float32Array_94718abab7dc1d7f"),
    __wbg_instanceof_Float64Array_4acace5b49aaf791: /* @__PURE__ */ __name(function(arg0) {
      let result;
      try {
        result = arg0 instanceof Float64Array;
      } catch (_) {
        result = false;
      }
      const ret = result;
      return ret;
    }, "__wbg_instanceof_Float64Array_4acace5b49aaf791"),
    __wbg_isArray_181eee9e42397260: /* @__PURE__ */ __name(function(arg0) {
      const ret = Array.isArray(arg0);
      return ret;
    }, "__wbg_isArray_181eee9e42397260"),
    __wbg_isArray_bcf1376d0d732d08: /* @__PURE__ */ __name(function(arg0) {
      const ret = Array.isArray(arg0);
      return ret;
    }, "__wbg_isArray_bcf1376d0d732d08"),
    __wbg_isoNow_989f0b816f561c4d: /* @__PURE__ */ __name(function(arg0) {
      const ret = isoNow();
      const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
      const len1 = WASM_VECTOR_LEN;
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
    }, "__wbg_isoNow_989f0b816f561c4d"),
    __wbg_length_6e9d2869242cabf3: /* @__PURE__ */ __name(function(arg0) {
      const ret = arg0.length;
      return ret;
    }, "__wbg_length_6e9d2869242cabf3"),
    __wbg_length_b03a0fabb109b1e9: /* @__PURE__ */ __name(function(arg0) {
      const ret = arg0.length;
      return ret;
    }, "__wbg_length_b03a0fabb109b1e9"),
    __wbg_length_e83e819f48c774e4: /* @__PURE__ */ __name(function(arg0) {
      const ret = arg0.length;
      return ret;
    }, "__wbg_length_e83e819f48c774e4"),
    __wbg_makeTransform_0a7a464ec59178fe: /* @__PURE__ */ __name(function() {
      return handleError(function(arg0, arg1, arg2) {
        const ret = makeTransform(arg0, arg1, arg2);
        return ret;
      }, arguments);
    }, "__wbg_makeTransform_0a7a464ec59178fe"),
    __wbg_new_37eb45aaf5eeb820: /* @__PURE__ */ __name(function() {
      const ret = new Array();
      return ret;
    }, "__wbg_new_37eb45aaf5eeb820"),
    __wbg_new_787b9fb330d55d78: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = new Error(getStringFromWasm0(arg0, arg1));
      return ret;
    }, "__wbg_new_787b9fb330d55d78"),
    __wbg_new_787c6ba65fdb1b00: /* @__PURE__ */ __name(function(arg0) {
      const ret = new Float32Array(arg0);
      return ret;
    }, "__wbg_new_787c6ba65fdb1b00"),
    __wbg_new_bb74001155cb8ca8: /* @__PURE__ */ __name(function() {
      const ret = new Error();
      return ret;
    }, "__wbg_new_bb74001155cb8ca8"),
    __wbg_new_cd4348290afae586: /* @__PURE__ */ __name(function() {
      const ret = new Object();
      return ret;
    }, "__wbg_new_cd4348290afae586"),
    __wbg_parse_c3f72b5a24f83c01: /* @__PURE__ */ __name(function() {
      return handleError(function(arg0, arg1) {
        const ret = JSON.parse(getStringFromWasm0(arg0, arg1));
        return ret;
      }, arguments);
    }, "__wbg_parse_c3f72b5a24f83c01"),
    __wbg_prototypesetcall_22b1bb88c4ec5c5a: /* @__PURE__ */ __name(function(arg0, arg1, arg2) {
      Float32Array.prototype.set.call(getArrayF32FromWasm0(arg0, arg1), arg2);
    }, "__wbg_prototypesetcall_22b1bb88c4ec5c5a"),
    __wbg_push_c9f4893fc209f768: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = arg0.push(arg1);
      return ret;
    }, "__wbg_push_c9f4893fc209f768"),
    __wbg_randomId_e980ffda1f8c98d3: /* @__PURE__ */ __name(function(arg0) {
      const ret = randomId();
      const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
      const len1 = WASM_VECTOR_LEN;
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
    }, "__wbg_randomId_e980ffda1f8c98d3"),
    __wbg_set_2793479888329cb6: /* @__PURE__ */ __name(function() {
      return handleError(function(arg0, arg1, arg2) {
        const ret = Reflect.set(arg0, arg1, arg2);
        return ret;
      }, arguments);
    }, "__wbg_set_2793479888329cb6"),
    __wbg_slice_8c7f01d7eb703b4e: /* @__PURE__ */ __name(function(arg0, arg1, arg2) {
      const ret = arg0.slice(arg1 >>> 0, arg2 >>> 0);
      return ret;
    }, "__wbg_slice_8c7f01d7eb703b4e"),
    __wbg_stack_575c4e0918581b9c: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = arg1.stack;
      const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
      const len1 = WASM_VECTOR_LEN;
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
      getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
    }, "__wbg_stack_575c4e0918581b9c"),
    __wbg_streamChunk_243eb27229d4489f: /* @__PURE__ */ __name(function(arg0, arg1, arg2) {
      const ret = streamChunk(getStringFromWasm0(arg0, arg1), arg2);
      return ret;
    }, "__wbg_streamChunk_243eb27229d4489f"),
    __wbindgen_generic_0000000000000001: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = makeMutClosure(arg0, arg1, wasm_bindgen__convert__closures_____invoke__h2119bd66b1c03536);
      return ret;
    }, "__wbindgen_generic_0000000000000001"),
    __wbindgen_generic_0000000000000002: /* @__PURE__ */ __name(function(arg0, arg1) {
      const ret = getStringFromWasm0(arg0, arg1);
      return ret;
    }, "__wbindgen_generic_0000000000000002"),
    __wbindgen_init_externref_table: /* @__PURE__ */ __name(function() {
      const table = wasm.__wbindgen_externrefs;
      table.set(0, void 0);
      table.set(1024, void 0);
      table.set(1025, null);
      table.set(1026, true);
      table.set(1027, false);
    }, "__wbindgen_init_externref_table")
  };
  return {
    __proto__: null,
    "./citeproof_bg.js": import0,
    "./snippets/citeproof-c1b750986603a30c/src/wasm/env.js": env_exports,
    "./snippets/citeproof-c1b750986603a30c/src/wasm/embed.js": embed_exports,
    "./snippets/citeproof-c1b750986603a30c/src/wasm/render.js": render_exports,
    "./snippets/citeproof-c1b750986603a30c/src/wasm/render.js": render_exports,
    "./snippets/citeproof-c1b750986603a30c/src/wasm/text.js": text_exports
  };
}
__name(__wbg_get_imports, "__wbg_get_imports");
function wasm_bindgen__convert__closures_____invoke__h2119bd66b1c03536(arg0, arg1, arg2) {
  const ret = wasm.wasm_bindgen__convert__closures_____invoke__h2119bd66b1c03536(arg0, arg1, arg2);
  if (ret[2]) {
    throw takeFromExternrefTable0(ret[1]);
  }
  return takeFromExternrefTable0(ret[0]);
}
__name(wasm_bindgen__convert__closures_____invoke__h2119bd66b1c03536, "wasm_bindgen__convert__closures_____invoke__h2119bd66b1c03536");
var CitationParserFinalization = typeof FinalizationRegistry === "undefined" ? { register: /* @__PURE__ */ __name(() => {
}, "register"), unregister: /* @__PURE__ */ __name(() => {
}, "unregister") } : new FinalizationRegistry((ptr) => wasm.__wbg_citationparser_free(ptr, 1));
var CitationStreamFinalization = typeof FinalizationRegistry === "undefined" ? { register: /* @__PURE__ */ __name(() => {
}, "register"), unregister: /* @__PURE__ */ __name(() => {
}, "unregister") } : new FinalizationRegistry((ptr) => wasm.__wbg_citationstream_free(ptr, 1));
var CitationValidatorFinalization = typeof FinalizationRegistry === "undefined" ? { register: /* @__PURE__ */ __name(() => {
}, "register"), unregister: /* @__PURE__ */ __name(() => {
}, "unregister") } : new FinalizationRegistry((ptr) => wasm.__wbg_citationvalidator_free(ptr, 1));
var MetricsFinalization = typeof FinalizationRegistry === "undefined" ? { register: /* @__PURE__ */ __name(() => {
}, "register"), unregister: /* @__PURE__ */ __name(() => {
}, "unregister") } : new FinalizationRegistry((ptr) => wasm.__wbg_metrics_free(ptr, 1));
function addToExternrefTable0(obj) {
  const idx = wasm.__externref_table_alloc();
  wasm.__wbindgen_externrefs.set(idx, obj);
  return idx;
}
__name(addToExternrefTable0, "addToExternrefTable0");
var CLOSURE_DTORS = typeof FinalizationRegistry === "undefined" ? { register: /* @__PURE__ */ __name(() => {
}, "register"), unregister: /* @__PURE__ */ __name(() => {
}, "unregister") } : new FinalizationRegistry((state) => wasm.__wbindgen_destroy_closure(state.a, state.b));
function getArrayF32FromWasm0(ptr, len) {
  ptr = ptr >>> 0;
  return getFloat32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}
__name(getArrayF32FromWasm0, "getArrayF32FromWasm0");
function getArrayU32FromWasm0(ptr, len) {
  ptr = ptr >>> 0;
  return getUint32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}
__name(getArrayU32FromWasm0, "getArrayU32FromWasm0");
function getArrayU8FromWasm0(ptr, len) {
  ptr = ptr >>> 0;
  return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}
__name(getArrayU8FromWasm0, "getArrayU8FromWasm0");
var cachedDataViewMemory0 = null;
function getDataViewMemory0() {
  if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || cachedDataViewMemory0.buffer.detached === void 0 && cachedDataViewMemory0.buffer !== wasm.memory.buffer) {
    cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
  }
  return cachedDataViewMemory0;
}
__name(getDataViewMemory0, "getDataViewMemory0");
var cachedFloat32ArrayMemory0 = null;
function getFloat32ArrayMemory0() {
  if (cachedFloat32ArrayMemory0 === null || cachedFloat32ArrayMemory0.byteLength === 0) {
    cachedFloat32ArrayMemory0 = new Float32Array(wasm.memory.buffer);
  }
  return cachedFloat32ArrayMemory0;
}
__name(getFloat32ArrayMemory0, "getFloat32ArrayMemory0");
function getStringFromWasm0(ptr, len) {
  ptr = ptr >>> 0;
  return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}
__name(getStringFromWasm0, "getStringFromWasm0");
var cachedUint32ArrayMemory0 = null;
function getUint32ArrayMemory0() {
  if (cachedUint32ArrayMemory0 === null || cachedUint32ArrayMemory0.byteLength === 0) {
    cachedUint32ArrayMemory0 = new Uint32Array(wasm.memory.buffer);
  }
  return cachedUint32ArrayMemory0;
}
__name(getUint32ArrayMemory0, "getUint32ArrayMemory0");
var cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
  if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
    cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
  }
  return cachedUint8ArrayMemory0;
}
__name(getUint8ArrayMemory0, "getUint8ArrayMemory0");
function handleError(f, args) {
  try {
    return f.apply(this, args);
  } catch (e) {
    const idx = addToExternrefTable0(e);
    wasm.__wbindgen_exn_store(idx);
  }
}
__name(handleError, "handleError");
function isLikeNone(x) {
  return x === void 0 || x === null;
}
__name(isLikeNone, "isLikeNone");
function makeMutClosure(arg0, arg1, f) {
  const state = { a: arg0, b: arg1, cnt: 1 };
  const real = /* @__PURE__ */ __name((...args) => {
    state.cnt++;
    const a = state.a;
    state.a = 0;
    try {
      return f(a, state.b, ...args);
    } finally {
      state.a = a;
      real._wbg_cb_unref();
    }
  }, "real");
  real._wbg_cb_unref = () => {
    if (--state.cnt === 0) {
      wasm.__wbindgen_destroy_closure(state.a, state.b);
      state.a = 0;
      CLOSURE_DTORS.unregister(state);
    }
  };
  CLOSURE_DTORS.register(real, state, state);
  return real;
}
__name(makeMutClosure, "makeMutClosure");
function passStringToWasm0(arg, malloc, realloc) {
  if (realloc === void 0) {
    const buf = cachedTextEncoder.encode(arg);
    const ptr2 = malloc(buf.length, 1) >>> 0;
    getUint8ArrayMemory0().subarray(ptr2, ptr2 + buf.length).set(buf);
    WASM_VECTOR_LEN = buf.length;
    return ptr2;
  }
  let len = arg.length;
  let ptr = malloc(len, 1) >>> 0;
  const mem = getUint8ArrayMemory0();
  let offset = 0;
  for (; offset < len; offset++) {
    const code = arg.charCodeAt(offset);
    if (code > 127) break;
    mem[ptr + offset] = code;
  }
  if (offset !== len) {
    if (offset !== 0) {
      arg = arg.slice(offset);
    }
    ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
    const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
    const ret = cachedTextEncoder.encodeInto(arg, view);
    offset += ret.written;
    ptr = realloc(ptr, len, offset, 1) >>> 0;
  }
  WASM_VECTOR_LEN = offset;
  return ptr;
}
__name(passStringToWasm0, "passStringToWasm0");
function takeFromExternrefTable0(idx) {
  const value = wasm.__wbindgen_externrefs.get(idx);
  wasm.__externref_table_dealloc(idx);
  return value;
}
__name(takeFromExternrefTable0, "takeFromExternrefTable0");
var cachedTextDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
cachedTextDecoder.decode();
var MAX_SAFARI_DECODE_BYTES = 2146435072;
var numBytesDecoded = 0;
function decodeText(bytes) {
  numBytesDecoded += bytes.length;
  if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
    cachedTextDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
    cachedTextDecoder.decode();
    numBytesDecoded = bytes.length;
  }
  return cachedTextDecoder.decode(bytes);
}
__name(decodeText, "decodeText");
var cachedTextEncoder = new TextEncoder();
if (!("encodeInto" in cachedTextEncoder)) {
  cachedTextEncoder.encodeInto = function(arg, view) {
    const buf = cachedTextEncoder.encode(arg);
    view.set(buf);
    return {
      read: arg.length,
      written: buf.length
    };
  };
}
var WASM_VECTOR_LEN = 0;
var wasmModule;
var wasmInstance;
var wasm;
function __wbg_finalize_init(instance, module) {
  wasmInstance = instance;
  wasm = instance.exports;
  wasmModule = module;
  cachedDataViewMemory0 = null;
  cachedFloat32ArrayMemory0 = null;
  cachedUint32ArrayMemory0 = null;
  cachedUint8ArrayMemory0 = null;
  wasm.__wbindgen_start();
  return wasm;
}
__name(__wbg_finalize_init, "__wbg_finalize_init");
function initSync(module) {
  if (wasm !== void 0) return wasm;
  if (module !== void 0) {
    if (Object.getPrototypeOf(module) === Object.prototype) {
      ({ module } = module);
    } else {
      console.warn("using deprecated parameters for `initSync()`; pass a single object instead");
    }
  }
  const imports = __wbg_get_imports();
  if (!(module instanceof WebAssembly.Module)) {
    module = new WebAssembly.Module(module);
  }
  const instance = new WebAssembly.Instance(module, imports);
  return __wbg_finalize_init(instance, module);
}
__name(initSync, "initSync");

// ../../pkg/workerd.js
import wasm2 from "./fd567a1f4887c14a55ef5cb060d4bcdc48f18dab-citeproof_bg.wasm";
initSync({ module: wasm2 });

// src/index.js
var metrics = new Metrics();
var upstreamErrors = { status: 0, timeout: 0, network: 0 };
var json = /* @__PURE__ */ __name((body, status = 200, headers = {}) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } }), "json");
var UpstreamError = class extends Error {
  static {
    __name(this, "UpstreamError");
  }
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
};
async function callUpstream(env, { messages, model, stream }) {
  const format = env.UPSTREAM_FORMAT ?? "openai";
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  const rest = messages.filter((m) => m.role !== "system");
  const body = format === "anthropic" ? { model: model ?? env.MODEL ?? "claude", max_tokens: 1024, system: system || void 0, messages: rest, stream } : { model: model ?? env.MODEL ?? "gpt", messages, stream };
  const headers = { "content-type": "application/json" };
  if (env.UPSTREAM_API_KEY) {
    if (format === "anthropic") headers["x-api-key"] = env.UPSTREAM_API_KEY;
    else headers.authorization = `Bearer ${env.UPSTREAM_API_KEY}`;
  }
  const timeout = Number(env.UPSTREAM_TIMEOUT_MS ?? 3e4);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response;
  try {
    response = await fetch(env.UPSTREAM_URL, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
    if (!stream) await response.clone().arrayBuffer();
  } catch (error) {
    clearTimeout(timer);
    if (controller.signal.aborted) throw new UpstreamError("timeout", `upstream did not answer within ${timeout} ms`);
    throw new UpstreamError("network", `upstream unreachable: ${error.message}`);
  }
  clearTimeout(timer);
  if (!response.ok) throw new UpstreamError("status", `upstream answered ${response.status}`);
  return response;
}
__name(callUpstream, "callUpstream");
async function readAnswer(env, response) {
  const body = await response.json();
  const text = Array.isArray(body.content) ? body.content.filter((b) => b.type === "text").map((b) => b.text).join("") : body.choices?.[0]?.message?.content ?? "";
  return { body, text, sources: Array.isArray(body.sources) ? body.sources : null };
}
__name(readAnswer, "readAnswer");
function logAudit(env, ctx, record) {
  console.log(JSON.stringify({ citeproof_audit: record }));
  if (env.AUDIT_QUEUE) ctx.waitUntil(env.AUDIT_QUEUE.send(record));
  if (env.AUDIT_KV) ctx.waitUntil(env.AUDIT_KV.put(`audit:${record.audit_id}`, JSON.stringify(record)));
}
__name(logAudit, "logAudit");
function errorAudit(question, error, started) {
  return {
    audit_id: crypto.randomUUID(),
    timestamp: (/* @__PURE__ */ new Date()).toISOString(),
    query: question,
    validation_result: { status: "ERROR", citations_validated: 0, citations_failed: 0, hallucinations_detected: 0, confidence_score: 0 },
    citations: [],
    processing_time_ms: Date.now() - started,
    error: error.message
  };
}
__name(errorAudit, "errorAudit");
function upstreamFailure(env, ctx, question, error, started) {
  upstreamErrors[error.kind] += 1;
  const record = errorAudit(question, error, started);
  logAudit(env, ctx, record);
  const status = error.kind === "timeout" ? 504 : 502;
  return json({ error: error.kind === "timeout" ? "upstream_timeout" : "upstream_error", message: error.message, audit_id: record.audit_id }, status);
}
__name(upstreamFailure, "upstreamFailure");
async function readRequest(request, path) {
  let body;
  try {
    body = await request.json();
  } catch {
    return { invalid: { error: "invalid_json", findings: [] } };
  }
  const openai = path === "/v1/chat/completions";
  const messages = openai && Array.isArray(body.messages) ? body.messages : null;
  const question = openai ? [...messages ?? []].reverse().find((m) => m.role === "user")?.content : body.question;
  const sources = body.sources ?? [];
  const findings = validateRequest({ question: typeof question === "string" ? question : "", sources });
  if (openai && !messages) findings.unshift({ code: "request_invalid", severity: "error", message: "messages: expected an array" });
  if (findings.some((f) => f.severity === "error")) return { invalid: { error: "invalid_request", findings }, question };
  const built = messages ?? [
    { role: "system", content: `Answer from these sources only and cite them as [n].

${formatContext(sources, { maxChars: 2e3 })}` },
    { role: "user", content: question }
  ];
  return { question, messages: built, sources, stream: body.stream === true, model: body.model, openai, body };
}
__name(readRequest, "readRequest");
async function verify(env, ctx, req, started) {
  let response;
  try {
    response = await callUpstream(env, req);
  } catch (error) {
    if (error instanceof UpstreamError) return upstreamFailure(env, ctx, req.question, error, started);
    throw error;
  }
  if (env.CITEPROOF_MODE === "passthrough") return new Response(response.body, response);
  if (req.stream) return streamVerified(env, ctx, req, response, started);
  let answer = await readAnswer(env, response);
  const sources = req.sources.length ? req.sources : answer.sources ?? [];
  const input = { answer: answer.text, sources, question: req.question };
  let report = validate(input);
  let repaired = false;
  if (report.status === "fail") {
    const retry = {
      ...req,
      messages: [...req.messages, { role: "assistant", content: answer.text }, { role: "user", content: repairPrompt(report, { input }) }]
    };
    try {
      answer = await readAnswer(env, await callUpstream(env, retry));
    } catch (error) {
      if (error instanceof UpstreamError) return upstreamFailure(env, ctx, req.question, error, started);
      throw error;
    }
    input.answer = answer.text;
    report = validate(input);
    repaired = true;
  }
  report.timingMs = Date.now() - started;
  metrics.record(report);
  const record = auditRecord(report, { input });
  logAudit(env, ctx, record);
  if (report.status === "fail") return json(rejectionResponse(report, { auditId: record.audit_id }), 422);
  const headers = { "x-citeproof-status": report.status, "x-citeproof-audit-id": record.audit_id };
  if (repaired) headers["x-citeproof-repaired"] = "1";
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
__name(verify, "verify");
function streamVerified(env, ctx, req, response, started) {
  const input = { sources: req.sources, question: req.question };
  const transform = citeproofTransform(input, { format: env.UPSTREAM_FORMAT ?? "auto" });
  const encoder2 = new TextEncoder();
  const verdict = new TransformStream({
    async flush(controller) {
      const report = await transform.report;
      report.timingMs = Date.now() - started;
      metrics.record(report);
      const record = auditRecord(report, { input: { ...input, answer: transform.answer ?? "" } });
      logAudit(env, ctx, record);
      if (report.status === "fail") {
        const rejection = rejectionResponse(report, { auditId: record.audit_id });
        controller.enqueue(encoder2.encode(`event: rejected
data: ${JSON.stringify(rejection)}

`));
      }
    }
  });
  const body = response.body.pipeThrough(transform).pipeThrough(verdict);
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
__name(streamVerified, "streamVerified");
function renderMetrics() {
  const lines = [
    "# HELP citeproof_upstream_errors_total Upstream calls that failed, by kind.",
    "# TYPE citeproof_upstream_errors_total counter",
    ...Object.entries(upstreamErrors).map(([kind, n]) => `citeproof_upstream_errors_total{kind="${kind}"} ${n}`)
  ];
  return `${metrics.render()}${lines.join("\n")}
`;
}
__name(renderMetrics, "renderMetrics");
var src_default = {
  async fetch(request, env, ctx) {
    const started = Date.now();
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/metrics") {
      return new Response(renderMetrics(), { headers: { "content-type": "text/plain; version=0.0.4" } });
    }
    if (request.method !== "POST" || pathname !== "/v1/chat" && pathname !== "/v1/chat/completions") {
      return json({ error: "not_found" }, 404);
    }
    const req = await readRequest(request, pathname);
    if (req.invalid) {
      const message = req.invalid.findings.map((f) => f.message).join("; ") || "the body is not JSON";
      const record = errorAudit(typeof req.question === "string" ? req.question : null, new Error(message), started);
      record.validation_result.status = "INVALID_REQUEST";
      logAudit(env, ctx, record);
      return json({ ...req.invalid, audit_id: record.audit_id }, 400);
    }
    return verify(env, ctx, req, started);
  }
};

// ../../node_modules/wrangler/templates/middleware/middleware-ensure-req-body-drained.ts
var drainBody = /* @__PURE__ */ __name(async (request, env, _ctx, middlewareCtx) => {
  try {
    return await middlewareCtx.next(request, env);
  } finally {
    try {
      if (request.body !== null && !request.bodyUsed) {
        const reader = request.body.getReader();
        while (!(await reader.read()).done) {
        }
      }
    } catch (e) {
      console.error("Failed to drain the unused request body.", e);
    }
  }
}, "drainBody");
var middleware_ensure_req_body_drained_default = drainBody;

// ../../node_modules/wrangler/templates/middleware/middleware-miniflare3-json-error.ts
function reduceError(e) {
  return {
    name: e?.name,
    message: e?.message ?? String(e),
    stack: e?.stack,
    cause: e?.cause === void 0 ? void 0 : reduceError(e.cause)
  };
}
__name(reduceError, "reduceError");
var jsonError = /* @__PURE__ */ __name(async (request, env, _ctx, middlewareCtx) => {
  try {
    return await middlewareCtx.next(request, env);
  } catch (e) {
    const error = reduceError(e);
    return Response.json(error, {
      status: 500,
      headers: { "MF-Experimental-Error-Stack": "true" }
    });
  }
}, "jsonError");
var middleware_miniflare3_json_error_default = jsonError;

// .wrangler/tmp/bundle-B85rIb/middleware-insertion-facade.js
var __INTERNAL_WRANGLER_MIDDLEWARE__ = [
  middleware_ensure_req_body_drained_default,
  middleware_miniflare3_json_error_default
];
var middleware_insertion_facade_default = src_default;

// ../../node_modules/wrangler/templates/middleware/common.ts
var __facade_middleware__ = [];
function __facade_register__(...args) {
  __facade_middleware__.push(...args.flat());
}
__name(__facade_register__, "__facade_register__");
function __facade_invokeChain__(request, env, ctx, dispatch, middlewareChain) {
  const [head, ...tail] = middlewareChain;
  const middlewareCtx = {
    dispatch,
    next(newRequest, newEnv) {
      return __facade_invokeChain__(newRequest, newEnv, ctx, dispatch, tail);
    }
  };
  return head(request, env, ctx, middlewareCtx);
}
__name(__facade_invokeChain__, "__facade_invokeChain__");
function __facade_invoke__(request, env, ctx, dispatch, finalMiddleware) {
  return __facade_invokeChain__(request, env, ctx, dispatch, [
    ...__facade_middleware__,
    finalMiddleware
  ]);
}
__name(__facade_invoke__, "__facade_invoke__");

// .wrangler/tmp/bundle-B85rIb/middleware-loader.entry.ts
var __Facade_ScheduledController__ = class ___Facade_ScheduledController__ {
  constructor(scheduledTime, cron, noRetry) {
    this.scheduledTime = scheduledTime;
    this.cron = cron;
    this.#noRetry = noRetry;
  }
  static {
    __name(this, "__Facade_ScheduledController__");
  }
  #noRetry;
  noRetry() {
    if (!(this instanceof ___Facade_ScheduledController__)) {
      throw new TypeError("Illegal invocation");
    }
    this.#noRetry();
  }
};
function wrapExportedHandler(worker) {
  if (__INTERNAL_WRANGLER_MIDDLEWARE__ === void 0 || __INTERNAL_WRANGLER_MIDDLEWARE__.length === 0) {
    return worker;
  }
  for (const middleware of __INTERNAL_WRANGLER_MIDDLEWARE__) {
    __facade_register__(middleware);
  }
  const fetchDispatcher = /* @__PURE__ */ __name(function(request, env, ctx) {
    if (worker.fetch === void 0) {
      throw new Error("Handler does not export a fetch() function.");
    }
    return worker.fetch(request, env, ctx);
  }, "fetchDispatcher");
  return {
    ...worker,
    fetch(request, env, ctx) {
      const dispatcher = /* @__PURE__ */ __name(function(type, init) {
        if (type === "scheduled" && worker.scheduled !== void 0) {
          const controller = new __Facade_ScheduledController__(
            Date.now(),
            init.cron ?? "",
            () => {
            }
          );
          return worker.scheduled(controller, env, ctx);
        }
      }, "dispatcher");
      return __facade_invoke__(request, env, ctx, dispatcher, fetchDispatcher);
    }
  };
}
__name(wrapExportedHandler, "wrapExportedHandler");
function wrapWorkerEntrypoint(klass) {
  if (__INTERNAL_WRANGLER_MIDDLEWARE__ === void 0 || __INTERNAL_WRANGLER_MIDDLEWARE__.length === 0) {
    return klass;
  }
  for (const middleware of __INTERNAL_WRANGLER_MIDDLEWARE__) {
    __facade_register__(middleware);
  }
  return class extends klass {
    #fetchDispatcher = /* @__PURE__ */ __name((request, env, ctx) => {
      this.env = env;
      this.ctx = ctx;
      if (super.fetch === void 0) {
        throw new Error("Entrypoint class does not define a fetch() function.");
      }
      return super.fetch(request);
    }, "#fetchDispatcher");
    #dispatcher = /* @__PURE__ */ __name((type, init) => {
      if (type === "scheduled" && super.scheduled !== void 0) {
        const controller = new __Facade_ScheduledController__(
          Date.now(),
          init.cron ?? "",
          () => {
          }
        );
        return super.scheduled(controller);
      }
    }, "#dispatcher");
    fetch(request) {
      return __facade_invoke__(
        request,
        this.env,
        this.ctx,
        this.#dispatcher,
        this.#fetchDispatcher
      );
    }
  };
}
__name(wrapWorkerEntrypoint, "wrapWorkerEntrypoint");
var WRAPPED_ENTRY;
if (typeof middleware_insertion_facade_default === "object") {
  WRAPPED_ENTRY = wrapExportedHandler(middleware_insertion_facade_default);
} else if (typeof middleware_insertion_facade_default === "function") {
  WRAPPED_ENTRY = wrapWorkerEntrypoint(middleware_insertion_facade_default);
}
var middleware_loader_entry_default = WRAPPED_ENTRY;
export {
  __INTERNAL_WRANGLER_MIDDLEWARE__,
  middleware_loader_entry_default as default
};
//# sourceMappingURL=index.js.map
