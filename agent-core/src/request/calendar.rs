//! The other ways people write the calendar's words that value labels use: the chat
//! spellings of Korean ("낼" for "내일", "담주" for "다음주", "월욜" for "월요일") and the English
//! words ("tomorrow", "friday", "march"). A provider that labels a date "내일 (2025-03-11)" or
//! "다음주 금요일" is then named by "낼까지", "담주 금욜" and "due Friday" too, without every
//! app listing these words for every date it offers.

/// A calendar word as labels write it, and the other ways a request writes it. Korean
/// spellings must start a word of the request ("낼" is not in "보낼"); English ones stand as
/// whole words.
const CALENDAR: &[(&str, &[&str])] = &[
    ("오늘", &["today", "tonight"]),
    ("내일", &["낼", "tomorrow"]),
    ("모레", &["낼모레", "내일모레", "day after tomorrow"]),
    ("어제", &["yesterday"]),
    ("그저께", &["그제", "엊그제"]),
    ("이번주", &["이번 주", "this week"]),
    ("다음주", &["다음 주", "담주", "next week"]),
    ("지난주", &["지난 주", "저번주", "저번 주", "last week"]),
    ("이번달", &["이번 달", "this month"]),
    ("다음달", &["다음 달", "담달", "next month"]),
    ("지난달", &["지난 달", "저번달", "저번 달", "last month"]),
    ("월요일", &["월욜", "monday"]),
    ("화요일", &["화욜", "tuesday"]),
    ("수요일", &["수욜", "wednesday"]),
    ("목요일", &["목욜", "thursday"]),
    ("금요일", &["금욜", "friday"]),
    ("토요일", &["토욜", "saturday"]),
    ("일요일", &["일욜", "sunday"]),
    ("1월", &["january"]),
    ("2월", &["february"]),
    ("3월", &["march"]),
    ("4월", &["april"]),
    // Not "may": "may I …" names no month.
    ("5월", &[]),
    ("6월", &["june"]),
    ("7월", &["july"]),
    ("8월", &["august"]),
    ("9월", &["september"]),
    ("10월", &["october"]),
    ("11월", &["november"]),
    ("12월", &["december"]),
];

/// The other ways a request may write `term` (a lower-cased word or phrase of a value's
/// label or words): each calendar word in it replaced by its other spellings, one word at a
/// time and together ("다음주 금요일" → "담주 금요일", "다음주 금욜", "담주 금욜", …).
/// Empty when `term` holds no calendar word. A term that is more than a calendar word ("내일
/// 회의") keeps its other words, so it stays as specific as it was.
pub(super) fn variants(term: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![term.to_owned()];
    for (word, others) in CALENDAR {
        if !contains_word(term, word) {
            continue;
        }
        let mut more = Vec::new();
        for written in &out {
            for other in *others {
                more.push(written.replacen(word, other, 1));
            }
        }
        out.extend(more);
    }
    out.retain(|variant| variant != term);
    out
}

/// Whether `word` stands in `term` where no digit runs into it ("1월" is not in "11월").
fn contains_word(term: &str, word: &str) -> bool {
    term.match_indices(word).any(|(at, _)| {
        !term[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calendar_word_has_its_chat_and_english_spellings() {
        let tomorrow = variants("내일");
        assert!(tomorrow.contains(&"낼".to_owned()));
        assert!(tomorrow.contains(&"tomorrow".to_owned()));
        let friday = variants("다음주 금요일");
        for expected in [
            "담주 금요일",
            "다음주 금욜",
            "담주 금욜",
            "next week friday",
        ] {
            assert!(friday.contains(&expected.to_owned()), "{expected}");
        }
        assert!(variants("11월").contains(&"november".to_owned()));
        assert!(!variants("11월").contains(&"1january".to_owned()));
        assert!(variants("치과 예약").is_empty());
    }
}
