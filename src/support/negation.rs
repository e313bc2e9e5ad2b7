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
/// - English: [`ENGLISH`] ("not" unless "only" follows), and `t` after an apostrophe
///   (`'`, `’`, `‘`) that follows an `n` (don't, isn't, can't, won't);
/// - Chinese and Japanese kanji: 沒, and 没 不 无 無 非 未 unless a letter follows that
///   makes them part of another word: 没收 "confiscate"; 不断 不斷 "constantly", 不但 不仅
///   不僅 "not only", 不过 不過 "but"; 无论 無論 "whatever"; 無料 "free"; 非常 "very", 非洲
///   "Africa"; 未来 未來 "future";
/// - Japanese: ない and せん (ません), hiragana letters read a letter a word;
/// - Korean: 않 없 못 and 아니 아닌 아닙, each starting a word (연못 "pond", 끊임없이
///   "constantly" and 피아니스트 "pianist" hold the letters inside one), 못 not as a noun
///   with its particle (못을 "the nail"), 아니 not in 아니면 "or".
///
/// Other languages have no cues of their own (Spanish and Portuguese "no" is read as
/// English's).
pub(super) struct Cues<'t> {
    text: &'t str,
    /// Where the previous word starts and ends (`0..0` before the first), and whether it
    /// starts a word of a script written with spaces (a gap, or the text's start, before
    /// it).
    previous: std::ops::Range<usize>,
    previous_starts: bool,
    /// A cue read whose next word may still undo it, with the words that would.
    pending: Option<&'static [&'static str]>,
    /// Whether a cue was read.
    found: bool,
}

/// What a word says of negation.
enum Cue {
    No,
    Yes,
    /// A cue, unless the next word, after spaces or nothing, is one of these.
    Unless(&'static [&'static str]),
}

