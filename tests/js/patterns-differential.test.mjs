// markerPatterns on two engines (issue 34): the full module (Node, workerd, Deno: regex-lite
// compiled in) against the browser core (target/pkg-browser, built by `node
// scripts/build-pkg.mjs web --no-default-features --out target/pkg-browser`) with the JS
// engine that `citeproof/patterns` registers in a browser (pkg/patterns-engine.js, re2js).
// On seeded generated patterns x texts (code spans, fences, links, URLs, emoji, CJK,
// CRLF), in every offset unit: the same markers and the same report, or the same error
// code and path. Where the two syntaxes differ on purpose, the difference is pinned here
// and listed in docs/guide.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { pkgDir, random, root } from "./helpers.mjs";
import { assertLinear } from "./linear.mjs";

const dir = join(root, "target", "pkg-browser", "web");
const core = await import(pathToFileURL(join(dir, "citeproof.js")));
core.initSync({ module: readFileSync(join(dir, "citeproof_bg.wasm")) });
const full = createRequire(import.meta.url)(join(pkgDir, "node", "citeproof.js"));
const { re2PatternEngine } = await import(pathToFileURL(join(pkgDir, "patterns-engine.js")));

const CITE = "\\{\\{cite:(?P<refs>[^}]+)\\}\\}";

test("without a registered engine the browser core refuses markerPatterns, naming citeproof/patterns", () => {
  assert.throws(
    () => core.parseCitations("Fact {{cite:2}}.", { markerPatterns: [CITE] }),
    (e) => e.code === "invalid_option" && /^options\.markerPatterns\[0\]: .*import from citeproof\/patterns/.test(e.message),
  );
  // No patterns: nothing to refuse.
  assert.equal(core.parseCitations("Fact [1].", { markerPatterns: [] }).length, 1);
});

test("with the engine registered, markerPatterns work in the browser core", () => {
  core.registerPatternEngine(re2PatternEngine);
  const markers = core.parseCitations("Fact {{cite:2, 5}} and `{{cite:3}}` 😀 {{cite:doc-a}}.", { markerPatterns: [CITE] });
  assert.deepEqual(markers.map((m) => [m.raw, m.refs, m.kind]), [["{{cite:2, 5}}", [2, 5], "custom"], ["{{cite:doc-a}}", ["doc-a"], "custom"]]);
  assert.deepEqual(markers, full.parseCitations("Fact {{cite:2, 5}} and `{{cite:3}}` 😀 {{cite:doc-a}}.", { markerPatterns: [CITE] }));
});

// Pattern pieces both syntaxes read the same way.
const OPEN = ["\\{\\{cite:", "<<", "\\[\\^", "†", "【", "(?:src|ref) ", "(?i)ref ", "\\bsee ", "^", "(?m)^> ", "", "\\(", "§"];
const REFS = ["\\d+", "[0-9]+(?:, ?[0-9]+)*", "[^}\\]>]+", "[A-Za-z0-9_-]+", "\\w+", "\\d*", "[0-9]{1,3}", ".+?", "\\S+", "[a-z]+|\\d+", "東京|\\d"];
const CLOSE = ["\\}\\}", ">>", "\\]", "", "】", "\\b", "$", "(?m)$", "\\)", "(?:\\.|!)?"];
/** A refusal or an odd pattern, now and then. */
const ODD = ["(", "[a", "(?P<refs>a)(?P<refs>b)", "\\d+", "(?P<ref>\\d)", "\\p{L}(?P<refs>\\d)", "(?P<refs>\\pN)", "(?P<refs>a{2,1})", "(?P<refs>a)|", "x*(?P<refs>y*)"];
const TEXT = [
  "Fact ", "{{cite:2}}", "{{cite:2, 5}}", "<<3>>", "<<doc-a>>", "[^4]", "†7", "【8】", "src 9", "REF 10", "ref x_1", "see 11 ", "> 12\n",
  "`code {{cite:4}} <<5>>`", "```\n<<6>>\n{{cite:6}}\n```\n", "[link <<5>>](https://x.example/<<6>>)", "https://example.com/{{cite:1}} ",
  "😀", "東京", "東京 <<東京>>", "\r\n", "\n", "\n\n", "(12)", "§3.", "[1]", "[2-3]", " ", ". ", "<!-- <<9>> -->", "    <<13>> indented\n",
  "a".repeat(3), "<<", "}}", "{{cite:", "\\<<7>>", "*<<8>>*", "<<1>><<2>>", "ÀÉ", "\u00a0", "𝔘",
];

