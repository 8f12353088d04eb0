//! `#[tool]`: turns a documented `async fn` into a tool an on-device LLM can call.
//!
//! This crate only holds the attribute; use it through `agent-core`, which re-exports it as
//! `agent_core::tool` and documents it in full. The pipeline is split by stage: `attr` parses
//! `#[tool(...)]`, `ast` models the fn (with `docs` reading its doc comments), `valid` checks
//! both, `expand` writes the generated code.

mod ast;
mod attr;
mod docs;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// Declares a tool. See `agent_core::tool` for the full reference.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(args.into(), item.into()).into()
}
