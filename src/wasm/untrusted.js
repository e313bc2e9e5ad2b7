// Reading what the caller passed, which may be anything: a revoked Proxy (every
// operation on it throws), an array claiming 2^32 − 1 items (sparse, or a Proxy whose
// `length` says so), a getter or a Proxy trap that throws. The functions here never
// throw and read a list's items only after its length passed the limit, so a hostile
// value costs at most `limit` reads; their callers turn what they find into an Error
// with a code and a field path (README, "Bad arguments").

// `typeCode` of a revoked Proxy, and the code `list` writes for an array-like Proxy
// whose `length` cannot be read or is no array length.
export const REVOKED = 8;
export const UNREADABLE_LENGTH = 9;

// The type of `value` as an index into the type names of src/wasm/read.rs (`TYPES`).
export function typeCode(value) {
  switch (typeof value) {
    case "string":
      return 0;
    case "number":
      return 1;
    case "boolean":
      return 2;
    case "undefined":
      return 5;
    case "object":
      if (value === null) return 4;
    // falls through: objects and functions may be Proxies
    case "function":
      try {
        if (Array.isArray(value)) return 3;
      } catch {
        // IsArray is the one check that throws on a revoked Proxy and on nothing else.
        return REVOKED;
      }
      return typeof value === "object" ? 6 : 7;
    default:
      return 7;
  }
}

// `object[name]`, or undefined when the read throws (a getter, a Proxy trap).
export function fieldOf(object, name) {
  try {
    return object[name];
  } catch {
    return undefined;
  }
}

// The length of `array` (an array or an array-like Proxy), or -1 when reading it throws
// or gives anything but an array length (a Proxy's trap may return any value).
export function lengthOf(array) {
  let length;
  try {
    length = array.length;
  } catch {
    return -1;
  }
  return typeof length === "number" && length >>> 0 === length ? length : -1;
}

// The items of `value` in a plain array, `length` read once and each item once (an item
// whose read throws is undefined), when `value` is an array of at most `limit` items.
// Otherwise a number, and no item is read: the length when it exceeds `limit`, -1 when
// `value` is not an array (`typeCode` tells what it is), -2 when its length is
// unreadable.
export function listItems(value, limit) {
  if (typeCode(value) !== 3) return -1;
  const length = lengthOf(value);
  if (length < 0) return -2;
  if (length > limit) return length;
  const items = new Array(length);
  for (let i = 0; i < length; i++) items[i] = fieldOf(value, i);
  return items;
}

// The known names of each list `unknownField` is given, split once: a reader asks for
// the same names on every call.
const knownNames = new Map();

// The invalid_option error for the first own enumerable field of `value` (at `path`)
// whose name is not in `known` (names each followed by a comma), naming the known name
// nearest to it (at most 2 edits, or a third of its length, away), else every known
// name; undefined when all are known, or when the engine refuses to list the fields
// (a revoked Proxy, an ownKeys trap that throws: its readers report that).
export function unknownField(value, known, path) {
  let names = knownNames.get(known);
  if (!names) knownNames.set(known, (names = [...new Set(known.split(",").slice(0, -1))]));
  let fields;
  try {
    fields = Object.keys(value);
  } catch {
    return undefined;
  }
  const name = fields.find((field) => !names.includes(field));
  if (name === undefined) return undefined;
  let nearest = null;
  let fewest = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of names) {
    const edits = editDistance(candidate.toLowerCase(), name.toLowerCase());
    if (edits < fewest) [nearest, fewest] = [candidate, edits];
  }
  const hint = nearest ? `did you mean "${nearest}"?` : `known: ${names.join(", ")}`;
  return codedError("invalid_option", `${path}.${name}`, `unknown option (${hint})`);
}

// Insertions, deletions and replacements that turn `a` into `b`.
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) next.push(Math.min(row[j] + (a[i] === b[j] ? 0 : 1), row[j + 1] + 1, next[j] + 1));
    row = next;
  }
  return row[b.length];
}

// The names a source's displayed fields may be given under, the first present one
// winning: the spellings the input reader accepts (src/wasm/input.js, src/model/input.rs),
// for the code that reads sources for display (render.js, transform.js).
export const SOURCE_NAMES = {
  index: ["index"],
  title: ["title", "doc_title", "section_title"],
  url: ["url"],
  slug: ["slug"],
  text: ["text", "content", "excerpt", "page_content"],
};

// A source's field `name` under the first of its names present, or undefined.
export function sourceField(source, name) {
  for (const alias of SOURCE_NAMES[name]) {
    const value = fieldOf(source, alias);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

// An Error whose message starts with the field path and whose `code` is `code`, as
// src/wasm/errors.rs makes them.
export function codedError(code, path, message) {
  return Object.assign(new Error(`${path}: ${message}`), { code });
}

// `JSON.stringify(value)`, which refuses an array of more than `limit` items before
// walking into it (too_large, with its path under `path`). Anything else it cannot write
// is an invalid_input error: for a revoked Proxy with its path, else (a cycle, a BigInt,
// a getter that throws) for `path`.
export function jsonText(value, path, limit) {
  const refuse = (key, item) => {
    if (Array.isArray(item) && lengthOf(item) > limit) throw new RangeError("over the limit");
    return item;
  };
  try {
    return JSON.stringify(value, refuse) ?? "null";
  } catch {
    // Paths are spelled out only now, by a search for what failed: an array over the
    // limit, or a revoked Proxy (JSON.stringify reads a value's toJSON before the
    // replacer sees it, and that read is what throws on one).
    const found = culprit(value, path, limit);
    if (found?.length !== undefined) {
      throw codedError("too_large", found.path, `${found.length} items exceed the most a list may hold (${limit})`);
    }
    if (found) throw codedError("invalid_input", found.path, "expected a value, got revoked Proxy");
    throw codedError("invalid_input", path, "JSON.stringify failed (a cycle, a BigInt, a getter that throws?)");
  }
}

// The first revoked Proxy or array of more than `limit` items in `value`, in the order
// JSON.stringify writes it: `{ path }` or `{ path, length }` (its path under `path`), or
// null.
function culprit(value, path, limit) {
  const seen = new Set();
  const stack = [[value, path]];
  while (stack.length > 0) {
    const [item, at] = stack.pop();
    const type = typeCode(item);
    if (type === REVOKED) return { path: at };
    if ((type !== 3 && type !== 6) || seen.has(item)) continue;
    seen.add(item);
    if (type === 3) {
      const length = lengthOf(item);
      if (length > limit) return { path: at, length };
      for (let i = length - 1; i >= 0; i--) stack.push([fieldOf(item, i), `${at}[${i}]`]);
      continue;
    }
    let keys = [];
    try {
      keys = Object.keys(item);
    } catch {
      // a Proxy whose keys cannot be listed: nothing to look into
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push([fieldOf(item, keys[i]), `${at}.${keys[i]}`]);
  }
  return null;
}
