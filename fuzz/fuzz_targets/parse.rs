//! `parse` on arbitrary text: never panics, every span is on char boundaries and
//! slices to the marker's `raw`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for marker in citeproof::parse::parse(text) {
        assert_eq!(&text[marker.span.range()], marker.raw);
    }
});
