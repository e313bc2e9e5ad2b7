// Compiled with `tsc --noEmit -p tests/js/types`: the generated declarations must type
import { citeproofMiddleware } from "citeproof/ai";
// real usage, and reject wrong usage (each @ts-expect-error fails the build if unneeded).
import { CitationParser, parseCitations, validate, validateAsync } from "citeproof";
import { fromAny, fromGemini } from "citeproof/providers";
import { Metrics, auditRecord } from "citeproof/edge";
import * as full from "citeproof/full";
import * as withPatterns from "citeproof/patterns";
import type { Chip, Input } from "citeproof";
import type { AuditCitationStatus, AuditStatus, CiteproofError, Marker, MarkerKind, ParseOptions, Report, ValidateOptions } from "citeproof";
import init, { parseCitations as parseWeb } from "citeproof/web";

const answer = "Paris [1] 😀 [2, 3]";
const markers: Marker[] = parseCitations(answer);
const first: Marker | undefined = markers[0];
if (first) {
  const raw: string = answer.slice(first.span.start, first.span.end);
  const kind: MarkerKind = first.kind;
  const refs: number[] | string[] = first.refs;
  console.log(raw, kind, refs, first.chapter?.toUpperCase(), first.section?.toFixed(0));
}

const options: ParseOptions = { offsets: "codepoint", markerPatterns: ["<(?P<refs>\\d+)>"], sourceIds: ["a"] };
parseCitations(answer, options);
parseCitations(answer, { sources: [{ id: "abc" }] });
const parser = new CitationParser(options);
parser.parse(answer).map((m) => m.raw);
parser.free();

try {
  parseCitations(answer, { offsets: "utf8" });
} catch (e) {
  const code: CiteproofError["code"] = (e as CiteproofError).code;
  console.log(code === "invalid_option");
}

async function web(): Promise<Marker[]> {
  await init();
  return parseWeb(answer);
}
void web;

const report: Report = validate({ answer: "Claim [1].", sources: [{ text: "t" }] }, { policy: "flag", supportThreshold: 0.5 });
const status: "pass" | "warn" | "fail" = report.status;
const later: Promise<Report> = validateAsync({ answer: "Claim [1]." }, { embed: async (texts) => texts.map(() => new Float32Array(3)) });
const judged: Promise<Report> = validateAsync({ answer: "Claim [1]." }, { judge: async (pairs) => pairs.map((p) => (p.passage.includes(p.claim) ? 1 : p.sourceIndex / 10)) });
// validateAsync needs a model: embed, judge or both; without one it throws invalid_option.
const both: Promise<Report> = validateAsync({ answer: "Claim [1]." }, { embed: (texts) => texts.map(() => [1]), judge: (pairs) => pairs.map(() => 1), policy: "flag" });
// @ts-expect-error neither embed nor judge
validateAsync({ answer: "Claim [1]." }, {});
// @ts-expect-error validate's options alone name no model
validateAsync({ answer: "Claim [1]." }, { policy: "flag", supportThreshold: 0.5 });
// @ts-expect-error an undefined embed is no model
validateAsync({ answer: "Claim [1]." }, { embed: undefined });
void status;
void later;
void judged;
void both;
// @ts-expect-error policy is a closed set
validate({ answer: "x" }, { policy: "nuke" });

// @ts-expect-error offsets is a closed set
parseCitations(answer, { offsets: "bytes" });
// @ts-expect-error text must be a string
parseCitations(42);
// @ts-expect-error kind is a closed set
const wrong: MarkerKind = "bracket";
void wrong;

// Streaming: CitationStream, citeproofTransform, rendering and the React entry.
import { CitationStream, citeproofTransform, citationTree, renderHtml } from "citeproof";
import type { Block, CiteEvent, ReviseEvent, StreamChunk, StreamEnd, StreamHeld } from "citeproof";
import { CitedAnswer, CitationChip, useCardPlacement, useChip, useCitationStream, useCitations } from "citeproof/react";
import type { CitationStreamState } from "citeproof/react";
// citeproof/react/hooks: the same hooks and chip, without <CitedAnswer>.
import * as hooks from "citeproof/react/hooks";
const sameHooks: [typeof useCitations, typeof CitationChip] = [hooks.useCitations, hooks.CitationChip];
void sameHooks;
// @ts-expect-error <CitedAnswer> needs react-markdown: it is citeproof/react's alone.
void hooks.CitedAnswer;

