//! `CitationStream` fed arbitrary text in arbitrary pieces: what it releases is always a
//! prefix of one-shot `validate`'s cleaned answer, and the end equals it, report and all.
#![no_main]
use citeproof::model::{Input, Options, Policy, Source};
use citeproof::stream::CitationStream;
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
    let (mut shown, mut at, mut k) = (String::new(), 0, 0);
    while at < answer.len() {
        let length = lengths
            .get(k % lengths.len().max(1))
            .map_or(answer.len(), |&l| usize::from(l).max(1));
        let mut end = (at + length).min(answer.len());
        while !answer.is_char_boundary(end) {
            end += 1;
        }
        shown.push_str(&stream.push(&answer[at..end]).unwrap().text);
        assert!(expected.cleaned_answer.starts_with(&shown));
        at = end;
        k += 1;
    }
    let finished = stream.finish().unwrap();
    shown.push_str(&finished.text);
    assert_eq!(shown, expected.cleaned_answer);
    assert_eq!(
        serde_json::to_string(&finished.report).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
});
