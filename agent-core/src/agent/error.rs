//! Why a user turn did not end with an answer ([`AgentError`]), and what ran before it
//! stopped ([`CompletedCall`]).

use crate::session::LlmError;
use crate::tool::{ErrorCode, ToolResult};

/// Why a user turn did not end with an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The model was still calling tools after `max_turns` turns.
    #[error("the model was still calling tools after {max_turns} turns")]
    TurnLimit {
        /// The limit.
        max_turns: usize,
    },
    /// The turn was interrupted ([`Agent::interrupter`](super::Agent::interrupter)).
    #[error("the turn was interrupted")]
    Interrupted {
        /// The calls that ran to completion before the interruption was honoured, in order:
        /// their effects happened.
        completed: Vec<CompletedCall>,
    },
    /// The model backend failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
}

impl AgentError {
    /// A stable code: `turn_limit`, `interrupted`, or the backend's code (`context_full`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::TurnLimit { .. } => ErrorCode::TurnLimit.as_str(),
            Self::Interrupted { .. } => "interrupted",
            Self::Llm(error) => error.code(),
        }
    }
}

/// A call that ran during an interrupted turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedCall {
    /// The tool.
    pub name: String,
    /// Its human label.
    pub label: String,
    /// What it returned.
    pub result: ToolResult,
}
