// OpenAI (src/providers/openai.rs): Chat Completions `message.annotations` (also
// Mistral's chunked `content`), the Responses API's `output_text.annotations`, and
// Assistants messages. The unit of `start_index`/`end_index` is not documented: code
// points, then UTF-16, then bytes are tried, the first whose span holds the link's URL
// or the marker kept. `start_index = end_index = 0` is OpenRouter's "no position".
import { bad, field, indexAt, is, items, list, offsetMap, settle, text, textAt, typeName, webSource } from "./response.js";

const UNITS = ["codepoint", "utf16", "utf8"];
const OUTPUT_ITEMS =
  "message reasoning web_search_call file_search_call function_call custom_tool_call computer_call " +
  "code_interpreter_call image_generation_call local_shell_call shell_call apply_patch_call mcp_call " +
  "mcp_list_tools mcp_approval_request";
const PARTS = "output_text refusal text image_file image_url";
const ANNOTATIONS = "url_citation file_citation container_file_citation file_path";
const CHUNKS = "text reference tool_reference thinking image_url document_url input_audio file";

/** A chat completion, its stream chunks, a response, its stream events, or an Assistants message. */
export function recognizes(response) {
  const chunks = items(response);
  if (chunks) return chunks.length > 0 && (is(chunks[0], "object", "chat.completion.chunk") || isResponseEvent(chunks[0]));
  return (
    items(field(response, "output")) !== undefined ||
    is(response, "object", "thread.message") ||
    field(list(response, "choices")[0], "message") !== undefined
  );
}

export function read(response, out) {
  const chunks = items(response);
  if (chunks) {
    if (chunks.length > 0 && isResponseEvent(chunks[0])) return fromResponseEvents(chunks, out);
    return fromChunks(chunks, out);
  }
  out.responseId = textAt(response, "id");
  out.model = textAt(response, "model");
  const output = field(response, "output");
  if (output !== undefined) {
    (items(output) ?? []).forEach((item, i) => {
      if (!out.knows("output item", typeName(item), OUTPUT_ITEMS)) return;
      if (is(item, "type", "web_search_call")) return searched(item, out);
      if (!is(item, "type", "message")) return;
      list(item, "content").forEach((part, j) => {
        if (out.knows("content part", typeName(part), PARTS) && is(part, "type", "output_text")) {
          const said = textAt(part, "text");
          if (said === undefined) throw bad(`.output[${i}].content[${j}].text`, "missing");
          annotated(said, list(part, "annotations"), out);
        }
      });
    });
  } else if (is(response, "object", "thread.message")) {
    for (const part of list(response, "content")) {
      if (!out.knows("content part", typeName(part), PARTS)) continue;
      const body = field(part, "text");
      if (body !== undefined && is(part, "type", "text")) annotated(textAt(body, "value") ?? "", list(body, "annotations"), out);
    }
  } else {
    const message = field(list(response, "choices")[0], "message");
    if (message === undefined) throw bad(".choices[0].message", "missing");
    const content = items(field(message, "content"));
    if (content) chunked(content, out);
    else annotated(textAt(message, "content") ?? "", list(message, "annotations"), out);
  }
}

/**
 * A chat message whose `content` is a list of chunks (Mistral): `text` chunks make the
 * answer; a `reference` or `tool_reference` chunk cites the text chunk just before it.
 */
function chunked(chunks, out) {
  let before;
  for (const chunk of chunks) {
    const kind = typeName(chunk);
    if (!out.knows("content chunk", kind, CHUNKS)) continue;
    if (kind === "text") {
      const start = out.pushText(textAt(chunk, "text") ?? "");
      before = { start, end: out.answer.length };
    } else if (kind === "reference") {
      for (const ref of list(chunk, "reference_ids")) {
        const id = typeof ref === "string" ? ref : Number.isInteger(ref) && ref >= 0 && ref < 1e15 ? String(ref) : undefined;
        if (id === undefined) continue;
        out.cite(out.label(id, () => ({ id })), before, undefined);
      }
    } else if (kind === "tool_reference") {
      const [url, title] = [textAt(chunk, "url"), textAt(chunk, "title")];
      const key = url ?? title;
      if (key === undefined) continue;
      out.cite(out.label(key, () => ({ url, title })), before, undefined);
    }
  }
}

/** The pages a web search call found or opened: sources, unless the caller gave its own. */
function searched(call, out) {
  const action = field(call, "action");
  if (action === undefined || out.given) return;
  const found = list(action, "sources").map((s) => textAt(s, "url"));
  for (const url of [...found, textAt(action, "url")]) {
    if (url !== undefined) out.label(url, () => webSource(url, undefined));
  }
}

/** An event of a streamed response (`"type": "response.created"`, …). */
const isResponseEvent = (event) => typeName(event)?.startsWith("response.") ?? false;

/**
 * A streamed response: the response of its last `response.completed` (or incomplete,
 * failed) event, read as a response; before one arrives, the text deltas of each output
 * text with their annotations.
 */
