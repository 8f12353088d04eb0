//! Where an agent's events go ([`Reporter`]), and the confirmer wrapper that reports each
//! confirmation and its answer as events.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use super::events::{AgentEvent, EventSink, IgnoreEvents};
use crate::layer::confirm::{ConfirmRequest, Confirmation, Confirmer};
use crate::tool::BoxFuture;

/// What the reporting confirmer needs: where events go and which call is being confirmed.
pub(super) struct Reporter {
    sink: RwLock<Arc<dyn EventSink>>,
    /// The call being dispatched, which a confirmation belongs to.
    pub(super) call_id: AtomicU64,
}

impl Reporter {
    /// Reports nowhere until [`set_sink`](Self::set_sink).
    pub(super) fn new() -> Self {
        Self {
            sink: RwLock::new(Arc::new(IgnoreEvents)),
            call_id: AtomicU64::new(0),
        }
    }

    /// Reports to `sink` from now on.
    pub(super) fn set_sink(&self, sink: Arc<dyn EventSink>) {
        match self.sink.write() {
            Ok(mut slot) => *slot = sink,
            Err(poisoned) => *poisoned.into_inner() = sink,
        }
    }

    pub(super) fn emit(&self, event: AgentEvent) {
        let sink = match self.sink.read() {
            Ok(sink) => Arc::clone(&sink),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        };
        sink.emit(event);
    }
}

/// Wraps the agent's confirmer, reporting each request and its answer as events.
pub(super) struct ReportingConfirmer {
    pub(super) inner: Arc<dyn Confirmer>,
    pub(super) reporter: Arc<Reporter>,
}

impl Confirmer for ReportingConfirmer {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(async move {
            let call_id = self.reporter.call_id.load(Ordering::SeqCst);
            self.reporter.emit(AgentEvent::ConfirmationRequested {
                call_id,
                request: request.clone(),
            });
            let answer = self.inner.confirm(request).await;
            self.reporter.emit(AgentEvent::ConfirmationResolved {
                call_id,
                approved: answer.is_approved(),
            });
            answer
        })
    }
}
