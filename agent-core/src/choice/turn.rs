//! The stage's answer for one message ([`TurnPlan`]) and each step of it ([`Step`]).

use std::sync::Arc;

use super::decision::Decision;
use crate::request::Request;
use crate::tool::{Example, JournalEntry, ValueChoice, ValueSets};

/// What to do with one message: the [`Decision`] (the tools in order, or none, and the
/// evidence), the values the first step may take, and the worked example to show before an
/// answer in words. Each step comes from [`Chooser::step`](super::Chooser::step).
#[derive(Debug, Clone)]
pub struct TurnPlan {
    /// The tools chosen, and why.
    pub decision: Decision,
    pub(super) request: Request,
    /// The values the request leaves each restricted parameter this turn, unordered.
    pub(super) current: ValueSets,
    /// The same, ordered by how much each looks like the request: the first step's values.
    pub(super) first: Arc<ValueSets>,
    /// The first step's parameters given a value by the conversation, which its call must
    /// write.
    pub(super) carried: Vec<String>,
    model_decides: bool,
    /// The journaled call the request asks to undo.
    undo: Option<JournalEntry>,
    /// Steps added for the other members of a list the request names (see
    /// [`Chooser::repeat_for_list`](super::Chooser::repeat_for_list)): the step, its
    /// parameter, and the one value it takes.
    pub(super) forced: Vec<(usize, String, ValueChoice)>,
}

impl TurnPlan {
    pub(super) fn new(
        request: Request,
        decision: Decision,
        current: ValueSets,
        first: ValueSets,
        model_decides: bool,
    ) -> Self {
        Self {
            decision,
            request,
            current,
            first: Arc::new(first),
            carried: Vec::new(),
            model_decides,
            undo: None,
            forced: Vec::new(),
        }
    }

    /// The plan to undo `entry`, the call the request asks to take back.
    pub(super) fn with_undo(mut self, entry: JournalEntry) -> Self {
        self.undo = Some(entry);
        self
    }

    /// The journaled call the request asks to take back ("방금 거 취소해줘", "undo that"):
    /// the newest call that may still be undone. Then the plan calls no tool; the agent
    /// asks [`Dispatcher::undo`](crate::Dispatcher::undo) instead.
    pub fn undo(&self) -> Option<&JournalEntry> {
        self.undo.as_ref()
    }

    /// The plan with `carried`: parameters of the first step the conversation gave a value.
    pub(super) fn with_carried(mut self, carried: Vec<String>) -> Self {
        self.carried = carried;
        self
    }

    /// The request's text.
    pub fn request(&self) -> &str {
        self.request.text()
    }

    /// Whether no stage decides and the model chooses every turn itself
    /// ([`Strategy::Model`](super::Strategy::Model)): then the plan is empty and only
    /// [`values`](Self::values) apply.
    pub fn model_decides(&self) -> bool {
        self.model_decides
    }

    /// The values restricted parameters may take before any step ran (tool → parameter →
    /// choices), those most like the request first.
    pub fn values(&self) -> &Arc<ValueSets> {
        &self.first
    }

    /// The worked example to show right before the request when the plan is to answer in
    /// words: the declared example nearest to the request, if it needs no tool and has an
    /// answer — so the answer the model imitates is the fitting one (a greeting's, not a
    /// thank-you's).
    pub fn shot(&self) -> Option<&Example> {
        self.decision
            .example
            .as_ref()
            .filter(|e| e.calls().is_empty() && e.answer_text().is_some())
    }
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Step {
    /// Call `tool`: the model writes its arguments.
    Call {
        /// The tool.
        tool: String,
        /// What each restricted parameter may take (tool → parameter → choices), those the
        /// request and the results so far point at first.
        values: Arc<ValueSets>,
        /// Arguments the call must write even where its schema leaves them optional.
        require: Vec<String>,
    },
    /// `tool` cannot be called now: a parameter it requires has nothing to choose from (no
    /// habit yet for a habit id). The call could only name something that does not exist.
    Unavailable {
        /// The tool.
        tool: String,
        /// Its label.
        label: String,
        /// The label of the parameter with nothing to choose from.
        param: String,
    },
}
