//! The value providers of the habit tools: what a model may write, this turn, for the
//! parameters whose valid values the app knows — catalog ids, the user's active habit ids,
//! the display categories, the words a search finds something with, the tracker values, the days of the past week. Each value comes with the label the prompt
//! shows the model and the confirmation dialog shows the person (a protocol's title and kind,
//! a habit's own words, the date in full).

use agent_core::{Dep, ValueChoice};

use crate::catalog::{ProtocolDetails, catalog};
use crate::coach::Coach;
use crate::error::HabitError;

/// What a catalog entry is, in the words the dialog uses.
fn kind_label(details: &ProtocolDetails) -> &'static str {
    match details {
        ProtocolDetails::Build(_) => "만들 습관",
        ProtocolDetails::Break(_) => "끊을 습관",
        ProtocolDetails::Diet(_) => "식단",
    }
}

/// Every catalog id (`query_protocol`'s `id`), labelled with its title and kind; its tags are
/// the other words people use for it ("기분" is about "하루 한 번 마음 날씨").
pub fn catalog_ids() -> Vec<ValueChoice> {
    catalog()
        .entries()
        .iter()
        .map(|entry| {
            ValueChoice::new(
                entry.id.as_str(),
                format!("{} · {}", entry.title, kind_label(&entry.details)),
            )
            .with_words(&entry.tags)
        })
        .collect()
}

/// The ids a habit can be made from: build and break protocols (`add_habit`'s
/// `protocol_id`; R8 refuses diets), labelled and with words as in [`catalog_ids`].
pub fn protocol_ids() -> Vec<ValueChoice> {
    catalog()
        .entries()
        .iter()
        .filter(|entry| !matches!(entry.details, ProtocolDetails::Diet(_)))
        .map(|entry| {
            ValueChoice::new(
                entry.id.as_str(),
                format!("{} · {}", entry.title, kind_label(&entry.details)),
            )
            .with_words(&entry.tags)
        })
        .collect()
}

/// The display categories in Korean (`search_catalog`'s `category`), labelled with what
/// else people call them (`디지털`: 스마트폰, 휴대폰, 화면, …).
pub fn categories() -> Vec<ValueChoice> {
    catalog()
        .categories()
        .iter()
        .map(|category| {
            let label = format!("{} ({})", category.name, category.aliases.join(", "));
            ValueChoice::new(category.name.as_str(), label)
        })
        .collect()
}

/// The words a catalog search finds something with (`search_catalog`'s `keyword`, which is
/// also `from_request`: the model may write only those the request mentions): the display
/// categories' names and aliases, every entry's tags, and the words of its title of two
/// characters or more. `습관` is left out — every entry is one, so it finds nothing in
/// particular. Each is labelled with itself.
pub fn search_terms() -> Vec<ValueChoice> {
    let catalog = catalog();
    let mut terms: Vec<&'static str> = Vec::new();
    let mut add = |term: &'static str| {
        if term != "습관" && !term.is_empty() && !terms.contains(&term) {
            terms.push(term);
        }
    };
    for category in catalog.categories() {
        add(category.name.as_str());
        category.aliases.iter().for_each(|alias| add(alias));
    }
    for entry in catalog.entries() {
        entry.tags.iter().for_each(|tag| add(tag));
        entry
            .title
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| word.chars().count() >= 2)
            .for_each(&mut add);
    }
    terms
        .into_iter()
        .map(|term| ValueChoice::new(term, term))
        .collect()
}

/// The three levels of a habit sentence (`add_habit`'s `frame_level`, also `from_request`),
/// labelled as the dialog shows them, so a request that asks for an identity sentence
/// ("정체성으로", "나는 … 사람") can only be written at level 3; one that names no level
/// leaves it to the model. Level 1 and 2 have no words of their own: "행동" and "시점" are as
/// often about the habit as about its sentence.
pub fn frame_levels() -> Vec<ValueChoice> {
    vec![
        ValueChoice::new(1, "1단계"),
        ValueChoice::new(2, "2단계"),
        ValueChoice::new(3, "3단계 정체성").with_words(["사람"]),
    ]
}

/// The two tracker values (`log_tracker_entry`'s `value`, also `from_request`), with the
/// words people use for them, so a request that says "쉴게" can only be logged as `blank`
/// and one that says "했어" only as `done`; a request that says neither leaves the choice to
/// the model. "못 했어" is not a day done: `blank`'s `못 했` is the longer word there, so it
/// is the one the request mentions. Nor is "기록 안 했네, 넣어줘" a day off: what was not
/// done there is the logging, so `done`'s `기록 안 했` is the longer word.
pub fn tracker_values() -> Vec<ValueChoice> {
    vec![
        ValueChoice::new("done", "했음").with_words([
            "했",
            "완료",
            "체크",
            // A missed log, not a missed day.
            "기록 안 했",
            "기록 안했",
            "기록을 안 했",
            "기록 못 했",
            "기록 못했",
            "기록을 못 했",
            "체크 안 했",
            "체크 안했",
            "체크를 안 했",
            "체크 못 했",
            "체크 못했",
        ]),
        ValueChoice::new("blank", "일부러 쉼").with_words([
            "쉰", "쉴", "쉬는", "쉬어", "쉬었", "휴식", "못 했", "못했", "안 했", "안했",
        ]),
    ]
}

