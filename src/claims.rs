//! Splitting a markdown answer into claims (sentences) with their spans.
//!
//! A claim is a sentence of prose, a list item's sentence or a table row. Headings,
//! questions, code blocks, table separators and fragments under three words are not
//! claims. A sentence ends at `.`, `!`, `?` (or `。！？`) followed by space, a marker or
//! the end — but not after an abbreviation (`e.g.`, `Dr.`, `U.S.`) or inside a number
//! (`3.14`, `v1.2.3`). Markers right after the end (`fact. [1]`) belong to it.
//!
//! ```
//! use citeproof::claims::split_claims;
//! let answer = "# Title\n\nDr. Smith found 3.5% growth [1]. Prices rose sharply. [2]\n\nWhy?";
//! let markers: Vec<_> = citeproof::parse::parse(answer).iter().map(|m| m.span).collect();
//! let claims = split_claims(answer, &markers);
//! let texts: Vec<&str> = claims.iter().map(|c| &answer[c.span.range()]).collect();
//! assert_eq!(texts, ["Dr. Smith found 3.5% growth [1].", "Prices rose sharply. [2]"]);
//! assert_eq!(claims[1].markers, [1]);
//! ```

use crate::byteset::{ByteSet, lines};
use crate::model::Span;
use crate::substr::Substr;

/// One claim of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The sentence, including markers that follow it.
    pub span: Span,
    /// Indices (into the marker spans given to [`split_claims`]) of its markers.
    pub markers: Vec<usize>,
    /// Which paragraph it belongs to (list items and table rows are paragraphs of their
    /// own): a marker ending a paragraph may stand for its other sentences.
    pub paragraph: usize,
}

/// For each claim, whether the last claim of its paragraph has a marker — the
/// paragraph-final citation style (`… fact. … fact. [1]`), where that marker may stand
/// for the paragraph's other sentences. One pass from the end (paragraph numbers only
/// grow along the answer).
pub fn paragraph_final_cited(claims: &[Claim]) -> Vec<bool> {
    let mut cited = vec![false; claims.len()];
    let mut last: Option<(usize, bool)> = None; // (paragraph, its last claim has markers)
    for (i, claim) in claims.iter().enumerate().rev() {
        let marked = match last {
            Some((paragraph, marked)) if paragraph == claim.paragraph => marked,
            _ => !claim.markers.is_empty(),
        };
        last = Some((claim.paragraph, marked));
        cited[i] = marked;
    }
    cited
}

/// Words that end with a period without ending a sentence (compared lower-case).
const ABBREVIATIONS: &[&[u8]] = &[
    b"e.g", b"i.e", b"etc", b"vs", b"dr", b"mr", b"mrs", b"ms", b"prof", b"st", b"jr", b"sr",
    b"fig", b"no", b"al", b"approx", b"ca", b"cf", b"inc", b"ltd", b"co", b"corp", b"dept", b"est",
    b"jan", b"feb", b"mar", b"apr", b"jun", b"jul", b"aug", b"sep", b"sept", b"oct", b"nov",
    b"dec", b"u.s", b"u.k", b"u.n", b"e.u", b"p", b"pp", b"vol", b"ed", b"eds", b"op", b"ph.d",
];

/// The first bytes of sentence terminators: `.`, `!`, `?` and the lead bytes of `。`
/// (E3 80 82), `！` (EF BC 81) and `？` (EF BC 9F).
const TERMINATOR_STARTS: ByteSet<5> = ByteSet::new([b'.', b'!', b'?', 0xE3, 0xEF]);

