//! The numbers a request writes: runs of ASCII digits that stand on their own — a run joined
//! to another by `/`, `-`, `:` or `.` is part of a date, a time or a decimal, not a number of
//! its own — and the ones a parameter can take.

use serde_json::Value;

use crate::tool::ValueChoice;

/// Characters that join two runs of digits into one date, time or decimal ("3/7",
/// "2025-03-08", "9:30", "1.5").
const NUMBER_JOINERS: [char; 4] = ['/', '-', ':', '.'];

/// Where the numbers written in `text` are, as byte ranges: runs of ASCII digits that stand
/// on their own. A run joined to another by one of [`NUMBER_JOINERS`] is part of a date or a
/// time, not a number of its own: "3/7에 1번 했어" writes habit 1, not habits 3 and 1.
pub(super) fn digit_spans(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let joined = |joiner: Option<char>, beyond: Option<char>| {
        joiner.is_some_and(|c| NUMBER_JOINERS.contains(&c))
            && beyond.is_some_and(|c| c.is_ascii_digit())
    };
    let mut start = None;
    text.char_indices()
        .chain(std::iter::once((text.len(), ' ')))
        .filter_map(move |(at, c)| match (c.is_ascii_digit(), start) {
            (true, None) => {
                start = Some(at);
                None
            }
            (false, Some(s)) => {
                start = None;
                Some((s, at))
            }
            _ => None,
        })
        .filter(move |&(s, e)| {
            let mut before = text[..s].chars().rev();
            let mut after = text[e..].chars();
            !joined(before.next(), before.next()) && !joined(after.next(), after.next())
        })
}

/// The numbers written in `text` (see [`digit_spans`]).
fn digit_runs(text: &str) -> impl Iterator<Item = &str> {
    digit_spans(text).map(|(s, e)| &text[s..e])
}

/// Korean counters that make the number before them a date, a time or an amount ("3월 7일",
/// "9시", "10쪽", "5000원"), never the number of an item: "3월 7일에 걷기 했어" names no
/// habit 3.
const MEASURE_COUNTERS: &[&str] = &[
    "월", "일", "시", "분", "초", "년", "주", "쪽", "개", "원", "살", "명", "잔", "권", "장", "층",
    "만", "천", "킬로", "키로", "%",
];

/// English words after a number that make it a date, a time or an amount ("7th", "10
/// pages", "9 pm").
const MEASURE_WORDS: &[&str] = &[
    "st", "nd", "rd", "th", "am", "pm", "page", "pages", "min", "mins", "minute", "minutes",
    "hour", "hours", "day", "days", "week", "weeks", "km", "kg", "times", "percent", "dollars",
    "won",
];

/// Whether the number at `start..end` of `text` (one of [`digit_spans`]) writes `choice`'s
/// value: the same number, and — unless the choice is a quantity, labelled by its number
/// alone ("13200원" writes 13200) — written as the number of an item, not as a date, a time
/// or an amount by the counter or word after it (see [`MEASURE_COUNTERS`],
/// [`MEASURE_WORDS`]) or a currency sign before it: "3월" is no habit 3.
pub(super) fn writes(text: &str, (start, end): (usize, usize), choice: &ValueChoice) -> bool {
    let run = &text[start..end];
    choice
        .value
        .as_number()
        .is_some_and(|n| n.to_string() == run)
        && (choice.label == run || names_an_item(text, start, end))
}

/// Whether the number at `start..end` of `text` is not a date, a time or an amount; see
/// [`writes`].
fn names_an_item(text: &str, start: usize, end: usize) -> bool {
    let after = &text[end..];
    let counted = MEASURE_COUNTERS.iter().any(|c| after.starts_with(c));
    let word: String = after
        .strip_prefix(' ')
        .unwrap_or(after)
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_lowercase();
    let measured = MEASURE_WORDS.contains(&word.as_str());
    let priced = text[..start].ends_with(['$', '₩', '€', '£']);
    !counted && !measured && !priced
}

