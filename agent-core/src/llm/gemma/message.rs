//! What the session handle asks of its worker (tower's `buffer/message.rs`).

use super::stats::TurnStats;
use crate::session::{ChatEvent, LlmError, ResultMessage, TurnRequest};

/// Where a turn's events go; a bounded channel the turn's stream polls.
pub(crate) type EventSender = tokio::sync::mpsc::Sender<Result<ChatEvent, LlmError>>;

/// One request to the worker.
pub(crate) enum Command {
    /// Run one turn and stream its events; dropping the receiver cancels it.
    Turn {
        /// The turn.
        request: TurnRequest,
        /// Where its events go.
        events: EventSender,
    },
    /// Append results without generating (see
    /// [`ChatSession::record_results`](crate::ChatSession::record_results)).
    Record(Vec<ResultMessage>),
    /// Append a user message and its answer without generating (see
    /// [`ChatSession::record_exchange`](crate::ChatSession::record_exchange)).
    RecordExchange {
        /// The user's message.
        request: String,
        /// The words that answered it.
        answer: String,
    },
    /// Score a request under some channels.
    Score {
        /// The request.
        text: String,
        /// Channel indices.
        channels: Vec<usize>,
        /// Where the scores go.
        reply: tokio::sync::oneshot::Sender<Result<Option<Vec<f32>>, LlmError>>,
    },
    /// Read texts with the reading model.
    Read {
        /// The texts.
        texts: Vec<String>,
        /// Where their vectors go.
        reply: tokio::sync::oneshot::Sender<Result<Option<Vec<Vec<f32>>>, LlmError>>,
    },
    /// Forget the conversation (keeping the preamble).
    Clear,
    /// The benchmark's baseline: evaluate a turn's input, decode freely, forget.
    FreeDecode {
        /// The turn whose input is evaluated.
        request: TurnRequest,
        /// Tokens to decode.
        tokens: usize,
        /// Where the counters go.
        reply: tokio::sync::oneshot::Sender<Result<TurnStats, LlmError>>,
    },
}
