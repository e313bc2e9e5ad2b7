// The report's types as they cross the JS boundary, declared once. `node
// scripts/gen-schema.mjs` writes from this:
// - wasm/src/wire/to_js/report_fields.rs: the Rust side, which writes each field onto the tape;
// - the readers block of wasm/js/tape.js: the JS side, reading each field back;
// - the interfaces of wasm/js/types.d.ts.
// The generated files are checked in; `node scripts/gen-schema.mjs --check` (run by the
// JS tests) fails when they drift from this file.
// Where the core states a fact too, the core is its source of truth and this file
// restates it for the other outputs: the report's serde field order, `Options`' fields,
// defaults (`Options::default()`) and ranges (`Validator::with_parser`), and the
// variants of the enums in `enums`. tests/wire_contract.rs (native `cargo test`) checks
// each against the core.
//
// A type is `{ rust, doc?, fields }`; a field is `[jsName, kind, options?]`:
// - kinds: "string", "name" (a string from a small fixed set, `&'static str` in Rust,
//   which JS makes once per tape, not once per object), "count" (a whole number), "float" (NaN and ±Infinity read as null),
//   "flag" (a boolean), "span", a type declared here, or a reader written by hand in
//   wasm/js/tape.js and wasm/src/wire/to_js/tape.rs ("marker", "segment");
// - { option: kind }: absent when the Rust value is None; { nullable: kind }: null then;
//   { list: kind }: an array.
// options: `rust` (the Rust expression for the value, `v` being the struct; default
// `v.<snake_case name>`, borrowed as the kind needs), `ts` (the TypeScript type, when
// the kind's own is too wide), `doc` (the field's doc comment in types.d.ts).
// Adding a field to the report: the model's struct, one line here, and the code that
// computes it.

// The string enums of the API: per Rust enum, the names its values cross as, in the
// enum's declaration order: `{ rust, doc?, names, jsOnly?, of? }`, a name `[name, doc?]`;
// `jsOnly` names are the package's own, after the Rust ones. `rust` is the core's enum
// (`citeproof::…`), or the function that names another enum's values (`of`: that enum,
// or the list of values it maps, in the order of `names`). `node scripts/gen-schema.mjs`
// writes from this the union types of wasm/js/types.d.ts (`export type <key>` for those
// with a `doc`; the others are written inline where `union(key)` is used below), the
// match of `policy` in the options reader, and the tables of names the package's plain
// JS reads (pkg/providers/adapt.js, pkg/edge/read.js). tests/wire_contract.rs checks
// each list against the names the Rust enum's variants cross as (serde's, or its
// `name()`), all of them, in declaration order (`Provider`: in `Provider::ALL`'s).
export const enums = {
  MarkerKind: {
    rust: "citeproof::model::MarkerKind",
    doc: "The written form of a marker.",
    names: [
      ["numeric"],
      ["footnote"],
      ["cjk"],
      ["provider"],
      ["labeled"],
      ["link"],
      ["parenthetical"],
      ["section"],
      ["named"],
      ["custom"],
      ["private_use", "OpenAI's private-use-area token `\\uE200cite\\uE202turn0search0\\uE201`; refs are its source ids."],
    ],
  },
  OffsetUnit: {
    rust: "citeproof::offsets::Unit",
    doc: "The unit of every span the JS API returns. `utf16` (default) is a JS string index.",
    names: [["utf16"], ["utf8"], ["codepoint"]],
  },
  Policy: { rust: "citeproof::model::Policy", names: [["flag"], ["clean"], ["strict"]] },
  Status: { rust: "citeproof::model::Status", names: [["pass"], ["warn"], ["fail"]] },
  Severity: { rust: "citeproof::model::Severity", names: [["error"], ["warning"]] },
  MatchKind: { rust: "citeproof::model::MatchKind", names: [["exact"], ["normalized"], ["approximate"], ["none"], ["unverified"]] },
  Mode: { rust: "citeproof::model::Mode", names: [["answer"], ["clarify"], ["refuse"]] },
  // The codes of the `Error`s the API throws: `ErrorCode::as_str`'s, then (`jsOnly`) the
  // two the package's trap recovery (wasm/js/recover.mjs) throws.
  CiteproofErrorCode: {
    rust: "citeproof::ErrorCode",
    doc: "Stable codes of the `Error`s citeproof throws: unusable arguments, and two that should never happen but are handled (node and web builds): `internal_error` — the module trapped; the instance was recreated and the next call works — and `stale_instance` — an object (stream, validator, parser) made before that recreation was used.",
    names: [["invalid_input"], ["too_large"], ["invalid_option"], ["unknown_provider_format"]],
    jsOnly: [["internal_error"], ["stale_instance"]],
  },
  // In `Provider::ALL`'s order, the order detection tries them in: the JS adapters of
  // pkg/providers/adapt.js try theirs in this order too (`PROVIDERS`, generated there).
  Provider: {
    rust: "citeproof::providers::Provider",
    names: [["anthropic"], ["bedrock"], ["gemini"], ["cohere"], ["perplexity"], ["openai"], ["vercel-ai"]],
  },
  // Spec 001's audit record names a report's status in capitals: one name per `Status`,
  // in `Status`'s order (`of`), as `citeproof::audit::audit_status` maps them.
  AuditStatus: {
    rust: "citeproof::audit::audit_status",
    of: "Status",
    doc: "Spec 001's name of a report's status (pass, warn, fail) in the audit record.",
    names: [["PASS"], ["REVIEW"], ["REJECT"]],
  },
  // … and each citation's validity: a valid citation's name, then an invalid one's, as
  // `citeproof::audit::validation_status` gives them.
  AuditCitationStatus: {
    rust: "citeproof::audit::validation_status",
    of: [true, false],
    doc: "Spec 001's name of a citation's validity in the audit record.",
    names: [["VALID"], ["INVALID"]],
  },
};

