//! The inference thread of one session (tower's `buffer/worker.rs`): it owns the llama.cpp
//! context through a [`Session`], reports when it is ready, then serves commands until the
//! handle is dropped. A command whose caller has already gone (a turn whose stream was
//! dropped before it started) is skipped; a panic in a command is caught and leaves the
//! session refusing turns until it is cleared.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::decode::Events;
use super::handle::SessionStats;
use super::message::Command;
use super::model::Shared;
use super::turn::Session;
use crate::agent::{ChatConfig, LlmError};

/// The thread's body.
pub(super) fn run(
    shared: &Shared,
    config: ChatConfig,
    commands: &mpsc::Receiver<Command>,
    ready: &mpsc::Sender<Result<(), LlmError>>,
    stats: Arc<Mutex<SessionStats>>,
) {
    let started = catch_unwind(AssertUnwindSafe(|| Session::start(shared, config, stats)));
    let mut session = match started {
        Ok(Ok(session)) => session,
        Ok(Err(error)) => {
            let _ = ready.send(Err(error));
            return;
        }
        Err(_) => {
            let _ = ready.send(Err(LlmError::Load(
                "the inference thread panicked while starting".to_owned(),
            )));
            return;
        }
    };
    if ready.send(Ok(())).is_err() {
        return;
    }
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
