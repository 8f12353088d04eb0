//! The language-model side of the runtime: the [`ChatSession`] abstraction the agent loop
//! drives, the events a model turn produces, and the errors a backend may report.
//!
//! A session is one conversation. It is started with the tool declarations and the
//! instructions ([`ChatConfig`]); after that the loop only sends user messages and tool
//! results, and reads back a stream of [`ChatEvent`]s for each model turn. Backends keep the
//! conversation state themselves (the llama.cpp backend keeps it in its KV cache), so a new
//! message costs only its own tokens.

use std::pin::Pin;

use futures::Stream;
use serde_json::Value;

use crate::tool::ToolDeclaration;

#[cfg(feature = "llama")]
pub mod gemma;
pub mod scripted;

/// One thing the model produced during a turn, in the order it was produced.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChatEvent {
    /// A piece of the model's plain-text answer. Concatenating all deltas of a turn gives the
    /// whole answer.
    TextDelta(String),
    /// The model asks for a tool to be called. A turn may hold several.
    FunctionCall(FunctionCall),
}

/// A tool call as the model emitted it: a name and a JSON object of arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCall {
    /// The tool name the model chose.
    pub name: String,
    /// The arguments, as a JSON value (normally an object).
    pub args: Value,
}

/// A tool's answer, fed back to the model after the call ran (or was refused).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResponse {
    /// The name of the tool that was called.
    pub name: String,
    /// The result envelope, already capped (`{"status":"ok","data":…}` and so on).
    pub result: Value,
}

/// Whether the model may, must, or must not call a tool in its next turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolChoice {
    /// The model decides: it may answer in text or call tools.
    #[default]
    Auto,
    /// The model must call a registered tool.
    Required,
    /// The model must answer in text.
    None,
}

/// What a session starts with.
#[derive(Debug, Clone, Default)]
pub struct ChatConfig {
    /// Instructions for the model (Gemma has no system role: backends put them at the start
    /// of the first user turn).
    pub instructions: String,
    /// The tools the model may call, as the registry declares them.
    pub tools: Vec<ToolDeclaration>,
    /// Tool choice for every turn of this session.
    pub tool_choice: ToolChoice,
}

impl ChatConfig {
    /// A configuration declaring every tool of `registry`, with tool choice `Auto`.
    pub fn new(instructions: impl Into<String>, registry: &crate::Registry) -> Self {
        Self {
            instructions: instructions.into(),
            tools: registry.declarations(),
            tool_choice: ToolChoice::Auto,
        }
    }
}

/// The stream of events of one model turn. It ends when the model's turn ends.
pub type EventStream<'a> = Pin<Box<dyn Stream<Item = Result<ChatEvent, LlmError>> + Send + 'a>>;

/// One conversation with a model.
///
/// Implementations: the llama.cpp Gemma backend (feature `llama`) and
/// [`ScriptedSession`](scripted::ScriptedSession) for tests.
pub trait ChatSession: Send {
    /// Sends a user message and streams the model's turn.
    fn send_user(&mut self, text: &str) -> EventStream<'_>;

    /// Sends the results of the calls of the previous model turn (one per call, in the
    /// order of the calls) and streams the model's next turn.
    fn send_tool_results(&mut self, results: Vec<ToolResponse>) -> EventStream<'_>;

    /// Forgets the conversation and starts a new one with the same configuration.
    fn clear(&mut self);

    /// Appends tool results to the conversation *without* asking the model for a turn.
    ///
    /// The agent loop uses this when it stops at its turn limit: the calls of the model's last
    /// turn are not run, but each still gets its (error) result in the history, so the next
    /// user message does not follow an unanswered call. Sessions that keep history must
    /// override it; the default forgets the results.
    fn record_tool_results(&mut self, results: Vec<ToolResponse>) {
        let _ = results;
    }
}

/// Why a model backend could not produce a turn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The model file does not exist.
    #[error("model file not found: {path}")]
    ModelNotFound {
        /// The path that was tried.
        path: std::path::PathBuf,
    },
    /// The file exists but is not a GGUF model.
    #[error("not a GGUF model file: {path}")]
    NotGguf {
        /// The path that was tried.
        path: std::path::PathBuf,
    },
    /// The backend failed to load the model or create its context.
    #[error("could not load the model: {0}")]
    Load(String),
    /// A single message does not fit in the context window even after trimming history.
    #[error("the message is {tokens} tokens but the context holds only {capacity}")]
    PromptTooLong {
        /// Tokens the message needs.
        tokens: usize,
        /// Tokens the context can hold.
        capacity: usize,
    },
    /// The context filled up during generation; the turn was ended.
    #[error("the context window is full ({capacity} tokens); start a new conversation")]
    ContextFull {
        /// Tokens the context can hold.
        capacity: usize,
    },
    /// A grammar could not be built from the tool schemas.
    #[error("could not build the tool-call grammar: {0}")]
    Grammar(String),
    /// Evaluation or sampling failed inside the backend.
    #[error("inference failed: {0}")]
    Inference(String),
    /// The script of a scripted session ran out (tests only).
    #[error("the scripted session has no more turns")]
    ScriptExhausted,
    /// The model's output could not be read as text or tool calls.
    #[error("the model produced output that could not be read: {0}")]
    InvalidOutput(String),
    /// The turn reached its token limit before the model finished a tool call.
    #[error(
        "the model's turn reached the limit of {max_tokens} tokens before its tool call was complete"
    )]
    TurnTooLong {
        /// The per-turn token limit.
        max_tokens: usize,
    },
}

impl LlmError {
    /// A stable machine-readable code for the error (`model_not_found`, `context_full`, …),
    /// for events and logs that should not depend on the message text.
    pub fn code(&self) -> &'static str {
        match self {
            LlmError::ModelNotFound { .. } => "model_not_found",
            LlmError::NotGguf { .. } => "not_gguf",
            LlmError::Load(_) => "load",
            LlmError::PromptTooLong { .. } => "prompt_too_long",
            LlmError::ContextFull { .. } => "context_full",
            LlmError::Grammar(_) => "grammar",
            LlmError::Inference(_) => "inference",
            LlmError::ScriptExhausted => "script_exhausted",
            LlmError::InvalidOutput(_) => "invalid_output",
            LlmError::TurnTooLong { .. } => "turn_too_long",
        }
    }
}
