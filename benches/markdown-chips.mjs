// What placing chips in a markdown renderer costs, per real answer (ExpertQA, 153), all
// in one process: remark-gfm's HTML of the cleaned answer (remark-parse, remark-gfm,
// remark-rehype, rehype-stringify) without and with citeproof/remark, react-markdown +
// remark-gfm rendered to static markup without chips, <CitedAnswer> (the same stack with
// chips and the sources list), citeproof/markdown's renderHtml, and the core's
// hand-written renderHtml for scale. Each timing is
// the median of 7 passes over all answers; reports are made beforehand (not timed).
//
//   node benches/markdown-chips.mjs     (needs pkg/node: node scripts/build-pkg.mjs node)
import { join } from "node:path";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkRehype from "remark-rehype";
import rehypeStringify from "rehype-stringify";
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import Markdown from "react-markdown";
import { citeproof, dataset, median, root } from "./common.mjs";

const { validate, renderHtml } = citeproof();
const { default: remarkCiteproof } = await import(join(root, "pkg", "remark.js"));
const { CitedAnswer } = await import(join(root, "pkg", "react.js"));
const { renderHtml: renderGfm } = await import(join(root, "pkg", "markdown.js"));

const cases = dataset("answers-val.jsonl").map(({ answer, sources }) => ({
  report: validate({ answer, sources }, { policy: "flag" }),
  sources,
}));
const bytes = cases.reduce((n, c) => n + c.report.cleanedAnswer.length, 0);

const plain = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeStringify).freeze();
const runs = {
  "remark-gfm HTML, no chips": ({ report }) => String(plain.processSync(report.cleanedAnswer)),
  "remark-gfm HTML + citeproof/remark chips": ({ report, sources }) =>
    String(
      unified()
        .use(remarkParse)
        .use(remarkGfm)
        .use(remarkCiteproof, { report, sources })
        .use(remarkRehype)
        .use(rehypeStringify)
        .processSync(report.cleanedAnswer),
    ),
  "react-markdown + remark-gfm, static markup, no chips": ({ report }) =>
    renderToStaticMarkup(h(Markdown, { remarkPlugins: [remarkGfm] }, report.cleanedAnswer)),
  "<CitedAnswer>, static markup": ({ report, sources }) => renderToStaticMarkup(h(CitedAnswer, { report, sources })),
  "citeproof/markdown renderHtml (GFM, chips drawn)": ({ report, sources }) => renderGfm(report, { sources }),
  "core renderHtml (hand-written subset)": ({ report, sources }) => renderHtml(report, { sources }),
};

const times = {};
for (const [name, run] of Object.entries(runs)) {
  for (const c of cases) run(c); // warm up
  const samples = [];
  for (let pass = 0; pass < 7; pass++) {
    const start = process.hrtime.bigint();
    for (const c of cases) run(c);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6 / cases.length);
  }
  times[name] = median(samples);
}
const base = times["remark-gfm HTML, no chips"];
console.log(`${cases.length} answers, ${(bytes / cases.length / 1000).toFixed(1)} KB each on average (${new Date().toISOString().slice(0, 10)})`);
console.log("| renderer | ms per answer | × remark-gfm alone |");
console.log("|---|---|---|");
for (const [name, ms] of Object.entries(times)) console.log(`| ${name} | ${ms.toFixed(2)} | ${(ms / base).toFixed(2)} |`);
