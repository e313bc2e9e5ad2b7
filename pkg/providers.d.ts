// citeproof/providers: the provider adapters.
export { fromAnthropic, fromAny, fromBedrock, fromCohere, fromGemini, fromOpenAI, fromPerplexity, fromVercelAI } from "./node/citeproof.js";
