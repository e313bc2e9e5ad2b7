//! Negation cues: whether a text says "not". A claim that negates, cited to a passage in
//! which no word negates anything, states the opposite of what the passage could back
//! (docs/support.md, "Negation").

use crate::substr::Substr;

/// Words that negate by themselves (compared without case), English "not" and "no" and
/// German "nicht" first ([`is_cue`] reads them by their place), then English and German
/// others, then Swahili's; "n't" is read from its apostrophe.
const WORDS: [&str; 31] = [
    "not",
    "no",
    "nicht",
    "never",
    "cannot",
    "none",
    "nobody",
    "nothing",
    "neither",
    "nor",
    "nichts",
    "nie",
    "niemals",
    "niemand",
    "niemanden",
    "niemandem",
    "nirgends",
    "nirgendwo",
    "nein",
    "kein",
    "keine",
    "keinen",
    "keinem",
    "keiner",
    "keines",
    "keinerlei",
    "keineswegs",
    "keinesfalls",
    "hakuna",
    "hamna",
    "hapana",
];

/// Urdu's "not" (nahīṅ), also in "never" (کبھی نہیں) and "nobody" (کوئی نہیں).
const URDU_NOT: &str = "نہیں";

/// Reads a text's words in order (the scanner's tokens) and says whether one of them is
/// a negation cue:
///
/// - English ([`WORDS`]): "not" unless "only" follows, "no" unless a full stop and a
///   number follow ("No. 5"), "never", "cannot", "none", "nobody", "nothing",
///   "neither", "nor", and `t` after an apostrophe (`'`, `’`, `‘`) that follows an `n`
///   (don't, isn't, can't, won't);
/// - German ([`WORDS`]): "nicht" unless "nur" follows ("nicht nur … sondern auch"),
///   "nichts", "nie", "niemals", "niemand" with its endings, "nirgends", "nirgendwo",
///   "nein", and "kein" with its endings, "keinerlei", "keineswegs", "keinesfalls";
/// - Chinese and Japanese kanji: 沒, and 没 不 无 無 非 未 unless a letter follows that
///   makes them part of another word: 没收 "confiscate"; 不断 不斷 "constantly", 不但 不仅
///   不僅 "not only", 不过 不過 "but"; 无论 無論 "whatever"; 無料 "free"; 非常 "very", 非洲
///   "Africa"; 未来 未來 "future";
/// - Japanese: ない, なかった and せん (ません), hiragana letters read a letter a word; not
///   the な of 少ない "few", 危ない "dangerous" and 行ない "conduct" ([`negating_na`]);
/// - Korean: 않 없 못 and 아니 아닌 아닙, each starting a word (연못 "pond", 끊임없이
///   "constantly" and 피아니스트 "pianist" hold the letters inside one), 못 not as a noun
///   with its particle (못을 "the nail"), 아니 not in 아니면 "or". Not 안, which
///   negates a verb (안 갔다 "did not go") but is also "inside" (교실 안 학생들) and the
///   name Ahn (안 교수);
/// - Urdu: نہیں "not" ([`URDU_NOT`]; not نہ, which is also "nor" and "not only" (نہ صرف));
/// - Swahili ([`WORDS`]): "hakuna" and "hamna" "there is not", "hapana" "no". Not a verb
///   its prefix negates (hakuwa "was not", sijawahi "never"): reading those cost the
///   browser core 303 B for a few thousandths of AUROC (docs/support.md).
///
/// Other languages have no cues of their own (Spanish and Portuguese "no" is read as
/// English's).
pub(super) struct Cues<'t> {
    text: &'t str,
    /// Whether a cue was read.
    found: bool,
}

