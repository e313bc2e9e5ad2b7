// The pattern engine of `citeproof/patterns` in a browser: re2js (RE2 ported to JS, MIT,
// no dependencies), whose matching takes linear time in the text, as regex-lite's does in
// the full module. The browser core runs markerPatterns through it (wasm/js/patterns.js:
// the text crosses once per scan as UTF-8 bytes, searches pass byte offsets).
//
// RE2 and regex-lite share most syntax (docs/guide.md, "markerPatterns in a browser").
// Where RE2 would read a pattern differently, and the pattern shows it, it is refused
// here rather than run with another meaning: `\p{…}` classes (regex-lite has none),
// regex-lite's word boundaries `\<`, `\>`, `\b{…}` (RE2 reads the first two as literals),
// and its nested classes and class set operations `[a-z&&[^x]]`, `--`, `~~` (RE2 reads
// them as literal characters).
import { RE2JS } from "re2js";

/** Why RE2 would read `source` otherwise than regex-lite does, or undefined. */
function regexLiteOnly(source) {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const next = source[i + 1];
      if (next === "<" || next === ">" || (!inClass && next === "b" && source[i + 2] === "{")) {
        return `\`\\${next}${next === "b" ? "{…}" : ""}\` (regex-lite's word boundary) is not supported in a browser: use \\b`;
      }
      i++;
    } else if (!inClass && c === "[") {
      inClass = true;
      if (source[i + 1] === "^") i++;
      if (source[i + 1] === "]") i++;
    } else if (inClass && c === "[" && source[i + 1] !== ":") {
      return "nested classes (regex-lite's `[a[b]]`) are not supported in a browser";
    } else if (inClass && c === "[") {
      i = source.indexOf(":]", i + 2) + 1 || source.length;
    } else if (inClass && (c === "&" || c === "-" || c === "~") && source[i + 1] === c) {
      return `class set operations (regex-lite's \`${c}${c}\`) are not supported in a browser`;
    } else if (inClass && c === "]") {
      inClass = false;
    }
  }
  return undefined;
}

/** Compiles `source` for the core (`{ hasRefs, matcher(bytes) }`); throws on bad syntax. */
function compile(source) {
  const pattern = RE2JS.compile(source, RE2JS.DISABLE_UNICODE_GROUPS);
  const unsupported = regexLiteOnly(source);
  if (unsupported) throw new Error(unsupported);
  return { hasRefs: Object.hasOwn(pattern.namedGroups(), "refs"), matcher: (bytes) => pattern.matcher(bytes) };
}

/** The engine `registerPatternEngine` takes. */
export const re2PatternEngine = { compile };
