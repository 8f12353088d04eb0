//! The tool-choice stage: before the model writes anything, decide *what* it should do about
//! the request — which tools to call, in which order, or none — from the request itself.
//!
//! A small base model asked to pick a tool by generating its name picks nearly the same one
//! for every request: under greedy decoding the name is whichever first token the prompt makes
//! most likely, not a reading of the request. So the choice is made by mechanisms that do
//! read it, and the model's job becomes the arguments and the words:
//!
//! - the **router** ([`router`]) compares the request with every declared [`Example`] by
//!   character n-grams and ranks *plans* (the tool sequences of the examples, the empty plan
//!   for requests that need no tool);
//! - the **model's reading** ([`reading`]), when the session offers it
//!   ([`ChatSession::read_texts`](crate::ChatSession::read_texts)): a classifier over the
//!   vector the model's middle layers make of a request, trained on the same examples when
//!   the agent first needs it ([`Chooser::learn`]) — it tells plans apart by meaning where
//!   the router sees only different letters;
//! - **channel scoring**, for sessions that can score but not read, asks the model how
//!   likely the request is after a short text about each candidate tool (and one about plain
//!   conversation; each shows the tool's declared requests that differ most from each
//!   other) — the "noisy channel" direction, which a base model is good at because it is
//!   next-token prediction over the request's own tokens;
//! - the [`Strategy`] says which of them decide, and how they combine.
//!
//! A request for two things is mostly read as the one it says more about, so where the
//! examples declare two-step plans the parts of the request (split between words) are read
//! too, and a part asking for each step composes the plan; and a request of two sentences,
//! each confidently asking for a different tool, gets the two in order whether or not an
//! example declares the pair (see [`Chooser::decide`]).
//!
//! Measured on the habit coach's dev and probe requests (187; `eval --choice-only`), the
//! right tools: router alone 151, router with channel scores 160, router with the model's
//! reading of the whole request 165, and of its parts too 170 (a reading moves by a case
//! or so with the texts that share its batch, and with how closely the classifier over it
//! is fitted: 164 and 168 before it was fitted to its optimum). The reading costs one
//! evaluation of the request by the model's first eight blocks (about 30 ms on two cores),
//! and of its parts about 200 ms more for a ten-word request, where channels cost one
//! evaluation per candidate (about 250 ms a turn). So a session that can read is not asked
//! for channel scores unless the chooser is told to weigh them beside the reading
//! ([`Chooser::with_reading_channels`]; measured there).
//!
//! With many tools the router also narrows: only its best few first
//! tools are scored by the model, and the model only ever sees the one tool it must call.

pub mod reading;
pub mod router;

use crate::registry::Registry;
use crate::tool::Example;

pub use reading::ReadingClassifier;
pub use router::{Plan, Ranked, Router};

/// Which mechanism decides; see the module doc.
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
    /// [`Chooser::with_reading_channels`]). The default; falls back to the router when the
    /// session can do neither.
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

/// The stage's outcome for one request.
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

/// The log-probability the reading gives a ranked plan it has no class for (every plan the
/// router ranks is a declared example's, so only a chooser trained on other examples meets
/// one): as good as ruled out.
const UNREAD_PLAN: f32 = -20.0;

/// The least probability each part of a request must give its own step — the model's
/// reading of the part and the router's ranking of it, together — for a declared two-step
/// plan to be composed from the parts (see [`Chooser::decide`]). Chosen with
/// `eval --choice-only` on the dev and probe requests, before the gate on the part's own
/// reading was added (which changed neither figure): at 0.8 the right tools for 61 + 108 of
/// 63 + 124, at 0.9 61 + 107, at 0.5 57 + 109, without composing 60 + 105. (Since a call
/// reads a repeated text once, the batches differ and 0.8 gives 61 + 107, without composing
/// 60 + 104.)
const PART_CONFIDENCE: f32 = 0.8;

/// The fewest words of a part the reading composes from (the router's own composition
/// wants two): one-word parts ("…보여주고 | 체크") gave 108 of the 124 probe requests where
/// two-word parts gave 106, dev 61 both.
const PART_WORDS: usize = 1;

