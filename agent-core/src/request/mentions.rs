//! Which of a parameter's values a request mentions: by the value itself, or by a word of its
//! label or one of its other words.

use serde_json::Value;

use super::calendar;
use super::numbers::{digit_spans, writes};
use super::particles::TRAILING_PARTICLES;
use super::text::Request;
use crate::tool::ValueChoice;

/// Which of `choices` the request mentions: by the value itself, or by a word of its label
/// or one of its [`words`](ValueChoice::words) (words of digits alone do not count) — a
/// calendar word also by its other spellings ("낼", "tomorrow" for "내일"; see `calendar`) —
/// matched against the lower-cased request. Where a word of one value lies inside a longer word of
/// another at the same place ("했" inside "못 했"), only the longer one is mentioned there.
pub(crate) fn mentioned(request: &Request, choices: &[ValueChoice]) -> Vec<bool> {
    let request = request.lower();
    let spans: Vec<Vec<(usize, usize)>> = choices.iter().map(|c| spans(request, c)).collect();
    spans
        .iter()
        .enumerate()
        .map(|(i, own)| {
            own.iter().any(|&(start, end)| {
                !spans.iter().enumerate().any(|(j, other)| {
                    j != i
                        && other
                            .iter()
                            .any(|&(s, e)| s <= start && end <= e && e - s > end - start)
                })
            })
        })
        .collect()
}

/// What may follow a value named on its own in a short follow-up ("3번은?", "보리차도", "어제두",
/// "책 읽기는요?"), besides the particles that follow any name.
const FOLLOW_UP_TAILS: &[&str] = &[
    "도", "두", "만", "이", "요", "은요", "는요", "도요", "이요", "만요",
];

/// Which of `choices` the request names as words of their own (see [`mentioned`]): where the
/// rest of the word after the mention is nothing, a particle, or "번" and a particle — "3번은?",
/// "보리차도", "and habit 2?" name a value; "감사합니다" does not name "감사 일기".
pub(crate) fn named_as_words(request: &Request, choices: &[ValueChoice]) -> Vec<bool> {
    let lower = request.lower();
    mentioned(request, choices)
        .into_iter()
        .zip(choices)
        .map(|(said, choice)| {
            said && spans(lower, choice)
                .into_iter()
                .any(|(_, end)| ends_as_a_name(lower, end))
        })
        .collect()
}

/// Whether the word of `text` that a mention ends at `end` in goes on with a particle at most.
fn ends_as_a_name(text: &str, end: usize) -> bool {
    let rest = text[end..]
        .split(char::is_whitespace)
        .next()
        .unwrap_or_default();
    let rest = rest.trim_end_matches(|c: char| !c.is_alphanumeric());
    let rest = rest.strip_prefix('번').unwrap_or(rest);
    rest.is_empty()
        || FOLLOW_UP_TAILS.contains(&rest)
        || TRAILING_PARTICLES
            .iter()
            .any(|(particle, _)| *particle == rest)
}

/// Which of `choices` the request names as the value something becomes: a mention followed,
/// at the end of its word or of the next one, by the particle "(으)로" ("쉰 날로 바꿔줘",
/// "blank로", "완료로 고쳐줘"), or preceded by "to" or "as" ("mark it as blank"). A request
/// that mentions two values of one parameter — the old one and the new — says which it wants
/// this way.
pub(crate) fn targeted(request: &Request, choices: &[ValueChoice]) -> Vec<bool> {
    let lower = request.lower();
    choices
        .iter()
        .map(|choice| {
            spans(lower, choice)
                .into_iter()
                .any(|(start, end)| becomes(lower, start, end))
        })
        .collect()
}

/// Whether the mention at `start..end` of `text` is marked as what something becomes.
/// Which of `choices` the request mentions only as the one *not* meant: every mention of it
/// is followed, at the end of its word or by the next word, by "말고", "대신" or "아니고"
/// ("2번 말고 1번", "걷기 대신 독서"), or preceded by "not" or "instead of" ("not 2, 1"). A
/// request that mentions two values of one parameter this way says which it does not want.
pub(crate) fn set_aside(request: &Request, choices: &[ValueChoice]) -> Vec<bool> {
    const AFTER: [&str; 3] = ["말고", "대신", "아니고"];
    let lower = request.lower();
    let aside = |start: usize, end: usize| {
        let before = lower[..start].trim_end();
        if before.ends_with("not") || before.ends_with("instead of") {
            return true;
        }
        let rest = &lower[end..];
        let own: &str = rest.split(char::is_whitespace).next().unwrap_or_default();
        let next = rest[own.len()..]
            .split_whitespace()
            .next()
            .unwrap_or_default();
        AFTER
            .iter()
            .any(|word| own.ends_with(word) || next.starts_with(word))
    };
    choices
        .iter()
        .map(|choice| {
            let spans = spans(lower, choice);
            !spans.is_empty() && spans.iter().all(|&(start, end)| aside(start, end))
        })
        .collect()
}

fn becomes(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].trim_end();
    if before.ends_with(" to") || before.ends_with(" as") || before == "to" || before == "as" {
        return true;
    }
    let rest = &text[end..];
    let own: &str = rest.split(char::is_whitespace).next().unwrap_or_default();
    let next = if own.is_empty() {
        rest.split_whitespace().next().unwrap_or_default()
    } else {
        own
    };
    let next = next.trim_end_matches(|c: char| !c.is_alphanumeric());
    next.ends_with('로') && !next.ends_with("도로")
}

