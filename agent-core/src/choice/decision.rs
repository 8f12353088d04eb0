//! What the tool-choice stage decides for one request ([`Decision`]), what it weighs
//! ([`Candidate`], [`Channel`]), and which mechanisms decide ([`Strategy`]).

use super::router::{Plan, Ranked};
use crate::tool::Example;

/// Which mechanism decides; see the [module doc](crate::choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Strategy {
    /// The router's best plan.
    Router,
    /// The model's channel scores alone (single-step plans only).
    Channels,
    /// Both: the router's plan distribution weighted by the model's reading of the request
    /// where the session can read, by the channel score of each plan's likeliest step where
    /// it can only score (or beside the reading, if the chooser is told to; see
    /// [`Chooser::with_reading_channels`](super::Chooser::with_reading_channels)). The
    /// default; falls back to the router when the session can do neither.
    #[default]
    Combined,
    /// No stage at all: the model decides every turn (for models tuned for tool calling).
    Model,
}

/// What a channel stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Candidate {
    /// Calling this tool first.
    Tool(String),
    /// Answering in words, with no tool.
    Chat,
}

/// A text about one candidate, for channel scoring: the model is asked how likely a request
/// is after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// What the channel stands for.
    pub candidate: Candidate,
    /// A title (the tool's label).
    pub title: String,
    /// What it does.
    pub description: String,
    /// A few example requests.
    pub examples: Vec<String>,
}

/// The stage's choice of tools for one request, with the evidence it weighed.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The tools to call in order; empty to answer in words.
    pub plan: Plan,
    /// For each step of the plan, the arguments the nearest example of that plan gives —
    /// the ones the call should write (others stay optional).
    pub arguments: Vec<Vec<String>>,
    /// The router's ranking.
    pub ranked: Vec<Ranked>,
    /// The model's channel scores (log-likelihood of the request), where asked.
    pub channel_scores: Vec<(Candidate, f32)>,
    /// The reading classifier's log-probability of each plan, where the model read the
    /// request.
    pub reading_scores: Vec<(Plan, f32)>,
    /// The declared example of the chosen plan nearest to the request, if one is: a worked
    /// example to show the model right before the request (dynamic few-shot).
    pub example: Option<Example>,
}
