//! Loading a GGUF model and what a loaded model offers: options, prompt-format detection,
//! tokenization, and the process-wide llama.cpp backend.
//!
//! The file is checked before llama.cpp sees it (missing file, no `GGUF` magic), so the
//! common mistakes give an error naming the path instead of whatever llama.cpp makes of them.
//! `LlamaBackend::init` succeeds only once per process, so the backend lives in a `OnceLock`
//! shared by every model; llama.cpp's and ggml's log output is routed to `tracing` at the same
//! moment, which keeps stderr quiet unless the application installs a subscriber.

use std::fmt;
use std::io::Read;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

use super::format::{FUNCTION_GEMMA_TOKENS, Piece, Prompt, PromptFormat};
use super::sampler::{ConstrainedSampling, banned_tokens};
use super::session::GemmaSession;
use crate::llm::{ChatConfig, LlmError};

/// The environment variable naming a GGUF to use instead of the cached default model.
pub const MODEL_ENV: &str = "GEMMA_MODEL";

/// The file name `scripts/fetch-model.sh` caches the default model under.
pub const DEFAULT_MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

/// How a model is run. Construct with `GemmaOptions { threads: 2, ..Default::default() }`.
#[derive(Debug, Clone, PartialEq)]
pub struct GemmaOptions {
    /// CPU threads for generation and prompt evaluation (default: all available cores).
    pub threads: usize,
    /// Context window in tokens: the whole conversation must fit (default 4096).
    pub context_size: u32,
    /// Largest number of prompt tokens evaluated in one llama.cpp batch (default 512).
    pub batch_size: u32,
    /// Sampling temperature; 0 samples greedily, which suits tool calls (default 0).
    pub temperature: f32,
    /// Seed of the sampler's random generator when `temperature > 0` (default 42).
    pub seed: u32,
    /// Most tokens the model may generate in one turn (default 256).
    pub max_tokens_per_turn: usize,
    /// Most tool calls one model turn may hold (default 1). The grammar allows a list of
    /// calls; the base 270M model, given room for more than one, tends to append a call to
    /// every declared tool, so more is for models that use it well.
    pub max_calls_per_turn: usize,
    /// The prompt format; `None` picks FunctionGemma's when the vocabulary has its tokens,
    /// the Gemma JSON format otherwise (default `None`).
    pub format: Option<PromptFormat>,
    /// How the tool-call grammar is enforced (default: the fast check-first path).
    pub constrained_sampling: ConstrainedSampling,
}

impl Default for GemmaOptions {
    fn default() -> Self {
        Self {
            threads: std::thread::available_parallelism().map_or(2, usize::from),
            context_size: 4096,
            batch_size: 512,
            temperature: 0.0,
            seed: 42,
            max_tokens_per_turn: 256,
            max_calls_per_turn: 1,
            format: None,
            constrained_sampling: ConstrainedSampling::default(),
        }
    }
}

/// A loaded GGUF model; cheap to clone, and every session of it shares the weights.
#[derive(Clone)]
pub struct GemmaBackend {
    pub(crate) shared: Arc<Shared>,
}

