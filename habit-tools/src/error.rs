//! The crate's errors: [`HabitError`] for every operation (each with a stable machine
//! [`code`](HabitError::code) and a readable reason via `Display`), and [`StoreError`] for what can
//! go wrong with the SQLite file itself.

use crate::model::HabitType;

/// Everything an operation can refuse or fail with.
///
/// The tool layer turns this into the envelope `{status:"error", code, reason}`: `code` comes from
/// [`HabitError::code`] and never changes once released; `reason` is the `Display` text, written
/// for a model (and a person) to read and act on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HabitError {
    /// A habit id or catalog id that does not exist. `code`: `not_found`.
    #[error("{what} not found")]
    NotFound {
        /// What was looked for, e.g. `habit 7` or `protocol 'build.x'`.
        what: String,
    },

    /// R3: the active-habit quota for this type is full. `code`: `r3_quota`.
    #[error(
        "R3: at most {limit} active {habit_type} habit(s) at a time; finish or archive one before adding another"
    )]
    Quota {
        /// The type whose quota is full.
        habit_type: HabitType,
        /// The quota for that type.
        limit: u32,
    },

    /// R5 (one entry per habit and date), or a second active habit for the same protocol.
    /// `code`: `duplicate`.
    #[error("{0}")]
    Duplicate(String),

    /// R7: `framed_text` is framed as something to avoid. `code`: `r7_avoidance`.
    #[error(
        "R7: framed_text uses avoidance wording \"{phrase}\"; describe what to do instead (e.g. \"자기 전 책 10쪽 읽기\")"
    )]
    Avoidance {
        /// The pattern that matched, as listed in [`crate::rules::avoidance`].
        phrase: &'static str,
    },

    /// R8: a habit must come from a build or a break protocol, not a diet (or any other kind).
    /// `code`: `r8_xor`.
    #[error(
        "R8: '{id}' is a {kind}, not a build or break protocol; a habit needs exactly one of those"
    )]
    NotBuildOrBreak {
        /// The catalog id given.
        id: String,
        /// Its kind (e.g. `diet`).
        kind: &'static str,
    },

    /// A date that is not a valid `YYYY-MM-DD` calendar date, or one before the habit existed.
    /// `code`: `invalid_date`.
    #[error("invalid date '{input}': {reason}")]
    InvalidDate {
        /// The text as given (shortened if very long).
        input: String,
        /// Why it was refused.
        reason: String,
    },

    /// A date after today. `code`: `future_date`.
    #[error(
        "date {date} is in the future (today is {today}); only today or past days can be logged"
    )]
    FutureDate {
        /// The date given.
        date: String,
        /// Today according to the store's clock.
        today: String,
    },

    /// Text that is empty, too long or contains control characters. `code`: `invalid_text`.
    #[error("{field}: {reason}")]
    InvalidText {
        /// The parameter name.
        field: &'static str,
        /// Why it was refused.
        reason: String,
    },

    /// A value outside its allowed set or range (frame level, limit, tracker value, category).
    /// `code`: `invalid_value`.
    #[error("{field}: {reason}")]
    InvalidValue {
        /// The parameter name.
        field: &'static str,
        /// Why it was refused, naming the allowed values.
        reason: String,
    },

    /// An undo that would no longer restore the state before the call: what the call wrote
    /// was changed since (the habit was logged, archived; the entry was changed). The reason
    /// is shown to the person as it is. `code`: `state_changed`.
    #[error("{0}")]
    StateChanged(String),

    /// The database could not be opened, read or written. `code`: `storage`.
    #[error(transparent)]
    Storage(#[from] StoreError),
}

impl HabitError {
    /// The stable machine code for this error, e.g. `r3_quota`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound { .. } => "not_found",
            Self::Quota { .. } => "r3_quota",
            Self::Duplicate(_) => "duplicate",
            Self::Avoidance { .. } => "r7_avoidance",
            Self::NotBuildOrBreak { .. } => "r8_xor",
            Self::InvalidDate { .. } => "invalid_date",
            Self::FutureDate { .. } => "future_date",
            Self::InvalidText { .. } => "invalid_text",
            Self::InvalidValue { .. } => "invalid_value",
            Self::StateChanged(_) => "state_changed",
            Self::Storage(_) => "storage",
        }
    }
}

/// What a `#[tool]` fn returning `Result<_, HabitError>` sends to the model:
/// `{status:"error", code, reason}` with [`HabitError::code`] and the `Display` text.
impl From<HabitError> for agent_core::ToolError {
    fn from(err: HabitError) -> Self {
        agent_core::ToolError::new(err.code(), err.to_string())
    }
}

impl From<rusqlite::Error> for HabitError {
    fn from(err: rusqlite::Error) -> Self {
        Self::Storage(StoreError::Sqlite(err))
    }
}