/** The same value from both, or the same error code and path. */
function same(label, run) {
  let expected;
  let actual;
  try {
    expected = { value: run(full) };
  } catch (error) {
    expected = { code: error.code, path: error.message.split(":")[0] };
  }
  try {
    actual = { value: run(core) };
  } catch (error) {
    actual = { code: error.code, path: error.message.split(":")[0] };
  }
  assert.deepEqual(actual, expected, label);
  return expected;
}

test("seeded patterns x texts: the browser core with re2js gives what the full module with regex-lite gives", () => {
  core.registerPatternEngine(re2PatternEngine);
  const rand = random(34);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const sources = [{ id: "doc-a", text: "Water boils at 100 °C." }, ...Array.from({ length: 12 }, (_, i) => ({ text: `Source ${i + 1}.` }))];
  let markers = 0;
  let errors = 0;
  for (let round = 0; round < 600; round++) {
    const count = 1 + Math.floor(rand() * 3);
    const patterns = Array.from({ length: count }, () => (rand() < 0.08 ? pick(ODD) : `${pick(OPEN)}(?P<refs>${pick(REFS)})${pick(CLOSE)}`));
    const text = Array.from({ length: 3 + Math.floor(rand() * 12) }, () => pick(TEXT)).join("");
    const offsets = pick(["utf16", "codepoint", "utf8"]);
    const label = `round ${round}: ${JSON.stringify(patterns)} on ${JSON.stringify(text)} (${offsets})`;
    const found = same(label, (api) => api.parseCitations(text, { markerPatterns: patterns, offsets, sourceIds: ["doc-a"] }));
    if (found.value) markers += found.value.length;
    else errors++;
    if (round % 5 === 0) {
      same(`${label}, validate`, (api) => ({ ...api.validate({ answer: text, sources }, { markerPatterns: patterns, offsets }), timingMs: 0 }));
    }
  }
  // The generator reaches both sides: many markers, and some refusals.
  assert.ok(markers > 300, `${markers} markers`);
  assert.ok(errors > 20, `${errors} refusals`);
});

test("the same refusal, code and path, for a bad pattern, a missing refs group and \\p classes", () => {
  core.registerPatternEngine(re2PatternEngine);
  for (const [patterns, path, message] of [
    [[CITE, "("], "options.markerPatterns[1]", undefined],
    [["\\d+"], "options.markerPatterns[0]", "the pattern needs a named group `refs`, e.g. (?P<refs>\\d+)"],
    [[CITE, CITE, "\\p{Greek}(?P<refs>\\d)"], "options.markerPatterns[2]", undefined],
  ]) {
    for (const api of [full, core]) {
      for (const call of [() => api.parseCitations("x", { markerPatterns: patterns }), () => new api.CitationParser({ markerPatterns: patterns }), () => new api.CitationValidator({ markerPatterns: patterns }), () => api.validate({ answer: "x", sources: [] }, { markerPatterns: patterns })]) {
        assert.throws(call, (e) => e.code === "invalid_option" && e.message.startsWith(`${path}: `) && (message === undefined || e.message === `${path}: ${message}`));
      }
    }
  }
});