/// Where in the lower-cased `request` `choice` is mentioned, as byte ranges.
fn spans(request: &str, choice: &ValueChoice) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    match &choice.value {
        Value::String(text) => out.extend(term_spans(request, &text.to_lowercase())),
        _ => out.extend(digit_spans(request).filter(|&span| writes(request, span, choice))),
    }
    let label = choice.label.to_lowercase();
    let words = label
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_owned)
        .chain(choice.words.iter().map(|w| w.trim().to_lowercase()))
        .filter(|word| !word.chars().all(|c| c.is_ascii_digit()));
    for word in words {
        out.extend(term_spans(request, &word));
        // The calendar's other spellings ("낼" for "내일", "friday" for "금요일"): a Korean
        // one where it starts a word ("낼" is not in "보낼").
        for variant in calendar::variants(&word) {
            out.extend(term_spans(request, &variant).filter(|&(start, _)| {
                variant.is_ascii()
                    || !request[..start]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric)
            }));
        }
    }
    out
}

/// Where `term` occurs in `text`, as byte ranges. Where the term begins or ends with an
/// ASCII letter or digit, the text must not continue it there (`rest` is not in
/// "interest"); Korean terms match inside words, so "수면을" contains `수면`.
fn term_spans<'a>(text: &'a str, term: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
    let ascii_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let (first, last) = (term.chars().next(), term.chars().next_back());
    text.match_indices(term)
        .filter(move |_| !term.is_empty())
        .filter(move |(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + term.len()..].chars().next();
            let glued_before = ascii_word(first) && ascii_word(before);
            let glued_after = ascii_word(last) && ascii_word(after);
            !glued_before && !glued_after
        })
        .map(move |(at, _)| (at, at + term.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_set_aside_is_the_one_not_meant() {
        let values = [
            ValueChoice::new(1, "아침 커피 후 10분 걷기").with_words(["걷기", "walk"]),
            ValueChoice::new(2, "자기 전 책 10쪽 읽기").with_words(["독서", "reading"]),
        ];
        let aside = |text: &str| set_aside(&Request::new(text), &values);
        assert_eq!(aside("아니 2번 말고 1번"), [false, true]);
        assert_eq!(aside("걷기 대신 독서로"), [true, false]);
        assert_eq!(aside("not reading, the walk"), [false, true]);
        assert_eq!(aside("1번이랑 2번"), [false, false]);
    }

    #[test]
    fn the_value_a_change_goes_to_is_the_one_before_ro_or_after_to() {
        let values = [
            ValueChoice::new("done", "했음").with_words(["했", "체크"]),
            ValueChoice::new("blank", "쉼").with_words(["쉰", "쉬는"]),
        ];
        let targeted = |text: &str| targeted(&Request::new(text), &values);
        assert_eq!(
            targeted("어제 체크된 거 실수였어. 쉰 날로 바꿔줘"),
            [false, true]
        );
        assert_eq!(targeted("done 말고 blank로 고쳐줘"), [false, true]);
        assert_eq!(targeted("쉰 걸 done으로 바꿔"), [true, false]);
        assert_eq!(targeted("mark it as blank, not done"), [false, true]);
        assert_eq!(targeted("어제 했어"), [false, false]);
    }

    #[test]
    fn the_longer_word_is_the_one_a_request_mentions() {
        let choices = [
            ValueChoice::new("done", "했음").with_words(["했", "완료"]),
            ValueChoice::new("blank", "일부러 쉼").with_words(["쉰", "못 했"]),
        ];
        let said = |request: &str| mentioned(&Request::new(request), &choices);
        assert_eq!(said("오늘 했어"), [true, false]);
        assert_eq!(
            said("1번 어제 못 했어"),
            [false, true],
            "`했` is inside `못 했`"
        );
        assert_eq!(
            said("어제는 못 했어, 오늘은 했어"),
            [true, true],
            "a `했` of its own elsewhere still counts"
        );
        assert_eq!(said("쉰 날로, 완료 말고"), [true, true]);
        assert_eq!(said("아무 말"), [false, false]);
        let habit = [ValueChoice::new(2, "자기 전 책 10쪽 읽기").with_words(["독서"])];
        let mentions = |request: &str| mentioned(&Request::new(request), &habit);
        assert_eq!(mentions("독서 기록"), [true], "by one of its words");
        assert_eq!(mentions("2번"), [true], "by the value");
        assert_eq!(mentions("10쪽 12번"), [true], "`10쪽` is a label word");
        assert_eq!(mentions("12번"), [false], "not inside another number");
    }

    #[test]
    fn calendar_words_are_named_by_their_other_spellings() {
        let days = [
            ValueChoice::new("tomorrow", "내일 (2025-03-11)").with_words(["내일"]),
            ValueChoice::new("2025-03-14", "2025-03-14 (금요일)"),
            ValueChoice::new("2025-03-17", "2025-03-17 (다음주 월요일)")
                .with_words(["다음 주 월요일"]),
        ];
        let said = |request: &str| mentioned(&Request::new(request), &days);
        assert_eq!(said("낼까지 은행 가기"), [true, false, false]);
        assert_eq!(
            said("택배 보낼 거 적어줘"),
            [false, false, false],
            "`낼` of `보낼`"
        );
        assert_eq!(said("due Friday"), [false, true, false]);
        assert_eq!(said("담주 월욜로 미뤄줘"), [false, false, true]);
        assert_eq!(said("push it to tomorrow"), [true, false, false]);
    }

    #[test]
    fn ascii_terms_are_whole_words_and_korean_ones_are_not() {
        let choices = [
            ValueChoice::new("rest", "쉼"),
            ValueChoice::new("수면", "수면"),
        ];
        let said = |request: &str| mentioned(&Request::new(request), &choices);
        assert_eq!(said("interest 수면을"), [false, true]);
        assert_eq!(said("REST day"), [true, false], "case-insensitive");
    }
}
