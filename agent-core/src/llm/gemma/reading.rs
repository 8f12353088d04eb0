//! The model's own reading of a text, as one vector, for tool choice:
//! [`GemmaBackend::read_texts`](super::GemmaBackend::read_texts) and the *reading model*
//! behind it.
//!
//! What a request asks for is clearest in the model's middle layers; the final ones are
//! shaped for the next token. A linear classifier over the mean state after a middle block
//! (the eighth of Gemma 3 270M's 18 by default), trained on the declared examples only,
//! tells plans apart better than one over the final states, and better beside the lexical
//! router than the model's channel scores do.
//!
//! llama.cpp gives only the final state. So the reading model is the same GGUF cut down to
//! its first [`reading_blocks`](super::GemmaOptions::reading_blocks) blocks (see `gguf.rs`),
//! loaded beside the full model in embedding mode with mean pooling: its "final" state is the
//! full model's state after that block, through the output norm. The cut file is written once
//! per model into the prefix cache's directory, with a `.meta` file naming the model it was
//! cut from and the cut file's own identity (length, modification time, a hash of its first
//! and last 4 MiB, as for the model itself); an entry that does not match is rebuilt.
//! Loading maps the file, and only the blocks and the embedding rows used are read, so it adds
//! little memory.
//!
//! Vectors are kept in memory for the model's lifetime. Those of the texts a session's
//! configuration declares (its examples' requests, which every agent's classifier trains on)
//! are also kept in a file beside the cut model, so a restart does not read them again; what
//! a user writes is never written to disk.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use llama_cpp_2::context::params::{LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

use super::cache_file::{
    CacheFault, DirLock, MAX_META, present, read_bounded, read_text, remove, write_synced,
};
use super::gguf;
use super::hash::Fnv64;
use super::kept::{touch, trim_dir};
use super::prefix::temporary_suffix;
use super::shared::{LLAMA_CPP, Shared, model_key};
use crate::session::LlmError;

/// A text is read on at most this many of its tokens.
const MAX_TEXT_TOKENS: usize = 96;
/// Texts read in one llama.cpp batch (one sequence each) by a model without a KV cache (the
/// embedding sibling `gguf.rs` makes of Gemma 3). A cut model that keeps its architecture
/// has a KV cache, and several sequences in one batch gave it wrong vectors (tool choice
/// from them fell far behind), so it reads one text at a time.
const TEXTS_PER_BATCH: usize = 16;
/// What a text is read inside: a user turn, followed by the start of the model's reply to it
/// (the frame the measurements were made with).
const BEFORE: &str = "<start_of_turn>user\n";
const AFTER: &str = "<end_of_turn>\n<start_of_turn>model\ntools:";
/// The most texts whose vectors are kept in memory (2.5 KB each for the 270M): the
/// declared examples, asked again by every new session's chooser, and a long conversation's
/// requests with their parts (a dozen texts a turn). Past it the memory starts over; the
/// examples' vectors come back from their file.
const REMEMBERED: usize = 4096;
/// The version of the cache files' format.
const CACHE_VERSION: &str = "agent-rs reading 1";

/// The cut-down model.
pub(crate) struct Reading {
    model: LlamaModel,
    /// Texts per batch (see [`TEXTS_PER_BATCH`]).
    per_batch: usize,
    /// The cache files, if kept.
    paths: Option<CachePaths>,
}

/// The reading model of one loaded model, made on first use, and the vectors of the texts
/// it read lately (at most [`REMEMBERED`]).
#[derive(Default)]
pub(crate) struct Reader {
    reading: OnceLock<Result<Reading, String>>,
    read: Mutex<HashMap<String, Arc<[f32]>>>,
}

