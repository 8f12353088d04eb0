//! [`GemmaSession`]: the [`ChatSession`] handle the agent loop holds (tower's
//! `buffer/service.rs`), and the counters it exposes.
//!
//! llama.cpp contexts are tied to the thread-unsafe state of one conversation, so each session
//! runs its context on a dedicated worker thread (`worker.rs`) and talks to it over channels:
//! commands go in over a std channel, a turn's events come back over a bounded tokio channel
//! that the returned stream polls. The handle itself holds only channel ends and an
//! `Arc<Mutex<_>>` of counters, so it is `Send` and cheap to move between tasks.
//!
//! Dropping a turn's stream cancels the turn: the worker checks at every token. Dropping the
//! session stops the worker after its current command.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::stream;

use super::format::PromptFormat;
use super::message::Command;
use super::model::Shared;
use super::prefix::PrefixSource;
use super::sampler::SamplerCounters;
use super::worker::{self, Readiness};
use crate::agent::{ChatConfig, ChatSession, EventStream, LlmError, ResultMessage, TurnRequest};
use crate::tool::BoxFuture;

/// Events buffered between the worker and a slow consumer before the worker waits.
const EVENT_BUFFER: usize = 64;

/// One conversation with a Gemma model; see [`GemmaBackend::session`](super::GemmaBackend::session).
#[derive(Debug)]
pub struct GemmaSession {
    commands: mpsc::Sender<Command>,
    stats: Arc<Mutex<SessionStats>>,
    format: PromptFormat,
    readiness: Arc<Readiness>,
}

/// Counters of a session, for tests and benchmarks. Read with [`GemmaSession::stats`] after a
/// turn's stream has ended (the start's figures once [`GemmaSession::ready`] has returned).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct SessionStats {
    /// Tokens of the preamble (instructions, declarations, examples), `<bos>` included.
    pub preamble_tokens: usize,
    /// Where the preamble's KV state came from when the session started.
    pub preamble_source: PrefixSource,
    /// How long restoring or evaluating it took.
    pub preamble_time: Duration,
    /// Tool-choice channels prepared.
    pub channels: usize,
    /// Where the slowest channel's KV state came from.
    pub channels_source: PrefixSource,
    /// How long preparing all channels took.
    pub channels_time: Duration,
    /// The context window in tokens.
    pub context_capacity: usize,
    /// CPU threads the session's context evaluates with (what [`Threads::Auto`] decided).
    ///
    /// [`Threads::Auto`]: super::Threads::Auto
    pub threads: usize,
    /// Turns run since the session started or was last cleared.
    pub turns: usize,
    /// The most recent turn.
    pub last_turn: TurnStats,
    /// How long the last channel scoring took.
    pub last_score_time: Option<Duration>,
    /// How many channels it scored.
    pub last_score_channels: usize,
}

/// Counters of one turn.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct TurnStats {
    /// Tokens this turn added before the model's reply: what closes the previous model turn,
    /// the input with its turn markers, and a token left over from the last call.
    pub tokens_appended: usize,
    /// Time to evaluate the input.
    pub prefill_time: Duration,
    /// From the start of the turn to the reply's first token (sampled or forced).
    pub time_to_first_token: Option<Duration>,
    /// Time spent writing the reply.
    pub generation_time: Duration,
    /// Tokens the model sampled.
    pub sampled_tokens: usize,
    /// Tokens written as forced runs (jump-forward).
    pub forced_tokens: usize,
    /// Conversation tokens after the turn, as the backend counts them (preamble included).
    pub context_tokens: usize,
    /// Positions llama.cpp's KV cache holds for the conversation (its own count).
    pub kv_cache_tokens: usize,
    /// Whether the reply was a constrained call.
    pub constrained: bool,
    /// Whether the turn was cancelled by dropping its stream.
    pub cancelled: bool,
    /// Paths the constrained sampler took.
    pub sampler: SamplerCounters,
}

impl TurnStats {
    /// All tokens of the reply.
    pub fn generated_tokens(&self) -> usize {
        self.sampled_tokens + self.forced_tokens
    }

    /// Reply tokens per second of generation time.
    pub fn tokens_per_second(&self) -> f64 {
        let seconds = self.generation_time.as_secs_f64();
        if seconds > 0.0 {
            self.generated_tokens() as f64 / seconds
        } else {
            0.0
        }
    }
}

impl GemmaSession {
    /// Starts the session's worker and waits until it has started.
    pub(crate) fn start(shared: Arc<Shared>, config: ChatConfig) -> Result<Self, LlmError> {
        let session = Self::start_in_background(shared, config)?;
        session.readiness.wait_blocking()?;
        Ok(session)
    }

