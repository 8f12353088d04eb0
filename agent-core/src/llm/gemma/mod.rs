//! The llama.cpp backend for Gemma models (feature `llama`).
//!
//! [`GemmaBackend::load`] loads any GGUF; [`GemmaBackend::session`] starts a
//! [`GemmaSession`], the [`ChatSession`](crate::llm::ChatSession) the agent loop drives.
//!
//! | file | owns |
//! | --- | --- |
//! | `model.rs` | options, file checks, the process-wide llama.cpp backend, format detection, tokenization |
//! | `format/` | rendering turns: the Gemma JSON format and FunctionGemma's |
//! | `grammar.rs` | the JSON Schema / GBNF that constrains replies to registered tools |
//! | `sampler.rs` | sampling with the grammar checked on the picked token first |
//! | `json_stream.rs` | decoding a JSON reply while it streams |
//! | `utf8.rs` | reassembling characters split across tokens |
//! | `session.rs` | the `Send` session handle and its counters |
//! | `worker.rs` | the inference thread: KV-cache reuse, turns, limits |

mod format;
mod grammar;
mod json_stream;
mod model;
mod sampler;
mod session;
mod utf8;
mod worker;

pub use format::PromptFormat;
pub use model::{DEFAULT_MODEL_FILE, GemmaBackend, GemmaOptions, MODEL_ENV};
pub use sampler::{ConstrainedSampling, SamplerCounters};
pub use session::{GemmaSession, SessionStats, TurnStats};
