//! Constrained decoding: what a tool call may look like, as a small automaton the sampler
//! consults token by token.
//!
//! A prompt format describes a call as a [`Node`] tree (literal text, alternatives, string and
//! integer slots, …) built from the tool's JSON Schema ([`schema`]). [`Program`] compiles the
//! tree into a Pike-style virtual machine; a [`Matcher`] is one position in it. The matcher
//! answers the three questions decoding asks:
//!
//! - **may this token come next?** ([`Matcher::accepts`]) — the sampler tests the model's
//!   likeliest tokens until one is accepted, so the model's choice is kept wherever the call
//!   leaves it one;
//! - **what is forced from here?** ([`Matcher::forced`]) — keys, quotes, braces, and the rest
//!   of an enum value once its prefix is unique have exactly one continuation; the decoder
//!   evaluates that text as one batch instead of sampling it token by token (jump-forward);
//! - **is the call complete?** ([`Matcher::is_complete`]).
//!
//! Why not llama.cpp's GBNF grammar sampler: it can only test a token by scanning the whole
//! 262k-token vocabulary, cannot say which text is forced, and aborts the process (not a
//! panic) when it is fed a token it did not allow. This automaton is plain Rust over the
//! call's own structure: nothing it does can abort, and per-turn value sets (the user's
//! current habit ids) are just another tree.

pub(crate) mod node;
pub(crate) mod program;
pub(crate) mod schema;

pub(crate) use node::Node;
pub(crate) use program::{Matcher, Program};
