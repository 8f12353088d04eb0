//! The numbers that weigh the tool-choice stage's evidence against each other ([`Tuning`]).
//! They are chosen with the habit coach's evaluation (`habit-demo/examples/eval.rs`, which
//! drives the same decision as the agent); its results file records what was measured.

/// How the stage weighs its evidence; see [`Chooser`](super::Chooser)'s `with_…` methods.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Tuning {
    /// How many first steps the model scores by channel.
    pub(super) candidates: usize,
    /// The router's scores are divided by it before they become probabilities: the lower,
    /// the surer the router's best plan.
    pub(super) router_temperature: f32,
    /// Likewise for the channel scores (log-likelihoods of the request).
    pub(super) channel_temperature: f32,
    /// How much the channel scores count against the router where the model cannot read.
    pub(super) channel_weight: f32,
    /// How much the model's reading counts against the router.
    pub(super) reading_weight: f32,
    /// How much the channel scores count beside the model's reading (0: not asked for, as
    /// each turn that scores channels costs one evaluation per candidate).
    pub(super) reading_channel_weight: f32,
    /// The least probability each sentence of a two-sentence request must give its own tool
    /// for the two to be composed into a plan (above 1: never).
    pub(super) sentence_confidence: f32,
    /// The least probability the reading of the whole two-sentence request must give each of
    /// the two tools: a first sentence that only names what the second asks about reads as a
    /// request of its own, and the whole request then gives it next to nothing.
    pub(super) sentence_floor: f32,
    /// The least probability at which a plan with a destructive step stands when the request
    /// does not say that step's action.
    pub(super) destructive_confidence: f32,
    /// Whether a request's main verb — a common action's word only one tool of the app
    /// does (see `verbs.rs`) — is read as asking for that write and against another: for
    /// an app whose few examples do not say the ways people ask for each action. An app
    /// with many examples has its words in them.
    pub(super) main_verb_asks: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            candidates: 3,
            router_temperature: 0.05,
            channel_temperature: 3.0,
            channel_weight: 1.0,
            reading_weight: 1.0,
            reading_channel_weight: 0.0,
            sentence_confidence: 0.95,
            sentence_floor: 0.01,
            destructive_confidence: DESTRUCTIVE_CONFIDENCE,
            main_verb_asks: false,
        }
    }
}

impl Tuning {
    /// The tuning for an app with fewer than [`FEW_EXAMPLES`] examples per tool: every
    /// candidate's channel scored beside the reading, at full weight, and main verbs read
    /// as asks.
    pub(super) fn few_examples() -> Self {
        Self {
            candidates: usize::MAX,
            channel_temperature: 1.0,
            reading_channel_weight: 1.0,
            main_verb_asks: true,
            ..Self::default()
        }
    }
}

/// The least probability (by the model's reading, or the combined evidence where it did not
/// read) at which a plan with a destructive step stands when the request does not say that
/// step's action (see `Actions`): the plans with the step together at least as likely as
/// those without. The nearest tool to a request no tool serves is often one that writes, and
/// a classifier is often sure of the nearest tool — with three examples per tool or with
/// two hundred.
const DESTRUCTIVE_CONFIDENCE: f32 = 0.5;

/// The least probability (as for [`DESTRUCTIVE_CONFIDENCE`]) at which a plan with a
/// destructive step stands when the request does not say that step's action but asks for
/// something to be done ("…해줘", "please") and names what the step is to write — a value of
/// one of its parameters that is not an id ("쉰 날로", "완료로", "어제").
pub(super) const ASKED_VALUE_CONFIDENCE: f32 = 0.2;

/// Below this many examples per tool (the median over the tools), the model's reading is
/// helped by its channel scores ([`Tuning::few_examples`]).
pub(super) const FEW_EXAMPLES: usize = 16;

/// The log-probability the reading gives a ranked plan it has no class for (every plan the
/// router ranks is a declared example's, so only a chooser trained on other examples meets
/// one): as good as ruled out.
pub(super) const UNREAD_PLAN: f32 = -20.0;

/// The least probability the model's reading gives a plan with a tool for the conversation
/// to leave it alone: a follow-up's rules fill in where the evidence says "no tool" or is
/// unsure, and do not overrule a confident reading of a message that stands on its own.
pub(super) const SURE_PLAN: f32 = 0.5;

/// The least probability (the model's reading, or the router's ranking normalised) of the
/// plan without writes that a question for information takes instead of one with a write;
/// below it, the question is answered in words.
pub(super) const QUESTION_PLAN: f32 = 0.2;

/// The least probability each part of a request must give its own step — the model's
/// reading of the part and the router's ranking of it, together — for a declared two-step
/// plan to be composed from the parts.
pub(super) const PART_CONFIDENCE: f32 = 0.8;

/// The fewest words of a part the reading composes from: a one-word part ("…보여주고 |
/// 체크") can ask for a step.
pub(super) const PART_WORDS: usize = 1;

/// Example requests shown per channel.
pub(super) const CHANNEL_EXAMPLES: usize = 8;

/// How much a background request counts as an example of a request needing no tool.
pub(super) const BACKGROUND_WEIGHT: f32 = 0.0;

/// How much a tool's label counts as an example of its use.
pub(super) const LABEL_WEIGHT: f32 = 0.5;
