// Trap recovery for the node and web targets (copied into pkg/<target>/ by
// scripts/build-pkg.mjs; the generated citeproof.js wraps every export with it).
//
// A trap (a `WebAssembly.RuntimeError`: a panic that slipped through, an out-of-memory
// abort) leaves the instance's memory in an unknown state, so the wrapper throws an
// `Error` with code `internal_error` and recreates the instance through wasm-bindgen's
// `__wbg_reset_state` (built with `--experimental-reset-state-function`): the next call
// runs on a fresh instance. Objects made before the reset (a `CitationStream`, a
// `CitationValidator`) belong to the old instance: using one throws `stale_instance`.

// How many times the instance was recreated: wasm-bindgen numbers its instances from 0
// and tags each object with the number of the one that made it (`__wbg_inst`), and
// nothing but `reset` recreates one.
let generation = 0;

/** Whether `object` was made by an instance since recreated. */
const stale = (object) => object.__wbg_inst !== undefined && object.__wbg_inst !== generation;

/** The `Error` thrown for a trap or a stale object, with a stable `code`. */
function coded(code, message, cause) {
  return Object.assign(new Error(message, { cause }), { code });
}

/** Turns what a call into the instance threw into what the caller sees. */
function recovered(error, reset) {
  if (error instanceof WebAssembly.RuntimeError) {
    // Counted first: wasm-bindgen's reset numbers the new instance before it makes it,
    // so a reset that throws has moved on all the same.
    generation++;
    reset();
    return coded("internal_error", `citeproof trapped (${error.message}); the instance was recreated, so the next call works`, error);
  }
  if (error instanceof Error && error.code === undefined && /stale object from previous Wasm instance/.test(error.message)) {
    return coded("stale_instance", "this object was made before citeproof's instance was recreated after a trap: make a new one", error);
  }
  if (error instanceof Error && error.code === undefined && /null pointer passed to rust/.test(error.message)) {
    return coded("invalid_input", "this object was freed (free(), or the end of its `using` block): make a new one", error);
  }
  return error;
}

/** Refuses a `self` that is no `cls` for its method `name`: a trap, or another object's memory read as one. */
function checkThis(self, cls, name) {
  if (!(self instanceof cls)) {
    throw coded("invalid_input", `${cls.name}.prototype.${name} called on ${self === null || self === undefined ? String(self) : "an object that is no " + cls.name}`);
  }
}

/** `method` of `cls`, refusing a `this` that is no `cls`. */
function ownMethod(method, cls, name) {
  return function (...args) {
    checkThis(this, cls, name);
    return method.apply(this, args);
  };
}

/**
 * `free` of `cls`: an object made by an instance since recreated has no memory left to
 * free (it went with its instance; freeing its pointer would free another object's in the
 * new one), so it is only marked freed; a second `free` does nothing, as the first left
 * nothing to free.
 */
function ownFree(free, cls) {
  return function () {
    checkThis(this, cls, "free");
    if (stale(this) || !this.__wbg_ptr) {
      this.__wbg_ptr = 0;
      return;
    }
    return free.apply(this);
  };
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
    const own = target === fn.prototype;
    for (const name of Object.getOwnPropertyNames(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      if (name === "constructor" || name.startsWith("__") || !descriptor.configurable) continue;
      if (typeof descriptor.value === "function" && !isClass(descriptor.value)) {
        const method = own && name === "free" ? ownFree(descriptor.value, fn) : own ? ownMethod(descriptor.value, fn, name) : descriptor.value;
        descriptor.value = guard(method, reset);
      } else if (descriptor.get) {
        descriptor.get = guard(own ? ownMethod(descriptor.get, fn, name) : descriptor.get, reset);
      } else {
        continue;
      }
      Object.defineProperty(target, name, descriptor);
    }
  }
  // `using` disposes through `Symbol.dispose`, the glue's own `free`: the guarded one.
  if (typeof Symbol.dispose === "symbol" && fn.prototype[Symbol.dispose]) fn.prototype[Symbol.dispose] = fn.prototype.free;
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
