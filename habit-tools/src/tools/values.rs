//! The value providers of the habit tools: what a model may write, this turn, for the
//! parameters whose valid values the app knows — catalog ids, the user's active habit ids,
//! the display categories, the words a search finds something with, the tracker values, today and yesterday. Each value comes with the label the prompt
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

/// The two tracker values (`log_tracker_entry`'s `value`, also `from_request`), with the
/// words people use for them, so a request that says "쉴게" can only be logged as `blank`
/// and one that says "했어" only as `done`; a request that says neither leaves the choice to
/// the model. "못 했어" is not a day done: `blank`'s `못 했` is the longer word there, so it
/// is the one the request mentions.
pub fn tracker_values() -> Vec<ValueChoice> {
    vec![
        ValueChoice::new("done", "했음").with_words(["했", "완료", "체크"]),
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

/// `today` and `yesterday`, labelled with their dates (`log_tracker_entry`'s `date`): a model
/// knows what the user said, not the calendar. The other words for them count as mentions:
/// "어젯밤에 마셨어" is yesterday though it never writes "어제".
pub fn recent_days(coach: Dep<Coach>) -> Vec<ValueChoice> {
    let today = coach.today();
    let mut days =
        vec![ValueChoice::new("today", format!("오늘 ({today})")).with_words(["방금", "아까"])];
    if let Ok(yesterday) = today.yesterday() {
        days.push(
            ValueChoice::new("yesterday", format!("어제 ({yesterday})"))
                .with_words(["어젯", "지난밤"]),
        );
    }
    days
}
