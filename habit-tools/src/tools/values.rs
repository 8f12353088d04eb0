//! The value providers of the habit tools: what a model may write, this turn, for the
//! parameters whose valid values the app knows — catalog ids, the user's active habit ids,
//! the display categories, today and yesterday. Each value comes with the label the prompt
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

/// Every catalog id (`query_protocol`'s `id`).
pub fn catalog_ids() -> Vec<ValueChoice> {
    catalog()
        .entries()
        .iter()
        .map(|entry| {
            ValueChoice::new(
                entry.id.as_str(),
                format!("{} · {}", entry.title, kind_label(&entry.details)),
            )
        })
        .collect()
}

/// The ids a habit can be made from: build and break protocols (`add_habit`'s
/// `protocol_id`; R8 refuses diets).
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

/// The user's active habits, by id, labelled with their own words (`habit_id`).
pub fn active_habit_ids(coach: Dep<Coach>) -> Result<Vec<ValueChoice>, HabitError> {
    Ok(coach
        .list_active_habits()?
        .items
        .into_iter()
        .map(|habit| ValueChoice::new(habit.id, habit.framed_text))
        .collect())
}

/// `today` and `yesterday`, labelled with their dates (`log_tracker_entry`'s `date`): a model
/// knows what the user said, not the calendar.
pub fn recent_days(coach: Dep<Coach>) -> Vec<ValueChoice> {
    let today = coach.today();
    let mut days = vec![ValueChoice::new("today", format!("오늘 ({today})"))];
    if let Ok(yesterday) = today.yesterday() {
        days.push(ValueChoice::new("yesterday", format!("어제 ({yesterday})")));
    }
    days
}
