// Google's Interactions API (src/providers/interactions.rs): the text blocks of its
// `model_output` steps, each with `annotations` whose `start_index`/`end_index` (read as
// UTF-8 bytes) index that block. A stream is the list of its events (`event_type`).
import { field, indexAt, is, items, list, offsetMap, settle, textAt, typeName } from "./response.js";

const STEPS = "user_input model_output function_call thought";
const BLOCKS = "text image video audio document";
const ANNOTATIONS = "url_citation file_citation place_citation";
const DELTAS = "text thought_summary thought_signature arguments_delta text_annotation_delta text_annotation image video audio";
const EVENTS =
  "interaction.created interaction.status_update interaction.in_progress interaction.requires_action " +
  "interaction.completed step.start step.delta step.stop error";

/** An interaction (`"object": "interaction"` with `steps`), or its stream events. */
export function recognizes(response) {
  const events = items(response);
  if (events) return is(events[0], "event_type", "interaction.created");
  return is(response, "object", "interaction") && field(response, "steps") !== undefined;
}

/** Whether a step or delta `kind` is a built-in tool's call or result. */
const isTool = (kind) => kind !== undefined && (kind.endsWith("_call") || kind.endsWith("_result"));

export function read(response, out) {
  const events = items(response);
  if (!events) {
    out.responseId = textAt(response, "id");
    out.model = textAt(response, "model");
    for (const step of list(response, "steps")) {
      const kind = typeName(step);
      if (isTool(kind) || !out.knows("step", kind, STEPS) || kind !== "model_output") continue;
      for (const block of list(step, "content")) {
        const blockKind = typeName(block);
        if (out.knows("content block", blockKind, BLOCKS) && blockKind === "text") {
          annotated(textAt(block, "text") ?? "", list(block, "annotations"), out);
        }
      }
    }
    return;
  }
  const created = field(events[0], "interaction");
  out.responseId = textAt(created, "id");
  out.model = textAt(created, "model");
  // The text and annotations of each step, by its `index`, in first-seen order.
  const steps = [];
  const position = new Map();
  for (const event of events) {
    const kind = textAt(event, "event_type");
    if (!out.knows("event", kind, EVENTS) || kind !== "step.delta") continue;
    const delta = field(event, "delta");
    if (delta === undefined) continue;
    const deltaKind = typeName(delta);
    if (isTool(deltaKind) || !out.knows("delta", deltaKind, DELTAS)) continue;
    const index = indexAt(event, "index");
    const key = index !== undefined && index <= 0xffffffff ? index : 0xffffffff;
    if (!position.has(key)) {
      position.set(key, steps.length);
      steps.push({ text: "", annotations: [] });
    }
    const step = steps[position.get(key)];
    if (deltaKind === "text") step.text += textAt(delta, "text") ?? "";
    else if (deltaKind === "text_annotation_delta" || deltaKind === "text_annotation") step.annotations.push(...list(delta, "annotations"));
  }
  for (const step of steps) annotated(step.text, step.annotations, out);
}

/** Appends `said` to the answer and declares its annotations. */
function annotated(said, annotations, out) {
  const base = out.pushText(said);
  let map; // made for the first annotation that has offsets
  for (const annotation of annotations) {
    if (!out.knows("annotation", typeName(annotation), ANNOTATIONS)) continue;
    const title = textAt(annotation, "title") ?? textAt(annotation, "name") ?? textAt(annotation, "file_name");
    const url = textAt(annotation, "url");
    const id = textAt(annotation, "place_id") ?? textAt(annotation, "document_uri");
    const key = url ?? id;
    if (key === undefined) continue;
    const source = out.label(key, () => ({ id, url, title }));
    out.fillTitle(source, title);
    const [start, end] = [indexAt(annotation, "start_index"), indexAt(annotation, "end_index")];
    let span;
    if (start !== undefined && end !== undefined) {
      const settled = settle(said, base, [start, end], ["utf8"], {}, (map ??= offsetMap(said)));
      if (settled.warning) out.warnings.push(settled.warning);
      span = settled.span;
    }
    out.cite(source, span, undefined);
  }
}
