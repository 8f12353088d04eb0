//! Opening the model-state cache's files without trusting what is at their paths: a cache
//! file is read only when it is a regular file (a symlink is followed only to one) no longer
//! than the caller expects, so a FIFO, a device (`/dev/zero`), a directory or a huge file in
//! a cache file's place costs a `stat`, never a hang or a long read.

use std::fs::File;
use std::io::Read;
use std::path::Path;

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
}