/// The least probability each sentence of a two-sentence request must give its own tool for
/// the two to be composed into a plan (see [`Chooser::compose_sentences`]). Chosen with
/// `eval --choice-only` on dev and `probe-001`–`probe-500`, the right tools (dev / probe):
///
/// | confidence \ floor | 0 | 0.01 | 0.03 | 0.1 |
/// | --- | --- | --- | --- | --- |
/// | 0.8 | 59 / 440 | 60 / 440 | 60 / 439 | 61 / 437 |
/// | 0.9 | 59 / 444 | 60 / 443 | 60 / 441 | 61 / 437 |
/// | 0.95 | 60 / 444 | **61 / 443** | 61 / 441 | 61 / 437 |
///
/// and without composing 61 / 434. A first sentence that names a catalog id ("build.… 추가.")
/// reads as a question about it, and the rest as the add it asks for: the floor on the
/// whole request's reading rules that out.
const SENTENCE_CONFIDENCE: f32 = 0.95;

/// The least probability the reading of a whole two-sentence request must give each tool
/// its sentences compose (see [`Chooser::compose_sentences`] and the table above).
const SENTENCE_FLOOR: f32 = 0.01;

/// Example requests shown per channel.
const CHANNEL_EXAMPLES: usize = 8;
/// How much a tool's label counts as an example of its use.
const LABEL_WEIGHT: f32 = 0.5;

/// The tool-choice stage for one registry; see the module doc.
#[derive(Debug, Clone)]
pub struct Chooser {
    router: Router,
    /// Per training text of the router: the argument names of each call of its example
    /// (`None` for texts that are not examples, such as labels).
    example_arguments: Vec<Option<Vec<Vec<String>>>>,
    /// Per training text: the example it is the request of (`None` as above).
    examples: Vec<Option<Example>>,
    channels: Vec<Channel>,
    /// Per training text: its plan, where it is a declared example's request (what the
    /// reading classifier learns from).
    reading_texts: Vec<(String, Plan)>,
    reading: Reading,
    strategy: Strategy,
    candidates: usize,
    router_temperature: f32,
    channel_temperature: f32,
    channel_weight: f32,
    reading_weight: f32,
    /// How much the channel scores count beside the model's reading (0: not asked for).
    reading_channel_weight: f32,
    /// See [`Chooser::with_sentence_composition`].
    sentence_confidence: f32,
    sentence_floor: f32,
}

/// Where the reading classifier stands.
#[derive(Debug, Clone)]
enum Reading {
    /// Not trained yet: the session has not been asked to read the examples.
    Untried,
    /// Trained.
    Learned(ReadingClassifier),
    /// The session cannot read (or failed to): channels, if any, take its place.
    Unavailable,
}

