//! The model port: [`ChatSession`], what one turn asks of it ([`TurnRequest`]), what it
//! answers ([`ChatEvent`]s), and its errors ([`LlmError`]). Backends in [`crate::llm`]
//! implement it — a scripted session for tests, and llama.cpp — and the agent loop drives it;
//! both import it from here, below them. [`SessionEvidence`] offers a session's reading and
//! channel scores to the tool-choice stage.
//!
//! A session is one conversation. It is started with a [`ChatConfig`] (instructions, tool
//! declarations, examples, channels for tool choice); after that the loop sends one
//! [`TurnRequest`] per model turn — a user message or the results of the last calls — and
//! reads back a stream of events. The request also says what kind of reply is allowed
//! ([`ToolChoice`]) and which values each restricted parameter may take this turn. Backends
//! keep the conversation themselves (the llama.cpp backend in its KV cache), so a new turn
//! costs only its own tokens.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::Arc;

use futures::Stream;
use serde_json::Value;

use crate::choice::{Candidate, Channel, Evidence};
use crate::messages::Messages;
use crate::registry::Registry;
use crate::tool::{BoxFuture, Example, ToolDeclaration, ValueSets};

/// One thing the model produced during a turn, in the order it was produced.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChatEvent {
    /// A piece of the model's plain-text answer. Concatenating all deltas of a turn gives the
    /// whole answer.
    TextDelta(String),
    /// The model asks for a tool to be called.
    Call(ToolCall),
}

/// A tool call as the model emitted it: a name and a JSON object of arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool name the model chose.
    pub name: String,
    /// The arguments, as a JSON value (normally an object).
    pub args: Value,
}

/// A call's result as the model receives it, after the call ran (or was refused).
#[derive(Debug, Clone, PartialEq)]
pub struct ResultMessage {
    /// The name of the tool that was called.
    pub name: String,
    /// The result envelope, already capped (`{"status":"ok","data":…}` and so on).
    pub result: Value,
    /// The tool's own sentence about a successful result (its
    /// [`reply`](crate::ToolDefinitionBuilder::reply)), which a backend may show the model
    /// beside the result: a small model answers best by building on a true sentence rather
    /// than reading the data alone. `None` when the tool has none or the call did not succeed.
    pub reply: Option<String>,
}

/// What a turn sends to the model.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnInput {
    /// A user message.
    User(String),
    /// The results of the previous model turn's calls, one per call, in order.
    Results(Vec<ResultMessage>),
}

/// What kind of reply a turn allows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ToolChoice {
    /// The model decides: it may answer in text or call any declared tool.
    #[default]
    Auto,
    /// The model must answer in text.
    None,
    /// The model must call one of these tools (a single name: that tool).
    Call(Vec<String>),
}

/// One model turn.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRequest {
    /// The user message or the results.
    pub input: TurnInput,
    /// The reply allowed.
    pub tool_choice: ToolChoice,
    /// What restricted parameters may take this turn (tool → parameter → choices), the most
    /// relevant to the request first. A backend that constrains decoding admits only these
    /// values.
    pub values: Arc<ValueSets>,
    /// Arguments the call must write even where its schema leaves them optional (the
    /// tool-choice stage's reading of which arguments the request gives).
    pub require: Vec<String>,
    /// The user's message of this user turn: what `from_request` parameters copy from.
    pub quote: String,
    /// Per tool and parameter, the text a copied parameter copies from where it is not the
    /// whole `quote`: the quote with the characters of words that cannot be the value
    /// replaced by NUL (`'\0'`), which a copy can neither hold nor cross (the request's own
    /// verb, the tool's topic, a question word — see the runtime's grounding of
    /// parameters). Empty: every copy takes any stretch of the quote.
    pub copy_sources: BTreeMap<String, BTreeMap<String, String>>,
    /// Worked examples to show right before a user message, as finished exchanges of the
    /// conversation (the tool-choice stage's nearest example: dynamic few-shot). A backend
    /// may ignore them; they are never shown before results.
    pub examples: Vec<Example>,
}

