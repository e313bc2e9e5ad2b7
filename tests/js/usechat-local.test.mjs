// The guide's "Trying it locally" for the useChat route, as written: the package README's
// route (route.js), the guide's rag.js (fixed sources, formatContext, the AI SDK's mock
// model) and server.mjs (node:http on the port Vite's proxy names), in an app directory
// with citeproof installed as npm puts it. A useChat request to /api/chat gets the mock's
// answer cleaned, never half a marker in the text so far, and the report in a
// data-citations part.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { freePort, installPackage, pkgDir, recipe, root } from "./helpers.mjs";

const { validate } = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));

// The route: the first code block of the package README's useChat section (as usechat.test.mjs takes it).
const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
const at = readme.indexOf("## useChat (AI SDK 7) + Streamdown");
const ROUTE = /^```js\n([\s\S]*?)^```$/m.exec(readme.slice(at, readme.indexOf("\n## ", at + 1)))[1];
const RAG = recipe("docs/guide.md", "usechat-rag");
const SERVER = recipe("docs/guide.md", "usechat-server");

const dir = join(root, "target", "usechat-local");
let server;
let url;
before(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Node resolves `ai` from the repository's node_modules, citeproof from the app's own.
  installPackage(dir, { skip: ["web", "bin", "bundler", "bundler-patterns"] });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "route.js"), ROUTE);
  writeFileSync(join(dir, "rag.js"), RAG);
  const port = await freePort();
  assert.ok(SERVER.includes(".listen(3000);"));
  writeFileSync(join(dir, "server.mjs"), SERVER.replace(".listen(3000);", `.listen(${port}, "127.0.0.1");`));
  server = spawn(process.execPath, ["server.mjs"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (d) => (stderr += d));
  url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (server.exitCode !== null) break;
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`server.mjs did not start: ${stderr}`);
});
after(() => server?.kill());

test("route.js + the guide's rag.js (mock model) + server.mjs: a useChat request gets the cleaned answer and its report", async () => {
  const response = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "How hot does water boil?" }] }] }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /^text\/event-stream/);
  const datas = (await response.text()).split("\n\n").filter((b) => b.startsWith("data: ")).map((b) => b.slice(6));
  assert.equal(datas.at(-1), "[DONE]");
  const chunks = datas.slice(0, -1).map((d) => JSON.parse(d));
  let shown = "";
  for (const chunk of chunks.filter((c) => c.type === "text-delta")) {
    shown += chunk.delta;
    assert.doesNotMatch(shown, /\[\d*$/, `half a marker shown: ${JSON.stringify(shown)}`);
  }
  // rag.js's sources and answer, read back through the public API.
  const { retrieve, model } = await import(join(dir, "rag.js"));
  const sources = await retrieve([]);
  const { stream } = await model.doStream({});
  let answer = "";
  for await (const part of stream) if (part.type === "text-delta") answer += part.delta;
  const expected = validate({ answer, sources }, { policy: "flag" });
  assert.equal(shown, expected.cleanedAnswer);
  const { report } = chunks.filter((c) => c.type === "data-citations").at(-1).data;
  assert.equal(report.status, expected.status);
  assert.deepEqual(report.citations.map((c) => [c.label, c.valid]), [["1", true], ["2", true], ["7", false]]);
  assert.equal((await fetch(`${url}/other`)).status, 404);
});