const stream = new CitationStream({ sources: [{ title: "t", url: "https://t.test" }] }, { policy: "clean" });
const chunk: StreamChunk = stream.push("Fact [1");
for (const event of chunk.events) {
  if (event.type === "cite") {
    const cite: CiteEvent = event;
    console.log(cite.span.start, cite.segment.valid, cite.answerSpan.end);
  } else if (event.type === "finding") {
    console.log(event.code, event.severity);
  } else {
    const revise: ReviseEvent = event;
    console.log(revise.span.start, revise.text.length, revise.answerStart);
  }
}
const held: StreamHeld = stream.held;
console.log(held.releasedThrough, held.undecidedFrom ?? -1, stream.revisable);
const end: StreamEnd = stream.finish();
console.log(end.text, end.report.status, stream.released, end.revise?.text);
// @ts-expect-error push takes a string
stream.push(42);
// A provider stream's events, or the Input an adapter made of them, declare citations.
const events: unknown[] = [{ type: "message_start" }];
new CitationStream({ sources: [] }).finish(events);
new CitationStream({ sources: [] }).finish(fromAny(events));
// @ts-expect-error neither events nor an Input
new CitationStream({ sources: [] }).finish("events");

const transform = citeproofTransform({ sources: [] }, { format: "openai" });
transform.report.then((r: Report) => r.cleanedAnswer);
new Response("x").body?.pipeThrough(transform);
// @ts-expect-error not a format
citeproofTransform({ sources: [] }, { format: "xml" });
// Streams refuse markerPatterns (invalid_option); validate's other options are theirs.
const shared = { policy: "flag", supportThreshold: 0.5 } as const;
new CitationStream({ sources: [] }, shared).free();
citeproofTransform({ sources: [] }, { ...shared, format: "text" });
// @ts-expect-error streams refuse markerPatterns
new CitationStream({ sources: [] }, { markerPatterns: ["<(?P<refs>\\d+)>"] });
// @ts-expect-error the transform's stream refuses markerPatterns
citeproofTransform({ sources: [] }, { markerPatterns: ["<(?P<refs>\\d+)>"] });
// Options typed as validate's still go to a stream (an object literal with markerPatterns
// is refused above; options that hold them at runtime throw invalid_option).
const typedOptions: ValidateOptions = { policy: "flag" };
new CitationStream({ sources: [] }, typedOptions).free();

const html: string = renderHtml(end.report, { sources: [{ title: "t" }] });
const tree: Block[] = citationTree({ segments: end.report.segments });
// The options are optional, as the guide says ("needs nothing").
const bare: string = renderHtml(end.report);
console.log(html.length, tree.length, bare.length);

function Answer(): ReturnType<typeof CitedAnswer> {
  const state: CitationStreamState = useCitationStream(new Response("Fact [1]."), { input: { sources: [] } });
  // @ts-expect-error the hook's transform refuses markerPatterns
  useCitationStream(new Response("Fact <1>."), { options: { markerPatterns: ["<(?P<refs>\\d+)>"] } });
  // @ts-expect-error the hook's CitationStream refuses markerPatterns
  hooks.useCitedMessage(null, { options: { markerPatterns: ["<(?P<refs>\\d+)>"] } });
  return CitedAnswer({ segments: state.segments, sources: [] });
}
console.log(Answer, CitationChip);

const adapted: Input = fromGemini({ candidates: [] }, [{ url: "https://a.example/" }], { offsets: "codepoint" });
const detected: Input = fromAny({ choices: [] });
const provider: string | undefined = detected.provider;
const spanStart: number | undefined = adapted.citations?.map((c) => (typeof c === "number" ? 0 : c.span?.start ?? 0))[0];
// @ts-expect-error: the offsets option takes a unit name
fromGemini({}, undefined, { offsets: "bytes" });
void provider;
void spanStart;

// citeproof/ai (that the AI SDK takes it is checked in ai-usage.ts).
const middleware = citeproofMiddleware({
  sources: [{ title: "t", text: "x" }],
  options: { policy: "strict" },
  onReport: (report: Report) => report.status,
});
// @ts-expect-error renumber is refused by the middleware
citeproofMiddleware({ options: { renumber: true } });
// markerPatterns work for generateText (a streamed answer refuses them at runtime).
citeproofMiddleware({ options: { markerPatterns: ["<(?P<refs>\\d+)>"] } });
void middleware;

// The headless chip kit.
function MyChip({ chip }: { chip: Chip }) {
  const { open, rootProps, buttonProps, cardProps } = useChip(chip);
  return { open, rootProps, buttonProps, cardProps };
}
function Listing() {
  const { blocks, chips, sources } = useCitations({ segments: [] }, { sources: [] });
  return CitedAnswer({ segments: [], components: { SourceList: () => null }, sourceList: blocks.length + chips.length + sources.length > 0 });
}
void MyChip;
void Listing;
void useCardPlacement;