impl TurnRequest {
    /// A user message, model's choice, no restricted values.
    pub fn user(text: impl Into<String>) -> Self {
        let text = text.into();
        Self {
            quote: text.clone(),
            copy_sources: BTreeMap::new(),
            input: TurnInput::User(text),
            tool_choice: ToolChoice::Auto,
            values: Arc::default(),
            require: Vec::new(),
            examples: Vec::new(),
        }
    }

    /// Results, model's choice, no restricted values.
    pub fn results(results: Vec<ResultMessage>) -> Self {
        Self {
            input: TurnInput::Results(results),
            tool_choice: ToolChoice::Auto,
            values: Arc::default(),
            require: Vec::new(),
            quote: String::new(),
            copy_sources: BTreeMap::new(),
            examples: Vec::new(),
        }
    }

    /// The same request with these worked examples shown before it.
    #[must_use]
    pub fn with_examples(mut self, examples: Vec<Example>) -> Self {
        self.examples = examples;
        self
    }

    /// The same request with another tool choice.
    #[must_use]
    pub fn with_choice(mut self, tool_choice: ToolChoice) -> Self {
        self.tool_choice = tool_choice;
        self
    }
}

/// What a session starts with.
#[derive(Debug, Clone)]
pub struct ChatConfig {
    /// Instructions for the model (Gemma has no system role: backends put them at the start
    /// of the conversation).
    pub instructions: String,
    /// The tools the model may call, as the registry declares them.
    pub tools: Vec<ToolDeclaration>,
    /// Examples a backend may show the model as few-shot turns.
    pub examples: Vec<Example>,
    /// The candidates of tool choice, for sessions that can score them
    /// ([`ChatSession::score`]), in the order of [`channels`](crate::choice::channels).
    pub channels: Vec<Channel>,
    /// The texts the tool-choice stage learns from (the examples' requests and the
    /// background's, see [`learning_texts`](crate::choice::learning_texts)): a session that
    /// can read keeps their readings between processes, so a restart does not read them
    /// again. Empty: the examples' requests.
    pub learning: Vec<String>,
    /// What each channel's text puts before an example request and before the request it
    /// scores ([`Messages::example_lead`]).
    pub example_lead: String,
}

impl Default for ChatConfig {
    /// No instructions, tools, examples or channels; the default [`Messages`]' example lead.
    fn default() -> Self {
        Self {
            instructions: String::new(),
            tools: Vec::new(),
            examples: Vec::new(),
            channels: Vec::new(),
            learning: Vec::new(),
            example_lead: Messages::default().example_lead.into_owned(),
        }
    }
}

impl ChatConfig {
    /// A configuration declaring every tool of `registry`, with its examples and the
    /// channels of tool choice over it; the runtime's words are the default
    /// [`Messages`] until [`with_messages`](Self::with_messages) says otherwise.
    pub fn new(instructions: impl Into<String>, registry: &Registry) -> Self {
        let messages = Messages::default();
        Self {
            instructions: instructions.into(),
            tools: registry.declarations(),
            examples: registry
                .examples()
                .map(|example| {
                    let tool = example.calls().first().and_then(|c| registry.get(&c.tool));
                    let reply = tool.zip(example.ok_data()).and_then(|(t, d)| t.reply(d));
                    example.clone().with_reply(reply)
                })
                .collect(),
            channels: crate::choice::channels(registry, &messages.chat_channel),
            learning: crate::choice::learning_texts(registry),
            example_lead: messages.example_lead.into_owned(),
        }
    }

    /// The same configuration with the runtime's words of `messages` where the model reads
    /// them: the description of plain conversation its channel shows
    /// ([`Messages::chat_channel`]) and the lead before each example request
    /// ([`Messages::example_lead`]).
    #[must_use]
    pub fn with_messages(mut self, messages: &Messages) -> Self {
        self.example_lead = messages.example_lead.to_string();
        for channel in &mut self.channels {
            if channel.candidate == Candidate::Chat {
                channel.description = messages.chat_channel.to_string();
            }
        }
        self
    }
}

