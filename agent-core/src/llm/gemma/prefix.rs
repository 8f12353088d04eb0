//! Prefixes evaluated once: the preamble (instructions, declarations, examples) and the
//! tool-choice channels are the same for every conversation of a model, so their KV state is
//! computed once and restored after that — from memory within a process (every session of a
//! [`GemmaBackend`](super::GemmaBackend) shares it), from a cache file across processes.
//!
//! A cache entry is keyed by everything its KV state depends on: the model's identity (see
//! `model.rs`), the llama.cpp build, the context's shape and the prefix's tokens. On disk an
//! entry is llama.cpp's own sequence-state file (which carries its tokens) plus a small
//! `.meta` file recording the key, the token count, and the state file's length and checksum.
//! Nothing is trusted blindly: a missing, short, corrupted or foreign entry — a hash that does
//! not match, tokens that differ, a state whose layout llama.cpp's reader would run off (see
//! `state_file.rs`), a KV that does not hold exactly the prefix after loading — is deleted,
//! noted as a repair when it was there at all, and the prefix evaluated again. A cache file
//! is read only when it is a regular file of the length its `.meta` records (see
//! `cache_file.rs`). Files are written to temporary names, synced, and renamed into place
//! under the cache directory's lock, so a reader never sees half a file or a state with
//! another's `.meta`; a cache that cannot be written costs time, never a failure.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::session::LlamaStateSeqFlags;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::token::LlamaToken;

use super::cache_file::{
    CacheFault, DirLock, MAX_META, open_regular, present, read_bounded, read_text, remove, sync,
    write_synced,
};
use super::conversation::{Logits, evaluate};
use super::hash::Fnv64;
use super::kept::{touch, trim_dir};
use super::shared::{LLAMA_CPP, Shared};
use super::state_file;
use crate::session::LlmError;

/// Where a prefix's KV state came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PrefixSource {
    /// Evaluated now (and cached).
    #[default]
    Evaluated,
    /// Restored from this process's memory.
    Memory,
    /// Restored from the cache file.
    File,
}

/// The version of the `.meta` format (2: the state file's checksum is XXH3-64).
const META_VERSION: &str = "agent-rs prefix 2";

/// Puts `tokens` into `seq` of `ctx` (which must not hold anything for `seq`): restored when
/// a valid cache entry exists, evaluated and cached otherwise. `shape` names the context's
/// layout for the key.
pub(crate) fn load(
    shared: &Shared,
    ctx: &mut LlamaContext<'_>,
    batch: &mut LlamaBatch<'_>,
    seq: i32,
    tokens: &[LlamaToken],
    shape: &str,
) -> Result<(PrefixSource, Duration), LlmError> {
    let started = Instant::now();
    if tokens.is_empty() {
        return Ok((PrefixSource::Evaluated, Duration::ZERO));
    }
    let key = cache_key(shared, tokens, shape);
    if let Some(state) = shared.prefixes.get(key) {
        if ctx.state_seq_set(&state, seq).is_ok() && holds(ctx, seq, tokens.len()) {
            return Ok((PrefixSource::Memory, started.elapsed()));
        }
        clear(ctx, seq);
    }
    let dir = shared.options.prefix_cache.dir();
    if let Some(dir) = &dir {
        let paths = Paths::new(dir, key);
        let restored = {
            let _lock = DirLock::shared(dir);
            restore_file(shared, ctx, seq, tokens, &paths, shape)
        };
        match restored {
            Ok(()) => {
                touch(&paths.state);
                remember(shared, ctx, seq, key);
                return Ok((PrefixSource::File, started.elapsed()));
            }
            Err(Refused::Missing) => {}
            Err(Refused::Unusable(file, fault)) => shared.repairs.note(file, fault),
        }
        clear(ctx, seq);
        paths.remove();
    }
    evaluate(ctx, batch, seq, 0, tokens, Logits::Last)?;
    remember(shared, ctx, seq, key);
    if let Some(dir) = &dir {
        // A cache that cannot be written only costs the next process the evaluation.
        let _ = save_file(shared, ctx, seq, tokens, &Paths::new(dir, key), shape);
    }
    Ok((PrefixSource::Evaluated, started.elapsed()))
}