test("where RE2 and regex-lite differ (docs/guide.md), pinned", () => {
  core.registerPatternEngine(re2PatternEngine);
  const refs = (api, pattern, text) => api.parseCitations(text, { markerPatterns: [pattern] }).map((m) => m.raw);
  // Case-insensitive matching: regex-lite folds ASCII only, RE2 Unicode (K, KELVIN SIGN).
  assert.deepEqual(refs(full, "(?i)k(?P<refs>\\d)", "\u212a1 k2"), ["k2"]);
  assert.deepEqual(refs(core, "(?i)k(?P<refs>\\d)", "\u212a1 k2"), ["\u212a1", "k2"]);
  // \s: regex-lite's has the vertical tab, RE2's does not.
  assert.deepEqual(refs(full, "<\\s(?P<refs>\\d)", "<\u000b1"), ["<\u000b1"]);
  assert.deepEqual(refs(core, "<\\s(?P<refs>\\d)", "<\u000b1"), []);
  // regex-lite only, refused in a browser rather than read otherwise: verbose mode (?x);
  // the word boundaries \< \> \b{start} (RE2 reads \< as "<").
  for (const [pattern, text, found] of [
    ["(?x) < (?P<refs>\\d) >", "<1>", ["<1>"]],
    ["\\<(?P<refs>\\d)", "x1 2", ["2"]],
    ["(?P<refs>\\d)\\>", "1x 2", ["2"]],
    ["\\b{start}(?P<refs>\\d)", "x1 2", ["2"]],
  ]) {
    assert.deepEqual(refs(full, pattern, text), found, pattern);
    assert.throws(() => refs(core, pattern, text), (e) => e.code === "invalid_option" && e.message.startsWith("options.markerPatterns[0]: "), pattern);
  }
  // Refused by both (RE2 alone would read the brackets, && -- ~~ and \< as characters):
  // nested classes, class set operations, \< in a class.
  for (const pattern of ["[a-z&&[^aeiou]](?P<refs>\\d)", "[a[0-9]](?P<refs>\\d)", "[a--b](?P<refs>\\d)", "[a~~b](?P<refs>\\d)", "[\\<](?P<refs>\\d)"]) {
    for (const api of [full, core]) {
      assert.throws(() => refs(api, pattern, "a1"), (e) => e.code === "invalid_option" && e.message.startsWith("options.markerPatterns[0]: "), pattern);
    }
  }
  // What RE2 reads as regex-lite does stays accepted: an escaped backslash before <, POSIX classes, a literal ] first.
  for (const [pattern, text] of [["\\\\<(?P<refs>\\d)", "\\<1"], ["[[:alpha:]](?P<refs>\\d)", "a1"], ["[]x](?P<refs>\\d)", "]1"]]) {
    assert.deepEqual(refs(core, pattern, text), refs(full, pattern, text), pattern);
    assert.equal(refs(core, pattern, text).length, 1, pattern);
  }
});

test("a regex bomb on the JS engine stays linear", async (t) => {
  core.registerPatternEngine(re2PatternEngine);
  // One match over the whole run: the engine walks it (a run with no `b` would be
  // turned away by re2js's literal prefilter). From 40 KB up, as below.
  await assertLinear(t, "(a|a)*b over an a-run", (k) => {
    const answer = "a".repeat(40_000 * k) + "b";
    return { run: () => assert.equal(core.parseCitations(answer, { markerPatterns: ["(?P<refs>(a|a)*)b"] }).length, 1) };
  });
  // From 14 KB of text up: below a few KB re2js searches with its backtracker, which
  // clears a visited set as long as the text per search (bounded: it switches to its
  // NFA above that, docs/perf-log.md).
  await assertLinear(t, "many matches, half inside code spans, 4 patterns", (k) => {
    const answer = "`<<1>>` <<2>> ".repeat(1_000 * k);
    const patterns = Array.from({ length: 4 }, (_, i) => `<<(?P<refs>\\d)>>${"x?".repeat(16 + i)}`);
    return { run: () => assert.equal(core.parseCitations(answer, { markerPatterns: patterns }).length, 1_000 * k) };
  });
});
