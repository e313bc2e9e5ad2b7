//! Negation cues: whether a text says "not". A claim that negates, cited to a passage in
//! which no word negates anything, states the opposite of what the passage could back
//! (docs/support.md, "Negation").

use super::words::Token;
use crate::substr::Substr;

/// English words that negate by themselves (compared without case); "n't" is read from
/// its apostrophe ([`is_cue`]).
const ENGLISH: [&str; 9] = [
    "not", "no", "never", "cannot", "none", "nobody", "nothing", "neither", "nor",
];

/// Reads a text's words in order (the scanner's tokens) and says whether one of them is
/// a negation cue:
///
/// - English: [`ENGLISH`], and `t` after an apostrophe that follows an `n` (don't,
///   isn't, can't, won't);
/// - Chinese and Japanese kanji: 不 没 沒 无 無 未 非;
/// - Japanese: ない and ませ (ません), hiragana letters read a letter a word;
/// - Korean: 않 없 못, and 아니 / 아닌.
///
/// Other languages have no cues: a claim in them is never taken to negate.
pub(super) struct Cues<'t> {
    text: &'t str,
    /// The previous word (empty before the first) and where it ends.
    previous: &'t str,
    previous_end: usize,
    /// Whether a cue was read.
    pub(super) found: bool,
}

impl<'t> Cues<'t> {
    /// Cues of `text`, whose words will be given in order.
    pub(super) fn new(text: &'t str) -> Cues<'t> {
        Cues {
            text,
            previous: "",
            previous_end: 0,
            found: false,
        }
    }

    /// The next word of the text (nothing more is read once a cue was).
    pub(super) fn token(&mut self, token: &Token) {
        if self.found {
            return;
        }
        let word = self.text.sub(token.start..token.end);
        let gap = self.text.sub(self.previous_end..token.start);
        self.found = is_cue(self.previous, gap, word);
        (self.previous, self.previous_end) = (word, token.end);
    }
}

/// Whether `word`, after `previous` and the `gap` between them, negates. Most words are
/// told apart by their first byte: every English cue starts with `n` or `c` (or is the
/// `t` of "n't"), and every other cue is a letter of three bytes.
fn is_cue(previous: &str, gap: &str, word: &str) -> bool {
    let Some(&first) = word.as_bytes().first() else {
        return false;
    };
    match first | 0x20 {
        b'n' | b'c' => word.len() <= 7 && ENGLISH.iter().any(|cue| word.eq_ignore_ascii_case(cue)),
        // The "t" of "n't": don't, isn't, can't, won't.
        b't' => {
            word.len() == 1
                && matches!(gap, "'" | "\u{2019}")
                && previous.as_bytes().last().map(u8::to_ascii_lowercase) == Some(b'n')
        }
        _ if first >= 0xe3 && word.len() == 3 => {
            // A cue of two letters: its second, right after its first.
            let after = |first: &str| gap.is_empty() && previous == first;
            match word.chars().next() {
                Some('不' | '没' | '沒' | '无' | '無' | '未' | '非' | '않' | '없' | '못') => {
                    true
                }
                Some('い') => after("な"),
                Some('せ') => after("ま"),
                Some('니' | '닌') => after("아"),
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::words::tokens;
    use super::*;

    /// Whether a word of `text` negates, its words read as a scorer reads them.
    fn negates(text: &str) -> bool {
        let mut cues = Cues::new(text);
        tokens(text).for_each(|token| cues.token(&token));
        cues.found
    }

    #[test]
    fn english_negations_are_read_with_their_apostrophes() {
        for text in [
            "It is not safe.",
            "No evidence was found.",
            "She never left.",
            "It cannot be done.",
            "Nor did he.",
            "It doesn't rain.",
            "It isn\u{2019}t true.",
            "They WON'T come.",
        ] {
            assert!(negates(text), "{text}");
        }
        for text in [
            "It is safe.",
            "Notable evidence was found.",
            "Nobel won it.",
            "The cat's toy.",
            "Don t rain.",
            "A note on noon.",
            "Nonetheless, nothingness.",
            "",
        ] {
            assert!(!negates(text), "{text}");
        }
    }

    #[test]
    fn chinese_japanese_and_korean_negations_are_read() {
        for text in [
            "他不喜欢咖啡。",
            "我没有去。",
            "男性が立っていない。",
            "雨は降りません。",
            "비가 오지 않았다.",
            "돈이 없다.",
            "그것은 사실이 아니다.",
            "사실이 아닌 이야기.",
        ] {
            assert!(negates(text), "{text}");
        }
        for text in [
            "他喜欢咖啡。",
            "男性が立っています。",
            "な い",
            "사과가 맛있다.",
            "아이가 웃는다.",
        ] {
            assert!(!negates(text), "{text}");
        }
    }
}