/// The claims of `answer`. `markers` are the marker spans in the answer, in order.
pub fn split_claims(answer: &str, markers: &[Span]) -> Vec<Claim> {
    let mut claims = Vec::new();
    let mut in_fence: Option<&str> = None;
    let mut line_start = 0;
    let mut paragraph = 0;
    let mut previous_blank = true;
    for line in lines(answer) {
        let start = line_start;
        line_start += line.len();
        let trimmed = line.trim_start_matches([' ', '\t', '>']);
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (in_fence, fence) {
            (Some(open), Some(f)) if f == open => {
                in_fence = None;
                continue;
            }
            (Some(_), _) => continue,
            (None, Some(f)) => {
                in_fence = Some(f);
                previous_blank = true;
                continue;
            }
            (None, None) => {}
        }
        let indent = line.len() - trimmed.len();
        let body = trimmed.trim_end();
        if body.is_empty() || body.starts_with('#') || is_table_separator(body) {
            previous_blank = true;
            continue;
        }
        let list_item = list_marker_len(body) > 0;
        if previous_blank || list_item || body.starts_with('|') {
            paragraph += 1;
        }
        previous_blank = false;
        let first_new = claims.len();
        let content_start = start + indent + list_marker_len(body);
        let content_end = start + indent + body.len();
        if body.starts_with('|') {
            push_claim(&mut claims, answer, Span::new(content_start, content_end));
        } else {
            split_sentences(
                answer,
                Span::new(content_start, content_end),
                markers,
                &mut claims,
            );
        }
        for claim in &mut claims[first_new..] {
            claim.paragraph = paragraph;
        }
    }
    for claim in &mut claims {
        let first = markers.partition_point(|m| m.start < claim.span.start);
        claim.markers = (first..markers.len())
            .take_while(|&i| markers[i].start < claim.span.end)
            .filter(|&i| markers[i].end <= claim.span.end)
            .collect();
    }
    claims
}

fn split_sentences(answer: &str, line: Span, markers: &[Span], claims: &mut Vec<Claim>) {
    let text = answer.sub(line.range());
    let mut sentence_start = 0;
    // Where to look for the next terminator; a byte scan, since nearly every byte is
    // none (the CJK terminators all start with 0xE3 or 0xEF).
    let mut from = 0;
    loop {
        let at = TERMINATOR_STARTS.find(text.as_bytes(), from, text.len());
        let Some(c) = text.sub(at..).chars().next() else {
            break;
        };
        from = at + c.len_utf8();
        if !matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
            continue;
        }
        // Runs of terminators and closing quotes/brackets stay with the sentence.
        let closers = text
            .sub(from..)
            .chars()
            .take_while(|c| {
                matches!(
                    c,
                    '.' | '!' | '?' | '"' | '\'' | ')' | '”' | '’' | '*' | '_'
                )
            })
            .map(char::len_utf8)
            .sum::<usize>();
        from += closers;
        let end = from;
        let rest = text.sub(end..);
        let at_boundary =
            rest.is_empty() || rest.starts_with(char::is_whitespace) || rest.starts_with('[');
        let ascii_end = c.is_ascii();
        if ascii_end
            && (!at_boundary || is_abbreviation(text.sub(..at)) || is_inside_number(text, at))
        {
            continue;
        }
        // Markers after the terminator (`fact. [1]`) belong to this sentence.
        let absolute_end = line.start + end;
        let mut trailing = absolute_end;
        let after = markers.partition_point(|m| m.start < absolute_end);
        for m in markers[after..].iter().take_while(|m| m.end <= line.end) {
            if !answer.sub(trailing..m.start).trim().is_empty() {
                break;
            }
            trailing = m.end;
        }
        push_claim(
            claims,
            answer,
            Span::new(line.start + sentence_start, trailing),
        );
        sentence_start = trailing - line.start;
        from = from.max(sentence_start);
    }
    if sentence_start < text.len() {
        push_claim(
            claims,
            answer,
            Span::new(line.start + sentence_start, line.end),
        );
    }
}

fn push_claim(claims: &mut Vec<Claim>, answer: &str, span: Span) {
    let raw = answer.sub(span.range());
    let trimmed_start = raw.len() - raw.trim_start().len();
    let span = Span::new(
        span.start + trimmed_start,
        span.start + raw.trim_end().len(),
    );
    let text = answer.sub(span.range());
    let is_question = text
        .trim_end_matches(|c: char| c == ']' || c.is_ascii_digit() || c == '[')
        .ends_with(['?', '？']);
    // Questions, and lead-ins that end with a colon ("Here are the options:"), claim nothing.
    if is_question || text.ends_with(':') {
        return;
    }
    // At least three words with a letter or digit, or six CJK characters.
    let words = text
        .split_whitespace()
        .filter(|w| !w.is_ascii() || w.bytes().any(|b| b.is_ascii_alphanumeric()))
        .take(3)
        .count();
    let cjk = || {
        text.chars()
            .filter(|c| ('\u{3040}'..='\u{9fff}').contains(c))
            .take(6)
            .count()
    };
    if words >= 3 || cjk() >= 6 {
        claims.push(Claim {
            span,
            markers: Vec::new(),
            paragraph: 0,
        });
    }
}

