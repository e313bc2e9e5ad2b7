// citeproof/providers: the provider adapters.
export { fromAnthropic, fromAny, fromCohere, fromGemini, fromOpenAI, fromPerplexity, fromVercelAI } from "./node/citeproof.js";
