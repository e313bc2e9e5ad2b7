// What the core may not do itself (docs/architecture.md §1): read clocks and make random ids.

// Wall-clock milliseconds for `timingMs`: `performance.now()` where the runtime has it
// (browsers, Node, workerd), else `Date.now()`.
export function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

// ISO 8601 time for audit records.
export function isoNow() {
  return new Date().toISOString();
}

// A random UUID for audit ids (crypto.randomUUID in browsers, Node >= 19 and workerd).
export function randomId() {
  return globalThis.crypto.randomUUID();
}

// A panic's message with the JS stack, on the console (the module's panic hook).
export function panicked(message) {
  console.error(`${message}\n\nStack:\n\n${new Error().stack}\n\n`);
}
