//! Arbitrary text through the JSON reader and, when it parses, through every provider
//! adapter and `validate`: no panic, and every declared span is inside the answer.
#![no_main]
use citeproof::model::{Loose, Options};
use citeproof::providers::{Json, Provider, adapt};
use citeproof::validate::Validator;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(json) = Json::parse(text) else { return };
    let validator = Validator::new(Options::default()).unwrap();
    for provider in Provider::ALL {
        let Ok(input) = adapt(provider, &json, None) else {
            continue;
        };
        for citation in input.citations.iter().flatten() {
            if let Some(Loose::Valid(span)) = citation.span {
                assert!(input.answer.get(span.range()).is_some());
            }
        }
        let _ = validator.validate(&input);
    }
});