/// What sessions share: the weights and how to run them.
pub(crate) struct Shared {
    pub(crate) model: LlamaModel,
    pub(crate) backend: &'static LlamaBackend,
    pub(crate) options: GemmaOptions,
    pub(crate) format: PromptFormat,
    path: PathBuf,
    load_time: Duration,
    banned: OnceLock<Vec<LlamaToken>>,
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
        let path = path.as_ref().to_path_buf();
        check_gguf(&path)?;
        let backend = llama_backend()?;
        let started = Instant::now();
        let model = LlamaModel::load_from_file(backend, &path, &LlamaModelParams::default())
            .map_err(|e| LlmError::Load(format!("{}: {e}", path.display())))?;
        let load_time = started.elapsed();
        let format = options.format.unwrap_or_else(|| detect_format(&model));
        Ok(Self {
            shared: Arc::new(Shared {
                model,
                backend,
                options,
                format,
                path,
                load_time,
                banned: OnceLock::new(),
            }),
        })
    }

    /// Starts a conversation. Each session has its own llama.cpp context (and KV cache) on
    /// its own worker thread.
    ///
    /// # Errors
    /// [`LlmError::Grammar`] when the tool schemas give no usable grammar,
    /// [`LlmError::Load`] when llama.cpp cannot create the context.
    pub fn session(&self, config: ChatConfig) -> Result<GemmaSession, LlmError> {
        GemmaSession::start(Arc::clone(&self.shared), config)
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

    /// How many tokens the instructions and tool declarations of `config` cost in this
    /// model's prompt format (what the first turn carries on top of the user's message).
    pub fn preamble_tokens(&self, config: &ChatConfig) -> usize {
        self.shared
            .tokenize(&self.shared.format.render_preamble(config))
            .len()
    }

    /// Where the default model is expected: `$GEMMA_MODEL` if set, otherwise
    /// `${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/models/gemma-3-270m-q4_k_m.gguf`, where
    /// `scripts/fetch-model.sh` puts it. The file may not exist.
    pub fn default_model_path() -> PathBuf {
        if let Some(path) = std::env::var_os(MODEL_ENV).filter(|p| !p.is_empty()) {
            return PathBuf::from(path);
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
            .unwrap_or_else(|| PathBuf::from(".cache"));
        cache
            .join("agent-rs")
            .join("models")
            .join(DEFAULT_MODEL_FILE)
    }
}

impl Shared {
    /// Tokenizes a rendered prompt: control pieces with special tokens parsed, content as
    /// plain text.
    pub(crate) fn tokenize(&self, prompt: &Prompt) -> Vec<LlamaToken> {
        let mut tokens = Vec::new();
        for piece in prompt.pieces() {
            match piece {
                Piece::Control(text) => tokens.extend(self.tokenize_text(text, true)),
                Piece::Text(text) => tokens.extend(self.tokenize_text(text, false)),
            }
        }
        tokens
    }

    pub(crate) fn tokenize_text(&self, text: &str, parse_special: bool) -> Vec<LlamaToken> {
        self.model
            .vocab()
            .tokenize(text.as_bytes(), false, parse_special)
    }

    /// Control tokens a constrained reply may not contain; computed on first use.
    pub(crate) fn banned_tokens(&self) -> &[LlamaToken] {
        self.banned.get_or_init(|| banned_tokens(&self.model))
    }

    /// The single token `text` stands for, if the vocabulary has it.
    pub(crate) fn special_token(&self, text: &str) -> Option<LlamaToken> {
        single_token(&self.model, text)
    }
}

/// Fails with a clear error unless `path` is an existing file starting with `GGUF`.
pub(crate) fn check_gguf(path: &Path) -> Result<(), LlmError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LlmError::ModelNotFound {
                path: path.to_path_buf(),
            });
        }
        Err(_) => {
            return Err(LlmError::NotGguf {
                path: path.to_path_buf(),
            });
        }
    };
    let mut magic = [0_u8; 4];
    match file.read_exact(&mut magic) {
        Ok(()) if &magic == b"GGUF" => Ok(()),
        _ => Err(LlmError::NotGguf {
            path: path.to_path_buf(),
        }),
    }
}

/// The process-wide llama.cpp backend; see the module doc.
fn llama_backend() -> Result<&'static LlamaBackend, LlmError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| LlmError::Load(format!("llama.cpp backend: {e}")))
}

fn detect_format(model: &LlamaModel) -> PromptFormat {
    if FUNCTION_GEMMA_TOKENS
        .iter()
        .all(|text| single_token(model, text).is_some())
    {
        PromptFormat::FunctionGemma
    } else {
        PromptFormat::GemmaJson
    }
}

fn single_token(model: &LlamaModel, text: &str) -> Option<LlamaToken> {
    match model
        .vocab()
        .tokenize(text.as_bytes(), false, true)
        .as_slice()
    {
        [token] => Some(*token),
        _ => None,
    }
}

/// The context size as llama.cpp wants it (at least one token).
pub(crate) fn context_size(options: &GemmaOptions) -> NonZeroU32 {
    NonZeroU32::new(options.context_size).unwrap_or(NonZeroU32::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_model_not_found() {
        let path = std::env::temp_dir().join("agent-rs-no-such-model.gguf");
        assert!(matches!(check_gguf(&path), Err(LlmError::ModelNotFound { path: p }) if p == path));
    }

    #[test]
    fn a_file_without_the_magic_is_not_gguf() {
        let dir = std::env::temp_dir();
        let short = dir.join(format!("agent-rs-short-{}.gguf", std::process::id()));
        let wrong = dir.join(format!("agent-rs-wrong-{}.gguf", std::process::id()));
        std::fs::write(&short, b"GG").expect("write");
        std::fs::write(&wrong, b"PK\x03\x04 not a model").expect("write");
        assert!(matches!(check_gguf(&short), Err(LlmError::NotGguf { .. })));
        assert!(matches!(check_gguf(&wrong), Err(LlmError::NotGguf { .. })));
        assert!(matches!(check_gguf(&dir), Err(LlmError::NotGguf { .. })));
        let _ = std::fs::remove_file(short);
        let _ = std::fs::remove_file(wrong);
    }

    #[test]
    fn a_truncated_gguf_is_a_load_error_not_an_abort() {
        let path = std::env::temp_dir().join(format!("agent-rs-trunc-{}.gguf", std::process::id()));
        std::fs::write(&path, b"GGUF\x03\x00\x00\x00garbage").expect("write");
        let result = GemmaBackend::load(&path, GemmaOptions::default());
        let _ = std::fs::remove_file(&path);
        assert!(matches!(result, Err(LlmError::Load(_))), "{result:?}");
    }
}
