// Compiled with `tsc -p tests/js/types/tsconfig.ai.json`: citeproof/ai's middleware is
// what the AI SDK's own types take. skipLibCheck there: the SDK's declarations need
// @types/node, which is the SDK's business, not this package's (usage.ts checks ours).
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from "ai";
import { citeproofMiddleware } from "citeproof/ai";

declare const model: Exclude<LanguageModel, string>;
const middleware: LanguageModelMiddleware = citeproofMiddleware({ sources: [{ title: "t" }] });
const wrapped = wrapLanguageModel({ model, middleware: [middleware, citeproofMiddleware()] });
void wrapped;

// The UI message transform goes between the SDK's own stream and response types, and
// getReport reads the report, typed, with no cast under strict.
import { createUIMessageStreamResponse, generateText, streamText, type UIMessage, type UIMessageChunk } from "ai";
import { citeproofUIMessageTransform, getReport, type CitationsData } from "citeproof/ai";
import type { Report } from "citeproof";

const result = streamText({ model: wrapped, prompt: "q" });
const response: Response = createUIMessageStreamResponse({
  stream: result.toUIMessageStream().pipeThrough(citeproofUIMessageTransform({ sources: [{ title: "t", text: "x" }] })),
});
void response;
const typedStream: ReadableStream<UIMessageChunk> = result.toUIMessageStream().pipeThrough(citeproofUIMessageTransform<UIMessageChunk>());
// No config, undefined or null, is {}; a config is an object.
citeproofMiddleware(null);
citeproofUIMessageTransform<UIMessageChunk>(null);
// @ts-expect-error a config is an object
citeproofMiddleware(5);
// @ts-expect-error the transform's streams refuse markerPatterns
citeproofUIMessageTransform({ options: { markerPatterns: ["<(?P<refs>\\d+)>"] } });
void typedStream;
async function reports(message: UIMessage<unknown, { citations: CitationsData }>): Promise<(Report | undefined)[]> {
  const generated = await generateText({ model: wrapped, prompt: "q" });
  const fromGenerate: Report | undefined = getReport(generated);
  const fromStream: Report | undefined = await getReport(result);
  const fromMessage: Report | undefined = getReport(message);
  return [fromGenerate, fromStream, fromMessage, fromGenerate?.status === "pass" ? fromGenerate : undefined];
}
void reports;

// useCitedMessage takes useChat's messages as the SDK types them, and what it gives goes
// into Streamdown as the README's useChat recipe passes it (chips in place, strict: its
// props and CitationChip as its `sup`; a plugin tuple's options unified leaves unchecked).
import { CitationChip, useCitedMessage, useRemarkPlugins, type CitedMessageState } from "citeproof/react";
import remarkCiteproof, { rehypeCiteproof } from "citeproof/remark";
import { Streamdown, defaultRehypePlugins, defaultRemarkPlugins } from "streamdown";
import { createElement } from "react";
function answerOf(message: UIMessage): CitedMessageState {
  return useCitedMessage(message, { done: true });
}
function streamdownOf(message: UIMessage) {
  const cited = useCitedMessage(message, { done: false });
  return createElement(Streamdown, {
    remarkPlugins: [...Object.values(defaultRemarkPlugins), [remarkCiteproof, { report: { segments: cited.segments }, sources: cited.sources }]],
    rehypePlugins: [...Object.values(defaultRehypePlugins), rehypeCiteproof],
    components: { sup: CitationChip },
    isAnimating: true,
    children: cited.text,
  });
}
// The recipe's plugins through useRemarkPlugins: what it returns is Streamdown's remarkPlugins.
function memoisedOf(message: UIMessage) {
  const cited = useCitedMessage(message, { done: false });
  return createElement(Streamdown, {
    remarkPlugins: useRemarkPlugins(cited, Object.values(defaultRemarkPlugins)),
    rehypePlugins: [...Object.values(defaultRehypePlugins), rehypeCiteproof],
    components: { sup: CitationChip },
    isAnimating: true,
    children: cited.text,
  });
}
void [answerOf, streamdownOf, memoisedOf];
