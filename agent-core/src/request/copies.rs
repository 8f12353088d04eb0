//! What a grounded text parameter may copy from a request: the request with the words that
//! cannot be its value blanked out, so a model that writes the value as a stretch of the
//! request cannot pick them.
//!
//! A grounded string (see [`ToolDefinition::grounded_parameters`]) is written as a copy of
//! the request; left to itself a small model copies the request's question ("리사 생일
//! 언제야" → `friendName: "생일"`), its verb (`query: "검색해줘"`) or the wrong side of a
//! route (`origin` and `destination` both "천지연폭포"). Which words are blanked depends on
//! what the parameter holds, judged from its name and description:
//!
//! - every kind: a Korean request's own verb — a word that asks for something ("검색해줘",
//!   "추가해놔", "틀어줘", "메모 추가할게");
//! - a **name** (a place, a person, a currency, a search term — anything not below) also:
//!   an English request's asking words ("find", "please", "add"), the words of what the tool
//!   is about (its name and descriptions: "생일", "환율",
//!   "날씨", "recipe"), question and filler words ("언제", "얼마나", "지금", "이거",
//!   "근데"), the predicate that ends a Korean clause ("어때?", "걸릴까?"), a verb that
//!   links to the next clause ("걸어서"), a time where the tool has a time parameter, an
//!   e-mail address, a link or a phone number where the parameter holds none, the number
//!   written for a number parameter with the word that labels it ("10 min"), and the
//!   other side of a from/to pair (for the currency or unit converted *from*: "유로로",
//!   "to grams", the "ml" of "how many ml"; for a destination: "이중섭거리에서"); and a
//!   name does not run on past a word that ends in a particle ("부산은 지금" is no place);
//! - a **time** (a date, a deadline, a time of day) keeps only the words that say when
//!   ("금요일까지", "오전 9시부터");
//! - a **text** (a message, a memo's content, a title) keeps everything else: its value is a
//!   phrase of its own, with particles and time words in it.
//!
//! Where blanking leaves no word to copy, an optional parameter is left out and a required
//! one copies from the whole request.

use std::collections::BTreeMap;

use serde_json::Value;

use super::particles::{TRAILING_PARTICLES, particle_stem};
use super::quantities::grounded_numbers;
use super::text::{Request, has_hangul, name_parts};
use crate::tool::ToolDefinition;
use crate::tool::schema::admits_type;

/// The character that stands for a blanked one: no request contains it, and a copy can
/// neither hold it nor cross it.
const BLANK: char = '\0';

/// Per grounded string parameter of `tool` whose copy the request narrows, the text it copies
/// from: the request with the words that cannot be its value blanked (see the module docs). Parameters
/// the request does not narrow are left out (they copy from the whole request).
pub(crate) fn copy_sources(tool: &ToolDefinition, request: &Request) -> BTreeMap<String, String> {
    narrowed(tool, request)
        .into_iter()
        .filter_map(|(param, narrowed)| match narrowed {
            Narrowed::To(text) => Some((param, text)),
            Narrowed::Nothing => None,
        })
        .collect()
}

/// The optional grounded string parameters of `tool` for which the request leaves nothing
/// to copy: the call leaves them out ("set a timer for 10 min" has no label for the timer —
/// "timer" is the tool's topic, "10 min" its length).
pub(crate) fn nothing_to_copy(tool: &ToolDefinition, request: &Request) -> Vec<String> {
    let required = tool.required_parameters();
    narrowed(tool, request)
        .into_iter()
        .filter(|(param, narrowed)| {
            *narrowed == Narrowed::Nothing && !required.contains(&param.as_str())
        })
        .map(|(param, _)| param)
        .collect()
}

/// What is left of a request for one parameter to copy.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Narrowed {
    /// This text, with blanks.
    To(String),
    /// No word that could be its value.
    Nothing,
}

