//! The schema, as a list of migrations applied in order and tracked by SQLite's `user_version`
//! (version N = the first N migrations applied). Append to [`MIGRATIONS`]; never edit a released
//! step, since files in the wild have already run it.

use rusqlite::{Connection, TransactionBehavior};

use crate::error::StoreError;

/// One schema step.
#[derive(Debug)]
pub(crate) struct Migration {
    /// What the step does, for error messages and readers.
    pub(crate) description: &'static str,
    /// The SQL, run as one batch inside the migration transaction.
    pub(crate) sql: &'static str,
    /// The tables the step creates (and that later steps keep): what [`check`] expects a file
    /// at this version to have, and a file before it not to have.
    pub(crate) creates: &'static [&'static str],
}

/// Every schema step, oldest first.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        description: "habits and tracker entries",
        // STRICT tables so a wrong type is an error rather than silently stored. The CHECKs repeat
        // the rules the Rust side enforces, so a bug there cannot write a value the readers would
        // not understand.
        sql: "
        CREATE TABLE habits (
            id                INTEGER PRIMARY KEY,
            habit_type        TEXT    NOT NULL CHECK (habit_type IN ('build', 'break')),
            protocol_id       TEXT    NOT NULL,
            title             TEXT    NOT NULL,
            frame_level       INTEGER NOT NULL CHECK (frame_level BETWEEN 1 AND 3),
            framed_text       TEXT    NOT NULL,
            anchor_when       TEXT,
            anchor_after_what TEXT,
            dose_text         TEXT,
            created_on        TEXT    NOT NULL,
            active            INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
        ) STRICT;

        -- One active habit per protocol: a retried add_habit must not create a twin.
        CREATE UNIQUE INDEX habits_one_active_per_protocol ON habits (protocol_id) WHERE active = 1;

        CREATE TABLE tracker_entries (
            id         INTEGER PRIMARY KEY,
            habit_id   INTEGER NOT NULL REFERENCES habits (id),
            entry_date TEXT    NOT NULL,
            value      TEXT    NOT NULL CHECK (value IN ('done', 'blank')),
            note       TEXT,
            -- R5, enforced by the database so that racing writers cannot both win.
            UNIQUE (habit_id, entry_date)
        ) STRICT;
    ",
        creates: &["habits", "tracker_entries"],
    },
    Migration {
        description: "the journal of destructive calls, and what a tracker entry replaced",
        // The journal keeps each call's arguments and result as JSON text, as the runtime gave
        // them. A `done` that replaces a deliberate `blank` keeps the blank's note beside it, so
        // the replacement can be undone without losing it.
        sql: "
        CREATE TABLE journal (
            id         INTEGER PRIMARY KEY,
            tool       TEXT    NOT NULL,
            label      TEXT    NOT NULL,
            summary    TEXT    NOT NULL,
            arguments  TEXT    NOT NULL,
            result     TEXT    NOT NULL,
            at_ms      INTEGER NOT NULL,
            caller     TEXT    NOT NULL CHECK (caller IN ('app', 'system', 'assistant')),
            confirmed  TEXT    NOT NULL CHECK (confirmed IN ('confirmer', 'not_asked')),
            undo_of    INTEGER REFERENCES journal (id),
            undone_by  INTEGER REFERENCES journal (id)
        ) STRICT;

        ALTER TABLE tracker_entries ADD COLUMN replaced_blank INTEGER NOT NULL DEFAULT 0
            CHECK (replaced_blank IN (0, 1));
        ALTER TABLE tracker_entries ADD COLUMN replaced_note TEXT;
    ",
        creates: &["journal"],
    },
];

/// The schema version this build writes.
pub(crate) fn latest_version() -> i64 {
    version_of(MIGRATIONS)
}

fn version_of(migrations: &[Migration]) -> i64 {
    i64::try_from(migrations.len()).unwrap_or(i64::MAX)
}

/// Reads the file's schema version.
pub(crate) fn current_version(conn: &Connection) -> Result<i64, rusqlite::Error> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// Checks, without writing, that the file fits `migrations`: its version is not negative and
/// not newer than the list, every table its version should have exists, and no table a pending
/// step would create exists yet (made by another program, it would fail that step with a
/// SQLite message about SQL the user never wrote). Returns the file's version.
///
/// Run inside a read transaction, so the version and the tables are one snapshot even while
/// another process migrates the same file.
pub(crate) fn check(
    conn: &Connection,
    migrations: &[Migration],
    location: &str,
) -> Result<i64, StoreError> {
    let sqlite = |e| StoreError::from_sqlite(e, location);
    let target = version_of(migrations);
    let found = current_version(conn).map_err(sqlite)?;
    let mismatch = |reason: String| StoreError::SchemaMismatch {
        location: location.to_owned(),
        found,
        reason,
    };
    if found > target {
        return Err(StoreError::NewerSchema {
            found,
            supported: target,
        });
    }
    if found < 0 {
        return Err(mismatch(
            "a negative version, which no version of this app writes".to_owned(),
        ));
    }
    for (version, step) in (1_i64..).zip(migrations) {
        let is_applied = version <= found;
        for table in step.creates {
            let exists: bool = conn
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
                    [table],
                    |r| r.get(0),
                )
                .map_err(sqlite)?;
            if is_applied && !exists {
                return Err(mismatch(format!("its table `{table}` is missing")));
            }
            if !is_applied && exists {
                return Err(mismatch(format!(
                    "it already has a table `{table}` that version {version} would create (made by another program?)"
                )));
            }
        }
    }
    Ok(found)
}

