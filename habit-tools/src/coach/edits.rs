//! Changing what is already there: stopping a habit (`stop_habit`), rewording its sentence
//! (`update_habit_text`) and correcting a day's entry (`correct_tracker_entry`) — each with
//! its undo, which restores the state before the call or refuses (`state_changed`) when
//! that state has moved on since.

use rusqlite::OptionalExtension;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Coach;
use super::habits::habit_not_found;
use crate::clock::{DbDate, format_date, resolve_date};
use crate::error::HabitError;
use crate::model::{HabitType, TrackerValue};
use crate::rules::{self, MAX_FRAMED_TEXT_CHARS};

/// `stop_habit`'s result: the habit that left the active list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct StoppedHabit {
    /// The habit.
    pub habit_id: i64,
    /// Its sentence.
    pub framed_text: String,
}

/// `update_habit_text`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UpdatedHabit {
    /// The habit.
    pub habit_id: i64,
    /// Its sentence now.
    pub framed_text: String,
    /// Its sentence before.
    pub previous_text: String,
}

/// `correct_tracker_entry`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CorrectedEntry {
    /// The entry.
    pub entry_id: i64,
    /// The habit it belongs to.
    pub habit_id: i64,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// What it records now.
    pub value: TrackerValue,
    /// What it recorded before.
    pub previous_value: TrackerValue,
}

impl Coach {
    /// `stop_habit(habit_id)` → `{habit_id, framed_text}`: an active habit leaves the active
    /// list, freeing its R3 slot; its entries stay (and it can be restored by undoing this).
    /// Errors: `not_found` (no such habit, or not active).
    pub fn stop_habit(&self, habit_id: i64) -> Result<StoppedHabit, HabitError> {
        self.store.write(|tx| {
            let text: Option<String> = tx
                .query_row(
                    "SELECT framed_text FROM habits WHERE id = ?1 AND active = 1",
                    [habit_id],
                    |r| r.get(0),
                )
                .optional()?;
            let framed_text = text.ok_or_else(|| HabitError::NotFound {
                what: format!("active habit {habit_id}"),
            })?;
            tx.execute("UPDATE habits SET active = 0 WHERE id = ?1", [habit_id])?;
            Ok(StoppedHabit {
                habit_id,
                framed_text,
            })
        })
    }

