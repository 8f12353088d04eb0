//! `#[tool]`: turns a documented `async fn` into a tool an on-device LLM can call.
//!
//! This crate only holds the attribute; use it through `agent-core`, which re-exports it as
//! `agent_core::tool` and documents it with examples. The reference below is shared with
//! those docs.
//!
//! The expansion is a pipeline, one stage per file, all reporting to one error collector
//! (`ctxt`) so that a compile shows every mistake once, at the user's tokens:
//!
//! | file | stage |
//! |---|---|
//! | `attr.rs` | parses `#[tool(...)]` |
//! | `param_attr.rs` | parses and checks each parameter's attributes (`///`, `#[serde]`, `#[schemars]`, …) |
//! | `docs.rs` | reads doc comments and `# Arguments` lists |
//! | `classify.rs` | decides what a parameter is (argument or injected) |
//! | `ast.rs` | the model of the fn, with each argument's JSON name computed once |
//! | `valid.rs` | checks the model against the attribute |
//! | `expand.rs` | writes the generated code |
//! | `fallback.rs` | what is written instead when there was an error |
//! | `ctxt.rs`, `suggest.rs` | the error collector, "did you mean" |
//!
#![doc = include_str!("attributes.md")]

mod ast;
mod attr;
mod classify;
mod ctxt;
mod docs;
mod expand;
mod fallback;
mod param_attr;
mod suggest;
mod valid;

use proc_macro::TokenStream;

/// Declares a tool. See `agent_core::tool` for the full reference.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(args.into(), item.into()).into()
}
