//! The journal of destructive calls that ran: [`Journal`] (the port an app's storage
//! implements), what one entry holds ([`JournalRecord`], [`JournalEntry`]), and
//! [`MemoryJournal`], the default that keeps the newest entries in memory.
//!
//! Every dispatcher over a registry writes to the registry's journal once a destructive
//! call has succeeded: the tool, its validated arguments, its result, when, who called and
//! whether a person confirmed it. Undoing a call ([`Dispatcher::undo`](crate::Dispatcher::undo))
//! writes an entry of its own and marks the undone one, so the journal is also an audit log
//! an app can show as it is.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::call::Confirmed;
use super::definition::Caller;

/// What is written for one call that ran (or one undo).
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRecord {
    /// The tool's name.
    pub tool: String,
    /// The tool's label when the call ran ("습관 추가"), or the undo's label.
    pub label: String,
    /// The call's confirmation summary, as the person was shown it.
    pub summary: String,
    /// The validated arguments, exactly as the tool received them.
    pub arguments: Value,
    /// The `data` of the tool's `ok` result (or of the undo's).
    pub result: Value,
    /// When it ran, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// Who called.
    pub caller: Caller,
    /// Whether a person was asked.
    pub confirmed: Confirmed,
    /// For an undo, the entry it undid.
    pub undo_of: Option<u64>,
}

impl JournalRecord {
    /// Now, in milliseconds since the Unix epoch (0 on a clock set before 1970).
    pub fn now_ms() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
}

/// One stored entry: its record, its id, and — once undone — the id of the undo.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalEntry {
    /// The entry's id, increasing in the order entries were written.
    pub id: u64,
    /// What was written.
    pub record: JournalRecord,
    /// The entry of the undo that reversed this call, if one did.
    pub undone_by: Option<u64>,
}

impl JournalEntry {
    /// Whether this entry is a call that may still be undone: not an undo itself, and not
    /// undone yet.
    pub fn is_open(&self) -> bool {
        self.record.undo_of.is_none() && self.undone_by.is_none()
    }
}

/// Why the journal could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The storage failed; the message says how.
    #[error("journal storage failed: {0}")]
    Storage(String),
    /// The entry to be marked undone does not exist.
    #[error("journal entry {0} does not exist")]
    NotFound(u64),
    /// The entry to be marked undone was undone already (by entry `by`).
    #[error("journal entry {id} was already undone by entry {by}")]
    AlreadyUndone {
        /// The entry.
        id: u64,
        /// The undo that reversed it.
        by: u64,
    },
}

/// Where journal entries are kept: memory ([`MemoryJournal`], the default) or the app's own
/// storage (the habit coach keeps them in its SQLite file, so they survive a restart).
///
/// Called on the async runtime's thread, once per destructive call: a write should be quick
/// (one small row).
pub trait Journal: Send + Sync + 'static {
    /// Writes `record` as a new entry and returns its id.
    ///
    /// # Errors
    /// [`JournalError::Storage`] when it could not be written.
    fn record(&self, record: JournalRecord) -> Result<u64, JournalError>;

    /// Writes the undo `record` and marks entry `of` undone by it, as one change.
    ///
    /// # Errors
    /// [`JournalError::NotFound`] or [`JournalError::AlreadyUndone`] for an entry that cannot
    /// be undone (then nothing is written); [`JournalError::Storage`].
    fn record_undo(&self, of: u64, record: JournalRecord) -> Result<u64, JournalError>;

    /// The newest `limit` entries, newest first.
    ///
    /// # Errors
    /// [`JournalError::Storage`].
    fn recent(&self, limit: usize) -> Result<Vec<JournalEntry>, JournalError>;

    /// The newest entry that may still be undone ([`JournalEntry::is_open`]), if any.
    ///
    /// # Errors
    /// [`JournalError::Storage`].
    fn last_open(&self) -> Result<Option<JournalEntry>, JournalError>;
}

/// How many entries a [`MemoryJournal`] keeps by default.
pub const DEFAULT_MEMORY_ENTRIES: usize = 256;

