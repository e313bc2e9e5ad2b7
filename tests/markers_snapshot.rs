//! Snapshot of every marker in a document that mixes all syntaxes with the exclusions
//! around them (reviewed by hand; `cargo insta review` after a deliberate change).
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write;

use citeproof::parse::Parser;

const DOCUMENT: &str = "\
# Findings

Water boils at 100 °C at sea level [1][2]. Altitude lowers it[^3^] — see 【4†source】
and 【5:0†source】, or ［6］. Several studies agree [7, 8; 9–11] (Source 12).

- [x] checked the [doc13] and [Sources: 14, 15] claims
- Chapter 2, Section 16 covers pressure [chunk:c17] and [abc18].

```python
temps[19] = boil(pressure[20])
```

Inline `arr[21]` is code, <code>x[22]</code> too; a [link](https://a.example/[23]),
![figure](fig[24].png), https://b.example/path[25] and \\[26\\] are not markers;
[the handbook][27] is a reference link, while [[28]](https://c.example) is a citation.
Odd ones: [1.5] [1a] [-1] [3-1], but [0] counts.

[27]: https://handbook.example
";

#[test]
fn every_syntax_and_exclusion_in_one_document() {
    let parser = Parser::with_patterns(&[r"\{\{(?P<refs>\d+)\}\}"]).unwrap();
    let mut out = String::new();
    for m in parser.find_iter(DOCUMENT, &["abc18"]) {
        writeln!(
            out,
            "{:>4}..{:<4} {:<14} {:<22} {:?}",
            m.span.start,
            m.span.end,
            m.kind.name(),
            m.raw,
            m.refs
        )
        .unwrap();
    }
    insta::assert_snapshot!(out);
}
