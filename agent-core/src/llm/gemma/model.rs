//! Loading a GGUF model and what a loaded model offers every session: options, format
//! detection, tokenization, the token table the constrained sampler reads, the identity of
//! the model for prefix caches, and the process-wide llama.cpp backend.
//!
//! The file is checked before llama.cpp sees it (missing file, no `GGUF` magic), so the
//! common mistakes give an error naming the path instead of whatever llama.cpp makes of them.
//! `LlamaBackend::init` succeeds only once per process, so the backend lives in a `OnceLock`
//! shared by every model; llama.cpp's and ggml's log output is routed to `tracing` at the same
//! moment, which keeps stderr quiet unless the application installs a subscriber.

use std::collections::HashMap;
use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::session::SeqState;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

use super::format::{Piece, Prompt, PromptFormat, function_gemma};
use super::handle::GemmaSession;
use super::hash::Fnv64;
use super::reading::Reading;
use super::threads::{Probe, Threads};
use crate::agent::{ChatConfig, LlmError};

/// The environment variable naming a GGUF to use instead of the cached default model.
pub const MODEL_ENV: &str = "GEMMA_MODEL";

/// The file name `scripts/fetch-model.sh` caches the default model under.
pub const DEFAULT_MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

/// The llama.cpp this crate is built against, part of every prefix-cache key (a KV state is
/// only meaningful to the llama.cpp that wrote it). A test checks it against `Cargo.lock`.
pub(crate) const LLAMA_CPP: &str = "llama-cpp-sys-2 0.1.161";

/// Where prefix caches (evaluated preambles) are kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PrefixCache {
    /// `${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/prefix/`.
    #[default]
    Default,
    /// This directory.
    Dir(PathBuf),
    /// Memory only: each process evaluates its preambles once.
    Off,
}

impl PrefixCache {
    /// The directory the files are kept in; `None` for [`PrefixCache::Off`].
    pub fn dir(&self) -> Option<PathBuf> {
        match self {
            Self::Default => Some(cache_home().join("agent-rs").join("prefix")),
            Self::Dir(dir) => Some(dir.clone()),
            Self::Off => None,
        }
    }
}

/// How a model is run. Construct with `GemmaOptions::default()` and set the fields that
/// differ (`options.threads = Threads::from_count(2)`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GemmaOptions {
    /// CPU threads for generation and prompt evaluation, fixed when a session starts
    /// (default [`Threads::Auto`]: the cores other processes are not keeping busy).
    pub threads: Threads,
    /// Context window in tokens, shared by the conversation and the tool-choice channels
    /// (default 8192).
    pub context_size: u32,
    /// Largest number of tokens evaluated in one llama.cpp batch (default 512).
    pub batch_size: u32,
    /// Sampling temperature; 0 samples greedily, which suits tool calls (default 0).
    pub temperature: f32,
    /// Seed of the sampler's random generator when `temperature > 0` (default 42).
    pub seed: u32,
    /// Most tokens a call may take (default 128).
    pub max_call_tokens: usize,
    /// Most tokens a text answer may take (default 96).
    pub max_text_tokens: usize,
    /// The prompt format; `None` picks FunctionGemma's when the vocabulary has its tokens,
    /// Python-style calls otherwise (default `None`).
    pub format: Option<PromptFormat>,
    /// Restricted parameters with at most this many values have them listed, with their
    /// labels, next to the request when the model must write them (default 8; 0: never).
    pub value_hints: usize,
    /// Examples the preamble shows per tool, and answers to requests needing no tool
    /// (default 2; the tool-choice stage learns from all of them either way).
    pub preamble_examples: usize,
    /// Where evaluated preambles are kept between processes (default: the user's cache
    /// directory).
    pub prefix_cache: PrefixCache,
    /// Whether a call that copies the request has the request's next tokens verified in one
    /// batch rather than written one evaluation each (default `true`; the call written is
    /// the same either way but for rounding in near-ties).
    pub copy_drafts: bool,
    /// How many of the model's blocks tool choice reads requests with (default 8; 0: tool
    /// choice does without the model's reading). See [`GemmaBackend::read_texts`].
    pub reading_blocks: u32,
}

impl Default for GemmaOptions {
    fn default() -> Self {
        Self {
            threads: Threads::Auto,
            context_size: 8192,
            batch_size: 512,
            temperature: 0.0,
            seed: 42,
            max_call_tokens: 128,
            max_text_tokens: 96,
            format: None,
            value_hints: 8,
            preamble_examples: 2,
            prefix_cache: PrefixCache::default(),
            copy_drafts: true,
            reading_blocks: 8,
        }
    }
}