/// What can go wrong with the database file: opening it, migrating it, or reaching it later.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The file (or its folder) cannot be opened or created: missing permissions, a directory in
    /// its place, a read-only disk.
    #[error("cannot open the habit database at {location}: {reason}")]
    CannotOpen {
        /// The path as given.
        location: String,
        /// The underlying reason.
        reason: String,
    },

    /// The file exists but is not a SQLite database (or is damaged beyond reading).
    #[error(
        "{location} is not a SQLite database (or is damaged); move it aside or pick another path"
    )]
    NotADatabase {
        /// The path as given.
        location: String,
    },

    /// The file, or the folder it lives in, cannot be written: found at open, before anything
    /// is written, so the app can say so before the first question instead of after the user
    /// said yes. SQLite needs the folder too: it creates `<file>-wal` and `<file>-shm` there.
    #[error(
        "the habit database {location} is read-only: {reason}; make it writable or pick another path"
    )]
    ReadOnly {
        /// The path as given.
        location: String,
        /// What is read-only, in a few words.
        reason: String,
    },

    /// `PRAGMA quick_check` found the file damaged (a file that is not SQLite at all is
    /// [`StoreError::NotADatabase`]).
    #[error(
        "the habit database {location} is damaged ({detail}); restore a backup or move it aside"
    )]
    Corrupt {
        /// The path as given.
        location: String,
        /// SQLite's first finding, on one line and shortened.
        detail: String,
    },

    /// The file's `user_version` and tables do not fit this build's migration list: a negative
    /// version, a table its version should have that is missing, or a table a pending migration
    /// would create that something else already made. Found before anything is written.
    #[error(
        "the habit database {location} does not match this app's schema (version {found}): {reason}; move it aside or pick another path"
    )]
    SchemaMismatch {
        /// The path as given.
        location: String,
        /// The file's `user_version`.
        found: i64,
        /// What does not fit.
        reason: String,
    },

    /// Another connection held the lock for longer than the busy timeout.
    #[error("the habit database {location} is locked by another writer; try again shortly")]
    Locked {
        /// The path as given.
        location: String,
    },

    /// The file was written by a newer version of this crate.
    #[error(
        "the habit database has schema version {found}, newer than this build supports ({supported}); update the app"
    )]
    NewerSchema {
        /// The file's `user_version`.
        found: i64,
        /// The latest version this build knows.
        supported: i64,
    },

    /// A migration step failed; the file is left at its previous version.
    #[error("migrating the habit database to version {version} ({step}) failed: {source}")]
    Migration {
        /// The version that failed to apply.
        version: i64,
        /// What that step does.
        step: &'static str,
        /// The SQLite error.
        source: rusqlite::Error,
    },

    /// No per-user data directory is known on this platform; pass an explicit path.
    #[error("no user data directory is known on this system; open the store with an explicit path")]
    NoDataDir,

    /// Any other SQLite error.
    #[error("sqlite: {0}")]
    Sqlite(#[source] rusqlite::Error),
}

impl StoreError {
    /// Sorts a SQLite error into the variants a person can act on (locked, not a database,
    /// cannot open), keeping the rest as [`StoreError::Sqlite`].
    pub(crate) fn from_sqlite(err: rusqlite::Error, location: &str) -> Self {
        use rusqlite::ErrorCode as C;
        let location = location.to_owned();
        match err.sqlite_error_code() {
            Some(C::DatabaseBusy | C::DatabaseLocked) => Self::Locked { location },
            Some(C::NotADatabase | C::DatabaseCorrupt) => Self::NotADatabase { location },
            Some(C::CannotOpen | C::PermissionDenied | C::ReadOnly | C::SystemIoFailure) => {
                Self::CannotOpen {
                    location,
                    reason: err.to_string(),
                }
            }
            _ => Self::Sqlite(err),
        }
    }

    /// The same for an I/O error met before SQLite is involved (creating the folder).
    pub(crate) fn from_io(err: &std::io::Error, path: &std::path::Path) -> Self {
        Self::CannotOpen {
            location: path.display().to_string(),
            reason: err.to_string(),
        }
    }
}

/// Shortens untrusted input before it is echoed back in an error, so a huge argument cannot make
/// the error itself huge.
pub(crate) fn echo(input: &str) -> String {
    const MAX: usize = 40;
    if input.chars().count() <= MAX {
        input.to_owned()
    } else {
        let head: String = input.chars().take(MAX).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_to_the_runtime_tool_error_with_code_and_reason() {
        let err = HabitError::Avoidance {
            phrase: "안 하기"
        };
        let reason = err.to_string();
        let tool: agent_core::ToolError = err.into();
        assert_eq!(tool.code(), "r7_avoidance");
        assert_eq!(tool.reason(), reason);
        assert!(tool.reason().contains("\"안 하기\""), "{}", tool.reason());
    }

    #[test]
    fn every_variant_has_a_distinct_snake_case_code() {
        let all = [
            HabitError::NotFound {
                what: "habit 1".into(),
            },
            HabitError::Quota {
                habit_type: HabitType::Build,
                limit: 3,
            },
            HabitError::Duplicate("x".into()),
            HabitError::Avoidance { phrase: "stop" },
            HabitError::NotBuildOrBreak {
                id: "diet.dash".into(),
                kind: "diet",
            },
            HabitError::InvalidDate {
                input: "x".into(),
                reason: "y".into(),
            },
            HabitError::FutureDate {
                date: "2030-01-01".into(),
                today: "2025-01-01".into(),
            },
            HabitError::InvalidText {
                field: "note",
                reason: "y".into(),
            },
            HabitError::InvalidValue {
                field: "limit",
                reason: "y".into(),
            },
            HabitError::Storage(StoreError::NoDataDir),
        ];
        let codes: std::collections::HashSet<&str> = all.iter().map(HabitError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| {
            c.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }));
    }

    #[test]
    fn echo_shortens_long_input() {
        assert_eq!(echo("짧다"), "짧다");
        let long = echo(&"가".repeat(1000));
        assert_eq!(long.chars().count(), 41);
        assert!(long.ends_with('…'));
    }
}
