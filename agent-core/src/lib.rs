//! Safe hands for an on-device LLM: declare app functions as tools with `#[tool]`, and let a
//! local model call them through a runtime that chooses tools by reading the request,
//! validates every call, asks a human before anything destructive runs, and always answers
//! the model with a structured result.
//!
//! ```standalone_crate
//! use std::sync::Arc;
//! use agent_core::{ApproveAll, Dep, Dispatcher, Registry, ToolError, tool};
//! use serde_json::json;
//!
//! #[derive(Default)]
//! struct Notes(std::sync::Mutex<Vec<String>>);
//!
//! /// 메모를 추가합니다.
//! #[tool(destructive, label = "메모 추가", summary = "'{text}' 메모를 추가합니다",
//!        example(request = "우유 사기 메모해줘", args = {"text": "우유 사기"}))]
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
//! let registry = Arc::new(
//!     Registry::builder()
//!         .discover()                     // every #[tool] in the binary
//!         .dependency(Notes::default())   // what Dep<Notes> receives
//!         .build()?,
//! );
//!
//! // What the model sees: names, descriptions, JSON Schemas.
//! let declarations = registry.declarations();
//! assert_eq!(declarations[0].parameters["properties"]["text"]["maxLength"], 100);
//!
//! // What the model sends, and what it gets back. A UI dialog confirms in a real app;
//! // without a confirmer (`DenyAll`) destructive calls are cancelled.
//! let tools = Dispatcher::new(Arc::clone(&registry), ApproveAll);
//! let result = tools.dispatch("add_note", json!({"text": "물 마시기"})).await;
//! assert_eq!(result.encode(2048), r#"{"status":"ok","data":1}"#);
//! let result = tools.dispatch("add_note", json!({"text": ""})).await;
//! assert_eq!(result.as_error().map(|e| e.code()), Some("validation"));
//! # Ok(()) }
//! ```
//!
//! # How a call flows
//!
//! [`Dispatcher::dispatch`] never panics and never returns a Rust error; each gate answers the
//! model with the reference spec's envelope:
//!
//! | gate | on failure |
//! |---|---|
//! | the name is registered and its [`Access`] level admits the caller | `{"status":"error","code":"unknown_tool",…}` listing the names it may use |
//! | the arguments are nested at most [`MAX_DEPTH`] deep and satisfy the schema (types, required, ranges, enums, lengths, formats) | `validation`, naming each field and rule |
//! | a destructive call is confirmed | `{"status":"cancelled","reason":"user did not confirm"}` |
//! | the tool fn runs | its own `Err` (e.g. `r3_quota`), `handler_error` for a panic, `timeout` |
//!
//! Unknown extra keys are dropped before anyone is asked. Results go back to the model through a size cap
//! ([`ResultCap`], 2 KB of UTF-8 by default) that keeps valid JSON and cuts structure-aware.
//!
//! # Human in the loop
//!
//! Every dispatcher wraps each destructive tool in a confirmation gate (a decorator, like
//! tower's layers) that owns the [`Confirmer`] it was built with — your dialog, a terminal
//! prompt, an MCP client. The confirmer is shown the whole call ([`ConfirmRequest`]): the
//! tool's label, description and summary, and every argument with its meaning. [`DenyAll`]
//! is the fail-closed default: nothing destructive runs without a yes. A per-call predicate
//! (`#[tool(confirm_if = …)]`) lets harmless calls of a destructive tool skip the question.
//!
//! # The journal and undo
//!
//! Every destructive call that ran is written to the registry's [`Journal`] — the tool, its
//! arguments and result, when, who called, whether a person was asked
//! ([`RegistryBuilder::journal`]: the app's own storage, or a [`MemoryJournal`] by default).
//! A tool that declares how one of its calls is undone (`#[tool(destructive, undo =
//! undo_fn)]`, an async fn over the journaled [`UndoCall`]) can be taken back:
//! [`Dispatcher::undo`] asks the confirmer, like any destructive call, runs the undo fn — which
//! refuses when the state has moved on — and journals the undo. An [`Agent`] plans "방금 거
//! 취소해줘" or "undo that" as the undo of the newest call the journal still holds open.
//!
//! # The model
//!
//! An [`Agent`] drives a [`ChatSession`]. For each user message it asks the tool-choice stage
//! ([`choice`]) one question — what to do with this request — and gets a whole plan: which
//! tools to call, in order, or none, decided from the declared [`Example`]s and the model's
//! own reading of the request; the values each call may take; the arguments it must write.
//! The model then writes only the arguments (restricted to what the app's value providers
//! allow this turn) and the words of the answer, which every message ends with.
//! [`llm::scripted::ScriptedSession`] plays back a script for tests; with the `llama`
//! feature, [`llm::gemma`] runs Gemma locally through llama.cpp.
//!
//! # Outside assistants
//!
//! Each tool declares who may call it ([`Access`]): by default only the app's own agent. With
//! the `mcp` feature, `McpServer` serves the tools declared `#[tool(access = trusted)]` to an
//! MCP client (an assistant the user connected) over stdio, through the same gates — a
//! not-admitted tool is as unknown to it as a name that does not exist, and every destructive
//! call asks the person through the client first (MCP elicitation), failing closed.
//!
//! # Layers
//!
//! Each module depends only on the ones above it in this table (checked by
//! `tests/layers.rs`):
//!
//! | module | owns |
//! |---|---|
//! | `messages` | the runtime's own words ([`Messages`]) |
//! | [`inert`] | untrusted text made safe to show: escaped, clipped, wrapped |
//! | `tool` | definitions, call context, results, errors, schemas, validation, dependencies, examples, value providers, summaries, the result cap |
//! | `request` | a person's message read once: its words and numbers, and what it says about a tool's parameters |
//! | `layer` | decorators around handlers: the confirmation gate and its confirmers, the time limit |
//! | `registry` | discovery, selection by access level, start-up checks |
//! | `dispatch` | the gates of one call, for one caller and confirmer ([`Dispatcher`]) |
//! | [`choice`] | the tool-choice stage: one plan per message, from the router, the model's reading and channel scores |
//! | `session` | the model port ([`ChatSession`]) that backends implement and the loop drives |
//! | [`llm`] | backends: scripted, llama.cpp |
//! | `agent` | the loop and its events ([`Agent`]) |
//! | `mcp` | the registry served to outside assistants over MCP (`McpServer`, feature `mcp`) |

