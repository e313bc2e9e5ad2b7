// What the chips cost Streamdown per streamed update, in headless Chromium: a Vite +
// React production build renders real answers (ExpertQA) as a `useChat` message that
// grows by `STEP` characters per update, each update committed with `flushSync`, four
// ways in one page:
//   - plain: Streamdown (its default remark and rehype plugins) on the raw text, as an
//     app without citeproof renders it (half markers and all);
//   - released: `useCitedMessage` and Streamdown on the text it released, no chips;
//   - cited: the package README's useChat + Streamdown recipe: `useCitedMessage` feeds
//     the new text into a CitationStream, and Streamdown renders the released text with
//     `useRemarkPlugins` (remarkCiteproof), `rehypeCiteproof` and `CitationChip`;
//   - rebuilt: the same with the plugins array memoised on the segments, a new one per
//     update (the recipe before useRemarkPlugins): Streamdown renders every block again.
// Passes alternate the order of the four; each figure is the median of the passes' mean time
// per update (wall clock, the task the page yields between updates included), and the
// ratios are against plain.
//
//   node benches/streamdown-update.mjs   (needs pkg/bundler: node scripts/build-pkg.mjs bundler)
import { buildReactApp, launchChromium, serveStatic } from "../tests/js/helpers.mjs";
import { dataset, median } from "./common.mjs";

const STEP = 24; // characters per update: a few tokens, as useChat's updates bring them
const ANSWERS = 40;
const PASSES = 5;

const answers = dataset("answers-val.jsonl")
  .slice(0, ANSWERS)
  .map(({ answer, sources }) => ({ answer, sources }));

const app = `import { useMemo } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Streamdown, defaultRehypePlugins, defaultRemarkPlugins } from "streamdown";
import remarkCiteproof, { rehypeCiteproof } from "citeproof/remark";
import { CitationChip, useCitedMessage, useRemarkPlugins } from "citeproof/react";
import "citeproof/react.css";
const answers = ${JSON.stringify(answers)};

const remarkDefaults = Object.values(defaultRemarkPlugins);
const rehypeDefaults = Object.values(defaultRehypePlugins);
const rehypePlugins = [...rehypeDefaults, rehypeCiteproof];
const components = { sup: CitationChip };

function Plain({ message, status }) {
  return <Streamdown remarkPlugins={remarkDefaults} rehypePlugins={rehypeDefaults} isAnimating={status === "streaming"}>{message.parts[0].text}</Streamdown>;
}

// The package README's recipe (useChat + Streamdown), sources given as the route's would be.
function Cited({ message, status, sources }) {
  const cited = useCitedMessage(message, { sources, done: status === "ready" });
  const remarkPlugins = useRemarkPlugins(cited, remarkDefaults);
  return (
    <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={status === "streaming"}>
      {cited.text}
    </Streamdown>
  );
}

// The recipe before useRemarkPlugins: the plugins memoised on the segments, so a new
// array per update, and Streamdown renders every block again.
function Rebuilt({ message, status, sources }) {
  const cited = useCitedMessage(message, { sources, done: status === "ready" });
  const remarkPlugins = useMemo(
    () => [...remarkDefaults, [remarkCiteproof, { report: { segments: cited.segments }, sources: cited.sources }]],
    [cited.segments, cited.sources],
  );
  return (
    <Streamdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} isAnimating={status === "streaming"}>
      {cited.text}
    </Streamdown>
  );
}

// The hook alone: Streamdown on the text citeproof released, without the chips' plugins
// (what the recipe costs besides the plugins).
function Released({ message, status, sources }) {
  const cited = useCitedMessage(message, { sources, done: status === "ready" });
  return <Streamdown remarkPlugins={remarkDefaults} rehypePlugins={rehypeDefaults} isAnimating={status === "streaming"}>{cited.text}</Streamdown>;
}

const root = createRoot(document.getElementById("root"));

// Between updates the page yields a task (a MessageChannel message, not clamped like
// setTimeout), as a browser does between network chunks: the hook's effect and the render
// its state update causes run there, and React does not count the updates as nested.
const channel = new MessageChannel();
const yieldTask = () => new Promise((resolve) => {
  channel.port1.onmessage = resolve;
  channel.port2.postMessage(null);
});

/** Streams every answer through \`View\`; returns [updates, milliseconds, chips shown at the ends]. */
async function run(View) {
  let updates = 0;
  let chips = 0;
  const start = performance.now();
  for (const [n, { answer, sources }] of answers.entries()) {
    const id = View.name + n;
    for (let end = ${STEP}; ; end += ${STEP}) {
      const done = end >= answer.length;
      const message = { id, role: "assistant", parts: [{ type: "text", text: answer.slice(0, end) }] };
      flushSync(() => root.render(<View key={id} message={message} status={done ? "ready" : "streaming"} sources={sources} />));
      await yieldTask();
      updates++;
      if (done) break;
    }
    chips += document.querySelectorAll(".citeproof-chip").length;
  }
  return [updates, performance.now() - start, chips];
}

const passes = { plain: [], released: [], cited: [], rebuilt: [] };
let chips = {};
const views = [["plain", Plain], ["released", Released], ["cited", Cited], ["rebuilt", Rebuilt]];
for (let pass = 0; pass < ${PASSES}; pass++) {
  for (const [name, View] of pass % 2 ? [...views].reverse() : views) {
    const [updates, ms, shown] = await run(View);
    passes[name].push(ms / updates);
    chips[name] = shown;
    passes.updates = updates;
  }
}
document.body.dataset.result = JSON.stringify({ passes, chips });
`;

const dist = buildReactApp("bench-streamdown", app);

const browser = await launchChromium();
const server = await serveStatic(dist);
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => document.body?.dataset.result !== undefined, null, { timeout: 300_000 }).catch(() => {
    throw new Error(`no result; page errors: ${errors.join("; ")}`);
  });
  const { passes, chips } = JSON.parse(await page.evaluate(() => document.body.dataset.result));
  const plain = median(passes.plain);
  const cited = median(passes.cited);
  console.log(`Streamdown per streamed update, headless Chromium, ${ANSWERS} ExpertQA answers, ${STEP} characters per update, ${passes.updates} updates per pass, median of ${PASSES} passes (${new Date().toISOString().slice(0, 10)})`);
  console.log(`| render | ms per update | ratio |`);
  console.log(`|---|---|---|`);
  console.log(`| Streamdown on the raw text | ${plain.toFixed(2)} | 1.00 |`);
  const released = median(passes.released);
  console.log(`| useCitedMessage, Streamdown on the released text, no chips | ${released.toFixed(2)} | ${(released / plain).toFixed(2)} |`);
  console.log(`| the README recipe: useCitedMessage + useRemarkPlugins + rehypeCiteproof + CitationChip | ${cited.toFixed(2)} | ${(cited / plain).toFixed(2)} |`);
  const rebuilt = median(passes.rebuilt);
  console.log(`| the recipe with its plugins rebuilt per update (before useRemarkPlugins) | ${rebuilt.toFixed(2)} | ${(rebuilt / plain).toFixed(2)} |`);
  console.log(`chips on screen at the answers' ends: ${chips.cited} (rebuilt: ${chips.rebuilt}, plain: ${chips.plain})`);
} finally {
  await server.close();
  await browser.close();
}
