//! An `Input` read from arbitrary JSON text (the CLI's reader), validated with claim
//! support on: never panics, every span of the report is inside the answer.
#![no_main]
use citeproof::model::{Input, Options};
use citeproof::validate::Validator;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(input) = serde_json::from_str::<Input>(text) else {
        return;
    };
    let options = Options {
        support_threshold: Some(0.5),
        renumber: text.len() % 2 == 0,
        ..Options::default()
    };
    let Ok(report) = Validator::new(options).unwrap().validate(&input) else {
        return;
    };
    let inside = |s: citeproof::Span| input.answer.get(s.range()).is_some();
    assert!(report.markers.iter().all(|m| inside(m.span)));
    assert!(report.citations.iter().filter_map(|c| c.span).all(inside));
    assert!(report.findings.iter().filter_map(|f| f.span).all(inside));
});