impl Chooser {
    /// A chooser trained on `registry`'s examples, with `chat_description` describing
    /// requests that need no tool.
    pub fn new(registry: &Registry, chat_description: &str) -> Self {
        let mut texts: Vec<(&str, Plan, f32)> = Vec::new();
        let mut example_arguments = Vec::new();
        let mut examples = Vec::new();
        let mut reading_texts = Vec::new();
        for example in registry.examples() {
            examples.push(Some(example.clone()));
            let plan: Plan = example.plan().into_iter().map(str::to_owned).collect();
            reading_texts.push((example.request().to_owned(), plan.clone()));
            texts.push((example.request(), plan, 1.0));
            example_arguments.push(Some(
                example
                    .calls()
                    .iter()
                    .map(|call| {
                        call.args
                            .as_object()
                            .map(|args| args.keys().cloned().collect())
                            .unwrap_or_default()
                    })
                    .collect(),
            ));
        }
        for tool in registry.tools() {
            texts.push((tool.label(), vec![tool.name().to_owned()], LABEL_WEIGHT));
            example_arguments.push(None);
            examples.push(None);
        }
        let router = Router::train(texts);
        let channels = channels(registry, chat_description, &router);
        Self {
            router,
            example_arguments,
            examples,
            channels,
            reading_texts,
            reading: Reading::Untried,
            strategy: Strategy::default(),
            // Chosen by `eval --choice-only` over the dev and probe requests (63 + 60): at
            // channel temperature 3 and weight 1 the right tools for 111 of the 123, at the
            // earlier 1 and 0.5 for 107 (dev 59 both). A base model's likelihoods are a
            // weaker guide than the examples on requests worded unlike either, so they count
            // for less against the router.
            candidates: 3,
            // With the habit coach's 250 examples (160 before) the router ranks better alone
            // (probe-001–500: 384 right against 364), and 0.02 chose better on the tuning
            // requests (probe 442 against 431, dev 61 against 60) but worse on the batch no
            // one tuning had read (probe-501–548: 39 against 42 of 48), and it let the
            // router's letters outvote a reading four times in five sure of the other tool
            // (`tests/plans.rs`). So 0.05 stays. Channels without the reading: 406 and 409.
            router_temperature: 0.05,
            channel_temperature: 3.0,
            channel_weight: 1.0,
            // Chosen on the same requests with the model's reading (`eval --choice-only`):
            // the router at temperature 0.05 plus the reading's log-probability at weight 1
            // chose right for 166 of 187 (measured before the classifier was fitted to its
            // optimum, which now gives 170); weights 0.5–2 at router temperatures 0.05–0.1
            // within two of it, weight 0.25 or temperature 0.02 up to seven fewer.
            reading_weight: 1.0,
            // Off: channels beside the reading helped only the requests it was chosen on.
            // At the channel defaults above and weight 1, `eval --choice-only` chose right for
            // dev 61 + probe-001–212 188 where the reading alone chose 61 + 183 (weights 0.5
            // and 0.25: 187, 184), and the full eval for probe-001–212 193 against 187; but an
            // untuned batch by an independent writer (probe-213–260) stayed at 42 of 48, the
            // held-out split fell from 52 to 50 of 63, and the median turn grew from 1.3 s to
            // 1.6 s.
            reading_channel_weight: 0.0,
            sentence_confidence: SENTENCE_CONFIDENCE,
            sentence_floor: SENTENCE_FLOOR,
        }
    }

    /// Sets when two sentences compose a two-step plan (see
    /// [`decide`](Self::decide)): the least probability each sentence must give its own
    /// tool (above 1: never), and the least probability the reading of the whole request
    /// must give each of the two.
    #[must_use]
    pub fn with_sentence_composition(mut self, confidence: f32, floor: f32) -> Self {
        self.sentence_confidence = confidence;
        self.sentence_floor = floor.max(0.0);
        self
    }

    /// Sets the strategy.
    #[must_use]
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Sets how many first steps the model scores (default 3), and the weights of the
    /// combination: router temperature, channel temperature, channel weight.
    #[must_use]
    pub fn with_tuning(
        mut self,
        candidates: usize,
        router_temperature: f32,
        channel_temperature: f32,
        channel_weight: f32,
    ) -> Self {
        self.candidates = candidates.max(1);
        self.router_temperature = router_temperature.max(1e-4);
        self.channel_temperature = channel_temperature.max(1e-4);
        self.channel_weight = channel_weight;
        self
    }

    /// Sets how much the model's reading counts against the router (default 1).
    #[must_use]
    pub fn with_reading_weight(mut self, weight: f32) -> Self {
        self.reading_weight = weight;
        self
    }

