//! What a loaded model offers every session: the weights and the process-wide llama.cpp
//! backend, the options it runs with, its prompt format, tokenization, the token table the
//! constrained sampler reads, the identity of the model for prefix caches, and the prefixes
//! already evaluated.
//!
//! The file is checked before llama.cpp sees it (missing file, no `GGUF` magic), so the
//! common mistakes give an error naming the path instead of whatever llama.cpp makes of them.
//! `LlamaBackend::init` succeeds only once per process, so the backend lives in a `OnceLock`
//! shared by every model; llama.cpp's and ggml's log output is routed to `tracing` at the same
//! moment, which keeps stderr quiet unless the application installs a subscriber.

use std::io::{Read, Seek, SeekFrom};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::session::SeqState;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

use super::cache_file::{Repairs, sweep_temporaries};
use super::format::{Piece, Prompt, PromptFormat, function_gemma};
use super::hash::Fnv64;
use super::kept::Kept;
use super::options::GemmaOptions;
use super::threads::Probe;
use crate::session::LlmError;

/// The llama.cpp this crate is built against, part of every prefix-cache key (a KV state is
/// only meaningful to the llama.cpp that wrote it). A test checks it against `Cargo.lock`.
pub(crate) const LLAMA_CPP: &str = "llama-cpp-sys-2 0.1.161";

/// What sessions share.
pub(crate) struct Shared {
    pub(crate) model: LlamaModel,
    pub(crate) backend: &'static LlamaBackend,
    pub(crate) options: GemmaOptions,
    pub(crate) format: PromptFormat,
    pub(crate) path: PathBuf,
    pub(crate) load_time: Duration,
    /// Identifies the weights for prefix caches; see [`model_key`].
    pub(crate) model_key: String,
    tokens: OnceLock<TokenTable>,
    /// Evaluated prefixes (preambles, channels) by cache key.
    pub(crate) prefixes: Kept<SeqState>,
    /// Cache files found unusable and made again, until the app takes them.
    pub(crate) repairs: Repairs,
    /// What [`Threads::Auto`](super::Threads::Auto) decides from; its first look is taken
    /// as loading starts.
    pub(crate) probe: Probe,
}

impl Shared {
    /// Loads the GGUF at `path`; see [`GemmaBackend::load`](super::GemmaBackend::load).
    pub(crate) fn load(path: &Path, options: GemmaOptions) -> Result<Self, LlmError> {
        let path = path.to_path_buf();
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
        if let Some(dir) = options.prefix_cache.dir() {
            sweep_temporaries(&dir);
        }
        let prefixes = Kept::new(options.prefix_memory_limit);
        Ok(Self {
            model,
            backend,
            options,
            format,
            path,
            load_time,
            model_key,
            tokens: OnceLock::new(),
            prefixes,
            repairs: Repairs::default(),
            probe,
        })
    }

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
    // Opening a FIFO waits for a writer: only a regular file (or a link to one) is opened.
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
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
        // A base model writes the most right arguments in Python-style calls, with the same
        // tool choice as the other formats.
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
        let result = Shared::load(&path, GemmaOptions::default());
        let _ = std::fs::remove_file(&path);
        assert!(
            matches!(result, Err(LlmError::Load(_))),
            "{:?}",
            result.err()
        );
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
