//! `add_habit` and `list_active_habits` (plus `archive_habit`, which frees an R3 slot, and
//! `undo_add_habit`): R8, R7 and the text rules before the write, R3 and "one active habit per
//! protocol" inside it.

use rusqlite::OptionalExtension;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Coach, is_unique_violation};
use crate::catalog::{ProtocolDetails, catalog};
use crate::clock::DbDate;
use crate::error::{HabitError, echo};
use crate::model::HabitType;
use crate::rules::{self, MAX_FRAMED_TEXT_CHARS, MAX_SHORT_TEXT_CHARS};

/// `add_habit`'s parameters.
#[derive(Debug, Clone)]
pub struct NewHabit {
    /// A `build.…` or `break.…` catalog id (R8).
    pub protocol_id: String,
    /// How deeply `framed_text` is framed: 1 = the behaviour ("10분 걷기"), 2 = the behaviour
    /// with its cue and place ("아침 커피 후 동네 10분 걷기"), 3 = as identity ("나는 매일
    /// 걷는 사람"). Must be 1, 2 or 3; stored as given.
    pub frame_level: i64,
    /// The habit in the user's words, framed as something to do (R7). 1–120 characters.
    pub framed_text: String,
    /// When it happens, e.g. `아침 7시`. Optional, up to 80 characters.
    pub anchor_when: Option<String>,
    /// The existing routine it follows, e.g. `커피를 내린 후`. Optional, up to 80 characters.
    pub anchor_after_what: Option<String>,
    /// How much, e.g. `10분`. Optional, up to 80 characters.
    pub dose_text: Option<String>,
}

/// `add_habit`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AddedHabit {
    /// The new habit's id, for `log_tracker_entry` and `get_streak`.
    pub habit_id: i64,
    /// The protocol's title.
    pub title: String,
    /// `build` or `break`, from the protocol's kind.
    #[serde(rename = "type")]
    pub habit_type: HabitType,
    /// The frame level as stored.
    pub frame_level: u8,
}

/// `list_active_habits`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ActiveHabits {
    /// Number of active habits.
    pub count: u32,
    /// Active build habits.
    pub build_count: u32,
    /// Active break habits.
    pub break_count: u32,
    /// How many more build habits R3 allows.
    pub build_quota_remaining: u32,
    /// How many more break habits R3 allows.
    pub break_quota_remaining: u32,
    /// The active habits, oldest first.
    pub items: Vec<ActiveHabit>,
}

/// One active habit: what a model needs to talk about it and log to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ActiveHabit {
    /// The habit id.
    pub id: i64,
    /// The protocol's title.
    pub title: String,
    /// `build` or `break`.
    #[serde(rename = "type")]
    pub habit_type: HabitType,
    /// The catalog id, for `query_protocol`.
    pub protocol_id: String,
    /// The habit in the user's words.
    pub framed_text: String,
    /// When it happens, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor_when: Option<String>,
    /// What it follows, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor_after_what: Option<String>,
    /// How much, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dose_text: Option<String>,
}

