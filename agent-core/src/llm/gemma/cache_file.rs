//! Opening the model-state cache's files without trusting what is at their paths: a cache
//! file is read only when it is a regular file (a symlink is followed only to one) no longer
//! than the caller expects, so a FIFO, a device (`/dev/zero`), a directory or a huge file in
//! a cache file's place costs a `stat`, never a hang or a long read. A file that is there but
//! cannot be used is made again, and noted as a [`CacheRepair`] the app can tell the person
//! about.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file of the model-state cache that was there but could not be used — damaged, cut
/// short, of another model, or not a regular file — and was made again.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheRepair {
    /// The file.
    pub file: PathBuf,
    /// Why it could not be used.
    pub fault: CacheFault,
}

/// Why a cache file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CacheFault {
    /// Not a regular file (a FIFO, a device, a directory, a dangling link), or not of the
    /// length its `.meta` records.
    #[error("not a regular file of the expected length")]
    NotAFile,
    /// Its checksum or what it was made from (model, llama.cpp build, prefix) differs from
    /// what its `.meta` records, or the `.meta` is missing.
    #[error("does not match its .meta")]
    Mismatch,
    /// Whole and matching, but its contents are not what this model reads: a state cut
    /// short or laid out for another model, values that are not finite numbers.
    #[error("damaged contents: {0}")]
    Damaged(String),
    /// llama.cpp could not load it.
    #[error("llama.cpp could not load it: {0}")]
    Unloadable(String),
}

/// The repairs a loaded model's cache needed, kept until the app takes them.
#[derive(Debug, Default)]
pub(crate) struct Repairs(Mutex<Vec<CacheRepair>>);

impl Repairs {
    /// Notes that `file` could not be used, and why.
    pub(crate) fn note(&self, file: &Path, fault: CacheFault) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(CacheRepair {
                file: file.to_path_buf(),
                fault,
            });
    }

    /// The repairs noted since the last call.
    pub(crate) fn take(&self) -> Vec<CacheRepair> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

/// Whether anything at all is at `path` (a dangling link counts): a cache file that is
/// missing is a first start, anything else that cannot be used is a repair.
pub(crate) fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Removes whatever is at `path`: a file or a link, or a directory someone left in a cache
/// file's place (the cache's names are its own, so nothing else belongs there).
pub(crate) fn remove(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// `path` opened for reading, with its length, when it is a regular file of at most `max`
/// bytes; `None` for anything else (missing, a FIFO, a device, a directory, too long).
///
/// The path's target is checked before it is opened (opening a FIFO waits for a writer), and
/// the opened file again (the path may have changed in between).
pub(crate) fn open_regular(path: &Path, max: u64) -> Option<(File, u64)> {
    let target = std::fs::metadata(path).ok()?;
    if !target.is_file() || target.len() > max {
        return None;
    }
    let file = File::open(path).ok()?;
    let opened = file.metadata().ok()?;
    (opened.is_file() && opened.len() <= max).then_some((file, opened.len()))
}

/// The whole of `path` when it is a regular file of at most `max` bytes (see
/// [`open_regular`]); reading stops at `max` even if the file grows meanwhile.
pub(crate) fn read_bounded(path: &Path, max: u64) -> Option<Vec<u8>> {
    let (file, len) = open_regular(path, max)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
    file.take(max).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// [`read_bounded`] as UTF-8 text.
pub(crate) fn read_text(path: &Path, max: u64) -> Option<String> {
    String::from_utf8(read_bounded(path, max)?).ok()
}

/// How old a temporary file in the cache directory must be before it is taken for one a
/// process left behind (it was stopped while writing) rather than one being written now.
const STALE_TEMPORARY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files (`….tmp<pid>-<n>`) that processes stopped mid-write left in
/// `dir` more than an hour ago; without this each interrupted write would stay for good.
pub(crate) fn sweep_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let stale = entry.file_name().to_string_lossy().contains(".tmp")
            && entry
                .metadata()
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|meta| meta.modified().ok())
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age > STALE_TEMPORARY);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A lock on the cache directory, held while a file and its `.meta` are renamed into place or
/// read, so that no process reads one file of a pair and the other of another pair: two
/// processes preparing at once each leave a whole pair. Released when dropped.
pub(crate) struct DirLock {
    _held: File,
}