/// The choices with a number for a value that `text` writes (see [`writes`]), in the order
/// written (each once).
pub(crate) fn numbers_written(text: &str, choices: &[ValueChoice]) -> Vec<usize> {
    let mut found = Vec::new();
    for span in digit_spans(text) {
        let hit = choices.iter().position(|c| writes(text, span, c));
        if let Some(i) = hit
            && !found.contains(&i)
        {
            found.push(i);
        }
    }
    found
}

/// The distinct numbers written in `text` that `prop`'s `minimum`/`maximum` allow, in the
/// order they appear, each labelled with itself.
pub(super) fn numbers_within(text: &str, prop: Option<&Value>) -> Vec<ValueChoice> {
    let bound = |key: &str| prop.and_then(|p| p.get(key)).and_then(Value::as_f64);
    let (min, max) = (bound("minimum"), bound("maximum"));
    let mut out: Vec<ValueChoice> = Vec::new();
    for run in digit_runs(text) {
        let Ok(n) = run.parse::<i64>() else { continue };
        #[allow(clippy::cast_precision_loss)] // bounds are small; a huge n fails either way
        let f = n as f64;
        let fits = min.is_none_or(|m| f >= m) && max.is_none_or(|m| f <= m);
        if fits && !out.iter().any(|c| c.value == n) {
            out.push(ValueChoice::new(n, n.to_string()));
        }
    }
    out
}

/// The numbers of [`numbers_within`] that `text` (lower-cased) writes with the parameter's
/// unit: right before (or one space before) letters that begin with a word of `prop`'s
/// description, which names the unit ("최대 개수(개)" → "3개만", "습관 문장의 단계" →
/// "1단계로"). "10분" is no count of results; "3개" is.
pub(super) fn numbers_with_unit(text: &str, prop: Option<&Value>) -> Vec<ValueChoice> {
    let description = prop
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_lowercase();
    let units: Vec<&str> = description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && word.chars().all(char::is_alphabetic))
        .collect();
    if units.is_empty() {
        return Vec::new();
    }
    let written: String = digit_spans(text)
        .filter(|&(_, end)| {
            let after = text[end..].strip_prefix(' ').unwrap_or(&text[end..]);
            let letters: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
            !letters.is_empty() && units.iter().any(|unit| letters.starts_with(unit))
        })
        .map(|(start, end)| format!(" {} ", &text[start..end]))
        .collect();
    numbers_within(&written, prop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_times_and_amounts_name_no_item() {
        let choices: Vec<ValueChoice> = (1..=12).map(|n| ValueChoice::new(n, "할 일")).collect();
        let written = |text: &str| -> Vec<i64> {
            numbers_written(text, &choices)
                .into_iter()
                .filter_map(|i| choices[i].value.as_i64())
                .collect()
        };
        assert_eq!(written("3월 7일에 2번 했어"), [2]);
        assert_eq!(written("10쪽 읽었어, 4번 습관"), [4]);
        assert_eq!(written("Read 10 pages on the 7th for habit 2"), [2]);
        assert_eq!(written("$5 coffee, item 3"), [3]);
        assert_eq!(written("3번이랑 11번"), [3, 11]);
        let amounts = [
            ValueChoice::new(4500, "4500"),
            ValueChoice::new(13200, "13200"),
        ];
        assert_eq!(
            numbers_written("커피 4500원, 택시 13200원", &amounts),
            [0, 1],
            "a quantity is written with its counter"
        );
    }

    #[test]
    fn dates_times_and_decimals_are_not_numbers_of_their_own() {
        let runs: Vec<&str> = digit_runs("3/7에 1번, 9:30에 2025-03-08 1.5km 12번").collect();
        assert_eq!(runs, ["1", "12"]);
    }

    #[test]
    fn numbers_with_a_unit_are_read_off_the_description() {
        let prop = serde_json::json!({"minimum": 1, "maximum": 10, "description": "최대 개수(개)"});
        let values = |text: &str| -> Vec<Value> {
            numbers_with_unit(text, Some(&prop))
                .into_iter()
                .map(|c| c.value)
                .collect()
        };
        assert_eq!(values("10분 걷기 3개만"), [Value::from(3)]);
        assert_eq!(
            values("3 개"),
            [Value::from(3)],
            "one space before the unit"
        );
        assert!(values("30개").is_empty(), "out of range");
    }
}
