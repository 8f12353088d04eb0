//! [`Chooser`]: the tool-choice stage for one registry, and its one question per message —
//! [`plan`](Chooser::plan): what to do with this request, given what the model can tell.

use std::sync::Arc;

use serde_json::Value;

use super::actions::Actions;
use super::background::Background;
use super::combine::{Weigher, best, steps_of};
use super::conversation::Conversation;
use super::decision::{Candidate, Decision, Strategy};
use super::evidence::Evidence;
use super::reading::ReadingClassifier;
use super::router::{Plan, Ranked, Router};
use super::training::Training;
use super::tuning::{ASKED_VALUE_CONFIDENCE, FEW_EXAMPLES, QUESTION_PLAN, SURE_PLAN, Tuning};
use super::turn::{Step, TurnPlan};
use super::{channels, values};
use crate::dispatch::Dispatcher;
use crate::registry::Registry;
use crate::request::{self, OtherScript, Request, Said};
use crate::tool::{ValueChoice, ValueSets};

/// A channel's log-likelihood of the request: a tool's, or no tool's.
type ChannelScore = (Candidate, f32);

/// The tool-choice stage for one registry; see the [module doc](crate::choice).
#[derive(Debug, Clone)]
pub struct Chooser {
    training: Training,
    /// What each tool's action is asked for with.
    actions: Actions,
    /// The destructive tools.
    destructive: Vec<String>,
    /// The words of actions no tool does (from the background), in every spelling, less
    /// those a tool's cues or the values the tools take use.
    unsupported: Vec<String>,
    /// What each channel stands for, in channel order.
    candidates: Vec<Candidate>,
    reading: Reading,
    strategy: Strategy,
    tuning: Tuning,
}

/// The texts a [`Chooser::new`] over `registry` learns from: its examples' requests, then the
/// built-in background's that do not compete with its tools.
pub fn learning_texts(registry: &Registry) -> Vec<String> {
    Training::of(registry, &Background::default())
        .reading_texts
        .into_iter()
        .map(|(text, _)| text)
        .collect()
}