    /// Undoes one `stop_habit`: the habit is active again. Refused (`state_changed`) when it
    /// is active already, when another active habit now uses its protocol, or when R3's
    /// quota for its type is full again.
    pub fn undo_stop_habit(&self, habit_id: i64) -> Result<(), HabitError> {
        self.store.write(|tx| {
            let row: Option<(bool, String, HabitType)> = tx
                .query_row(
                    "SELECT active, protocol_id, habit_type FROM habits WHERE id = ?1",
                    [habit_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            let (active, protocol_id, habit_type) = row.ok_or_else(|| habit_not_found(habit_id))?;
            if active {
                return Err(HabitError::StateChanged(format!(
                    "{habit_id}번 습관은 이미 다시 진행 중이에요"
                )));
            }
            let twin: Option<i64> = tx
                .query_row(
                    "SELECT id FROM habits WHERE active = 1 AND protocol_id = ?1",
                    [&protocol_id],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(twin) = twin {
                return Err(HabitError::StateChanged(format!(
                    "같은 프로토콜의 {twin}번 습관이 그 뒤로 생겨서 되돌리지 않았어요"
                )));
            }
            let active: u32 = tx.query_row(
                "SELECT count(*) FROM habits WHERE active = 1 AND habit_type = ?1",
                [habit_type],
                |r| r.get(0),
            )?;
            if active >= rules::quota(habit_type) {
                return Err(HabitError::StateChanged(format!(
                    "그 뒤로 습관이 추가되어 자리가 없어요(최대 {}개)",
                    rules::quota(habit_type)
                )));
            }
            tx.execute("UPDATE habits SET active = 1 WHERE id = ?1", [habit_id])?;
            Ok(())
        })
    }

    /// `update_habit_text(habit_id, framed_text)` → `{habit_id, framed_text, previous_text}`:
    /// an active habit's sentence is replaced, under the same rules as `add_habit`'s
    /// (`invalid_text`, R7's `r7_avoidance`). Errors: `not_found` (no such active habit).
    pub fn update_habit_text(
        &self,
        habit_id: i64,
        framed_text: &str,
    ) -> Result<UpdatedHabit, HabitError> {
        let framed_text = rules::required_text("framed_text", framed_text, MAX_FRAMED_TEXT_CHARS)?;
        if let Some(phrase) = rules::find_avoidance(&framed_text) {
            return Err(HabitError::Avoidance { phrase });
        }
        self.store.write(|tx| {
            let previous: Option<String> = tx
                .query_row(
                    "SELECT framed_text FROM habits WHERE id = ?1 AND active = 1",
                    [habit_id],
                    |r| r.get(0),
                )
                .optional()?;
            let previous_text = previous.ok_or_else(|| HabitError::NotFound {
                what: format!("active habit {habit_id}"),
            })?;
            tx.execute(
                "UPDATE habits SET framed_text = ?1 WHERE id = ?2",
                rusqlite::params![framed_text, habit_id],
            )?;
            Ok(UpdatedHabit {
                habit_id,
                framed_text,
                previous_text,
            })
        })
    }

    /// Undoes one `update_habit_text` that wrote `written`: the sentence goes back to
    /// `previous`. Refused (`state_changed`) when the sentence was changed again since.
    pub fn undo_update_habit_text(
        &self,
        habit_id: i64,
        written: &str,
        previous: &str,
    ) -> Result<(), HabitError> {
        self.store.write(|tx| {
            let now: Option<String> = tx
                .query_row(
                    "SELECT framed_text FROM habits WHERE id = ?1",
                    [habit_id],
                    |r| r.get(0),
                )
                .optional()?;
            let now = now.ok_or_else(|| habit_not_found(habit_id))?;
            if now != written {
                return Err(HabitError::StateChanged(format!(
                    "{habit_id}번 습관 문장이 그 뒤로 또 바뀌어서 되돌리지 않았어요"
                )));
            }
            tx.execute(
                "UPDATE habits SET framed_text = ?1 WHERE id = ?2",
                rusqlite::params![previous, habit_id],
            )?;
            Ok(())
        })
    }

    /// `correct_tracker_entry(habit_id, value, date?)` → `{entry_id, habit_id, date, value,
    /// previous_value}`: the entry a day already holds gets the other value (a `done` that
    /// should have been a rest day, or the other way round); its note stays. Errors:
    /// `invalid_date`, `future_date`; `not_found` when the day holds no entry (a new one is
    /// `log_tracker_entry`'s); `duplicate` when it already holds that value.
    pub fn correct_tracker_entry(
        &self,
        habit_id: i64,
        value: TrackerValue,
        date: Option<&str>,
    ) -> Result<CorrectedEntry, HabitError> {
        let today = self.clock.today();
        let date = resolve_date(date, today)?;
        if date > today {
            return Err(HabitError::FutureDate {
                date: format_date(date),
                today: format_date(today),
            });
        }
        self.store.write(|tx| {
            let row: Option<(i64, TrackerValue)> = tx
                .query_row(
                    "SELECT id, value FROM tracker_entries WHERE habit_id = ?1 AND entry_date = ?2",
                    rusqlite::params![habit_id, DbDate(date)],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let (entry_id, previous_value) = row.ok_or_else(|| HabitError::NotFound {
                what: format!(
                    "an entry of habit {habit_id} on {}; log a new one with log_tracker_entry",
                    format_date(date)
                ),
            })?;
            if previous_value == value {
                return Err(HabitError::Duplicate(format!(
                    "habit {habit_id} already has {value} on {}",
                    format_date(date)
                )));
            }
            // What a `done` replaced is no longer what this entry's last write replaced.
            tx.execute(
                "UPDATE tracker_entries SET value = ?1, replaced_blank = 0, replaced_note = NULL
                 WHERE id = ?2",
                rusqlite::params![value, entry_id],
            )?;
            Ok(CorrectedEntry {
                entry_id,
                habit_id,
                date: format_date(date),
                value,
                previous_value,
            })
        })
    }

    /// Undoes one `correct_tracker_entry`: the entry records `previous` again. Refused
    /// (`state_changed`) when it no longer records what the correction wrote.
    pub fn undo_correct_tracker_entry(
        &self,
        entry_id: i64,
        written: TrackerValue,
        previous: TrackerValue,
    ) -> Result<(), HabitError> {
        self.store.write(|tx| {
            let now: Option<TrackerValue> = tx
                .query_row(
                    "SELECT value FROM tracker_entries WHERE id = ?1",
                    [entry_id],
                    |r| r.get(0),
                )
                .optional()?;
            if now != Some(written) {
                return Err(HabitError::StateChanged(
                    "그 기록이 그 뒤로 바뀌거나 지워져서 되돌리지 않았어요".into(),
                ));
            }
            tx.execute(
                "UPDATE tracker_entries SET value = ?1 WHERE id = ?2",
                rusqlite::params![previous, entry_id],
            )?;
            Ok(())
        })
    }
}
