//! How a model is run ([`GemmaOptions`]), where evaluated prefixes are kept
//! ([`PrefixCache`]), and where the default model is expected.

use std::path::PathBuf;

use super::format::PromptFormat;
use super::threads::Threads;

/// The environment variable naming a GGUF to use instead of the cached default model.
pub const MODEL_ENV: &str = "GEMMA_MODEL";

/// The file name `scripts/fetch-model.sh` caches the default model under.
pub const DEFAULT_MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

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
    /// Most bytes of evaluated prefixes (preambles, channels) a loaded model keeps in memory
    /// for its next sessions; beyond it the least recently used are dropped (default
    /// 256 MiB; a preamble's state grows with its tokens and the model's size).
    pub prefix_memory_limit: usize,
    /// Most bytes of prefix states and example vectors kept in the cache directory; beyond it
    /// the least recently used entries are removed when a new one is written (default 1 GiB;
    /// the reading model cut from the model's first blocks is kept apart from this).
    pub prefix_cache_limit: u64,
    /// Whether a call that copies the request has the request's next tokens verified in one
    /// batch rather than written one evaluation each (default `true`; the call written is
    /// the same either way but for rounding in near-ties).
    pub copy_drafts: bool,
    /// How many of the model's blocks tool choice reads requests with (default 8; 0: tool
    /// choice does without the model's reading). See [`GemmaBackend::read_texts`](super::GemmaBackend::read_texts).
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
            prefix_memory_limit: 256 << 20,
            prefix_cache_limit: 1 << 30,
            copy_drafts: true,
            reading_blocks: 8,
        }
    }
}

/// The user's cache directory: `$XDG_CACHE_HOME`, else `$HOME/.cache`.
pub(crate) fn cache_home() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"))
}
