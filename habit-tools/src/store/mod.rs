//! The SQLite store: opening the file (default path, start-up checks in `startup`, pragmas,
//! migrations, clear open errors) and the two ways in — `Store::read` and `Store::write` — that every operation uses, so that
//! every write is one `BEGIN IMMEDIATE` transaction.
//!
//! Concurrency: one [`Store`] wraps one connection behind a mutex (so it is `Send + Sync` and is
//! shared as `Arc<Store>`). Several stores — other threads, other processes — may open the same
//! file: WAL mode lets readers proceed while one writer writes, and the busy timeout makes a
//! second writer wait its turn instead of failing. Rules that must hold across writers live in
//! the schema (`UNIQUE`), not in read-then-write checks.

mod journal;
mod migrations;
mod startup;

pub use journal::SqliteJournal;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use crate::error::{HabitError, StoreError};

/// Folder under the user's data directory that holds the default database.
pub const APP_DIR: &str = "habit-coach";
/// File name of the default database.
pub const DB_FILE: &str = "habits.sqlite3";
/// How long a writer waits for another writer by default.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Options for [`Store::open_with`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StoreOptions {
    /// How long to wait for another connection's lock before giving up with
    /// [`StoreError::Locked`].
    pub busy_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        }
    }
}

impl StoreOptions {
    /// These options with another busy timeout.
    pub fn with_busy_timeout(mut self, timeout: Duration) -> Self {
        self.busy_timeout = timeout;
        self
    }
}

/// The habit database: one SQLite connection, shareable across threads.
pub struct Store {
    conn: Mutex<Connection>,
    location: String,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// `<user data dir>/habit-coach/habits.sqlite3`, e.g.
    /// `~/.local/share/habit-coach/habits.sqlite3` on Linux.
    pub fn default_path() -> Result<PathBuf, StoreError> {
        dirs::data_dir()
            .map(|dir| dir.join(APP_DIR).join(DB_FILE))
            .ok_or(StoreError::NoDataDir)
    }

    /// Opens (creating if needed) the database at [`Store::default_path`].
    pub fn open_default() -> Result<Self, StoreError> {
        Self::open(Self::default_path()?)
    }

    /// Opens (creating if needed, with its folder) the database at `path`, with default options.
    /// The path `:memory:` opens a private in-memory database.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        Self::open_with(path, &StoreOptions::default())
    }

    /// A private in-memory database, for tests and demos. Gone when dropped.
    pub fn open_in_memory() -> Result<Self, StoreError> {
        let conn =
            Connection::open_in_memory().map_err(|e| StoreError::from_sqlite(e, ":memory:"))?;
        Self::init(conn, ":memory:".to_owned(), &StoreOptions::default())
    }

    /// [`Store::open`] with explicit options.
    ///
    /// Opening is also the start-up check an app runs before it asks the user anything: before
    /// anything is written, it refuses a file or folder that cannot be written
    /// ([`StoreError::ReadOnly`]), a file that is not SQLite ([`StoreError::NotADatabase`]) or
    /// that `PRAGMA quick_check` finds damaged ([`StoreError::Corrupt`]), and a file whose
    /// `user_version` and tables do not fit this build's migrations
    /// ([`StoreError::NewerSchema`], [`StoreError::SchemaMismatch`]). Each error's `Display` is
    /// one line, and in each case the file is left byte for byte as it was.
    pub fn open_with(path: impl AsRef<Path>, options: &StoreOptions) -> Result<Self, StoreError> {
        let path = path.as_ref();
        if path == Path::new(":memory:") {
            let conn =
                Connection::open_in_memory().map_err(|e| StoreError::from_sqlite(e, ":memory:"))?;
            return Self::init(conn, ":memory:".to_owned(), options);
        }
        let location = path.display().to_string();
        if path.is_dir() {
            return Err(StoreError::CannotOpen {
                location,
                reason: "it is a directory".to_owned(),
            });
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| StoreError::from_io(&e, parent))?;
        }
        startup::check_writable(path, &location)?;
        // No URI parsing: a path is a path, even if it contains `?` or starts with `file:`.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| StoreError::from_sqlite(e, &location))?;
        Self::init(conn, location, options)
    }

    fn init(
        mut conn: Connection,
        location: String,
        options: &StoreOptions,
    ) -> Result<Self, StoreError> {
        let sqlite = |e| StoreError::from_sqlite(e, &location);
        conn.busy_timeout(options.busy_timeout).map_err(sqlite)?;
        // Everything that can be found wrong is found here, before the first write: a
        // non-database fails with NotADatabase, damage with Corrupt, a foreign schema with
        // NewerSchema / SchemaMismatch, and the file is left as it was.
        startup::check_contents(&mut conn, migrations::MIGRATIONS, &location)?;
        // The first write: WAL is persistent in the file (two header bytes); in-memory
        // databases answer "memory", which is fine.
        let _mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
            .map_err(sqlite)?;
        // NORMAL is durable across application crashes in WAL mode (only an OS crash can lose
        // the last commits), and avoids an fsync per tracker entry.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(sqlite)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(sqlite)?;
        migrations::migrate(&mut conn, migrations::MIGRATIONS, &location)?;
        Ok(Self {
            conn: Mutex::new(conn),
            location,
        })
    }

    /// Where this store lives: its path, or `:memory:`.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The file's schema version (the number of migrations applied).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        migrations::current_version(&self.lock())
            .map_err(|e| StoreError::from_sqlite(e, &self.location))
    }

    /// The schema version this build creates and understands.
    pub fn latest_schema_version() -> i64 {
        migrations::latest_version()
    }

    /// Runs `f` in a read transaction: a consistent snapshot even if another connection writes
    /// between its queries. Nothing `f` does is committed.
    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, HabitError>,
    ) -> Result<T, HabitError> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Deferred)
            .map_err(|e| self.classify(e))?;
        f(&tx).map_err(|e| self.classify_habit(e))
        // `tx` drops here and rolls back: a read has nothing to keep.
    }

    /// Runs `f` in a `BEGIN IMMEDIATE` transaction and commits it if `f` succeeds; on any error
    /// nothing `f` did is kept. Immediate, so the write lock is taken (waiting up to the busy
    /// timeout) before `f` reads anything its decision depends on, e.g. R3's count.
    pub(crate) fn write<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, HabitError>,
    ) -> Result<T, HabitError> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.classify(e))?;
        let value = f(&tx).map_err(|e| self.classify_habit(e))?;
        tx.commit().map_err(|e| self.classify(e))?;
        Ok(value)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave the connection half-written: an open
        // transaction is rolled back when it is dropped during unwinding. So the poisoned
        // connection is still sound to use.
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn classify(&self, err: rusqlite::Error) -> HabitError {
        HabitError::Storage(StoreError::from_sqlite(err, &self.location))
    }

    fn classify_habit(&self, err: HabitError) -> HabitError {
        match err {
            HabitError::Storage(StoreError::Sqlite(e)) => self.classify(e),
            other => other,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
