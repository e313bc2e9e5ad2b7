// citeproof/providers: the provider adapters (docs/architecture.md §9). In Node, workerd
// and Deno they come from the module `citeproof` itself; in a browser from the full
// module (`citeproof/full`), which an app downloads only when it imports this entry.
export { fromAnthropic, fromAny, fromBedrock, fromCohere, fromGemini, fromOpenAI, fromPerplexity, fromVercelAI } from "citeproof/full";