    /// Sets how much the channel scores count beside the model's reading (default 0: a
    /// session that can read is not asked for them; each turn that scores them costs about
    /// a quarter-second more, and on the habit coach they did not choose better on requests
    /// they were not tuned on).
    #[must_use]
    pub fn with_reading_channels(mut self, weight: f32) -> Self {
        self.reading_channel_weight = weight.max(0.0);
        self
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Whether the chooser would use the model's reading and has not yet asked the session
    /// for it: then [`reading_texts`](Self::reading_texts) are to be read and passed to
    /// [`learn`](Self::learn).
    pub fn wants_reading(&self) -> bool {
        matches!(self.reading, Reading::Untried)
            && matches!(self.strategy, Strategy::Combined)
            && !self.reading_texts.is_empty()
    }

    /// Whether the reading classifier is trained (then each request is to be read too).
    pub fn reads(&self) -> bool {
        matches!(self.reading, Reading::Learned(_)) && matches!(self.strategy, Strategy::Combined)
    }

    /// The texts to read for `request`, when the chooser [`reads`](Self::reads): the
    /// request, then — where some declared plan has two different steps — the two parts of
    /// the request at each place the router splits it (left, right, left, right, …), then
    /// the two parts at each place one sentence ends and another begins. Their
    /// vectors, in this order, are [`decide`](Self::decide)'s `reading`.
    pub fn texts_to_read(&self, request: &str) -> Vec<String> {
        let mut texts = vec![request.to_owned()];
        for (left, right) in self.part_splits(request) {
            texts.push(left);
            texts.push(right);
        }
        texts
    }

    /// The splits whose parts are read: between words where some declared plan has two
    /// different steps, then between sentences.
    fn part_splits(&self, request: &str) -> Vec<(String, String)> {
        let mut splits = self.word_splits(request);
        splits.extend(router::sentence_splits(request));
        splits
    }

    /// The splits between words whose parts are read: only where some declared plan has
    /// two different steps.
    fn word_splits(&self, request: &str) -> Vec<(String, String)> {
        if self.router.composes() {
            router::splits(request, PART_WORDS)
        } else {
            Vec::new()
        }
    }

    /// The texts the reading classifier learns from: the declared examples' requests.
    pub fn reading_texts(&self) -> Vec<String> {
        self.reading_texts.iter().map(|(t, _)| t.clone()).collect()
    }

    /// Trains the reading classifier on the model's `vectors` of
    /// [`reading_texts`](Self::reading_texts), in that order; `None` (the session cannot
    /// read) or vectors that do not fit leave the chooser without it for good.
    pub fn learn(&mut self, vectors: Option<&[Vec<f32>]>) {
        let plans: Vec<Plan> = self.reading_texts.iter().map(|(_, p)| p.clone()).collect();
        self.reading = match vectors.and_then(|v| ReadingClassifier::train(v, &plans)) {
            Some(classifier) => Reading::Learned(classifier),
            None => Reading::Unavailable,
        };
    }

    /// The trained reading classifier, if any.
    pub fn reading(&self) -> Option<&ReadingClassifier> {
        match &self.reading {
            Reading::Learned(classifier) => Some(classifier),
            _ => None,
        }
    }

    /// The channels, in the order sessions score them (see
    /// [`ChatConfig::channels`](crate::ChatConfig::channels)).
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// The router.
    pub fn router(&self) -> &Router {
        &self.router
    }

    /// The channels whose scores would change the decision for this ranking: the first
    /// steps of the router's best plans, in channel order. Empty when the strategy does not
    /// use channel scores, or the model's reading is to decide without them (see
    /// [`with_reading_channels`](Self::with_reading_channels)).
    pub fn channels_to_score(&self, ranked: &[Ranked]) -> Vec<usize> {
        match self.strategy {
            Strategy::Router | Strategy::Model => Vec::new(),
            Strategy::Channels => (0..self.channels.len()).collect(),
            Strategy::Combined
                if matches!(self.reading, Reading::Learned(_))
                    && self.reading_channel_weight <= 0.0 =>
            {
                Vec::new()
            }
            Strategy::Combined => {
                let mut wanted: Vec<usize> = Vec::new();
                'plans: for ranked in ranked {
                    for index in self.channels_of(&ranked.plan) {
                        if !wanted.contains(&index) {
                            wanted.push(index);
                        }
                        if wanted.len() == self.candidates {
                            break 'plans;
                        }
                    }
                }
                wanted.sort_unstable();
                wanted
            }
        }
    }

    /// The channels of a plan's steps, or the chat channel for the empty plan.
    fn channels_of(&self, plan: &Plan) -> Vec<usize> {
        steps_of(plan)
            .iter()
            .filter_map(|candidate| self.channels.iter().position(|c| c.candidate == *candidate))
            .collect()
    }