impl Coach {
    /// `add_habit(protocol_id, frame_level, framed_text, anchor_when?, anchor_after_what?,
    /// dose_text?)` → `{habit_id, title, type, frame_level}`.
    ///
    /// Checks, in order: the protocol exists (`not_found`); it is a build or break protocol
    /// (`r8_xor`); `frame_level` is 1–3 (`invalid_value`); the texts are non-empty where
    /// required and within their limits (`invalid_text`); `framed_text` has no avoidance wording
    /// (`r7_avoidance`); then, in the write transaction, no active habit already uses this
    /// protocol (`duplicate`) and R3's quota for the type has room (`r3_quota`). The habit is
    /// created active, dated today.
    pub fn add_habit(&self, req: NewHabit) -> Result<AddedHabit, HabitError> {
        let entry = catalog()
            .get(&req.protocol_id)
            .ok_or_else(|| HabitError::NotFound {
                what: format!("protocol '{}'", echo(&req.protocol_id)),
            })?;
        let habit_type = match &entry.details {
            ProtocolDetails::Build(_) => HabitType::Build,
            ProtocolDetails::Break(_) => HabitType::Break,
            other @ ProtocolDetails::Diet(_) => {
                return Err(HabitError::NotBuildOrBreak {
                    id: entry.id.clone(),
                    kind: other.kind(),
                });
            }
        };
        let frame_level = rules::frame_level(req.frame_level)?;
        let framed_text =
            rules::required_text("framed_text", &req.framed_text, MAX_FRAMED_TEXT_CHARS)?;
        if let Some(phrase) = rules::find_avoidance(&framed_text) {
            return Err(HabitError::Avoidance { phrase });
        }
        let anchor_when = rules::optional_text(
            "anchor_when",
            req.anchor_when.as_deref(),
            MAX_SHORT_TEXT_CHARS,
        )?;
        let anchor_after_what = rules::optional_text(
            "anchor_after_what",
            req.anchor_after_what.as_deref(),
            MAX_SHORT_TEXT_CHARS,
        )?;
        let dose_text =
            rules::optional_text("dose_text", req.dose_text.as_deref(), MAX_SHORT_TEXT_CHARS)?;
        let today = DbDate(self.clock.today());

        self.store.write(|tx| {
            let twin = active_habit_for(tx, &entry.id)?;
            if let Some(existing) = twin {
                return Err(duplicate_protocol(&entry.id, existing));
            }
            let active: u32 = tx.query_row(
                "SELECT count(*) FROM habits WHERE active = 1 AND habit_type = ?1",
                [habit_type],
                |row| row.get(0),
            )?;
            let limit = rules::quota(habit_type);
            if active >= limit {
                return Err(HabitError::Quota { habit_type, limit });
            }
            let inserted = tx.execute(
                "INSERT INTO habits (habit_type, protocol_id, title, frame_level, framed_text,
                                     anchor_when, anchor_after_what, dose_text, created_on)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                rusqlite::params![
                    habit_type,
                    entry.id,
                    entry.title,
                    frame_level,
                    framed_text,
                    anchor_when,
                    anchor_after_what,
                    dose_text,
                    today,
                ],
            );
            match inserted {
                Ok(_) => Ok(AddedHabit {
                    habit_id: tx.last_insert_rowid(),
                    title: entry.title.clone(),
                    habit_type,
                    frame_level,
                }),
                // Unreachable while writes are IMMEDIATE (the check above ran under the write
                // lock), but the index is the rule's real guard, so its verdict is mapped too.
                Err(e) if is_unique_violation(&e) => Err(duplicate_protocol(
                    &entry.id,
                    active_habit_for(tx, &entry.id)?.unwrap_or(0),
                )),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// `list_active_habits()` → `{count, build_count, break_count, build_quota_remaining,
    /// break_quota_remaining, items[]}`, items oldest first.
    pub fn list_active_habits(&self) -> Result<ActiveHabits, HabitError> {
        let items = self.store.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, title, habit_type, protocol_id, framed_text,
                        anchor_when, anchor_after_what, dose_text
                 FROM habits WHERE active = 1 ORDER BY id",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok(ActiveHabit {
                    id: row.get(0)?,
                    title: row.get(1)?,
                    habit_type: row.get(2)?,
                    protocol_id: row.get(3)?,
                    framed_text: row.get(4)?,
                    anchor_when: row.get(5)?,
                    anchor_after_what: row.get(6)?,
                    dose_text: row.get(7)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })?;
        let count_of = |t: HabitType| {
            u32::try_from(items.iter().filter(|h| h.habit_type == t).count()).unwrap_or(u32::MAX)
        };
        let (build_count, break_count) = (count_of(HabitType::Build), count_of(HabitType::Break));
        Ok(ActiveHabits {
            count: build_count.saturating_add(break_count),
            build_count,
            break_count,
            build_quota_remaining: rules::MAX_ACTIVE_BUILD.saturating_sub(build_count),
            break_quota_remaining: rules::MAX_ACTIVE_BREAK.saturating_sub(break_count),
            items,
        })
    }

    /// Undoes one `add_habit` of habit `habit_id`: the habit leaves the active list (it is
    /// archived, like [`archive_habit`](Self::archive_habit), not deleted).
    ///
    /// Refused (`state_changed`) when the state has moved on since: the habit was logged
    /// (undo those entries first, or archive it) or is no longer active.
    pub fn undo_add_habit(&self, habit_id: i64) -> Result<(), HabitError> {
        self.store.write(|tx| {
            let active: Option<bool> = tx
                .query_row("SELECT active FROM habits WHERE id = ?1", [habit_id], |r| {
                    r.get(0)
                })
                .optional()?;
            match active {
                None => return Err(habit_not_found(habit_id)),
                Some(false) => {
                    return Err(HabitError::StateChanged(format!(
                        "{habit_id}번 습관은 이미 목록에 없어요"
                    )));
                }
                Some(true) => {}
            }
            let entries: i64 = tx.query_row(
                "SELECT count(*) FROM tracker_entries WHERE habit_id = ?1",
                [habit_id],
                |r| r.get(0),
            )?;
            if entries > 0 {
                return Err(HabitError::StateChanged(format!(
                    "{habit_id}번 습관에 그 뒤로 기록이 {entries}개 생겨서 추가를 되돌리지 않았어요"
                )));
            }
            tx.execute("UPDATE habits SET active = 0 WHERE id = ?1", [habit_id])?;
            Ok(())
        })
    }

    /// Marks a habit inactive, freeing its R3 slot. Its history stays (and `get_streak` and
    /// `log_tracker_entry` keep working for it). Archiving an archived habit is a no-op.
    /// Errors: `not_found`.
    pub fn archive_habit(&self, habit_id: i64) -> Result<(), HabitError> {
        self.store.write(|tx| {
            let exists: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM habits WHERE id = ?1)",
                [habit_id],
                |r| r.get(0),
            )?;
            if !exists {
                return Err(habit_not_found(habit_id));
            }
            tx.execute("UPDATE habits SET active = 0 WHERE id = ?1", [habit_id])?;
            Ok(())
        })
    }
}

fn active_habit_for(
    tx: &rusqlite::Transaction<'_>,
    protocol_id: &str,
) -> Result<Option<i64>, HabitError> {
    Ok(tx
        .query_row(
            "SELECT id FROM habits WHERE active = 1 AND protocol_id = ?1",
            [protocol_id],
            |r| r.get(0),
        )
        .optional()?)
}

fn duplicate_protocol(protocol_id: &str, existing: i64) -> HabitError {
    HabitError::Duplicate(format!(
        "'{protocol_id}' is already an active habit (habit_id {existing}); log to it instead of adding it again"
    ))
}

pub(super) fn habit_not_found(habit_id: i64) -> HabitError {
    HabitError::NotFound {
        what: format!("habit {habit_id}"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "habits_tests.rs"]
mod tests;
