//! `CitationStream` fed arbitrary text in arbitrary pieces: what it shows (revisions
//! applied) is what it says it released, never more than HOLD bytes behind the construct
//! still undecided, and the end equals one-shot `validate`'s cleaned answer, report and
//! all; a prefix of the cleaned answer until something released is revisable; and no
//! revision at `finish` of text that was not.
#![no_main]
use citeproof::model::{Input, Options, Policy, Source};
use citeproof::stream::{CitationStream, HOLD, StreamEvent};
use citeproof::validate::Validator;
use libfuzzer_sys::fuzz_target;

fn sources() -> Vec<Source> {
    let source = |id: Option<&str>, text: &str| Source {
        id: id.map(str::to_string),
        text: Some(text.to_string()),
        ..Source::default()
    };
    vec![
        source(None, "Water boils at 100 degrees."),
        source(Some("abc"), "Tokyo is the capital."),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Some((&header, rest)) = data.split_first() else {
        return;
    };
    // The first four bytes after the header are piece lengths, cycled.
    let (lengths, text) = rest.split_at(rest.len().min(4));
    let Ok(answer) = std::str::from_utf8(text) else {
        return;
    };
    let options = Options {
        policy: [Policy::Clean, Policy::Flag, Policy::Strict][usize::from(header % 3)],
        renumber: header & 4 != 0,
        ..Options::default()
    };
    let one_shot = Input {
        answer: answer.to_string(),
        sources: sources(),
        ..Input::default()
    };
    let expected = Validator::new(options.clone())
        .unwrap()
        .validate(&one_shot)
        .unwrap();
    let input = Input {
        sources: sources(),
        ..Input::default()
    };
    let mut stream = CitationStream::new(input, options).unwrap();
    let (mut shown, mut at, mut k, mut revised) = (String::new(), 0, 0, false);
    while at < answer.len() {
        let length = lengths
            .get(k % lengths.len().max(1))
            .map_or(answer.len(), |&l| usize::from(l).max(1));
        let mut end = (at + length).min(answer.len());
        while !answer.is_char_boundary(end) {
            end += 1;
        }
        let pushed = stream.push(&answer[at..end]).unwrap();
        for event in &pushed.events {
            if let StreamEvent::Revise(revision) = event {
                assert_eq!(revision.span.end, shown.len());
                shown.truncate(revision.span.start);
                shown.push_str(&revision.text);
                revised = true;
            }
        }
        shown.push_str(&pushed.text);
        assert_eq!(shown, stream.released());
        // Beyond the construct still undecided, at most HOLD bytes are held back.
        let held = stream.held();
        let until = held.undecided_from.unwrap_or(stream.answer().len());
        assert!(until.saturating_sub(held.released_through) <= HOLD + 1, "{held:?}");
        if !revised && !stream.revisable() {
            assert!(expected.cleaned_answer.starts_with(&shown));
        }
        at = end;
        k += 1;
    }
    let revisable = stream.revisable();
    let finished = stream.finish().unwrap();
    if let Some(revision) = &finished.revision {
        assert!(revisable, "finish revised text that was not open");
        assert_eq!(revision.span.end, shown.len());
        shown.truncate(revision.span.start);
        shown.push_str(&revision.text);
    }
    shown.push_str(&finished.text);
    assert_eq!(shown, expected.cleaned_answer);
    assert_eq!(
        serde_json::to_string(&finished.report).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
});
