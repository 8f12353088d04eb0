//! `log_tracker_entry` (R5: one entry per habit and day, guarded by the database) and
//! `get_streak` (reads a habit's entries and hands them to [`crate::streak`]).

use rusqlite::OptionalExtension;
use schemars::JsonSchema;
use serde::Serialize;

use super::habits::habit_not_found;
use super::{Coach, is_unique_violation};
use crate::clock::{DbDate, day_number, format_date, resolve_date};
use crate::error::HabitError;
use crate::model::TrackerValue;
use crate::rules::{self, MAX_NOTE_CHARS};
use crate::streak::{self, StreakSummary};

/// `log_tracker_entry`'s parameters.
#[derive(Debug, Clone)]
pub struct NewEntry {
    /// The habit to log to (active or archived).
    pub habit_id: i64,
    /// `done`, or a deliberate `blank`.
    pub value: TrackerValue,
    /// `YYYY-MM-DD`, `today`/`오늘` or `yesterday`/`어제`; absent or blank means today. Not in the
    /// future, not before the habit was added.
    pub date: Option<String>,
    /// A free note, up to 280 characters. Stored, never returned.
    pub note: Option<String>,
}

/// `log_tracker_entry`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LoggedEntry {
    /// The new entry's id.
    pub entry_id: i64,
    /// The habit it belongs to.
    pub habit_id: i64,
    /// The day it records, `YYYY-MM-DD`.
    pub date: String,
    /// What it records.
    pub value: TrackerValue,
}

/// What undoing a `log_tracker_entry` left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UndoneEntry {
    /// The habit.
    pub habit_id: i64,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// What the day holds again (`blank`), or `None` when it holds no entry now.
    pub restored: Option<TrackerValue>,
}

impl Coach {
    /// `log_tracker_entry(habit_id, value, date?, note?)` → `{entry_id, habit_id, date, value}`.
    ///
    /// Checks, in order: the date reads as a date (`invalid_date`) and is not after today
    /// (`future_date`); the note is within its limit (`invalid_text`); then, in the write
    /// transaction, the habit exists (`not_found`), the date is not before the day it was added
    /// (`invalid_date`), and — by the `UNIQUE(habit_id, date)` constraint itself, so that it
    /// holds against concurrent writers — the habit has no entry for that day yet (`duplicate`).
    ///
    /// One exception, so that no unconfirmed call can block a confirmed one: a `done` on a day
    /// that holds a `blank` replaces the blank (the same row, with the new note; `entry_id` is
    /// the blank's). A `blank` never replaces anything, and a `done` is never overwritten: both
    /// are `duplicate`. Either way one row per habit and day remains (R5).
    pub fn log_tracker_entry(&self, req: NewEntry) -> Result<LoggedEntry, HabitError> {
        let today = self.clock.today();
        let date = resolve_date(req.date.as_deref(), today)?;
        if date > today {
            return Err(HabitError::FutureDate {
                date: format_date(date),
                today: format_date(today),
            });
        }
        let note = rules::optional_text("note", req.note.as_deref(), MAX_NOTE_CHARS)?;

        self.store.write(|tx| {
            let created: DbDate = tx
                .query_row("SELECT created_on FROM habits WHERE id = ?1", [req.habit_id], |r| r.get(0))
                .optional()?
                .ok_or_else(|| habit_not_found(req.habit_id))?;
            if date < created.0 {
                return Err(HabitError::InvalidDate {
                    input: format_date(date),
                    reason: format!("habit {} was added on {}; log from that day on", req.habit_id, format_date(created.0)),
                });
            }
            // No "does an entry exist?" query first: that check would race. The constraint
            // decides, and its verdict becomes `duplicate`.
            let inserted = tx.execute(
                "INSERT INTO tracker_entries (habit_id, entry_date, value, note) VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![req.habit_id, DbDate(date), req.value, note],
            );
            match inserted {
                Ok(_) => Ok(LoggedEntry {
                    entry_id: tx.last_insert_rowid(),
                    habit_id: req.habit_id,
                    date: format_date(date),
                    value: req.value,
                }),
                Err(e) if is_unique_violation(&e) => {
                    // The day is taken. Read what holds it: still under this transaction's
                    // write lock, so nobody can change it between this read and the update.
                    let (entry_id, existing, old_note): (i64, TrackerValue, Option<String>) = tx.query_row(
                        "SELECT id, value, note FROM tracker_entries WHERE habit_id = ?1 AND entry_date = ?2",
                        rusqlite::params![req.habit_id, DbDate(date)],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                    )?;
                    if replaces(req.value, existing) {
                        // The same row becomes the confirmed entry (its note too), so R5's one
                        // row per habit and day still holds. The blank's note is kept beside
                        // it, so undoing the replacement loses nothing.
                        tx.execute(
                            "UPDATE tracker_entries SET value = ?1, note = ?2, replaced_blank = 1, replaced_note = ?3 WHERE id = ?4",
                            rusqlite::params![req.value, note, old_note, entry_id],
                        )?;
                        return Ok(LoggedEntry {
                            entry_id,
                            habit_id: req.habit_id,
                            date: format_date(date),
                            value: req.value,
                        });
                    }
                    Err(HabitError::Duplicate(format!(
                        "R5: habit {} already has an entry for {} (as {existing}); one entry per habit per day",
                        req.habit_id,
                        format_date(date)
                    )))
                }
                Err(e) => Err(e.into()),
            }
        })
    }