/// Brings the database up to the end of `migrations`; returns the resulting version.
///
/// All pending steps run in one `BEGIN IMMEDIATE` transaction together with the version bump:
/// either the file moves to the new version whole, or it stays as it was. The immediate lock
/// also makes two processes opening the same new file at once apply the steps only once (the
/// second re-reads the version after the first commits).
pub(crate) fn migrate(
    conn: &mut Connection,
    migrations: &[Migration],
    location: &str,
) -> Result<i64, StoreError> {
    let target = version_of(migrations);
    let sqlite = |e| StoreError::from_sqlite(e, location);
    // Fast path without a write lock, so opening an up-to-date file never waits for a writer.
    let found = current_version(conn).map_err(sqlite)?;
    if found == target {
        return Ok(found);
    }
    if found > target {
        return Err(StoreError::NewerSchema {
            found,
            supported: target,
        });
    }

    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite)?;
    let found = current_version(&tx).map_err(sqlite)?;
    if found > target {
        return Err(StoreError::NewerSchema {
            found,
            supported: target,
        });
    }
    let skip = usize::try_from(found.max(0)).unwrap_or(usize::MAX);
    for (step, version) in migrations.iter().skip(skip).zip(found.max(0) + 1..) {
        tx.execute_batch(step.sql)
            .map_err(|source| StoreError::Migration {
                version,
                step: step.description,
                source,
            })?;
    }
    tx.pragma_update(None, "user_version", target)
        .map_err(|source| StoreError::Migration {
            version: target,
            step: "recording the schema version",
            source,
        })?;
    tx.commit().map_err(sqlite)?;
    Ok(target)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const STEPS: &[Migration] = &[
        Migration {
            description: "a",
            sql: "CREATE TABLE a (x INTEGER);",
            creates: &["a"],
        },
        Migration {
            description: "b",
            sql: "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1);",
            creates: &["b"],
        },
    ];

    fn count(conn: &Connection, table: &str) -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn applies_each_step_once_across_versions() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut conn, &STEPS[..1], "mem").unwrap(), 1);
        assert_eq!(current_version(&conn).unwrap(), 1);
        // An "old file" at version 1 meets a build with two steps: only step 2 runs.
        assert_eq!(migrate(&mut conn, STEPS, "mem").unwrap(), 2);
        assert_eq!(count(&conn, "a"), 1);
        // Re-running is a no-op.
        assert_eq!(migrate(&mut conn, STEPS, "mem").unwrap(), 2);
        assert_eq!(count(&conn, "a"), 1);
    }

    #[test]
    fn a_newer_file_is_refused_untouched() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, STEPS, "mem").unwrap();
        let err = migrate(&mut conn, &STEPS[..1], "mem").unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::NewerSchema {
                    found: 2,
                    supported: 1
                }
            ),
            "{err}"
        );
        assert_eq!(current_version(&conn).unwrap(), 2);
    }

    #[test]
    fn a_failing_step_rolls_everything_back() {
        const BROKEN: &[Migration] = &[
            Migration {
                description: "ok",
                sql: "CREATE TABLE a (x INTEGER);",
                creates: &["a"],
            },
            Migration {
                description: "broken",
                sql: "CREATE TABLE nope (;",
                creates: &[],
            },
        ];
        let mut conn = Connection::open_in_memory().unwrap();
        let err = migrate(&mut conn, BROKEN, "mem").unwrap_err();
        assert!(
            matches!(err, StoreError::Migration { version: 2, .. }),
            "{err}"
        );
        assert_eq!(current_version(&conn).unwrap(), 0);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'a'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0, "step 1 must be rolled back with step 2");
    }

    #[test]
    fn check_reads_version_and_tables_against_the_list() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(check(&conn, STEPS, "mem").unwrap(), 0);
        migrate(&mut conn, &STEPS[..1], "mem").unwrap();
        assert_eq!(check(&conn, STEPS, "mem").unwrap(), 1);
        // Version 1 with step 2's table already there: another program made it.
        conn.execute_batch("CREATE TABLE b (z TEXT);").unwrap();
        let err = check(&conn, STEPS, "mem").unwrap_err();
        assert!(err.to_string().contains("already has a table `b`"), "{err}");
        // Version 2 claimed, but step 1's table is gone.
        conn.execute_batch("DROP TABLE a; PRAGMA user_version = 2;")
            .unwrap();
        let err = check(&conn, STEPS, "mem").unwrap_err();
        assert!(err.to_string().contains("table `a` is missing"), "{err}");
        conn.pragma_update(None, "user_version", -3).unwrap();
        let err = check(&conn, STEPS, "mem").unwrap_err();
        assert!(
            matches!(err, StoreError::SchemaMismatch { found: -3, .. }),
            "{err}"
        );
        conn.pragma_update(None, "user_version", 3).unwrap();
        let err = check(&conn, STEPS, "mem").unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::NewerSchema {
                    found: 3,
                    supported: 2
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn the_real_schema_applies_and_has_descriptions() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(
            migrate(&mut conn, MIGRATIONS, "mem").unwrap(),
            latest_version()
        );
        assert!(MIGRATIONS.iter().all(|m| !m.description.is_empty()));
        // Each step's `creates` names exactly the tables it makes.
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut declared: Vec<&str> = MIGRATIONS.iter().flat_map(|m| m.creates).copied().collect();
        declared.sort_unstable();
        assert_eq!(tables, declared);
        for table in ["habits", "tracker_entries"] {
            assert_eq!(count(&conn, table), 0);
        }
    }
}
