// Compiled with `tsc -p tests/js/types/tsconfig.ai.json`: citeproof/ai's middleware is
// what the AI SDK's own types take. skipLibCheck there: the SDK's declarations need
// @types/node, which is the SDK's business, not this package's (usage.ts checks ours).
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from "ai";
import { citeproofMiddleware } from "citeproof/ai";

declare const model: Exclude<LanguageModel, string>;
const middleware: LanguageModelMiddleware = citeproofMiddleware({ sources: [{ title: "t" }] });
const wrapped = wrapLanguageModel({ model, middleware: [middleware, citeproofMiddleware()] });
void wrapped;
