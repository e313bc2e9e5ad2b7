//! Substrings by byte range, `text.sub(a..b)` where std would write `&text[a..b]`.
//!
//! Both panic on a range off the text's char boundaries (a bug: every range here comes
//! from the scanner's own spans). They differ in the message: std's (`str::slice_error_fail`)
//! names the char the range cuts with `{:?}`, which brings Rust's Unicode printability
//! tables and the char escaping into the module, about 5 KB of the browser core's raw
//! wasm (docs/perf-log.md, issue 35). Here the message is fixed and the location is the
//! caller's. `clippy::string_slice` is on for the crate (src/lib.rs), so a new `&text[..]`
//! is caught.

use std::slice::SliceIndex;

/// `sub`, the panicking substring without std's char-escaping message.
pub(crate) trait Substr {
    /// The substring at `range` (byte offsets); panics, as `&self[range]` does, when
    /// the range is out of bounds or off a char boundary.
    fn sub<R: SliceIndex<str, Output = str>>(&self, range: R) -> &str;
}

impl Substr for str {
    #[inline]
    #[track_caller]
    fn sub<R: SliceIndex<str, Output = str>>(&self, range: R) -> &str {
        match self.get(range) {
            Some(part) => part,
            None => off_boundary(),
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn off_boundary() -> ! {
    panic!("a byte range out of a text's bounds or off its char boundaries")
}

#[cfg(test)]
mod tests {
    use super::Substr;

    #[test]
    fn takes_what_indexing_takes() {
        let text = "a東京🙂z";
        assert_eq!(text.sub(1..4), "東");
        assert_eq!(text.sub(7..), "🙂z");
        assert_eq!(text.sub(..1), "a");
        assert_eq!(text.sub(..), text);
    }

    #[test]
    #[should_panic(expected = "off its char boundaries")]
    fn panics_off_a_char_boundary() {
        let _ = "東京".sub(1..3);
    }

    #[test]
    #[should_panic(expected = "out of a text's bounds")]
    fn panics_out_of_bounds() {
        let _ = "abc".sub(2..9);
    }
}
