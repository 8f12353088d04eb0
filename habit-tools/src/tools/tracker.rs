//! The tracker tools: `get_streak` (read-only), `log_tracker_entry` (destructive, except a
//! deliberate blank, which is harmless to record and runs without asking) and
//! `correct_tracker_entry` (destructive): each write can be undone.
//!
//! Because a blank runs without asking, it must not be able to block a confirmed call: a
//! confirmed `done` on a day that holds a `blank` replaces it, while a `blank` on a day that
//! holds a `done` is refused (`duplicate`), so an unasked-for call never overwrites a confirmed
//! one and R5's one entry per habit and day still holds. The tool's description (its doc
//! comment, which the model reads) says so in one line.

use agent_core::{Dep, ToolError, UndoCall, tool};

use super::on_blocking_thread;
use super::values::{active_habit_ids, recent_days, tracker_values};
use crate::coach::{Coach, CorrectedEntry, LoggedEntry, NewEntry, UndoneEntry};
use crate::model::TrackerValue;
use crate::rules;
use crate::streak::StreakSummary;

/// 습관 하나의 연속 기록, 최근 30일 완료 수 등을 봅니다.
#[tool(
    label = "연속 기록 조회",
    reply = super::replies::streak,
    access = trusted,
    example(request = "2번 습관 연속 며칠째야?", args = { "habit_id": 2 }),
    example(request = "1번 습관 30일 동안 몇 번 했어?", args = { "habit_id": 1 }),
    example(request = "3번 기록 어때?", args = { "habit_id": 3 })
)]
pub async fn get_streak(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    #[values(active_habit_ids)]
    habit_id: i64,
) -> Result<StreakSummary, ToolError> {
    on_blocking_thread(coach, move |coach| coach.get_streak(habit_id)).await
}

/// 습관 하나의 하루 기록을 남깁니다(하루 한 번). 쉼(blank)인 날에 done을 남기면 done으로 바뀌고, done인 날은 바뀌지 않습니다.
#[tool(
    destructive,
    label = "기록하기",
    reply = super::replies::logged,
    summary = summarize_log(*habit_id, value, date.as_deref()),
    confirm_if = *value != TrackerValue::Blank,
    undo = undo_log_tracker_entry,
    example(request = "1번 습관 오늘 했어", args = { "habit_id": 1, "value": "done" }),
    example(request = "2번 어제 했어요", args = { "habit_id": 2, "value": "done", "date": "yesterday" }),
    example(request = "오늘은 좀 쉴게. 3번은 쉰 날로 해줘", args = { "habit_id": 3, "value": "blank" }),
    example(request = "1번 완료! 메모: 공원 한 바퀴", args = { "habit_id": 1, "value": "done", "note": "공원 한 바퀴" })
)]
pub async fn log_tracker_entry(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    #[values(active_habit_ids)]
    habit_id: i64,
    /// done=했음, blank=일부러 쉰 날
    #[values(tracker_values)]
    #[from_request]
    value: TrackerValue,
    /// 날짜(선택): 생략하면 오늘, 어제는 yesterday, 그 밖의 날은 YYYY-MM-DD
    #[values(recent_days)]
    #[from_request]
    date: Option<String>,
    /// 짧은 메모(선택)
    #[schemars(length(max = rules::MAX_NOTE_CHARS))]
    #[from_request]
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

/// 이미 남긴 하루 기록을 done↔blank로 고칩니다. 기록이 없는 날은 log_tracker_entry를 씁니다.
#[tool(
    destructive,
    label = "기록 고치기",
    reply = super::replies::corrected,
    summary = summarize_correction(*habit_id, value, date.as_deref()),
    undo = undo_correct_tracker_entry,
    example(request = "어제 1번 기록 잘못 눌렀어, 쉰 날로 고쳐줘", args = { "habit_id": 1, "value": "blank", "date": "yesterday" }),
    example(request = "2번 오늘 기록 쉼 말고 완료로 바꿔줘", args = { "habit_id": 2, "value": "done" }),
    example(request = "3번 습관 어제 건 한 걸로 정정해줘", args = { "habit_id": 3, "value": "done", "date": "yesterday" })
)]
pub async fn correct_tracker_entry(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    #[values(active_habit_ids)]
    habit_id: i64,
    /// done=했음, blank=일부러 쉰 날
    #[values(tracker_values)]
    #[from_request]
    value: TrackerValue,
    /// 날짜(선택): 생략하면 오늘, 어제는 yesterday, 그 밖의 날은 YYYY-MM-DD
    #[values(recent_days)]
    #[from_request]
    date: Option<String>,
) -> Result<CorrectedEntry, ToolError> {
    on_blocking_thread(coach, move |coach| {
        coach.correct_tracker_entry(habit_id, value, date.as_deref())
    })
    .await
}

