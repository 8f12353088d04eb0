//! The closing answer judged: whether the model's words after results state something of
//! their own (not the request again, no number the turn never showed, a finished sentence),
//! and whether words are prose at all rather than a copy of data. A small model's most common
//! failures after a result are exactly these; a failed answer is replaced by a default.

use serde_json::Value;

/// Every string and number inside `value` (not its keys), space-separated.
pub(super) fn collect_values(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push_str(text);
            out.push(' ');
        }
        Value::Number(n) => {
            out.push_str(&n.to_string());
            out.push(' ');
        }
        Value::Array(items) => items.iter().for_each(|v| collect_values(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_values(v, out)),
        _ => {}
    }
}

/// The names of an object's fields that name it, best first.
const NAMING_FIELDS: [&str; 8] = [
    "title",
    "name",
    "label",
    "text",
    "framed_text",
    "summary",
    "description",
    "memo",
];

/// The most items of a list a result's facts name.
const NAMED_ITEMS: usize = 3;

/// The key facts of a result's `data`, for a tool that has no sentence of its own about it:
/// how many items a list holds (`count_of_items`) and the names of the first few, or an
/// object's name with its id, or a plain value. `None` when there is nothing to say (an
/// empty object, `null`).
pub(super) fn result_facts(data: &Value, count_of_items: &str) -> Option<String> {
    match data {
        Value::Array(items) => Some(list_facts(items, count_of_items)),
        Value::Object(map) => {
            // A list inside (`{"count": 3, "items": [...]}`) is what the result is about.
            if let Some(items) = map.values().find_map(Value::as_array) {
                return Some(list_facts(items, count_of_items));
            }
            let name = name_of(data);
            let id = ["id", "task_id", "habit_id", "expense_id", "order_id"]
                .iter()
                .find_map(|key| map.get(*key))
                .filter(|v| v.is_number() || v.is_string())
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
            match (name, id) {
                (Some(name), Some(id)) => Some(format!("'{name}' ({id})")),
                (Some(name), None) => Some(format!("'{name}'")),
                (None, _) => scalar_facts(map),
            }
        }
        Value::String(text) if !text.trim().is_empty() => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(_) | Value::Null | Value::String(_) => None,
    }
}

/// "3개: a, b, c" for a list.
fn list_facts(items: &[Value], count_of_items: &str) -> String {
    let count = count_of_items.replace("{count}", &items.len().to_string());
    let names: Vec<String> = items.iter().filter_map(name_of).take(NAMED_ITEMS).collect();
    if names.is_empty() {
        count
    } else {
        let more = if items.len() > names.len() {
            " …"
        } else {
            ""
        };
        format!("{count}: {}{more}", names.join(", "))
    }
}

/// The name of an item: one of [`NAMING_FIELDS`], or the item itself if it is text.
fn name_of(item: &Value) -> Option<String> {
    match item {
        Value::String(text) => Some(text.clone()),
        Value::Object(map) => NAMING_FIELDS
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str))
            .filter(|text| !text.trim().is_empty())
            .map(str::to_owned),
        _ => None,
    }
}

/// Up to three of an object's numbers and short texts, as `key value`.
fn scalar_facts(map: &serde_json::Map<String, Value>) -> Option<String> {
    let facts: Vec<String> = map
        .iter()
        .filter_map(|(key, value)| match value {
            Value::Number(n) => Some(format!("{key} {n}")),
            Value::String(text) if text.chars().count() <= 40 => Some(format!("{key} {text}")),
            _ => None,
        })
        .take(NAMED_ITEMS)
        .collect();
    (!facts.is_empty()).then(|| facts.join(", "))
}

/// Letters and digits an answer after results needs at least: "빌딩." says nothing.
const MIN_ANSWER_CHARS: usize = 4;

/// Whether an answer after results says something of its own and claims nothing the turn
/// did not show: not an echo of the request, and every number in it found in the request or
/// in the results' values. A small model's most common failures after a result are exactly
/// these — repeating the user, or a count or a streak it made up.
pub(super) fn is_grounded(answer: &str, request: &str, seen: &str) -> bool {
    let answer = answer.trim();
    if !is_usable(answer) || squash(answer).chars().count() < MIN_ANSWER_CHARS {
        return false;
    }
    if echoes(answer, request) || repeats(&squash(answer)) || !ends_like_a_sentence(answer) {
        return false;
    }
    let numbers = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let known: Vec<String> = numbers(request).into_iter().chain(numbers(seen)).collect();
    numbers(answer).iter().all(|n| known.contains(n))
}

/// Hangul syllables a Korean sentence ends with when it has no final mark (`했어요`,
/// `좋습니다`, `그렇죠`, `할까`, `좋네`).
const SENTENCE_ENDINGS: &[char] = &['요', '다', '죠', '까', '네'];