/** The TypeScript union of the enum `key`'s names (and its `jsOnly` ones), written inline: `"a" | "b"`. */
export function union(key) {
  return members(key).map(([name]) => JSON.stringify(name)).join(" | ");
}

/** The names of the enum `key` the API uses: the Rust enum's, then its `jsOnly` ones. */
export function members(key) {
  return [...enums[key].names, ...(enums[key].jsOnly ?? [])];
}

export const root = "Report";

export const types = {
  Report: {
    rust: "Report<'_>",
    doc: "The result of `validate` (docs/architecture.md §6).",
    fields: [
      ["status", "name", { rust: "v.status.name()", ts: union("Status") }],
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
      ["sourceIndex", { option: "count" }, { rust: "v.source_index.map(|label| label as usize)", doc: "The resolved source's label (its `index`, or its position + 1)." }],
      ["sourcePosition", { option: "count" }, { doc: "The resolved source's position in `input.sources`: where a renderer finds it, whatever its label and however the answer was renumbered." }],
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
      ["support", { option: "float" }, { doc: "Claim-support score in 0–1, when scored: with `misattributionMargin` or `supportThreshold` (claim support is opt-in), for a citation whose source has text." }],
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
        "name",
        {
          rust: "v.kind.name()",
          ts: union("MatchKind"),
          doc: "`unverified`: the cited source has no text to look for the quote in (no finding), or the request's searches had read as much text as one request may (a `quote_unchecked` warning).",
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
      ["code", "name", { rust: "v.code.name()", ts: "FindingCode" }],
      ["severity", "name", { rust: "v.severity_name()", ts: union("Severity") }],
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

// The input's objects as they cross the other way, field by field in the order the input
// tape carries them (wasm/js/input.js writes it, wasm/src/wire/from_js/input_tape.rs reads it). A field is
// `[rustName, jsNames, { read?, ts, doc? }]`: the first JS name is the documented one
// (the serde name of src/model/input.rs, camelCase), the others its aliases (serde's
// `alias`es there, checked by tests/js/schema.test.mjs); `read` names the walk's method
// for a value that is not a scalar ("lineRange", "span"), or is "firstOf" for a field
// read under the first of its names present, the others compared with it (a source's
// text); `ts` and `doc` are its TypeScript type and doc comment (`inputTypes` below). `node scripts/gen-schema.mjs` writes from this:
// - wasm/src/wire/from_js/input_names.rs: the names per field, for the Rust reader and its errors;
// - the readers block of wasm/js/input.js: each name read at its own site;
// - the `SOURCE_NAMES` block of wasm/js/untrusted.js, which the renderer reads sources by;
// - the `Input`, `Source` and `DeclaredCitation` interfaces of wasm/js/types.d.ts.
// Answer, sources, citations and warnings (no aliases) are read by hand around these.
export const inputs = {
  Input: [
    ["question", ["question", "query"], { ts: "string" }],
    ["mode", ["mode"], { ts: union("Mode") }],
    ["request_id", ["requestId", "request_id"], { ts: "string" }],
    ["session_id", ["sessionId", "session_id"], { ts: "string" }],
    ["response_id", ["responseId", "response_id"], { ts: "string" }],
    ["model_version", ["modelVersion", "model_version"], { ts: "string" }],
    ["top_k", ["topK", "top_k"], { ts: "number" }],
  ],
  Source: [
    ["chapter", ["chapter", "chapter_id"], { ts: "string | number", doc: "Spec 000's chapter." }],
    ["index", ["index"], { ts: "number", doc: "The label shown in the prompt (from 1; a source labelled 0 is cited as `[0]`); default position + 1. Two sources with one label: a `duplicate_label` warning, citations of it name the first." }],
    ["id", ["id"], { ts: "string" }],
    ["doc_id", ["docId", "doc_id"], { ts: "string" }],
    ["chunk_id", ["chunkId", "chunk_id"], { ts: "string" }],
    ["title", ["title", "doc_title", "section_title"], { ts: "string" }],
    ["url", ["url"], { ts: "string" }],
    ["slug", ["slug"], { ts: "string" }],
    ["payload_id", ["payloadId", "payload_id"], { ts: "string" }],
    ["chunk_type", ["chunkType", "chunk_type"], { ts: "string" }],
    // By precedence, not as aliases: the first present is read, and a later one present
    // with another value is reported (src/model/input.rs, TEXT_NAMES).
    [
      "text",
      ["text", "content", "page_content", "excerpt", "snippet"],
      {
        read: "firstOf",
        ts: "string | null",
        doc: "The retrieved text. An Anthropic `search_result` block is a source too: its `source` is read as `url` (an http(s) one) or else `id`, its `content` text blocks joined by `\"\\n\\n\"`.",
      },
    ],
    ["section", ["section", "section_number"], { ts: "number", doc: "Spec 000's section number." }],
    ["relevance", ["relevance", "relevance_score"], { ts: "number", doc: "0–1 (spec 000). When any source's is outside 0–1 (BM25 scores): an `invalid_field` warning, and `confidence` reads none of them." }],
    ["first_line", ["firstLine", "first_line"], { ts: "number", doc: "Line number of the first line of `text` (spec 001); default 1." }],
  ],
  DeclaredCitation: [
    ["source", ["source", "index"], { ts: "number | string", doc: "A source label (number) or an id / chunk id / doc id / title (string)." }],
    ["doc_id", ["docId", "doc_id"], { ts: "string" }],
    ["chunk_id", ["chunkId", "chunk_id"], { ts: "string" }],
    ["quote", ["quote", "snippet", "cited_text"], { ts: "string" }],
    ["line_range", ["lineRange", "line_range"], { read: "lineRange", ts: "[number, number] | string", doc: '`[first, last]` or `"first-last"` (spec 001).' }],
    ["evidence_idx", ["evidenceIdx", "evidence_idx"], { ts: "number" }],
    ["alignment_score", ["alignmentScore", "alignment_score"], { ts: "number" }],
    ["span_in_answer", ["spanInAnswer", "span_in_answer"], { ts: "string" }],
    ["relevance", ["relevance", "relevance_score"], { ts: "number" }],
    ["claim", ["claim", "claim_text"], { ts: "string" }],
    [
      "span",
      ["span"],
      { read: "span", ts: "Span", doc: "Where in the answer the citation applies (provider adapters set it), in the `offsets` unit of the call that reads it." },
    ],
  ],
};

// The input's TypeScript interfaces (the generated block of wasm/js/types.d.ts): per type
// of `inputs` its doc, the fields read by hand around the walk, `[jsName, ts, details]`
// (details: `required`, `doc`), then the table's fields, each with its `ts` and `doc`
// and its other names (beyond its snake_case spelling) said once in the doc, then an
// index signature (`rest`) if the type takes other fields.
export const inputTypes = {
  Input: {
    doc: "One answer to validate (docs/architecture.md §4).",
    hand: [
      ["answer", "string", { required: true }],
      ["sources", "Source[]"],
      ["citations", "DeclaredCitation[] | number[]"],
      ["provider", union("Provider"), { doc: "Set by a provider adapter: which one made this input." }],
      [
        "warnings",
        "Finding[]",
        {
          doc: "Set by a provider adapter: offsets it had to correct or could not place (`offset_mismatch`), parts of the response of types it does not know (`unknown_content`); `validate` copies them into the report's findings.",
        },
      ],
    ],
  },
  Source: { doc: "A retrieved source. Every field also accepts its snake_case spelling.", hand: [] },
  DeclaredCitation: { doc: "A citation the model declared in structured output (specs 002–004).", hand: [], rest: "[snakeCase: string]: unknown;" },
};

// The options of `validate` (and of `new CitationValidator`, `validateBatch`,
// `new CitationStream`, `citeproofTransform`, `validateAsync`), in the order the binding
// reads them: `[name, kind, details]`. Kinds, and how each is read
// (wasm/src/wire/from_js/read.rs): "unit" (`offsets`, by `read_unit`), "name" (one of the
// names of the enum `enum`), "flag" (`Obj::boolean`), "number", "count" (a whole number
// ≥ 0), "strings" (at most `limit`, the Rust constant naming the most), "pair"
// (`[min, max]` counts), "numberOrFalse" (a number in `range`, or `false` for off). Details:
// `ts` (the TypeScript type, when the kind's own is too wide), `default` (as JSON;
// absent: unset, and the Rust field is an `Option`), `range` (`[low, high]`, inclusive,
// where the value is refused outside it), `doc`. `node scripts/gen-schema.mjs` writes
// from this:
// - wasm/src/wire/from_js/option_fields.rs, the binding's reader: each option, in this
//   order, read with its kind's reader into the `Options` field of its snake_case name
//   (`offsets` into the unit);
// - the `ValidateOptions` interface of wasm/js/types.d.ts (docs, defaults and ranges);
// - `VALIDATE_OPTIONS` (the names) in wasm/src/wire/contract.rs, and in the generated
//   block of wasm/js/untrusted.js, which `citeproofTransform` checks names against.
// The source of truth for defaults and ranges is the core: `Options::default()`
// (src/model/options.rs, which the CLI uses too) and `Validator::with_parser`
// (src/validate/mod.rs), which refuses a value outside its range. They are restated
// here for the TypeScript docs, and tests/wire_contract.rs checks every name but
// `offsets` (the binding's own) against `Options`' serde fields, and each default and
// range against the core.
export const options = [
  ["offsets", "unit", { ts: "OffsetUnit", default: "utf16", doc: "The unit of every span in and out." }],
  ["policy", "name", { enum: "Policy", default: "clean" }],
  ["renumber", "flag", { default: false }],
  ["requireCitations", "flag", { default: true }],
  ["maxInvalidRatio", "number", { default: 0.3, range: [0, 1] }],
  ["lowAlignment", "number", { default: 0.3, range: [0, 1] }],
  ["minAvgAlignment", "number", { default: 0.4, range: [0, 1] }],
  ["minCoverage", "number", { default: 0.5, range: [0, 1] }],
  ["minEvidenceIdxRatio", "number", { default: 0.8, range: [0, 1] }],
  ["maxEditRatio", "number", { default: 0.1, range: [0, 1] }],
  ["uncertainBelow", "number", { default: 0.7, range: [0, 1] }],
  ["partialSpanChars", "count", { default: 50 }],
  [
    "maxAnswerChars",
    "count",
    { default: 1_000_000, doc: "Longer answers are `too_large`; one of more than twice this many UTF-16 units is refused before it is copied." },
  ],
  ["maxSources", "count", { default: 10_000, doc: "More sources are `too_large`, refused before any is read. At most 1,000,000." }],
  ["markerPatterns", "strings", { limit: "MAX_MARKER_PATTERNS", default: [], doc: "Extra marker regexes, each with a `refs` group; at most 100." }],
  [
    "supportThreshold",
    "number",
    {
      range: [0, 1],
      doc: "Turns on the opt-in support findings: cited claims scoring below it are `unsupported_claim`, uncited sentences are `uncited_claim`. At 0.5, 4.8 % of the citations experts judged fully supported (ExpertQA) score below it. Default: off (docs/support.md says why).",
    },
  ],
  ["paragraphCitations", "flag", { default: true, doc: "A marker ending a paragraph covers its uncited sentences." }],
  [
    "misattributionMargin",
    "numberOrFalse",
    {
      default: false,
      range: [0, 1],
      doc: "How much better another retrieved source must support a cited claim for `misattributed` (\"did you mean [4]?\"); `false` turns the check (and support scoring when `supportThreshold` is unset) off. Opt-in: held out, no margin flags ≤ 2 % of fully supported citations and catches ≥ 80 % of moved ones on every dataset (docs/support.md); 0.3 flags 2 % and catches 71 % on ExpertQA.",
    },
  ],
  ["quoteLength", "pair", { doc: "`[min, max]` characters; unset: no length check." }],
];

// Numbers both languages use, declared once: `[name, value, doc]`. gen-schema writes
// them as Rust constants (wasm/src/wire/contract.rs) and as JS exports (the generated
// block of wasm/js/untrusted.js).
export const constants = [
  [
    "MAX_LIST_ITEMS",
    1_000_000,
    `The most items of any list the binding reads, whatever the options say (README,
"Limits"): the ceiling for lists without a limit option of their own (declared
citations, warnings, \`validateBatch\`'s inputs, \`sourceIds\`, the sources of
\`formatContext\`, a report's citations, a rendered report's segments, …) and for
\`maxSources\`. A list longer than this is refused before any item is read; a sparse
array or a Proxy can claim 2^32 − 1 items at no cost, and walking them would exhaust
the engine's memory.`,
  ],
  [
    "TWICE",
    256,
    `A field of the input tape given under two of its names is written as \`found + TWICE ×
other\`, each 1 + the index of a name (wasm/js/input.js, the walk).`,
  ],
];

// `typeCode`'s codes (wasm/js/untrusted.js), in code order: `[name, type]`. JS compares
// with `TYPE_<name>`; the Rust reader names a code's type in its errors ("expected a
// string, got null") from `TYPES`, and compares with `TYPE_<name>` too.
export const typeCodes = [
  ["STRING", "string"],
  ["NUMBER", "number"],
  ["BOOLEAN", "boolean"],
  ["ARRAY", "array"],
  ["NULL", "null"],
  ["UNDEFINED", "undefined"],
  ["OBJECT", "object"],
  ["OTHER", "other value"],
  ["REVOKED", "revoked Proxy"],
  ["UNREADABLE_LENGTH", "array with an unreadable length"],
];

// What `listItems` (wasm/js/untrusted.js) returns instead of a list's items, besides
// its length when that is over the limit: `[name, value, when]`.
export const listRefusals = [
  ["LIST_NOT_AN_ARRAY", -1, "the value is not an array (`typeCode` tells what it is)"],
  ["LIST_UNREADABLE_LENGTH", -2, "its length cannot be read or is no array length"],
];

// The tags that say what comes next on a tape, each table numbered in order from its
// first number: `{ rust, first, doc, names, type? }`, a name `[NAME, doc]`. gen-schema
// writes them into wasm/src/wire/contract.rs (as `<TABLE>_<NAME>` constants of type `rust`, or
// as an enum of that name) and as constants `<TABLE>_<NAME>` into the generated block of
// the JS file `js` that reads or writes them (exported from untrusted.js); both halves
// use them by name. A table with `type` announces values whose JS `type` field is the
// tag's name in lower case (`tagType`): the variant of the Rust enum of that name
// (`Segment::Cite`, serde's tag; `StreamEvent::Revise`), which tests/wire_contract.rs
// checks, all of them, in order. The JS reader takes it from `<TABLE>_<NAME>_TYPE`, the
// TypeScript from `taggedTypes` below.
export const tags = {
  // JS → Rust (wasm/js/input.js writes, wasm/src/wire/from_js/input_tape.rs reads).
  INPUT: {
    rust: "u8",
    js: "untrusted.js",
    first: 1,
    doc: "What a value on the input tape is, written before what it needs.",
    names: [
      ["STRING", "A string: the next of the strings, copied apart in order."],
      ["NUMBER", "A number: its value follows."],
      ["PAIR", "Two numbers (a line range `[a, b]` or a span `{ start, end }`): its holder's type code, then both."],
      ["LIST", "An array: its length follows, then its items unless it is over the list's limit."],
      ["OBJECT", "An object (not an array): its fields follow."],
      ["OTHER", "Anything else: its type code follows, for the error or finding to name."],
      ["LONG", "An answer over its limit (not copied): its length in UTF-16 units follows."],
    ],
  },
  // Rust → JS (wasm/src/wire/to_js/tape.rs writes, wasm/js/tape.js reads).
  SHAPE: {
    js: "tape.js",
    rust: { enum: "Shape" },
    first: 0,
    doc: "What a tape holds: its first number, which tells `tape.js` how to read the rest.",
    names: [
      ["REPORT", "A [`Report`](citeproof::model::Report)."],
      ["PUSH", "What a stream's push returns: `{ text, events }` (see `Tape::stream_event`)."],
      ["FINISH", "What a stream's finish returns: `{ text, report, revise }`."],
      ["MARKERS", "A list of markers."],
      ["VALUE", "Any serde value."],
      ["BATCH", "`validateBatch`'s result: `{ reports, summary, status }`."],
      ["HELD", "What a stream holds back: `{ releasedThrough, undecidedFrom }`."],
    ],
  },
  REFS: {
    js: "tape.js",
    rust: "usize",
    first: 0,
    doc: "What a marker's refs are, written before them.",
    names: [
      ["NUMBERS", "Numeric labels: their list follows."],
      ["IDS", "Ids: their list follows."],
      ["SECTION", "A section: its chapter and number follow the marker's kind and raw text."],
    ],
  },
  SEGMENT: {
    js: "tape.js",
    rust: "usize",
    first: 0,
    type: true,
    doc: "What a segment of a rendered report is, written before its fields.",
    names: [
      ["TEXT", "Plain text: `{ type: \"text\", text }`."],
      ["CITE", "A chip: `{ type: \"cite\", label, refs, … }`."],
    ],
  },
  EVENT: {
    js: "tape.js",
    rust: "usize",
    first: 0,
    type: true,
    doc: "What a stream's event is, written before its fields.",
    names: [
      ["CITE", "A chip: `{ type: \"cite\", segment, span, answerSpan }`."],
      ["FINDING", "A finding: its fields, then `type: \"finding\"`."],
      ["REVISE", "A revision: `{ type: \"revise\", span, text, answerStart }`."],
    ],
  },
  VALUE: {
    js: "tape.js",
    rust: "f64",
    first: 0,
    doc: "The operations of a serde value (wasm/src/wire/to_js/serde_values.rs).",
    names: [
      ["NULL", "`null`."],
      ["FALSE", "`false`."],
      ["TRUE", "`true`."],
      ["NUMBER", "A number: its value follows."],
      ["STRING", "A string: the string follows, as the tape writes one."],
      ["ARRAY", "An array: its items follow, up to `VALUE_END`."],
      ["OBJECT", "An object: its keys and values follow, up to `VALUE_END`."],
      ["END", "The end of an array or object."],
    ],
  },
};

/** The JS `type` of the values the tag `table`'s `name` announces (a table with `type`). */
export function tagType(table, name) {
  if (!tags[table].type || !tags[table].names.some(([n]) => n === name)) throw new Error(`no typed tag ${table}_${name}`);
  return name.toLowerCase();
}

// The TypeScript of the values of the tables with `type` (their readers in tape.js and
// writers in wasm/src/wire/to_js/tape.rs are written by hand), for the generated block
// of wasm/js/types.d.ts: per union its tag table and, per tag, its fields
// `[name, ts, { optional?, doc? }]` after `type`, written inline (`variants`); or
// (`named`) per tag an interface `{ name, doc, fields }` or an intersection
// `{ name, doc, and }` with another type, then the union of them.
// The upper bounds (seconds) of the edge metrics' duration histogram, as its `le` labels
// print them (`citeproof::metrics::DURATION_BUCKET_LABELS`): pkg/edge/metrics.js reads
// them from the generated block of pkg/edge/read.js; tests/wire_contract.rs checks them
// against the Rust table.
export const durationBuckets = ["0.0001", "0.0005", "0.001", "0.005", "0.01", "0.05", "0.1"];

export const taggedTypes = {
  Segment: {
    tags: "SEGMENT",
    variants: {
      TEXT: [["text", "string"]],
      CITE: [
        ["label", "string", { doc: "The marker as it stands in the cleaned answer." }],
        [
          "refs",
          "string[]",
          {
            doc: 'The labels the chip shows, as text (`["1", "2"]`, `["tokyo-tower"]`; renumbered ones after `renumber`): one field for number labels and ids alike, so strings. `Marker.refs` keeps what the parser read (numbers or ids).',
          },
        ],
        ["sourceIndex", "number", { optional: true }],
        ["sourcePositions", "(number | null)[]", { doc: "For each of `refs`, its source's position in `input.sources` (null: not retrieved)." }],
        ["title", "string", { optional: true }],
        ["url", "string", { optional: true }],
        ["valid", "boolean"],
      ],
    },
  },
  StreamEvent: {
    tags: "EVENT",
    named: {
      CITE: {
        name: "CiteEvent",
        doc: "A chip released by a push: `span` indexes the text released so far, `answerSpan` the answer.",
        fields: [
          ["segment", `Extract<Segment, { type: ${JSON.stringify(tagType("SEGMENT", "CITE"))} }>`],
          ["span", "Span"],
          ["answerSpan", "Span"],
        ],
      },
      FINDING: {
        name: "FindingEvent",
        doc: "A marker that points nowhere, found in the released text (its span indexes the answer).",
        and: "Finding",
      },
      REVISE: {
        name: "ReviseEvent",
        doc: "Text released before changed (issue 21): a marker released while a later definition or closer could still change it (it was 256 bytes behind the end) was decided otherwise. Replace the shown text from `span.start` to its end (`span.end`) with `text`; chips from `span.start` and findings from `answerStart` (an answer index) on are void and are sent again after this event.",
        fields: [
          ["span", "Span"],
          ["text", "string"],
          ["answerStart", "number"],
        ],
      },
    },
  },
};