function fromResponseEvents(events, out) {
  for (const event of events) {
    const kind = typeName(event);
    if (kind !== "error" && !isResponseEvent(event)) out.countUnknown("event", kind);
  }
  const done = ["response.completed", "response.incomplete", "response.failed"];
  const last = events.findLast((event) => {
    const kind = typeName(event);
    return kind !== undefined && done.includes(kind) && field(field(event, "response"), "output") !== undefined;
  });
  if (last !== undefined) return read(field(last, "response"), out);
  const started = events.map((e) => field(e, "response")).find((r) => r !== undefined);
  out.responseId = textAt(started, "id");
  out.model = textAt(started, "model");
  // One entry per output text, by (output_index, content_index), in first-seen order.
  const texts = [];
  const position = new Map();
  for (const event of events) {
    const kind = typeName(event) ?? "";
    if (kind !== "response.output_text.delta" && kind !== "response.output_text.annotation.added") continue;
    const [output, content] = ["output_index", "content_index"].map((name) => indexAt(event, name) ?? 0);
    if (output > 0xffff || content > 0xffff) continue;
    const key = output * 0x10000 + content;
    if (!position.has(key)) {
      position.set(key, texts.length);
      texts.push({ text: "", annotations: [] });
    }
    const entry = texts[position.get(key)];
    const annotation = field(event, "annotation");
    if (annotation !== undefined) entry.annotations.push(annotation);
    else entry.text += textAt(event, "delta") ?? "";
  }
  for (const entry of texts) annotated(entry.text, entry.annotations, out);
}

/**
 * A streamed chat completion: the first choice's `delta.content` pieces and
 * `delta.annotations`. A `delta.content` that is a list of chunks (Mistral) makes the
 * stream a chunked message, read as `chunked` reads a whole one: the text its deltas send
 * between two citing chunks is one text chunk.
 */
function fromChunks(chunks, out) {
  out.responseId = textAt(chunks[0], "id");
  out.model = textAt(chunks[0], "model");
  let content = "";
  const annotations = [];
  // The content as the deltas sent it: strings of text, or listed chunks other than text.
  const pieces = [];
  let listed = false;
  for (const chunk of chunks) {
    const delta = field(list(chunk, "choices")[0], "delta");
    if (delta === undefined) continue;
    const sent = field(delta, "content");
    if (items(sent)) {
      listed = true;
      for (const item of sent) pieces.push(is(item, "type", "text") ? (textAt(item, "text") ?? "") : { chunk: item });
    } else if (text(sent) !== undefined) {
      content += sent;
      pieces.push(sent);
    }
    annotations.push(...list(delta, "annotations"));
  }
  if (!listed) return annotated(content, annotations, out);
  // Consecutive text pieces are one text chunk (a stream splits a chunk anywhere).
  const message = [];
  let pending;
  for (const piece of pieces) {
    if (typeof piece === "string") pending = (pending ?? "") + piece;
    else {
      if (pending !== undefined) message.push({ type: "text", text: pending });
      pending = undefined;
      message.push(piece.chunk);
    }
  }
  if (pending !== undefined) message.push({ type: "text", text: pending });
  chunked(message, out);
}

/** Appends `said` to the answer and declares its annotations. */
function annotated(said, annotations, out) {
  const base = out.pushText(said);
  let map; // made for the first annotation that has offsets
  for (const annotation of annotations) {
    const kind = typeName(annotation);
    if (!out.knows("annotation", kind, ANNOTATIONS)) continue;
    // Chat Completions nest the fields under the type's name; the Responses API and Assistants keep them at the top.
    const body = ["url_citation", "file_citation", "file_path"].includes(kind) ? field(annotation, kind) : undefined;
    const of = (name) => textAt(annotation, name) ?? textAt(body, name);
    const offset = (name) => indexAt(annotation, name) ?? indexAt(body, name);
    let source;
    let expect = {};
    if (kind === "url_citation") {
      const url = of("url");
      if (url === undefined) continue;
      const title = of("title");
      source = out.label(url, () => webSource(url, title));
      out.fillTitle(source, title);
      expect = { link: url };
    } else {
      const file = of("file_id");
      if (file === undefined) continue;
      const name = of("filename");
      source = out.label(file, () => ({ id: file, title: name }));
      const marker = textAt(annotation, "text");
      if (marker !== undefined) expect = { text: marker };
    }
    const [start, end] = [offset("start_index"), offset("end_index")];
    let span;
    // 0–0 is OpenRouter's placeholder for "no position".
    if (start !== undefined && end !== undefined && !(start === 0 && end === 0)) {
      const settled = settle(said, base, [start, end], UNITS, expect, (map ??= offsetMap(said)));
      if (settled.warning) out.warnings.push(settled.warning);
      span = settled.span;
    }
    out.cite(source, span, of("quote"));
  }
}
