//! What a loaded model keeps of its evaluated prefixes, within a budget: in memory the states
//! themselves ([`Kept`]), on disk the cache directory's entries ([`trim_dir`]). An app whose
//! tool sets change as it runs (tools from an MCP server, plugins) makes a new preamble for
//! each set; the least recently used are dropped first, so memory and disk stay flat however
//! long it runs, and a set that comes back is restored from disk or evaluated again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

/// Values kept by key within a byte budget, the least recently used dropped first. The value
/// just inserted is kept even when it alone is over the budget.
pub(crate) struct Kept<V> {
    limit: usize,
    inner: Mutex<Inner<V>>,
}

struct Inner<V> {
    entries: HashMap<u64, Entry<V>>,
    bytes: usize,
    clock: u64,
}

struct Entry<V> {
    value: Arc<V>,
    bytes: usize,
    used: u64,
}

impl<V> Kept<V> {
    /// An empty store that keeps at most `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                bytes: 0,
                clock: 0,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<V>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value of `key`, now the most recently used.
    pub(crate) fn get(&self, key: u64) -> Option<Arc<V>> {
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        let entry = inner.entries.get_mut(&key)?;
        entry.used = now;
        Some(Arc::clone(&entry.value))
    }

    /// Keeps `value` (of `bytes` bytes) under `key`, dropping the least recently used others
    /// while the total is over the budget.
    pub(crate) fn insert(&self, key: u64, value: V, bytes: usize) {
        let mut inner = self.lock();
        inner.clock += 1;
        let used = inner.clock;
        if let Some(old) = inner.entries.insert(
            key,
            Entry {
                value: Arc::new(value),
                bytes,
                used,
            },
        ) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.limit {
            let oldest = inner
                .entries
                .iter()
                .filter(|(k, _)| **k != key)
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| *k);
            let Some(oldest) = oldest else { break };
            if let Some(dropped) = inner.entries.remove(&oldest) {
                inner.bytes -= dropped.bytes;
            }
        }
    }

    /// How many values are kept, and their bytes.
    pub(crate) fn usage(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.entries.len(), inner.bytes)
    }
}

/// Marks a cache file as just used, so that [`trim_dir`] drops it last.
pub(crate) fn touch(path: &Path) {
    let _ = std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(SystemTime::now()));
}

/// The cache entries of `dir` that count against its budget: each prefix state (`.kv`) with
/// its `.meta`, and each set of vectors (`.vectors`); the reading model (`.gguf`), one per
/// model, is not among them. Each with its files, their bytes, and when it was last used.
fn entries(dir: &Path) -> Vec<(Vec<PathBuf>, u64, SystemTime)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    read.filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).ok()?;
            if !meta.is_file() {
                return None;
            }
            let extension = path.extension()?.to_str()?;
            let mut files = vec![path.clone()];
            let mut bytes = meta.len();
            match extension {
                "vectors" => {}
                "kv" => {
                    let companion = path.with_extension("meta");
                    if let Ok(m) = std::fs::symlink_metadata(&companion) {
                        bytes += m.len();
                        files.push(companion);
                    }
                }
                _ => return None,
            }
            Some((files, bytes, meta.modified().ok()?))
        })
        .collect()
}

/// Removes the least recently used entries of the cache directory (see [`entries`]) while
/// they hold more than `limit` bytes; `keep` (the entry just written) is never removed. The
/// caller holds the directory's lock.
pub(crate) fn trim_dir(dir: &Path, limit: u64, keep: &Path) {
    let mut entries = entries(dir);
    let mut total: u64 = entries.iter().map(|(_, bytes, _)| bytes).sum();
    entries.sort_by_key(|(_, _, used)| *used);
    for (files, bytes, _) in entries {
        if total <= limit {
            break;
        }
        if files.iter().any(|f| f == keep) {
            continue;
        }
        for file in &files {
            let _ = std::fs::remove_file(file);
        }
        total -= bytes;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The bytes the cache directory's entries hold (see [`entries`]).
    fn dir_bytes(dir: &Path) -> u64 {
        entries(dir).iter().map(|(_, bytes, _)| bytes).sum()
    }

    #[test]
    fn the_least_recently_used_go_first_and_the_newest_stays() {
        let kept = Kept::new(10);
        kept.insert(1, "a", 4);
        kept.insert(2, "b", 4);
        assert!(kept.get(1).is_some(), "1 is now the most recent");
        kept.insert(3, "c", 4);
        assert!(kept.get(2).is_none(), "2 was the least recently used");
        assert!(kept.get(1).is_some() && kept.get(3).is_some());
        assert_eq!(kept.usage(), (2, 8));
        kept.insert(4, "huge", 50);
        assert_eq!(kept.usage(), (1, 50), "alone over the budget, but kept");
        kept.insert(4, "small", 2);
        assert_eq!(
            kept.usage(),
            (1, 2),
            "a key inserted again replaces its bytes"
        );
    }

    #[test]
    fn the_directory_is_trimmed_oldest_first_and_never_the_entry_just_written() {
        let dir = std::env::temp_dir().join(format!("agent-rs-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let write = |name: &str, bytes: usize, age: u64| {
            let path = dir.join(name);
            std::fs::write(&path, vec![0_u8; bytes]).expect("write");
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_modified(SystemTime::now() - Duration::from_secs(age)))
                .expect("mtime");
            path
        };
        write("a.kv", 100, 300);
        write("a.meta", 10, 300);
        write("b.vectors", 100, 200);
        let newest = write("c.kv", 100, 100);
        write("c.meta", 10, 100);
        write("reading-x.gguf", 1000, 500);
        assert_eq!(dir_bytes(&dir), 320, "the .gguf does not count");
        trim_dir(&dir, 250, &newest);
        assert!(!dir.join("a.kv").exists() && !dir.join("a.meta").exists());
        assert!(dir.join("b.vectors").exists() && newest.exists());
        trim_dir(&dir, 0, &newest);
        assert!(!dir.join("b.vectors").exists(), "older than the one kept");
        assert!(newest.exists() && dir.join("c.meta").exists());
        assert!(dir.join("reading-x.gguf").exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}
