//! Whether a message reports having done something ("우유계란 사왔음", "도서관 책은
//! 반납했어", "I returned the library books today"): a statement in the past tense, not a
//! question, not negated, not a report of having failed or forgotten. A to-do app's
//! completion is what such a report of a listed task asks for, though it says no action's
//! word.

use super::text::{Request, has_hangul};

/// Words that report a thing not done, or not done yet ("못 했어", "까먹었어", "forgot").
const NOT_DONE: [&str; 21] = [
    "안 ", "못 ", "못했", "안했", "않았", "까먹", "깜빡", "잊어", "잊었", "놓쳤", "아직", "실패",
    "forgot", "forget", "missed", "didn't", "didnt", "haven't", "havent", "not ", "yet",
];

/// English verbs whose past form does not end in "-ed".
const IRREGULAR_PASTS: [&str; 22] = [
    "got", "bought", "paid", "did", "done", "sent", "went", "took", "made", "wrote", "read", "ate",
    "ran", "gave", "brought", "met", "put", "sold", "found", "left", "told", "fixed",
];

/// Words that stand before the verb of an English report ("I just finished …").
const ENGLISH_OPENERS: [&str; 8] = [
    "i", "we", "just", "finally", "already", "have", "i've", "ive",
];

/// English words ending in "-ed" that are no past of a verb people report with.
const NOT_PAST: [&str; 4] = ["need", "bed", "red", "feed"];

impl Request {
    /// Whether the message reports, in the past tense, having done something — and is no
    /// question, negates nothing, and tells of nothing missed or forgotten. In Korean its
    /// last word with a Hangul syllable holds a past-tense syllable ("사왔음 ㅇㅇ",
    /// "주문했다", "반납했어."; not "있어", "하겠어"); in English its opening verb, after
    /// "I", "just" or "finally", is a past form ("I returned …", "Finished the report",
    /// "bought the milk"), or it says "already".
    pub(crate) fn reports_done(&self) -> bool {
        let lower = self.lower();
        if lower.trim_end().ends_with('?') || NOT_DONE.iter().any(|word| lower.contains(word)) {
            return false;
        }
        if self.is_korean() {
            lower
                .split_whitespace()
                .rev()
                .find(|word| has_hangul(word))
                .is_some_and(|word| word.chars().any(is_past_syllable))
        } else {
            let words: Vec<&str> = lower
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .filter(|w| !w.is_empty())
                .collect();
            let verb = words
                .iter()
                .find(|word| !ENGLISH_OPENERS.contains(word))
                .copied()
                .unwrap_or_default();
            words.contains(&"already")
                || IRREGULAR_PASTS.contains(&verb)
                || (verb.len() >= 5 && verb.ends_with("ed") && !NOT_PAST.contains(&verb))
        }
    }
}

/// Whether `syllable` carries the Korean past tense: a Hangul syllable ending in ㅆ ("했",
/// "왔", "었"), other than "있" (to be, to have) and "겠" (will).
fn is_past_syllable(syllable: char) -> bool {
    const FINAL_SSANG_SIOT: u32 = 20;
    let code = u32::from(syllable);
    (0xAC00..=0xD7A3).contains(&code)
        && (code - 0xAC00) % 28 == FINAL_SSANG_SIOT
        && !matches!(syllable, '있' | '겠')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reports(text: &str) -> bool {
        Request::new(text).reports_done()
    }

    #[test]
    fn a_past_tense_statement_reports_something_done() {
        assert!(reports("우유계란 사왔음 ㅇㅇ"));
        assert!(reports("엄마선물주문했다"));
        assert!(reports("도서관 책은 반납했어."));
        assert!(reports("I returned the library books today"));
        assert!(reports("Finished the weekly report"));
        assert!(reports("just bought the milk"));
        assert!(reports("Ordered mom's present already"));
    }

    #[test]
    fn a_question_a_plan_or_a_miss_reports_nothing_done() {
        assert!(!reports("보고서 냈어?"));
        assert!(!reports("우유 사야 돼"));
        assert!(!reports("내일 할 일 있어"));
        assert!(!reports("내일 하겠어"));
        assert!(!reports("오늘 걷기 못 했어"));
        assert!(!reports("우유 사는 거 깜빡했어"));
        assert!(!reports("아직 반납 안 했어"));
        assert!(!reports("I forgot to call the dentist"));
        assert!(!reports("I didn't finish the report"));
        assert!(!reports("Add milk to my list"));
        assert!(!reports("I need milk"));
    }
}