fn cache_key(shared: &Shared, tokens: &[LlamaToken], shape: &str) -> u64 {
    let mut hash = Fnv64::default();
    hash.write_str(META_VERSION);
    hash.write_str(&shared.model_key);
    hash.write_str(LLAMA_CPP);
    hash.write_str(shape);
    for token in tokens {
        hash.write(&token.0.to_le_bytes());
    }
    hash.finish()
}

/// Whether `seq` holds the prefix's `len` positions, ending at `len - 1`.
///
/// The lowest position is only required to exist, not to be 0: Gemma 3's sliding-window
/// layers keep (and llama.cpp saves) only the last window of positions, and llama.cpp reports
/// the lowest position of those layers. That is the state a fresh evaluation leaves for
/// whatever comes next — the window is all those layers ever attend to.
fn holds(ctx: &LlamaContext<'_>, seq: i32, len: usize) -> bool {
    ctx.kv_cache_seq_pos_min(seq) >= 0
        && usize::try_from(ctx.kv_cache_seq_pos_max(seq)).ok() == len.checked_sub(1)
}

fn clear(ctx: &mut LlamaContext<'_>, seq: i32) {
    let _ = ctx.kv_cache_seq_rm(seq, None, None);
}

fn remember(shared: &Shared, ctx: &LlamaContext<'_>, seq: i32, key: u64) {
    if let Ok(state) = ctx.state_seq_get(seq, LlamaStateSeqFlags::empty()) {
        let bytes = state.byte_len();
        shared.prefixes.insert(key, state, bytes);
    }
}

struct Paths {
    state: PathBuf,
    meta: PathBuf,
}

impl Paths {
    fn new(dir: &Path, key: u64) -> Self {
        Self {
            state: dir.join(format!("{key:016x}.kv")),
            meta: dir.join(format!("{key:016x}.meta")),
        }
    }

    fn remove(&self) {
        remove(&self.state);
        remove(&self.meta);
    }
}

fn meta_text(shared: &Shared, tokens: usize, bytes: u64, hash: u64, shape: &str) -> String {
    format!(
        "{META_VERSION}\nmodel {}\nllama {LLAMA_CPP}\nshape {shape}\ntokens {tokens}\nbytes {bytes}\nhash {hash:016x}\n",
        shared.model_key
    )
}

/// The length and checksum of a cache file, read in pieces (the reading model's is hundreds
/// of MB). XXH3 rather than the keys' FNV-1a: a restart reads every cached prefix (tens of
/// MB), and FNV-1a, a byte at a time, made that a noticeable part of the start.
pub(crate) fn file_hash(path: &Path) -> Option<(u64, u64)> {
    use std::io::Read;
    let (mut file, _) = open_regular(path, u64::MAX)?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buffer = vec![0_u8; 1 << 20];
    let mut len = 0_u64;
    loop {
        let n = file.read(&mut buffer).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(buffer.get(..n)?);
        len += n as u64;
    }
    Some((len, hasher.digest()))
}

/// A suffix for temporary files no other writer uses: this process's id and a count within it
/// (two sessions of one process may save the same entry at once).
pub(crate) fn temporary_suffix() -> String {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!(".tmp{}-{n}", std::process::id())
}

/// Why a cache entry was not restored.
enum Refused<'a> {
    /// There is no entry: nothing to repair.
    Missing,
    /// This file of the entry is there but cannot be used.
    Unusable(&'a Path, CacheFault),
}

