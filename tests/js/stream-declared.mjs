// What stream-declared.test.mjs runs against one module: each case's SSE body through
// `citeproofTransform`, and its events through `CitationStream.finish(events)` (and the
// `Input` an adapter made of them through `finish(input)`), as JSON-able results. The
// test runs it in-process against the full module (Node) and in a child process against
// the browser entry (pkg/bundler/citeproof.js, the module a bundler gives a browser), so
// that both sides run this same code.
//
//   node --experimental-wasm-modules tests/js/stream-declared.mjs <cases.json>
//                                 prints the browser entry's results (the child's job)
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A report without its timing (the one field two runs may not share). */
const steady = (report) => report && { ...report, timingMs: 0 };

/** `body` through `lib.citeproofTransform(input, options)` in three byte chunks: the output, the report, the format. */
async function throughTransform(lib, { body, sources }) {
  const bytes = new TextEncoder().encode(body);
  const cut = [0, Math.floor(bytes.length / 3), Math.floor((2 * bytes.length) / 3), bytes.length];
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 3; i++) controller.enqueue(bytes.slice(cut[i], cut[i + 1]));
      controller.close();
    },
  });
  const transform = lib.citeproofTransform({ sources }, { policy: "flag" });
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream.pipeThrough(transform)) out += decoder.decode(chunk, { stream: true });
  // The citations event carries the report, whose timing is the one field two runs may not share.
  out = out.replace(/"timingMs":[0-9.e+-]+/g, '"timingMs":0');
  return { out, report: steady(await transform.report), format: transform.format };
}

/** `answer` pushed in two pieces, then `finish(declared)`: the end's text, report and revision. */
function throughFinish(lib, { answer, sources, offsets }, declared) {
  const stream = new lib.CitationStream({ sources }, { offsets });
  try {
    const half = Math.floor(answer.length / 2);
    let text = stream.push(answer.slice(0, half)).text + stream.push(answer.slice(half)).text;
    const end = stream.finish(declared);
    text += end.text;
    return { text, report: steady(end.report), revise: end.revise ?? null };
  } catch (error) {
    return { error: { code: error.code, message: error.message } };
  } finally {
    stream.free();
  }
}

/**
 * Every case through `lib`: `{ transform, events, input }` per case (`events`/`input`
 * null when the case has no answer to stream).
 */
export async function runCases(lib, cases) {
  const results = [];
  for (const c of cases) {
    results.push({
      name: c.name,
      transform: await throughTransform(lib, c),
      events: c.answer === null ? null : throughFinish(lib, c, c.events),
      input: c.input === null ? null : throughFinish(lib, c, c.input),
    });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lib = await import(new URL("../../pkg/bundler/citeproof.js", import.meta.url));
  const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
  process.stdout.write(JSON.stringify(await runCases(lib, cases)));
}