/// A loaded GGUF model; cheap to clone, and every session of it shares the weights, the
/// token table and the evaluated preambles.
#[derive(Clone)]
pub struct GemmaBackend {
    pub(crate) shared: Arc<Shared>,
}

/// What sessions share.
pub(crate) struct Shared {
    pub(crate) model: LlamaModel,
    pub(crate) backend: &'static LlamaBackend,
    pub(crate) options: GemmaOptions,
    pub(crate) format: PromptFormat,
    pub(crate) path: PathBuf,
    load_time: Duration,
    /// Identifies the weights for prefix caches; see [`model_key`].
    pub(crate) model_key: String,
    tokens: OnceLock<TokenTable>,
    /// Evaluated prefixes (preambles, channels) by cache key.
    pub(crate) prefixes: Mutex<HashMap<u64, Arc<SeqState>>>,
    /// What [`Threads::Auto`] decides from; its first look is taken as loading starts.
    pub(crate) probe: Probe,
    /// The reading model, made on first use (see `reading.rs`).
    pub(crate) reading: OnceLock<Result<Reading, String>>,
    /// Vectors of the texts read lately (at most `reading.rs`'s `REMEMBERED`).
    pub(crate) read: Mutex<HashMap<String, Arc<[f32]>>>,
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
        let probe = Probe::started();
        let started = Instant::now();
        let model = LlamaModel::load_from_file(backend, &path, &LlamaModelParams::default())
            .map_err(|e| LlmError::Load(format!("{}: {e}", path.display())))?;
        let load_time = started.elapsed();
        let format = options.format.unwrap_or_else(|| detect_format(&model));
        let model_key =
            model_key(&path).map_err(|e| LlmError::Load(format!("{}: {e}", path.display())))?;
        Ok(Self {
            shared: Arc::new(Shared {
                model,
                backend,
                options,
                format,
                path,
                load_time,
                model_key,
                tokens: OnceLock::new(),
                prefixes: Mutex::new(HashMap::new()),
                probe,
                reading: OnceLock::new(),
                read: Mutex::new(HashMap::new()),
            }),
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
        GemmaSession::start(Arc::clone(&self.shared), config)
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
        GemmaSession::start_in_background(Arc::clone(&self.shared), config)
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
}

fn cache_home() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"))
}

impl Shared {
    /// A context of this model with `params`, evaluating on as many threads as
    /// [`Threads`] decides now; returns it with that count.
    pub(crate) fn new_context(
        &self,
        params: LlamaContextParams,
    ) -> Result<(LlamaContext<'_>, usize), LlmError> {
        let chosen = self.probe.threads(self.options.threads);
        let threads = i32::try_from(chosen).unwrap_or(i32::MAX);
        let params = params.with_n_threads(threads).with_n_threads_batch(threads);
        let ctx = self
            .model
            .new_context(self.backend, params)
            .map_err(|e| LlmError::Load(format!("could not create a llama.cpp context: {e}")))?;
        Ok((ctx, chosen))
    }

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

    /// The token table, built on first use (one pass over the vocabulary).
    pub(crate) fn tokens(&self) -> &TokenTable {
        self.tokens
            .get_or_init(|| TokenTable::new(&self.model, self.format))
    }
}

/// Every token's bytes as the model writes them, and what kind of token it is.
pub(crate) struct TokenTable {
    /// All pieces, concatenated; `offsets[i]..offsets[i + 1]` is token `i`.
    bytes: Vec<u8>,
    offsets: Vec<u32>,
    kinds: Vec<TokenKind>,
}

/// What a token is, for sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Text.
    Text,
    /// End of generation (`<end_of_turn>`, `<eos>`).
    EndOfGeneration,
    /// A control token the model may write as part of a call (FunctionGemma's markers).
    Marker,
    /// Any other control token: turn headers, `<unusedN>`, image tokens — never written.
    Control,
}

