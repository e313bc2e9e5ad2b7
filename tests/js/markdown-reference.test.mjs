// parseCitations against CommonMark (commonmark.js, cross-checked by markdown-it): a `[N]`
// injected at every position of every spec example, every real answer and every
// paragraph-end document (an inline construct cut by each kind of block) must be a marker
// exactly where the reference shows it as prose, and nowhere else, apart from the named
// exceptions in tests/reference/markdown.mjs (issue 21). Full run, no stride: about 9 s
// on the 2-core dev machine. `node tests/reference/markdown.mjs` prints the tallies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { collectDocs, formatReport, loadParser, runHarness } from "../reference/markdown.mjs";

test("markers agree with CommonMark at every injection point (spec examples, answers, paragraph ends)", () => {
  const result = runHarness(collectDocs("all"), { parseCitations: loadParser() });
  assert.ok(result.sets.spec?.positions > 10000 && result.sets.answers?.positions > 100000, "documents missing");
  assert.ok(result.sets.boundaries?.positions > 1500, "paragraph-end documents missing");
  const disagreements = result.classes.reduce((sum, c) => sum + c.count, 0);
  assert.equal(disagreements, 0, `${disagreements} disagreements outside the named exceptions:\n${formatReport(result)}`);
});
