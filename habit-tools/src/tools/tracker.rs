//! The tracker tools: `get_streak` (read-only) and `log_tracker_entry` (destructive, except a
//! deliberate blank, which is harmless to record and runs without asking).

use std::sync::Arc;

use agent_core::tool::DefinitionError;
use agent_core::{Dep, Tool, ToolCall, ToolDefinition, ToolError, ToolSchema, tool};
use serde_json::Value;

use super::on_blocking_thread;
use crate::coach::{Coach, LoggedEntry, NewEntry};
use crate::model::TrackerValue;
use crate::rules;
use crate::streak::StreakSummary;

/// 습관 하나의 연속 기록, 최근 30일 완료 수 등을 봅니다.
#[tool(label = "연속 기록 조회")]
pub async fn get_streak(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    habit_id: i64,
) -> Result<StreakSummary, ToolError> {
    on_blocking_thread(coach, move |coach| coach.get_streak(habit_id)).await
}

/// 습관 하나의 하루 기록을 남깁니다(하루 한 번).
#[tool(
    destructive,
    label = "기록하기",
    summary = "{habit_id}번 습관에 '{value}' 기록을 남깁니다 (날짜: {date})",
    confirm_if = *value != TrackerValue::Blank
)]
pub async fn log_tracker_entry(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    habit_id: i64,
    /// done=했음, blank=일부러 쉰 날
    value: TrackerValue,
    /// 날짜 YYYY-MM-DD(선택). 생략하면 오늘, 어제는 yesterday
    date: Option<String>,
    /// 짧은 메모(선택)
    #[schemars(length(max = rules::MAX_NOTE_CHARS))]
    note: Option<String>,
) -> Result<LoggedEntry, ToolError> {
    let entry = NewEntry {
        habit_id,
        value,
        date,
        note,
    };
    on_blocking_thread(coach, move |coach| coach.log_tracker_entry(entry)).await
}

/// The confirmation line for a `log_tracker_entry` call, for the person deciding: the day in
/// words (`오늘` when the model left the date out) and the value in Korean.
///
/// ```
/// # use serde_json::json;
/// let summary = habit_tools::tools::tracker::summarize_log(&json!({"habit_id": 3, "value": "done"}));
/// assert_eq!(summary, "3번 습관에 오늘 '완료' 기록을 남깁니다");
/// ```
pub fn summarize_log(args: &Value) -> String {
    let habit = match args.get("habit_id") {
        Some(Value::Number(id)) => id.to_string(),
        _ => "?".to_owned(),
    };
    let date = args
        .get("date")
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or_default();
    // The same words `resolve_date` reads; anything else is shown as given (the tool will
    // refuse it if it is not a date, after this dialog).
    let day = match date.to_lowercase().as_str() {
        "" | "today" | "오늘" => "오늘".to_owned(),
        "yesterday" | "어제" => "어제".to_owned(),
        _ => date.chars().take(20).collect(),
    };
    let value = match args.get("value").and_then(Value::as_str) {
        Some("done") => "완료",
        Some("blank") => "쉼",
        _ => "?",
    };
    format!("{habit}번 습관에 {day} '{value}' 기록을 남깁니다")
}

/// `log_tracker_entry`'s definition with [`summarize_log`] as its confirmation summary.
///
/// Why not `.tool::<log_tracker_entry>()`: a `#[tool]` summary can only be a template, and a
/// template renders an absent optional argument as `-` — here the common case, since models
/// usually leave `date` out — giving "(날짜: -)" where the person should read "오늘". The macro
/// has no computed-summary option and `ToolDefinition` cannot change one part of a built
/// definition, so this rebuilds it from the macro's own parts (same name, description, label,
/// schema, confirmation predicate, dependency, source and handler) with a summary function.
/// `Registry::discover` still finds the macro's version, with the template as a fallback.
pub fn definition() -> Result<ToolDefinition, DefinitionError> {
    let generated = <log_tracker_entry as Tool>::definition()?;
    let mut builder = ToolDefinition::builder(
        generated.name().to_owned(),
        generated.description().to_owned(),
    )
    .label(generated.label().to_owned())
    .schema(ToolSchema {
        parameters: generated.parameters().clone(),
        validation: generated.validation_schema().clone(),
    })
    .destructive(generated.is_destructive())
    .summary_fn(summarize_log);
    for dependency in generated.dependencies() {
        builder = builder.dependency(*dependency);
    }
    if let Some(timeout) = generated.timeout() {
        builder = builder.timeout(timeout);
    }
    if let Some(source) = generated.source() {
        builder = builder.source(source);
    }
    let handler = Arc::clone(generated.handler());
    let predicate = generated.clone();
    builder
        .confirm_if(move |args| predicate.needs_confirmation(args))
        .handler(move |call: ToolCall| handler.call(call))
        .build()
}