/// Each grounded string parameter of `tool` the request narrows, and what is left of it.
fn narrowed(tool: &ToolDefinition, request: &Request) -> Vec<(String, Narrowed)> {
    let text = request.text();
    let words = words(text);
    let mut out = declared_copies(tool, text, &words);
    let string_params: Vec<(&String, &Value, Kind)> = tool
        .grounded_parameters()
        .iter()
        .filter_map(|param| Some((param, tool.parameter(param)?)))
        .filter(|(param, prop)| admits_type(prop, "string") && !tool.has_value_provider(param))
        .map(|(param, prop)| (param, prop, Kind::of(param, prop)))
        .collect();
    if string_params.is_empty() {
        return out;
    }
    // A time the request writes is for the tool's time parameter, where it has one.
    let has_time = string_params.iter().any(|(_, _, kind)| *kind == Kind::Time);
    // What the tool is about, read once for all its names.
    let topic = if string_params.iter().any(|(_, _, kind)| *kind == Kind::Name) {
        topic_words(tool)
    } else {
        Vec::new()
    };
    // So is a number it writes for a number parameter, with the word that labels it ("10
    // min" of a timer's `minutes`).
    let mut numbers: Vec<f64> = Vec::new();
    let mut number_words: Vec<String> = Vec::new();
    for (param, values) in grounded_numbers(tool, request.lower()) {
        if values.is_empty() {
            continue;
        }
        numbers.extend(values.iter().filter_map(|choice| choice.value.as_f64()));
        number_words.extend(name_parts(&param));
        if let Some(prop) = tool.parameter(&param) {
            number_words.extend(key_words(without_examples(description_of(prop))));
        }
    }
    let labels_a_number = |word: &str| {
        let lower = word.to_lowercase();
        lower.chars().count() >= 2
            && number_words
                .iter()
                .any(|w| w.starts_with(&lower) || lower.starts_with(w.as_str()))
    };
    for (param, prop, kind) in string_params {
        let role = Role::of(param, prop);
        let about_contacts = is_about_contacts(param, prop);
        let mut chars: Vec<char> = text.chars().collect();
        let mut left = 0;
        let mut after_number = false;
        for (i, word) in words.iter().enumerate() {
            let bare = word.bare.as_str();
            let before = i.checked_sub(1).and_then(|j| words.get(j));
            let other_side = role.is_other_side(bare, before.map(|w| w.bare.as_str()));
            let a_number = is_number_of(bare, &numbers);
            let blank = asks(bare)
                || match kind {
                    Kind::Name => {
                        asks_in_english(bare)
                            || is_topic(bare, &topic)
                            || is_question_or_filler(bare)
                            || is_connective(bare)
                            || (word.clause_final && is_predicate(bare))
                            || (has_time && is_time(bare))
                            || (!about_contacts && is_contact(bare))
                            || a_number
                            || (after_number && labels_a_number(bare))
                            || other_side
                    }
                    Kind::Time => !is_time(bare) || other_side,
                    Kind::Text => false,
                };
            after_number = a_number;
            if blank {
                for c in &mut chars[word.start..word.end] {
                    *c = BLANK;
                }
            } else {
                if !ARTICLES.contains(&bare.to_lowercase().as_str()) {
                    left += 1;
                }
                // A name ends at a word that ends in a particle ("부산은 | 지금").
                if kind == Kind::Name
                    && ends_in_particle(bare)
                    && let Some(c) = chars.get_mut(word.end)
                    && c.is_whitespace()
                {
                    *c = BLANK;
                }
            }
        }
        let narrowed: String = chars.into_iter().collect();
        if left == 0 {
            out.push((param.clone(), Narrowed::Nothing));
        } else if narrowed != text {
            out.push((param.clone(), Narrowed::To(narrowed)));
        }
    }
    out
}

/// The free-text parameters `tool` declares [`from_request`](ToolDefinition::from_request_parameters)
/// (without a value provider), each copying from `text` with the request's own verbs
/// blanked ([`request_verbs`]): a title or a sentence is the person's words for the thing,
/// not their ask for it ("자동차 보험 갱신하기 추가해 주세요" copies "자동차 보험 갱신하기").
/// Everything else stays: such a text keeps its own particles and time words.
fn declared_copies(tool: &ToolDefinition, text: &str, words: &[Word]) -> Vec<(String, Narrowed)> {
    let verbs = request_verbs(words);
    if !verbs.iter().any(|blank| *blank) {
        return Vec::new();
    }
    let mut chars: Vec<char> = text.chars().collect();
    for (word, _) in words.iter().zip(&verbs).filter(|(_, blank)| **blank) {
        for c in &mut chars[word.start..word.end] {
            *c = BLANK;
        }
    }
    let narrowed: String = chars.into_iter().collect();
    let left = words.iter().zip(&verbs).any(|(_, blank)| !blank);
    tool.from_request_parameters()
        .iter()
        .filter(|param| !tool.has_value_provider(param))
        .filter(|param| {
            tool.parameter(param)
                .is_some_and(|prop| admits_type(prop, "string"))
        })
        .map(|param| {
            let narrowed = if left {
                Narrowed::To(narrowed.clone())
            } else {
                Narrowed::Nothing
            };
            (param.clone(), narrowed)
        })
        .collect()
}

