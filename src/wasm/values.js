// Builds a JS value from the tape src/wasm/value_out.rs writes for any serde value:
// operations and numbers in one Float64Array, the strings in one string (each string's
// UTF-16 length is on the tape). The result equals JSON.parse of serde_json's text.

const NULL = 0, FALSE = 1, TRUE = 2, NUMBER = 3, STRING = 4, ARRAY = 5, OBJECT = 6, END = 7;

export function buildValue(ops, strings) {
  let n = 0; // next operation
  let s = 0; // next string's start
  function value() {
    switch (ops[n++]) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case NUMBER:
        return ops[n++];
      case STRING: {
        const start = s;
        s += ops[n++];
        return strings.slice(start, s);
      }
      case ARRAY: {
        const out = [];
        while (ops[n] !== END) out.push(value());
        n++;
        return out;
      }
      case OBJECT: {
        const out = {};
        while (ops[n] !== END) {
          const key = String(value());
          // As JSON.parse does: "__proto__" is an own field, not the prototype.
          if (key === "__proto__") Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
          else out[key] = value();
        }
        n++;
        return out;
      }
      default:
        throw new Error(`citeproof: bad value tape at ${n - 1}`);
    }
  }
  return value();
}