/// Restores `tokens` into `seq` from a valid entry.
///
/// The state file is read whole (within the length its `.meta` records), its checksum and
/// layout checked in memory, and only then handed to llama.cpp: a file llama.cpp's reader
/// would run off the end of is refused here (see `state_file.rs`).
fn restore_file<'a>(
    shared: &Shared,
    ctx: &mut LlamaContext<'_>,
    seq: i32,
    tokens: &[LlamaToken],
    paths: &'a Paths,
    shape: &str,
) -> Result<(), Refused<'a>> {
    let (meta_file, state_file) = (paths.meta.as_path(), paths.state.as_path());
    if !present(meta_file) && !present(state_file) {
        return Err(Refused::Missing);
    }
    let meta =
        read_text(meta_file, MAX_META).ok_or(Refused::Unusable(meta_file, CacheFault::NotAFile))?;
    // The length the meta records bounds the read: a state file of another length (or no
    // regular file at all) is refused before a byte of it is read.
    let recorded: u64 = meta
        .lines()
        .find_map(|line| line.strip_prefix("bytes "))
        .and_then(|bytes| bytes.parse().ok())
        .ok_or(Refused::Unusable(meta_file, CacheFault::Mismatch))?;
    let bytes = read_bounded(state_file, recorded)
        .filter(|bytes| bytes.len() as u64 == recorded)
        .ok_or(Refused::Unusable(state_file, CacheFault::NotAFile))?;
    let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
    if meta != meta_text(shared, tokens.len(), recorded, hash, shape) {
        return Err(Refused::Unusable(state_file, CacheFault::Mismatch));
    }
    let damaged = |reason: String| Refused::Unusable(state_file, CacheFault::Damaged(reason));
    let ids: Vec<i32> = tokens.iter().map(|t| t.0).collect();
    let caches =
        kv_caches(ctx, seq).ok_or_else(|| damaged("the model's KV layout is unknown".into()))?;
    state_file::check(&bytes, &ids, caches).map_err(|e| damaged(e.to_string()))?;
    match ctx.state_seq_load_file(state_file, seq, tokens.len() + 1) {
        Ok((stored, _)) if stored == tokens && holds(ctx, seq, tokens.len()) => Ok(()),
        Ok(_) => Err(damaged("restored, but not to the prefix".into())),
        Err(e) => Err(Refused::Unusable(
            state_file,
            CacheFault::Unloadable(e.to_string()),
        )),
    }
}

/// How many KV caches the model keeps (two for one with sliding-window layers), read from
/// the size llama.cpp gives the state of the empty `seq`: a magic and the sequence id, then
/// each cache's stream count and (zero) cell count.
fn kv_caches(ctx: &LlamaContext<'_>, seq: i32) -> Option<usize> {
    let size = ctx.state_seq_get_size_ext(seq, LlamaStateSeqFlags::empty());
    let caches = size.checked_sub(8)?;
    (caches % 8 == 0 && caches > 0).then_some(caches / 8)
}

fn save_file(
    shared: &Shared,
    ctx: &LlamaContext<'_>,
    seq: i32,
    tokens: &[LlamaToken],
    paths: &Paths,
    shape: &str,
) -> Option<()> {
    let dir = paths.state.parent()?;
    fs::create_dir_all(dir).ok()?;
    let suffix = temporary_suffix();
    let state_tmp = PathBuf::from(format!("{}{suffix}", paths.state.display()));
    let meta_tmp = PathBuf::from(format!("{}{suffix}", paths.meta.display()));
    let written = (|| {
        ctx.state_seq_save_file(&state_tmp, seq, tokens).ok()?;
        sync(&state_tmp).ok()?;
        let (bytes, hash) = file_hash(&state_tmp)?;
        write_synced(
            &meta_tmp,
            meta_text(shared, tokens.len(), bytes, hash, shape).as_bytes(),
        )
        .ok()?;
        // Under the lock, so that no reader finds the new state with the old meta; state
        // first, so that a reader after a crash in between finds a mismatch, not a state
        // trusted on another's checksum.
        let _lock = DirLock::exclusive(dir);
        remove(&paths.state);
        fs::rename(&state_tmp, &paths.state).ok()?;
        remove(&paths.meta);
        fs::rename(&meta_tmp, &paths.meta).ok()?;
        trim_dir(dir, shared.options.prefix_cache_limit, &paths.state);
        Some(())
    })();
    if written.is_none() {
        let _ = fs::remove_file(&state_tmp);
        let _ = fs::remove_file(&meta_tmp);
    }
    written
}