/// Whether `answer` ends as a sentence does: with a mark, an emoji or other symbol, or a
/// Korean sentence ending. A small model cut off in the middle of copying a result ends
/// on a bare word ("인테리어", "…25분 집중", "… · 만들 습관") — words, but no answer.
fn ends_like_a_sentence(answer: &str) -> bool {
    let last = answer
        .trim_end()
        .trim_end_matches(['"', '\'', ')', '’', '”'])
        .chars()
        .next_back();
    last.is_some_and(|c| !c.is_alphanumeric() || SENTENCE_ENDINGS.contains(&c))
}

/// Whether `answer` repeats one of the conversation's earlier user messages ([`echoes`]).
pub(super) fn repeats_earlier(answer: &str, earlier: &[String]) -> bool {
    earlier.iter().any(|m| echoes(answer, m))
}

/// Whether a words-only `answer` says nothing but (part of) the `request` it answers: the
/// request's letters contain the answer's, three quarters of the answer's character pairs
/// are the request's, or it opens with the whole request of [`RESTATED_CHARS`] letters and
/// digits or more ("3번 할 일 친구한테 카톡으로 공유해줘 convirtió"). An answer that goes on
/// past a short request ("안녕하세요! 무엇을 도와드릴까요?" for "안녕하세요") says something of
/// its own and is no echo of it.
pub(super) fn only_repeats(answer: &str, request: &str) -> bool {
    let (a, m) = (squash(answer), squash(request));
    if a.len() < ECHO_BYTES || m.len() < ECHO_BYTES {
        return false;
    }
    m.contains(&a)
        || mostly_pairs_of(&a, &m)
        || (m.chars().count() >= RESTATED_CHARS && a.starts_with(&m))
}

/// A request of this many letters and digits or more is no greeting an answer opens with in
/// turn: an answer that starts by writing all of it out again is an echo, whatever follows.
const RESTATED_CHARS: usize = 10;

/// Fewer letter-and-digit bytes than this (two Hangul syllables, six ASCII characters) are
/// too little to call an answer an echo.
const ECHO_BYTES: usize = 6;

/// An answer of fewer character pairs than this is not judged by its share of the message's.
const ECHO_PAIRS: usize = 4;

/// Whether `answer` echoes `message`: of their letters and digits, one contains the other,
/// or three quarters of the answer's character pairs are the message's. Only letters and
/// digits are compared, so an echo with other spacing or punctuation still counts. Either
/// side shorter than [`ECHO_BYTES`] is no echo: a message of "네", "1번" or "?" is contained
/// in almost any answer (and an empty one in every answer).
fn echoes(answer: &str, message: &str) -> bool {
    let (a, m) = (squash(answer), squash(message));
    if a.len() < ECHO_BYTES || m.len() < ECHO_BYTES {
        return false;
    }
    m.contains(&a) || a.contains(&m) || mostly_pairs_of(&a, &m)
}

/// Whether nearly all of the character pairs of `a` are taken from `m` (both squashed): the
/// message said again with a word changed ("운동 습관 1개만 보여줄래?" for "운동쪽 습관 1개만
/// 보여줄래?").
fn mostly_pairs_of(a: &str, m: &str) -> bool {
    let pairs = |text: &str| -> Vec<(char, char)> {
        let chars: Vec<char> = text.chars().collect();
        chars.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let (from_answer, from_message) = (pairs(a), pairs(m));
    let shared = from_answer
        .iter()
        .filter(|pair| from_message.contains(pair))
        .count();
    from_answer.len() >= ECHO_PAIRS && shared * 4 >= from_answer.len() * 3
}

/// Fewer letters and digits than this are too short a request to tell a copy of it from an
/// answer that happens to begin the same way ("안녕", "1번 했어").
const REQUEST_CHARS: usize = 5;

/// Whether `answer` opens with one of `requests` (an example's request, letters and digits
/// compared, at least [`REQUEST_CHARS`] of them): after results, a model that writes the
/// prompt's next example ("오늘 할 일 뭐야?…") answers nothing.
pub(super) fn opens_with_a_request<'a>(
    answer: &str,
    mut requests: impl Iterator<Item = &'a str>,
) -> bool {
    let answer = squash(answer);
    requests.any(|request| {
        let request = squash(request);
        request.chars().count() >= REQUEST_CHARS && answer.starts_with(&request)
    })
}