/// Which of a Korean request's `words` are its own verbs of asking: a word with an asking
/// ending ("넣어줘", "주세요"), and a word of a common action's verb (see
/// `verbs.rs`: "추가해", "지우고", "적어둬") that ends a clause, links to the next one
/// ("…고"), or comes right before such an ending, or such a verb's noun alone ending the
/// request ("세탁기 청소 추가") — but not one made a noun inside a name ("만들기", "추가
/// 자료").
fn request_verbs(words: &[Word]) -> Vec<bool> {
    let mut blank = vec![false; words.len()];
    for i in (0..words.len()).rev() {
        let bare = words[i].bare.as_str();
        if !has_hangul(bare) {
            continue;
        }
        let stem: String = bare.chars().take(2).collect();
        let rest: String = bare.chars().skip(2).collect();
        let verbal = super::verbs::is_ask(&stem)
            && !rest.starts_with('기')
            && if rest.is_empty() {
                // A bare action noun ends a request as its verb ("세탁기 청소 추가").
                i > 0 && words[i].clause_final
            } else {
                words[i].clause_final
                    || rest.ends_with('고')
                    || blank.get(i + 1).is_some_and(|next| *next)
            };
        blank[i] = asks(bare) || verbal;
    }
    blank
}

/// English words that make no name alone ("a" of "set a timer").
const ARTICLES: [&str; 6] = ["a", "an", "the", "and", "or", "of"];

/// Whether `word` is a number the request writes for one of the tool's number parameters.
fn is_number_of(word: &str, numbers: &[f64]) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && word
            .replace(',', "")
            .parse::<f64>()
            .is_ok_and(|n| numbers.contains(&n))
}

/// What a parameter holds, as far as copying goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A name, a place, a term: a short noun phrase.
    Name,
    /// A date, a time, a deadline: time words and particles belong in it.
    Time,
    /// A message, a memo, a title: a phrase of its own.
    Text,
}

/// Words of a parameter's name or description that say it holds a time.
const TIME_WORDS: [&str; 17] = [
    "date",
    "time",
    "datetime",
    "timestamp",
    "day",
    "deadline",
    "due",
    "날짜",
    "일시",
    "일자",
    "시간",
    "기한",
    "마감",
    "시각",
    "요일",
    "기간",
    "데드라인",
];

/// Words of a parameter's name or description that say it holds a text of its own.
const TEXT_WORDS: [&str; 26] = [
    "content",
    "message",
    "text",
    "body",
    "note",
    "memo",
    "comment",
    "description",
    "reason",
    "title",
    "prompt",
    "question",
    "lyrics",
    "내용",
    "메시지",
    "메모",
    "본문",
    "문구",
    "설명",
    "문장",
    "사유",
    "질문",
    "텍스트",
    "제목",
    "가사",
    "할일",
];

impl Kind {
    /// The kind of `param`, by its name's parts ("start_datetime", "content") or else by the
    /// head of its description — the last word of a Korean one ("일정 시작 일자 및 시간"),
    /// the words before the first preposition of an English one ("The deadline for the
    /// task") — so what the parameter is *about* ("시간을 알고 싶은 지역") does not count.
    fn of(param: &str, prop: &Value) -> Self {
        let parts = name_parts(param);
        let head = description_head(description_of(prop));
        let has = |words: &[&str]| {
            words.iter().any(|w| {
                parts.iter().any(|part| part == w)
                    || head
                        .iter()
                        .any(|h| h == w || (has_hangul(w) && h.ends_with(w)))
            })
        };
        if has(&TEXT_WORDS) {
            Self::Text
        } else if has(&TIME_WORDS) {
            Self::Time
        } else {
            Self::Name
        }
    }
}

/// English words that end a description's head ("The name *of* the task").
const PREPOSITIONS: [&str; 14] = [
    "of", "for", "to", "from", "in", "on", "at", "with", "by", "that", "which", "who", "as",
    "about",
];

/// The words that say what a description describes: a Korean one's last word, without its
/// particle ("검색할 친구의 이름" → 이름); an English one's words up to its first preposition
/// ("the deadline for the task" → the, deadline). Examples and parentheses are left out.
fn description_head(description: &str) -> Vec<String> {
    let text = without_examples(description).to_lowercase();
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = plain
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if has_hangul(&plain) {
        words
            .iter()
            .rev()
            .find(|w| has_hangul(w))
            .map(|w| vec![stem_of(w).to_owned()])
            .unwrap_or_default()
    } else {
        words
            .iter()
            .take_while(|w| !PREPOSITIONS.contains(w))
            .map(|w| (*w).to_owned())
            .collect()
    }
}

