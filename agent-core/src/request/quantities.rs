//! The quantities a request writes, as a person writes them: digits with thousands commas
//! and decimals ("92,000", "1.5"), digits with a Korean myriad ("13만", "3천 5백"), Korean
//! number words before a counter ("오만원", "십오프로", "네 명") — and which of a tool's
//! number parameters each one is for. A grounded number parameter (see
//! [`ToolDefinition::grounded_parameters`]) takes one of these, never a number the model
//! makes up.

use serde_json::Value;

use crate::tool::schema::admits_type;
use crate::tool::{ToolDefinition, ValueChoice};

/// One quantity: its value and where the request writes it (byte range).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Quantity {
    /// The value.
    pub(crate) value: f64,
    /// Byte offset where it starts.
    pub(crate) start: usize,
    /// Byte offset where its number ends (its counter, if any, follows).
    pub(crate) end: usize,
}

/// Sino-Korean digits.
const SINO_DIGITS: [(char, u32); 11] = [
    ('영', 0),
    ('공', 0),
    ('일', 1),
    ('이', 2),
    ('삼', 3),
    ('사', 4),
    ('오', 5),
    ('육', 6),
    ('칠', 7),
    ('팔', 8),
    ('구', 9),
];
/// Units within a myriad.
const SMALL_UNITS: [(char, u32); 3] = [('십', 10), ('백', 100), ('천', 1000)];
/// Myriads.
const BIG_UNITS: [(char, f64); 3] = [('만', 1e4), ('억', 1e8), ('조', 1e12)];
/// Native Korean numbers as they stand before a counter, longest first.
const NATIVE: &[(&str, u32)] = &[
    ("스물", 20),
    ("다섯", 5),
    ("여섯", 6),
    ("일곱", 7),
    ("여덟", 8),
    ("아홉", 9),
    ("하나", 1),
    ("한", 1),
    ("두", 2),
    ("둘", 2),
    ("세", 3),
    ("셋", 3),
    ("네", 4),
    ("넷", 4),
    ("열", 10),
];
/// Counters after which a word-number is a quantity (Korean number words elsewhere are
/// ordinary syllables: "이번 주", "사과").
const COUNTERS: &[&str] = &[
    "원",
    "명",
    "사람",
    "개",
    "살",
    "세",
    "번",
    "잔",
    "권",
    "장",
    "시",
    "분",
    "초",
    "일",
    "주",
    "달",
    "년",
    "월",
    "프로",
    "퍼센트",
    "%",
    "달러",
    "불",
    "유로",
    "엔",
    "위안",
    "킬로",
    "키로",
    "센티",
    "미터",
    "그램",
    "kg",
    "cm",
    "층",
    "대",
    "마리",
    "자리",
    "배",
];

