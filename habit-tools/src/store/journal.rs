//! [`SqliteJournal`]: the runtime's journal of destructive calls, kept in the coach's SQLite
//! file (table `journal`), so the calls that ran — and their undos — survive a restart and
//! can be shown as an audit log (`/history` in the demo).
//!
//! Arguments and results are stored as the JSON text the runtime gave; they are what a model
//! or a client sent, so whoever shows them makes them inert first.

use std::sync::Arc;

use agent_core::{Caller, Confirmed, Journal, JournalEntry, JournalError, JournalRecord};
use rusqlite::{OptionalExtension, Row, Transaction};

use super::Store;
use crate::error::HabitError;

/// The journal in the coach's store; see the module doc.
#[derive(Debug, Clone)]
pub struct SqliteJournal {
    store: Arc<Store>,
}

impl SqliteJournal {
    /// A journal in `store`'s file.
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

const COLUMNS: &str =
    "id, tool, label, summary, arguments, result, at_ms, caller, confirmed, undo_of, undone_by";

/// A row as an entry; a row another program wrote badly is an error, not a guess.
fn entry(row: &Row<'_>) -> rusqlite::Result<Result<JournalEntry, String>> {
    let id: i64 = row.get(0)?;
    let arguments: String = row.get(4)?;
    let result: String = row.get(5)?;
    let caller: String = row.get(7)?;
    let confirmed: String = row.get(8)?;
    let undo_of: Option<i64> = row.get(9)?;
    let undone_by: Option<i64> = row.get(10)?;
    let parsed = (|| {
        let id_of = |n: i64| u64::try_from(n).map_err(|_| format!("journal id {n} is negative"));
        Ok(JournalEntry {
            id: id_of(id)?,
            record: JournalRecord {
                tool: row.get(1).map_err(|e| e.to_string())?,
                label: row.get(2).map_err(|e| e.to_string())?,
                summary: row.get(3).map_err(|e| e.to_string())?,
                arguments: serde_json::from_str(&arguments)
                    .map_err(|e| format!("journal entry {id}: arguments: {e}"))?,
                result: serde_json::from_str(&result)
                    .map_err(|e| format!("journal entry {id}: result: {e}"))?,
                at_ms: row.get(6).map_err(|e| e.to_string())?,
                caller: Caller::parse(&caller)
                    .ok_or_else(|| format!("journal entry {id}: caller '{caller}'"))?,
                confirmed: Confirmed::parse(&confirmed)
                    .ok_or_else(|| format!("journal entry {id}: confirmed '{confirmed}'"))?,
                undo_of: undo_of.map(id_of).transpose()?,
            },
            undone_by: undone_by.map(id_of).transpose()?,
        })
    })();
    Ok(parsed)
}

fn storage(error: impl std::fmt::Display) -> JournalError {
    JournalError::Storage(error.to_string())
}

fn insert(tx: &Transaction<'_>, record: &JournalRecord) -> Result<u64, HabitError> {
    tx.execute(
        "INSERT INTO journal (tool, label, summary, arguments, result, at_ms, caller, confirmed, undo_of)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        rusqlite::params![
            record.tool,
            record.label,
            record.summary,
            record.arguments.to_string(),
            record.result.to_string(),
            record.at_ms,
            record.caller.as_str(),
            record.confirmed.as_str(),
            record.undo_of.and_then(|id| i64::try_from(id).ok()),
        ],
    )?;
    Ok(u64::try_from(tx.last_insert_rowid()).unwrap_or_default())
}

/// Why [`SqliteJournal::record_undo`] may not mark an entry.
enum Refusal {
    NotFound,
    AlreadyUndone(u64),
}

impl Journal for SqliteJournal {
    fn record(&self, record: JournalRecord) -> Result<u64, JournalError> {
        self.store.write(|tx| insert(tx, &record)).map_err(storage)
    }