/// Which end of a from/to pair a parameter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Where something comes from (`origin`, `from_unit`, "출발지", "convert from").
    From,
    /// Where it goes (`destination`, `to_unit`, "도착지", "convert to").
    To,
    /// Neither.
    Neither,
}

impl Role {
    fn of(param: &str, prop: &Value) -> Self {
        let description = description_of(prop).to_lowercase();
        let last = description
            .split(|c: char| !c.is_alphanumeric())
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        let parts = name_parts(param);
        let any = |words: &[&str]| parts.iter().any(|p| words.contains(&p.as_str()));
        if any(&[
            "from",
            "origin",
            "source",
            "src",
            "base",
            "start",
            "departure",
        ]) || last == "from"
            || description.contains("출발")
        {
            Self::From
        } else if any(&[
            "to",
            "destination",
            "dest",
            "target",
            "arrival",
            "end",
            "until",
        ]) || last == "to"
            || description.contains("도착")
            || description.contains("목적지")
            || description.contains("종료")
        {
            Self::To
        } else {
            Self::Neither
        }
    }

    /// Whether `word` (after `before`) names the other end of the pair: "유로로", "to
    /// euros", "in tsp" or "how many ml" for a `From`; "여의도역에서", "from cups" or the
    /// unit right after the amount ("2 cups") for a `To`.
    fn is_other_side(self, word: &str, before: Option<&str>) -> bool {
        let before = before.map(str::to_lowercase);
        let after = |words: &[&str]| before.as_deref().is_some_and(|b| words.contains(&b));
        match self {
            Self::From => {
                ends_with_particle_of(word, &["까지", "으로", "로", "에게", "한테"])
                    || after(&["to", "into", "in", "many", "much"])
            }
            Self::To => {
                ends_with_particle_of(word, &["에서", "부터"])
                    || after(&["from"])
                    || before.is_some_and(|b| {
                        !b.is_empty() && b.chars().all(|c| c.is_ascii_digit() || c == '.')
                    })
            }
            Self::Neither => false,
        }
    }
}

/// One whitespace-separated word of the request: its characters' range and its text without
/// the punctuation around it.
struct Word {
    start: usize,
    end: usize,
    bare: String,
    /// Whether a clause ends after it (a `.`, `?`, `!` or `~` after it, or the text's end).
    clause_final: bool,
}

fn words(text: &str) -> Vec<Word> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        let raw: String = chars[start..i].iter().collect();
        let trimmed = raw.trim_end_matches(|c: char| !c.is_alphanumeric());
        let clause_final = i == chars.len()
            || trimmed.len() < raw.len() && raw[trimmed.len()..].contains(['.', '?', '!', '~']);
        let bare = trimmed
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_owned();
        out.push(Word {
            start,
            end: i,
            bare,
            clause_final,
        });
    }
    out
}

/// Endings of a Korean word that asks for something ("검색해줘", "추가해놔", "메모 추가할게").
const ASKING_ENDINGS: [&str; 14] = [
    "줘",
    "줘요",
    "주세요",
    "줄래",
    "줄래요",
    "주라",
    "주실래요",
    "놔",
    "둬",
    "할게",
    "할게요",
    "할래",
    "할래요",
    "하지마",
];

/// English words that ask rather than name.
const ASKING_WORDS: [&str; 23] = [
    "please", "pls", "find", "show", "tell", "give", "search", "look", "lookup", "check", "could",
    "would", "can", "can't", "add", "remove", "delete", "put", "want", "need", "get", "set",
    "start",
];

/// Whether `word` asks for something: a Korean request verb ("검색해줘").
fn asks(word: &str) -> bool {
    ASKING_ENDINGS.iter().any(|e| word.ends_with(e))
}

/// Whether `word` is an English word that asks rather than names ("find", "please").
fn asks_in_english(word: &str) -> bool {
    ASKING_WORDS.contains(&word.to_lowercase().as_str())
}

/// Question words, fillers, pointing words and "now"s — no name of anything.
const FILLERS: [&str; 59] = [
    "언제",
    "얼마",
    "얼마나",
    "어디",
    "어디서",
    "뭐",
    "무엇",
    "몇",
    "어떻게",
    "어떤",
    "어때",
    "왜",
    "누구",
    "무슨",
    "지금",
    "현재",
    "오늘",
    "내일",
    "어제",
    "요즘",
    "근데",
    "그런데",
    "그리고",
    "그럼",
    "혹시",
    "좀",
    "제발",
    "빨리",
    "다시",
    "그냥",
    "이거",
    "이걸",
    "이걸로",
    "그거",
    "그걸",
    "그걸로",
    "저거",
    "이렇게",
    "그렇게",
    "what",
    "when",
    "where",
    "how",
    "now",
    "for",
    "my",
    "me",
    "i",
    "it",
    "to",
    "your",
    "our",
    "is",
    "are",
    "be",
    "you",
    "i'm",
    "many",
    "much",
];

