// validateAsync's one asynchronous step: call the user's `embed(texts)` and `judge(pairs)`
// (whichever were given, at once), check what they return, and hand it to `finish` (a
// wasm closure that validates with it), as `[vectors, probabilities]`: one Float32Array
// per text, and the judge's probabilities as one array of claims × sources numbers. A rejected or throwing hook,
// or a `finish` that throws, rejects the returned promise; so does a result of the
// wrong shape (an Error with a code, wasm/js/untrusted.js).
import { TYPE_ARRAY, TYPE_REVOKED, codedError, lengthOf, listItems, typeCode } from "./untrusted.js";

// `texts`: the cited claims (`claimCount` of them), then every source's text; `labels`:
// each source's label, for the judge's pairs.
export function supportThen(embed, judge, texts, claimCount, labels, finish, maxLength) {
  const pairs = judge ? judgePairs(texts, claimCount, labels) : [];
  return Promise.all([
    embed && call(embed, texts, "embed", "an array of vectors"),
    judge && call(judge, pairs.map((p) => p.pair), "judge", "an array of probabilities"),
  ]).then(([vectors, probabilities]) =>
    finish([
      embed ? float32Vectors(vectors, texts.length, maxLength) : undefined,
      judge ? judgedMatrix(probabilities, pairs, claimCount * labels.length) : undefined,
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

// Every cited claim with every source that has text: `{ pair: { claim, passage,
// sourceIndex }, at }`, `at` its place in the claims × sources matrix.
function judgePairs(texts, claimCount, labels) {
  const pairs = [];
  for (let c = 0; c < claimCount; c++) {
    for (let s = 0; s < labels.length; s++) {
      const passage = texts[claimCount + s];
      if (passage !== "") pairs.push({ pair: { claim: texts[c], passage, sourceIndex: labels[s] }, at: c * labels.length + s });
    }
  }
  return pairs;
}

// The judge's probabilities in a claims × sources matrix (0 where a source has no text).
function judgedMatrix(probabilities, pairs, size) {
  const items = listItems(probabilities, pairs.length);
  if (!Array.isArray(items) || items.length !== pairs.length) {
    throw codedError("invalid_input", "judge", `expected an array of ${pairs.length} probabilities, one per pair`);
  }
  const matrix = new Array(size).fill(0);
  items.forEach((p, i) => {
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) {
      const shown = typeof p === "number" ? String(p) : typeCode(p) === TYPE_REVOKED ? "revoked Proxy" : typeof p;
      throw codedError("invalid_input", `judge[${i}]`, `expected a probability from 0 to 1, got ${shown}`);
    }
    matrix[pairs[i].at] = p;
  });
  return matrix;
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
