//! The inference thread of one session (tower's `buffer/worker.rs`): it owns the llama.cpp
//! context through a [`Session`], reports through the session's [`Readiness`] when it has
//! started (its preamble restored or evaluated), then serves commands until the handle is
//! dropped. Commands sent before the start has finished wait in the channel; if the start
//! failed, each is answered with its error. A command whose caller has already gone (a turn
//! whose stream was dropped before it started) is skipped; a panic in a command is caught and
//! leaves the session refusing turns until it is cleared.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::decode::Events;
use super::message::Command;
use super::reading::Reader;
use super::shared::Shared;
use super::stats::SessionStats;
use super::turn::Session;
use crate::session::{ChatConfig, LlmError};

/// Whether a session's start has finished, and how: set once by its worker, waited for by
/// the handle (blocking in [`GemmaBackend::session`](super::GemmaBackend::session), or
/// asynchronously in [`GemmaSession::ready`](super::GemmaSession::ready)).
#[derive(Debug, Default)]
pub(super) struct Readiness {
    outcome: Mutex<Option<Result<(), LlmError>>>,
    changed: Condvar,
    notify: tokio::sync::Notify,
}

impl Readiness {
    /// Records the start's outcome (the first one only) and wakes every waiter.
    fn set(&self, outcome: Result<(), LlmError>) {
        let mut slot = self.outcome.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(outcome);
        }
        drop(slot);
        self.changed.notify_all();
        self.notify.notify_waiters();
    }

    /// The outcome, if the start has finished.
    pub(super) fn get(&self) -> Option<Result<(), LlmError>> {
        self.outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Blocks the calling thread until the start has finished.
    pub(super) fn wait_blocking(&self) -> Result<(), LlmError> {
        let mut slot = self.outcome.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(outcome) = slot.as_ref() {
                return outcome.clone();
            }
            slot = self
                .changed
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Waits until the start has finished.
    pub(super) async fn wait(&self) -> Result<(), LlmError> {
        loop {
            // Registered before the check, so a `set` between the two still wakes it.
            let notified = self.notify.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if let Some(outcome) = self.get() {
                return outcome;
            }
            notified.await;
        }
    }
}

/// Marks a start that ended without an outcome (the thread unwinding past `run`) as failed,
/// so no waiter waits forever.
struct Unset<'a>(&'a Readiness);

impl Drop for Unset<'_> {
    fn drop(&mut self) {
        self.0.set(Err(LlmError::Load(
            "the inference thread stopped while starting".to_owned(),
        )));
    }
}

/// The thread's body.
pub(super) fn run(
    shared: &Shared,
    reader: &Reader,
    config: ChatConfig,
    commands: &mpsc::Receiver<Command>,
    readiness: &Readiness,
    stats: Arc<Mutex<SessionStats>>,
) {
    let unset = Unset(readiness);
    let started = catch_unwind(AssertUnwindSafe(|| {
        Session::start(shared, reader, config, stats)
    }));
    let mut session = match started {
        Ok(Ok(session)) => session,
        Ok(Err(error)) => {
            readiness.set(Err(error.clone()));
            refuse(commands, &error);
            return;
        }
        Err(_) => {
            let error = LlmError::Load("the inference thread panicked while starting".to_owned());
            readiness.set(Err(error.clone()));
            refuse(commands, &error);
            return;
        }
    };
    readiness.set(Ok(()));
    drop(unset);
    for command in commands {
        let outcome = match command {
            Command::Turn { request, events } => {
                let events = Events::new(events);
                if events.closed() {
                    continue;
                }
                let outcome = catch_unwind(AssertUnwindSafe(|| session.turn(request, &events)));
                if outcome.is_err() {
                    events.send(Err(LlmError::Inference(
                        "the inference thread panicked; clear() the session".to_owned(),
                    )));
                }
                outcome
            }
            Command::Record(results) => catch_unwind(AssertUnwindSafe(|| session.record(results))),
            Command::RecordExchange { request, answer } => catch_unwind(AssertUnwindSafe(|| {
                session.record_exchange(&request, &answer);
            })),
            Command::Score {
                text,
                channels,
                reply,
            } => {
                if reply.is_closed() {
                    continue;
                }
                match catch_unwind(AssertUnwindSafe(|| session.score(&text, &channels))) {
                    Ok(scores) => {
                        let _ = reply.send(scores);
                        Ok(())
                    }
                    Err(panic) => {
                        let _ = reply.send(Err(LlmError::Inference(
                            "the inference thread panicked; clear() the session".to_owned(),
                        )));
                        Err(panic)
                    }
                }
            }
            Command::Read { texts, reply } => {
                if reply.is_closed() {
                    continue;
                }
                let read = catch_unwind(AssertUnwindSafe(|| session.read_texts(&texts)));
                let _ = reply.send(match read {
                    Ok(read) => read.map(|vectors| {
                        vectors.map(|vectors| vectors.iter().map(|v| v.to_vec()).collect())
                    }),
                    // The reading model is not the conversation: a panic there leaves the
                    // session as it was, and tool choice does without the reading.
                    Err(_) => Err(LlmError::Inference("reading panicked".to_owned())),
                });
                Ok(())
            }
            Command::Clear => catch_unwind(AssertUnwindSafe(|| session.reset())),
            Command::FreeDecode {
                request,
                tokens,
                reply,
            } => {
                if reply.is_closed() {
                    continue;
                }
                match catch_unwind(AssertUnwindSafe(|| session.free_decode(&request, tokens))) {
                    Ok(stats) => {
                        let _ = reply.send(stats);
                        Ok(())
                    }
                    Err(panic) => {
                        let _ = reply.send(Err(LlmError::Inference(
                            "the inference thread panicked; clear() the session".to_owned(),
                        )));
                        Err(panic)
                    }
                }
            }
        };
        if outcome.is_err() {
            session.poison();
        }
    }
}

/// Answers every command with the start's `error` until the handle is dropped: a session
/// started in the background reports why it could not start where its caller looks.
fn refuse(commands: &mpsc::Receiver<Command>, error: &LlmError) {
    for command in commands {
        match command {
            Command::Turn { events, .. } => Events::new(events).send(Err(error.clone())),
            Command::Score { reply, .. } => {
                let _ = reply.send(Err(error.clone()));
            }
            Command::Read { reply, .. } => {
                let _ = reply.send(Err(error.clone()));
            }
            Command::FreeDecode { reply, .. } => {
                let _ = reply.send(Err(error.clone()));
            }
            Command::Record(_) | Command::RecordExchange { .. } | Command::Clear => {}
        }
    }
}
