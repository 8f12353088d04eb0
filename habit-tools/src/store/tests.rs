//! Tests of opening, migrating, sharing and transactions of the [`Store`] (the operations'
//! own tests live beside them in `coach`).

use std::time::Duration;

use rusqlite::Connection;

use super::*;

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn table_count(store: &Store, table: &str) -> i64 {
    store
        .read(|tx| Ok(tx.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?))
        .unwrap()
}

fn insert_habit(tx: &Transaction<'_>, protocol: &str) -> Result<(), HabitError> {
    tx.execute(
        "INSERT INTO habits (habit_type, protocol_id, title, frame_level, framed_text, created_on)
         VALUES ('build', ?1, 't', 1, 'x', '2025-01-01')",
        [protocol],
    )?;
    Ok(())
}

#[test]
fn store_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
}

#[test]
fn default_path_is_under_the_data_dir() {
    let path = Store::default_path().unwrap();
    assert!(
        path.ends_with("habit-coach/habits.sqlite3"),
        "{}",
        path.display()
    );
}

#[test]
fn in_memory_store_is_migrated() {
    let store = Store::open_in_memory().unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        Store::latest_schema_version()
    );
    assert_eq!(store.location(), ":memory:");
    assert_eq!(table_count(&store, "habits"), 0);
    let by_name = Store::open(":memory:").unwrap();
    assert_eq!(
        by_name.schema_version().unwrap(),
        Store::latest_schema_version()
    );
}

#[test]
fn file_store_creates_folders_uses_wal_and_persists() {
    let dir = temp();
    let path = dir.path().join("nested/deeper/habits.sqlite3");
    {
        let store = Store::open(&path).unwrap();
        store.write(|tx| insert_habit(tx, "build.a")).unwrap();
        let mode: String = store
            .read(|tx| Ok(tx.query_row("PRAGMA journal_mode", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(mode, "wal");
    }
    let reopened = Store::open(&path).unwrap();
    assert_eq!(table_count(&reopened, "habits"), 1);
    assert_eq!(
        reopened.schema_version().unwrap(),
        Store::latest_schema_version()
    );
}

#[test]
fn a_failed_write_keeps_nothing() {
    let store = Store::open_in_memory().unwrap();
    let result: Result<(), HabitError> = store.write(|tx| {
        insert_habit(tx, "build.a")?;
        Err(HabitError::Duplicate("refused after writing".into()))
    });
    assert_eq!(result.unwrap_err().code(), "duplicate");
    assert_eq!(table_count(&store, "habits"), 0);
}

#[test]
fn a_panicking_write_keeps_nothing_and_the_store_stays_usable() {
    let store = std::sync::Arc::new(Store::open_in_memory().unwrap());
    let cloned = store.clone();
    let joined = std::thread::spawn(move || {
        let _ = cloned.write(|tx| -> Result<(), HabitError> {
            insert_habit(tx, "build.a")?;
            panic!("bug in an operation");
        });
    })
    .join();
    assert!(joined.is_err());
    assert_eq!(table_count(&store, "habits"), 0);
    store.write(|tx| insert_habit(tx, "build.b")).unwrap();
    assert_eq!(table_count(&store, "habits"), 1);
}

#[test]
fn the_schema_enforces_the_rules_too() {
    let store = Store::open_in_memory().unwrap();
    store.write(|tx| insert_habit(tx, "build.a")).unwrap();
    // A second active habit for the same protocol.
    let err = store.write(|tx| insert_habit(tx, "build.a")).unwrap_err();
    assert_eq!(err.code(), "storage");
    // Unknown value, and an entry for a habit that does not exist (foreign keys are on).
    for sql in [
        "INSERT INTO tracker_entries (habit_id, entry_date, value) VALUES (1, '2025-01-01', 'maybe')",
        "INSERT INTO tracker_entries (habit_id, entry_date, value) VALUES (99, '2025-01-01', 'done')",
    ] {
        let result = store.write(|tx| Ok(tx.execute(sql, [])?));
        assert_eq!(result.unwrap_err().code(), "storage", "{sql}");
    }
    assert_eq!(table_count(&store, "tracker_entries"), 0);
}

#[test]
fn opening_a_directory_is_a_clear_error() {
    let dir = temp();
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::CannotOpen { .. }), "{err}");
    assert!(err.to_string().contains("directory"), "{err}");
}

#[test]
fn a_file_in_place_of_the_folder_is_a_clear_error() {
    let dir = temp();
    let blocker = dir.path().join("habit-coach");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = Store::open(blocker.join("habits.sqlite3")).unwrap_err();
    assert!(matches!(err, StoreError::CannotOpen { .. }), "{err}");
}

#[test]
fn a_non_database_file_is_a_clear_error_and_is_left_alone() {
    let dir = temp();
    let path = dir.path().join("notes.txt");
    let junk = "이건 데이터베이스가 아닙니다. ".repeat(200);
    std::fs::write(&path, &junk).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err}");
    assert!(err.to_string().contains("not a SQLite database"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), junk);
    assert_eq!(HabitError::from(err).code(), "storage");
}