/// The quantities `text` writes, in order. Digits joined to others by `/`, `-` or `:` (a
/// date or a time, "3/7", "9:30") are not quantities.
pub(crate) fn quantities(text: &str) -> Vec<Quantity> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let offset = |i: usize| chars.get(i).map_or(text.len(), |&(o, _)| o);
    let quantity = |value: f64, from: usize, to: usize| Quantity {
        value,
        start: offset(from),
        end: offset(to),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let word_start = i == 0 || at(i - 1).is_none_or(|c| !c.is_alphanumeric());
        // Digits on their own or after Hangul ("몸무게75"), not inside a Latin name ("NVL72").
        if at(i).is_some_and(|c| c.is_ascii_digit())
            && (i == 0 || !at(i - 1).is_some_and(|c| c.is_ascii_alphanumeric()))
        {
            let (value, next, joined) = digits(&chars, i);
            let (value, next) = myriads(&chars, next, value);
            let (value, next) = thousands(&chars, next, value);
            let before_joined = i >= 2
                && at(i - 1).is_some_and(|c| matches!(c, '/' | '-' | ':' | '.'))
                && at(i - 2).is_some_and(|c| c.is_ascii_digit());
            if !joined && !before_joined {
                out.push(quantity(value, i, next));
            }
            i = next.max(i + 1);
            continue;
        }
        if word_start
            && at(i).is_some_and(|c| c.is_ascii_alphabetic())
            && let Some((value, next)) = english(&chars, i)
        {
            out.push(quantity(value, i, next));
            i = next;
            continue;
        }
        if word_start && let Some((value, next)) = words(&chars, i) {
            let (value, next) = smaller_digits(&chars, i, next, value);
            let rest = &text[offset(next)..];
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            if COUNTERS.iter().any(|c| rest.starts_with(c)) {
                out.push(quantity(value, i, next));
                i = next;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Digits from `i`: the value, where they end, and whether they are joined to more digits by
/// `/`, `-`, `:` or a second `.` (a date, a time). Commas between groups of three digits are
/// thousands separators.
fn digits(chars: &[(usize, char)], i: usize) -> (f64, usize, bool) {
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut text = String::new();
    let mut j = i;
    loop {
        match at(j) {
            Some(c) if c.is_ascii_digit() => text.push(c),
            Some(',')
                if (1..=3).all(|k| at(j + k).is_some_and(|c| c.is_ascii_digit()))
                    && !at(j + 4).is_some_and(|c| c.is_ascii_digit()) => {}
            _ => break,
        }
        j += 1;
    }
    if at(j) == Some('.') && at(j + 1).is_some_and(|c| c.is_ascii_digit()) {
        let mut k = j + 1;
        let mut fraction = String::from(".");
        while let Some(c) = at(k).filter(char::is_ascii_digit) {
            fraction.push(c);
            k += 1;
        }
        // "2023.11.3" is a date.
        if at(k) == Some('.') && at(k + 1).is_some_and(|c| c.is_ascii_digit()) {
            return (0.0, k, true);
        }
        text.push_str(&fraction);
        j = k;
    }
    let joined =
        matches!(at(j), Some('/' | '-' | ':')) && at(j + 1).is_some_and(|c| c.is_ascii_digit());
    (text.parse().unwrap_or(0.0), j, joined)
}

/// A Korean myriad after digits ("13만", "3천", "13만 5천"): the value and where it ends.
fn myriads(chars: &[(usize, char)], mut j: usize, mut value: f64) -> (f64, usize) {
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let unit = |c: char| {
        SMALL_UNITS
            .iter()
            .map(|&(u, v)| (u, f64::from(v)))
            .chain(BIG_UNITS)
            .find(|&(u, _)| u == c)
            .map(|(_, v)| v)
    };
    let Some(first) = at(j).and_then(unit) else {
        return (value, j);
    };
    value *= first;
    j += 1;
    // "13만 5천": a further group of digits and a smaller unit.
    loop {
        let mut k = j;
        if at(k) == Some(' ') {
            k += 1;
        }
        let start = k;
        while at(k).is_some_and(|c| c.is_ascii_digit()) {
            k += 1;
        }
        let Some(more) = (k > start).then(|| at(k).and_then(unit)).flatten() else {
            break;
        };
        let digits: String = chars[start..k].iter().map(|&(_, c)| c).collect();
        if more >= first {
            break;
        }
        value += digits.parse::<f64>().unwrap_or(0.0) * more;
        j = k + 1;
    }
    (value, j)
}

/// Digits that go on a Korean myriad word ("만2천5백" → 10000 + 2500): the value and where
/// it ends, where the words from `i` to `j` end in a myriad and digits with smaller units
/// follow; `(value, j)` otherwise.
fn smaller_digits(chars: &[(usize, char)], i: usize, j: usize, value: f64) -> (f64, usize) {
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let Some(last) = j
        .checked_sub(1)
        .filter(|&k| k >= i)
        .and_then(at)
        .and_then(|c| BIG_UNITS.iter().find(|&&(u, _)| u == c))
        .map(|&(_, v)| v)
    else {
        return (value, j);
    };
    if !at(j).is_some_and(|c| c.is_ascii_digit()) {
        return (value, j);
    }
    let (more, end, joined) = digits(chars, j);
    let (more, end) = myriads(chars, end, more);
    if joined || more >= last {
        return (value, j);
    }
    (value + more, end)
}

/// A thousands mark right after digits ("150k", "12K"), not the start of a word ("5km"):
/// the value and where it ends.
fn thousands(chars: &[(usize, char)], j: usize, value: f64) -> (f64, usize) {
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    if matches!(at(j), Some('k' | 'K')) && !at(j + 1).is_some_and(char::is_alphanumeric) {
        (value * 1000.0, j + 1)
    } else {
        (value, j)
    }
}

/// Korean number words from `i` ("오만", "삼만칠천", "십오", "네"): the value and where
/// they end. Sino-Korean words need two syllables or a unit ("만"), so a lone "이" or "오"
/// is a syllable, not a number.
fn words(chars: &[(usize, char)], i: usize) -> Option<(f64, usize)> {
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let rest: String = chars[i..].iter().take(3).map(|&(_, c)| c).collect();
    if let Some((word, n)) = NATIVE.iter().find(|(w, _)| rest.starts_with(w)) {
        let len = word.chars().count();
        // "열다섯", "스물두": tens and ones.
        if matches!(*n, 10 | 20) {
            let tail: String = chars[i + len..].iter().take(2).map(|&(_, c)| c).collect();
            if let Some((w, m)) = NATIVE.iter().find(|(w, m)| *m < 10 && tail.starts_with(w)) {
                return Some((f64::from(n + m), i + len + w.chars().count()));
            }
        }
        return Some((f64::from(*n), i + len));
    }
    let digit = |c: char| SINO_DIGITS.iter().find(|&&(d, _)| d == c).map(|&(_, v)| v);
    let small = |c: char| SMALL_UNITS.iter().find(|&&(u, _)| u == c).map(|&(_, v)| v);
    let big = |c: char| BIG_UNITS.iter().find(|&&(u, _)| u == c).map(|&(_, v)| v);
    let (mut total, mut group, mut pending) = (0.0, 0u32, None::<u32>);
    let mut j = i;
    let mut has_unit = false;
    while let Some(c) = at(j) {
        if let Some(d) = digit(c) {
            if pending.is_some() {
                break;
            }
            pending = Some(d);
        } else if let Some(u) = small(c) {
            group += pending.take().unwrap_or(1) * u;
            has_unit = true;
        } else if let Some(u) = big(c) {
            total += f64::from(group + pending.take().unwrap_or(0)).max(1.0) * u;
            group = 0;
            has_unit = true;
        } else {
            break;
        }
        j += 1;
    }
    let len = j - i;
    if len == 0 || (len < 2 && !has_unit) {
        return None;
    }
    Some((total + f64::from(group + pending.unwrap_or(0)), j))
}

/// English number words.
const ENGLISH: [(&str, u32); 28] = [
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

/// Words before "one" that make it a pronoun, not a number ("this one", "the one with").
const NOT_ONE: [&str; 8] = ["this", "that", "the", "which", "any", "each", "every", "no"];

/// The ASCII word of `chars` from `i` (lower-cased) and where it ends.
fn ascii_word(chars: &[(usize, char)], i: usize) -> (String, usize) {
    let mut j = i;
    let mut word = String::new();
    while let Some(&(_, c)) = chars.get(j).filter(|(_, c)| c.is_ascii_alphabetic()) {
        word.push(c.to_ascii_lowercase());
        j += 1;
    }
    (word, j)
}

/// English number words from `i` ("two", "twenty-five", "a dozen", "half a dozen", "two
/// dozen", "a hundred"): the value and where they end.
fn english(chars: &[(usize, char)], i: usize) -> Option<(f64, usize)> {
    let (word, end) = ascii_word(chars, i);
    let next = |from: usize| -> Option<(String, usize)> {
        matches!(chars.get(from), Some((_, ' ' | '-')))
            .then(|| ascii_word(chars, from + 1))
            .filter(|(w, _)| !w.is_empty())
    };
    let (mut value, mut end) = match word.as_str() {
        "dozen" => (12.0, end),
        "half" => match next(end) {
            Some((a, e)) if a == "a" || a == "an" => match next(e) {
                Some((d, e)) if d == "dozen" => return Some((6.0, e)),
                _ => return None,
            },
            _ => return None,
        },
        "a" => match next(end) {
            Some((w, e)) if w == "dozen" => (12.0, e),
            Some((w, e)) if w == "hundred" => (100.0, e),
            Some((w, e)) if w == "couple" => (2.0, e),
            _ => return None,
        },
        _ => {
            let (_, n) = ENGLISH.iter().find(|(w, _)| *w == word)?;
            if *n == 1 {
                let before: String = chars[..i]
                    .iter()
                    .rev()
                    .skip(1)
                    .take_while(|(_, c)| c.is_ascii_alphabetic())
                    .map(|&(_, c)| c.to_ascii_lowercase())
                    .collect::<Vec<char>>()
                    .into_iter()
                    .rev()
                    .collect();
                if NOT_ONE.contains(&before.as_str()) {
                    return None;
                }
            }
            let mut value = f64::from(*n);
            // "twenty-five", "twenty five".
            if *n >= 20
                && let Some((unit, e)) = next(end)
                && let Some((_, m)) = ENGLISH
                    .iter()
                    .find(|(w, m)| *w == unit && *m < 10 && *m > 0)
            {
                value += f64::from(*m);
                return Some((value, e));
            }
            (value, end)
        }
    };
    // "two dozen", "three hundred".
    if let Some((unit, e)) = next(end) {
        let times = match unit.as_str() {
            "dozen" => Some(12.0),
            "hundred" => Some(100.0),
            "thousand" => Some(1000.0),
            _ => None,
        };
        if let Some(times) = times {
            value *= times;
            end = e;
        }
    }
    Some((value, end))
}

/// The grounded number parameters of `tool` (see
/// [`ToolDefinition::grounded_parameters`]), in declaration order.
pub(crate) fn grounded_number_parameters(tool: &ToolDefinition) -> Vec<&String> {
    tool.grounded_parameters()
        .iter()
        .filter(|p| tool.parameter(p).is_some_and(is_number))
        .collect()
}

/// Whether `lower` (a request, lower-cased) writes a quantity where `tool` has a required
/// number parameter taken from the request (`from_request` or grounded) with no value
/// provider: "add a category called 'pet supplies'" writes no amount for an expense, which
/// the call would have to make up.
pub(crate) fn writes_every_required_number(tool: &ToolDefinition, lower: &str) -> bool {
    !requires_a_written_number(tool) || !quantities(lower).is_empty()
}

/// Whether `tool` has a required number parameter taken from the request with no value
/// provider (an expense's amount, a budget's limit): a request for it writes a quantity.
pub(crate) fn requires_a_written_number(tool: &ToolDefinition) -> bool {
    let required = tool.required_parameters();
    tool.copied_parameters().any(|param| {
        required.contains(&param.as_str())
            && !tool.has_value_provider(param)
            && tool.parameter(param).is_some_and(is_number)
    })
}

/// The values each grounded number parameter of `tool` may take for a request (`lower`,
/// lower-cased), as `(parameter, values)`: the quantities (see [`quantities`]) labelled for
/// it — written right after a word of its name or description ("키 160", "몸무게75"), or
/// right before a unit that begins with one ("3개") — if any are; otherwise the quantities
/// labelled for no other parameter; within its schema either way (whole numbers for an
/// integer, its `minimum` and `maximum`). An optional parameter takes only a labelled one: a
/// number written for something else ("7번방의 선물") is no value of it, and its values are
/// empty. A required one with no value is not listed (the model writes it unrestricted).
/// Nothing is read for a tool without grounded numbers.
pub(crate) fn grounded_numbers(
    tool: &ToolDefinition,
    lower: &str,
) -> Vec<(String, Vec<ValueChoice>)> {
    numbers_for(tool, &grounded_number_parameters(tool), lower)
}

/// The values each of `numbers` (number parameters of `tool`) may take for a request
/// (`lower`, lower-cased), read as [`grounded_numbers`] reads them: the quantities labelled
/// for it, else — for a required one — those labelled for none of `numbers`; within its
/// schema. A required parameter with no value is not listed.
pub(crate) fn numbers_for(
    tool: &ToolDefinition,
    numbers: &[&String],
    lower: &str,
) -> Vec<(String, Vec<ValueChoice>)> {
    if numbers.is_empty() {
        return Vec::new();
    }
    let found = quantities(lower);
    // Per quantity, the parameters it is labelled for: by the word before it if any is,
    // else by what follows it.
    let labels: Vec<Vec<&String>> = found
        .iter()
        .map(|q| {
            let strengths: Vec<(&String, u8)> = numbers
                .iter()
                .map(|p| (*p, label_strength(tool, p, lower, q)))
                .collect();
            let best = strengths.iter().map(|(_, s)| *s).max().unwrap_or(0);
            strengths
                .into_iter()
                .filter(|(_, s)| best > 0 && *s == best)
                .map(|(p, _)| p)
                .collect()
        })
        .collect();
    let required = tool.required_parameters();
    let mut out = Vec::new();
    for param in numbers {
        let Some(prop) = tool.parameter(param) else {
            continue;
        };
        let whole_only = admits_type(prop, "integer") && !admits_type(prop, "number");
        let fits = |q: &Quantity| {
            let bound = |key: &str| prop.get(key).and_then(Value::as_f64);
            (!whole_only || q.value.fract() == 0.0)
                && bound("minimum").is_none_or(|m| q.value >= m)
                && bound("maximum").is_none_or(|m| q.value <= m)
        };
        let fitting = || found.iter().zip(&labels).filter(|(q, _)| fits(q));
        let labelled: Vec<&Quantity> = fitting()
            .filter(|(_, for_whom)| for_whom.contains(param))
            .map(|(q, _)| q)
            .collect();
        let is_required = required.contains(&param.as_str());
        let chosen: Vec<&Quantity> = if !labelled.is_empty() {
            labelled
        } else if is_required {
            fitting()
                .filter(|(_, for_whom)| for_whom.is_empty())
                .map(|(q, _)| q)
                .collect()
        } else {
            Vec::new()
        };
        let mut values: Vec<ValueChoice> = Vec::new();
        for q in chosen {
            let value = number_value(q.value, whole_only);
            if !values.iter().any(|c| c.value == value) {
                values.push(ValueChoice::new(value.clone(), value.to_string()));
            }
        }
        if !values.is_empty() || !is_required {
            out.push(((*param).clone(), values));
        }
    }
    out
}

/// Whether a property is a number or an integer.
pub(crate) fn is_number(prop: &Value) -> bool {
    admits_type(prop, "integer") || admits_type(prop, "number")
}

/// `value` as JSON: a whole number as an integer.
fn number_value(value: f64, integer: bool) -> Value {
    #[allow(clippy::cast_possible_truncation)] // whole and within i64 (checked)
    if (integer || value.fract() == 0.0) && value.abs() < 9e15 {
        return Value::from(value as i64);
    }
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// Korean particles a label word may carry ("사람은", "몸무게가", "키:").
const PARTICLES: &[&str] = &[
    "들의", "은", "는", "이", "가", "을", "를", "의", "들", "도", "로",
];

/// The stem of a word: without a trailing particle, when more than one syllable is left.
fn stem(word: &str) -> &str {
    PARTICLES
        .iter()
        .find_map(|p| {
            word.strip_suffix(p)
                .filter(|rest| rest.chars().count() >= 1 && word.chars().count() >= 2)
        })
        .unwrap_or(word)
}

/// English words of a description too common to label a number ("the 3", "how many 4").
const FUNCTION_WORDS: [&str; 16] = [
    "the", "and", "how", "many", "much", "what", "which", "with", "from", "into", "that", "this",
    "are", "can", "you", "your",
];

/// Words that make a parameter a count of things.
const COUNT_WORDS: [&str; 7] = [
    "how many",
    "number of",
    "count",
    "quantity",
    "개수",
    "수량",
    "몇",
];

/// Counters and the words of a parameter's description they are the unit of ("네 명" is a
/// number of people, "25%" a rate).
const COUNTER_WORDS: &[(&str, &[&str])] = &[
    ("명", &["사람", "인원", "people", "person"]),
    (
        "원",
        &[
            "금액", "가격", "돈", "비용", "price", "amount", "cost", "total",
        ],
    ),
    ("%", &["율", "%", "퍼센트", "percent", "rate"]),
    ("퍼센트", &["율", "%", "퍼센트", "percent", "rate"]),
    ("프로", &["율", "%", "퍼센트", "percent", "rate"]),
    ("살", &["나이", "age"]),
    ("개", &["개수", "수량", "count"]),
    ("cm", &["키", "height", "센티"]),
    ("센티", &["키", "height", "센티"]),
    ("kg", &["무게", "weight", "킬로"]),
    ("킬로", &["무게", "weight", "킬로"]),
    ("키로", &["무게", "weight", "킬로"]),
];

/// How quantity `q` of `lower` is labelled for parameter `param`: 2 when the word right
/// before it (across a space or a colon) ends with a stem of a word of the parameter's name
/// or description ("키 160", "몸무게75"); 1 when what follows it begins with such a word
/// ("3개" for "최대 개수(개)"), is a counter of what the description names ("네 명" for
/// "사람들의 수", "25%" for "할인율"), or is a word at all where the parameter is a count
/// ("two cans" for "How many to buy"); 0 when it is not.
fn label_strength(tool: &ToolDefinition, param: &str, lower: &str, q: &Quantity) -> u8 {
    let description = tool
        .parameter(param)
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_lowercase();
    let name = param.to_lowercase();
    let words: Vec<&str> = description
        .split(|c: char| !c.is_alphanumeric())
        .chain(name.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
        .map(stem)
        .filter(|w| w.chars().any(|c| ('가'..='힣').contains(&c)) || w.len() >= 3)
        .filter(|w| !FUNCTION_WORDS.contains(w))
        .collect();
    let before = lower[..q.start].trim_end_matches([' ', ':']);
    let word_before = stem(
        before
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or(""),
    );
    if !word_before.is_empty() && words.iter().any(|w| word_before.ends_with(w)) {
        return 2;
    }
    let after = lower[q.end..].trim_start();
    let letters: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
    let unit = !letters.is_empty() && words.iter().any(|w| letters.starts_with(w));
    // A count ("How many to buy", "개수") counts the thing named right after the number
    // ("two cans of chickpeas", "a dozen eggs").
    let counts = COUNT_WORDS
        .iter()
        .any(|w| description.contains(w) || name.contains(w));
    let counter = (counts && !letters.is_empty())
        || COUNTER_WORDS.iter().any(|(counter, named)| {
            after.starts_with(counter)
                && named
                    .iter()
                    .any(|n| description.contains(n) || name.contains(n))
        });
    u8::from(unit || counter)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<f64> {
        quantities(text).into_iter().map(|q| q.value).collect()
    }

    #[test]
    fn digits_myriads_and_words_are_read_as_people_write_them() {
        assert_eq!(values("총액은 92,000원이야"), [92000.0]);
        assert_eq!(
            values("원래 가격이 13만원인데 20퍼센트 할인"),
            [130000.0, 20.0]
        );
        assert_eq!(
            values("원가가 오만원이고 할인율은 십오프로야"),
            [50000.0, 15.0]
        );
        assert_eq!(values("다섯명이 선물값 삼만칠천원을"), [5.0, 37000.0]);
        assert_eq!(values("참석한 사람은 네명이고"), [4.0]);
        assert_eq!(values("13만 5천원"), [135000.0]);
        assert_eq!(values("3만2천원 질렀어"), [32000.0]);
        assert_eq!(values("택시비 만2천5백원, 만오천원"), [12500.0, 15000.0]);
        assert_eq!(
            values("a 150k cap, 5km away, 12K won"),
            [150000.0, 5.0, 12000.0]
        );
        assert_eq!(values("1.5배"), [1.5]);
        assert_eq!(values("몸무게75키로에 키180"), [75.0, 180.0]);
        assert_eq!(values("add two cans and a dozen eggs"), [2.0, 12.0]);
        assert_eq!(
            values("twenty-five minutes, half a dozen rolls"),
            [25.0, 6.0]
        );
        assert_eq!(values("this one, not that one; one cup"), [1.0]);
    }

    #[test]
    fn an_add_writes_each_required_number_it_cannot_choose() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "amount": {"type": "integer"},
                "category": {"type": "string"},
                "level": {"type": "integer"},
                "tip": {"type": ["integer", "null"]}
            },
            "required": ["amount", "category", "level"]
        });
        let tool = ToolDefinition::builder("add_expense", "d")
            .schema(crate::tool::ToolSchema::from_validation(schema))
            .values("level", || vec![crate::tool::ValueChoice::new(1, "1단계")])
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        assert!(writes_every_required_number(&tool, "커피 4500원 적어줘"));
        assert!(writes_every_required_number(&tool, "lunch, twelve dollars"));
        assert!(
            !writes_every_required_number(&tool, "add a new category called 'pet supplies'"),
            "no amount"
        );
        let levels_only = ToolDefinition::builder("add_habit", "d")
            .schema(crate::tool::ToolSchema::from_validation(
                serde_json::json!({
                    "type": "object",
                    "properties": {"level": {"type": "integer"}},
                    "required": ["level"]
                }),
            ))
            .values("level", || vec![crate::tool::ValueChoice::new(1, "1단계")])
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        assert!(
            writes_every_required_number(&levels_only, "담배 끊는 거 넣어줘"),
            "a provider's number is chosen, not written"
        );
    }

    #[test]
    fn dates_times_and_syllables_are_no_quantities() {
        assert!(values("3/7에 9:30까지, 2023.11.3").is_empty());
        assert!(values("이번 주에 사과 먹었어").is_empty());
        assert!(values("오늘 일정").is_empty());
    }
}