    /// Decides for `request` from the router's `ranked` plans (its
    /// [`rank`](Router::rank) of the request), the channel `scores` (the log-likelihoods the
    /// session returned for `scored`, in that order) and the model's `reading`: the vectors
    /// of [`texts_to_read`](Self::texts_to_read), in that order (the request's alone is
    /// enough; without the parts' no plan is composed from them).
    ///
    /// With the reading, a request the whole of which reads as one step can still get a
    /// declared two-step plan: where it splits into a part that asks, above every other
    /// one-step plan, for the plan's first step and a part that asks for its second, each
    /// with probability 0.8 or more (the reading of the part and the router's ranking of
    /// it, together). A request for two things is mostly read as the one it says more
    /// about; its parts each say one. Failing that, a request of two sentences gets any two
    /// different tools its sentences ask for, in their order, where each sentence gives its
    /// own with probability 0.95 or more and the whole request's reading gives each at least
    /// 0.01 (see [`with_sentence_composition`](Self::with_sentence_composition)).
    pub fn decide(
        &self,
        request: &str,
        ranked: Vec<Ranked>,
        scored: &[usize],
        scores: Option<&[f32]>,
        reading: Option<&[Vec<f32>]>,
    ) -> Decision {
        let whole = reading.and_then(<[_]>::first);
        let reading_scores: Vec<(Plan, f32)> = match (self.reading(), whole) {
            (Some(classifier), Some(vector)) => classifier
                .log_probabilities(vector)
                .map(|lp| classifier.classes().iter().cloned().zip(lp).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let channel_scores: Vec<(Candidate, f32)> = match scores {
            Some(scores) => scored
                .iter()
                .zip(scores)
                .filter_map(|(&i, &s)| Some((self.channels.get(i)?.candidate.clone(), s)))
                .collect(),
            None => Vec::new(),
        };
        let plan = match (self.strategy, channel_scores.is_empty()) {
            (Strategy::Model, _) => Vec::new(),
            (Strategy::Channels, false) => channel_scores
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(candidate, _)| match candidate {
                    Candidate::Tool(name) => vec![name.clone()],
                    Candidate::Chat => Vec::new(),
                })
                .unwrap_or_default(),
            (Strategy::Combined, _) if !reading_scores.is_empty() => {
                let plan = self.combine_reading(&ranked, &reading_scores, &channel_scores);
                let parts = reading.and_then(|r| r.get(1..)).unwrap_or_default();
                match self.reading() {
                    Some(classifier) if plan.len() < 2 => self
                        .compose_reading(request, parts, classifier)
                        .or_else(|| {
                            self.compose_sentences(request, parts, classifier, &reading_scores)
                        })
                        .unwrap_or(plan),
                    _ => plan,
                }
            }
            (Strategy::Combined, false) => self.combine(&ranked, &channel_scores),
            _ => ranked.first().map(|r| r.plan.clone()).unwrap_or_default(),
        };
        let mut decision = self.decision(plan, ranked, channel_scores);
        decision.reading_scores = reading_scores;
        decision
    }

    /// The router's ranking as log-probabilities, at the router temperature.
    fn router_log_q(&self, ranked: &[Ranked]) -> Vec<f32> {
        log_softmax(
            &ranked
                .iter()
                .map(|r| r.score / self.router_temperature)
                .collect::<Vec<_>>(),
        )
    }

    /// The channel scores as log-probabilities, at the channel temperature.
    fn channel_log_p(&self, channel_scores: &[(Candidate, f32)]) -> Vec<f32> {
        log_softmax(
            &channel_scores
                .iter()
                .map(|(_, s)| *s / self.channel_temperature)
                .collect::<Vec<_>>(),
        )
    }

    /// `log q(plan) + w · log p(plan | reading)`, over the ranked plans, plus the channel
    /// evidence of the plan's likeliest step where channels were scored (a plan none of
    /// whose steps was scored gets the least likely scored step's).
    fn combine_reading(
        &self,
        ranked: &[Ranked],
        reading_scores: &[(Plan, f32)],
        channel_scores: &[(Candidate, f32)],
    ) -> Plan {
        let router_log_q = self.router_log_q(ranked);
        let channel_log_p = self.channel_log_p(channel_scores);
        // 0 when nothing was scored.
        let least = channel_log_p.iter().copied().fold(0.0_f32, f32::min);
        let channel_of =
            |plan: &Plan| likeliest_step(plan, channel_scores, &channel_log_p).unwrap_or(least);
        ranked
            .iter()
            .zip(router_log_q)
            .map(|(r, log_q)| {
                let of = |plan: &[String]| {
                    reading_scores
                        .iter()
                        .find(|(p, _)| p.as_slice() == plan)
                        .map_or(UNREAD_PLAN, |(_, lp)| *lp)
                };
                // A request for two things reads partly like a request for each, and
                // two-step examples are few: a plan of several steps has the reading of its
                // least likely step, if that is more than its own — both steps must be
                // read in the request, and the router's composition, part by part, tells
                // one from two.
                let log_p = r
                    .plan
                    .iter()
                    .map(|step| of(std::slice::from_ref(step)))
                    .reduce(f32::min)
                    .map_or(of(&r.plan), |weakest| weakest.max(of(&r.plan)));
                (
                    r,
                    log_q
                        + self.reading_weight * log_p
                        + self.reading_channel_weight * channel_of(&r.plan),
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(r, _)| r.plan.clone())
            .unwrap_or_default()
    }

    /// The declared two-step plan the parts of `request` ask for, step by step, if one is
    /// asked for confidently enough; `parts` are the vectors of its splits' parts (see
    /// [`texts_to_read`](Self::texts_to_read) and [`decide`](Self::decide)).
    fn compose_reading(
        &self,
        request: &str,
        parts: &[Vec<f32>],
        classifier: &ReadingClassifier,
    ) -> Option<Plan> {
        let classes = classifier.classes();
        let single = one_step_classes(classifier);
        let step = |tool: &String| {
            single
                .iter()
                .position(|&i| classes[i].first() == Some(tool))
        };
        let pairs: Vec<(&Plan, usize, usize)> = classes
            .iter()
            .filter_map(|plan| {
                let (a, b) = router::two_steps(plan)?;
                Some((plan, step(a)?, step(b)?))
            })
            .collect();
        let splits = self.word_splits(request);
        if pairs.is_empty() || parts.len() < 2 * splits.len() {
            return None;
        }
        let part =
            |text: &str, vector: &[f32]| self.part_reading(classifier, &single, text, vector);
        let mut best: Option<(&Plan, f32)> = None;
        for ((left, right), vectors) in splits.iter().zip(parts.chunks_exact(2)) {
            let (Some(l), Some(r)) = (part(left, &vectors[0]), part(right, &vectors[1])) else {
                return None;
            };
            for &(plan, first, second) in &pairs {
                let composed = l[first].min(r[second]);
                if best.is_none_or(|(_, score)| composed > score) {
                    best = Some((plan, composed));
                }
            }
        }
        best.filter(|(_, score)| *score >= PART_CONFIDENCE.ln())
            .map(|(plan, _)| plan.clone())
    }

    /// A part's log-probability of each one-step plan (`single`, indices into the
    /// classifier's classes): its reading's and the router's ranking of it, each normalised
    /// over those plans, multiplied and normalised again; every plan but the one the part's
    /// own reading puts first is ruled out.
    fn part_reading(
        &self,
        classifier: &ReadingClassifier,
        single: &[usize],
        text: &str,
        vector: &[f32],
    ) -> Option<Vec<f32>> {
        let classes = classifier.classes();
        let all = classifier.log_probabilities(vector)?;
        let read = log_softmax(&single.iter().map(|&i| all[i]).collect::<Vec<_>>());
        let scores = self.router.whole_scores(text);
        let routed = log_softmax(
            &single
                .iter()
                .map(|&i| {
                    scores
                        .iter()
                        .find(|(plan, _)| **plan == classes[i])
                        .map_or(UNREAD_PLAN, |(_, score)| score / self.router_temperature)
                })
                .collect::<Vec<_>>(),
        );
        let combined = log_softmax(
            &read
                .iter()
                .zip(&routed)
                .map(|(a, b)| a + b)
                .collect::<Vec<_>>(),
        );
        // A step the part's own reading does not put first is the router's alone: a part
        // that only names something ("오늘 할일") is like some step's examples without
        // asking for it.
        let top = read
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i);
        Some(
            combined
                .iter()
                .enumerate()
                .map(|(i, &lp)| {
                    if Some(i) == top {
                        lp
                    } else {
                        f32::NEG_INFINITY
                    }
                })
                .collect(),
        )
    }

    /// The two-step plan a request of two sentences asks for, sentence by sentence, declared
    /// or not: where, split between two of its sentences, the first part asks for one tool
    /// and the rest for another, each with probability [`SENTENCE_CONFIDENCE`] or more (read
    /// as in [`compose_reading`](Self::compose_reading)). `parts` are the vectors of all of
    /// [`part_splits`](Self::part_splits)' parts, the sentence splits' last.
    ///
    /// No example can declare every pair of tools an app's requests combine ("오늘 걷기
    /// 했어! 며칠 연속이야?" is a check-in and a question about the streak), and a pair
    /// composed from any split between words is mostly false: one request cut into what it
    /// names and what it asks. Between sentences, each part is a request of its own.
    fn compose_sentences(
        &self,
        request: &str,
        parts: &[Vec<f32>],
        classifier: &ReadingClassifier,
        whole: &[(Plan, f32)],
    ) -> Option<Plan> {
        let sentences = router::sentence_splits(request);
        let skip = parts.len().checked_sub(2 * sentences.len())?;
        let classes = classifier.classes();
        let single = one_step_classes(classifier);
        let mut best: Option<(Plan, f32)> = None;
        for ((left, right), vectors) in sentences.iter().zip(parts[skip..].chunks_exact(2)) {
            let l = self.part_reading(classifier, &single, left, &vectors[0])?;
            let r = self.part_reading(classifier, &single, right, &vectors[1])?;
            let first = |lp: &[f32]| {
                lp.iter()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(i, &p)| (&classes[single[i]], p))
            };
            let (Some((a, pa)), Some((b, pb))) = (first(&l), first(&r)) else {
                continue;
            };
            let (Some(a), Some(b)) = (a.first(), b.first()) else {
                // A part that needs no tool (a greeting, a thank-you) composes nothing.
                continue;
            };
            let score = pa.min(pb);
            if a != b && best.as_ref().is_none_or(|(_, s)| score > *s) {
                best = Some((vec![a.clone(), b.clone()], score));
            }
        }
        let floor = self.sentence_floor.ln();
        let read_whole = |step: &String| {
            whole
                .iter()
                .find(|(plan, _)| plan.len() == 1 && plan.first() == Some(step))
                .is_some_and(|(_, lp)| *lp >= floor)
        };
        best.filter(|(plan, score)| {
            *score >= self.sentence_confidence.ln() && plan.iter().all(read_whole)
        })
        .map(|(plan, _)| plan)
    }

    /// `decision` with `plan` instead of its own (one of the ranked plans, e.g. a step
    /// repeated for each value the request names), with that plan's nearest example.
    pub fn replan(&self, decision: Decision, plan: Plan) -> Decision {
        let reading_scores = decision.reading_scores;
        let mut replanned = self.decision(plan, decision.ranked, decision.channel_scores);
        replanned.reading_scores = reading_scores;
        replanned
    }

    fn decision(
        &self,
        plan: Plan,
        ranked: Vec<Ranked>,
        channel_scores: Vec<(Candidate, f32)>,
    ) -> Decision {
        let nearest = ranked
            .iter()
            .find(|r| r.plan == plan)
            .and_then(|r| r.nearest);
        let arguments = nearest
            .and_then(|i| self.example_arguments.get(i).cloned().flatten())
            .filter(|steps| steps.len() == plan.len())
            .unwrap_or_else(|| vec![Vec::new(); plan.len()]);
        let example = nearest.and_then(|i| self.examples.get(i).cloned().flatten());
        Decision {
            plan,
            arguments,
            ranked,
            channel_scores,
            reading_scores: Vec::new(),
            example,
        }
    }

    /// `log q(plan) + w · max log p(step)`, over the plans with a scored step.
    fn combine(&self, ranked: &[Ranked], channel_scores: &[(Candidate, f32)]) -> Plan {
        let channel_log_p = self.channel_log_p(channel_scores);
        let router_log_q = self.router_log_q(ranked);
        ranked
            .iter()
            .zip(router_log_q)
            .filter_map(|(r, log_q)| {
                let log_p = likeliest_step(&r.plan, channel_scores, &channel_log_p)?;
                Some((r, log_q + self.channel_weight * log_p))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(r, _)| r.plan.clone())
            .or_else(|| ranked.first().map(|r| r.plan.clone()))
            .unwrap_or_default()
    }
}

/// A plan's steps as channel candidates: its tools, or plain conversation for the empty plan.
fn steps_of(plan: &Plan) -> Vec<Candidate> {
    if plan.is_empty() {
        vec![Candidate::Chat]
    } else {
        plan.iter()
            .map(|tool| Candidate::Tool(tool.clone()))
            .collect()
    }
}

/// A plan's channel evidence: the log-probability (`log_p`, per entry of `channel_scores`)
/// of its likeliest scored step, `None` when no step was scored. A request for two things
/// reads like requests for either (most like the one it says more about), so its first
/// step alone would undersell it.
fn likeliest_step(plan: &Plan, channel_scores: &[(Candidate, f32)], log_p: &[f32]) -> Option<f32> {
    steps_of(plan)
        .iter()
        .filter_map(|step| {
            let i = channel_scores.iter().position(|(c, _)| c == step)?;
            log_p.get(i).copied()
        })
        .reduce(f32::max)
}

/// The indices of a classifier's one-step plans (and no tool), which each part of a request
/// is read as one of.
fn one_step_classes(classifier: &ReadingClassifier) -> Vec<usize> {
    let classes = classifier.classes();
    (0..classes.len())
        .filter(|&i| classes[i].len() <= 1)
        .collect()
}

fn log_softmax(values: &[f32]) -> Vec<f32> {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = values.iter().map(|v| (v - max).exp()).sum();
    let log_sum = max + sum.ln();
    values.iter().map(|v| v - log_sum).collect()
}

/// One channel per tool (label, description, some of its examples' requests), then one for
/// plain conversation (the requests of examples without calls).
fn channels(registry: &Registry, chat_description: &str, router: &Router) -> Vec<Channel> {
    let requests = |pick: &dyn Fn(&Example) -> bool| -> Vec<String> {
        let all: Vec<&str> = registry
            .examples()
            .filter(|e| pick(e))
            .map(Example::request)
            .collect();
        spread(&all, CHANNEL_EXAMPLES, router)
    };
    let mut channels: Vec<Channel> = registry
        .tools()
        .map(|tool| Channel {
            candidate: Candidate::Tool(tool.name().to_owned()),
            title: tool.label().to_owned(),
            description: tool.description().to_owned(),
            examples: requests(&|e: &Example| e.plan().first() == Some(&tool.name())),
        })
        .collect();
    channels.push(Channel {
        candidate: Candidate::Chat,
        title: String::new(),
        description: chat_description.to_owned(),
        examples: requests(&|e: &Example| e.calls().is_empty()),
    });
    channels
}

/// At most `k` of `requests`, as unlike each other as the router can tell: the first, then
/// again and again the one least like any already taken (farthest-point selection), listed in
/// declaration order.
///
/// A channel is only as good as the requests it shows: the first few a developer declares
/// tend to be one way of asking (habits by number, say), and a request put another way (the
/// habit by name) is then unlikely after every channel but the chat one, whose examples are
/// all different. Spread examples cover the ways a tool is asked for.
fn spread(requests: &[&str], k: usize, router: &Router) -> Vec<String> {
    let mut taken: Vec<usize> = Vec::new();
    // Per request: its greatest similarity to any taken request.
    let mut closest = vec![f32::NEG_INFINITY; requests.len()];
    while taken.len() < k.min(requests.len()) {
        let next = if taken.is_empty() {
            0
        } else {
            (0..requests.len())
                .filter(|i| !taken.contains(i))
                .min_by(|&a, &b| closest[a].total_cmp(&closest[b]).then(a.cmp(&b)))
                .unwrap_or(0)
        };
        taken.push(next);
        for (i, request) in requests.iter().enumerate() {
            closest[i] = closest[i].max(router.similarity(request, requests[next]));
        }
    }
    taken.sort_unstable();
    taken.into_iter().map(|i| requests[i].to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_examples_are_spread_over_the_ways_of_asking() {
        let requests = [
            "1번 습관 연속 며칠째야?",
            "2번 습관 연속 며칠째야?",
            "3번 습관 연속 며칠째야?",
            "걷기 몇 번이나 했는지 궁금해",
        ];
        let router = Router::train(
            requests
                .iter()
                .map(|r| (*r, vec!["streak".to_owned()], 1.0)),
        );
        assert_eq!(
            spread(&requests, 2, &router),
            ["1번 습관 연속 며칠째야?", "걷기 몇 번이나 했는지 궁금해"],
            "the unlike one, not a second near copy"
        );
        assert_eq!(spread(&requests, 9, &router).len(), 4, "all when fewer");
        assert!(spread(&[], 3, &router).is_empty());
    }
}