    fn record_undo(&self, of: u64, record: JournalRecord) -> Result<u64, JournalError> {
        let of_row = i64::try_from(of).map_err(|_| JournalError::NotFound(of))?;
        let outcome = self
            .store
            .write(|tx| {
                let undone_by: Option<Option<i64>> = tx
                    .query_row(
                        "SELECT undone_by FROM journal WHERE id = ?1",
                        [of_row],
                        |r| r.get(0),
                    )
                    .optional()?;
                match undone_by {
                    None => return Ok(Err(Refusal::NotFound)),
                    Some(Some(by)) => {
                        return Ok(Err(Refusal::AlreadyUndone(
                            u64::try_from(by).unwrap_or_default(),
                        )));
                    }
                    Some(None) => {}
                }
                let id = insert(tx, &record)?;
                tx.execute(
                    "UPDATE journal SET undone_by = ?1 WHERE id = ?2",
                    rusqlite::params![i64::try_from(id).unwrap_or_default(), of_row],
                )?;
                Ok(Ok(id))
            })
            .map_err(storage)?;
        outcome.map_err(|refusal| match refusal {
            Refusal::NotFound => JournalError::NotFound(of),
            Refusal::AlreadyUndone(by) => JournalError::AlreadyUndone { id: of, by },
        })
    }

    fn recent(&self, limit: usize) -> Result<Vec<JournalEntry>, JournalError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .store
            .read(|tx| {
                let mut stmt = tx.prepare(&format!(
                    "SELECT {COLUMNS} FROM journal ORDER BY id DESC LIMIT ?1"
                ))?;
                let rows = stmt.query_map([limit], entry)?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .map_err(storage)?;
        rows.into_iter().map(|row| row.map_err(storage)).collect()
    }

    fn last_open(&self) -> Result<Option<JournalEntry>, JournalError> {
        let row = self
            .store
            .read(|tx| {
                Ok(tx
                    .query_row(
                        &format!(
                            "SELECT {COLUMNS} FROM journal
                             WHERE undo_of IS NULL AND undone_by IS NULL
                             ORDER BY id DESC LIMIT 1"
                        ),
                        [],
                        entry,
                    )
                    .optional()?)
            })
            .map_err(storage)?;
        row.transpose().map_err(storage)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(tool: &str, undo_of: Option<u64>) -> JournalRecord {
        JournalRecord {
            tool: tool.into(),
            label: "라벨\n줄바꿈".into(),
            summary: "요약".into(),
            arguments: json!({"habit_id": 1, "note": "\u{1b}[31m"}),
            result: json!({"entry_id": 4}),
            at_ms: 1_700_000_000_000,
            caller: Caller::Assistant,
            confirmed: Confirmed::NotAsked,
            undo_of,
        }
    }

    #[test]
    fn entries_survive_reopening_the_file_and_undo_marks_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("habits.sqlite3");
        let first = {
            let journal = SqliteJournal::new(Arc::new(Store::open(&path).unwrap()));
            let first = journal.record(record("log_tracker_entry", None)).unwrap();
            journal.record(record("add_habit", None)).unwrap();
            first
        };
        let journal = SqliteJournal::new(Arc::new(Store::open(&path).unwrap()));
        let entries = journal.recent(10).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].record, record("log_tracker_entry", None));
        assert_eq!(
            journal.last_open().unwrap().unwrap().record.tool,
            "add_habit"
        );

        let second = entries[0].id;
        let undo = journal
            .record_undo(second, record("add_habit", Some(second)))
            .unwrap();
        assert_eq!(journal.last_open().unwrap().unwrap().id, first);
        assert_eq!(journal.recent(1).unwrap()[0].record.undo_of, Some(second));
        assert_eq!(journal.recent(3).unwrap()[1].undone_by, Some(undo));
        assert!(matches!(
            journal.record_undo(second, record("add_habit", Some(second))),
            Err(JournalError::AlreadyUndone { .. })
        ));
        assert!(matches!(
            journal.record_undo(77, record("add_habit", Some(77))),
            Err(JournalError::NotFound(77))
        ));
        assert_eq!(
            journal.recent(10).unwrap().len(),
            3,
            "a refused undo writes nothing"
        );
    }
}
