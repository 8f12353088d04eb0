//! Model backends: implementations of [`ChatSession`](crate::ChatSession).
//!
//! | module | backend |
//! |---|---|
//! | [`scripted`] | plays back a script and records what it was sent, for tests and UIs |
//! | [`gemma`] | Gemma (and other GGUF models) run locally by llama.cpp (feature `llama`) |

pub mod gemma;
pub mod scripted;