/// `words` (the background's actions no tool does) in every spelling, less those that are a
/// tool's cue or stand in the label of a value the tools take: a catalog item named
/// "카페인 바꾸기" makes "바꾸" no sign of an edit.
fn unsupported_words(words: &[String], actions: &Actions, registry: &Registry) -> Vec<String> {
    let mut values = String::new();
    for tool in registry.tools() {
        for (_, choices) in tool.current_values(registry.deps()) {
            for choice in choices {
                values.push_str(&choice.label.to_lowercase());
                values.push('\n');
            }
        }
    }
    let mut out: Vec<String> = words
        .iter()
        .filter(|word| !actions.is_cue(word))
        .flat_map(|word| request::spellings(word))
        .filter(|word| !values.contains(word.as_str()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The median number of one-call examples a tool of `registry` declares (its own and the
/// registry's).
fn examples_per_tool(registry: &Registry) -> usize {
    let mut counts: Vec<usize> = registry
        .tools()
        .map(|tool| {
            registry
                .examples()
                .filter(|e| e.plan().as_slice() == [tool.name()])
                .count()
        })
        .collect();
    counts.sort_unstable();
    counts.get(counts.len() / 2).copied().unwrap_or(0)
}

/// Where the reading classifier stands.
#[derive(Debug, Clone)]
enum Reading {
    /// Not trained yet: the model has not been asked to read the examples.
    Untried,
    /// Trained.
    Learned(ReadingClassifier),
    /// The model cannot read (or failed to): channels, if any, take its place.
    Unavailable,
}

impl Chooser {
    /// A chooser trained on `registry`'s examples and tools' labels, and the requests of
    /// the [built-in background](Background::builtin) that need no tool.
    pub fn new(registry: &Registry) -> Self {
        Self::with_background(registry, &Background::default())
    }

    /// A chooser trained on `registry`'s examples and tools' labels, and the requests of
    /// `background` that do not compete with its tools.
    ///
    /// An app that declares few examples per tool gets the model's channel scores beside its
    /// reading: a classifier over a handful of readings per tool tells them apart poorly,
    /// while how likely a request is after a tool's description and examples needs none.
    pub fn with_background(registry: &Registry, background: &Background) -> Self {
        let tuning = if examples_per_tool(registry) < FEW_EXAMPLES {
            Tuning::few_examples()
        } else {
            Tuning::default()
        };
        let training = Training::of(registry, background);
        let actions = Actions::of(registry);
        let unsupported = unsupported_words(&training.unsupported, &actions, registry);
        Self {
            training,
            actions,
            unsupported,
            destructive: registry
                .tools()
                .filter(|tool| tool.is_destructive())
                .map(|tool| tool.name().to_owned())
                .collect(),
            candidates: channels::candidates(registry),
            reading: Reading::Untried,
            strategy: Strategy::default(),
            tuning,
        }
    }

    /// Sets when two sentences compose a two-step plan: the least probability each sentence
    /// must give its own tool (above 1: never, default 0.95), and the least probability the
    /// reading of the whole request must give each of the two (default 0.01).
    #[must_use]
    pub fn with_sentence_composition(mut self, confidence: f32, floor: f32) -> Self {
        self.tuning.sentence_confidence = confidence;
        self.tuning.sentence_floor = floor.max(0.0);
        self
    }

    /// Sets how sure the evidence must be for a destructive step the request does not name
    /// the action of (0: as sure as for any other step; default 0.5: the plans with the step
    /// at least as likely as those without).
    #[must_use]
    pub fn with_destructive_confidence(mut self, probability: f32) -> Self {
        self.tuning.destructive_confidence = probability.clamp(0.0, 1.0);
        self
    }

    /// Sets the strategy.
    #[must_use]
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Sets how many first steps the model scores by channel (default 3), and the weights of
    /// the combination: router temperature (default 0.05), channel temperature (default 3),
    /// channel weight (default 1).
    #[must_use]
    pub fn with_tuning(
        mut self,
        candidates: usize,
        router_temperature: f32,
        channel_temperature: f32,
        channel_weight: f32,
    ) -> Self {
        self.tuning.candidates = candidates.max(1);
        self.tuning.router_temperature = router_temperature.max(1e-4);
        self.tuning.channel_temperature = channel_temperature.max(1e-4);
        self.tuning.channel_weight = channel_weight;
        self
    }

    /// Sets how much the model's reading counts against the router (default 1).
    #[must_use]
    pub fn with_reading_weight(mut self, weight: f32) -> Self {
        self.tuning.reading_weight = weight;
        self
    }

    /// Sets how much the channel scores count beside the model's reading (default 0: a
    /// model that can read is not asked for them; each turn that scores them costs one
    /// evaluation of the request per candidate).
    #[must_use]
    pub fn with_reading_channels(mut self, weight: f32) -> Self {
        self.tuning.reading_channel_weight = weight.max(0.0);
        self
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The router.
    pub fn router(&self) -> &Router {
        &self.training.router
    }

    /// The trained reading classifier, if any.
    pub fn reading(&self) -> Option<&ReadingClassifier> {
        match &self.reading {
            Reading::Learned(classifier) => Some(classifier),
            _ => None,
        }
    }

    /// Whether the chooser would use the model's reading and has not yet asked for it: then
    /// [`reading_texts`](Self::reading_texts) are to be read and passed to
    /// [`learn`](Self::learn) (as [`prepare`](Self::prepare) does).
    pub fn wants_reading(&self) -> bool {
        matches!(self.reading, Reading::Untried)
            && matches!(self.strategy, Strategy::Combined)
            && !self.training.reading_texts.is_empty()
    }

    /// The texts the reading classifier learns from: the declared examples' requests.
    pub fn reading_texts(&self) -> Vec<String> {
        self.training
            .reading_texts
            .iter()
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Trains the reading classifier on the model's `vectors` of
    /// [`reading_texts`](Self::reading_texts), in that order; `None` (the model cannot
    /// read) or vectors that do not fit leave the chooser without it for good.
    pub fn learn(&mut self, vectors: Option<&[Vec<f32>]>) {
        let plans: Vec<Plan> = self
            .training
            .reading_texts
            .iter()
            .map(|(_, p)| p.clone())
            .collect();
        let weights = &self.training.reading_weights;
        self.reading =
            match vectors.and_then(|v| ReadingClassifier::train_weighted(v, &plans, weights)) {
                Some(classifier) => Reading::Learned(classifier),
                None => Reading::Unavailable,
            };
    }

    /// Readies the chooser before its first request, which otherwise does it: where the
    /// model can read, it reads the declared examples and the chooser learns from them —
    /// once; a model that cannot read leaves the chooser without.
    ///
    /// # Errors
    /// Whatever `evidence` fails with; a reading the model cannot give is not an error.
    pub async fn prepare<E: Evidence>(&mut self, evidence: &mut E) -> Result<(), E::Error> {
        if self.wants_reading() {
            let texts = self.reading_texts();
            let vectors = evidence.read(&texts).await?;
            self.learn(vectors.as_deref());
        }
        Ok(())
    }

    /// The one question per message: what to do with `text`, for a caller who may use
    /// `tools` (their value providers are asked for what each parameter may take now). A
    /// chooser that has not been [prepared](Self::prepare) decides without the model's
    /// reading.
    ///
    /// The answer is the whole plan for the turn ([`TurnPlan`]): the tools to call in
    /// order, or none; for the first step, the values each parameter may take and the
    /// arguments the call must write ([`step`](Self::step) gives each later one from the
    /// results before it); the worked example to show before an answer in words; and the
    /// evidence the choice was made on. The model is asked for evidence as the strategy
    /// needs: its reading of the request and of its parts, or its channel scores.
    ///
    /// Two adjustments read the request against the chosen tool's parameters: a one-step
    /// plan is made once per value the request writes for a required parameter ("1번이랑
    /// 3번 오늘 완료" is two calls) where the examples declare such a plan; and a one-step
    /// plan becomes no tool where the router's best plan is none and the call would ask
    /// nothing the request said ("의지력이 약한 사람도 바꿀 수 있나요?").
    ///
    /// # Errors
    /// Whatever `evidence` fails with.
    pub async fn plan<E: Evidence>(
        &self,
        text: &str,
        tools: &Dispatcher,
        evidence: &mut E,
    ) -> Result<TurnPlan, E::Error> {
        self.plan_in(text, &Conversation::new(), tools, evidence)
            .await
    }

    /// [`plan`](Self::plan) for a message of an ongoing `conversation` (the calls of its
    /// earlier turns, see [`Conversation`]): an elliptical follow-up ("3번은?") continues the
    /// last tool, a place in a list ("두 번째 거") is that item, and a parameter the message
    /// does not name keeps the value the conversation is about. With an empty conversation
    /// it is [`plan`](Self::plan).
    ///
    /// Before any of that, a message that asks to take back the last action ("방금 거
    /// 취소해줘", "undo that") while the journal holds a call it may undo is planned as that
    /// undo ([`TurnPlan::undo`]) — in every app, whatever its examples; with nothing to undo
    /// it is chosen for like any message.
    ///
    /// # Errors
    /// Whatever `evidence` fails with.
    pub async fn plan_in<E: Evidence>(
        &self,
        text: &str,
        conversation: &Conversation,
        tools: &Dispatcher,
        evidence: &mut E,
    ) -> Result<TurnPlan, E::Error> {
        let request = Request::new(text);
        let mut current = values::narrowed(tools, &request);
        let mut first = current.clone();
        values::rank(&mut first, self.router(), &request, None);
        if request.asks_undo()
            && let Some(entry) = tools.last_undoable()
        {
            let decision = self.decision(Vec::new(), Vec::new(), Vec::new());
            return Ok(TurnPlan::new(request, decision, current, first, false).with_undo(entry));
        }
        if self.strategy == Strategy::Model {
            let decision = self.decision(Vec::new(), Vec::new(), Vec::new());
            return Ok(TurnPlan::new(request, decision, current, first, true));
        }
        let reading = if self.reads() {
            let texts = self.texts_to_read(&request);
            evidence.read(&texts).await?
        } else {
            None
        };
        let ranked = self.router().rank(text);
        let wanted = self.channels_to_score(&ranked);
        let scores = if wanted.is_empty() {
            None
        } else {
            evidence.score(text, &wanted).await?
        };
        let weighed = self.weigher().weigh(
            &request,
            &ranked,
            &wanted,
            scores.as_deref(),
            reading.as_deref(),
        );
        let sureness = if weighed.reading_scores.is_empty() {
            &weighed.scores
        } else {
            &weighed.reading_scores
        };
        let trace = Trace::new(text);
        trace.stage("weighed", &[], &weighed.plan);
        let plan = trace.of("composed_by_cues", weighed.plan.clone(), |plan| {
            self.composed_by_cues(&plan, &request, (&current, tools))
                .unwrap_or(plan)
        });
        let plan = trace.of("asked_for", plan, |plan| {
            self.asked_for(plan, &weighed.scores, sureness, &request, (&current, tools))
        });
        let plan = trace.of("doable", plan, |plan| self.doable(plan, &request));
        let plan = trace.of("asked_by_words", plan, |plan| {
            self.asked_by_words(plan, sureness, &request, &current, tools)
        });
        let plan = trace.of("kept_to_main_action", plan, |plan| {
            let evidence = (sureness.as_slice(), weighed.channel_scores.as_slice());
            self.kept_to_main_action(plan, evidence, &request, &current, tools)
        });
        let plan = trace.of("named_by_words", plan, |plan| {
            self.named_by_words(plan, &request)
        });
        let plan = trace.of("reported_done", plan, |plan| {
            self.reported_done(plan, &request, &current, tools)
        });
        let plan = trace.of("about_nothing_here", plan, |plan| {
            self.about_nothing_here(plan, sureness, &request)
        });
        let mut decision = self.decision(plan, ranked, weighed.channel_scores);
        decision.reading_scores = weighed.reading_scores;
        let before = decision.plan.clone();
        let decision = self.repeat_for_values(decision, &request, &current, tools);
        trace.stage("repeat_for_values", &before, &decision.plan);
        // A call the request names nothing for may still be what the conversation is about.
        let full = (!conversation.is_empty()).then(|| tools.current_values());
        let supplied = full.as_ref().is_some_and(|full| {
            decision.plan.first().is_some_and(|tool| {
                let required = tools
                    .get(tool)
                    .map(|t| t.required_parameters())
                    .unwrap_or_default();
                let mut scratch = current.clone();
                !conversation
                    .carry(tool, &required, &request, &mut scratch, full)
                    .is_empty()
            })
        });
        let before = decision.plan.clone();
        let decision = if supplied {
            decision
        } else {
            self.restrain(decision, &current, &request, tools)
        };
        trace.stage("restrain", &before, &decision.plan);
        let before = decision.plan.clone();
        let (decision, carried) = match &full {
            Some(full) => self.follow(
                decision,
                conversation,
                &request,
                tools,
                full,
                (&mut current, &mut first),
            ),
            None => (decision, Vec::new()),
        };
        trace.stage("follow", &before, &decision.plan);
        let before = decision.plan.clone();
        let decision = self.answers_questions(decision, &request);
        trace.stage("answers_questions", &before, &decision.plan);
        // What the conversation gave the replaced plan's first step is not the new one's.
        let carried = if decision.plan == before {
            carried
        } else {
            Vec::new()
        };
        Ok(TurnPlan::new(request, decision, current, first, false).with_carried(carried))
    }

    /// Whether `text` asks by its words for the action of one of the app's tools (one of
    /// its cues, not negated): a request that wanted something done, whatever was planned.
    pub(crate) fn asks_an_action(&self, text: &str) -> bool {
        let request = Request::new(text);
        self.tools()
            .any(|tool| self.actions.said(tool, &request) == Said::Asked)
    }

    /// `decision` read with the `conversation` (see [`Conversation`]), in this order — the
    /// first two only where the model's reading of the plan is not sure of a tool (the first
    /// also where it is, when the message says neither a planned step's action nor a value
    /// of one that is not an id; the second also where it is, when the message's main verb
    /// asks for that tool's action and says nothing of the planned steps'): an elliptical
    /// follow-up that asks for no other tool's action by a common action's word, names
    /// nothing another tool alone shows, and does not say not to, continues the last tool;
    /// a message whose words ask for the action of a tool the conversation is about (its
    /// main verb's tool, or else the one tool whose cues it says; see
    /// [`Conversation::is_about`]) is that tool's call; a
    /// place in a list makes the first step a tool that takes the item; then the first
    /// step's values are narrowed by the conversation (`current`, and `first`, its ranked
    /// copy). Returns the parameters the first call must write for that.
    fn follow(
        &self,
        decision: Decision,
        conversation: &Conversation,
        request: &Request,
        tools: &Dispatcher,
        full: &ValueSets,
        (current, first): (&mut ValueSets, &mut ValueSets),
    ) -> (Decision, Vec<String>) {
        let trace = Trace::new(request.text());
        let mut decision = decision;
        // A message the model reads confidently as a call stands on its own (a reading of a
        // script the app's examples seldom use is not sure).
        let sure = !decision.plan.is_empty()
            && !self.training.seldom_script(request.text())
            && decision
                .reading_scores
                .iter()
                .find(|(plan, _)| *plan == decision.plan)
                .is_some_and(|(_, log_probability)| log_probability.exp() >= SURE_PLAN);
        let continued = conversation.continued(request, full);
        // A sure reading of a few words that name only which thing and say no planned
        // step's action ("아니 2번 말고 1번" after a streak, read as two check-ins) is a
        // reading of the words without the conversation; a value that is not an id ("완료",
        // "했어요", "오늘") says what the planned step is to write.
        let unsaid = continued.is_some()
            && decision.plan.iter().all(|step| {
                self.actions.said_as_action(step, request) != Said::Asked
                    && !names_more_than_ids(full, step, request)
            });
        if (!sure || unsaid)
            && let Some(tool) = continued
            && tools.get(tool).is_some()
            && decision.plan.as_slice() != [tool]
        {
            // Another tool's action asked for by a common action's word, or what another
            // tool alone shows ("독서 스트릭") named; a word another tool's examples often
            // use ("아니" of corrections) asks for nothing.
            let asks_another = self
                .tools()
                .any(|name| name != tool && self.actions.asks_action(name, request))
                || self
                    .actions
                    .named_tool(request)
                    .is_some_and(|named| named != tool);
            if !asks_another && self.actions.said(tool, request) != Said::Refused {
                trace.stage("follow: continued", &decision.plan, &[tool.to_owned()]);
                decision = self.replan(decision, vec![tool.to_owned()]);
            }
        }
        // A message asking by its words for the action of a tool the conversation gives a
        // value to, or whose value it names as the one the conversation is about ("좋아,
        // 그걸로 추가해줘" after a description), is that tool's call, whatever its first
        // words read like: the tool of its main verb (see `Actions::main_ask`), or else the
        // one tool whose cues it says.
        let about = |name: &str| {
            tools.get(name).is_some_and(|definition| {
                let required = definition.required_parameters();
                conversation.is_about(name, &required, request, full)
            })
        };
        let by_verb = self.actions.main_ask(request).filter(|name| about(name));
        // The main verb of what the conversation is about says the action more surely than
        // a reading of the message's other words ("그 흡연 습관 추가해줘" after a search reads
        // like the search), where it says nothing of the planned steps' own actions.
        let verb_over_reading = by_verb.is_some_and(|verb| {
            !request.asks_about()
                && !decision.plan.iter().any(|step| {
                    step == verb || self.actions.said_as_word(step, request) == Said::Asked
                })
        });
        let asked = match by_verb {
            Some(name) => Some(name.to_owned()),
            None => {
                let by_cues: Vec<&String> = self
                    .tools()
                    .filter(|name| self.actions.said(name, request) == Said::Asked)
                    .filter(|name| about(name))
                    .collect();
                match by_cues.as_slice() {
                    [name] => Some((*name).clone()),
                    _ => None,
                }
            }
        };
        if (!sure || verb_over_reading)
            && let Some(tool) = asked
            && !decision.plan.contains(&tool)
        {
            trace.stage(
                "follow: asked about",
                &decision.plan,
                std::slice::from_ref(&tool),
            );
            decision = self.replan(decision, vec![tool]);
        }
        // A place in a list ("두 번째 거 자세히") is an item a tool takes: the first step must be
        // one whose parameters can take it — the likeliest such one-step plan if the chosen
        // one cannot (a destructive one only where the request asks for its action).
        if let Some(item) = conversation.pointed(request) {
            let takes = |tool: &String| {
                full.get(tool).is_some_and(|params| {
                    params
                        .values()
                        .any(|choices| choices.iter().any(|c| item.contains(&&c.value)))
                })
            };
            if !decision.plan.first().is_some_and(takes) {
                let mut plans: Vec<(Plan, f32)> = if decision.reading_scores.is_empty() {
                    decision
                        .ranked
                        .iter()
                        .map(|r| (r.plan.clone(), r.score))
                        .collect()
                } else {
                    decision.reading_scores.clone()
                };
                plans.sort_by(|a, b| b.1.total_cmp(&a.1));
                let taking = plans.into_iter().map(|(plan, _)| plan).find(|plan| {
                    plan.len() == 1
                        && takes(&plan[0])
                        && match self.actions.said(&plan[0], request) {
                            Said::Asked => true,
                            Said::Refused => false,
                            Said::Nothing => !self.destructive.contains(&plan[0]),
                        }
                });
                if let Some(plan) = taking {
                    trace.stage("follow: pointed", &decision.plan, &plan);
                    decision = self.replan(decision, plan);
                }
            }
        }
        let Some(tool) = decision.plan.first() else {
            return (decision, Vec::new());
        };
        let required = tools
            .get(tool)
            .map(|t| t.required_parameters())
            .unwrap_or_default();
        let carried = conversation.carry(tool, &required, request, current, full);
        for param in &carried {
            if let Some(choices) = current.get(tool).and_then(|p| p.get(param)).cloned() {
                first
                    .entry(tool.clone())
                    .or_default()
                    .insert(param.clone(), choices);
            }
        }
        (decision, carried)
    }

    /// Step `index` of `plan`: the tool with the values its parameters may take and the
    /// arguments it must write, or why it cannot be called (a required parameter with
    /// nothing to choose from). The first step's values are those of the plan; a later
    /// step's are asked for again (what the earlier steps changed — a habit just added — is
    /// there to choose), ordered by `results` (the previous step's results, as sent to the
    /// model: the id to add is the one the search just found) with the values the turn's
    /// calls so far `written` (tool, arguments) behind the others. `None` past the last
    /// step.
    pub fn step(
        &self,
        plan: &TurnPlan,
        index: usize,
        tools: &Dispatcher,
        results: &[&Value],
        written: &[(String, Value)],
    ) -> Option<Step> {
        let tool = plan.decision.plan.get(index)?;
        // A later step asks the providers again, once: what the earlier steps changed.
        let all = (index > 0).then(|| tools.current_values());
        // The one value a step added for a list takes; a provider's value is looked up again
        // by its label, as an earlier step may have renumbered what it names (a list's
        // positions after a removal).
        let forced =
            plan.forced
                .iter()
                .find(|(step, ..)| *step == index)
                .map(|(_, param, choice)| {
                    let now = all
                        .as_ref()
                        .and_then(|all| all.get(tool))
                        .and_then(|params| params.get(param))
                        .and_then(|choices| choices.iter().find(|c| c.label == choice.label))
                        .unwrap_or(choice);
                    (param, now.clone())
                });
        let current = match all {
            None => plan.current.clone(),
            Some(all) => values::narrowed_from(tools, all, &plan.request),
        };
        if let Some(param) = values::nothing_to_choose(tools, tool, &current) {
            let label = tools
                .get(tool)
                .map_or_else(|| tool.clone(), |t| t.label().to_owned());
            return Some(Step::Unavailable {
                tool: tool.clone(),
                label,
                param,
            });
        }
        let allowed = if index == 0 {
            Arc::clone(&plan.first)
        } else {
            let mut context = String::new();
            for result in results {
                context.push_str(&result.to_string());
                context.push('\n');
            }
            let mut ranked = current.clone();
            values::rank(&mut ranked, self.router(), &plan.request, Some(&context));
            values::demote_written(&mut ranked, written);
            Arc::new(ranked)
        };
        let mut require = values::required(
            tools,
            tool,
            plan.decision.arguments.get(index),
            &current,
            &plan.request,
        );
        let allowed = match forced {
            Some((param, choice)) => {
                let mut allowed = Arc::unwrap_or_clone(allowed);
                allowed
                    .entry(tool.clone())
                    .or_default()
                    .insert(param.clone(), vec![choice]);
                if !require.contains(param) {
                    require.push(param.clone());
                }
                Arc::new(allowed)
            }
            None => allowed,
        };
        if index == 0 {
            for param in &plan.carried {
                if !require.contains(param) {
                    require.push(param.clone());
                }
            }
        }
        Some(Step::Call {
            tool: tool.clone(),
            values: allowed,
            require,
        })
    }

    /// Adds a call of a one-step plan's tool for each other member of a list the request
    /// names where the first call took one ("서울이랑 부산 날씨 알려줘" written for 서울, "weather
    /// in Seoul and in Busan" for Seoul, "1번이랑 6번 지워줘" for 1): the tool takes one value,
    /// the person asked for several. Read off the first call as `written` (tool, arguments):
    /// a required parameter whose value is one member of a list the request writes — a
    /// free-text one copied from the request (the other members not only words of what the
    /// tool is about), or one with a value provider (each other member naming one other of
    /// its values, by number or by words). A call that took the whole list ("chicken and
    /// rice" as one search) is one call. Each added step takes its member and nothing else
    /// for that parameter; at most `most` are added. Returns how many were.
    pub fn repeat_for_list(
        &self,
        plan: &mut TurnPlan,
        tools: &Dispatcher,
        written: &[(String, Value)],
        most: usize,
    ) -> usize {
        let ([tool], [(called, args)]) = (plan.decision.plan.as_slice(), written) else {
            return 0;
        };
        let tool = tool.clone();
        let Some(definition) = tools.get(&tool).filter(|_| *called == tool) else {
            return 0;
        };
        let text = plan.request.text();
        let others = definition
            .required_parameters()
            .into_iter()
            .find_map(|param| {
                let value = args.get(param)?;
                let members: Vec<ValueChoice> = if definition.has_value_provider(param) {
                    let choices = plan.current.get(&tool).and_then(|p| p.get(param))?;
                    others_named(text, value, choices)
                } else if definition.copied_parameters().any(|c| c == param) {
                    request::conjuncts(text, value.as_str()?)
                        .into_iter()
                        .filter(|member| !super::arguments::names_only_topic(definition, member))
                        .map(|member| ValueChoice::new(member.as_str(), member.as_str()))
                        .collect()
                } else {
                    return None;
                };
                let members: Vec<ValueChoice> = members.into_iter().take(most).collect();
                (!members.is_empty()).then(|| (param.to_owned(), members))
            });
        let Some((param, members)) = others else {
            return 0;
        };
        let nearest = plan.decision.arguments.first().cloned();
        for member in &members {
            let step = plan.decision.plan.len();
            plan.decision.plan.push(tool.clone());
            if let Some(nearest) = &nearest {
                plan.decision.arguments.push(nearest.clone());
            }
            plan.forced.push((step, param.clone(), member.clone()));
        }
        members.len()
    }

    /// Whether the reading classifier is trained (then each request is read too).
    fn reads(&self) -> bool {
        matches!(self.reading, Reading::Learned(_)) && matches!(self.strategy, Strategy::Combined)
    }

    /// The texts to read for `request`: the request, then — where some declared plan has
    /// two different steps — the two parts of the request at each place it splits between
    /// words (left, right, left, right, …), then the two parts at each place one sentence
    /// ends and another begins.
    fn texts_to_read(&self, request: &Request) -> Vec<String> {
        let mut texts = vec![request.text().to_owned()];
        let weigher = self.weigher();
        for (left, right) in weigher
            .word_splits(request)
            .into_iter()
            .chain(request.clause_splits())
        {
            texts.push(left);
            texts.push(right);
        }
        texts
    }

    /// The channels whose scores would change the decision for this ranking: the first
    /// steps of the router's best plans, in channel order. Empty when the strategy does not
    /// use channel scores, or the model's reading is to decide without them.
    fn channels_to_score(&self, ranked: &[Ranked]) -> Vec<usize> {
        match self.strategy {
            Strategy::Router | Strategy::Model => Vec::new(),
            Strategy::Channels => (0..self.candidates.len()).collect(),
            Strategy::Combined
                if matches!(self.reading, Reading::Learned(_))
                    && self.tuning.reading_channel_weight <= 0.0 =>
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
                        if wanted.len() == self.tuning.candidates {
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
            .filter_map(|candidate| self.candidates.iter().position(|c| c == candidate))
            .collect()
    }

    /// The names of the tools the chooser chooses among, in channel order.
    fn tools(&self) -> impl Iterator<Item = &String> {
        self.candidates.iter().filter_map(|c| match c {
            Candidate::Tool(name) => Some(name),
            Candidate::Chat => None,
        })
    }

    fn weigher(&self) -> Weigher<'_> {
        Weigher {
            router: &self.training.router,
            classifier: self.reading(),
            tuning: &self.tuning,
            strategy: self.strategy,
            candidates: &self.candidates,
        }
    }

    /// A decision for `plan`, with that plan's nearest example (where the router ranked it)
    /// and the arguments it writes.
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
            .and_then(|i| self.training.example_arguments.get(i).cloned().flatten())
            .filter(|steps| steps.len() == plan.len())
            .unwrap_or_else(|| vec![Vec::new(); plan.len()]);
        let example = nearest.and_then(|i| self.training.examples.get(i).cloned().flatten());
        Decision {
            plan,
            arguments,
            ranked,
            channel_scores,
            reading_scores: Vec::new(),
            example,
        }
    }

    /// `decision` with `plan` instead of its own, with that plan's nearest example.
    fn replan(&self, decision: Decision, plan: Plan) -> Decision {
        let reading_scores = decision.reading_scores;
        let mut replanned = self.decision(plan, decision.ranked, decision.channel_scores);
        replanned.reading_scores = reading_scores;
        replanned
    }

    /// `plan`, if the request asks for each destructive step of it, or the likeliest plan of
    /// `scores` that it does ask for (none at all failing that). A destructive step stands
    /// only where the request says its action (one of its [cues](Actions)), or — where its
    /// main verb is not that of a tool that only reads — the evidence
    /// for it is strong (the probability by `sureness` — the model's reading where it read
    /// the request, the combined scores otherwise — of the plans with that step at least the
    /// tuning's destructive confidence, see
    /// [`with_destructive_confidence`](Self::with_destructive_confidence), or
    /// [`ASKED_VALUE_CONFIDENCE`] where the request asks for something to be done, names a
    /// value the step writes that is not an id, and says no other destructive tool's
    /// action); and never where
    /// the request says not to, where it asks *about* an action rather than for it
    /// (`Request::asks_about`), where it says not to do another action and does not say
    /// this one, or — for a first step that completes, deletes, changes or
    /// cancels something — where it leaves a required parameter with a provider unnamed (a
    /// message not in Korean over values labelled in Korean is given the benefit of the doubt,
    /// see [`OtherScript`]). After a refusal the other plan must say each step's action too.
    /// The nearest tool to a request for something the app cannot do is often one that
    /// writes; a person should not be asked to confirm an action they never asked for.
    fn asked_for(
        &self,
        plan: Plan,
        scores: &[(Plan, f32)],
        sureness: &[(Plan, f32)],
        request: &Request,
        (values, tools): (&ValueSets, &Dispatcher),
    ) -> Plan {
        // The probability that the request asks for `step` at all: that of every plan with it.
        let probability = |step: &String| -> f32 {
            if sureness.is_empty() {
                return 1.0;
            }
            probability_of(sureness, |p| p.contains(step))
        };
        // A message that asks about an action ("미루는 버릇 어떻게 고쳐?", "그냥 물어본 거야")
        // is a question: its words are a topic, not an ask, and nothing is written for it.
        let about = request.asks_about();
        // A first step that completes, deletes, changes or cancels something acts on what the
        // request names: without a value of each required parameter with a provider ("3번
        // 제목을 바꿔줘" names no new due date) it would act on a guess.
        let named = |step: &String| {
            !self.actions.acts_on_what_exists(step)
                || tools.get(step).is_none_or(|definition| {
                    request::names_every_required(
                        definition,
                        values.get(step),
                        request,
                        OtherScript::Named,
                    )
                })
        };
        // A request whose main verb is that of a tool that only reads ("Show me my streak",
        // "목록 보여줘") asks to be shown something: a destructive step whose action it does
        // not say is not what it asks for, however near its examples are.
        let main_ask = self.actions.main_ask(request);
        let reads = main_ask.is_some_and(|tool| !self.destructive.iter().any(|d| d == tool));
        // A request that says not to do one action ("don't put them on the list", "기록은
        // 하지 마") asks for no other write it does not say either: what is near it is the
        // refused action's neighbour.
        let refuses = self
            .destructive
            .iter()
            .any(|tool| self.actions.said(tool, request) == Said::Refused);
        // One that asks to leave things as they are ("지울까 하다가 그냥 두기로 했어. 건드리지
        // 마") asks for no write at all, whatever action it mentions on the way.
        let leaves_alone = request.leaves_alone();
        // One that asks for something to be done and names what a step is to write ("어제
        // 독서는 쉰 날로 남겨줘") is evidence for that step, where the reading gives it some.
        let asks_to_do = request.asks_to_do();
        // Unless its words ask for another write ("그 날 기록 수정해 주세요" asks for a
        // change, not a new entry).
        let asked_with_value = |step: &String| {
            asks_to_do
                && names_more_than_ids(values, step, request)
                && !self
                    .destructive
                    .iter()
                    .any(|other| other != step && self.actions.said(other, request) == Said::Asked)
        };
        // In an app of few examples (`Tuning::main_verb_asks`), one that says the action of
        // another write as its word ("도서관 책 반납 그거 삭제해줘" near a completion's
        // examples), or whose main verb is that write's ("3번 끝냄 체크해줘" near a delete's
        // examples), asks for that write, not this one.
        let asks_another_write = |step: &String| {
            self.tuning.main_verb_asks
                && self.destructive.iter().any(|other| {
                    other != step
                        && (self.actions.said_as_word(other, request) == Said::Asked
                            || main_ask == Some(other.as_str()))
                })
        };
        // In an app of few examples, a request whose main verb is a word of the action this
        // tool alone does asks for it, though the tool's examples never say the word ("mark
        // that task as done" where they say "완료했어") — unless it names what another tool
        // is about and nothing this one is ("카페 예산 그냥 없애줘", "Remove my cafe budget"
        // to an app whose delete removes expenses).
        let main_asks = |step: &String| {
            self.tuning.main_verb_asks
                && main_ask == Some(step.as_str())
                && !self.actions.about_another(step, request)
                && !self.actions.names_another_tools_thing(step, request)
        };
        let asked = |plan: &Plan| {
            plan.iter()
                .enumerate()
                .filter(|(_, step)| self.destructive.contains(step))
                .all(|(index, step)| {
                    // In a Korean plan of several steps, a step is asked where the request
                    // says its action's word, though other tools' examples use the word too
                    // ("2번 완료하고 남은 거 보여줘").
                    let said = match self.actions.said(step, request) {
                        Said::Nothing
                            if plan.len() > 1
                                && request.is_korean()
                                && self.actions.asks_action_loosely(step, request) =>
                        {
                            Said::Asked
                        }
                        Said::Nothing if main_asks(step) => Said::Asked,
                        said => said,
                    };
                    !about
                        && !leaves_alone
                        && (index > 0 || named(step))
                        && match said {
                            Said::Asked => true,
                            Said::Refused => false,
                            Said::Nothing => {
                                !reads
                                    && !refuses
                                    && !asks_another_write(step)
                                    && (probability(step) >= self.tuning.destructive_confidence
                                        || (probability(step) >= ASKED_VALUE_CONFIDENCE
                                            && asked_with_value(step)))
                            }
                        }
                })
        };
        if asked(&plan) {
            return plan;
        }
        // What is left is only what the request asks for by its words ("don't add it, just
        // show me the list"), or words: the evidence's first choice had nothing in the
        // request to stand on, and its neighbours (a search for "3번 제목을 바꿔줘" where no
        // tool changes a title, a timer for "never mind the eggs") are no more asked for.
        // A write asked for with what it is to write ("오늘 걷기 완료로 찍어줘" read as a
        // check-in, where the evidence's first choice was a correction) says its action too.
        let says_each = |plan: &Plan| {
            plan.iter().all(|step| {
                self.actions.said(step, request) == Said::Asked
                    || main_asks(step)
                    || (self.destructive.contains(step) && asked_with_value(step))
            })
        };
        let others: Vec<(Plan, f32)> = scores
            .iter()
            .filter(|(p, _)| asked(p) && says_each(p))
            .cloned()
            .collect();
        best(&others).unwrap_or_default()
    }

    /// The two-step plan a request of two clauses asks for by the words of its tools'
    /// actions, where the evidence chose one of the two tools: split where one clause joins
    /// the next, the first part says the action of one tool alone and the rest the action of
    /// another alone ("끝난 일 목록 보여주고, 세탁소 코트 건은 지워줘" — a list, then a
    /// delete). An app that declares few examples declares no two-step ones; its parts are too
    /// few words for the reading. A part asks for the tool whose common action's words it
    /// says (see `verbs.rs`: "보여줘" shows, "완료" completes) where it says one; only a
    /// part that says no action word is read by the tools' other cues — the nouns of a
    /// label name what a tool acts on, so "내일 마감인 거 보여줘" asks to be shown things,
    /// not to change a due date. Adding a step the evidence did not choose is the stronger
    /// move, so here a cue counts only where it starts a word: the "해줘" of "삭제해줘" is
    /// no ask for the tool whose examples say "해줘". In a Korean part, an action's word
    /// the tool alone does counts even where other tools' examples use it ("보여줘" of the
    /// list where the search's examples say "찾아서 보여줘"), and a part that writes nothing
    /// and names one reading tool by its own words asks for that tool ("이번 달 요약
    /// 보여줘" asks for the summary, not the list); a word of a reading tool's label that
    /// names what it shows ("목록에 있었나?") is no ask there. In an app of few examples,
    /// where each part of a Korean request says the words of one common action its tool
    /// alone does, as words ("2번 마감 모레로 바꾸고 우유 사기는 지워"), the two tools are
    /// the plan whichever tool the evidence chose. And where the evidence chose a write,
    /// a first part that writes what it needs (a required quantity, or the thing it acts on)
    /// and asks for no other write, followed by a part asking for one view, is the write
    /// and then the view ("식비 예산 40만원으로 바꾸고 예산 현황 보여줘"). A write's action
    /// word that names a thing by what was done to it ("완료된 거 목록 보여줘") asks for no
    /// write in a part.
    fn composed_by_cues(
        &self,
        plan: &Plan,
        request: &Request,
        (values, definitions): (&ValueSets, &Dispatcher),
    ) -> Option<Plan> {
        let [chosen] = plan.as_slice() else {
            return None;
        };
        let tools: Vec<&String> = self.tools().collect();
        // A write's action word that names a thing by what was done to it ("완료된 거
        // 보여줘", "지운 거") asks for no write.
        let names_a_thing = |tool: &String, part: &Request| {
            self.destructive.contains(tool)
                && self
                    .actions
                    .asked_at(tool, part)
                    .iter()
                    .all(|at| part.modifies_next(*at))
        };
        let asked_in = |text: &str| -> Vec<&String> {
            let part = Request::new(text);
            let by_action: Vec<&String> = tools
                .iter()
                .copied()
                .filter(|tool| self.actions.asks_action(tool, &part) && !names_a_thing(tool, &part))
                .collect();
            // Weaker: in a Korean part, an action's word the tool alone does, though other
            // tools' examples use it too ("보여줘" where the search's examples say "찾아서
            // 보여줘"). (An English part's verbs are read strictly: "finished stuff too" names
            // things, "put 4 avocados and 2 limes" splits a list.)
            let loosely: Vec<&String> = tools
                .iter()
                .copied()
                .filter(|tool| {
                    part.is_korean()
                        && self.actions.asks_action_loosely(tool, &part)
                        && !names_a_thing(tool, &part)
                })
                .collect();
            // A Korean part that asks for no write and names one of the app's views by its
            // own words asks for that view, whatever view a "보여줘" alone would be.
            let writes = by_action
                .iter()
                .chain(&loosely)
                .any(|tool| self.destructive.contains(*tool));
            if !writes
                && part.is_korean()
                && let Some(reader) = self.actions.named_reader(&part)
                && let Some(tool) = tools.iter().copied().find(|tool| *tool == reader)
            {
                return vec![tool];
            }
            if !by_action.is_empty() {
                return by_action;
            }
            if !loosely.is_empty() {
                return loosely;
            }
            // A word of a reading tool's label names what it shows ("목록" of the list in
            // "목록에 있었나?"): the place, not an ask. A write's label says its action ("기록"
            // of "지출 기록").
            tools
                .iter()
                .copied()
                .filter(|tool| {
                    let said = if self.destructive.contains(*tool) {
                        self.actions.said_as_word(tool, &part)
                    } else {
                        self.actions.said_as_action(tool, &part)
                    };
                    said == Said::Asked
                })
                .collect()
        };
        // Each part saying the words of one common action its tool alone does ("2번 마감
        // 모레로 바꾸고 우유 계란 사기는 그냥 지워") asks for both tools, whichever one the
        // evidence chose.
        let by_action_in = |text: &str| -> Vec<&String> {
            let part = Request::new(text);
            tools
                .iter()
                .copied()
                .filter(|tool| self.actions.asks_action(tool, &part))
                .collect()
        };
        let splits = request.clause_splits();
        splits
            .iter()
            .find_map(|(left, right)| {
                match (asked_in(left).as_slice(), asked_in(right).as_slice()) {
                    ([first], [second])
                        if first != second && (*first == chosen || *second == chosen) =>
                    {
                        Some(vec![(*first).clone(), (*second).clone()])
                    }
                    _ => None,
                }
            })
            .or_else(|| {
                // Korean only: an English clause's verb is often a part of the other's ask
                // ("log today's reading, and add a note: …").
                if !request.is_korean() || !self.tuning.main_verb_asks {
                    return None;
                }
                splits.iter().find_map(|(left, right)| {
                    match (
                        by_action_in(left).as_slice(),
                        by_action_in(right).as_slice(),
                    ) {
                        ([first], [second]) if first != second => {
                            Some(vec![(*first).clone(), (*second).clone()])
                        }
                        _ => None,
                    }
                })
            })
            .or_else(|| {
                // A write the evidence chose, then a view: the first part writes what the
                // chosen write needs (a quantity it requires, or the thing it acts on) and
                // asks for no other write; the rest asks for one reading tool alone
                // ("식비 예산 40만원으로 바꾸고 예산 현황 보여줘", "log 1,500 for the bus,
                // then show me everything I spent today").
                if !self.destructive.contains(chosen) {
                    return None;
                }
                let definition = definitions.get(chosen)?;
                let writes_for_chosen = |text: &str| {
                    let part = Request::new(text);
                    if self.actions.acts_on_what_exists(chosen) {
                        request::names_every_required(
                            definition,
                            values.get(chosen),
                            &part,
                            OtherScript::Unnamed,
                        )
                    } else {
                        request::requires_a_written_number(definition)
                            && request::writes_every_required_number(definition, part.lower())
                    }
                };
                splits.iter().find_map(|(left, right)| {
                    // The first part may name a view ("예산" of "예산 현황"), not another write.
                    let first_fits = asked_in(left)
                        .iter()
                        .all(|tool| *tool == chosen || !self.destructive.contains(*tool));
                    match asked_in(right).as_slice() {
                        [view]
                            if *view != chosen
                                && !self.destructive.contains(*view)
                                && first_fits
                                && writes_for_chosen(left)
                                && !writes_for_chosen(right) =>
                        {
                            Some(vec![chosen.clone(), (*view).clone()])
                        }
                        _ => None,
                    }
                })
            })
    }

    /// The tool the request's words ask for ([`Actions::main_ask`]) where the evidence
    /// chose no tool, or one step whose action the request does not say and the model's
    /// reading is not sure of (below [`SURE_PLAN`], or of a request in a script the app's
    /// examples seldom use, see `Training::seldom_script`): "낼까지 택배 반품 접수하는 거
    /// 적어놔줘" asks to add, whatever the nearest examples are. Not where the message asks
    /// *about* its action (how, why, what if — `Request::asks_about`), nor where it asks
    /// for an action no tool does, nor where it names what another tool is about and nothing
    /// this one is (`Actions::about_another`); a plan of two steps is the evidence's own. A
    /// destructive tool that acts on something that exists (completes, deletes, changes,
    /// cancels) is taken this way only where the request also names a value of each of its
    /// required parameters that has a provider: "바꿔" alone does not ask to change a due
    /// date when no day is named. One that adds something needs no named value ("담배 끊는
    /// 거 넣어줘": the call chooses the protocol and the level), only a number for each
    /// required number it cannot choose from a provider: "add a new category" writes no
    /// amount, so it is no ask to add an expense.
    fn asked_by_words(
        &self,
        plan: Plan,
        sureness: &[(Plan, f32)],
        request: &Request,
        values: &ValueSets,
        tools: &Dispatcher,
    ) -> Plan {
        if plan.len() > 1 || request.asks_about() {
            return plan;
        }
        let Some(asked) = self.actions.main_ask(request) else {
            return plan;
        };
        if self.asks_unsupported(request) {
            return plan;
        }
        // The action's word with the thing of another tool ("delete the recipe" to an app
        // that deletes only from a shopping list) asks for what no tool does.
        if self.actions.about_another(asked, request) {
            return plan;
        }
        let swap = match plan.first() {
            None => true,
            Some(step) if step == asked => false,
            // Only a cue that starts a word says the chosen step's action: the "해줘" of
            // "추가해줘" is no ask for the tool whose examples say "기록 해줘"; nor does a word
            // naming what the step shows ("put it on my list" names the list, and asks to add).
            Some(step) => {
                self.actions.said_as_action(step, request) != Said::Asked
                    && (probability_of(sureness, |p| *p == plan) < SURE_PLAN
                        || self.training.seldom_script(request.text()))
            }
        };
        let named = !self.destructive.iter().any(|d| d == asked)
            || tools.get(asked).is_some_and(|definition| {
                if self.actions.acts_on_what_exists(asked) {
                    request::names_every_required(
                        definition,
                        values.get(asked),
                        request,
                        OtherScript::Unnamed,
                    )
                } else {
                    request::writes_every_required_number(definition, request.lower())
                }
            });
        if swap && named {
            vec![asked.to_owned()]
        } else {
            plan
        }
    }

    /// The likeliest of the tools that do the action the request's main verb says, where
    /// several do it (`Actions::main_action_doers`) and the plan's one step, if any, is none
    /// of them and says nothing of its own: "티타임 일정을 등록해주세요" asks to add
    /// something, whichever of the app's adding tools it is — not to change or look up an
    /// event, however near those tools' words are. Not for a request that asks about
    /// something or for information, asks for what no tool does, or says not to do
    /// something; a destructive tool that acts on something that exists is taken only where
    /// the request names a value of each of its required parameters, as
    /// [`asked_by_words`](Self::asked_by_words) takes one.
    fn kept_to_main_action(
        &self,
        plan: Plan,
        (sureness, channels): (&[(Plan, f32)], &[ChannelScore]),
        request: &Request,
        values: &ValueSets,
        tools: &Dispatcher,
    ) -> Plan {
        if plan.len() > 1
            || request.asks_about()
            || request.asks_information()
            || self.asks_unsupported(request)
            || self.actions.refuses_any(request)
        {
            return plan;
        }
        let doers = self.actions.main_action_doers(request);
        if doers.len() < 2 {
            return plan;
        }
        if let Some(step) = plan.first()
            && (doers.contains(&step.as_str())
                || self.actions.said_as_action(step, request) == Said::Asked)
        {
            return plan;
        }
        let named = |doer: &str| {
            !self.destructive.iter().any(|d| d == doer)
                || !self.actions.acts_on_what_exists(doer)
                || tools.get(doer).is_some_and(|definition| {
                    request::names_every_required(
                        definition,
                        values.get(doer),
                        request,
                        OtherScript::Unnamed,
                    )
                })
        };
        doers
            .into_iter()
            .filter(|doer| named(doer))
            .map(|doer| {
                // The reading's probability of the doer alone, then the likelihood of the
                // request given its channel.
                let likely = probability_of(sureness, |p| p.as_slice() == [doer]);
                let channel = channels
                    .iter()
                    .find(|(c, _)| matches!(c, Candidate::Tool(t) if t == doer))
                    .map_or(f32::NEG_INFINITY, |(_, score)| *score);
                (doer, likely, channel)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map_or(plan, |(doer, _, _)| vec![doer.to_owned()])
    }

    /// The one tool that only reads whose own words (see `Actions::named_tool`) the request
    /// says, where the evidence chose no tool: "what's my reading streak?" asks for what
    /// `get_streak` shows, however far its letters are from the app's examples (a request in
    /// a script they seldom use above all). Not for a request that asks about something, asks
    /// for an action no tool does, or says not to do one; a tool that writes needs its action
    /// asked for ([`asked_by_words`](Self::asked_by_words)), not only its thing named.
    fn named_by_words(&self, plan: Plan, request: &Request) -> Plan {
        if !plan.is_empty()
            || request.asks_about()
            || self.asks_unsupported(request)
            || self.actions.refuses_any(request)
        {
            return plan;
        }
        match self.actions.named_tool(request) {
            Some(tool) if !self.destructive.iter().any(|d| d == tool) => vec![tool.to_owned()],
            _ => plan,
        }
    }

    /// The app's one tool that completes something (`Actions::completer`), where the
    /// evidence chose no tool and the request reports having done one thing it names
    /// (`Request::reports_done`: "우유계란 사왔음", "엄마선물주문했다"): a person tells a
    /// to-do list a task is done by saying they did it, with no action's word. Not where the
    /// request says any tool's cue or action word (the rules above read those), asks about
    /// something, asks for what no tool does, or says not to do or to leave something; the
    /// request must name a value of each of the tool's required parameters that has a
    /// provider, as any ask for a change to something that exists must.
    fn reported_done(
        &self,
        plan: Plan,
        request: &Request,
        values: &ValueSets,
        tools: &Dispatcher,
    ) -> Plan {
        if !plan.is_empty()
            || !request.reports_done()
            || request.asks_about()
            || request.leaves_alone()
            || self.asks_unsupported(request)
            || self.actions.refuses_any(request)
            || self.actions.main_ask(request).is_some()
        {
            return plan;
        }
        let Some(tool) = self.actions.completer() else {
            return plan;
        };
        if self
            .tools()
            .any(|any| self.actions.said_as_word(any, request) != Said::Nothing)
        {
            return plan;
        }
        let named = tools.get(tool).is_some_and(|definition| {
            request::names_every_required(
                definition,
                values.get(tool),
                request,
                OtherScript::Unnamed,
            )
        });
        if named { vec![tool.to_owned()] } else { plan }
    }

    /// No tool for a request that asks *about* something (`Request::asks_about`: how, why,
    /// what if, only asking) where the evidence, read as a whole, likes no tool best: the
    /// words of such a question are its topic, and a tool whose examples share them
    /// ("할 일이 쌓였을 때 뭐부터 해야 할지 어떻게 정해?" and a to-do list) answers no question
    /// it asked.
    fn about_nothing_here(&self, plan: Plan, sureness: &[(Plan, f32)], request: &Request) -> Plan {
        if plan.is_empty() || !request.asks_about() {
            return plan;
        }
        if probability_of(sureness, Vec::is_empty) >= SURE_PLAN {
            Vec::new()
        } else {
            plan
        }
    }

    /// Whether the request asks, un-negated, for an action no tool of the app does (a word of
    /// the background's unsupported actions).
    fn asks_unsupported(&self, request: &Request) -> bool {
        self.unsupported
            .iter()
            .any(|word| request.said(word) == Said::Asked)
    }

    /// No tool where the request asks for an action no tool of the app does ("삭제해줘" to a
    /// coach that deletes nothing: a word of the background's unsupported actions, not
    /// negated) and says nothing of the action of any tool `plan` calls, or says it only
    /// before that action in a Korean message (its main verb ends it: "할일 목록 카톡으로
    /// 보내줄 수 있어?") or after it in another (an imperative opens it: "export my list to
    /// a CSV file"): the nearest tool to a request for something the app cannot do is not
    /// what the person asked for.
    fn doable(&self, plan: Plan, request: &Request) -> Plan {
        if !self.asks_unsupported(request) {
            return plan;
        }
        let korean = request.is_korean();
        let main = |places: &[usize]| {
            if korean {
                places.iter().max().copied()
            } else {
                places.iter().min().copied()
            }
        };
        // Where an unsupported action stands as a verb of the sentence, not naming a thing
        // by what was done to it ("지운 거") nor leading to the next clause ("보내고").
        let unsupported: Vec<usize> = self
            .unsupported
            .iter()
            .flat_map(|word| request.asked_at(word))
            .filter(|at| request.may_be_main_verb(*at))
            .collect();
        let planned: Vec<usize> = plan
            .iter()
            .flat_map(|step| self.actions.asked_at(step, request))
            .collect();
        let planned_action = plan
            .iter()
            .any(|step| self.actions.said(step, request) == Said::Asked);
        let unsupported_is_main = match (main(&unsupported), main(&planned)) {
            (Some(action), Some(step)) => {
                if korean {
                    action > step
                } else {
                    action < step
                }
            }
            _ => false,
        };
        if !planned_action || unsupported_is_main {
            Vec::new()
        } else {
            plan
        }
    }

    /// A one-step plan made once per value the request writes for a required parameter of
    /// its tool ("1번이랑 3번 오늘 완료" is two calls), where the examples declare such a
    /// plan: the router alone weighs one step over two, as the request reads like both.
    fn repeat_for_values(
        &self,
        decision: Decision,
        request: &Request,
        values: &ValueSets,
        tools: &Dispatcher,
    ) -> Decision {
        let [tool] = decision.plan.as_slice() else {
            return decision;
        };
        let (Some(definition), Some(params)) = (tools.get(tool), values.get(tool)) else {
            return decision;
        };
        let written = request::most_written(definition, params, request);
        if written < 2 {
            return decision;
        }
        let repeated = vec![tool.clone(); written];
        if decision.ranked.iter().any(|r| r.plan == repeated) {
            self.replan(decision, repeated)
        } else {
            decision
        }
    }

    /// No write for a question asking for information (`Request::asks_information`: "what
    /// habits am I tracking right now?", "3번 할 일 언제까지야?"): a plan with a destructive
    /// step becomes the likeliest plan without one by the model's reading, where that plan is
    /// at least as likely as the floor for a plan taken instead (without a reading: the
    /// router's best plan, where it writes nothing), or no tool. A question is answered;
    /// whatever its words share with a tool that writes, it asks for no change.
    fn answers_questions(&self, decision: Decision, request: &Request) -> Decision {
        let writes = |plan: &Plan| plan.iter().any(|step| self.destructive.contains(step));
        if !writes(&decision.plan) || !request.asks_information() {
            return decision;
        }
        let instead = if decision.reading_scores.is_empty() {
            // The router's best plan, where it writes nothing.
            decision
                .ranked
                .first()
                .map(|r| r.plan.clone())
                .filter(|plan| !writes(plan))
        } else {
            let scores = &decision.reading_scores;
            scores
                .iter()
                .filter(|(plan, _)| !writes(plan))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(plan, _)| plan.clone())
                .filter(|plan| probability_of(scores, |p| p == plan) >= QUESTION_PLAN)
        };
        self.replan(decision, instead.unwrap_or_default())
    }

    /// No tool where the router's best plan is none and the chosen one-step call would ask
    /// nothing the request said: the model's scores of a general question ("의지력이 약한
    /// 사람도 바꿀 수 있나요?") favour a tool that reads like it, and a call with nothing
    /// from the request answers no question it asked.
    fn restrain(
        &self,
        decision: Decision,
        values: &ValueSets,
        request: &Request,
        tools: &Dispatcher,
    ) -> Decision {
        let [tool] = decision.plan.as_slice() else {
            return decision;
        };
        let router_says_none = decision
            .ranked
            .first()
            .is_some_and(|best| best.plan.is_empty());
        let asks_nothing = tools
            .get(tool)
            .is_some_and(|definition| request::asks_nothing(definition, values.get(tool), request));
        if router_says_none && asks_nothing {
            self.replan(decision, Vec::new())
        } else {
            decision
        }
    }
}

/// The other values of `choices` named, one each, by the members of a list the request
/// `text` writes one member of which names `value` ("1번이랑 6번" with 1 written: 6), in the
/// order written. A member names a value by its number ("6번") or, failing that, by the
/// words of one value alone.
fn others_named(text: &str, value: &Value, choices: &[ValueChoice]) -> Vec<ValueChoice> {
    let named = |member: &str| -> Option<&ValueChoice> {
        if let [index] = request::numbers_written(member, choices).as_slice() {
            return choices.get(*index);
        }
        let mentioned = request::mentioned(&Request::new(member), choices);
        let mut hits = choices.iter().zip(mentioned).filter(|(_, hit)| *hit);
        match (hits.next(), hits.next()) {
            (Some((choice, _)), None) => Some(choice),
            _ => None,
        }
    };
    for list in request::lists(text) {
        if !list
            .iter()
            .any(|m| named(m).is_some_and(|c| c.value == *value))
        {
            continue;
        }
        let mut others: Vec<ValueChoice> = Vec::new();
        for choice in list.iter().filter_map(|m| named(m)) {
            if choice.value != *value && !others.iter().any(|o| o.value == choice.value) {
                others.push(choice.clone());
            }
        }
        return others;
    }
    Vec::new()
}

/// Whether `request` names a value (of those `full` offers) of a parameter of `step` that
/// is not an id (`id`, `…_id`): what to write, not only which thing.
fn names_more_than_ids(full: &ValueSets, step: &str, request: &Request) -> bool {
    full.get(step).is_some_and(|params| {
        params
            .iter()
            .filter(|(param, _)| *param != "id" && !param.ends_with("_id"))
            .any(|(_, choices)| request::mentioned(request, choices).contains(&true))
    })
}

/// The probability, under `scores` (log-scores of plans, normalised here), of the plans
/// `which` picks; 0 with no scores.
fn probability_of(scores: &[(Plan, f32)], which: impl Fn(&Plan) -> bool) -> f32 {
    let max = scores
        .iter()
        .map(|(_, s)| *s)
        .fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = scores.iter().map(|(_, s)| (s - max).exp()).sum();
    scores
        .iter()
        .filter(|(plan, _)| which(plan))
        .map(|(_, s)| (s - max).exp() / total)
        .sum()
}

/// Each stage of one request's choice that changes its plan, on stderr, with
/// `AGENT_RS_TRACE_CHOICE=1` in the environment: for seeing which rule chose a tool while
/// declaring an app's tools or tuning the stage.
struct Trace<'t> {
    /// The request, or `None` when choices are not traced.
    text: Option<&'t str>,
}

impl<'t> Trace<'t> {
    /// A trace of the choice for `text`, on when the environment asks for it.
    fn new(text: &'t str) -> Self {
        static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let on =
            *ON.get_or_init(|| std::env::var_os("AGENT_RS_TRACE_CHOICE").is_some_and(|v| v == "1"));
        Self {
            text: on.then_some(text),
        }
    }

    /// Notes `stage` where it turned `before` into a different `after`.
    fn stage(&self, stage: &str, before: &[String], after: &[String]) {
        if let Some(text) = self.text
            && before != after
        {
            eprintln!("choice {text:?}: {stage}: {before:?} → {after:?}");
        }
    }

    /// `run` on `plan`, noted as `stage`.
    fn of(&self, stage: &str, plan: Plan, run: impl FnOnce(Plan) -> Plan) -> Plan {
        let before = self.text.is_some().then(|| plan.clone());
        let after = run(plan);
        if let Some(before) = before {
            self.stage(stage, &before, &after);
        }
        after
    }
}