/// Takes back one `correct_tracker_entry`: the entry records what it did before — refused
/// when it was changed since.
pub async fn undo_correct_tracker_entry(
    call: UndoCall,
    coach: Dep<Coach>,
) -> Result<CorrectedEntry, ToolError> {
    let corrected: CorrectedEntry = call.data()?;
    let (entry_id, written, previous) = (
        corrected.entry_id,
        corrected.value,
        corrected.previous_value,
    );
    on_blocking_thread(coach, move |coach| {
        coach.undo_correct_tracker_entry(entry_id, written, previous)
    })
    .await?;
    Ok(CorrectedEntry {
        value: previous,
        previous_value: written,
        ..corrected
    })
}

/// The confirmation line for a `correct_tracker_entry` call: the day in words and the new
/// value in Korean.
///
/// ```
/// use habit_tools::TrackerValue;
/// use habit_tools::tools::tracker::summarize_correction;
///
/// assert_eq!(summarize_correction(1, &TrackerValue::Blank, Some("yesterday")), "1번 습관의 어제 기록을 '쉼'으로 고칩니다");
/// ```
pub fn summarize_correction(habit_id: i64, value: &TrackerValue, date: Option<&str>) -> String {
    let value = match value {
        TrackerValue::Done => "'완료'로",
        TrackerValue::Blank => "'쉼'으로",
    };
    format!(
        "{habit_id}번 습관의 {} 기록을 {value} 고칩니다",
        day_words(date)
    )
}

/// A tool's date argument in words: `오늘` when absent, `어제`, or the date as given.
fn day_words(date: Option<&str>) -> String {
    let date = date.map(str::trim).unwrap_or_default();
    // The same words `resolve_date` reads; anything else is shown as given (the tool will
    // refuse it if it is not a date, after this dialog).
    match date.to_lowercase().as_str() {
        "" | "today" | "오늘" => "오늘".to_owned(),
        "yesterday" | "어제" => "어제".to_owned(),
        _ => date.chars().take(20).collect(),
    }
}

/// Takes back one `log_tracker_entry`: the entry it created is removed, a blank it replaced
/// comes back — refused when the entry was changed since.
pub async fn undo_log_tracker_entry(
    call: UndoCall,
    coach: Dep<Coach>,
) -> Result<UndoneEntry, ToolError> {
    let entry_id: i64 = call.result_field("entry_id")?;
    let value: TrackerValue = call.result_field("value")?;
    on_blocking_thread(coach, move |coach| {
        coach.undo_tracker_entry(entry_id, value)
    })
    .await
}

/// The confirmation line for a `log_tracker_entry` call, for the person deciding: the day in
/// words (`오늘` when the model left the date out, as it usually does) and the value in Korean.
///
/// ```
/// use habit_tools::TrackerValue;
/// use habit_tools::tools::tracker::summarize_log;
///
/// assert_eq!(summarize_log(3, &TrackerValue::Done, None), "3번 습관에 오늘 '완료' 기록을 남깁니다");
/// assert_eq!(summarize_log(3, &TrackerValue::Blank, Some("yesterday")), "3번 습관에 어제 '쉼' 기록을 남깁니다");
/// ```
pub fn summarize_log(habit_id: i64, value: &TrackerValue, date: Option<&str>) -> String {
    let day = day_words(date);
    let value = match value {
        TrackerValue::Done => "완료",
        TrackerValue::Blank => "쉼",
    };
    format!("{habit_id}번 습관에 {day} '{value}' 기록을 남깁니다")
}