#[test]
fn a_file_locked_by_another_writer_is_a_clear_error() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    // Another program holds an exclusive lock on a rollback-journal database: opening must wait
    // for the busy timeout, then say "locked", not hang or report something obscure.
    let other = Connection::open(&path).unwrap();
    other
        .execute_batch("CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);")
        .unwrap();
    let options = StoreOptions::default().with_busy_timeout(Duration::from_millis(100));
    let started = std::time::Instant::now();
    let err = Store::open_with(&path, &options).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err}");
    assert!(
        started.elapsed() >= Duration::from_millis(90),
        "it waited for the lock first"
    );
    other.execute_batch("COMMIT;").unwrap();
    drop(other);
    assert!(
        Store::open_with(&path, &options).is_ok(),
        "opens once the lock is gone"
    );
}

#[test]
fn a_second_writer_waits_instead_of_failing() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    let first = Store::open(&path).unwrap();
    let second = Store::open(&path).unwrap();
    std::thread::scope(|s| {
        let holder = s.spawn(|| {
            first
                .write(|tx| {
                    insert_habit(tx, "build.a")?;
                    // Hold the write lock well past the moment the second writer starts.
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(())
                })
                .unwrap();
        });
        std::thread::sleep(Duration::from_millis(50));
        second.write(|tx| insert_habit(tx, "build.b")).unwrap();
        holder.join().unwrap();
    });
    assert_eq!(table_count(&first, "habits"), 2);
}

#[test]
fn an_old_file_is_migrated_on_open_keeping_its_data() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    {
        // A file written by a build that knew only the first migration, with a habit in it.
        let mut conn = Connection::open(&path).unwrap();
        migrations::migrate(&mut conn, &migrations::MIGRATIONS[..1], "old").unwrap();
        conn.execute(
            "INSERT INTO habits (habit_type, protocol_id, title, frame_level, framed_text, created_on)
             VALUES ('build', 'build.morning-walk', 't', 1, 'x', '2025-01-01')",
            [],
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        Store::latest_schema_version()
    );
    assert_eq!(table_count(&store, "habits"), 1);
}

#[test]
fn an_empty_sqlite_file_from_elsewhere_gets_the_schema() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE unrelated (x); INSERT INTO unrelated VALUES (1);")
        .unwrap();
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        Store::latest_schema_version()
    );
    assert_eq!(
        table_count(&store, "unrelated"),
        1,
        "other tables are left alone"
    );
}

#[test]
fn a_file_from_a_newer_build_is_refused_untouched() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    let newer = Store::latest_schema_version() + 5;
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", newer)
        .unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(err, StoreError::NewerSchema { found, .. } if found == newer),
        "{err}"
    );
    let version: i64 = Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, newer);
}

#[test]
fn two_stores_opening_a_new_file_at_once_both_succeed() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    let barrier = std::sync::Barrier::new(2);
    std::thread::scope(|s| {
        let opens: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    Store::open(&path).map(|st| st.schema_version().unwrap())
                })
            })
            .collect();
        for open in opens {
            assert_eq!(
                open.join().unwrap().unwrap(),
                Store::latest_schema_version()
            );
        }
    });
}

// Start-up checks (issue 9): each failure is found at open, before anything is written, says
// so in one line, and leaves the file byte for byte as it was (and adds no -wal, -shm or
// -journal file beside it).

/// The bytes of every file in `dir`, by name.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(entry.path()).unwrap_or_default())
        })
        .collect();
    files.sort();
    files
}

/// Opens `path`, which must fail, and checks the error is one line and `dir` is unchanged.
fn refused_untouched(path: &Path) -> StoreError {
    let dir = path.parent().unwrap();
    let before = snapshot(dir);
    let err = Store::open(path).unwrap_err();
    let line = err.to_string();
    assert!(!line.contains('\n'), "one line: {line:?}");
    assert!(!line.contains("CREATE"), "no SQL: {line}");
    assert!(line.len() < 400, "short: {line}");
    assert_eq!(
        snapshot(dir),
        before,
        "the folder is left as it was after: {line}"
    );
    err
}

