//! Safe hands for an on-device LLM: declare app functions as tools with `#[tool]`, and let a
//! local model call them through a runtime that validates every call, asks a human before
//! anything destructive runs, and always answers the model with a structured result.
//!
//! ```standalone_crate
//! use std::sync::Arc;
//! use agent_core::{ApproveAll, Dep, Registry, ToolError, ToolResult, tool};
//! use serde_json::json;
//!
//! #[derive(Default)]
//! struct Notes(std::sync::Mutex<Vec<String>>);
//!
//! /// 메모를 추가합니다.
//! #[tool(destructive, label = "메모 추가", summary = "'{text}' 메모를 추가합니다")]
//! async fn add_note(
//!     notes: Dep<Notes>,
//!     /// 메모 내용 (1~100자)
//!     #[schemars(length(min = 1, max = 100))]
//!     text: String,
//! ) -> Result<usize, ToolError> {
//!     let mut notes = notes.0.lock().map_err(|_| ToolError::new("storage", "잠금 실패"))?;
//!     notes.push(text);
//!     Ok(notes.len())
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = Registry::builder()
//!     .discover()                     // every #[tool] in the binary
//!     .dependency(Notes::default())   // what Dep<Notes> receives
//!     .confirmer(ApproveAll)          // a UI dialog in a real app; without one: cancelled
//!     .build()?;
//!
//! // What the model sees: names, descriptions, JSON Schemas.
//! let declarations = registry.declarations();
//! assert_eq!(declarations[0].parameters["properties"]["text"]["maxLength"], 100);
//!
//! // What the model sends, and what it gets back.
//! let result = registry.dispatch("add_note", json!({"text": "물 마시기"})).await;
//! assert_eq!(result.encode(2048), r#"{"status":"ok","data":1}"#);
//! let result = registry.dispatch("add_note", json!({"text": ""})).await;
//! assert_eq!(result.as_error().map(|e| e.code()), Some("validation"));
//! # Ok(()) }
//! ```
//!
//! # How a call flows
//!
//! [`Registry::dispatch`] never panics and never returns a Rust error; each gate answers the
//! model with the reference spec's envelope:
//!
//! | gate | on failure |
//! |---|---|
//! | the name is registered | `{"status":"error","code":"unknown_tool",…}` listing the names |
//! | the arguments satisfy the schema (types, required, ranges, enums, lengths, patterns) | `validation`, naming each field and rule |
//! | a destructive call is confirmed ([`confirm`]) | `{"status":"cancelled","reason":"user did not confirm"}` |
//! | the tool fn runs | its own `Err` (e.g. `r3_quota`), `handler_error` for a panic, `timeout` |
//!
//! Unknown extra keys are ignored. Results go back to the model through a size cap
//! ([`ResultCap`], 2 KB of UTF-8 by default) that keeps valid JSON and cuts structure-aware.
//!
//! # Human in the loop
//!
//! The registry wraps every destructive tool in a confirmation gate (a decorator, like tower's
//! layers). The gate asks a [`Confirmer`] — your dialog, a terminal prompt — with the tool's
//! label, description and a summary of the call. Without a confirmer the registry uses
//! [`DenyAll`]: nothing destructive runs without a yes. A per-call predicate
//! (`#[tool(confirm_if = …)]`) lets harmless calls of a destructive tool skip the question.
//!
//! # The model
//!
//! An [`Agent`] drives a [`ChatSession`]: the user's message goes in, the model's text streams
//! out as [`AgentEvent`]s, and every tool call the model makes is dispatched and answered, up
//! to a turn limit. [`llm::scripted::ScriptedSession`] plays back a script for tests; with the
//! `llama` feature, `llm::gemma` runs Gemma locally through llama.cpp with grammar-constrained
//! tool calls and a KV cache kept across turns.
//!
//! # Modules
//!
//! | module | owns |
//! |---|---|
//! | [`tool`](mod@tool) | definitions, results, schemas, dependencies, summaries, the result cap |
//! | [`registry`] | discovery, selection, start-up checks, decoration |
//! | [`dispatch`] | the gates of one call |
//! | [`confirm`] | the confirmation gate and confirmers |
//! | [`agent`] | the multi-turn loop and its events |
//! | [`llm`] | the chat-session abstraction and its backends |

// Lets `#[tool]` (which emits `::agent_core::…` paths) be used inside this crate too.
extern crate self as agent_core;

pub mod agent;
pub mod confirm;
pub mod dispatch;
pub mod llm;
pub mod registry;
pub mod tool;

pub use agent::{Agent, AgentError, AgentEvent, EventSink};
#[doc = include_str!("tool_attribute.md")]
pub use agent_macros::tool;
pub use confirm::{ApproveAll, ConfirmRequest, Confirmation, Confirmer, DenyAll};
pub use dispatch::{ArgumentError, DispatchError};
pub use llm::{ChatConfig, ChatEvent, ChatSession, LlmError, ToolChoice};
pub use registry::{Registry, RegistryBuilder, RegistryError};
/// The `schemars` this crate uses, for deriving `JsonSchema` on parameter types without a
/// direct dependency: `#[derive(agent_core::schemars::JsonSchema)]` with
/// `#[schemars(crate = "agent_core::schemars")]`.
pub use schemars;
pub use tool::{
    DefinitionError, Dep, ResultCap, Tool, ToolCall, ToolDeclaration, ToolDefinition, ToolError,
    ToolResult, ToolSchema,
};

/// What `#[tool]`'s generated code uses, so a crate declaring tools needs no direct
/// dependency on serde, schemars or inventory (and their versions cannot skew). Not public API.
#[doc(hidden)]
pub mod __private {
    pub use ::inventory;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    pub use crate::dispatch::parse_args;
    pub use crate::registry::ToolRegistration;
    pub use crate::tool::{
        BoxFuture, DefinitionError, Injected, IntoToolResult, SourceLocation, Tool, ToolCall,
        ToolDefinition, ToolResult, ToolSchema,
    };

    use serde::Serialize;

    /// A tool fn without a return type answers `{}`.
    pub fn unit_result(_: ()) -> ToolResult {
        ToolResult::ok(serde_json::Value::Object(serde_json::Map::new()))
    }

    /// How the generated handler obtains one injected parameter, and what it declares.
    pub struct Injector<T> {
        /// The declared dependency.
        pub dependency: crate::tool::Dependency,
        /// Takes the value out of a call.
        pub from_call: fn(&ToolCall) -> Result<T, crate::DispatchError>,
    }

    /// The single place an injected parameter's type is checked (spanned on that type).
    pub fn injector<T: Injected>() -> Injector<T> {
        Injector {
            dependency: T::dependency(),
            from_call: T::from_call,
        }
    }

    /// Converts a `Result`/`ToolResult` return value (spanned on the return type).
    pub fn convert_output<T: IntoToolResult>(output: T) -> ToolResult {
        output.into_tool_result()
    }

    /// Converts a plain `T: Serialize` return value (spanned on the return type).
    pub fn convert_plain<T: Serialize>(output: T) -> ToolResult {
        crate::tool::result::serialize_output(&output)
    }
}

/// The workspace README's Rust examples, compiled and run as doctests so they cannot drift
/// from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