impl Reader {
    /// The reading of `texts` by `shared`'s model (see
    /// [`GemmaBackend::read_texts`](super::GemmaBackend::read_texts)); the vectors of those
    /// of `texts` that are in `declared` are kept on disk as well (the file is for that
    /// whole set).
    pub(crate) fn read_texts(
        &self,
        shared: &Shared,
        texts: &[String],
        declared: &[String],
    ) -> Result<Option<Vec<Arc<[f32]>>>, LlmError> {
        if shared.options.reading_blocks == 0 {
            return Ok(None);
        }
        let reading = self
            .reading
            .get_or_init(|| Reading::load(shared).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| LlmError::Load(e.clone()))?;
        // What this call returns is gathered here, not looked up in the memory at the end:
        // the memory may start over while the call fills it (see `REMEMBERED`).
        let mut found: HashMap<String, Arc<[f32]>> = {
            let memory = self
                .read
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            texts
                .iter()
                .filter_map(|text| Some((text.clone(), memory.get(text)?.clone())))
                .collect()
        };
        let missing = |found: &HashMap<String, Arc<[f32]>>| -> Vec<String> {
            let mut seen = std::collections::HashSet::new();
            texts
                .iter()
                .filter(|text| !found.contains_key(*text) && seen.insert(*text))
                .cloned()
                .collect()
        };
        let wanted = missing(&found);
        if !declared.is_empty() && wanted.iter().any(|text| declared.contains(text)) {
            let vectors = match reading.load_declared(shared, declared) {
                Some(vectors) => vectors,
                None => {
                    let vectors = reading.read(shared, declared)?;
                    reading.save_declared(shared, declared, &vectors);
                    vectors
                }
            };
            for (text, vector) in declared.iter().zip(&vectors) {
                if wanted.contains(text) {
                    found.insert(text.clone(), vector.clone());
                }
            }
            self.remember(declared, vectors);
        }
        let rest = missing(&found);
        if !rest.is_empty() {
            let vectors = reading.read(shared, &rest)?;
            for (text, vector) in rest.iter().zip(&vectors) {
                found.insert(text.clone(), vector.clone());
            }
            self.remember(&rest, vectors);
        }
        texts
            .iter()
            .map(|text| {
                found
                    .get(text)
                    .cloned()
                    .ok_or_else(|| LlmError::Inference("a text was not read".to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    fn remember(&self, texts: &[String], vectors: Vec<Arc<[f32]>>) {
        let mut memory = self
            .read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if memory.len() + texts.len() > REMEMBERED {
            memory.clear();
        }
        for (text, vector) in texts.iter().zip(vectors) {
            memory.insert(text.clone(), vector);
        }
    }
}

impl Reading {
    /// Makes (or finds) the cut file and loads it.
    fn load(shared: &Shared) -> Result<Self, LlmError> {
        let blocks = shared.options.reading_blocks;
        let load = |path: &Path| {
            LlamaModel::load_from_file(shared.backend, path, &LlamaModelParams::default())
                .map_err(|e| LlmError::Load(format!("reading model {}: {e}", path.display())))
        };
        let cut = |path: &Path| {
            gguf::first_blocks(&shared.path, path, blocks)
                .map_err(|e| LlmError::Load(format!("reading model: {e}")))
        };
        // A cache directory that cannot be written costs time, never the reading: the cut
        // model is then made for this process only, as with no cache directory.
        let cached = shared.options.prefix_cache.dir().and_then(|dir| {
            let paths = CachePaths::new(&dir, shared, blocks);
            // Under the directory's lock, so that two processes starting at once cut once
            // and never record one's file with the other's identity.
            let _lock = DirLock::exclusive(&dir);
            if paths.valid() {
                match load(&paths.model) {
                    Ok(model) => return Some((model, paths)),
                    Err(e) => shared
                        .repairs
                        .note(&paths.model, CacheFault::Unloadable(e.to_string())),
                }
            } else if present(&paths.model) || present(&paths.meta) {
                let regular = std::fs::metadata(&paths.model).is_ok_and(|m| m.is_file());
                let fault = if regular || !present(&paths.model) {
                    CacheFault::Mismatch
                } else {
                    CacheFault::NotAFile
                };
                shared.repairs.note(&paths.model, fault);
            }
            paths.remove();
            if std::fs::create_dir_all(&dir).is_err() || cut(&paths.model).is_err() {
                paths.remove();
                return None;
            }
            paths.record();
            let model = load(&paths.model).ok()?;
            Some((model, paths))
        });
        let (model, paths) = match cached {
            Some((model, paths)) => (model, Some(paths)),
            None => {
                // A file of this process's own, gone once mapped.
                let path = std::env::temp_dir().join(format!(
                    "agent-rs-reading-{}-{blocks}.gguf",
                    std::process::id()
                ));
                cut(&path)?;
                let model = load(&path);
                let _ = std::fs::remove_file(&path);
                (model?, None)
            }
        };
        let per_batch = if model.meta_val_str("general.architecture").ok().as_deref()
            == Some("gemma-embedding")
        {
            TEXTS_PER_BATCH
        } else {
            1
        };
        Ok(Self {
            model,
            per_batch,
            paths,
        })
    }

    /// The vectors of `texts`, evaluated [`per_batch`](Self::per_batch) at a time.
    fn read(&self, shared: &Shared, texts: &[String]) -> Result<Vec<Arc<[f32]>>, LlmError> {
        let vocab = self.model.vocab();
        let frame = |text: &str| -> Vec<LlamaToken> {
            let mut tokens = vec![vocab.bos()];
            tokens.extend(vocab.tokenize(BEFORE.as_bytes(), false, true));
            tokens.extend(
                vocab
                    .tokenize(text.as_bytes(), false, false)
                    .into_iter()
                    .take(MAX_TEXT_TOKENS),
            );
            tokens.extend(vocab.tokenize(AFTER.as_bytes(), false, true));
            tokens
        };
        let framed: Vec<Vec<LlamaToken>> = texts.iter().map(|t| frame(t)).collect();
        let longest = framed.iter().map(Vec::len).max().unwrap_or(1);
        let per_batch = self.per_batch.min(texts.len()).max(1);
        // A model without a KV cache attends over the whole batch at once, so llama.cpp
        // requires it to fit one micro-batch (it aborts otherwise): the sizes are the most a
        // batch of `per_batch` framed texts can hold.
        let capacity = longest * per_batch;
        let size = u32::try_from(capacity).unwrap_or(u32::MAX);
        let threads = i32::try_from(shared.probe.threads(shared.options.threads)).unwrap_or(1);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(size))
            .with_n_batch(size)
            .with_n_ubatch(size)
            .with_n_seq_max(u32::try_from(per_batch).unwrap_or(1))
            .with_embeddings(true)
            .with_pooling_type(LlamaPoolingType::Mean)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let mut ctx = self
            .model
            .new_context(shared.backend, params)
            .map_err(|e| LlmError::Load(format!("reading context: {e}")))?;
        let mut batch = LlamaBatch::new(capacity, i32::try_from(per_batch).unwrap_or(1));
        let mut out = Vec::with_capacity(texts.len());
        for group in framed.chunks(per_batch) {
            batch.clear();
            for (seq, tokens) in group.iter().enumerate() {
                let seq = i32::try_from(seq).unwrap_or(0);
                for (pos, token) in tokens.iter().enumerate() {
                    let pos = i32::try_from(pos).unwrap_or(i32::MAX);
                    batch
                        .add(*token, pos, &[seq], true)
                        .map_err(|e| LlmError::Inference(format!("reading batch: {e}")))?;
                }
            }
            ctx.clear_kv_cache();
            ctx.decode(&mut batch)
                .map_err(|e| LlmError::Inference(format!("reading: {e}")))?;
            for seq in 0..group.len() {
                let seq = i32::try_from(seq).unwrap_or(0);
                let vector = ctx
                    .embeddings_seq_ith(seq)
                    .map_err(|e| LlmError::Inference(format!("reading: {e}")))?;
                out.push(Arc::from(vector.to_vec()));
            }
        }
        Ok(out)
    }

    /// The kept vectors of `declared`, if a valid file holds exactly that set, one vector of
    /// the model's width per text; a file that is there but does not is removed and noted.
    fn load_declared(&self, shared: &Shared, declared: &[String]) -> Option<Vec<Arc<[f32]>>> {
        let path = self.paths.as_ref()?.vectors(declared);
        if !present(&path) {
            return None;
        }
        let width = usize::try_from(self.model.n_embd()).unwrap_or(0);
        let max = 32 + (declared.len() as u64).saturating_mul(width as u64 * 4);
        let Some(bytes) = read_bounded(&path, max) else {
            shared.repairs.note(&path, CacheFault::NotAFile);
            remove(&path);
            return None;
        };
        let vectors = decode_vectors(&bytes, declared.len())
            .filter(|vectors| vectors.iter().all(|v| v.len() == width));
        if vectors.is_none() {
            let reason = "not one finite vector of the model's width per text";
            shared
                .repairs
                .note(&path, CacheFault::Damaged(reason.to_owned()));
            remove(&path);
        } else {
            touch(&path);
        }
        vectors
    }

    /// Keeps the vectors of `declared` on disk; a cache that cannot be written costs time
    /// at the next start, never a failure.
    fn save_declared(&self, shared: &Shared, declared: &[String], vectors: &[Arc<[f32]>]) {
        let Some(paths) = &self.paths else {
            return;
        };
        let path = paths.vectors(declared);
        let temporary = PathBuf::from(format!("{}{}", path.display(), temporary_suffix()));
        let written = write_synced(&temporary, &encode_vectors(vectors)).and_then(|()| {
            let _lock = DirLock::exclusive(&paths.dir);
            remove(&path);
            std::fs::rename(&temporary, &path)?;
            trim_dir(&paths.dir, shared.options.prefix_cache_limit, &path);
            Ok(())
        });
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

/// The cut model's file, its `.meta`, and where the declared texts' vectors go.
struct CachePaths {
    model: PathBuf,
    meta: PathBuf,
    /// Identifies the source model, the cut and the frame: part of every file name.
    stem: String,
    dir: PathBuf,
    /// What the `.meta` must say before the cut file's own identity.
    source: String,
}

impl CachePaths {
    fn new(dir: &Path, shared: &Shared, blocks: u32) -> Self {
        let source = format!(
            "{CACHE_VERSION}\nmodel {}\nllama {LLAMA_CPP}\nblocks {blocks}\nframe {BEFORE:?} {AFTER:?}\n",
            shared.model_key
        );
        let mut key = Fnv64::default();
        key.write_str(&source);
        let stem = format!("reading-{:016x}", key.finish());
        Self {
            model: dir.join(format!("{stem}.gguf")),
            meta: dir.join(format!("{stem}.meta")),
            stem,
            dir: dir.to_path_buf(),
            source,
        }
    }

    /// Whether the cut file is there, unchanged since it was written from this model.
    fn valid(&self) -> bool {
        let (Some(meta), Ok(identity)) = (read_text(&self.meta, MAX_META), model_key(&self.model))
        else {
            return false;
        };
        meta == format!("{}cut {identity}\n", self.source)
    }

    /// Records the cut file just written; without its `.meta` it is rebuilt next time.
    fn record(&self) {
        let Ok(identity) = model_key(&self.model) else {
            return;
        };
        let temporary = PathBuf::from(format!("{}{}", self.meta.display(), temporary_suffix()));
        let written = write_synced(
            &temporary,
            format!("{}cut {identity}\n", self.source).as_bytes(),
        )
        .and_then(|()| {
            remove(&self.meta);
            std::fs::rename(&temporary, &self.meta)
        });
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }

    /// The vectors file of a set of declared texts.
    fn vectors(&self, declared: &[String]) -> PathBuf {
        let mut key = Fnv64::default();
        for text in declared {
            key.write_str(text);
        }
        self.dir
            .join(format!("{}-{:016x}.vectors", self.stem, key.finish()))
    }

    fn remove(&self) {
        remove(&self.meta);
        remove(&self.model);
    }
}

/// The vectors file: a magic, the count and width, the values (little-endian `f32`), and an
/// FNV-1a of everything before it.
const MAGIC: &[u8; 8] = b"AGRSVEC1";

/// The widest reading a vectors file may hold (a model's hidden size; Gemma 3 270M's is 640).
const MAX_WIDTH: usize = 16_384;

fn encode_vectors(vectors: &[Arc<[f32]>]) -> Vec<u8> {
    let width = vectors.first().map_or(0, |v| v.len());
    let mut out = MAGIC.to_vec();
    out.extend((vectors.len() as u64).to_le_bytes());
    out.extend((width as u64).to_le_bytes());
    for vector in vectors {
        for value in vector.iter() {
            out.extend(value.to_le_bytes());
        }
    }
    let mut hash = Fnv64::default();
    hash.write(&out);
    out.extend(hash.finish().to_le_bytes());
    out
}

/// The vectors of a file written by [`encode_vectors`], if it is whole and holds `count`.
fn decode_vectors(bytes: &[u8], count: usize) -> Option<Vec<Arc<[f32]>>> {
    let (body, tail) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    let mut hash = Fnv64::default();
    hash.write(body);
    if hash.finish().to_le_bytes() != tail {
        return None;
    }
    let rest = body.strip_prefix(MAGIC)?;
    let (n, rest) = rest.split_at_checked(8)?;
    let (width, values) = rest.split_at_checked(8)?;
    let n = usize::try_from(u64::from_le_bytes(n.try_into().ok()?)).ok()?;
    let width = usize::try_from(u64::from_le_bytes(width.try_into().ok()?)).ok()?;
    if n != count
        || width == 0
        || width > MAX_WIDTH
        || values.len() != n.checked_mul(width)?.checked_mul(4)?
    {
        return None;
    }
    let floats: Vec<f32> = values
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // A reading is finite: a file of NaNs or infinities with a checksum to match was not
    // written by this reader, and a classifier trained on it would choose nothing well.
    if !floats.iter().all(|v| v.is_finite()) {
        return None;
    }
    Some(floats.chunks_exact(width).map(Arc::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_files_round_trip_and_refuse_damage() {
        let vectors: Vec<Arc<[f32]>> = vec![
            Arc::from(vec![1.0, -2.5, 3.25]),
            Arc::from(vec![0.0, 7.0, -1e-3]),
        ];
        let bytes = encode_vectors(&vectors);
        assert_eq!(decode_vectors(&bytes, 2), Some(vectors.clone()));
        assert_eq!(decode_vectors(&bytes, 3), None, "another count");
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        assert_eq!(decode_vectors(&flipped, 2), None, "a changed byte");
        for cut in [0, 7, 8, 20, bytes.len() - 1] {
            assert_eq!(decode_vectors(&bytes[..cut], 2), None, "cut at {cut}");
        }
        let not_a_number: Vec<Arc<[f32]>> = vec![Arc::from(vec![f32::NAN, 1.0])];
        assert_eq!(
            decode_vectors(&encode_vectors(&not_a_number), 1),
            None,
            "NaN with a matching checksum"
        );
        let infinite: Vec<Arc<[f32]>> = vec![Arc::from(vec![0.0, f32::INFINITY])];
        assert_eq!(decode_vectors(&encode_vectors(&infinite), 1), None);
    }
}
