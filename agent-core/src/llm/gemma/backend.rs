//! [`GemmaBackend`]: a loaded model, which sessions are started from. It holds what every
//! session shares — the weights and evaluated prefixes, and the reading model tool choice
//! reads requests with.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::cache_file::CacheRepair;
use super::format::PromptFormat;
use super::handle::GemmaSession;
use super::options::{DEFAULT_MODEL_FILE, GemmaOptions, MODEL_ENV, cache_home};
use super::reading::Reader;
use super::shared::Shared;
use crate::session::{ChatConfig, LlmError};

/// A loaded GGUF model; cheap to clone, and every session of it shares the weights, the
/// token table and the evaluated preambles.
#[derive(Clone)]
pub struct GemmaBackend {
    shared: Arc<Shared>,
    reader: Arc<Reader>,
}

impl fmt::Debug for GemmaBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GemmaBackend")
            .field("path", &self.shared.path)
            .field("format", &self.shared.format)
            .field("options", &self.shared.options)
            .finish_non_exhaustive()
    }
}

impl GemmaBackend {
    /// Loads the GGUF at `path`.
    ///
    /// # Errors
    /// [`LlmError::ModelNotFound`] when the file does not exist, [`LlmError::NotGguf`] when it
    /// is not a GGUF file, [`LlmError::Load`] when llama.cpp cannot load it.
    pub fn load(path: impl AsRef<Path>, options: GemmaOptions) -> Result<Self, LlmError> {
        Ok(Self {
            shared: Arc::new(Shared::load(path.as_ref(), options)?),
            reader: Arc::new(Reader::default()),
        })
    }

    /// Starts a conversation. Each session has its own llama.cpp context (and KV cache) on
    /// its own worker thread; its preamble is restored from memory or the prefix cache, or
    /// evaluated once and kept there.
    ///
    /// # Errors
    /// [`LlmError::Load`] when llama.cpp cannot create the context, [`LlmError::PromptTooLong`]
    /// when the preamble does not fit it.
    pub fn session(&self, config: ChatConfig) -> Result<GemmaSession, LlmError> {
        GemmaSession::start(Arc::clone(&self.shared), Arc::clone(&self.reader), config)
    }

    /// Starts a conversation as [`session`](Self::session) does, but returns at once: the
    /// context is created and the preamble restored or evaluated on the session's own
    /// thread while the caller goes on — a chat can show its prompt while the person types,
    /// instead of after the seconds a first start of a model (no cache file yet) takes. Every
    /// command waits for the start; [`GemmaSession::ready`] tells when it has finished.
    ///
    /// # Errors
    /// [`LlmError::Load`] when no thread can be started. Why the session itself could not
    /// start (as for [`session`](Self::session)) is the answer of
    /// [`ready`](GemmaSession::ready) and of every turn.
    pub fn session_in_background(&self, config: ChatConfig) -> Result<GemmaSession, LlmError> {
        GemmaSession::start_in_background(
            Arc::clone(&self.shared),
            Arc::clone(&self.reader),
            config,
        )
    }

    /// The prompt format sessions of this model use.
    pub fn format(&self) -> PromptFormat {
        self.shared.format
    }

    /// How long llama.cpp took to load the weights.
    pub fn load_time(&self) -> Duration {
        self.shared.load_time
    }

    /// The options the model was loaded with.
    pub fn options(&self) -> &GemmaOptions {
        &self.shared.options
    }

    /// The GGUF file.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// How many tokens `text` is as plain content.
    pub fn count_tokens(&self, text: &str) -> usize {
        self.shared.tokenize_text(text, false).len()
    }

    /// How many tokens the preamble of `config` (instructions, declarations, examples) is in
    /// this model's format.
    pub fn preamble_tokens(&self, config: &ChatConfig) -> usize {
        let format = self.shared.format.format();
        self.shared
            .tokenize(&super::format::preamble(
                format,
                config,
                self.shared.options.preamble_examples,
            ))
            .len()
    }

    /// Where the default model is expected: `$GEMMA_MODEL` if set, otherwise
    /// `${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/models/gemma-3-270m-q4_k_m.gguf`, where
    /// `scripts/fetch-model.sh` puts it. The file may not exist.
    pub fn default_model_path() -> PathBuf {
        if let Some(path) = std::env::var_os(MODEL_ENV).filter(|p| !p.is_empty()) {
            return PathBuf::from(path);
        }
        cache_home()
            .join("agent-rs")
            .join("models")
            .join(DEFAULT_MODEL_FILE)
    }

    /// The model's reading of each of `texts`: the mean of its states after the first
    /// [`reading_blocks`](GemmaOptions::reading_blocks) blocks, in a user-turn frame.
    /// `Ok(None)` when reading is switched off (`reading_blocks == 0`). Vectors are kept in
    /// memory, never on disk (a session keeps its declared examples' on disk).
    ///
    /// # Errors
    /// [`LlmError::Load`] when the reading model cannot be made or loaded,
    /// [`LlmError::Inference`] when evaluation fails.
    pub fn read_texts(&self, texts: &[String]) -> Result<Option<Vec<Arc<[f32]>>>, LlmError> {
        self.reader.read_texts(&self.shared, texts, &[])
    }

    /// How many evaluated prefixes (preambles, channels) this model keeps in memory for its
    /// next sessions, and their bytes: at most
    /// [`prefix_memory_limit`](GemmaOptions::prefix_memory_limit), but for one prefix larger
    /// than the limit by itself.
    pub fn kept_prefixes(&self) -> (usize, usize) {
        self.shared.prefixes.usage()
    }

    /// The files of the model-state cache that were found unusable (damaged, cut short, of
    /// another model or build, not regular files) and made again since the last call, for an
    /// app to tell the person in a line. Each is reported once.
    pub fn cache_repairs(&self) -> Vec<CacheRepair> {
        self.shared.repairs.take()
    }
}
