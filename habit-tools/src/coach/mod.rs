//! [`Coach`]: the operations the tools expose, one method each (and one undo for each that
//! writes), over a shared [`Store`] and [`Clock`]. The catalog operations are here; habits and
//! tracker entries are in [`habits`] and [`tracker`], changes to what is there in [`edits`].
//!
//! Every method validates its input completely before it writes, and every write is one
//! transaction, so a refused call changes nothing. Methods are synchronous and fast (one small
//! SQLite transaction); an async wrapper may call them directly or via `spawn_blocking`
//! (`Coach` is `Clone + Send + Sync + 'static`).

pub mod edits;
pub mod habits;
pub mod tracker;

use std::sync::Arc;

use crate::catalog::{CatalogSearch, ProtocolInfo, catalog};
use crate::clock::{Clock, SystemClock};
use crate::error::HabitError;
use crate::store::Store;

pub use edits::{CorrectedEntry, StoppedHabit, UpdatedHabit};
pub use habits::{ActiveHabit, ActiveHabits, AddedHabit, NewHabit};
pub use tracker::{LoggedEntry, NewEntry, UndoneEntry};

/// The habit coach's operations over one store and one clock. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Coach {
    store: Arc<Store>,
    clock: Arc<dyn Clock>,
}

impl Coach {
    /// A coach over `store`, with "today" from `clock`.
    pub fn new(store: Arc<Store>, clock: Arc<dyn Clock>) -> Self {
        Self { store, clock }
    }

    /// A coach over `store` with the system's local date.
    pub fn with_system_clock(store: Arc<Store>) -> Self {
        Self::new(store, Arc::new(SystemClock))
    }

    /// The store this coach writes to.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Today, by this coach's clock.
    pub fn today(&self) -> jiff::civil::Date {
        self.clock.today()
    }

    /// `search_catalog(category?, keyword?, limit?)` → `{count, items:[{id,title,category,summary}]}`.
    ///
    /// `category` accepts the English id, Korean name or an alias, in any case; `keyword` is
    /// matched against titles, summaries and tags in Korean and English; `limit` is 1–10
    /// (default 5). Blank strings count as absent. Errors: `invalid_value` (unknown category,
    /// limit out of range), `invalid_text` (over 100 characters).
    pub fn search_catalog(
        &self,
        category: Option<&str>,
        keyword: Option<&str>,
        limit: Option<i64>,
    ) -> Result<CatalogSearch, HabitError> {
        catalog().search(category, keyword, limit)
    }

    /// `query_protocol(id)` → the entry's `id, title, category, summary, kind` and its kind's own
    /// fields (see [`mod@crate::catalog`]). Errors: `not_found`.
    pub fn query_protocol(&self, id: &str) -> Result<ProtocolInfo, HabitError> {
        catalog().query_protocol(id)
    }
}

/// Whether a SQLite error is a `UNIQUE` constraint violation: the database's verdict that a
/// racing writer got there first.
fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(
        err,
        rusqlite::Error::SqliteFailure(e, _) if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod test_support {
    use std::sync::Arc;

    use jiff::civil::{Date, date};

    use super::*;
    use crate::clock::FixedClock;

    /// 2025-03-10, a Monday.
    pub(crate) const TODAY: Date = date(2025, 3, 10);

    /// A coach over a fresh in-memory store, and its clock (at [`TODAY`]).
    pub(crate) fn coach() -> (Coach, Arc<FixedClock>) {
        let clock = Arc::new(FixedClock::new(TODAY));
        let store = Arc::new(Store::open_in_memory().unwrap());
        (Coach::new(store, clock.clone()), clock)
    }

    /// A coach over the file at `path` with a clock at [`TODAY`].
    pub(crate) fn coach_at(path: &std::path::Path) -> (Coach, Arc<FixedClock>) {
        let clock = Arc::new(FixedClock::new(TODAY));
        let store = Arc::new(Store::open(path).unwrap());
        (Coach::new(store, clock.clone()), clock)
    }

    /// An `add_habit` request with a valid positive framing.
    pub(crate) fn new_habit(protocol_id: &str) -> NewHabit {
        NewHabit {
            protocol_id: protocol_id.to_owned(),
            frame_level: 2,
            framed_text: "아침 커피를 내린 후 10분 걷기".to_owned(),
            anchor_when: Some("아침".to_owned()),
            anchor_after_what: Some("커피를 내린 후".to_owned()),
            dose_text: Some("10분".to_owned()),
        }
    }

    /// A `log_tracker_entry` request.
    pub(crate) fn entry(habit_id: i64, value: crate::TrackerValue, date: Option<&str>) -> NewEntry {
        NewEntry {
            habit_id,
            value,
            date: date.map(str::to_owned),
            note: None,
        }
    }

    /// The keys of a JSON object, sorted: a result's shape.
    pub(crate) fn keys(value: &serde_json::Value) -> Vec<&str> {
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        keys
    }

    /// Runs `a` and `b` on two threads released at the same moment, so that two writers on
    /// one file really collide; returns both results in that order.
    pub(crate) fn race<T: Send>(
        a: impl FnOnce() -> T + Send,
        b: impl FnOnce() -> T + Send,
    ) -> [T; 2] {
        let barrier = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            let a = s.spawn(|| {
                barrier.wait();
                a()
            });
            let b = s.spawn(|| {
                barrier.wait();
                b()
            });
            [a.join().unwrap(), b.join().unwrap()]
        })
    }

    /// Row counts of both tables, to prove a refused call changed nothing.
    pub(crate) fn row_counts(coach: &Coach) -> (i64, i64) {
        coach
            .store()
            .read(|tx| {
                let habits = tx.query_row("SELECT count(*) FROM habits", [], |r| r.get(0))?;
                let entries =
                    tx.query_row("SELECT count(*) FROM tracker_entries", [], |r| r.get(0))?;
                Ok((habits, entries))
            })
            .unwrap()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::test_support::coach;

    #[test]
    fn catalog_operations_are_reachable_through_the_coach() {
        let (coach, _) = coach();
        let found = coach.search_catalog(Some("Sleep"), None, Some(3)).unwrap();
        assert_eq!(found.count, 3);
        let info = coach.query_protocol(&found.items[0].id).unwrap();
        assert_eq!(info.id, found.items[0].id);
        assert_eq!(
            coach.query_protocol("nope").unwrap_err().code(),
            "not_found"
        );
    }

    #[test]
    fn coach_is_send_sync_and_static() {
        fn assert_bounds<T: Send + Sync + Clone + 'static>() {}
        assert_bounds::<super::Coach>();
    }
}