/// `text`'s letters and digits alone.
pub(super) fn squash(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// Whether some stretch of six characters occurs twice (`text` is squashed to letters and
/// digits): a model looping — "먹고 싶으면 5분 걷기. 먹고 싶으면 5분" says one thing twice.
fn repeats(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(6).any(|window| {
        let needle: String = window.iter().collect();
        text.matches(&needle).count() >= 2
    })
}

/// `answer` without a tail in another script after its last sentence: a small model that
/// has finished a Korean sentence often goes on with a word of another language instead of
/// ending its turn ("…해 보세요. convirtió"). The tail is cut when the answer before it has
/// Hangul and the tail has Latin letters but none.
pub(super) fn without_stray_tail(answer: &str) -> &str {
    let is_hangul = |c: char| matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}');
    let Some((end, mark)) = answer
        .char_indices()
        .rfind(|(_, c)| matches!(c, '.' | '!' | '?' | '…' | '~'))
    else {
        return answer;
    };
    let (body, tail) = answer.split_at(end + mark.len_utf8());
    let foreign = tail.chars().any(char::is_alphabetic) && !tail.chars().any(is_hangul);
    if foreign && body.chars().any(is_hangul) {
        body
    } else {
        answer
    }
}

/// Text worth showing as an answer: words, not whitespace and punctuation, and not markup.
pub(super) fn is_usable(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric) && !looks_like_markup(text)
}

