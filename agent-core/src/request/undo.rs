//! Whether a request asks to take back the last action ("방금 거 취소해줘", "되돌려줘",
//! "undo that"): the runtime's own words for it, the same in every app, Korean and English.
//!
//! A strong word for undoing ("되돌려", "없던 걸로", "undo") is enough. "취소" and "cancel"
//! name many actions of their own (an app may cancel orders), so they count only with a word
//! that points at the last action ("방금", "아까", "그거", "that", "last") or as nearly the
//! whole message ("취소!", "cancel it"). A negated word ("취소하지 마") does not count.

use super::text::{Request, Said};

/// Words that ask to undo by themselves (lower-cased stems).
const UNDO_WORDS: &[&str] = &[
    "되돌",
    "되돌려",
    "돌려놔",
    "돌려 놔",
    "없던 걸로",
    "없던 일로",
    "없었던 걸로",
    "없었던 일로",
    "원래대로",
    "원상복구",
    "무를",
    "물러",
    "undo",
    "revert",
    "roll back",
    "rollback",
    "take it back",
    "take that back",
];

/// Words that ask to cancel something, an undo only of the last action.
const CANCEL_WORDS: &[&str] = &["취소", "cancel"];

/// Words that point at the last action.
const LAST_ACTION: &[&str] = &[
    "방금",
    "아까",
    "마지막",
    "그거",
    "그걸",
    "그것",
    "이거",
    "이걸",
    "that",
    "it",
    "last",
    "previous",
    "just now",
];

/// At most this many words make a message that is nearly only "취소" ("취소해줘 그냥").
const SHORT_WORDS: usize = 2;

impl Request {
    /// Whether the message asks to undo the last action; see the module doc.
    pub(crate) fn asks_undo(&self) -> bool {
        let asked = |words: &[&str]| words.iter().any(|w| self.said(w) == Said::Asked);
        if asked(UNDO_WORDS) {
            return true;
        }
        if !asked(CANCEL_WORDS) {
            return false;
        }
        let short = self.lower().split_whitespace().count() <= SHORT_WORDS;
        short || LAST_ACTION.iter().any(|w| self.points_at(w))
    }

    /// Whether `word` stands in the message as a word of its own (an English word not inside
    /// another; a Korean one anywhere, as particles attach to it).
    fn points_at(&self, word: &str) -> bool {
        if !word.is_ascii() {
            return self.lower().contains(word);
        }
        let lower = self.lower();
        lower.match_indices(word).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + word.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asks(text: &str) -> bool {
        Request::new(text).asks_undo()
    }

    #[test]
    fn the_last_action_is_taken_back() {
        for text in [
            "방금 거 취소해줘",
            "아까 그거 취소",
            "취소해줘",
            "되돌려줘",
            "방금 한 거 없던 걸로 해줘",
            "원래대로 돌려놔",
            "undo that",
            "Undo",
            "cancel that",
            "please cancel the last one",
        ] {
            assert!(asks(text), "{text}");
        }
    }

    #[test]
    fn other_cancels_and_negations_are_not_an_undo() {
        for text in [
            "주문 취소해줘 3번 주문",
            "예약 취소하고 싶어요 내일 거",
            "취소하지 마",
            "되돌리지 말고 그대로 둬",
            "cancel my order 42 please",
            "don't undo",
            "오늘 걷기 했어",
        ] {
            assert!(!asks(text), "{text}");
        }
    }
}
