// Shared helpers for the JS tests: paths, a static file server on 127.0.0.1, Chromium.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { stripVTControlCharacters } from "node:util";
import { chromium } from "playwright-core";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const pkgDir = join(root, "pkg");

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css",
};

/**
 * Serves the built app `dist`, opens it in `browser` and waits for `count` chips:
 * `{ page, badges, errors, close }`, `badges` being each chip's `[text, data-valid]` and
 * `errors` the page's uncaught errors so far.
 */
export async function openChips(browser, dist, count) {
  const server = await serveStatic(dist);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const close = async () => {
    await page.close();
    await server.close();
  };
  try {
    await page.goto(`${server.url}/index.html`);
    const badges = page.locator(".citeproof-chip__badge");
    await badges.nth(count - 1).waitFor({ timeout: 15000 });
    return { page, badges: await badges.evaluateAll((all) => all.map((b) => [b.textContent, b.dataset.valid])), errors, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Type-checks `code` as `file` of the stock `npm create vite` react-ts template (its own
 * tsconfig.app.json, vendored: strict under TypeScript 7), the package's types as its
 * exports give them: tsc's exit status and output.
 */
export function typeCheckAsTemplate(name, code, file = "main.tsx") {
  const dir = join(root, "target", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), code);
  const config = {
    extends: join(root, "tests", "fixtures", "create-vite-react-ts", "tsconfig.app.json"),
    compilerOptions: {
      paths: {
        citeproof: [join(pkgDir, "bundler", "citeproof.d.ts")],
        "citeproof/react": [join(pkgDir, "react.d.ts")],
        "citeproof/react/hooks": [join(pkgDir, "react-hooks.d.ts")],
        "citeproof/remark": [join(pkgDir, "remark.d.ts")],
      },
    },
    files: [file],
    include: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  // `--pretty false`: plain diagnostics whatever the terminal (FORCE_COLOR colours them).
  const run = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

/**
 * Copies the package into `appDir`/node_modules/citeproof as npm would install it: its
 * package.json and the files its `files` list names (`skip`: directories a test does not
 * need, such as "node" or "web"), so an app built there resolves the package as a user's does.
 */
export function installPackage(appDir, { skip = ["web", "bin"] } = {}) {
  const installed = join(appDir, "node_modules", "citeproof");
  const { files } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  for (const file of ["package.json", ...files.map((f) => f.replace(/\/$/, ""))].filter((f) => !skip.includes(f))) {
    cpSync(join(pkgDir, file), join(installed, file), { recursive: true });
  }
  return installed;
}

/** Serves `dir` on 127.0.0.1 at a free port; resolves to `{ url, close }`. */
export async function serveStatic(dir) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    let file = join(dir, path);
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Headless Debian Chromium, with the flags this closed network needs. */
export async function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Opens `url` and waits until the page sets `document.body.dataset.result`. */
export async function pageResult(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  try {
    await page.waitForFunction(() => document.body?.dataset.result !== undefined, null, { timeout: 15000 });
  } catch (e) {
    throw new Error(`page ${url} never reported a result; page errors: ${errors.join("; ")}`);
  }
  const result = await page.evaluate(() => document.body.dataset.result);
  await page.close();
  return JSON.parse(result);
}

// The temporary directories this process made, removed when it exits: a run of the
// suite made about 20 MB of them (installed packages, wrangler state) and left them all.
const made = [];
process.on("exit", () => {
  for (const dir of made) {
    // A child still writing into its directory (a wrangler a test did not stop) must not
    // turn a passing run into a failing one.
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {}
  }
});

/** A fresh temporary directory, removed when the process exits. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

// The ports `freePort` handed out in this process, never handed out twice.
const portsGiven = new Set();

/**
 * The first port the kernel hands out by itself (for a bind to port 0 and for the local
 * end of an outgoing connection): Linux's `ip_local_port_range`, 32768 by default.
 */
function ephemeralStart() {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/** Whether a server can listen on `port` of 127.0.0.1 now. */
function canListen(port) {
  return new Promise((resolve) => {
    const server = createNetServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 for a server a test starts: free when asked, never handed out
 * twice in this process, and below the kernel's ephemeral range, so that neither the
 * kernel's own picks (the ports wrangler and workerd bind to port 0, the local ends of
 * the tests' connections) nor another test's server can take it before the server
 * binds it. Random picks in one fixed range, without these checks, gave two of the
 * workers a test starts at once the same port now and then.
 */
export async function freePort() {
  const low = 20000;
  const high = Math.max(low + 1000, ephemeralStart());
  for (let tries = 0; tries < 1000; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (portsGiven.has(port)) continue;
    // Taken before the check awaits: callers running at once never get the same port.
    portsGiven.add(port);
    if (await canListen(port)) return port;
    portsGiven.delete(port);
  }
  throw new Error(`no free port on 127.0.0.1 between ${low} and ${high}`);
}

/**
 * Starts `wrangler dev` (local workerd) in `dir` on 127.0.0.1 with `vars`; resolves when
 * this instance says it is ready on its port and `probe` (a path) answers. Waiting for its
 * own "Ready on" line matters: a probe alone would also be answered by another server that
 * got the port first, and the tests would then talk to that one. `{ url, state, log(),
 * stop() }`; `state` is the instance's own local-persistence directory (`--persist-to`).
 */
export async function startWrangler(dir, { vars = {}, probe = "/" } = {}) {
  const port = await freePort();
  const state = tempDir("citeproof-wrangler-state-");
  // Each instance its own devtools port (two on the default 9229 fail to start), its own
  // name (wrangler's local dev registry routes two same-named workers to one runtime) and
  // its own local state (two runtimes opening the same SQLite files in `.wrangler/state`
  // at once can fail with SQLITE_BUSY).
  const args = [
    "dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(await freePort()),
    "--name", `citeproof-test-${port}`, "--show-interactive-dev-session=false",
    "--persist-to", state,
  ];
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);
  // No colours: `node --test` sets FORCE_COLOR when its output is a terminal, and a
  // coloured "Ready on" line has escape codes between its words and the URL.
  const env = { ...process.env, NO_COLOR: "1", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "1" };
  delete env.FORCE_COLOR;
  const child = spawn(join(root, "node_modules", ".bin", "wrangler"), args, { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  let exited = false;
  child.on("exit", () => (exited = true));
  for (let i = 0; i < 360 && !exited; i++) {
    if (stripVTControlCharacters(log).includes(`Ready on ${url}`)) {
      try {
        await fetch(`${url}${probe}`);
        return { url, state, log: () => log, stop };
      } catch {
        // bound, not serving yet
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  throw new Error(`wrangler dev did not start in ${dir}:\n${log}`);
}

/** The package's adapter for each provider `fromAny` names (`input.provider`). */
export const ADAPTER = {
  anthropic: "fromAnthropic",
  openai: "fromOpenAI",
  gemini: "fromGemini",
  cohere: "fromCohere",
  perplexity: "fromPerplexity",
  "vercel-ai": "fromVercelAI",
  bedrock: "fromBedrock",
  // xAI's Responses API has OpenAI's shape, and the OpenAI adapter reads it.
  xai: "fromOpenAI",
};

/** The code of the recipe `name` in `file` (between `<!-- recipe: name -->` and `<!-- /recipe -->`). */
export function recipe(file, name) {
  const text = readFileSync(join(root, file), "utf8");
  const found = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`(?:jsx?|tsx)\\n([\\s\\S]*?)\`\`\`\\n<!-- /recipe -->`).exec(text);
  if (!found) throw new Error(`no recipe ${name} in ${file}`);
  return found[1];
}

/**
 * Builds a React app with Vite (plugin-react and vite-plugin-wasm, as the npm README says)
 * in target/<name>: `index.html` with a `#root` and `head` in it, `entry` (`main.jsx`, or
 * `main.tsx` for TypeScript, whose types Vite strips unchecked) = `app`, `citeproof`,
 * `citeproof/react(.css)`, `citeproof/react/hooks` and `citeproof/remark` taken from pkg/.
 * `development`: React's development build (where StrictMode runs effects twice). Returns
 * the `dist` directory.
 */
export function buildReactApp(name, app, { head = "", development = false, entry = "main.jsx" } = {}) {
  const dir = join(root, "target", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), `<!doctype html>${head}<body><div id="root"></div><script type="module" src="./${entry}"></script></body>`);
  writeFileSync(join(dir, entry), app);
  const pkg = (file) => JSON.stringify(join(pkgDir, file));
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
export default {
  plugins: [react(), wasm()],
  resolve: {
    alias: [
      { find: /^citeproof$/, replacement: ${pkg("bundler/citeproof.js")} },
      { find: /^citeproof\\/react$/, replacement: ${pkg("react.js")} },
      { find: /^citeproof\\/react\\.css$/, replacement: ${pkg("react.css")} },
      { find: /^citeproof\\/react\\/hooks$/, replacement: ${pkg("react-hooks.js")} },
      { find: /^citeproof\\/remark$/, replacement: ${pkg("remark.js")} },
    ],
    dedupe: ["react", "react-dom"],
  },
  build: { target: "esnext" },
  logLevel: "warn",
};
`,
  );
  const mode = development ? ["--mode", "development"] : [];
  const env = development ? { ...process.env, NODE_ENV: "development" } : process.env;
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build", ...mode], { cwd: dir, stdio: "pipe", env });
  return join(dir, "dist");
}

/** A small seeded generator (mulberry32): the same mutations on every run. */
export function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every `[parent, key]` of `value`'s tree. */
export function slots(value, found = []) {
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      found.push([value, key]);
      slots(value[key], found);
    }
  }
  return found;
}
