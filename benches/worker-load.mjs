// Issue 8's load test: the edge worker under workerd (wrangler dev, local) in front of a
// mock upstream on 127.0.0.1 that answers instantly, loaded with `wrk` (Debian package)
// for 20 s, verifying worker vs pass-through worker (same code, CITEPROOF_MODE), one
// after the other in one run. Prints requests/s, p50/p99 latency, errors, and checks
// that the verifying worker logged one audit line per request it served (warm-up
// included; wrangler logs one line per request served).
//
//   node benches/worker-load.mjs [seconds]   (needs pkg/web: node scripts/build-pkg.mjs web)
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { root, startWrangler } from "../tests/js/helpers.mjs";

const seconds = Number(process.argv[2] ?? 20);
const sources = [
  { title: "Boiling point", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." },
  { title: "Japan", url: "https://example.org/japan", text: "Tokyo is the capital of Japan." },
];
const answer = "Water boils at 100 °C at sea level [1]. Tokyo is the capital of Japan [2].";
const completion = JSON.stringify({ id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }] });
const mock = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(completion));
});
await new Promise((resolve) => mock.listen(0, "127.0.0.1", resolve));
const upstream = `http://127.0.0.1:${mock.address().port}/v1/chat/completions`;

const script = join(tmpdir(), "citeproof-wrk.lua");
writeFileSync(
  script,
  `wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nwrk.body = ${JSON.stringify(JSON.stringify({ question: "When does water boil?", sources }))}\n`,
);

function parseWrk(out) {
  const unit = { us: 1e-3, ms: 1, s: 1000 };
  const latency = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? Number(m[1]) * unit[m[2]] : NaN;
  };
  return {
    requests: Number(/(\d+) requests in/.exec(out)[1]),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    p50: latency(50),
    p99: latency(99),
    errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
      (/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0),
  };
}

// Asynchronous: the mock upstream lives in this process and must keep answering.
const wrk = async (args) => (await promisify(execFile)("wrk", args, { encoding: "utf8" })).stdout;
const dir = join(root, "examples", "edge-worker");
const results = {};
for (const mode of ["passthrough", "verify"]) {
  const worker = await startWrangler(dir, { vars: { UPSTREAM_URL: upstream, CITEPROOF_MODE: mode }, probe: "/metrics" });
  try {
    // Warm-up, then the measured run.
    await wrk(["-t2", "-c8", "-d3s", "-s", script, `${worker.url}/v1/chat`]);
    const out = await wrk(["-t2", "-c8", `-d${seconds}s`, "--latency", "-s", script, `${worker.url}/v1/chat`]);
    await new Promise((r) => setTimeout(r, 2000)); // let the log catch up
    // Over the whole life of the worker (warm-up included): requests served, audit lines.
    const lines = worker.log().split("\n");
    const served = lines.filter((l) => /POST \/v1\/chat 200/.test(l)).length;
    const audits = lines.filter((l) => l.includes('{"citeproof_audit"')).length;
    results[mode] = { ...parseWrk(out), served, audits };
  } finally {
    worker.stop();
  }
}
mock.close();

console.log(`edge worker under wrangler dev (local workerd), wrk -t2 -c8 -d${seconds}s, ${cpus().length} × ${cpus()[0].model}, Node ${process.version}`);
console.log("worker        requests   req/s    p50 ms   p99 ms   errors   served in all   audit lines");
for (const [mode, r] of Object.entries(results)) {
  console.log(`${mode.padEnd(12)} ${String(r.requests).padStart(9)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors).padStart(8)} ${String(r.served).padStart(15)} ${String(mode === "verify" ? r.audits : "-").padStart(13)}`);
}
const { verify, passthrough } = results;
console.log(`added by verification: p50 +${(verify.p50 - passthrough.p50).toFixed(2)} ms, p99 +${(verify.p99 - passthrough.p99).toFixed(2)} ms; throughput ${(verify.rps / passthrough.rps).toFixed(2)}× pass-through`);
if (verify.errors || passthrough.errors) throw new Error("errors under load");
if (verify.audits !== verify.served) throw new Error(`${verify.audits} audit lines for ${verify.served} requests`);
