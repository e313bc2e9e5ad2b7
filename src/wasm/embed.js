// validateAsync's one asynchronous step: call the user's `embed(texts)` and hand the
// vectors to `finish` (a wasm closure that validates with them), one Float32Array per
// text. A rejected or throwing `embed`, or a `finish` that throws, rejects the returned
// promise; so does a result that is not an array of `texts.length` vectors of at most
// `maxLength` numbers each (an Error with a code, src/wasm/untrusted.js).
import { REVOKED, codedError, lengthOf, listItems, typeCode } from "./untrusted.js";

export function embedThen(embed, texts, finish, maxLength) {
  return Promise.resolve()
    .then(() => {
      const vectors = embed(texts);
      // Awaiting a revoked Proxy throws a TypeError (reading its `then`): refuse it first.
      if (typeCode(vectors) === REVOKED) throw codedError("invalid_input", "embed", "expected an array of vectors, got revoked Proxy");
      return vectors;
    })
    .then((vectors) => finish(float32Vectors(vectors, texts.length, maxLength)));
}

function float32Vectors(vectors, count, maxLength) {
  const items = listItems(vectors, count);
  if (!Array.isArray(items) || items.length !== count) {
    throw codedError("invalid_input", "embed", `expected an array of ${count} vectors, one per text`);
  }
  return items.map((vector, i) => float32Vector(vector, `embed[${i}]`, maxLength));
}

function float32Vector(vector, path, maxLength) {
  const expected = "expected a Float32Array or an array of numbers";
  let typed = false;
  try {
    typed = vector instanceof Float32Array || vector instanceof Float64Array;
  } catch {
    // a Proxy whose prototype cannot be read: not a typed array
  }
  if (!typed && typeCode(vector) !== 3) throw codedError("invalid_input", path, expected);
  const length = lengthOf(vector);
  if (length > maxLength) throw codedError("too_large", path, `${length} numbers exceed the most a vector may hold (${maxLength})`);
  try {
    if (length >= 0) return new Float32Array(vector);
  } catch {
    // an item that is no number (a BigInt, a Symbol) or that cannot be read
  }
  throw codedError("invalid_input", path, expected);
}
