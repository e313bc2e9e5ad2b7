// Trap recovery for the node and web targets (copied into pkg/<target>/ by
// scripts/build-pkg.mjs; the generated citeproof.js wraps every export with it).
//
// A trap (a `WebAssembly.RuntimeError`: a panic that slipped through, an out-of-memory
// abort) leaves the instance's memory in an unknown state, so the wrapper throws an
// `Error` with code `internal_error` and recreates the instance through wasm-bindgen's
// `__wbg_reset_state` (built with `--experimental-reset-state-function`): the next call
// runs on a fresh instance. Objects made before the reset (a `CitationStream`, a
// `CitationValidator`) belong to the old instance: using one throws `stale_instance`.

/** The `Error` thrown for a trap or a stale object, with a stable `code`. */
function coded(code, message, cause) {
  return Object.assign(new Error(message, { cause }), { code });
}

/** Turns what a call into the instance threw into what the caller sees. */
function recovered(error, reset) {
  if (error instanceof WebAssembly.RuntimeError) {
    reset();
    return coded("internal_error", `citeproof trapped (${error.message}); the instance was recreated, so the next call works`, error);
  }
  if (error instanceof Error && error.code === undefined && /stale object from previous Wasm instance/.test(error.message)) {
    return coded("stale_instance", "this object was made before citeproof's instance was recreated after a trap: make a new one", error);
  }
  return error;
}

const isClass = (value) => typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value));

/** `fn` (a function or a class) with every call into the instance guarded. */
export function guard(fn, reset) {
  if (!isClass(fn)) {
    return function guarded(...args) {
      let result;
      try {
        result = fn.apply(this, args);
      } catch (error) {
        throw recovered(error, reset);
      }
      // `validateAsync` and friends: the trap may come after an await.
      if (result instanceof Promise) {
        return result.catch((error) => {
          throw recovered(error, reset);
        });
      }
      return result;
    };
  }
  // Methods, getters and static methods, in place: objects the module makes itself
  // (`CitationValidator#stream()`) share the prototype.
  for (const target of [fn.prototype, fn]) {
    for (const name of Object.getOwnPropertyNames(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      if (name === "constructor" || name.startsWith("__") || !descriptor.configurable) continue;
      if (typeof descriptor.value === "function" && !isClass(descriptor.value)) {
        descriptor.value = guard(descriptor.value, reset);
      } else if (descriptor.get) {
        descriptor.get = guard(descriptor.get, reset);
      } else {
        continue;
      }
      Object.defineProperty(target, name, descriptor);
    }
  }
  return new Proxy(fn, {
    construct(target, args, newTarget) {
      try {
        return Reflect.construct(target, args, newTarget);
      } catch (error) {
        throw recovered(error, reset);
      }
    },
  });
}
