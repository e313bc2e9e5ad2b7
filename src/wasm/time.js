// Wall-clock milliseconds for `timingMs`: `performance.now()` where the runtime has it
// (browsers, Node, workerd), else `Date.now()`.
export function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