impl<'t> Cues<'t> {
    /// Cues of `text`, whose words will be given in order.
    pub(super) fn new(text: &'t str) -> Cues<'t> {
        Cues { text, found: false }
    }

    /// The next word of the text (nothing more is read once a cue was). Inlined: most
    /// words are told by their first byte and length, no cue, in a few instructions per
    /// word of every source (the rest is [`is_cue`]; natively, for the sixteenth
    /// session's reader, 8 % more instructions for `validate` of a request whose cited
    /// claims negate without the hint, 6 % with it: BENCHMARKS.md).
    #[inline]
    pub(super) fn word(&mut self, start: usize, end: usize) {
        if self.found {
            return;
        }
        let first = self.text.as_bytes().get(start).copied().unwrap_or(0);
        let len = end - start;
        let maybe = match first | 0x20 {
            b'n' => (2..=9).contains(&len),
            b'c' => len == 6,
            b'k' => (4..=11).contains(&len),
            b'h' => (5..=6).contains(&len),
            b't' => len == 1,
            _ => {
                (first >= 0xe3 && len == 3)
                    || (first == URDU_NOT.as_bytes()[0] && len == URDU_NOT.len())
            }
        };
        if maybe {
            self.found = is_cue(self.text, start..end);
        }
    }

    /// Whether a cue was read.
    pub(super) fn found(&self) -> bool {
        self.found
    }
}

/// Whether the word of `text` at `at` negates, read with the text around it. Every
/// English and German cue starts with `n`, `c` or `k` (or is the `t` of "n't"), every
/// Swahili one with `h`, Urdu's is [`URDU_NOT`], and every other cue is a letter of three
/// bytes.
#[inline(never)]
fn is_cue(text: &str, at: std::ops::Range<usize>) -> bool {
    let (before, word, after) = (
        text.sub(..at.start),
        text.sub(at.clone()),
        text.sub(at.end..),
    );
    // The next word's text, after ASCII spaces or none.
    let next = after.trim_ascii_start();
    let next_is = |letters: &str| starts_with_one_of(next, letters);
    let Some(&first) = word.as_bytes().first() else {
        return false;
    };
    match first | 0x20 {
        b'n' | b'c' | b'k' | b'h' if word.len() <= 11 => {
            match WORDS.iter().position(|cue| word.eq_ignore_ascii_case(cue)) {
                // Not "not only" (but "not onlooking"), "nicht nur".
                Some(0) => !next_is_word(next, "only"),
                Some(2) => !next_is_word(next, "nur"),
                // "No. 5": a number, not a "no".
                Some(1) => !(after.strip_prefix('.')).is_some_and(|rest| {
                    rest.trim_ascii_start()
                        .starts_with(|c: char| c.is_ascii_digit())
                }),
                Some(_) => true,
                None => false,
            }
        }
        // The "t" of "n't": don't, isn't, can't, won't.
        b't' => {
            word.len() == 1
                && (before.strip_suffix(['\'', '\u{2019}', '\u{2018}']))
                    .is_some_and(|ahead| ahead.ends_with(['n', 'N']))
        }
        _ if word == URDU_NOT => true,
        _ if first >= 0xe3 && word.len() == 3 => {
            // 아 starting a word right before this letter.
            let after_a = before.strip_suffix('아').is_some_and(word_starts);
            match word.chars().next() {
                Some('沒') => true,
                Some('没') => !next_is("收"),
                Some('无') => !next_is("论"),
                Some('無') => !next_is("料論"),
                Some('不') => !next_is("断斷但过過仅僅"),
                Some('非') => !next_is("常洲"),
                Some('未') => !next_is("来來"),
                Some('않' | '없') => word_starts(before),
                // 못을 박았다: a nail, a noun with its particle.
                Some('못') => word_starts(before) && !next_is("을이은에도"),
                Some('い') => before.strip_suffix('な').is_some_and(negating_na),
                // なかった: the past (not かっこ "look" after a な).
                Some('っ') => {
                    after.starts_with('た')
                        && (before.strip_suffix('か'))
                            .and_then(|ahead| ahead.strip_suffix('な'))
                            .is_some_and(negating_na)
                }
                Some('ん') => before.ends_with('せ'),
                // 아니면: "or".
                Some('니') => after_a && !next_is("면"),
                Some('닌' | '닙') => after_a,
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether `text` starts with one of `letters` (each of three bytes, of a script written
/// without spaces: a letter is a word).
fn starts_with_one_of(text: &str, letters: &str) -> bool {
    (text.as_bytes().get(..3)).is_some_and(|n| letters.as_bytes().chunks(3).any(|l| l == n))
}

/// Whether a な after `ahead` negates: not that of the adjectives 少ない "few" and 危ない
/// (あぶない) "dangerous", nor of the verb 行なう "conduct". (Not すくない either: it
/// ends 読みやすくない "not easy to read", a negation.)
fn negating_na(ahead: &str) -> bool {
    !(ahead.ends_with(['少', '危', '行']) || ahead.ends_with("あぶ"))
}

/// Whether `next`, the text from the next word on, starts with the ASCII word `word`
/// (compared without case) ending there.
fn next_is_word(next: &str, word: &str) -> bool {
    next.get(..word.len())
        .is_some_and(|n| n.eq_ignore_ascii_case(word))
        && !next
            .as_bytes()
            .get(word.len())
            .is_some_and(u8::is_ascii_alphanumeric)
}

/// Whether `text` ends where a word may start (no letter or digit right before).
fn word_starts(text: &str) -> bool {
    !text.chars().next_back().is_some_and(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::super::words::tokens;
    use super::*;

    /// Whether a word of `text` negates, its words read as a scorer reads them.
    fn negates(text: &str) -> bool {
        let mut cues = Cues::new(text);
        tokens(text).for_each(|token| cues.word(token.start, token.end));
        cues.found()
    }

    /// Asserts that each of `negating` negates and none of `plain` does.
    fn cues_in(negating: &[&str], plain: &[&str]) {
        for text in negating {
            assert!(negates(text), "{text}");
        }
        for text in plain {
            assert!(!negates(text), "{text}");
        }
    }

    #[test]
    fn every_listed_word_is_a_cue_in_any_case() {
        // The first-byte-and-length test in `Cues::word` must let each through.
        for word in WORDS {
            for written in [word.to_string(), word.to_uppercase()] {
                assert!(negates(&format!("x {written} y")), "{written}");
            }
        }
    }

    #[test]
    fn english_negations_are_read_with_their_apostrophes() {
        cues_in(
            &[
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
                "No more.",
                "The answer is no.",
                "No, 5 people came.",
                "No 5 people came.",
                "He was not onlooking.",
            ],
            &[
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
                "It ranked No. 1 in 2020.",
                "The No.5 perfume.",
                "",
            ],
        );
    }

    #[test]
    fn german_negations_are_read() {
        cues_in(
            &[
                "Sie las keinen Brief.",
                "Der Hund bellt nicht.",
                "Keine Gäste kamen.",
                "Wir fanden keinen Schlüssel.",
                "Es regnet nie im Juli.",
                "Sie sah niemanden.",
                "Er gab es niemandem.",
                "Wir fanden ihn nirgends.",
                "Nein, das stimmt.",
                "Das ist keineswegs sicher.",
                "Er hatte keinerlei Zweifel.",
                "Keinesfalls heute.",
                "Nicht nurse.",
                "Niemand half.",
                "Er sagte nichts.",
                "Er kam niemals.",
                "Keiner kam.",
                "In keinem Fall.",
                "Keines der Kinder.",
            ],
            &[
                "Die Kinder gingen ins Kino.",
                "Seine Nichte kam nieder.",
                "Die Niere ist gesund.",
                "Ein kleiner Kerl.",
                "Er ist nicht nur Arzt, sondern auch Autor.",
                "Nicht nur heute.",
                "Das Niemandsland, die Nichtraucher.",
            ],
        );
    }

    #[test]
    fn urdu_and_swahili_negations_are_read() {
        cues_in(
            &[
                "وہ گھر نہیں گیا۔",
                "میں نے کبھی نہیں دیکھا۔",
                "Hakuna matatizo.",
                "Hamna maji.",
                "Hapana, asante.",
                "HAKUNA",
            ],
            &[
                "وہ گھر گیا۔",
                "نہ صرف یہ بلکہ وہ بھی۔",
                "Habari za asubuhi.",
                "Hata yeye alikuja.",
                "Hali ni nzuri.",
                "Siku ya kwanza.",
                "Hazina ya taifa.",
                "Hakunamatata.",
                "History of the household.",
                "Hamnavoe, Hapanan.",
            ],
        );
    }

    #[test]
    fn chinese_japanese_and_korean_negations_are_read() {
        cues_in(
            &[
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
                "ない",
                "男性は立っていなかった。",
                "雨は降らなかった。",
                "少なくなかった。",
                "この本は読みやすくない。",
                "読みやすくなかった。",
                "雲一つない空。",
            ],
            &[
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
                "人が少ない。",
                "道が危ない。",
                "人が少なかった。",
                "危なかった。",
                "なかなか良い。",
                "かった",
                "집 안에 있다.",
                "안녕하세요.",
                "안전하다.",
                "교실 안 학생들은 조용했다.",
                "안 교수가 발표했다.",
                "あぶなかった。",
                "みんなかっこいい。",
                "調査を行ないます。",
            ],
        );
    }
}
