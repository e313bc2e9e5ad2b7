// Memory over a long run: `validate` called 1,000,000 times in one Node process on the
// typical request of benches/validate.mjs (with claim support on every other call);
// prints the wasm linear memory (`memoryBytes()`) and the JS heap after a GC every
// 100,000 calls. Flat after warm-up = no leak.
//   node --expose-gc benches/memory.mjs [calls]
import { citeproof, dataset } from "./common.mjs";

const { validate, memoryBytes } = citeproof();
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const answers = dataset("answers-val.jsonl");
// Every ExpertQA answer in turn, so that inputs of many sizes pass through the allocator.
const inputs = answers.map((a) => ({ answer: a.answer, sources: a.sources }));
const calls = Number(process.argv[2] ?? 1_000_000);
const every = calls / 10;
const sample = (i) => {
  globalThis.gc();
  return { calls: i, wasmBytes: memoryBytes(), heapBytes: process.memoryUsage().heapUsed };
};
const rows = [];
const started = performance.now();
for (let i = 0; i <= calls; i++) {
  if (i % every === 0) rows.push(sample(i));
  if (i < calls) validate(inputs[i % inputs.length], i % 2 ? { supportThreshold: 0.5 } : undefined);
}
const mb = (n) => (n / 2 ** 20).toFixed(2);
console.log(`${calls} validate calls over ${inputs.length} ExpertQA answers in ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log("calls      wasm MiB  JS heap MiB");
for (const r of rows) console.log(`${String(r.calls).padEnd(10)} ${mb(r.wasmBytes).padStart(8)}  ${mb(r.heapBytes).padStart(11)}`);