/// The user's active habits, by id, labelled with their own words (`habit_id`); the words
/// people also use for them are the catalog protocol's tags and title, so "독서" is about a
/// habit written "자기 전 책 10쪽 읽기".
pub fn active_habit_ids(coach: Dep<Coach>) -> Result<Vec<ValueChoice>, HabitError> {
    let catalog = catalog();
    Ok(coach
        .list_active_habits()?
        .items
        .into_iter()
        .map(|habit| {
            let words: Vec<&str> = catalog
                .get(&habit.protocol_id)
                .map(|entry| {
                    let mut words: Vec<&str> = entry.tags.iter().map(String::as_str).collect();
                    words.push(entry.title.as_str());
                    words
                })
                .unwrap_or_default();
            ValueChoice::new(habit.id, habit.framed_text).with_words(words)
        })
        .collect())
}

/// How many days before yesterday a log may name by its date (`2025-03-08`): the rest of
/// the week, so every weekday names one day ("토요일에 했어").
const DATED_DAYS: i16 = 5;

/// `today`, `yesterday` and the five days before (`log_tracker_entry`'s `date`), labelled
/// with their dates: a model knows what the user said, not the calendar. The other words for
/// them count as mentions: "어젯밤에 마셨어" is yesterday though it never writes "어제", and
/// "8일 토요일에", "3/8에" or "그저께" name their day, which the call then writes as
/// `YYYY-MM-DD` instead of leaving the date out (and meaning today).
pub fn recent_days(coach: Dep<Coach>) -> Vec<ValueChoice> {
    let today = coach.today();
    let mut days = vec![
        ValueChoice::new("today", format!("오늘 ({today})"))
            .with_words(["방금", "아까"])
            .with_words(day_words(today)),
    ];
    let mut day = today;
    for back in 1..=DATED_DAYS + 1 {
        let Ok(earlier) = day.yesterday() else {
            break;
        };
        day = earlier;
        let choice = match back {
            1 => ValueChoice::new("yesterday", format!("어제 ({day})"))
                .with_words(["어젯", "지난밤"]),
            2 => ValueChoice::new(day.to_string(), format!("그저께 ({day})"))
                .with_words(["그제", "엊그제"]),
            _ => ValueChoice::new(day.to_string(), format!("{} ({day})", weekday(day))),
        };
        let mut choice = choice.with_words(day_words(day));
        if back == 2 {
            choice = choice.with_words([weekday(day)]);
        }
        days.push(choice);
    }
    days
}

/// The ways a request writes a day by its number: "8일", "3월 8일", "3/8", "03-08".
fn day_words(day: jiff::civil::Date) -> [String; 4] {
    let (month, date) = (day.month(), day.day());
    [
        format!("{date}일"),
        format!("{month}월 {date}일"),
        format!("{month}/{date}"),
        format!("{month:02}-{date:02}"),
    ]
}

/// The day of the week in Korean ("토요일").
fn weekday(day: jiff::civil::Date) -> &'static str {
    use jiff::civil::Weekday;
    match day.weekday() {
        Weekday::Monday => "월요일",
        Weekday::Tuesday => "화요일",
        Weekday::Wednesday => "수요일",
        Weekday::Thursday => "목요일",
        Weekday::Friday => "금요일",
        Weekday::Saturday => "토요일",
        Weekday::Sunday => "일요일",
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Date, FixedClock, Store};

    #[test]
    fn recent_days_name_the_past_week_by_its_words() {
        let store = Store::open_in_memory().expect("store");
        let clock = Arc::new(FixedClock::new(Date::constant(2025, 3, 10)));
        let coach = Coach::new(Arc::new(store), clock);
        let days = recent_days(Dep::new(coach));
        let values: Vec<String> = days
            .iter()
            .map(|d| d.value.as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(
            values,
            [
                "today",
                "yesterday",
                "2025-03-08",
                "2025-03-07",
                "2025-03-06",
                "2025-03-05",
                "2025-03-04"
            ]
        );
        assert_eq!(days[2].label, "그저께 (2025-03-08)");
        assert!(days[2].words.iter().any(|w| w == "토요일"));
        assert_eq!(days[3].label, "금요일 (2025-03-07)");
        assert!(days[3].words.iter().any(|w| w == "3/7"));
        assert!(days[1].words.iter().any(|w| w == "3월 9일"));
    }
}