    /// Undoes one `log_tracker_entry` that wrote `value` to entry `entry_id`: an entry the
    /// call created is removed; a `blank` the call replaced comes back, with its note.
    ///
    /// Refused (`state_changed`) when the entry no longer holds what the call wrote — it was
    /// removed or changed since — so an undo never overwrites a later change.
    pub fn undo_tracker_entry(
        &self,
        entry_id: i64,
        value: TrackerValue,
    ) -> Result<UndoneEntry, HabitError> {
        self.store.write(|tx| {
            let row: Option<(i64, String, TrackerValue, bool, Option<String>)> = tx
                .query_row(
                    "SELECT habit_id, entry_date, value, replaced_blank, replaced_note
                     FROM tracker_entries WHERE id = ?1",
                    [entry_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
                )
                .optional()?;
            let Some((habit_id, date, now, replaced_blank, replaced_note)) = row else {
                return Err(HabitError::StateChanged(
                    "그 기록이 이미 지워져서 되돌릴 것이 없어요".into(),
                ));
            };
            if now != value {
                return Err(HabitError::StateChanged(format!(
                    "{habit_id}번 습관의 {date} 기록이 그 뒤로 바뀌어서 되돌리지 않았어요"
                )));
            }
            let restored = if replaced_blank {
                tx.execute(
                    "UPDATE tracker_entries SET value = 'blank', note = ?1, replaced_blank = 0, replaced_note = NULL
                     WHERE id = ?2",
                    rusqlite::params![replaced_note, entry_id],
                )?;
                Some(TrackerValue::Blank)
            } else {
                tx.execute("DELETE FROM tracker_entries WHERE id = ?1", [entry_id])?;
                None
            };
            Ok(UndoneEntry { habit_id, date, restored })
        })
    }

    /// `get_streak(habit_id)` → `{current_streak, longest_streak, done_count_30d,
    /// done_count_phase42, tier, never_miss_twice_broken}`, as defined in the crate docs
    /// ("Streaks"). Errors: `not_found`.
    pub fn get_streak(&self, habit_id: i64) -> Result<StreakSummary, HabitError> {
        let today = self.clock.today();
        let (created, entries) = self.store.read(|tx| {
            let created: DbDate = tx
                .query_row(
                    "SELECT created_on FROM habits WHERE id = ?1",
                    [habit_id],
                    |r| r.get(0),
                )
                .optional()?
                .ok_or_else(|| habit_not_found(habit_id))?;
            let mut stmt =
                tx.prepare("SELECT entry_date, value FROM tracker_entries WHERE habit_id = ?1")?;
            let entries = stmt
                .query_map([habit_id], |r| {
                    let date: DbDate = r.get(0)?;
                    Ok((day_number(date.0), r.get::<_, TrackerValue>(1)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok((created, entries))
        })?;
        Ok(streak::summarize(
            day_number(created.0),
            day_number(today),
            &entries,
        ))
    }
}

/// Whether a new entry with `new` takes the place of a same-day entry with `existing`: only a
/// `done` over a `blank`. A blank is written without asking the user (it costs them nothing),
/// while a done is confirmed; if the blank kept the day, an unasked-for call could block a
/// confirmed one. The other way round, a blank never displaces anything: it would overwrite a
/// confirmed entry without asking.
fn replaces(new: TrackerValue, existing: TrackerValue) -> bool {
    matches!((new, existing), (TrackerValue::Done, TrackerValue::Blank))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "tracker_tests.rs"]
mod tests;
