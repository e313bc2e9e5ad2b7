// validateAsync's one asynchronous step: call the user's `embed(texts)` and `judge(pairs)`
// (whichever were given, at once), check what they return, and hand it to `finish` (a
// wasm closure that validates with it), as `[vectors, probabilities]`: one Float32Array
// per text, and one probability per pair. A rejected or throwing hook, or a `finish`
// that throws, rejects the returned promise; so does a result of the wrong shape (an
// Error with a code, wasm/js/untrusted.js).
import { TYPE_ARRAY, TYPE_REVOKED, codedError, lengthOf, listItems, typeCode } from "./untrusted.js";

// `texts`: the claims whose support is scored (`claimCount` of them), then every
// source's text; `labels`: each source's label; pair k is claim `pairClaims[k]` with
// source `pairSources[k]` (a Uint32Array each: the sources each claim's support reads,
// Validator::support_pairs).
export function supportThen(embed, judge, texts, claimCount, labels, pairClaims, pairSources, finish, maxLength) {
  const pairs = judge ? judgePairs(texts, claimCount, labels, pairClaims, pairSources) : [];
  return Promise.all([
    embed && call(embed, texts, "embed", "an array of vectors"),
    judge && call(judge, pairs, "judge", "an array of probabilities"),
  ]).then(([vectors, probabilities]) =>
    finish([
      embed ? float32Vectors(vectors, texts.length, maxLength) : undefined,
      judge ? checkedProbabilities(probabilities, pairs.length) : undefined,
    ]),
  );
}

// `hook(argument)`, awaited; a revoked Proxy for a result is refused before it is
// awaited (awaiting one throws a TypeError, reading its `then`).
function call(hook, argument, name, expected) {
  return Promise.resolve()
    .then(() => {
      const result = hook(argument);
      if (typeCode(result) === TYPE_REVOKED) throw codedError("invalid_input", name, `expected ${expected}, got revoked Proxy`);
      return result;
    });
}

// The judge's pairs: `{ claim, passage, sourceIndex }`, a claim's next to each other.
function judgePairs(texts, claimCount, labels, pairClaims, pairSources) {
  const pairs = new Array(pairClaims.length);
  for (let k = 0; k < pairClaims.length; k++) {
    const s = pairSources[k];
    pairs[k] = { claim: texts[pairClaims[k]], passage: texts[claimCount + s], sourceIndex: labels[s] };
  }
  return pairs;
}

// The judge's probabilities, one per pair, each a number from 0 to 1.
function checkedProbabilities(probabilities, count) {
  const items = listItems(probabilities, count);
  if (!Array.isArray(items) || items.length !== count) {
    throw codedError("invalid_input", "judge", `expected an array of ${count} probabilities, one per pair`);
  }
  items.forEach((p, i) => {
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) {
      const shown = typeof p === "number" ? String(p) : typeCode(p) === TYPE_REVOKED ? "revoked Proxy" : typeof p;
      throw codedError("invalid_input", `judge[${i}]`, `expected a probability from 0 to 1, got ${shown}`);
    }
  });
  return items;
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
  if (!typed && typeCode(vector) !== TYPE_ARRAY) throw codedError("invalid_input", path, expected);
  const length = lengthOf(vector);
  if (length > maxLength) throw codedError("too_large", path, `${length} numbers exceed the most a vector may hold (${maxLength})`);
  try {
    if (length >= 0) return new Float32Array(vector);
  } catch {
    // an item that is no number (a BigInt, a Symbol) or that cannot be read
  }
  throw codedError("invalid_input", path, expected);
}
