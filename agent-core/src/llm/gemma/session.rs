//! [`GemmaSession`]: the [`ChatSession`] handle the agent loop holds, and the counters it
//! exposes.
//!
//! llama.cpp contexts are tied to the thread-unsafe state of one conversation, so each session
//! runs its context on a dedicated worker thread ([`super::worker`]) and talks to it over
//! channels: commands go in over a std channel, a turn's events come back over a bounded tokio
//! channel that the returned stream polls. The handle itself holds only channel ends and an
//! `Arc<Mutex<_>>` of counters, so it is `Send` and cheap to move between tasks.
//!
//! Dropping a turn's stream early cancels the turn: the worker notices at its next event and
//! stops generating. Dropping the session stops the worker after its current command.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::stream;

use super::format::{PromptFormat, TurnInput};
use super::model::Shared;
use super::sampler::SamplerCounters;
use super::worker::{self, Command};
use crate::llm::{ChatConfig, ChatSession, EventStream, LlmError, ToolResponse};

/// Events buffered between the worker and a slow consumer before the worker waits.
const EVENT_BUFFER: usize = 64;

/// One conversation with a Gemma model; see [`GemmaBackend::session`](super::GemmaBackend::session).
#[derive(Debug)]
pub struct GemmaSession {
    commands: mpsc::Sender<Command>,
    stats: Arc<Mutex<SessionStats>>,
    format: PromptFormat,
}

/// Counters of a session, for tests and benchmarks. Read with [`GemmaSession::stats`] after a
/// turn's stream has ended.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct SessionStats {
    /// Tokens the instructions and tool declarations cost in the first turn.
    pub declaration_tokens: usize,
    /// The context window in tokens.
    pub context_capacity: usize,
    /// Turns run since the session started or was last cleared.
    pub turns: usize,
    /// The most recent turn.
    pub last_turn: TurnStats,
}

/// Counters of one turn.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct TurnStats {
    /// Tokens this turn added to the conversation before the model's reply: the closing of
    /// the previous model turn, the new message with its turn markers (and, on the first
    /// turn, `<bos>` and the declarations).
    pub tokens_appended: usize,
    /// Tokens handed to llama.cpp to evaluate that input. Equal to `tokens_appended` when the
    /// earlier conversation is reused from the KV cache.
    pub prompt_tokens_evaluated: usize,
    /// Tokens the model generated (the end-of-turn token not included).
    pub generated_tokens: usize,
    /// Conversation tokens in the context after the turn, as the backend counts them.
    pub context_tokens: usize,
    /// Positions llama.cpp's KV cache holds for the conversation (its own count).
    pub kv_cache_tokens: usize,
    /// Time to evaluate the input.
    pub prefill_time: Duration,
    /// From the start of the turn to the first sampled token.
    pub time_to_first_token: Option<Duration>,
    /// Time spent generating (sampling and evaluating generated tokens).
    pub generation_time: Duration,
    /// Whether a grammar constrained the reply.
    pub constrained: bool,
    /// Fast and slow path counts of the constrained sampler.
    pub sampler: SamplerCounters,
}

impl TurnStats {
    /// Generated tokens per second of generation time.
    pub fn decode_tokens_per_second(&self) -> f64 {
        let seconds = self.generation_time.as_secs_f64();
        if seconds > 0.0 {
            self.generated_tokens as f64 / seconds
        } else {
            0.0
        }
    }
}

impl GemmaSession {
    pub(crate) fn start(shared: Arc<Shared>, config: ChatConfig) -> Result<Self, LlmError> {
        let format = shared.format;
        let (commands, receiver) = mpsc::channel();
        let (ready_sender, ready) = mpsc::channel();
        let stats = Arc::new(Mutex::new(SessionStats::default()));
        let worker_stats = Arc::clone(&stats);
        std::thread::Builder::new()
            .name("gemma-session".to_owned())
            .spawn(move || worker::run(&shared, config, &receiver, &ready_sender, &worker_stats))
            .map_err(|e| LlmError::Load(format!("could not start the inference thread: {e}")))?;
        ready.recv().map_err(|_| {
            LlmError::Load("the inference thread stopped while starting".to_owned())
        })??;
        Ok(Self {
            commands,
            stats,
            format,
        })
    }

    /// The session's counters as of the last finished turn.
    pub fn stats(&self) -> SessionStats {
        self.stats
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The prompt format in use.
    pub fn format(&self) -> PromptFormat {
        self.format
    }

    fn turn(&mut self, input: TurnInput) -> EventStream<'_> {
        let (events, mut receiver) = tokio::sync::mpsc::channel(EVENT_BUFFER);
        if self.commands.send(Command::Turn { input, events }).is_err() {
            return Box::pin(stream::iter([Err(LlmError::Inference(
                "the inference thread has stopped".to_owned(),
            ))]));
        }
        Box::pin(stream::poll_fn(move |cx| receiver.poll_recv(cx)))
    }
}

impl ChatSession for GemmaSession {
    fn send_user(&mut self, text: &str) -> EventStream<'_> {
        self.turn(TurnInput::User(text.to_owned()))
    }

    fn send_tool_results(&mut self, results: Vec<ToolResponse>) -> EventStream<'_> {
        self.turn(TurnInput::ToolResults(results))
    }

    fn record_tool_results(&mut self, results: Vec<ToolResponse>) {
        // If the worker is gone the next turn reports it.
        let _ = self
            .commands
            .send(Command::Record(TurnInput::RecordedResults(results)));
    }

    fn clear(&mut self) {
        // If the worker is gone there is nothing to clear; the next turn reports it.
        let _ = self.commands.send(Command::Clear);
        // Reset here too, so `stats()` right after `clear()` does not show the old turns
        // while the worker has yet to reach the command.
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.turns = 0;
        stats.last_turn = TurnStats::default();
    }
}
