//! The counters a session exposes ([`SessionStats`], [`TurnStats`]), for tests and
//! benchmarks.

use std::time::Duration;

use super::prefix::PrefixSource;
use super::sampler::SamplerCounters;

/// Counters of a session, for tests and benchmarks. Read with
/// [`GemmaSession::stats`](super::GemmaSession::stats) after a turn's stream has ended (the
/// start's figures once [`GemmaSession::ready`](super::GemmaSession::ready) has returned).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct SessionStats {
    /// Tokens of the preamble (instructions, declarations, examples), `<bos>` included.
    pub preamble_tokens: usize,
    /// Where the preamble's KV state came from when the session started.
    pub preamble_source: PrefixSource,
    /// How long restoring or evaluating it took.
    pub preamble_time: Duration,
    /// Tool-choice channels prepared.
    pub channels: usize,
    /// Where the slowest channel's KV state came from.
    pub channels_source: PrefixSource,
    /// How long preparing all channels took.
    pub channels_time: Duration,
    /// The context window in tokens.
    pub context_capacity: usize,
    /// CPU threads the session's context evaluates with (what [`Threads::Auto`] decided).
    ///
    /// [`Threads::Auto`]: super::Threads::Auto
    pub threads: usize,
    /// Turns run since the session started or was last cleared.
    pub turns: usize,
    /// The most recent turn.
    pub last_turn: TurnStats,
    /// How long the last channel scoring took.
    pub last_score_time: Option<Duration>,
    /// How many channels it scored.
    pub last_score_channels: usize,
}

/// Counters of one turn.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct TurnStats {
    /// Tokens this turn added before the model's reply: what closes the previous model turn,
    /// the input with its turn markers, and a token left over from the last call.
    pub tokens_appended: usize,
    /// Time to evaluate the input.
    pub prefill_time: Duration,
    /// From the start of the turn to the reply's first token (sampled or forced).
    pub time_to_first_token: Option<Duration>,
    /// Time spent writing the reply.
    pub generation_time: Duration,
    /// Tokens the model sampled.
    pub sampled_tokens: usize,
    /// Tokens written as forced runs (jump-forward).
    pub forced_tokens: usize,
    /// Conversation tokens after the turn, as the backend counts them (preamble included).
    pub context_tokens: usize,
    /// Positions llama.cpp's KV cache holds for the conversation (its own count).
    pub kv_cache_tokens: usize,
    /// Whether the reply was a constrained call.
    pub constrained: bool,
    /// Whether the turn was cancelled by dropping its stream.
    pub cancelled: bool,
    /// Paths the constrained sampler took.
    pub sampler: SamplerCounters,
}

impl TurnStats {
    /// All tokens of the reply.
    pub fn generated_tokens(&self) -> usize {
        self.sampled_tokens + self.forced_tokens
    }

    /// Reply tokens per second of generation time.
    pub fn tokens_per_second(&self) -> f64 {
        let seconds = self.generation_time.as_secs_f64();
        if seconds > 0.0 {
            self.generated_tokens() as f64 / seconds
        } else {
            0.0
        }
    }
}
