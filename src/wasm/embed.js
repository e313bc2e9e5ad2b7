// validateAsync's one asynchronous step: call the user's `embed(texts)` and hand the
// vectors to `finish` (a wasm closure that validates with them). A rejected or throwing
// `embed`, or a `finish` that throws, rejects the returned promise.
export function embedThen(embed, texts, finish) {
  return Promise.resolve()
    .then(() => embed(texts))
    .then((vectors) => finish(vectors));
}
