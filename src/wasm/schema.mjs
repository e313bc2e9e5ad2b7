// The report's types as they cross the JS boundary, declared once. `node
// scripts/gen-schema.mjs` writes from this:
// - src/wasm/report_fields.rs: the Rust side, which writes each field onto the tape;
// - the readers block of src/wasm/report.js: the JS side, reading each field back;
// - the interfaces of src/wasm/types.d.ts.
// The generated files are checked in; `node scripts/gen-schema.mjs --check` (run by the
// JS tests) fails when they drift from this file.
//
// A type is `{ rust, doc?, fields }`; a field is `[jsName, kind, options?]`:
// - kinds: "string", "count" (a whole number), "float" (NaN and ±Infinity read as null),
//   "flag" (a boolean), "span", a type declared here, or a reader written by hand in
//   src/wasm/report.js and src/wasm/report_out.rs ("marker", "segment");
// - { option: kind }: absent when the Rust value is None; { nullable: kind }: null then;
//   { list: kind }: an array.
// options: `rust` (the Rust expression for the value, `v` being the struct; default
// `v.<snake_case name>`, borrowed as the kind needs), `ts` (the TypeScript type, when
// the kind's own is too wide), `doc` (the field's doc comment in types.d.ts).
// Adding a field to the report: the model's struct, one line here, and the code that
// computes it.

export const root = "Report";

export const types = {
  Report: {
    rust: "Report<'_>",
    doc: "The result of `validate` (docs/architecture.md §6).",
    fields: [
      ["status", "string", { rust: "v.status.name()", ts: '"pass" | "warn" | "fail"' }],
      ["confidence", "float"],
      ["uncertain", "flag"],
      ["uncertaintyNote", { option: "string" }, { rust: "v.uncertainty_note" }],
      ["cleanedAnswer", "string"],
      ["markers", { list: "marker" }, { ts: "Marker[]" }],
      ["citations", { list: "CitationResult" }],
      ["findings", { list: "Finding" }],
      ["summary", "Summary"],
      ["segments", { list: "segment" }, { ts: "Segment[]" }],
      ["timingMs", "float"],
    ],
  },
  CitationResult: {
    rust: "CitationResult",
    fields: [
      ["label", "string"],
      ["sourceIndex", { option: "count" }, { rust: "v.source_index.map(|label| label as usize)" }],
      ["sourceId", { option: "string" }],
      ["marker", { option: "count" }, { doc: "Index into `report.markers`." }],
      ["span", { option: "span" }],
      ["declared", { option: "count" }, { doc: "Index into `input.citations`." }],
      ["valid", "flag"],
      ["errors", { list: "Finding" }],
      ["warnings", { list: "Finding" }],
      ["qualityScore", "float"],
      ["quote", { option: "QuoteLocation" }],
      ["quoteText", { option: "string" }, { doc: "The quote as the citation states it (a provider's `cited_text`, a declared `quote`)." }],
      ["support", { option: "float" }, { doc: "Claim-support score in 0–1, when scored (by default whenever the source has text)." }],
      ["claim", { option: "span" }, { doc: "The claim (sentence) the citation belongs to, in the answer." }],
      [
        "evidence",
        { option: "Evidence" },
        { doc: "The cited source's sentence that best supports the claim, with its span in the source's `text`: what a citation card shows when no quote was declared." },
      ],
    ],
  },
  QuoteLocation: {
    rust: "QuoteLocation",
    fields: [
      ["span", { option: "span" }, { doc: "In the cited source's `text`." }],
      ["distance", { option: "count" }],
      [
        "match",
        "string",
        {
          rust: "v.kind.name()",
          ts: '"exact" | "normalized" | "approximate" | "none" | "unverified"',
          doc: "`unverified`: the cited source has no text to look for the quote in (no finding).",
        },
      ],
    ],
  },
  Evidence: {
    rust: "Evidence",
    doc: "A sentence of a source and where it sits in the source's `text`.",
    fields: [
      ["span", "span"],
      ["text", "string"],
    ],
  },
  Finding: {
    rust: "Finding",
    fields: [
      ["code", "string", { rust: "v.code.name()", ts: "FindingCode" }],
      ["severity", "string", { rust: "v.severity_name()", ts: '"error" | "warning"' }],
      ["message", "string"],
      ["citation", { option: "count" }, { doc: "Index into `report.citations`." }],
      ["span", { option: "span" }],
    ],
  },
  Summary: {
    rust: "Summary",
    fields: [
      ["total", "count"],
      ["valid", "count"],
      ["invalid", "count"],
      ["avgAlignment", { nullable: "float" }],
      ["citationCoverage", "float"],
      ["hasEvidenceIdx", "float"],
      ["hasAlignmentScore", "float"],
      ["hasSpan", "float"],
      ["hallucinations", "count"],
      ["uncitedClaims", "count"],
    ],
  },
};