impl DirLock {
    /// The lock for writing: no reader or other writer holds it meanwhile. `None` when the
    /// directory cannot be opened or locked (the cache then goes on without it).
    pub(crate) fn exclusive(dir: &Path) -> Option<Self> {
        let file = open_dir(dir)?;
        file.lock().ok()?;
        Some(Self { _held: file })
    }

    /// The lock for reading: any number of readers, no writer.
    pub(crate) fn shared(dir: &Path) -> Option<Self> {
        let file = open_dir(dir)?;
        file.lock_shared().ok()?;
        Some(Self { _held: file })
    }
}

/// `dir` opened for locking, when it is a directory (opening a FIFO would wait).
fn open_dir(dir: &Path) -> Option<File> {
    std::fs::metadata(dir).ok()?.is_dir().then_some(())?;
    File::open(dir).ok()
}

/// Writes `bytes` to `path` and syncs it, so that a crash after a later rename finds the
/// whole file, not an empty one.
pub(crate) fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Syncs a file written by someone else (llama.cpp) before it is renamed into place.
pub(crate) fn sync(path: &Path) -> std::io::Result<()> {
    File::open(path)?.sync_all()
}

/// The most a `.meta` file of the cache holds: a few short lines.
pub(crate) const MAX_META: u64 = 4096;

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    fn tempdir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "agent-rs-cache-file-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn only_regular_files_within_the_bound_are_read() {
        let dir = tempdir();
        let regular = dir.join("entry.meta");
        std::fs::write(&regular, b"agent-rs prefix 2\n").expect("write");
        assert_eq!(
            read_text(&regular, MAX_META).as_deref(),
            Some("agent-rs prefix 2\n")
        );
        assert_eq!(read_bounded(&regular, 4), None, "longer than expected");

        let link = dir.join("link.meta");
        std::os::unix::fs::symlink(&regular, &link).expect("symlink");
        assert!(read_text(&link, MAX_META).is_some(), "a link to a file");

        let started = Instant::now();
        let fifo = dir.join("fifo.kv");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            assert!(open_regular(&fifo, u64::MAX).is_none(), "a FIFO");
        }
        let zero = dir.join("zero.kv");
        std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
        assert!(open_regular(&zero, u64::MAX).is_none(), "a device");
        assert!(open_regular(&dir, u64::MAX).is_none(), "a directory");
        assert!(open_regular(&dir.join("missing"), u64::MAX).is_none());
        let dangling = dir.join("dangling.kv");
        std::os::unix::fs::symlink(dir.join("gone"), &dangling).expect("symlink");
        assert!(
            open_regular(&dangling, u64::MAX).is_none(),
            "a dangling link"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "nothing waits: {:?}",
            started.elapsed()
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn only_old_temporaries_are_swept() {
        let root = tempdir();
        let dir = root.join("sweep");
        std::fs::create_dir_all(&dir).expect("dir");
        let old = dir.join("00aa.kv.tmp123-0");
        let new = dir.join("00bb.kv.tmp124-0");
        let kept = dir.join("00aa.kv");
        for path in [&old, &new, &kept] {
            std::fs::write(path, b"x").expect("write");
        }
        let long_ago = std::time::SystemTime::now() - 2 * STALE_TEMPORARY;
        for path in [&old, &kept] {
            File::options()
                .write(true)
                .open(path)
                .and_then(|f| f.set_modified(long_ago))
                .expect("set mtime");
        }
        sweep_temporaries(&dir);
        assert!(!old.exists(), "an old temporary is removed");
        assert!(new.exists(), "one being written now is kept");
        assert!(kept.exists(), "a cache file is kept however old");
        let _ = std::fs::remove_dir_all(root);
    }
}