// Lets `#[tool]` (which emits `::agent_core::…` paths) be used inside this crate too.
extern crate self as agent_core;

mod agent;
pub mod choice;
mod dispatch;
pub mod inert;
mod layer;
pub mod llm;
#[cfg(feature = "mcp")]
mod mcp;
mod messages;
mod registry;
mod request;
mod session;
mod tool;

pub use agent::{
    Agent, AgentError, AgentEvent, CompletedCall, DEFAULT_MAX_TURNS, DEFAULT_SOFT_HISTORY_LIMIT,
    EventSink, IgnoreEvents, Interrupter,
};
#[doc = include_str!("tool_attribute.md")]
// The reference itself is agent-macros' crate doc, kept in one file for both.
#[doc = include_str!("../../agent-macros/src/attributes.md")]
pub use agent_macros::tool;
pub use dispatch::Dispatcher;
pub use layer::confirm::{
    ApproveAll, ConfirmArgument, ConfirmLines, ConfirmRequest, Confirmation, Confirmer, DenyAll,
    MAX_SHOWN_CHARS,
};
#[cfg(feature = "mcp")]
pub use mcp::{McpError, McpServer};
pub use messages::Messages;
pub use registry::{Registry, RegistryBuilder, RegistryError, ToolCrate};
/// The `schemars` this crate uses, for deriving `JsonSchema` on parameter types without a
/// direct dependency: `#[derive(agent_core::schemars::JsonSchema)]` with
/// `#[schemars(crate = "agent_core::schemars")]`.
pub use schemars;
pub use session::{
    ChatConfig, ChatEvent, ChatSession, EventStream, LlmError, ResultMessage, SessionEvidence,
    ToolCall, ToolChoice, TurnInput, TurnRequest,
};
pub use tool::{
    Access, ArgumentError, BoxFuture, CallContext, Caller, Capped, ConfirmPredicate, Confirmed,
    DEFAULT_MAX_BYTES, DEFAULT_MEMORY_ENTRIES, DefinitionError, Dep, Deps, ErrorCode, Example,
    ExampleCall, IntoChoices, IntoToolResult, IntoUndo, IntoValueProvider, InvalidArguments,
    Journal, JournalEntry, JournalError, JournalRecord, MAX_DEPTH, MemoryJournal, NOT_CONFIRMED,
    ReplyFn, ResultCap, Tool, ToolDeclaration, ToolDefinition, ToolDefinitionBuilder, ToolError,
    ToolHandler, ToolResult, ToolSchema, UndoCall, UndoHandler, ValueChoice, ValueProvider,
    ValueSets, is_valid_tool_name, shape,
};

/// What `#[tool]`'s generated code uses, so a crate declaring tools needs no direct
/// dependency on serde, schemars or inventory (and their versions cannot skew). Not public API.
#[doc(hidden)]
pub mod __private {
    pub use ::inventory;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    pub use crate::registry::ToolRegistration;
    pub use crate::tool::deps::DepIsNotAnArgument;
    pub use crate::tool::returns::{
        Output, OutputOfConverting, OutputOfOther, OutputOfPlain, OutputOfResult, ReturnOther,
        ReturnPlain, ReturnResult, ReturnUnconverted, Returns, finish_plain, finish_result,
    };
    pub use crate::tool::validate::{ArgumentType, ReadArgument};
    pub use crate::tool::{
        Access, ArgumentReader, BoxFuture, CallContext, DefinitionError, Dependency, Injected,
        IntoToolResult, InvalidArguments, SourceLocation, Tool, ToolDefinition, ToolResult,
        ToolSchema,
    };

    /// A tool fn without a return type answers `{}`.
    pub fn unit_result(_: ()) -> ToolResult {
        ToolResult::ok(serde_json::Value::Object(serde_json::Map::new()))
    }

    /// How the generated handler obtains one injected parameter, and what it declares.
    pub struct Injector<T> {
        /// The declared dependency.
        pub dependency: Dependency,
        /// Takes the value out of a call.
        pub from_call: fn(&CallContext) -> Result<T, crate::ToolError>,
    }

    /// The single place an injected parameter's type is checked (spanned on that type).
    pub fn injector<T: Injected>() -> Injector<T> {
        Injector {
            dependency: T::dependency(),
            from_call: T::from_call,
        }
    }

    /// The stub `Tool::definition` of a `#[tool]` whose expansion failed: the item still
    /// exists, so code naming it shows no error of its own, but nothing can run it because
    /// the crate does not compile.
    pub fn failed_expansion() -> Result<ToolDefinition, DefinitionError> {
        unreachable!("a #[tool] that failed to expand was compiled")
    }
}

/// The workspace README's Rust examples, compiled and run as doctests so they cannot drift
/// from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