    /// Starts the session's worker and returns at once; commands wait for the start.
    pub(crate) fn start_in_background(
        shared: Arc<Shared>,
        config: ChatConfig,
    ) -> Result<Self, LlmError> {
        let format = shared.format;
        let (commands, receiver) = mpsc::channel();
        let readiness = Arc::new(Readiness::default());
        let stats = Arc::new(Mutex::new(SessionStats::default()));
        let worker_stats = Arc::clone(&stats);
        let worker_readiness = Arc::clone(&readiness);
        std::thread::Builder::new()
            .name("gemma-session".to_owned())
            .spawn(move || {
                worker::run(&shared, config, &receiver, &worker_readiness, worker_stats);
            })
            .map_err(|e| LlmError::Load(format!("could not start the inference thread: {e}")))?;
        Ok(Self {
            commands,
            stats,
            format,
            readiness,
        })
    }

    /// Waits until the session has started — its context created, its preamble restored
    /// or evaluated — and returns how the start went. Only a
    /// session from [`GemmaBackend::session_in_background`](super::GemmaBackend::session_in_background)
    /// can still be starting; nothing needs to wait for this (every turn waits for the start
    /// itself), but a program can show that the model is ready, or time the start.
    ///
    /// # Errors
    /// Why the session could not start (see [`GemmaBackend::session`](super::GemmaBackend::session)).
    pub async fn ready(&self) -> Result<(), LlmError> {
        self.readiness.wait().await
    }

    /// Whether the session is still starting (see [`ready`](Self::ready)).
    pub fn is_starting(&self) -> bool {
        self.readiness.get().is_none()
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

    /// The baseline a benchmark compares a turn with: evaluates `request`'s input exactly as
    /// [`turn`](ChatSession::turn) would (same rendering, same value hints), then decodes
    /// `tokens` tokens freely — the session's sampler with no constraint, one evaluation per
    /// token, not stopping at end-of-turn — and returns the counters: `tokens_appended`,
    /// `prefill_time`, `time_to_first_token`, `generation_time` (from the end of the input's
    /// evaluation to the last token), `sampled_tokens`. The conversation is then forgotten, as
    /// by [`clear`](ChatSession::clear) (counters included), so the reply never becomes
    /// history.
    ///
    /// # Errors
    /// As a turn's: [`LlmError::ContextFull`] or [`LlmError::PromptTooLong`] when the input
    /// and `tokens` do not fit, [`LlmError::Inference`] when evaluation fails.
    pub async fn free_decode(
        &mut self,
        request: TurnRequest,
        tokens: usize,
    ) -> Result<TurnStats, LlmError> {
        self.ask(|reply| Command::FreeDecode {
            request,
            tokens,
            reply,
        })
        .await
    }

    /// Sends the worker the command `command` builds around a reply channel, and waits for
    /// its answer; a worker that is gone (before or while answering) is
    /// [`stopped`].
    fn ask<T: Send + 'static>(
        &self,
        command: impl FnOnce(tokio::sync::oneshot::Sender<Result<T, LlmError>>) -> Command,
    ) -> BoxFuture<'static, Result<T, LlmError>> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let sent = self.commands.send(command(reply));
        Box::pin(async move {
            if sent.is_err() {
                return Err(stopped());
            }
            answer.await.map_err(|_| stopped())?
        })
    }
}

fn stopped() -> LlmError {
    LlmError::Inference("the inference thread has stopped".to_owned())
}

impl ChatSession for GemmaSession {
    fn turn(&mut self, request: TurnRequest) -> EventStream<'_> {
        let (events, mut receiver) = tokio::sync::mpsc::channel(EVENT_BUFFER);
        if self
            .commands
            .send(Command::Turn { request, events })
            .is_err()
        {
            return Box::pin(stream::iter([Err(stopped())]));
        }
        Box::pin(stream::poll_fn(move |cx| receiver.poll_recv(cx)))
    }

    fn record_results(&mut self, results: Vec<ResultMessage>) {
        // If the worker is gone the next turn reports it.
        let _ = self.commands.send(Command::Record(results));
    }

    fn record_exchange(&mut self, request: &str, answer: &str) {
        // If the worker is gone the next turn reports it.
        let _ = self.commands.send(Command::RecordExchange {
            request: request.to_owned(),
            answer: answer.to_owned(),
        });
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

    fn score<'a>(
        &'a mut self,
        text: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, LlmError>> {
        self.ask(|reply| Command::Score {
            text: text.to_owned(),
            channels: channels.to_vec(),
            reply,
        })
    }

    fn read_texts<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<Vec<f32>>>, LlmError>> {
        self.ask(|reply| Command::Read {
            texts: texts.to_vec(),
            reply,
        })
    }
}
