//! How an [`Agent`] is set up — its confirmer, events, tool choice, words and limits — and
//! what it exposes of its parts.

use std::sync::Arc;

use super::events::EventSink;
use super::interrupt::Interrupter;
use super::run::Agent;
use crate::choice::{Chooser, Strategy};
use crate::dispatch::Dispatcher;
use crate::layer::confirm::Confirmer;
use crate::messages::Messages;
use crate::registry::Registry;
use crate::session::ChatSession;

impl<S: ChatSession> Agent<S> {
    /// Who confirms destructive calls (default [`DenyAll`](crate::DenyAll): fail closed).
    #[must_use]
    pub fn with_confirmer(mut self, confirmer: impl Confirmer) -> Self {
        self.calls.set_confirmer(Arc::new(confirmer));
        self
    }

    /// Where events go (default: nowhere).
    #[must_use]
    pub fn with_events(self, sink: impl EventSink) -> Self {
        self.reporter.set_sink(Arc::new(sink));
        self
    }

    /// How tools are chosen (default [`Strategy::Combined`]).
    #[must_use]
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.chooser = self.chooser.with_strategy(strategy);
        self
    }

    /// Replaces the tool-choice stage (e.g. one with other tuning, or one that has already
    /// learned from the model's reading of the examples).
    #[must_use]
    pub fn with_chooser(mut self, chooser: Chooser) -> Self {
        self.chooser = chooser;
        self
    }

    /// The runtime's own words (default Korean). The words the model reads when it scores
    /// channels are the session's: see
    /// [`ChatConfig::with_messages`](crate::ChatConfig::with_messages).
    #[must_use]
    pub fn with_messages(mut self, messages: Messages) -> Self {
        self.messages = messages;
        self
    }

    /// The cap on model turns per user message (at least 2: one call and the answer;
    /// default 4).
    #[must_use]
    pub fn with_max_turns(mut self, max_turns: usize) -> Self {
        self.max_turns = max_turns.max(2);
        self
    }

    /// After how many user turns the long-conversation notice is shown (default 8).
    #[must_use]
    pub fn with_soft_history_limit(mut self, user_turns: usize) -> Self {
        self.soft_history_limit = user_turns;
        self
    }

    /// The session.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// The session, mutably.
    pub fn session_mut(&mut self) -> &mut S {
        &mut self.session
    }

    /// The registry.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// The dispatcher calls run through.
    pub fn dispatcher(&self) -> &Dispatcher {
        self.calls.dispatcher()
    }

    /// The tool-choice stage.
    pub fn chooser(&self) -> &Chooser {
        &self.chooser
    }

    /// A handle that interrupts the running turn; see [`Agent`].
    pub fn interrupter(&self) -> Interrupter {
        self.interrupter.clone()
    }

    /// User turns in the current conversation.
    pub fn user_turns(&self) -> usize {
        self.user_turns
    }
}
