//! [`GemmaSession`]: the [`ChatSession`] handle the agent loop holds (tower's
//! `buffer/service.rs`).
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

use futures::stream;

use super::format::PromptFormat;
use super::message::Command;
use super::reading::Reader;
use super::shared::Shared;
use super::stats::{SessionStats, TurnStats};
use super::worker::{self, Readiness};
use crate::session::{ChatConfig, ChatSession, EventStream, LlmError, ResultMessage, TurnRequest};
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

impl GemmaSession {
    /// Starts the session's worker and waits until it has started.
    pub(crate) fn start(
        shared: Arc<Shared>,
        reader: Arc<Reader>,
        config: ChatConfig,
    ) -> Result<Self, LlmError> {
        let session = Self::start_in_background(shared, reader, config)?;
        session.readiness.wait_blocking()?;
        Ok(session)
    }

    /// Starts the session's worker and returns at once; commands wait for the start.
    pub(crate) fn start_in_background(
        shared: Arc<Shared>,
        reader: Arc<Reader>,
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
                worker::run(
                    &shared,
                    &reader,
                    config,
                    &receiver,
                    &worker_readiness,
                    worker_stats,
                );
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
