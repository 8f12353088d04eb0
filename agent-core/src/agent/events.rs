//! What the agent loop reports to a UI while it works, and the sink it reports to.
//!
//! Events are delivered synchronously, in order, on the task running the loop — so a
//! terminal UI that prints "🔧 습관 추가 …" from the `ToolCallRequested` event is sure to have
//! printed it before its confirmer asks "이 작업을 수행할까요?". A GUI that prefers a
//! channel can forward events into one from its sink.

use serde_json::Value;

use crate::choice::Decision;
use crate::layer::confirm::ConfirmRequest;
use crate::tool::ToolResult;

/// One thing that happened during a user turn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AgentEvent {
    /// The tool-choice stage decided what to do about the message: the tools to call in
    /// order (`decision.plan`, empty to answer in words), with the router's ranking and the
    /// channel scores that led there. Sent again after the first call where the request
    /// lists several values for it and the plan gains a call per other value.
    Planned(Decision),
    /// A piece of the answer shown to the person: the model's words once they are judged
    /// (an answer that would be replaced is never sent), or the runtime's own.
    TextDelta(String),
    /// The model asked for a tool call, which is about to be dispatched.
    ToolCallRequested {
        /// Numbers the calls of this agent, to pair this event with its result.
        call_id: u64,
        /// The tool name the model used.
        name: String,
        /// The tool's human label (the name when the tool is unknown).
        label: String,
        /// The arguments the model sent.
        args: Value,
    },
    /// A destructive call is waiting for a human.
    ConfirmationRequested {
        /// The call.
        call_id: u64,
        /// What the confirmer is shown.
        request: ConfirmRequest,
    },
    /// The human answered.
    ConfirmationResolved {
        /// The call.
        call_id: u64,
        /// `true` when the call may run.
        approved: bool,
    },
    /// A call finished (ran, failed, or was refused) and its result goes back to the model.
    ToolResult {
        /// The call.
        call_id: u64,
        /// The tool name.
        name: String,
        /// The tool's human label.
        label: String,
        /// The full result.
        result: ToolResult,
        /// What the model receives: the result within the size cap.
        sent: Value,
        /// `true` when `sent` is a cut-down version of `result`.
        truncated: bool,
    },
    /// A notice for the user that is not the model's words (e.g. the long-conversation hint).
    Notice(String),
    /// The loop stopped because the model kept calling tools.
    TurnLimitReached {
        /// The limit.
        max_turns: usize,
    },
    /// The model finished its answer.
    Finished {
        /// The whole answer (all text deltas of the final turn).
        text: String,
    },
    /// The model wrote nothing usable, so the runtime answered with its default text, or
    /// with the answer of the declared example it showed the model when the model copied
    /// another example's answer instead (already sent as a text delta too).
    DefaultAnswer {
        /// The text used.
        text: String,
        /// The model's own answer, when it wrote one that was held back (it echoed the
        /// request, repeated itself, claimed a number the turn did not show, or copied
        /// another example's answer). Never shown to the user by the runtime; for logs and
        /// evals.
        held_back: Option<String>,
    },
    /// The turn failed (model error, context full, …).
    Error {
        /// A stable code (`context_full`, `turn_limit`, …).
        code: String,
        /// A readable message.
        message: String,
    },
}

/// Receives agent events. Implemented for `Fn(AgentEvent) + Send + Sync` closures.
pub trait EventSink: Send + Sync + 'static {
    /// Handles one event. Called in order, on the loop's task; keep it quick.
    fn emit(&self, event: AgentEvent);
}

impl<F: Fn(AgentEvent) + Send + Sync + 'static> EventSink for F {
    fn emit(&self, event: AgentEvent) {
        self(event)
    }
}

/// A sink that drops every event.
#[derive(Debug, Clone, Copy, Default)]
pub struct IgnoreEvents;

impl EventSink for IgnoreEvents {
    fn emit(&self, _: AgentEvent) {}
}
