//! The start-up checks [`Store::open_with`](super::Store::open_with) runs before it writes
//! anything, so that an app learns at launch — before it asks the user a first question, let
//! alone after they said yes — that the database cannot work, with one line that says why, and
//! with the file left exactly as it was:
//!
//! 1. [`check_writable`], before SQLite opens the file: the file and its folder can be written
//!    ([`StoreError::ReadOnly`]). The folder matters as much as the file: in WAL mode SQLite
//!    creates `<file>-wal` and `<file>-shm` beside it at the first write.
//! 2. [`check_contents`], on the opened connection, reading only: SQLite could open the file
//!    for writing (it silently falls back to read-only otherwise), `PRAGMA quick_check` finds
//!    no damage ([`StoreError::Corrupt`]; a file that is not SQLite at all is
//!    [`StoreError::NotADatabase`]), and the schema version and tables fit this build's
//!    migration list ([`StoreError::NewerSchema`], [`StoreError::SchemaMismatch`]).
//!
//! Only then does opening switch the file to WAL (which rewrites two header bytes) and migrate.

use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::migrations::{self, Migration};
use crate::error::StoreError;

/// Whether an I/O error says "you may not write here".
fn is_read_only(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem
    )
}

/// Checks that the database file at `path` (if it exists) and its folder can be written,
/// without changing either: the file is opened for writing and closed, and the folder gets a
/// probe file that is removed at once.
///
/// Two signals, because neither alone is enough: the permission bits (read-only for everyone,
/// as `chmod 0444` / `0555` leaves them) are what the user set, and they count even for root,
/// who could write anyway; the write attempts catch what the bits do not show — a file or
/// folder owned by someone else, an immutable file, a read-only mount.
pub(crate) fn check_writable(path: &Path, location: &str) -> Result<(), StoreError> {
    let read_only = |reason: String| StoreError::ReadOnly {
        location: location.to_owned(),
        reason,
    };
    match std::fs::metadata(path) {
        Ok(meta) => {
            if meta.permissions().readonly() {
                return Err(read_only("the file is marked read-only".to_owned()));
            }
            // Opening for writing writes nothing (no truncation, no creation).
            if let Err(err) = OpenOptions::new().write(true).open(path) {
                return Err(if is_read_only(&err) {
                    read_only(format!("the file cannot be written ({err})"))
                } else {
                    StoreError::from_io(&err, path)
                });
            }
        }
        Err(err) if err.kind() == ErrorKind::NotFound => {}
        Err(err) => return Err(StoreError::from_io(&err, path)),
    }

    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "the file".into(), |n| n.to_string_lossy());
    let folder_read_only = || {
        read_only(format!(
            "its folder {} does not allow creating files, and SQLite needs to create {name}-wal and {name}-shm there",
            folder.display()
        ))
    };
    let meta = std::fs::metadata(folder).map_err(|e| StoreError::from_io(&e, folder))?;
    if meta.permissions().readonly() {
        return Err(folder_read_only());
    }
    let probe = folder.join(format!(".{name}.write-probe-{}", std::process::id()));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(file) => {
            drop(file);
            // Best effort: a probe that cannot be removed is harmless and says nothing about
            // the database.
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        // Another store of this process probing the same folder right now: it is writable.
        Err(err) if err.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(err) if is_read_only(&err) => Err(folder_read_only()),
        Err(err) => Err(StoreError::from_io(&err, folder)),
    }
}

/// Checks the opened database without writing to it: writable as far as SQLite is concerned,
/// undamaged (`quick_check`), and at a schema version `migrations` can work with. Returns the
/// file's schema version.
pub(crate) fn check_contents(
    conn: &mut Connection,
    migrations: &[Migration],
    location: &str,
) -> Result<i64, StoreError> {
    let sqlite = |e| StoreError::from_sqlite(e, location);
    if conn.is_readonly(rusqlite::MAIN_DB).map_err(sqlite)? {
        return Err(StoreError::ReadOnly {
            location: location.to_owned(),
            reason: "SQLite could open it only for reading".to_owned(),
        });
    }
    // One read snapshot for all checks; dropped (rolled back) at the end: nothing to keep.
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Deferred)
        .map_err(sqlite)?;
    let findings: Vec<String> = tx
        .prepare("PRAGMA quick_check")
        .and_then(|mut stmt| {
            stmt.query_map([], |row| row.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(sqlite)?;
    if findings.first().is_some_and(|first| first != "ok") {
        return Err(StoreError::Corrupt {
            location: location.to_owned(),
            detail: one_line(&findings),
        });
    }
    migrations::check(&tx, migrations, location)
}

/// `quick_check`'s findings as one short line: the first finding (without SQLite's
/// `*** in database main ***` heading) and how many more there are.
fn one_line(findings: &[String]) -> String {
    const MAX_CHARS: usize = 120;
    let text = findings.join("\n");
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("***"));
    let first = lines.next().unwrap_or("quick_check failed");
    let more = lines.count();
    let mut line: String = first
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_CHARS)
        .collect();
    if first.chars().count() > MAX_CHARS {
        line.push('…');
    }
    if more > 0 {
        line.push_str(&format!(", and {more} more problem(s)"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_one_short_line() {
        let findings = vec![
            "*** in database main ***\nPage 2: btreeInitPage() returns error code 11".to_owned(),
            "Page 3: never used".to_owned(),
        ];
        assert_eq!(
            one_line(&findings),
            "Page 2: btreeInitPage() returns error code 11, and 1 more problem(s)"
        );
        let long = one_line(&["x\u{1B}".repeat(200)]);
        assert!(!long.contains('\u{1B}'));
        assert_eq!(long.chars().count(), 121);
        assert_eq!(one_line(&[]), "quick_check failed");
    }
}
