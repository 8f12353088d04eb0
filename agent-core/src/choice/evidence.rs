//! The port through which the tool-choice stage asks a model for evidence ([`Evidence`]):
//! its reading of texts and its channel scores. The agent implements it over its session;
//! an evaluation can answer from recordings ([`Replay`]) and drive the same decision.

use std::collections::HashMap;

use crate::tool::BoxFuture;

/// The model's reading of some texts: one vector per text, or `None` when the model cannot
/// read.
pub type Readings = Option<Vec<Vec<f32>>>;

/// What the tool-choice stage asks a model; see the module doc. `Ok(None)` from either
/// method means the model cannot give that evidence, and the stage decides without it.
pub trait Evidence: Send {
    /// Why evidence could not be had at all (an interrupted turn, a failed backend): it
    /// ends the decision.
    type Error;

    /// The model's reading of each of `texts`: one vector per text, of one length for every
    /// text (see [`ReadingClassifier`](super::ReadingClassifier)).
    fn read<'a>(&'a mut self, texts: &'a [String]) -> BoxFuture<'a, Result<Readings, Self::Error>>;

    /// The log-likelihood of `request` after each of `channels` (indices into the
    /// [`channels`](super::channels) of the registry, in that order).
    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>>;
}

/// Evidence from no model: the stage decides with its router alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoModel;

impl Evidence for NoModel {
    type Error = std::convert::Infallible;

    fn read<'a>(
        &'a mut self,
        _texts: &'a [String],
    ) -> BoxFuture<'a, Result<Readings, Self::Error>> {
        Box::pin(std::future::ready(Ok(None)))
    }

    fn score<'a>(
        &'a mut self,
        _request: &'a str,
        _channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// Evidence answered from recordings: the model's reading of texts read before, and each
/// request's scores under every channel. An evaluation reads and scores its requests once,
/// then runs the decision under many tunings; a text or request it did not record is
/// evidence the model cannot give (`None`).
#[derive(Debug, Clone, Default)]
pub struct Replay {
    readings: HashMap<String, Vec<f32>>,
    scores: HashMap<String, Vec<f32>>,
}

impl Replay {
    /// Nothing recorded yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the model's reading of `text`.
    pub fn record_reading(&mut self, text: impl Into<String>, vector: Vec<f32>) {
        self.readings.insert(text.into(), vector);
    }

    /// Records `request`'s scores under every channel, in channel order.
    pub fn record_scores(&mut self, request: impl Into<String>, scores: Vec<f32>) {
        self.scores.insert(request.into(), scores);
    }
}

impl Replay {
    /// The recorded readings of `texts`, if every one was recorded.
    fn readings_of(&self, texts: &[String]) -> Readings {
        texts
            .iter()
            .map(|t| self.readings.get(t).cloned())
            .collect()
    }

    /// The recorded scores of `request` under `channels`, if recorded.
    fn scores_of(&self, request: &str, channels: &[usize]) -> Option<Vec<f32>> {
        self.scores.get(request).and_then(|all| {
            channels
                .iter()
                .map(|&i| all.get(i).copied())
                .collect::<Option<Vec<f32>>>()
        })
    }
}

impl Evidence for Replay {
    type Error = std::convert::Infallible;

    fn read<'a>(&'a mut self, texts: &'a [String]) -> BoxFuture<'a, Result<Readings, Self::Error>> {
        Box::pin(std::future::ready(Ok(self.readings_of(texts))))
    }

    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        Box::pin(std::future::ready(Ok(self.scores_of(request, channels))))
    }
}

/// Recordings shared by many decisions at once (nothing is recorded through it).
impl Evidence for &Replay {
    type Error = std::convert::Infallible;

    fn read<'a>(&'a mut self, texts: &'a [String]) -> BoxFuture<'a, Result<Readings, Self::Error>> {
        Box::pin(std::future::ready(Ok(self.readings_of(texts))))
    }

    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        Box::pin(std::future::ready(Ok(self.scores_of(request, channels))))
    }
}