/// Whether `text` is written like data rather than prose: it has a bracket, brace, arrow,
/// equals sign, backslash or backtick, an unclosed parenthesis, or an identifier — a letter,
/// `.` or `_`, a lowercase ASCII letter (`diet.dash`, `search_catalog`). A small model asked
/// for words after a result often copies the result's own rendering
/// (`diet.dash → {"status":"ok",…}`), which is true but no answer.
fn looks_like_markup(text: &str) -> bool {
    const MARKS: &[char] = &['{', '}', '[', ']', '<', '>', '=', '→', '\\', '`', '|'];
    if text.contains(MARKS) || text.matches('(').count() != text.matches(')').count() {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(3)
        .any(|w| w[0].is_alphabetic() && matches!(w[1], '.' | '_') && w[2].is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_that_opens_with_an_examples_request_is_the_prompts_next_example() {
        let requests = ["오늘 할 일 뭐야?", "안녕"];
        assert!(opens_with_a_request(
            "오늘 할 일 뭐야?먹을 일?",
            requests.iter().copied()
        ));
        assert!(!opens_with_a_request(
            "오늘 할 일은 3개예요.",
            requests.iter().copied()
        ));
        assert!(
            !opens_with_a_request("안녕하세요! 추가했어요.", requests.iter().copied()),
            "a request too short to tell"
        );
    }

    #[test]
    fn a_chat_answer_may_not_open_by_writing_out_a_long_request_again() {
        let request = "3번 할 일 친구한테 카톡으로 공유해줘";
        assert!(only_repeats(&format!("{request} convirtió"), request));
        assert!(!only_repeats(
            "안녕하세요! 무엇을 도와드릴까요?",
            "안녕하세요"
        ));
    }

    #[test]
    fn a_chat_answer_may_not_only_repeat_its_request() {
        let request = "안녕하세요. 제가 지금 어떤 습관들을 하고 있는지 확인할 수 있을까요?";
        assert!(only_repeats(request, request));
        assert!(only_repeats("제가 지금 어떤 습관들을 하고 있는지", request));
        assert!(only_repeats(
            "What's my reading streak",
            "what's my reading streak?"
        ));
        assert!(!only_repeats(
            "안녕하세요! 무엇을 도와드릴까요?",
            "안녕하세요"
        ));
        assert!(!only_repeats("천만에요! 언제든 불러 주세요.", "고마워요"));
        assert!(!only_repeats("네", "네"), "too short to tell");
    }

    #[test]
    fn a_chat_answer_may_not_repeat_an_earlier_message() {
        let earlier = ["1번 습관 오늘 했어".to_owned()];
        assert!(repeats_earlier("1번 습관 오늘 했어", &earlier));
        assert!(repeats_earlier(" 1번 습관, 오늘 했어!", &earlier));
        assert!(!repeats_earlier(
            "안녕하세요! 무엇을 도와드릴까요?",
            &earlier
        ));
        assert!(!repeats_earlier("네", &earlier));
    }

    #[test]
    fn grounded_answers_repeat_neither_the_user_nor_made_up_numbers() {
        let seen = "아침 10분 걷기 3 12 ";
        assert!(is_grounded("지금 3일 연속이에요!", "1번 연속 기록", seen));
        assert!(
            !is_grounded("지금 4일 연속이에요!", "1번 연속 기록", seen),
            "4 is made up"
        );
        assert!(is_grounded(
            "1번은 30일 중 12번 했어요",
            "1번 30일 동안 몇 번?",
            seen
        ));
        assert!(!is_grounded(
            "1번 습관 연속 기록 알려줘",
            "1번 습관 연속 기록 알려줘",
            seen
        ));
        assert!(!is_grounded("  ", "x", seen));
        assert!(
            !is_grounded("빌딩.", "x", seen),
            "too short to say anything"
        );
        assert!(
            !is_grounded(
                "운동 습관 1개만 보여줄래?",
                "운동쪽 습관 1개만 보여줄래?",
                seen
            ),
            "the request again with a word changed"
        );
        assert!(
            is_grounded(
                "채소 먼저 먹기 습관 4번으로 추가했어요.",
                "채소 먼저 먹기 습관으로 등록할게요. 점심 먹을 때 샐러드부터 먹기",
                "4"
            ),
            "an answer may reuse the request's words"
        );
        for short in ["?", "👍", "1번", ""] {
            assert!(
                is_grounded("아침 10분 걷기를 했어요.", short, seen),
                "a request of {short:?} is too short to be echoed"
            );
        }
        assert!(!is_grounded(
            "걷기 습관을 걷기 습관으로 걷기 습관을 걷기",
            "걷기",
            "걷기"
        ));
        for unfinished in [
            "인테리어",
            "25분 집중 블록, 매일 책 10쪽, 25분 집중",
            "빌딩.휴대폰은 거실에서 충전 · 만들 습관",
        ] {
            assert!(
                !is_grounded(unfinished, "집중", "25 10"),
                "{unfinished:?} ends on a bare word"
            );
        }
        for finished in [
            "1번을 기록했어요",
            "좋습니다",
            "잘했어요 💪",
            "'아침 10분 걷기'를 추가했어요.\"",
            "계속할까",
        ] {
            assert!(
                is_grounded(finished, "x", "1 10"),
                "{finished:?} is a sentence"
            );
        }
        assert!(!is_grounded(
            "먹고 싶으면 5분 걷기. 먹고 싶으면 5분",
            "흡연 습관 바꾸기는 어떤 방법이에요?",
            "먹고 싶으면 5분 걷기"
        ));
    }

    #[test]
    fn a_stray_word_of_another_script_after_the_last_sentence_is_cut() {
        for (said, kept) in [
            (
                "매일 같은 때에 해 보세요. convirtió",
                "매일 같은 때에 해 보세요.",
            ),
            ("큰 변화를 만들어요! anschließend", "큰 변화를 만들어요!"),
            ("2번 습관 10일째야? convirtió", "2번 습관 10일째야?"),
            // Kept: no sentence end, a Korean tail, an English answer, digits only.
            ("오늘 했어요 thereupon", "오늘 했어요 thereupon"),
            ("좋아요. 내일도 해요", "좋아요. 내일도 해요"),
            ("Good job. Keep going", "Good job. Keep going"),
            ("기록했어요. 2025", "기록했어요. 2025"),
        ] {
            assert_eq!(without_stray_tail(said), kept, "{said}");
        }
    }

    #[test]
    fn a_result_without_a_sentence_of_its_own_is_told_by_its_facts() {
        let facts = |data: Value| result_facts(&data, "{count}개");
        assert_eq!(
            facts(serde_json::json!({"count": 4, "items": [
                {"id": 1, "title": "우유 사기"}, {"id": 2, "title": "은행 가기"},
                {"id": 3, "title": "보고서"}, {"id": 4, "title": "청소"}
            ]})),
            Some("4개: 우유 사기, 은행 가기, 보고서 …".to_owned())
        );
        assert_eq!(
            facts(serde_json::json!({"id": 7, "title": "우유 사기", "due": null})),
            Some("'우유 사기' (7)".to_owned())
        );
        assert_eq!(
            facts(serde_json::json!({"total": 32000, "category": "식비"})),
            Some("total 32000, category 식비".to_owned())
        );
        assert_eq!(facts(serde_json::json!([])), Some("0개".to_owned()));
        assert_eq!(facts(serde_json::json!({})), None);
        assert_eq!(facts(Value::Null), None);
    }

    #[test]
    fn usable_answers_have_letters() {
        assert!(is_usable("완료했어요."));
        assert!(!is_usable("  \n"));
        assert!(!is_usable("..."));
    }

    #[test]
    fn usable_answers_are_prose_not_data() {
        for data in [
            r#"diet.dash → {"status":"ok","data":{"id":"diet."#,
            "read-10-pages → {\"status\"",
            "diet.plant-forward",
            "빌딩.phone-outside-bedroom",
            "search_catalog를 썼어요",
            "limit = 3",
            "[1, 2]",
            "밤잠 시계 맞추기.)길이: 10분",
        ] {
            assert!(!is_usable(data), "{data}");
        }
        for prose in [
            "'채소 먼저 먹기' 습관을 추가했어요.",
            "1.5km 걸었어요!",
            "U.S. 식단도 있어요.",
            "좋아요 (내일도 화이팅)",
        ] {
            assert!(is_usable(prose), "{prose}");
        }
    }
}