/// A real habit database at `path` with one habit in it, closed again.
fn made_by_the_app(path: &Path) {
    let store = Store::open(path).unwrap();
    store.write(|tx| insert_habit(tx, "build.a")).unwrap();
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

// Tests run as root here, and root may write to a 0444 file or a 0555 folder anyway. The
// check reads the permission bits as well as trying to write, so these fail without the check
// for root and non-root alike; the write attempts (for files owned by others, immutable files,
// read-only mounts) cannot be shown by a root test and are not claimed to be.

#[test]
fn a_read_only_file_is_found_at_open() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    made_by_the_app(&path);
    set_mode(&path, 0o444);
    let err = refused_untouched(&path);
    assert!(matches!(err, StoreError::ReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("read-only"), "{err}");
    assert_eq!(HabitError::from(err).code(), "storage");
    set_mode(&path, 0o644);
    assert!(Store::open(&path).is_ok(), "opens once writable again");
}

#[test]
fn a_read_only_folder_is_found_at_open_with_or_without_the_file() {
    let dir = temp();
    let folder = dir.path().join("data");
    let path = folder.join("habits.sqlite3");
    made_by_the_app(&path);
    set_mode(&folder, 0o555);
    let err = refused_untouched(&path);
    // Restore first, so that a failed assertion still lets the temp dir be removed.
    set_mode(&folder, 0o755);
    assert!(matches!(err, StoreError::ReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("habits.sqlite3-wal"), "{err}");

    // A new file in a read-only folder is refused the same way, and not created.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    set_mode(&empty, 0o555);
    let result = Store::open(empty.join("habits.sqlite3"));
    let listing = snapshot(&empty);
    set_mode(&empty, 0o755);
    assert!(
        matches!(result, Err(StoreError::ReadOnly { .. })),
        "{result:?}"
    );
    assert!(listing.is_empty(), "{listing:?}");
    assert!(Store::open(&path).is_ok(), "opens once writable again");
}

#[test]
fn a_file_of_garbage_bytes_is_not_a_database_and_is_left_alone() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    // Deterministic noise (a small LCG), 8 KiB.
    let mut state: u32 = 0x9E37_79B9;
    let noise: Vec<u8> = (0..8192)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            state.to_be_bytes()[0]
        })
        .collect();
    std::fs::write(&path, &noise).unwrap();
    let err = refused_untouched(&path);
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err}");
    // SQLite's own header followed by noise: not readable, or damaged.
    let mut headed = b"SQLite format 3\0".to_vec();
    headed.extend_from_slice(&noise);
    std::fs::write(&path, &headed).unwrap();
    let err = refused_untouched(&path);
    assert!(
        matches!(
            err,
            StoreError::NotADatabase { .. } | StoreError::Corrupt { .. }
        ),
        "{err}"
    );
}

#[test]
fn a_damaged_database_is_found_by_quick_check_at_open() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    {
        let store = Store::open(&path).unwrap();
        // Enough rows for the table to span several pages.
        store
            .write(|tx| {
                for i in 0..400 {
                    insert_habit(tx, &format!("build.p{i}"))?;
                }
                Ok(())
            })
            .unwrap();
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let page_size = usize::from(u16::from_be_bytes([bytes[16], bytes[17]]));
    assert!(bytes.len() >= page_size * 4, "{} bytes", bytes.len());
    // Overwrite the third page (a b-tree page of the schema's tables) with junk.
    bytes[page_size * 2..page_size * 3].fill(0xA5);
    std::fs::write(&path, &bytes).unwrap();
    let err = refused_untouched(&path);
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("damaged"), "{err}");
}

#[test]
fn a_file_with_user_version_99_is_one_readable_line_and_untouched() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    made_by_the_app(&path);
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let err = refused_untouched(&path);
    assert!(
        matches!(
            err,
            StoreError::NewerSchema {
                found: 99,
                supported: 2
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the habit database has schema version 99, newer than this build supports (2); update the app"
    );
}

#[test]
fn a_schema_that_does_not_fit_the_migrations_is_refused_untouched() {
    let dir = temp();
    // Version 0, but another program already made a `habits` table: migrating would fail
    // halfway through with SQLite's complaint about SQL the user never saw.
    let foreign = dir.path().join("foreign.sqlite3");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE habits (name TEXT);")
        .unwrap();
    let err = refused_untouched(&foreign);
    assert!(
        matches!(err, StoreError::SchemaMismatch { found: 0, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("table `habits`"), "{err}");
    // Version 1 claimed, tables missing.
    let claimed = dir.path().join("claimed.sqlite3");
    Connection::open(&claimed)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); PRAGMA user_version = 1;")
        .unwrap();
    let err = refused_untouched(&claimed);
    assert!(err.to_string().contains("is missing"), "{err}");
    // A negative version.
    let negative = dir.path().join("negative.sqlite3");
    Connection::open(&negative)
        .unwrap()
        .pragma_update(None, "user_version", -1)
        .unwrap();
    let err = refused_untouched(&negative);
    assert!(
        matches!(err, StoreError::SchemaMismatch { found: -1, .. }),
        "{err}"
    );
}

#[test]
fn a_file_from_before_the_journal_gains_it_and_keeps_its_records() {
    let dir = temp();
    let path = dir.path().join("habits.sqlite3");
    {
        // The first schema step alone, as a build from before the journal left the file.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(super::migrations::MIGRATIONS[0].sql)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO habits (habit_type, protocol_id, title, frame_level, framed_text, created_on)
             VALUES ('build', 'build.morning-walk', '아침 걷기', 2, '걷기', '2026-01-01');
             INSERT INTO tracker_entries (habit_id, entry_date, value, note)
             VALUES (1, '2026-01-02', 'blank', '비');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        Store::latest_schema_version()
    );
    let conn = Connection::open(&path).unwrap();
    let (value, note, replaced): (String, Option<String>, i64) = conn
        .query_row(
            "SELECT value, note, replaced_blank FROM tracker_entries WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (value.as_str(), note.as_deref(), replaced),
        ("blank", Some("비"), 0)
    );
    let journal: i64 = conn
        .query_row("SELECT count(*) FROM journal", [], |r| r.get(0))
        .unwrap();
    assert_eq!(journal, 0);
}
