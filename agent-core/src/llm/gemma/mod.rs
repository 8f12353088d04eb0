//! The llama.cpp backend for Gemma models (feature `llama`).
//!
#![cfg_attr(
    feature = "llama",
    doc = "[`GemmaBackend::load`] loads any GGUF; [`GemmaBackend::session`] starts a
[`GemmaSession`], the [`ChatSession`](crate::ChatSession) the agent loop drives. A session
starts from a preamble — instructions, tool declarations and examples in the session's
[`PromptFormat`] — evaluated once per model and kept ([`PrefixCache`]), so a new
conversation costs only its own tokens.

The very first start of a model with a given set of tools is the slow one: its preamble is
evaluated (a few seconds for a preamble of a couple of thousand tokens on two cores, bounded
by llama.cpp's prefill speed), and tool choice reads the declared examples
([`Agent::prepare`](crate::Agent::prepare)). Do it once ahead of any conversation — at install,
or in a set-up step with progress shown, as `habit-demo prepare` does: start a session, await
[`GemmaSession::ready`], run `Agent::prepare` — and every later start, in any process,
restores both from the cache files in a fraction of a second. Otherwise
[`GemmaBackend::session_in_background`] lets the first start run while the person types."
)]
#![cfg_attr(
    not(feature = "llama"),
    doc = "Built without the `llama` feature, this module holds only [`PromptFormat`]; enable
the feature for `GemmaBackend`, which loads a GGUF and starts sessions the agent loop drives."
)]
//!
//! Each turn writes what the agent asked for: one
//! call of a given tool, constrained to its schema and this turn's allowed values, with every
//! forced stretch evaluated in one batch, and the request's words a call copies verified in
//! one batch too; or free text; and it can score a request for the tool-choice stage.
//!
//! The files form layers: what every session shares at the bottom, the backend that starts
//! sessions at the top.
//!
//! | file | owns |
//! | --- | --- |
//! | `backend.rs` | `GemmaBackend`: a loaded model, which starts sessions and reads texts |
//! | `handle.rs` | `GemmaSession`, the `Send` handle |
//! | `stats.rs` | the counters of a session and of a turn |
//! | `message.rs` | the commands the handle sends its worker |
//! | `worker.rs` | the inference thread: the command loop |
//! | `turn.rs` | what each command does: a turn, recording results, scoring, a reset, free decoding (a benchmark's baseline) |
//! | `conversation.rs` | the conversation's KV state, with its single reset |
//! | `prefix.rs` | prefixes (preamble, channels) evaluated once: memory and file caches |
//! | `cache_file.rs` | cache files opened only when they are regular files of a bounded length |
//! | `kept.rs` | the prefix states kept in memory and on disk, least recently used dropped beyond a budget |
//! | `state_file.rs` | llama.cpp's sequence-state layout, checked before a cache file is restored |
//! | `steering.rs` | what a turn may write, from its tool choice and value sets |
//! | `decode.rs` | the generation loops: calls with jump-forward and batched copies, text |
//! | `sampler.rs` | token choice: free, or within a constraint |
//! | `threads.rs` | the thread count, and the load probe that picks it |
//! | `scoring.rs` | channel scoring for tool choice |
//! | `reading.rs`, `gguf.rs` | the model's reading of a text for tool choice: the model cut to its first blocks |
//! | `shared.rs` | what sessions share: the weights, loading, format detection, tokenization, the token table, model identity, evaluated prefixes |
//! | `options.rs` | options, the prefix cache's place, the default model's path |
//! | `constrain/` | the call automaton: schema → tree → program → matcher |
//! | `format/` | prompt formats: JSON, Python, FunctionGemma |
//! | `utf8.rs`, `hash.rs` | UTF-8 reassembly of token pieces; FNV-1a |
//! | `trace.rs` | prompts and sampled tokens on stderr, for tuning (`AGENT_RS_TRACE=1`) |
#![cfg_attr(
    not(feature = "llama"),
    allow(dead_code, unreachable_pub, unused_imports)
)]

mod constrain;
mod format;
mod hash;
mod utf8;

#[cfg(feature = "llama")]
mod backend;
#[cfg(feature = "llama")]
mod cache_file;
#[cfg(feature = "llama")]
mod conversation;
#[cfg(feature = "llama")]
mod decode;
#[cfg(feature = "llama")]
mod gguf;
#[cfg(feature = "llama")]
mod handle;
#[cfg(feature = "llama")]
mod kept;
#[cfg(feature = "llama")]
mod message;
#[cfg(feature = "llama")]
mod options;
#[cfg(feature = "llama")]
mod prefix;
#[cfg(feature = "llama")]
mod reading;
#[cfg(feature = "llama")]
mod sampler;
#[cfg(feature = "llama")]
mod scoring;
#[cfg(feature = "llama")]
mod shared;
#[cfg(feature = "llama")]
mod state_file;
#[cfg(feature = "llama")]
mod stats;
#[cfg(feature = "llama")]
mod steering;
#[cfg(feature = "llama")]
mod threads;
#[cfg(feature = "llama")]
mod trace;
#[cfg(feature = "llama")]
mod turn;
#[cfg(feature = "llama")]
mod worker;

#[cfg(feature = "llama")]
pub use backend::GemmaBackend;
#[cfg(feature = "llama")]
pub use cache_file::{CacheFault, CacheRepair};
pub use format::PromptFormat;
#[cfg(feature = "llama")]
pub use handle::GemmaSession;
#[cfg(feature = "llama")]
pub use options::{DEFAULT_MODEL_FILE, GemmaOptions, MODEL_ENV, PrefixCache};
#[cfg(feature = "llama")]
pub use prefix::PrefixSource;
#[cfg(feature = "llama")]
pub use sampler::SamplerCounters;
#[cfg(feature = "llama")]
pub use stats::{SessionStats, TurnStats};
#[cfg(feature = "llama")]
pub use threads::Threads;