/// What a marker outside every claim stands for: the text before it on its line, back
/// to a sentence end — or, when that holds no letter (a list number, `1 [1].`), the
/// nearest line or sentence before it that does (`… the key steps:` / `Quadrature
/// Encoder`). `None` when no letter precedes the marker within a few steps. Lead-ins,
/// headings and two-word fragments are not claims, yet a citation placed on them cites
/// them, and its support is scored on this text.
///
/// ```
/// use citeproof::claims::context_of;
/// use citeproof::Span;
/// let answer = "Follow these key steps:\n\n1 [1].";
/// let at = answer.find("[1]").unwrap();
/// let context = context_of(answer, Span::new(at, at + 3)).unwrap();
/// assert_eq!(&answer[context.range()], "Follow these key steps:");
/// ```
pub fn context_of(answer: &str, marker: Span) -> Option<Span> {
    /// Lines or sentences to step back over before giving up.
    const STEPS: usize = 4;
    /// Characters one step reads back at most (so a line of thousands of markers costs
    /// each of them a bounded look).
    const LOOK_BACK: usize = 500;
    let bytes = answer.as_bytes();
    let mut end = marker.start.min(answer.len());
    for _ in 0..STEPS {
        end = answer.sub(..end).trim_end().len();
        // Back to the line break or sentence end before the stretch's own last
        // character (which may be its terminator), at most `LOOK_BACK` characters.
        let mut start = 0;
        for (n, (at, c)) in answer.sub(..end).char_indices().rev().enumerate().skip(1) {
            let next = bytes.get(at + c.len_utf8());
            let boundary = c == '\n'
                || c == '。'
                || matches!(c, '.' | '!' | '?') && next.is_none_or(u8::is_ascii_whitespace);
            if boundary || n >= LOOK_BACK {
                start = at + c.len_utf8();
                break;
            }
        }
        let segment = answer.sub(start..end);
        if segment.chars().any(char::is_alphabetic) {
            let lead = segment.len() - segment.trim_start().len();
            return Some(Span::new(start + lead, end));
        }
        if start == 0 {
            return None;
        }
        end = start;
    }
    None
}

fn is_abbreviation(before: &str) -> bool {
    /// Longer than every abbreviation: no need to read further back.
    const LONGEST: usize = 8;
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| !c.is_whitespace() && c != '(')
        .take(LONGEST + 1)
        .last()
        .map_or(before.len(), |(at, _)| at);
    let word = before.sub(word_start..);
    // Lower-cased on the stack: every abbreviation is ASCII and at most `LONGEST` bytes,
    // so a longer word is none.
    let mut lowered = [0u8; LONGEST];
    let Some(lowered) = lowered.get_mut(..word.len()) else {
        return false;
    };
    lowered.copy_from_slice(word.as_bytes());
    lowered.make_ascii_lowercase();
    ABBREVIATIONS.contains(&&*lowered)
        || (word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic()))
}

fn is_inside_number(text: &str, dot: usize) -> bool {
    let before = text.sub(..dot).chars().next_back();
    let after = text.sub(dot + 1..).chars().next();
    before.is_some_and(|c| c.is_ascii_digit()) && after.is_some_and(|c| c.is_ascii_digit())
}

fn list_marker_len(body: &str) -> usize {
    let bytes = body.as_bytes();
    match bytes.first() {
        Some(b'-' | b'*' | b'+') if bytes.get(1) == Some(&b' ') => 2,
        Some(b'0'..=b'9') => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            match (bytes.get(digits), bytes.get(digits + 1)) {
                (Some(b'.' | b')'), Some(b' ')) => digits + 2,
                _ => 0,
            }
        }
        _ => 0,
    }
}

