// Hostile strings for answers, titles, URLs and quotes: script tags, event handlers,
// javascript:/data:/vbscript: URLs with case, entity and whitespace tricks, SVG, CSS.
export const TEXT_PAYLOADS = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//x.test/x.js></SCRIPT>",
  "<img src=x onerror=alert(1)>",
  "<img src=\"x\" onerror=\"alert(1)\">",
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<iframe src=javascript:alert(1)>",
  "<body onload=alert(1)>",
  "<a href=\"javascript:alert(1)\">x</a>",
  "<div style=\"background:url(javascript:alert(1))\">",
  "<style>*{background:url(javascript:alert(1))}</style>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  "\"><script>alert(1)</script>",
  "'><img src=x onerror=alert(1)>",
  "</p><script>alert(1)</script><p>",
  "<input autofocus onfocus=alert(1)>",
  "<details open ontoggle=alert(1)>",
  "<object data=javascript:alert(1)>",
  "<embed src=javascript:alert(1)>",
  "<link rel=stylesheet href=javascript:alert(1)>",
  "<meta http-equiv=refresh content=\"0;url=javascript:alert(1)\">",
  "<base href=javascript:alert(1)//>",
  "<form action=javascript:alert(1)><button>x</button></form>",
  "<video><source onerror=alert(1)>",
  "<marquee onstart=alert(1)>",
  "{{constructor.constructor('alert(1)')()}}",
  "<!--<img src=x onerror=alert(1)>-->",
  "<![CDATA[<script>alert(1)</script>]]>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x]( javascript:alert(1))",
  "[x](data:text/html,<script>alert(1)</script>)",
  "[x](vbscript:msgbox(1))",
  "![x](javascript:alert(1))",
  "`<script>alert(1)</script>`",
  "```\n<script>alert(1)</script>\n```",
  "**<img src=x onerror=alert(1)>**",
  "*<svg onload=alert(1)>*",
  "> <script>alert(1)</script>",
  "# <img src=x onerror=alert(1)>",
  "- <script>alert(1)</script>",
];

export const URL_PAYLOADS = [
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  " javascript:alert(1)",
  "\tjavascript:alert(1)",
  "java\nscript:alert(1)",
  "java\tscript:alert(1)",
  "\u0000javascript:alert(1)",
  "javascript&#58;alert(1)",
  "jav&#x09;ascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "DATA:text/html,x",
  "vbscript:msgbox(1)",
  "VBScript:msgbox(1)",
  "file:///etc/passwd",
  "//evil.test/x",
  "https://ok.test/\"><script>alert(1)</script>",
  "https://ok.test/' onmouseover='alert(1)",
  "https://ok.test/<img src=x onerror=alert(1)>",
  "http://ok.test/?q=<script>",
];

/**
 * The hostile cases: every text payload with six URL payloads, in the answer (text and a
 * markdown link), a source's title, URL and text, and a declared quote; a second source
 * takes the other URL payloads in turn. `validate` is the package's (Node or browser).
 * Returns `{ context, report, sources }` per case, the report made with policy "flag"
 * so that every marker keeps its chip.
 */
export function hostileCases(validate) {
  const cases = [];
  for (const text of TEXT_PAYLOADS) {
    for (const url of URL_PAYLOADS.slice(0, 6)) {
      const sources = [
        { title: text, url, text: `${text} quoted` },
        { title: "ok", url: URL_PAYLOADS[(cases.length + 7) % URL_PAYLOADS.length], text: "plain" },
      ];
      const answer = `${text} claim [1]. ${text} [2] and [${text}](${url}).`;
      const report = validate({ answer, sources, citations: [{ source: 1, quote: `${text} quoted` }] }, { policy: "flag" });
      cases.push({ context: `${JSON.stringify(text)} ${JSON.stringify(url)}`, report, sources });
    }
  }
  return cases;
}
