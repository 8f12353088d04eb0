//! The state of one user turn ([`Turn`]): the calls it made, how they went, and what the
//! model was shown.

use serde_json::Value;

use super::answer::collect_values;
use super::error::CompletedCall;
use super::history::CallHistory;
use crate::tool::ToolResult;

/// How the calls of one user turn went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Ok,
    Cancelled,
    Error,
}

/// The state of one user turn.
pub(super) struct Turn {
    pub(super) history: CallHistory,
    pub(super) completed: Vec<CompletedCall>,
    /// Whether every call so far succeeded.
    pub(super) all_ok: bool,
    /// The outcome of the last call.
    pub(super) last: Option<Outcome>,
    /// The tool's own sentence about its last successful result, if it has one.
    pub(super) reply: Option<String>,
    /// The values the results showed the model (strings and numbers), for grounding.
    pub(super) seen: String,
    /// The model's closing answer when it was not good enough to show.
    pub(super) held_back: Option<String>,
    /// Every call written so far (tool, arguments), run or not.
    pub(super) written: Vec<(String, Value)>,
}

impl Turn {
    pub(super) fn new() -> Self {
        Self {
            history: CallHistory::default(),
            completed: Vec::new(),
            all_ok: true,
            last: None,
            reply: None,
            seen: String::new(),
            held_back: None,
            written: Vec::new(),
        }
    }

    /// Notes how a call went and the values its result showed the model (`sent`).
    pub(super) fn observe(&mut self, result: &ToolResult, sent: &Value) {
        let outcome = match result {
            ToolResult::Ok { .. } => Outcome::Ok,
            ToolResult::Cancelled { .. } => Outcome::Cancelled,
            ToolResult::Error(_) => Outcome::Error,
        };
        self.all_ok &= outcome == Outcome::Ok;
        self.last = Some(outcome);
        collect_values(sent, &mut self.seen);
    }
}