fn is_table_separator(body: &str) -> bool {
    body.starts_with('|') && body.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(answer: &str) -> Vec<&str> {
        let markers: Vec<Span> = crate::parse::parse(answer).iter().map(|m| m.span).collect();
        split_claims(answer, &markers)
            .iter()
            .map(|c| &answer[c.span.range()])
            .collect()
    }

    #[test]
    fn abbreviations_decimals_and_versions_do_not_split() {
        assert_eq!(
            texts(
                "E.g. the U.S. economy grew 2.5% in v1.2.3 of the report [1]. Next it fell sharply [2]."
            ),
            [
                "E.g. the U.S. economy grew 2.5% in v1.2.3 of the report [1].",
                "Next it fell sharply [2]."
            ]
        );
    }

    #[test]
    fn markers_after_the_period_belong_to_the_sentence_before() {
        assert_eq!(
            texts("Prices rose quickly. [1][2] Then they fell back. [3]"),
            ["Prices rose quickly. [1][2]", "Then they fell back. [3]"]
        );
    }

    #[test]
    fn headings_questions_code_and_short_fragments_are_not_claims() {
        let answer = "## Heading here now\n\nIs this a question?\n\n```\nlet x = 1. And more code here.\n```\nOk.\n- A list item with facts [1]\n";
        assert_eq!(texts(answer), ["A list item with facts [1]"]);
    }

    #[test]
    fn table_rows_are_claims_and_separators_are_not() {
        let answer = "| Metal | Melting point |\n|---|---|\n| Iron | 1538 °C [1] |\n";
        assert_eq!(
            texts(answer),
            ["| Metal | Melting point |", "| Iron | 1538 °C [1] |"]
        );
    }

    #[test]
    fn lead_ins_ending_with_a_colon_are_not_claims() {
        assert_eq!(
            texts("Here are the main options to consider:\n- Option one is cheap [1]\n"),
            ["Option one is cheap [1]"]
        );
    }

    #[test]
    fn a_paragraph_final_marker_covers_the_sentences_before_it() {
        let answer = "First fact here. Second fact here. Third fact here. [1]\n\nAnother paragraph without any.";
        let spans: Vec<Span> = crate::parse::parse(answer).iter().map(|m| m.span).collect();
        let claims = split_claims(answer, &spans);
        assert_eq!(paragraph_final_cited(&claims), [true, true, true, false]);
        assert_eq!(
            claims.iter().map(|c| c.paragraph).collect::<Vec<_>>(),
            [1, 1, 1, 2]
        );
    }

    #[test]
    fn a_marker_outside_every_claim_stands_for_the_text_before_it() {
        fn context<'a>(answer: &'a str, marker: &str) -> Option<&'a str> {
            let at = answer.rfind(marker).expect("the marker");
            context_of(answer, Span::new(at, at + marker.len())).map(|s| &answer[s.range()])
        }
        assert_eq!(
            context("To fix it, follow these key steps:\n\n1 [1].", "[1]"),
            Some("To fix it, follow these key steps:")
        );
        assert_eq!(
            context("Encoders count pulses. Quadrature Encoder\n2 [2].", "[2]"),
            Some("Quadrature Encoder")
        );
        assert_eq!(context("Done. References: [1]", "[1]"), Some("References:"));
        assert_eq!(context("It works. 1. 2 [3]", "[3]"), Some("It works."));
        assert_eq!(context("[1]", "[1]"), None);
        assert_eq!(
            context("東京は首都。見出し😀\n1 [5]", "[5]"),
            Some("見出し😀")
        );
        assert_eq!(context("東京は首都。😀 [6]", "[6]"), Some("東京は首都。"));
        assert_eq!(context("12\n\n3 [4]", "[4]"), None);
        let long = format!("{}end [7]", "word ".repeat(400));
        let found = context(&long, "[7]").expect("a bounded stretch");
        assert!(found.len() <= 500 && found.ends_with("word end"), "{found}");
    }

    #[test]
    fn cjk_sentences_split_at_full_stops() {
        assert_eq!(
            texts("东京是日本的首都城市【1】。大阪是第二大城市之一【2】。"),
            ["东京是日本的首都城市【1】。", "大阪是第二大城市之一【2】。"]
        );
    }
}