// The subpaths carry the same functions as the module with everything.
const sameAdapter: typeof full.fromAny = fromAny;
const metrics = new Metrics();
metrics.record(validate({ answer: "x [1]", sources: [{}] }));
// After a repair, the first answer's report: a report or nothing, typed as one.
const firstReport = validate({ answer: "x [2]", sources: [{}] });
metrics.record(validate({ answer: "x [1]", sources: [{}] }), firstReport);
metrics.record(firstReport, null);
// @ts-expect-error repairedFrom is a report
metrics.record(firstReport, "first answer");
const sameAudit: typeof full.auditRecord = auditRecord;
void [sameAdapter, sameAudit, metrics];
// Spec 001's names in the audit record are closed sets (generated from the wire contract).
const record = auditRecord(validate({ answer: "x [1]", sources: [{}] }), {});
const gate: AuditStatus = record.validation_result.status;
const validity: AuditCitationStatus | undefined = record.citations[0]?.validation_status;
console.log(gate === "REVIEW", validity === "INVALID");
// @ts-expect-error "WARN" is not one of spec 001's status names
console.log(record.validation_result.status === "WARN");
// The context and options of the helpers around validation are optional, as at runtime.
import { citationSchema, formatContext, locateQuote, rejectionResponse, repairPrompt } from "citeproof/full";
const checked = validate({ answer: "x [1]", sources: [{}] });
const bareAudit: string = auditRecord(checked).audit_id;
const schema: Record<string, unknown> = citationSchema();
const context: string = formatContext([{ text: "t" }]);
const located: string = locateQuote("t", "t").match;
const rejected: string = rejectionResponse(checked).audit_id;
const repair: string = repairPrompt(checked);
console.log(bareAudit, schema, context, located, rejected, repair, auditRecord(checked, null), locateQuote("t", "t", null));
// @ts-expect-error the offsets option of locateQuote takes a unit name
locateQuote("t", "t", { offsets: "bytes" });
// @ts-expect-error citationSchema's style is a closed set
citationSchema({ style: "xml" });

// citeproof/remark in react-markdown and Streamdown, with CitationChip as their `sup`
// component (strict: the chip's props fit react-markdown's `components`).
import Markdown from "react-markdown";
import type { Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { Streamdown, defaultRehypePlugins } from "streamdown";
import { createElement } from "react";
import remarkCiteproof, { chipOf, rehypeCiteproof } from "citeproof/remark";
import type { RemarkCiteproofOptions } from "citeproof/remark";
import type { Chip as ReactChip, CitationChipProps } from "citeproof/react";

const settings: RemarkCiteproofOptions = { report: end.report, sources: [{ title: "t" }] };
const components: Components = { sup: CitationChip };
const markdown = createElement(Markdown, { remarkPlugins: [remarkGfm, [remarkCiteproof, settings]], components }, end.report.cleanedAnswer);
const streamed = createElement(Streamdown, {
  mode: "static",
  remarkPlugins: [remarkGfm, [remarkCiteproof, { report: { segments: end.report.segments } }]],
  rehypePlugins: [...Object.values(defaultRehypePlugins), rehypeCiteproof],
  components: { sup: CitationChip },
  children: end.report.cleanedAnswer,
});
const carried: ReactChip | null = chipOf(null);
const invalidReason: string | null | undefined = carried?.reason;
const chipProps: CitationChipProps = { chip: carried, className: "mine" };
// @ts-expect-error the settings need a report or sources of the right shape
remarkCiteproof({ report: 3 });
// @ts-expect-error neither a report nor sources: it throws invalid_option
remarkCiteproof({});
// @ts-expect-error options alone are neither a report nor sources
remarkCiteproof({ options: { policy: "clean" } });
// @ts-expect-error a null report, and no sources
remarkCiteproof({ report: null });
remarkCiteproof({ report: null, sources: [], options: { policy: "clean" } });
remarkCiteproof({ report: { segments: [] } });
import { renderHtml as renderGfm } from "citeproof/markdown";
const gfmHtml: string = renderGfm({ segments: end.report.segments }, { sources: [{ title: "t" }] });
console.log(markdown, streamed, invalidReason, chipProps, gfmHtml);

// citeproof/patterns in a browser: the core's declarations, markerPatterns run by re2js.
const patterned: Report = withPatterns.validate({ answer: "Fact <<1>>.", sources: [{ text: "Fact." }] }, { markerPatterns: ["<<(?P<refs>\\d+)>>"] });
void patterned;
