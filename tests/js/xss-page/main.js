// Renders every hostile case of ../xss-payloads.mjs three times — the output of
// `renderHtml` and of citeproof/markdown's GFM `renderHtml` put in the page with
// innerHTML (how they are meant to be used) and `<CitedAnswer>` mounted with React — opens every chip's card, and reports what the DOM holds that it should not.
// The test (../xss.test.mjs) also counts dialogs: an `alert(1)` that ran is one.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { validate, renderHtml } from "citeproof";
import { CitedAnswer } from "citeproof/react";
import { renderHtml as renderGfm } from "citeproof/markdown";
import { hostileCases } from "../xss-payloads.mjs";

/** Elements the renderers never write and a payload would need. */
const FORBIDDEN = "script, img, iframe, frame, object, embed, svg, math, style, link, meta, base, form, input, button:not(.citeproof-chip__badge), video, audio, source, details, marquee, body body, template";

/** What is unsafe under `root`: forbidden elements, handlers, non-http(s) links, CSS urls. */
function violations(root, where) {
  const found = [];
  for (const el of root.querySelectorAll(FORBIDDEN)) found.push(`${where}: <${el.localName}>`);
  for (const el of root.querySelectorAll("*")) {
    for (const { name, value } of el.attributes) {
      if (name.startsWith("on")) found.push(`${where}: ${name} on <${el.localName}>`);
      if (["src", "srcset", "action", "formaction", "xlink:href", "data"].includes(name)) found.push(`${where}: ${name}=${value}`);
      if (name === "style" && /url\(|expression|javascript/i.test(value)) found.push(`${where}: style=${value}`);
      if (name === "href" && !/^https?:\/\//.test(value)) found.push(`${where}: href=${value}`);
    }
  }
  return found;
}

const host = document.getElementById("cases");
const problems = [];
let chipsOpened = 0;
let links = 0;
const cases = hostileCases(validate);
for (const [i, { context, report, sources }] of cases.entries()) {
  const html = document.createElement("div");
  html.innerHTML = renderHtml(report, { sources });
  host.append(html);
  problems.push(...violations(html, `renderHtml ${context}`));
  links += html.querySelectorAll("a").length;

  const gfm = document.createElement("div");
  gfm.innerHTML = renderGfm(report, { sources });
  host.append(gfm);
  problems.push(...violations(gfm, `citeproof/markdown renderHtml ${context}`));
  links += gfm.querySelectorAll("a").length;

  const mount = document.createElement("div");
  host.append(mount);
  const root = createRoot(mount);
  flushSync(() => root.render(createElement(CitedAnswer, { report, sources })));
  for (const badge of mount.querySelectorAll(".citeproof-chip__badge")) {
    flushSync(() => badge.click()); // opens the card: titles, hosts, URLs and quotes
    problems.push(...violations(mount, `CitedAnswer card ${context}`));
    links += mount.querySelectorAll("a").length;
    chipsOpened++;
    flushSync(() => badge.click());
  }
  problems.push(...violations(mount, `CitedAnswer ${context}`));
}
// Give event handlers (onerror, onload, ontoggle …) a chance to fire before reporting.
setTimeout(() => {
  document.body.dataset.result = JSON.stringify({
    cases: cases.length,
    chipsOpened,
    links,
    problems: problems.slice(0, 20),
    problemCount: problems.length,
    pwned: window.__pwned ?? null,
  });
}, 500);
