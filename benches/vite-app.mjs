// What a Vite + React app that renders citation chips downloads: the package README's
// quickstart (`<CitedAnswer>` with `citeproof/react.css`) and the README's react-markdown
// recipe (`citeproof/remark` in the app's own renderer) built for production with Vite,
// each asset gzip -9 (as a CDN serves it), beside the same app without citeproof (React
// alone) so the difference is what citeproof adds. Then, per combination of the
// package's entries an app imports (react alone, with providers, remark, edge, full, and
// their mixes; patterns, whose engine is JS (re2js) on the same module; the server entry
// citeproof/ai is not a browser's),
// built against the package installed in the app's node_modules (so Vite resolves its
// browser exports as in a real app): how many wasm modules it downloads, and their size.
//
//   node benches/vite-app.mjs     (needs pkg/bundler: node scripts/build-pkg.mjs bundler)
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, extname } from "node:path";
import { buildReactApp, pkgDir, root } from "../tests/js/helpers.mjs";

const withChips = `import { createRoot } from "react-dom/client";
import { CitedAnswer } from "citeproof/react";
import "citeproof/react.css";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
const answer = "Water boils at 100 °C at sea level [1]. The moon is made of cheese [3].";
createRoot(document.getElementById("root")).render(<CitedAnswer answer={answer} sources={sources} />);
`;
// The README's react-markdown recipe: the chips in the app's own markdown renderer.
const inMarkdown = `import { createRoot } from "react-dom/client";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { validate } from "citeproof";
import remarkCiteproof from "citeproof/remark";
import { CitationChip } from "citeproof/react";
import "citeproof/react.css";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
const report = validate({ answer: "Water boils at 100 °C at sea level [1]. The moon is made of cheese [3].", sources }, { policy: "flag" });
createRoot(document.getElementById("root")).render(
  <Markdown remarkPlugins={[remarkGfm, [remarkCiteproof, { report, sources }]]} components={{ sup: CitationChip }}>{report.cleanedAnswer}</Markdown>,
);
`;
const markdownOnly = `import { createRoot } from "react-dom/client";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
createRoot(document.getElementById("root")).render(<Markdown remarkPlugins={[remarkGfm]}>{"Water boils at 100 °C at sea level."}</Markdown>);
`;
const reactOnly = `import { createRoot } from "react-dom/client";
createRoot(document.getElementById("root")).render(<p>Water boils at 100 °C at sea level.</p>);
`;

