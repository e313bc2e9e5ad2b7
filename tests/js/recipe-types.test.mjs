// The guide's and the npm README's React recipes, as written, type-check as a file of the
// stock `npm create vite` react-ts template (its own tsconfig.app.json, vendored: strict
// under TypeScript 7), the package's types as its exports give them. Each check has teeth:
// the recipe with its types taken out fails as a newcomer's app did (TS2345 for
// `getElementById("root")`, TS7031 for untyped props). The same recipes are built with
// Vite and run in Chromium by markdown-chips.test.mjs and react-hooks.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { recipe, typeCheckAsTemplate } from "./helpers.mjs";

const typeCheck = (name, code) => typeCheckAsTemplate(`recipe-types-${name}`, code);

/** `text` with `from` replaced, which must occur in it. */
function without(text, from, to = "") {
  assert.ok(text.includes(from), `the recipe has ${from}`);
  return text.replaceAll(from, to);
}

test("react-markdown recipe (a whole src/main.tsx): type-checks under the template's strict tsconfig", () => {
  const code = recipe("docs/guide.md", "react-markdown");
  assert.equal(recipe("pkg/README.md", "react-markdown"), code);
  const checked = typeCheck("react-markdown", code);
  assert.equal(checked.status, 0, checked.output);
  const untyped = typeCheck("react-markdown-untyped", without(code, 'getElementById("root")!', 'getElementById("root")'));
  assert.match(untyped.output, /error TS2345/);
});

test("custom chip recipe, valid and invalid: type-checks with the exported Chip and CitationChipProps", () => {
  const code = recipe("docs/guide.md", "custom-chip");
  const checked = typeCheck("custom-chip", code);
  assert.equal(checked.status, 0, checked.output);
  // The invalid state reads chip.reason, a string or null: a card that assumed a string fails.
  const stringOnly = typeCheck("custom-chip-reason", without(code, "chip.sources[0]?.title : chip.reason}", "chip.sources[0]?.title : chip.reason.trim()}"));
  assert.match(stringOnly.output, /error TS18047/);
  const untyped = typeCheck("custom-chip-untyped", without(without(code, "{ chip }: { chip: Chip }", "{ chip }"), ": CitationChipProps"));
  assert.match(untyped.output, /error TS7031/);
});

test("hooks-only recipe: type-checks with the exported Block, Inline and Source", () => {
  const code = recipe("docs/guide.md", "hooks-only");
  assert.equal(recipe("pkg/README.md", "hooks-only"), code);
  const checked = typeCheck("hooks-only", code);
  assert.equal(checked.status, 0, checked.output);
  const untyped = typeCheck("hooks-only-untyped", without(code, "{ nodes }: { nodes: Inline[] }", "{ nodes }"));
  assert.match(untyped.output, /error TS7031/);
});
