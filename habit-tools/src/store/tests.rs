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