impl<'t> Cues<'t> {
    /// Cues of `text`, whose words will be given in order.
    pub(super) fn new(text: &'t str) -> Cues<'t> {
        Cues {
            text,
            previous: 0..0,
            previous_starts: true,
            pending: None,
            found: false,
        }
    }

    /// The next word of the text (nothing more is read once a cue was). Inlined: most
    /// words are told by their first byte and length, no cue and none to undo, in a few
    /// instructions per word of every source (the rest is [`Cues::read`]; natively,
    /// 8 % more instructions for `validate` of a request whose cited claims negate
    /// without the hint, 6 % with it).
    #[inline]
    pub(super) fn token(&mut self, token: &Token) {
        if self.found {
            return;
        }
        let first = self.text.as_bytes().get(token.start).copied().unwrap_or(0);
        let len = token.end - token.start;
        let maybe = match first | 0x20 {
            b'n' | b'c' => (2..=7).contains(&len),
            b't' => len == 1,
            _ => first >= 0xe3 && len == 3,
        };
        let starts = token.start != self.previous.end || self.previous.end == 0;
        if maybe || self.pending.is_some() {
            self.read(token, starts);
        }
        self.previous = token.start..token.end;
        self.previous_starts = starts;
    }

    /// A word that may be a cue or undo one (`starts`: whether it starts a word).
    #[inline(never)]
    fn read(&mut self, token: &Token, starts: bool) {
        let text = self.text;
        let word = text.sub(token.start..token.end);
        let gap = text.sub(self.previous.end..token.start);
        if let Some(undo) = self.pending.take() {
            let undone = gap.bytes().all(|b| b.is_ascii_whitespace())
                && undo.iter().any(|w| word.eq_ignore_ascii_case(w));
            if !undone {
                self.found = true;
                return;
            }
        }
        let previous = text.sub(self.previous.clone());
        match is_cue(previous, self.previous_starts, gap, word, starts) {
            Cue::Yes => self.found = true,
            Cue::Unless(undo) => self.pending = Some(undo),
            Cue::No => {}
        }
    }

    /// Whether a cue was read (one the text ended before undoing counts).
    pub(super) fn found(&self) -> bool {
        self.found || self.pending.is_some()
    }
}

/// What `word` says of negation, after `previous` (which `previous_starts` a word) and
/// the `gap` between them; `starts`: whether `word` starts a word. Every English cue
/// starts with `n` or `c` (or is the `t` of "n't"), and every other cue is a letter of
/// three bytes.
fn is_cue(previous: &str, previous_starts: bool, gap: &str, word: &str, starts: bool) -> Cue {
    let Some(&first) = word.as_bytes().first() else {
        return Cue::No;
    };
    let cue = |yes: bool| if yes { Cue::Yes } else { Cue::No };
    match first | 0x20 {
        b'n' | b'c'
            if word.len() <= 7 && ENGLISH.iter().any(|cue| word.eq_ignore_ascii_case(cue)) =>
        {
            if word.eq_ignore_ascii_case("not") {
                Cue::Unless(&["only"])
            } else {
                Cue::Yes
            }
        }
        // The "t" of "n't": don't, isn't, can't, won't.
        b't' => cue(word.len() == 1
            && matches!(gap, "'" | "\u{2019}" | "\u{2018}")
            && previous.as_bytes().last().map(u8::to_ascii_lowercase) == Some(b'n')),
        _ if first >= 0xe3 && word.len() == 3 => {
            // A cue of two letters: its second, right after its first.
            let after = |first: &str| gap.is_empty() && previous == first;
            match word.chars().next() {
                Some('沒') => Cue::Yes,
                Some('没') => Cue::Unless(&["收"]),
                Some('无') => Cue::Unless(&["论"]),
                Some('無') => Cue::Unless(&["料", "論"]),
                Some('不') => Cue::Unless(&["断", "斷", "但", "过", "過", "仅", "僅"]),
                Some('非') => Cue::Unless(&["常", "洲"]),
                Some('未') => Cue::Unless(&["来", "來"]),
                Some('않' | '없') => cue(starts),
                // 못을 박았다: a nail, a noun with its particle.
                Some('못') if starts => Cue::Unless(&["을", "이", "은", "에", "도"]),
                Some('い') => cue(after("な")),
                Some('ん') => cue(after("せ")),
                // 아니면: "or".
                Some('니') if after("아") && previous_starts => Cue::Unless(&["면"]),
                Some('닌' | '닙') => cue(after("아") && previous_starts),
                _ => Cue::No,
            }
        }
        _ => Cue::No,
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
        cues.found()
    }

    #[test]
    fn english_negations_are_read_with_their_apostrophes() {
        for text in [
            "It is not safe.",
            "No evidence was found.",
            "She never left.",
            "It cannot be done.",
            "None came.",
            "Nobody came.",
            "Nothing came.",
            "Neither came.",
            "Nor did he.",
            "It doesn't rain.",
            "It isn\u{2019}t true.",
            "It isn\u{2018}t true.",
            "They WON'T come.",
            "It is not.",
            "It did not, only later.",
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
            "The rat't ran.",
            "It was not only cheap but also good.",
            "Not only that, but the rest.",
            "It was not\nonly cheap.",
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
            "我沒有去。",
            "他无法去。",
            "他無法去。",
            "他未曾去过。",
            "这并非如此。",
            "他从不。",
            "未",
            "男性が立っていない。",
            "雨は降りません。",
            "비가 오지 않았다.",
            "돈이 없다.",
            "그는 못 간다.",
            "못 간다.",
            "그것은 사실이 아니다.",
            "아니다.",
            "사실이 아닌 이야기.",
            "사실이 아닙니다.",
        ] {
            assert!(negates(text), "{text}");
        }
        for text in [
            "他喜欢咖啡。",
            "男性が立っています。",
            "な い",
            "写真を見せる。",
            "本を読ませる。",
            "사과가 맛있다.",
            "아이가 웃는다.",
            "그는 일합니다.",
            "피아니스트가 연주한다.",
            "연못이 깊다.",
            "그는 끊임없이 일한다.",
            "못을 박았다.",
            "커피 아니면 차.",
            "他非常喜欢咖啡。",
            "他去了非洲。",
            "未来经济将增长。",
            "未來經濟將增長。",
            "他不断努力。",
            "他不斷努力。",
            "不但便宜，而且好吃。",
            "不仅便宜。",
            "不僅便宜。",
            "不过很贵。",
            "不過很貴。",
            "无论如何。",
            "無論如何。",
            "無料です。",
            "他没收了。",
        ] {
            assert!(!negates(text), "{text}");
        }
    }
}
