// validateAsync's one asynchronous step: call the user's `embed(texts)` and `judge(pairs)`
// (whichever were given, at once), check what they return, and hand it to `finish` (a
// wasm closure that validates with it), as `[vectors, probabilities]`: one Float32Array
// per text, and one probability per pair. A rejected or throwing hook, or a `finish`
// that throws, rejects the returned promise; so does a result of the wrong shape (an
// Error with a code, wasm/js/untrusted.js).
import { TYPE_ARRAY, TYPE_REVOKED, codedError, lengthOf, listItems, typeCode } from "./untrusted.js";

// `texts`: the claims whose support is scored (`claimCount` of them; a sentence the
// answer repeats once per repetition), then every source's text; `labels`: each source's
// label; pair k is claim `pairClaims[k]` with source `pairSources[k]` (the sources each
// claim's support reads, Validator::support_pairs). The hooks see each claim text, and
// each judged pair, once; their answers are spread back to every repetition here, in JS,
// where a map costs the module no bytes.
export function supportThen(embed, judge, texts, claimCount, labels, pairClaims, pairSources, finish, maxLength) {
  const claims = distinct(texts.slice(0, claimCount));
  const asked = judge ? judgePairs(claims, texts, claimCount, labels, pairClaims, pairSources) : undefined;
  const embedded = embed ? claims.texts.concat(texts.slice(claimCount)) : undefined;
  return Promise.all([
    embed && call(embed, embedded, "embed", "an array of vectors"),
    judge && call(judge, asked.pairs, "judge", "an array of probabilities"),
  ]).then(([vectors, probabilities]) => {
    let perText;
    if (embed) {
      const checked = float32Vectors(vectors, embedded.length, maxLength);
      perText = claims.of.map((u) => checked[u]).concat(checked.slice(claims.texts.length));
    }
    let perPair;
    if (judge) {
      const checked = checkedProbabilities(probabilities, asked.pairs.length);
      perPair = asked.of.map((u) => checked[u]);
    }
    return finish([perText, perPair]);
  });
}

// Each distinct string of `list` once (`texts`, in order of first appearance) and, per
// item, the index of its string there (`of`).
function distinct(list) {
  const at = new Map();
  const texts = [];
  const of = list.map((text) => {
    let u = at.get(text);
    if (u === undefined) at.set(text, (u = texts.push(text) - 1));
    return u;
  });
  return { texts, of };
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

// The judge's pairs, each distinct (claim text, source) once: `pairs` of `{ claim,
// passage, sourceIndex }`, a claim's next to each other, and per pair of the module
// the index of its judged pair (`of`). `pairClaims` and `pairSources` are views of the
// module's memory, valid during this call only: read here, before any hook runs.
function judgePairs(claims, texts, claimCount, labels, pairClaims, pairSources) {
  const at = new Map();
  const pairs = [];
  const of = new Array(pairClaims.length);
  for (let k = 0; k < pairClaims.length; k++) {
    const u = claims.of[pairClaims[k]];
    const s = pairSources[k];
    const key = u * (labels.length + 1) + s;
    let j = at.get(key);
    if (j === undefined) {
      at.set(key, (j = pairs.length));
      pairs.push({ claim: claims.texts[u], passage: texts[claimCount + s], sourceIndex: labels[s] });
    }
    of[k] = j;
  }
  return { pairs, of };
}

// The judge's probabilities, one per pair, each a number from 0 to 1: an array, or a
// typed array (a model's output tensor's data), as `ArrayLike<number>` says.
function checkedProbabilities(probabilities, count) {
  const typed = ArrayBuffer.isView(probabilities) && !(probabilities instanceof DataView);
  const items = typed ? Array.from(probabilities) : listItems(probabilities, count);
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
  const checked = items.map((vector, i) => float32Vector(vector, `embed[${i}]`, maxLength));
  // One model's vectors have one length: two lengths are a broken embedder, whose
  // cosines would all read 0. (An empty vector, as for an empty text, counts as cosine 0.)
  const first = checked.findIndex((vector) => vector.length > 0);
  checked.forEach((vector, i) => {
    if (vector.length > 0 && vector.length !== checked[first].length) {
      throw codedError("invalid_input", `embed[${i}]`, `expected ${checked[first].length} numbers, as embed[${first}] has, got ${vector.length}`);
    }
  });
  return checked;
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
    // Each item a number (NaN and the infinities too: such a vector counts as cosine 0),
    // so that `["0.5", {}]` is refused, not read as 0.5 and NaN; then one copy.
    for (let i = 0; !typed && i < length; i++) if (typeof vector[i] !== "number") throw new TypeError("not a number");
    if (length >= 0) return new Float32Array(vector);
  } catch {
    // an item that is no number (a string, an object, a BigInt), or that cannot be read
  }
  throw codedError("invalid_input", path, expected);
}
