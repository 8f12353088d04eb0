//! [`Interrupter`]: stops an agent's running turn from another task; and the session's
//! evidence for tool choice, given up the moment the turn is interrupted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

use super::error::AgentError;
use crate::choice::{Evidence, Readings};
use crate::session::{ChatSession, LlmError};
use crate::tool::BoxFuture;

/// Interrupts an agent's current turn from another task; see
/// [`Agent::interrupter`](super::Agent::interrupter).
#[derive(Debug, Clone, Default)]
pub struct Interrupter(Arc<InterruptState>);

#[derive(Debug, Default)]
struct InterruptState {
    requested: AtomicBool,
    notify: Notify,
}

impl Interrupter {
    /// Asks the running turn to stop at its next safe point.
    pub fn interrupt(&self) {
        self.0.requested.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    /// Whether an interruption was asked for since the last [`reset`](Self::reset).
    pub(super) fn is_requested(&self) -> bool {
        self.0.requested.load(Ordering::SeqCst)
    }

    /// Forgets an interruption: a new turn starts.
    pub(super) fn reset(&self) {
        self.0.requested.store(false, Ordering::SeqCst);
    }

    /// Resolves once an interruption is asked for.
    pub(super) async fn requested(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.is_requested() {
                return;
            }
            notified.await;
        }
    }
}

/// The session's evidence for the tool-choice stage, given up the moment the turn is
/// interrupted: a reading that fails is evidence the session cannot give (tool choice then
/// does without it; a failed reading costs a better choice, never the turn).
pub(super) struct Interruptible<'s, S> {
    pub(super) session: &'s mut S,
    pub(super) interrupter: Interrupter,
}

impl<S: ChatSession> Evidence for Interruptible<'_, S> {
    type Error = AgentError;

    fn read<'a>(&'a mut self, texts: &'a [String]) -> BoxFuture<'a, Result<Readings, AgentError>> {
        Box::pin(async move {
            tokio::select! {
                biased;
                () = self.interrupter.requested() => {
                    Err(AgentError::Interrupted { completed: Vec::new() })
                }
                read = self.session.read_texts(texts) => Ok(read.ok().flatten()),
            }
        })
    }

    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, AgentError>> {
        Box::pin(async move {
            tokio::select! {
                biased;
                () = self.interrupter.requested() => {
                    Err(AgentError::Interrupted { completed: Vec::new() })
                }
                scores = self.session.score(request, channels) => {
                    scores.map_err(|e: LlmError| AgentError::Llm(e))
                }
            }
        })
    }
}