impl TokenTable {
    fn new(model: &LlamaModel, format: PromptFormat) -> Self {
        let vocab = model.vocab();
        let markers: Vec<LlamaToken> = if format == PromptFormat::FunctionGemma {
            function_gemma::TOKENS
                .iter()
                .filter_map(|text| single_token(model, text))
                .collect()
        } else {
            Vec::new()
        };
        let mut table = Self {
            bytes: Vec::new(),
            offsets: vec![0],
            kinds: Vec::new(),
        };
        let mut buffer = Vec::new();
        for token in vocab.tokens() {
            let kind = if vocab.is_eog(token) {
                TokenKind::EndOfGeneration
            } else if markers.contains(&token) {
                TokenKind::Marker
            } else if vocab.is_control(token) {
                TokenKind::Control
            } else {
                TokenKind::Text
            };
            buffer.clear();
            if kind != TokenKind::Control && kind != TokenKind::EndOfGeneration {
                vocab.token_to_piece_into(token, &mut buffer, kind == TokenKind::Marker, None);
            }
            table.bytes.extend_from_slice(&buffer);
            table
                .offsets
                .push(u32::try_from(table.bytes.len()).unwrap_or(u32::MAX));
            table.kinds.push(kind);
        }
        table
    }

    /// The bytes of `token` (empty for control tokens and unknown ids).
    pub(crate) fn piece(&self, token: LlamaToken) -> &[u8] {
        let Ok(i) = usize::try_from(token.0) else {
            return &[];
        };
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&start), Some(&end)) => self
                .bytes
                .get(start as usize..end as usize)
                .unwrap_or_default(),
            _ => &[],
        }
    }

    /// What `token` is; unknown ids count as control tokens (never written).
    pub(crate) fn kind(&self, token: LlamaToken) -> TokenKind {
        usize::try_from(token.0)
            .ok()
            .and_then(|i| self.kinds.get(i).copied())
            .unwrap_or(TokenKind::Control)
    }

    /// The number of tokens.
    pub(crate) fn len(&self) -> usize {
        self.kinds.len()
    }
}

/// The identity of a GGUF for caches: its size, modification time and a hash of its first
/// and last 4 MiB (the header with every tensor's name, shape and type, and the end of the
/// data). Hashing all 253 MB at every start would cost more than the cache saves; any
/// conversion or quantization changes the sampled parts, and a file replaced in place changes
/// its modification time.
pub(crate) fn model_key(path: &Path) -> std::io::Result<String> {
    const SAMPLE: u64 = 4 << 20;
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let len = meta.len();
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut hash = Fnv64::default();
    let mut buffer = vec![0; usize::try_from(SAMPLE.min(len)).unwrap_or(0)];
    file.read_exact(&mut buffer)?;
    hash.write(&buffer);
    if len > SAMPLE {
        file.seek(SeekFrom::Start(len.saturating_sub(SAMPLE).max(SAMPLE)))?;
        buffer.clear();
        file.take(SAMPLE).read_to_end(&mut buffer)?;
        hash.write(&buffer);
    }
    Ok(format!("{len}-{mtime}-{:016x}", hash.finish()))
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
        // Unreadable is not "not a GGUF": the person must fix permissions, not the file.
        Err(e) => return Err(LlmError::Load(format!("{}: {e}", path.display()))),
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
    if function_gemma::TOKENS
        .iter()
        .all(|text| single_token(model, text).is_some())
    {
        PromptFormat::FunctionGemma
    } else {
        // Measured on the habit coach's dev requests with the base Gemma 3 270M: Python-style
        // calls gave the most right arguments (58.7% against 49.2% for JSON and 44.4% for
        // FunctionGemma's syntax, same tool choice); see the closing note of issue 8.
        PromptFormat::Python
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

    #[test]
    fn model_keys_change_with_the_content() {
        let dir = tempdir();
        let path = dir.join("m.gguf");
        std::fs::write(&path, b"GGUF one").expect("write");
        let first = model_key(&path).expect("key");
        assert_eq!(first, model_key(&path).expect("key"), "stable");
        std::fs::write(&path, b"GGUF two").expect("write");
        assert_ne!(first, model_key(&path).expect("key"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_llama_cpp_version_in_cache_keys_is_the_locked_one() {
        let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
            .expect("Cargo.lock");
        let locked = lock
            .split("[[package]]")
            .find(|entry| entry.contains("name = \"llama-cpp-sys-2\""))
            .and_then(|entry| entry.lines().find(|l| l.starts_with("version = ")))
            .map(|line| {
                line.trim_start_matches("version = ")
                    .trim_matches('"')
                    .to_owned()
            })
            .expect("llama-cpp-sys-2 in Cargo.lock");
        assert_eq!(LLAMA_CPP, format!("llama-cpp-sys-2 {locked}"));
    }

    fn tempdir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("agent-rs-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }
}