/// The stream of events of one model turn. It ends when the model's turn ends; dropping it
/// cancels the turn.
pub type EventStream<'a> = Pin<Box<dyn Stream<Item = Result<ChatEvent, LlmError>> + Send + 'a>>;

/// One conversation with a model.
///
/// Implementations: the llama.cpp Gemma backend (feature `llama`) and
/// [`ScriptedSession`](crate::llm::scripted::ScriptedSession) for tests.
pub trait ChatSession: Send {
    /// Runs one model turn and streams it.
    fn turn(&mut self, request: TurnRequest) -> EventStream<'_>;

    /// Forgets the conversation and starts a new one with the same configuration.
    fn clear(&mut self);

    /// Appends results to the conversation *without* asking the model for a turn.
    ///
    /// The agent loop uses this when it stops at its turn limit: the calls of the model's last
    /// turn are not run, but each still gets its (error) result in the history, so the next
    /// user message does not follow an unanswered call. Sessions that keep history must
    /// override it; the default forgets the results.
    fn record_results(&mut self, results: Vec<ResultMessage>) {
        let _ = results;
    }

    /// Appends a whole exchange — a user message and the words that answered it — to the
    /// conversation *without* asking the model for a turn.
    ///
    /// The agent uses this when it answers a request itself, without the model (a step whose
    /// required value has nothing to choose from): the model's history then still holds what
    /// the person asked and was told, so the next message does not follow a gap. Sessions
    /// that keep history must override it; the default forgets the exchange.
    fn record_exchange(&mut self, request: &str, answer: &str) {
        let _ = (request, answer);
    }

    /// Scores `text` as a request under each of the `channels` (indices into
    /// [`ChatConfig::channels`]): the log-likelihood of its tokens after each channel's text.
    /// `Ok(None)` when the session cannot score (the default); the chooser then uses its
    /// router alone.
    fn score<'a>(
        &'a mut self,
        text: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, LlmError>> {
        let _ = (text, channels);
        Box::pin(std::future::ready(Ok(None)))
    }

    /// The model's reading of each of `texts`: one vector per text, of one length for every
    /// text a model reads, which the tool-choice stage classifies (see
    /// [`Chooser::learn`](crate::choice::Chooser::learn)).
    /// `Ok(None)` when the session cannot read (the default); the chooser then does without.
    fn read_texts<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<Vec<f32>>>, LlmError>> {
        let _ = texts;
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// A session's evidence for the tool-choice stage ([`Evidence`]): its reading of texts and
/// its channel scores. A reading that fails is evidence the session cannot give (tool choice
/// does without it; it costs a better choice, never the turn); a scoring that fails is an
/// error.
#[derive(Debug)]
pub struct SessionEvidence<'s, S>(pub &'s mut S);

impl<S: ChatSession> Evidence for SessionEvidence<'_, S> {
    type Error = LlmError;

    fn read<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<Vec<f32>>>, LlmError>> {
        Box::pin(async move { Ok(self.0.read_texts(texts).await.ok().flatten()) })
    }

    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, LlmError>> {
        self.0.score(request, channels)
    }
}

/// Why a model backend could not produce a turn.
#[derive(Debug, Clone, thiserror::Error)]
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
    /// The call the turn asked for cannot be written (no such tool, an impossible schema).
    #[error("could not constrain the reply: {0}")]
    Grammar(String),
    /// Evaluation or sampling failed inside the backend.
    #[error("inference failed: {0}")]
    Inference(String),
    /// The script of a scripted session ran out (tests only).
    #[error("the scripted session has no more turns")]
    ScriptExhausted,
    /// The model's output could not be read as text or a tool call.
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
