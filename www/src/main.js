// The citeproof demo: pick or paste an answer and its sources, see the chips, the
// findings, the cleaned answer and the gate, or replay the answer as a token stream.
import { createElement as h, StrictMode, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { validate } from "citeproof";
import { CitedAnswer, useCitationStream } from "citeproof/react";
import "citeproof/react.css";
import "./app.css";
import data from "./examples.json";

const examples = data.examples;

/** Replays `text` like a model: small random pieces at about 40 tokens a second. */
async function* replay(text, { delayMs = 25 } = {}) {
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(Math.random() * 7);
    yield text.slice(at, at + size);
    at += size;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

function parseSources(text) {
  try {
    const sources = JSON.parse(text);
    if (!Array.isArray(sources)) throw new Error("sources must be a JSON array");
    return { sources };
  } catch (error) {
    return { error: Object.assign(error, { code: error.code ?? "invalid_json" }) };
  }
}

function Gate({ report }) {
  return h(
    "div",
    { className: `gate gate--${report.status}`, "data-testid": "gate", "data-status": report.status },
    h("strong", null, report.status.toUpperCase()),
    h("span", null, ` confidence ${report.confidence.toFixed(2)}`),
    report.uncertain && h("span", { className: "gate__note" }, ` · ${report.uncertaintyNote}`),
  );
}

function Findings({ findings }) {
  if (!findings.length) return h("p", { className: "muted", "data-testid": "findings" }, "No findings.");
  return h(
    "ul",
    { className: "findings", "data-testid": "findings" },
    findings.map((f, i) =>
      h("li", { key: i, className: `finding finding--${f.severity}` }, h("code", null, f.code), " ", f.message),
    ),
  );
}

function Summary({ summary }) {
  const rows = [
    ["citations", `${summary.valid} valid / ${summary.total}`],
    ["hallucinated", summary.hallucinations],
    ["claims covered", `${Math.round(summary.citationCoverage * 100)} %`],
  ];
  return h("dl", { className: "summary" }, rows.flatMap(([k, v]) => [h("dt", { key: `${k}t` }, k), h("dd", { key: `${k}d` }, String(v))]));
}

function Report({ report, sources, answerTestId = "answer" }) {
  return h(
    "section",
    { className: "report" },
    h(Gate, { report }),
    h("h2", null, "Answer with citations"),
    h("div", { "data-testid": answerTestId }, h(CitedAnswer, { report, sources })),
    h(Summary, { summary: report.summary }),
    h("h2", null, "Findings"),
    h(Findings, { findings: report.findings }),
    h("h2", null, "Cleaned answer"),
    h("pre", { className: "cleaned", "data-testid": "cleaned" }, report.cleanedAnswer),
  );
}

function StreamView({ source, sources, options }) {
  const stream = useCitationStream(source, { input: { sources }, options });
  if (stream.error) return h("p", { className: "error", "data-testid": "error" }, `${stream.error.code ?? "error"}: ${stream.error.message}`);
  return h(
    "section",
    { className: "report" },
    h("p", { className: "muted", "data-testid": "stream-state", "data-state": stream.done ? "done" : "streaming" }, stream.done ? "Stream finished: the report below is final." : "Streaming… chips appear as soon as a marker is complete."),
    stream.report && h(Gate, { report: stream.report }),
    h("div", { "data-testid": "stream-answer" }, h(CitedAnswer, { segments: stream.segments, sources })),
    stream.report && h(Findings, { findings: stream.report.findings }),
  );
}

function App() {
  const [exampleId, setExampleId] = useState(examples[0].id);
  const example = examples.find((e) => e.id === exampleId) ?? examples[0];
  const [answer, setAnswer] = useState(example.answer);
  const [sourcesText, setSourcesText] = useState(JSON.stringify(example.sources, null, 2));
  const [policy, setPolicy] = useState("clean");
  const [renumber, setRenumber] = useState(false);
  const [support, setSupport] = useState(false);
  // The demo shows `misattributed` (opt-in in the library, docs/support.md) unless unticked.
  const [misattribution, setMisattribution] = useState(true);
  const [streamSource, setStreamSource] = useState(null);

  const choose = (id) => {
    const next = examples.find((e) => e.id === id);
    setExampleId(id);
    setAnswer(next.answer);
    setSourcesText(JSON.stringify(next.sources, null, 2));
    setStreamSource(null);
  };
  const options = useMemo(
    () => ({ policy, renumber, supportThreshold: support ? 0.5 : undefined, misattributionMargin: misattribution ? 0.3 : false }),
    [policy, renumber, support, misattribution],
  );
  const parsed = useMemo(() => parseSources(sourcesText), [sourcesText]);
  const result = useMemo(() => {
    if (parsed.error) return { error: parsed.error };
    try {
      return { report: validate({ answer, sources: parsed.sources }, options) };
    } catch (error) {
      return { error };
    }
  }, [answer, parsed, options]);

  return h(
    "main",
    { className: "layout" },
    h(
      "header",
      null,
      h("h1", null, "citeproof"),
      h("p", null, "Checks the citations in an LLM answer against the sources retrieved for it, in the browser (Rust → WebAssembly)."),
    ),
    h(
      "section",
      { className: "inputs" },
      h(
        "label",
        null,
        "Example ",
        h(
          "select",
          { value: exampleId, onChange: (e) => choose(e.target.value), "data-testid": "example" },
          examples.map((e) => h("option", { key: e.id, value: e.id }, e.name)),
        ),
      ),
      h("label", { className: "stack" }, "Answer", h("textarea", { rows: 10, value: answer, onChange: (e) => setAnswer(e.target.value), "data-testid": "answer-input" })),
      h("label", { className: "stack" }, "Sources (JSON)", h("textarea", { rows: 10, value: sourcesText, onChange: (e) => setSourcesText(e.target.value), "data-testid": "sources-input" })),
      h(
        "div",
        { className: "options" },
        h(
          "label",
          null,
          "Policy ",
          h("select", { value: policy, onChange: (e) => setPolicy(e.target.value) }, ["clean", "flag", "strict"].map((p) => h("option", { key: p, value: p }, p))),
        ),
        h("label", null, h("input", { type: "checkbox", checked: renumber, onChange: (e) => setRenumber(e.target.checked) }), " renumber"),
        h("label", null, h("input", { type: "checkbox", checked: misattribution, onChange: (e) => setMisattribution(e.target.checked) }), " misattributed claims"),
        h("label", null, h("input", { type: "checkbox", checked: support, onChange: (e) => setSupport(e.target.checked) }), " unsupported and uncited claims"),
        h(
          "button",
          { type: "button", "data-testid": "stream", disabled: Boolean(parsed.error), onClick: () => setStreamSource(replay(answer)) },
          "Stream it",
        ),
        streamSource && h("button", { type: "button", onClick: () => setStreamSource(null) }, "Back to the full report"),
      ),
      h("p", { className: "muted small" }, data.attribution),
    ),
    streamSource
      ? h(StreamView, { source: streamSource, sources: parsed.sources ?? [], options })
      : result.error
        ? h("p", { className: "error", "data-testid": "error" }, `${result.error.code ?? "error"}: ${result.error.message}`)
        : h(Report, { report: result.report, sources: parsed.sources }),
  );
}

createRoot(document.getElementById("app")).render(h(StrictMode, null, h(App)));