fn is_question_or_filler(word: &str) -> bool {
    let lower = word.to_lowercase();
    let stem = stem_of(&lower);
    FILLERS.contains(&lower.as_str())
        || FILLERS.contains(&stem)
        || ["언제", "얼마", "어디", "어떻", "어떤", "몇"]
            .iter()
            .any(|q| lower.starts_with(q))
}

/// Endings of a Korean verb that links to the next clause ("걸어서", "나눠낼껀데",
/// "분담하려고"): no name.
const CONNECTIVE_ENDINGS: [&str; 12] = [
    "어서",
    "아서",
    "해서",
    "려고",
    "는데",
    "껀데",
    "니까",
    "지만",
    "는지",
    "으면",
    "하면",
    "한테서",
];

fn is_connective(word: &str) -> bool {
    CONNECTIVE_ENDINGS
        .iter()
        .any(|e| word.strip_suffix(e).is_some_and(|stem| !stem.is_empty()))
}

/// Words that say when: Korean ones (held in a word: "금요일까지", "오전9시~오후5시")
/// and English ones (whole words).
const TIME_MARKS: [&str; 18] = [
    "요일",
    "오늘",
    "내일",
    "모레",
    "어제",
    "주말",
    "오전",
    "오후",
    "아침",
    "저녁",
    "점심",
    "새벽",
    "정오",
    "자정",
    "다음주",
    "이번주",
    "다음달",
    "이번달",
];
const ENGLISH_TIME_WORDS: [&str; 30] = [
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "noon",
    "midnight",
    "morning",
    "afternoon",
    "evening",
    "night",
    "week",
    "weekend",
    "month",
    "year",
    "am",
    "pm",
    "next",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
];

/// Whether `word` says when: a time word ("금요일까지", "tomorrow"), or a number with a unit
/// of time or a date's separators ("9시부터", "4월", "2023.11.3", "10:30", "3pm").
fn is_time(word: &str) -> bool {
    let lower = word.to_lowercase();
    if TIME_MARKS.iter().any(|m| lower.contains(m)) || ENGLISH_TIME_WORDS.contains(&lower.as_str())
    {
        return true;
    }
    let rest = lower.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == lower.len() {
        return false;
    }
    let after_digits = rest.trim_start_matches(|c: char| c.is_ascii_digit() || ".:-/".contains(c));
    ["시", "분", "일", "월", "년", "주", "h", "am", "pm", "초"]
        .iter()
        .any(|unit| after_digits.starts_with(unit))
        || (after_digits.is_empty() && rest.chars().any(|c| ".:-/".contains(c)) && rest.len() > 1)
}

/// Whether `word` is an e-mail address, a link or a phone number: no name of a place or a
/// person, unless the parameter holds one (see [`is_about_contacts`]).
fn is_contact(word: &str) -> bool {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    word.contains('@')
        || word.contains("://")
        || word.starts_with("www.")
        || (digits >= 7
            && word
                .chars()
                .all(|c| c.is_ascii_digit() || "-+() .".contains(c)))
}

