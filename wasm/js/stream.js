// The browser entries' `CitationStream`: the core module's class, whose `finish(events)`
// reads the provider stream's events with the package's JS adapters (the core has no Rust
// ones) and hands the wasm `finish` the `Input` they give, so the citations the events
// declare count in a browser as they do in Node, where the full module reads the same
// events with the Rust adapters (tests/js/stream-declared.test.mjs holds the two to the
// same reports). scripts/build-pkg.mjs copies this file beside the bundler glue's other
// JS (pkg/bundler*/snippets/<crate>/js/) and exports the class in place of the glue's: the
// imports below are relative to that place. An app that does not stream imports none of
// it (the package's `sideEffects` leave these files out of its bundle).
import { CitationStream as CoreStream, parseCitations } from "../../../citeproof_bg.js";
import { adapt, nestingError } from "../../../../providers/adapt.js";
import { MAX_LIST_ITEMS, fieldOf, jsonText } from "./untrusted.js";

/**
 * `CitationStream` of the core module, with `finish(events)` reading `events` as the full
 * module does: the list checked and read as JSON (the same errors), then `fromAny`
 * with the stream's sources (when it has some) in the stream's unit; events no adapter
 * recognises declare nothing, as there.
 */
export class CitationStream extends CoreStream {
  /** The caller's sources, for the adapters to match citations to; undefined when none. */
  #sources;
  /** The stream's offset unit, the one the `Input` must have its spans in. */
  #offsets;

  constructor(input, options) {
    super(input, options); // validates both: what is read below is known good
    const sources = fieldOf(input, "sources");
    this.#sources = Array.isArray(sources) && sources.length > 0 ? sources : undefined;
    this.#offsets = fieldOf(options, "offsets") ?? "utf16";
  }

  finish(declared) {
    if (!Array.isArray(declared)) return super.finish(declared);
    const text = jsonText(declared, "events", MAX_LIST_ITEMS);
    // What the Rust reader cannot read throws there before any adapter runs: here too.
    const deep = nestingError(text);
    if (deep) throw deep;
    const events = JSON.parse(text);
    let input;
    try {
      input = adapt(undefined, events, this.#sources, { offsets: this.#offsets }, parseCitations);
    } catch (error) {
      // Not a provider's stream (or one an adapter refuses): the Rust adapters' `Err`,
      // which the full module reads as nothing declared. A bug is not a coded error.
      if (error?.code === undefined) throw error;
    }
    return super.finish(input);
  }
}