/// A journal in memory: the newest entries (at most a bound; older ones are dropped),
/// gone when the process ends. What a registry has unless the app gives it another.
#[derive(Debug)]
pub struct MemoryJournal {
    state: Mutex<MemoryState>,
    capacity: usize,
}

#[derive(Debug, Default)]
struct MemoryState {
    entries: VecDeque<JournalEntry>,
    next_id: u64,
}

impl MemoryJournal {
    /// A journal keeping the newest [`DEFAULT_MEMORY_ENTRIES`] entries.
    pub fn new() -> Self {
        Self::with_capacity(DEFAULT_MEMORY_ENTRIES)
    }

    /// A journal keeping the newest `capacity` entries (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            state: Mutex::new(MemoryState {
                entries: VecDeque::new(),
                next_id: 1,
            }),
            capacity: capacity.max(1),
        }
    }

    fn push(state: &mut MemoryState, capacity: usize, record: JournalRecord) -> u64 {
        let id = state.next_id;
        state.next_id += 1;
        if state.entries.len() == capacity {
            state.entries.pop_front();
        }
        state.entries.push_back(JournalEntry {
            id,
            record,
            undone_by: None,
        });
        id
    }
}

impl Default for MemoryJournal {
    fn default() -> Self {
        Self::new()
    }
}

impl Journal for MemoryJournal {
    fn record(&self, record: JournalRecord) -> Result<u64, JournalError> {
        // A panic elsewhere while holding the lock leaves whole entries only.
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Self::push(&mut state, self.capacity, record))
    }

    fn record_undo(&self, of: u64, record: JournalRecord) -> Result<u64, JournalError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = state
            .entries
            .iter()
            .find(|e| e.id == of)
            .ok_or(JournalError::NotFound(of))?;
        if let Some(by) = entry.undone_by {
            return Err(JournalError::AlreadyUndone { id: of, by });
        }
        let id = Self::push(&mut state, self.capacity, record);
        if let Some(entry) = state.entries.iter_mut().find(|e| e.id == of) {
            entry.undone_by = Some(id);
        }
        Ok(id)
    }

    fn recent(&self, limit: usize) -> Result<Vec<JournalEntry>, JournalError> {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(state.entries.iter().rev().take(limit).cloned().collect())
    }

    fn last_open(&self) -> Result<Option<JournalEntry>, JournalError> {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(state.entries.iter().rev().find(|e| e.is_open()).cloned())
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
            label: tool.into(),
            summary: String::new(),
            arguments: json!({}),
            result: json!({}),
            at_ms: JournalRecord::now_ms(),
            caller: Caller::App,
            confirmed: Confirmed::Confirmer,
            undo_of,
        }
    }

    #[test]
    fn undo_walks_back_one_open_call_at_a_time() {
        let journal = MemoryJournal::new();
        let first = journal.record(record("a", None)).unwrap();
        let second = journal.record(record("b", None)).unwrap();
        assert_eq!(journal.last_open().unwrap().unwrap().id, second);
        let undo = journal
            .record_undo(second, record("b", Some(second)))
            .unwrap();
        assert_eq!(journal.last_open().unwrap().unwrap().id, first);
        let entries = journal.recent(10).unwrap();
        assert_eq!(
            entries.iter().map(|e| e.id).collect::<Vec<_>>(),
            [undo, second, first]
        );
        assert_eq!(entries[1].undone_by, Some(undo));
        assert!(matches!(
            journal.record_undo(second, record("b", Some(second))),
            Err(JournalError::AlreadyUndone { .. })
        ));
        assert!(matches!(
            journal.record_undo(99, record("b", Some(99))),
            Err(JournalError::NotFound(99))
        ));
    }

    #[test]
    fn the_oldest_entries_leave_a_full_journal() {
        let journal = MemoryJournal::with_capacity(2);
        for tool in ["a", "b", "c"] {
            journal.record(record(tool, None)).unwrap();
        }
        let tools: Vec<String> = journal
            .recent(10)
            .unwrap()
            .into_iter()
            .map(|e| e.record.tool)
            .collect();
        assert_eq!(tools, ["c", "b"]);
    }
}