/// Whether a parameter holds an e-mail address, a link or a phone number, by its name or
/// description.
fn is_about_contacts(param: &str, prop: &Value) -> bool {
    let text = format!("{} {}", param, description_of(prop)).to_lowercase();
    [
        "mail", "url", "link", "phone", "tel", "number", "메일", "링크", "전화", "번호",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// Last syllables of a Korean predicate: what ends "어때?", "걸릴까?", "언제야", "돼".
const PREDICATE_ENDS: [char; 22] = [
    '요', '까', '야', '지', '니', '나', '래', '어', '아', '해', '줘', '돼', '다', '죠', '냐', '자',
    '게', '마', '라', '려', '봐', '네',
];

/// Whether `word`, ending a clause, is its predicate rather than a name: it ends in a
/// predicate's syllable and is no name with a copula ("판교역이에요" is 판교역).
fn is_predicate(word: &str) -> bool {
    word.chars()
        .last()
        .is_some_and(|c| PREDICATE_ENDS.contains(&c))
        && !["이에요", "예요", "입니다", "이야", "이다"]
            .iter()
            .any(|copula| {
                word.strip_suffix(copula)
                    .is_some_and(|s| s.chars().count() >= 2)
            })
}

/// Whether `word` ends in a particle after a stem of two syllables or more (one for a
/// particle of two: "엔에서").
fn ends_in_particle(word: &str) -> bool {
    TRAILING_PARTICLES
        .iter()
        .filter(|(p, _)| !matches!(*p, "의" | "좀"))
        .any(|(p, after_consonant)| fits_particle(word, p, *after_consonant))
}

/// Whether `word` ends in one of `particles` (after a stem it fits).
fn ends_with_particle_of(word: &str, particles: &[&str]) -> bool {
    TRAILING_PARTICLES
        .iter()
        .filter(|(p, _)| particles.contains(p))
        .any(|(p, after_consonant)| fits_particle(word, p, *after_consonant))
}

fn fits_particle(word: &str, particle: &str, after_consonant: Option<bool>) -> bool {
    particle_stem(word, particle, after_consonant).is_some()
}

/// `word` without a particle it ends in (see [`ends_in_particle`]).
fn stem_of(word: &str) -> &str {
    TRAILING_PARTICLES
        .iter()
        .find(|(p, after_consonant)| fits_particle(word, p, *after_consonant))
        .and_then(|(p, _)| word.strip_suffix(p))
        .unwrap_or(word)
}

/// English words too common to say what a tool is about.
const STOP_WORDS: [&str; 24] = [
    "what", "with", "from", "that", "this", "your", "have", "into", "about", "which", "when",
    "where", "there", "their", "them", "they", "will", "would", "should", "could", "given", "each",
    "other", "some",
];

/// Last syllables of a Korean word that describes or links rather than names ("저장된",
/// "검색할", "반환한다", "입력받아").
const MODIFIER_ENDS: [char; 14] = [
    '다', '는', '된', '할', '한', '고', '며', '면', '서', '게', '지', '요', '아', '어',
];

/// The words of what `tool` is about: its name's parts and the words of its description and
/// its parameters' names and descriptions (examples after "e.g." or "예:" left out) — Korean
/// nouns of two syllables or more without their particles ("연락처의" → 연락처), other words
/// of four letters or more.
fn topic_words(tool: &ToolDefinition) -> Vec<String> {
    let mut text = format!(
        "{} {}",
        name_parts(tool.name()).join(" "),
        without_examples(tool.description())
    );
    if let Some(props) = tool
        .parameters()
        .get("properties")
        .and_then(Value::as_object)
    {
        for (name, prop) in props {
            text.push(' ');
            text.push_str(&name_parts(name).join(" "));
            text.push(' ');
            text.push_str(without_examples(description_of(prop)));
        }
    }
    key_words(&text)
}

/// The words of `text` that say what something is: Korean nouns of two syllables or more
/// without their particles ("연락처의" → 연락처; no modifier such as "저장된"), other words of
/// four bytes or more (four letters, in English) that are not too common to say anything —
/// lower-cased, each once.
pub(super) fn key_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.to_lowercase().split(|c: char| !c.is_alphanumeric()) {
        let stem = stem_of(word);
        let hangul = stem.chars().filter(|c| is_syllable(*c)).count();
        let keep = if hangul > 0 {
            hangul >= 2
                && stem
                    .chars()
                    .last()
                    .is_some_and(|c| !MODIFIER_ENDS.contains(&c))
        } else {
            stem.len() >= 4 && !STOP_WORDS.contains(&stem)
        };
        if keep && !out.iter().any(|w| w == stem) {
            out.push(stem.to_owned());
        }
    }
    out
}

/// Whether `word` is one of the `topic` words: a Korean word starting with one ("생일이" —
/// 생일) or sharing its first two syllables with one ("재생해" — 재생목록; a name that ends
/// in one, "이중섭거리" — 거리, is a name), another
/// word equal to one but for a plural's ending ("recipes" — recipe). A word with a digit is
/// a value, whatever it shares.
fn is_topic(word: &str, topic: &[String]) -> bool {
    let lower = word.to_lowercase();
    if lower.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let head = |w: &str| -> Option<String> {
        let head: String = w.chars().take(2).collect();
        (head.chars().count() == 2 && head.chars().all(is_syllable)).then_some(head)
    };
    match head(&lower) {
        Some(h) => topic.iter().any(|t| {
            (has_hangul(t) && lower.starts_with(t.as_str())) || head(t).is_some_and(|th| th == h)
        }),
        None => topic.iter().any(|t| {
            lower == *t
                || lower.strip_suffix('s').is_some_and(|s| s == t)
                || lower.strip_suffix("es").is_some_and(|s| s == t)
                || t.strip_suffix('s').is_some_and(|s| s == lower)
        }),
    }
}

fn is_syllable(c: char) -> bool {
    ('가'..='힣').contains(&c)
}

/// A schema's description, or nothing.
pub(super) fn description_of(prop: &Value) -> &str {
    prop.get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// `text` up to where it starts giving examples ("e.g.", "예:", "such as").
pub(super) fn without_examples(text: &str) -> &str {
    let lower = text.to_lowercase();
    let cut = [
        "e.g.",
        "eg.",
        "ex)",
        "예:",
        "예)",
        "예시",
        "such as",
        "for example",
        "like ",
    ]
    .iter()
    .filter_map(|m| lower.find(m))
    .min()
    .unwrap_or(text.len());
    // Lower-casing can change byte lengths; the cut is kept only where it did not.
    if lower.len() == text.len() {
        text.get(..cut).unwrap_or(text)
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::{ToolResult, ToolSchema};

    fn tool(name: &str, description: &str, parameters: Value) -> ToolDefinition {
        ToolDefinition::builder(name.to_owned(), description.to_owned())
            .schema(ToolSchema::from_validation(parameters))
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool")
    }

    /// The words left to copy for `param`, in order.
    fn left(tool: &ToolDefinition, param: &str, request: &str) -> Vec<String> {
        let sources = copy_sources(tool, &Request::new(request));
        let source = sources.get(param).map_or(request, String::as_str);
        source
            .split(|c: char| c.is_whitespace() || c == BLANK)
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    }

    fn weather() -> ToolDefinition {
        tool(
            "informWeather",
            "특정 지역의 현재 날씨 정보 제공",
            serde_json::json!({"type": "object", "properties": {
                "location": {"type": "string", "description": "날씨 정보를 가져올 지역 이름"}
            }, "required": ["location"]}),
        )
    }

    #[test]
    fn a_name_is_no_question_verb_or_topic_word() {
        let weather = weather();
        assert_eq!(
            left(&weather, "location", "오늘 노원구 날씨 알려줘"),
            ["노원구"]
        );
        assert_eq!(
            left(&weather, "location", "부산은 지금 날씨가 어때?"),
            ["부산은"]
        );
        let birthday = tool(
            "searchFriendBirthday",
            "친구의 이름을 입력받아 생일 정보를 검색하는 함수",
            serde_json::json!({"type": "object", "properties": {
                "friendName": {"type": "string", "description": "검색할 친구의 이름"}
            }, "required": ["friendName"]}),
        );
        assert_eq!(left(&birthday, "friendName", "리사 생일 언제야"), ["리사"]);
        assert_eq!(
            left(&birthday, "friendName", "근데 준혁이는 생일이 언제야"),
            ["준혁이는"]
        );
        assert_eq!(
            left(&birthday, "friendName", "데이지 생일 언제지?"),
            ["데이지"]
        );
    }

    #[test]
    fn a_name_does_not_run_past_a_particle() {
        let sources = copy_sources(&weather(), &Request::new("부산은 서울 날씨"));
        let source = sources.get("location").expect("narrowed");
        // "부산은" and "서울" are both left, but no copy holds the two.
        assert!(source.starts_with("부산은\0서울"));
    }

    #[test]
    fn each_end_of_a_pair_leaves_out_the_other() {
        let walk = tool(
            "getWalkInfo",
            "출발지와 도착지를 입력받아 도보 거리와 도보 소요시간을 반환한다.",
            serde_json::json!({"type": "object", "properties": {
                "origin": {"type": "string", "description": "출발지 명칭"},
                "destination": {"type": "string", "description": "도착지 명칭"}
            }, "required": ["origin", "destination"]}),
        );
        let request = "이중섭거리에서 천지연폭포까지 도보로 얼마나 걸릴까?";
        assert_eq!(left(&walk, "origin", request), ["이중섭거리에서"]);
        assert_eq!(left(&walk, "destination", request), ["천지연폭포까지"]);
        let convert = tool(
            "units.convert",
            "Convert a cooking amount from one unit to another.",
            serde_json::json!({"type": "object", "properties": {
                "amount": {"type": "number"},
                "from_unit": {"type": "string", "description": "The unit to convert from, e.g. cups, grams"},
                "to_unit": {"type": "string", "description": "The unit to convert to"}
            }, "required": ["amount", "from_unit", "to_unit"]}),
        );
        let request = "how many grams is 2 cups";
        // "2" is the amount's; "how many grams" asks for the unit converted to.
        assert_eq!(left(&convert, "from_unit", request), ["cups"]);
        assert_eq!(left(&convert, "to_unit", request), ["grams"]);
        let request = "convert 2 cups to grams";
        assert_eq!(left(&convert, "from_unit", request), ["cups"]);
        assert_eq!(left(&convert, "to_unit", request), ["grams"]);
    }

    #[test]
    fn a_text_keeps_all_but_the_verb_and_a_time_its_time_words() {
        let memo = tool(
            "addMemo",
            "메모를 추가한다",
            serde_json::json!({"type": "object", "properties": {
                "title": {"type": "string", "description": "메모 제목"},
                "deadline": {"type": "string", "description": "마감 기한"}
            }, "required": ["title"]}),
        );
        let request = "오늘 장보기 메모 추가해줘";
        assert_eq!(left(&memo, "title", request), ["오늘", "장보기", "메모"]);
        assert_eq!(left(&memo, "deadline", request), ["오늘"]);
        let event = tool(
            "CreateEvent",
            "캘린더에 일정 추가",
            serde_json::json!({"type": "object", "properties": {
                "name": {"type": "string", "description": "추가할 일정의 이름"},
                "start_datetime": {"type": "string", "description": "일정 시작 일자 및 시간"},
                "end_datetime": {"type": "string", "description": "일정 종료 일자 및 시간"}
            }, "required": ["name", "start_datetime", "end_datetime"]}),
        );
        let request = "치과 진료 일정 6월 3일 오전 9시부터 11시까지 캘린더에 추가해줘";
        assert_eq!(left(&event, "name", request), ["치과", "진료"]);
        assert_eq!(
            left(&event, "start_datetime", request),
            ["6월", "3일", "오전", "9시부터"]
        );
        assert_eq!(
            left(&event, "end_datetime", request),
            ["6월", "3일", "오전", "11시까지"]
        );
    }

    #[test]
    fn a_name_is_no_address_unless_it_holds_one() {
        let contact = tool(
            "update_contact",
            "기존 연락처의 내용을 업데이트한다.",
            serde_json::json!({"type": "object", "properties": {
                "name": {"type": "string", "description": "현재 연락처에 저장된 이름"},
                "new_email": {"type": "string", "description": "업데이트할 이메일 주소"}
            }, "required": ["name"]}),
        );
        let request = "제이슨 연락처에 메일주소 추가해줘 jsonnn@mail.com";
        assert_eq!(left(&contact, "name", request), ["제이슨", "메일주소"]);
        assert_eq!(
            left(&contact, "new_email", request),
            ["제이슨", "메일주소", "jsonnn@mail.com"]
        );
    }

    #[test]
    fn a_request_with_nothing_else_to_copy_is_left_whole_or_left_out() {
        assert!(copy_sources(&weather(), &Request::new("날씨 알려줘")).is_empty());
        assert!(nothing_to_copy(&weather(), &Request::new("날씨 알려줘")).is_empty());
        let timer = tool(
            "set_timer",
            "Start a kitchen timer.",
            serde_json::json!({"type": "object", "properties": {
                "minutes": {"type": "integer", "description": "Length of the timer, in minutes"},
                "label": {"type": "string", "description": "What the timer is for"}
            }, "required": ["minutes"]}),
        );
        let request = Request::new("set a timer for 10 min");
        assert_eq!(nothing_to_copy(&timer, &request), ["label"]);
        let request = "set a 12 minute timer for the eggs";
        assert_eq!(left(&timer, "label", request), ["a", "the", "eggs"]);
    }

    #[test]
    fn names_split_into_their_parts() {
        assert_eq!(name_parts("friendName"), ["friend", "name"]);
        assert_eq!(name_parts("units.convert"), ["units", "convert"]);
        assert_eq!(name_parts("start_datetime"), ["start", "datetime"]);
    }

    #[test]
    fn a_declared_text_copies_the_persons_words_without_their_ask() {
        let add = ToolDefinition::builder("add_task".to_owned(), "할 일 추가".to_owned())
            .schema(ToolSchema::from_validation(serde_json::json!({
                "type": "object",
                "properties": {"title": {"type": "string"}},
                "required": ["title"]
            })))
            .from_request("title")
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let left = |request: &str| left(&add, "title", request);
        assert_eq!(
            left("모레까지 자동차 보험 갱신하기 추가해 주세요"),
            ["모레까지", "자동차", "보험", "갱신하기"]
        );
        assert_eq!(left("건강검진 예약하기 추가해죠"), ["건강검진", "예약하기"]);
        assert_eq!(left("세탁기 청소 추가"), ["세탁기", "청소"]);
        assert_eq!(
            left("세탁소 건은 지우고, 택배 보내기 새로 넣어줘."),
            ["세탁소", "건은", "택배", "보내기", "새로"]
        );
        // A verb made a noun is part of the name.
        assert_eq!(left("발표 자료 만들기"), ["발표", "자료", "만들기"]);
    }
}