/** Every file under `dir`, recursively. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Bytes and gzip -9 bytes of the built assets, by kind (js, wasm, css). */
function sizes(dist) {
  const out = {};
  for (const path of files(dist)) {
    const kind = extname(path).slice(1);
    if (!["js", "wasm", "css"].includes(kind)) continue;
    const gzip = execFileSync("gzip", ["-9", "-c", path], { maxBuffer: 1 << 26 }).length;
    out[kind] ??= { raw: 0, gzip: 0 };
    out[kind].raw += readFileSync(path).length;
    out[kind].gzip += gzip;
  }
  return out;
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const chips = sizes(buildReactApp("bench-vite-chips", withChips));
const bare = sizes(buildReactApp("bench-vite-react", reactOnly));
const markdown = sizes(buildReactApp("bench-vite-markdown", markdownOnly));
const chipsInMarkdown = sizes(buildReactApp("bench-vite-markdown-chips", inMarkdown));
const total = (s) => Object.values(s).reduce((n, k) => n + k.gzip, 0);
console.log(`a Vite + React app, production build, gzip -9 (${new Date().toISOString().slice(0, 10)})`);
console.log("| app | JS | wasm | CSS | total |");
console.log("|---|---|---|---|---|");
const apps = [
  ["React alone", bare],
  ["with citeproof chips (<CitedAnswer>, react-markdown and remark-gfm inside)", chips],
  ["React + react-markdown + remark-gfm", markdown],
  ["the same with citeproof/remark chips (README recipe)", chipsInMarkdown],
];
for (const [name, s] of apps) {
  console.log(`| ${name} | ${kb(s.js?.gzip ?? 0)} | ${kb(s.wasm?.gzip ?? 0)} | ${kb(s.css?.gzip ?? 0)} | ${kb(total(s))} |`);
}
console.log(`citeproof adds ${kb(total(chips) - total(bare))} gzip (JS ${kb((chips.js?.gzip ?? 0) - (bare.js?.gzip ?? 0))}, wasm ${kb(chips.wasm?.gzip ?? 0)}, CSS ${kb(chips.css?.gzip ?? 0)})`);
console.log(`in an app that already renders markdown with react-markdown + remark-gfm, the chips add ${kb(total(chipsInMarkdown) - total(markdown))} gzip`);

/** Builds `main` with Vite (react(), wasm()) against the package copied into the app's node_modules. */
function buildInstalledApp(name, main) {
  const dir = join(root, "target", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(pkgDir).filter((f) => !["node", "web", "bin", "README.md"].includes(f))) {
    cpSync(join(pkgDir, file), join(dir, "node_modules", "citeproof", file), { recursive: true });
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "index.html"), `<!doctype html><body><div id="root"></div><script type="module" src="./main.jsx"></script></body>`);
  writeFileSync(join(dir, "main.jsx"), main);
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import react from "@vitejs/plugin-react";\nimport wasm from "vite-plugin-wasm";\nexport default { plugins: [react(), wasm()], build: { target: "esnext" }, logLevel: "warn" };\n`,
  );
  execFileSync(join(root, "node_modules", ".bin", "vite"), ["build"], { cwd: dir, stdio: "pipe" });
  return join(dir, "dist");
}

const render = `import { createRoot } from "react-dom/client";
import { CitedAnswer } from "citeproof/react";
const sources = [{ title: "Boiling", url: "https://example.org/boil", text: "Water boils at 100 °C at sea level." }];
`;
const COMBINATIONS = [
  ["citeproof/react", `${render}createRoot(document.getElementById("root")).render(<CitedAnswer answer="Water boils [1]." sources={sources} />);\n`],
  ["citeproof/react + citeproof/providers", `${render}import { fromVercelAI } from "citeproof/providers";
const input = fromVercelAI({ parts: [{ type: "text", text: "Water boils [1]." }] }, sources);
createRoot(document.getElementById("root")).render(<CitedAnswer answer={input.answer} sources={input.sources} />);\n`],
  ["citeproof/react + citeproof/remark (README recipe)", inMarkdown],
  ["citeproof/react + citeproof/full", `${render}import { validate } from "citeproof/full";
createRoot(document.getElementById("root")).render(<CitedAnswer report={validate({ answer: "Water boils [1].", sources })} sources={sources} />);\n`],
  ["citeproof/react + citeproof/edge", `${render}import { auditRecord } from "citeproof/edge";\nimport { validate } from "citeproof";
const report = validate({ answer: "Water boils [1].", sources });
document.title = auditRecord(report).validation_result.status;
createRoot(document.getElementById("root")).render(<CitedAnswer report={report} sources={sources} />);\n`],
  ["citeproof/edge + citeproof", `import { auditRecord } from "citeproof/edge";\nimport { validate } from "citeproof";
document.body.textContent = JSON.stringify(auditRecord(validate({ answer: "Water boils [1].", sources: [{ title: "t" }] })));\n`],
  ["citeproof/full + citeproof/providers", `import { validate, Metrics } from "citeproof/full";\nimport { fromVercelAI } from "citeproof/providers";
const metrics = new Metrics();
metrics.record(validate(fromVercelAI({ parts: [{ type: "text", text: "Water boils [1]." }] }, [{ title: "t" }])));
document.body.textContent = metrics.render();\n`],
  // The core alone, and streaming: a stream's finish(events) reads a provider's events with
  // the JS adapters, which an app that streams bundles and one that does not, does not.
  ["citeproof (validate)", `import { validate } from "citeproof";
document.body.textContent = validate({ answer: "Water boils [1].", sources: [{ title: "t" }] }).status;\n`],
  ["citeproof (CitationStream)", `import { CitationStream } from "citeproof";
const stream = new CitationStream({ sources: [{ title: "t" }] });
stream.push("Water boils [1].");
document.body.textContent = stream.finish().report.status;\n`],
  ["citeproof/react/hooks (useCitationStream)", `import { createRoot } from "react-dom/client";
import { useCitationStream } from "citeproof/react/hooks";
const response = new Response("Water boils [1].");
function Answer() {
  return <p>{useCitationStream(response, { input: { sources: [{ title: "t" }] } }).text}</p>;
}
createRoot(document.getElementById("root")).render(<Answer />);\n`],
  ["citeproof/patterns", `import { validate } from "citeproof/patterns";
document.body.textContent = JSON.stringify(validate({ answer: "Water boils <<1>>.", sources: [{ title: "t" }] }, { markerPatterns: ["<<(?P<refs>[0-9]+)>>"] }));\n`],
  ["citeproof/react + citeproof/patterns", `${render}import { validate } from "citeproof/patterns";
const report = validate({ answer: "Water boils <<1>>.", sources }, { markerPatterns: ["<<(?P<refs>[0-9]+)>>"] });
createRoot(document.getElementById("root")).render(<CitedAnswer report={report} sources={sources} />);\n`],
];
console.log("");
console.log("wasm modules a Vite app downloads, per combination of entries it imports (gzip -9)");
console.log("| entries imported | wasm modules | wasm | JS |");
console.log("|---|---|---|---|");
for (const [name, main] of COMBINATIONS) {
  const dist = buildInstalledApp(`bench-vite-${name.replace(/\W+/g, "-")}`, main);
  const s = sizes(dist);
  const modules = files(dist).filter((f) => f.endsWith(".wasm")).length;
  console.log(`| ${name} | ${modules} | ${kb(s.wasm?.gzip ?? 0)} | ${kb(s.js?.gzip ?? 0)} |`);
}
