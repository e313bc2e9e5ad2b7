//! Unit tests of the line classification a stream relies on.

use super::{heading_or_break_open, is_heading_or_break, list_markers_open, may_be_list_markers};

#[test]
fn only_a_prefix_of_list_markers_may_still_become_them() {
    for open in [
        "",
        " ",
        "-",
        "- ",
        "- -",
        "+",
        "*",
        "* ",
        "2",
        "12.",
        "3)",
        "3) ",
        ">",
        "> ",
        "> - ",
        ">> 1.",
        "  - > *",
        "123456789",
    ] {
        assert!(may_be_list_markers(open.as_bytes(), 0), "{open:?}");
    }
    for settled in [
        "--",
        "---",
        "- --",
        "**",
        "__",
        "1.5",
        "1..",
        "2x",
        "1234567890",
        "-\r",
        "- x",
        ">x",
        "#",
    ] {
        assert!(!may_be_list_markers(settled.as_bytes(), 0), "{settled:?}");
    }
}

#[test]
fn a_line_of_list_markers_is_asked_again_from_its_last_marker() {
    // Asked again from where the last answer points, the grown line gets the answer
    // asked from its start would: every byte before that point is complete markers.
    for (line, grown) in [
        ("* * * ", "* * * * "),
        ("* * *", "* * * x"),
        ("> > > ", "> > > > 1."),
        ("1. 12", "1. 12) - "),
        ("- > * ", "- > * 1.5"),
        ("  -   ", "  -   ```"),
    ] {
        let at = list_markers_open(line.as_bytes(), 0).unwrap();
        assert!(at <= line.len() && at > 0, "{line:?}: {at}");
        assert_eq!(
            list_markers_open(grown.as_bytes(), at).is_some(),
            may_be_list_markers(grown.as_bytes(), 0),
            "{grown:?} from {at}"
        );
    }
    // It points at the last marker read, not the line's start.
    assert_eq!(list_markers_open(b"* * * ", 0), Some(5));
    assert_eq!(list_markers_open(b"> > 12", 0), Some(3));
}

#[test]
fn a_line_of_marks_or_hashes_is_open_while_a_byte_can_change_what_it_is() {
    // Open: some bytes more make it a heading or break, others make it paragraph text.
    for open in ["_", "__", "___", "- -", "**\r", "* * *\t", "#", "######"] {
        assert!(heading_or_break_open(open.as_bytes(), 0), "{open:?}");
        let text = |tail: &str| format!("{open}{tail}");
        let as_text = text("x\n");
        assert!(!is_heading_or_break(as_text.as_bytes(), 0), "{as_text:?}");
    }
    // Settled: nothing that follows changes it.
    for settled in ["# Title", "#x", "#######", "_a", "-_-", "Text", ""] {
        assert!(!heading_or_break_open(settled.as_bytes(), 0), "{settled:?}");
    }
}
