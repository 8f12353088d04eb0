//! The agent loop: one user message at a time — decide what to do, have the model write the
//! calls, run them, feed the results back, and always end with words.
//!
//! [`Agent::send`] first asks the tool-choice stage ([`Chooser`]) for a *plan*: the tools to
//! call, in order, or none. Then, for each step, it asks the session for exactly that call
//! ([`ToolChoice::Call`]) — the model writes only the arguments, constrained to the values the
//! app allows this turn — and runs it through the [`Dispatcher`]. After the last step, or as
//! soon as a call is cancelled, refused or fails, the model gets one more turn in which it may
//! only answer in text ([`ToolChoice::None`]); if it writes nothing usable, the runtime's
//! default answer for that outcome stands in ([`Messages`]). So every message ends with words,
//! a cancelled call is acknowledged instead of retried, and the user never sees four identical
//! calls.
//!
//! With [`Strategy::Model`] the stage is skipped and the model decides every turn, for models
//! tuned to call tools: then a call identical to one already made in this user turn — with
//! nothing changed since by a destructive tool — is answered `repeated_call` instead of
//! running again, and the loop stops at `max_turns` model turns (default 4), answering that
//! last turn's calls with a `turn_limit` error rather than leaving them unanswered. Every call
//! the model emits gets exactly one result.
//!
//! A turn can be interrupted from another task ([`Agent::interrupter`]). Interruption is
//! honoured while the model writes and before a call starts; a call that already started —
//! the person said yes, the write is under way — is awaited, and
//! [`AgentError::Interrupted`] reports what ran, so a UI never claims a write was stopped
//! when it committed.

mod events;
mod session;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use futures::StreamExt;
use serde_json::Value;
use tokio::sync::Notify;

pub use events::{AgentEvent, EventSink, IgnoreEvents};
pub use session::{
    ChatConfig, ChatEvent, ChatSession, EventStream, LlmError, ResultMessage, ToolCall, ToolChoice,
    TurnInput, TurnRequest,
};

use crate::choice::{Chooser, Decision, Strategy};
use crate::dispatch::{Dispatcher, ValueSets};
use crate::layer::confirm::{ConfirmRequest, Confirmation, Confirmer, DenyAll};
use crate::messages::Messages;
use crate::registry::Registry;
use crate::tool::{BoxFuture, ErrorCode, Example, ToolResult};

/// The default cap on model turns per user message.
pub const DEFAULT_MAX_TURNS: usize = 4;
/// The default number of user turns after which the long-conversation notice is shown.
pub const DEFAULT_SOFT_HISTORY_LIMIT: usize = 8;

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
    /// The turn was interrupted ([`Agent::interrupter`]).
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

/// Interrupts an agent's current turn from another task; see [`Agent::interrupter`].
#[derive(Debug, Clone, Default)]
pub struct Interrupter(Arc<InterruptState>);

#[derive(Debug, Default)]
struct InterruptState {
    requested: AtomicBool,
    notify: Notify,
}

impl Interrupter {
    /// Asks the running turn to stop at its next safe point.
    pub fn interrupt(&self) {
        self.0.requested.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    fn is_requested(&self) -> bool {
        self.0.requested.load(Ordering::SeqCst)
    }

    fn reset(&self) {
        self.0.requested.store(false, Ordering::SeqCst);
    }

    async fn requested(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.is_requested() {
                return;
            }
            notified.await;
        }
    }
}

/// A conversation between a user, a model and the registry's tools.
pub struct Agent<S> {
    session: S,
    registry: Arc<Registry>,
    confirmer: Arc<dyn Confirmer>,
    dispatcher: Dispatcher,
    reporter: Arc<Reporter>,
    chooser: Chooser,
    messages: Messages,
    max_turns: usize,
    soft_history_limit: usize,
    user_turns: usize,
    /// The conversation's earlier user messages (the last few), which an answer must not
    /// repeat: the small model's favourite answer to a greeting is the previous request.
    earlier: Vec<String>,
    next_call_id: u64,
    interrupter: Interrupter,
}

/// How many earlier user messages an answer is checked against.
const EARLIER_MESSAGES: usize = 8;

/// What the reporting confirmer needs: where events go and which call is being confirmed.
struct Reporter {
    sink: RwLock<Arc<dyn EventSink>>,
    call_id: AtomicU64,
}

impl Reporter {
    fn emit(&self, event: AgentEvent) {
        let sink = match self.sink.read() {
            Ok(sink) => Arc::clone(&sink),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        };
        sink.emit(event);
    }
}

/// Wraps the agent's confirmer, reporting each request and its answer as events.
struct ReportingConfirmer {
    inner: Arc<dyn Confirmer>,
    reporter: Arc<Reporter>,
}

impl Confirmer for ReportingConfirmer {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(async move {
            let call_id = self.reporter.call_id.load(Ordering::SeqCst);
            self.reporter.emit(AgentEvent::ConfirmationRequested {
                call_id,
                request: request.clone(),
            });
            let answer = self.inner.confirm(request).await;
            self.reporter.emit(AgentEvent::ConfirmationResolved {
                call_id,
                approved: answer.is_approved(),
            });
            answer
        })
    }
}

impl<S: ChatSession> Agent<S> {
    /// An agent over `session` (started with [`ChatConfig::new`] of the same registry) and
    /// `registry`. Destructive calls are denied until [`with_confirmer`](Self::with_confirmer)
    /// says who asks.
    pub fn new(session: S, registry: Arc<Registry>) -> Self {
        let messages = Messages::default();
        let reporter = Arc::new(Reporter {
            sink: RwLock::new(Arc::new(IgnoreEvents)),
            call_id: AtomicU64::new(0),
        });
        let confirmer: Arc<dyn Confirmer> = Arc::new(DenyAll);
        let dispatcher = dispatcher(&registry, &confirmer, &reporter);
        Self {
            session,
            chooser: Chooser::new(&registry, &messages.chat_channel),
            registry,
            confirmer,
            dispatcher,
            reporter,
            messages,
            max_turns: DEFAULT_MAX_TURNS,
            soft_history_limit: DEFAULT_SOFT_HISTORY_LIMIT,
            user_turns: 0,
            earlier: Vec::new(),
            next_call_id: 1,
            interrupter: Interrupter::default(),
        }
    }

    /// Who confirms destructive calls (default [`DenyAll`]: fail closed).
    #[must_use]
    pub fn with_confirmer(mut self, confirmer: impl Confirmer) -> Self {
        self.confirmer = Arc::new(confirmer);
        self.dispatcher = dispatcher(&self.registry, &self.confirmer, &self.reporter);
        self
    }

    /// Where events go (default: nowhere).
    #[must_use]
    pub fn with_events(self, sink: impl EventSink) -> Self {
        match self.reporter.sink.write() {
            Ok(mut slot) => *slot = Arc::new(sink),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(sink),
        }
        self
    }

    /// How tools are chosen (default [`Strategy::Combined`]).
    #[must_use]
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.chooser = self.chooser.with_strategy(strategy);
        self
    }

    /// Replaces the tool-choice stage (e.g. one with other tuning).
    #[must_use]
    pub fn with_chooser(mut self, chooser: Chooser) -> Self {
        self.chooser = chooser;
        self
    }

    /// The runtime's own words (default Korean).
    #[must_use]
    pub fn with_messages(mut self, messages: Messages) -> Self {
        self.messages = messages;
        self
    }

    /// The cap on model turns per user message (at least 2: one call and the answer;
    /// default 4).
    #[must_use]
    pub fn with_max_turns(mut self, max_turns: usize) -> Self {
        self.max_turns = max_turns.max(2);
        self
    }

    /// After how many user turns the long-conversation notice is shown (default 8).
    #[must_use]
    pub fn with_soft_history_limit(mut self, user_turns: usize) -> Self {
        self.soft_history_limit = user_turns;
        self
    }

    /// The session.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// The session, mutably.
    pub fn session_mut(&mut self) -> &mut S {
        &mut self.session
    }

    /// The registry.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// The dispatcher calls run through.
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// The tool-choice stage.
    pub fn chooser(&self) -> &Chooser {
        &self.chooser
    }

    /// A handle that interrupts the running turn; see the module doc.
    pub fn interrupter(&self) -> Interrupter {
        self.interrupter.clone()
    }

    /// User turns in the current conversation.
    pub fn user_turns(&self) -> usize {
        self.user_turns
    }

    /// Starts a new conversation.
    pub fn clear(&mut self) {
        self.session.clear();
        self.user_turns = 0;
        self.earlier.clear();
    }

    /// Handles one user message and returns the final answer.
    pub async fn send(&mut self, text: &str) -> Result<String, AgentError> {
        self.interrupter.reset();
        self.user_turns += 1;
        if self.user_turns == self.soft_history_limit {
            self.emit(AgentEvent::Notice(
                self.messages.long_conversation.to_string(),
            ));
        }
        let outcome = self.run(text).await;
        if self.earlier.len() == EARLIER_MESSAGES {
            self.earlier.remove(0);
        }
        self.earlier.push(text.to_owned());
        if let Err(error) = &outcome {
            self.emit(AgentEvent::Error {
                code: error.code().to_owned(),
                message: error.to_string(),
            });
        }
        outcome
    }

    async fn run(&mut self, text: &str) -> Result<String, AgentError> {
        let mut current = self.dispatcher.values_for(text);
        let mut values = current.clone();
        rank_values(&mut values, self.chooser.router(), text, None);
        let mut values = Arc::new(values);
        if self.chooser.strategy() == Strategy::Model {
            return self.model_decides(text, values).await;
        }
        let decision = self.decide(text).await?;
        let decision = self.repeat_for_values(decision, text, &current);
        let decision = self.restrain(decision, &current, text);
        self.emit(AgentEvent::Planned(decision.clone()));
        let mut turn = Turn::new();
        let mut input = TurnInput::User(text.to_owned());
        // One model turn is kept for the answer.
        for (step, tool) in decision.plan.iter().take(self.max_turns - 1).enumerate() {
            if step > 0 {
                // What the earlier steps changed (a habit just added) is there to choose.
                current = self.dispatcher.values_for(text);
            }
            if let Some(param) = nothing_to_choose(&self.dispatcher, tool, &current) {
                if step > 0 {
                    // The results so far are answered in words.
                    break;
                }
                // Nothing to ask the model for, or a person to confirm: the call could only
                // name something that does not exist. The exchange joins the model's history
                // as the person saw it, so the next message does not follow a gap.
                let answer = self
                    .messages
                    .nothing_to_choose
                    .replace("{tool}", &self.label(tool))
                    .replace("{param}", &param);
                self.session.record_exchange(text, &answer);
                self.emit(AgentEvent::TextDelta(answer.clone()));
                self.emit(AgentEvent::DefaultAnswer {
                    text: answer.clone(),
                    held_back: None,
                });
                return self.finish(answer, &turn);
            }
            if let TurnInput::Results(results) = &input {
                // A later step's values are judged by the request and what came back so far:
                // the id to add is the one the search just found.
                let mut context = String::new();
                for result in results {
                    context.push_str(&result.result.to_string());
                    context.push('\n');
                }
                let mut ranked = current.clone();
                rank_values(&mut ranked, self.chooser.router(), text, Some(&context));
                demote_written(&mut ranked, &turn.written);
                values = Arc::new(ranked);
            }
            let request = TurnRequest {
                input,
                tool_choice: ToolChoice::Call(vec![tool.clone()]),
                values: Arc::clone(&values),
                require: self.required(tool, decision.arguments.get(step), &current, text),
                quote: text.to_owned(),
                examples: Vec::new(),
            };
            let (answer, calls) = self.read(request, &turn, true).await?;
            if calls.is_empty() {
                // A backend that answered in words where a call was asked for: its words
                // are the answer.
                return self.finish(answer, &turn);
            }
            let results = self.run_calls(calls, &mut turn).await?;
            input = TurnInput::Results(results);
            if !turn.all_ok {
                break;
            }
        }
        // A request that needs no tool is answered right after the declared chat example
        // nearest to it, so the answer the model imitates is the fitting one (a greeting's,
        // not a thank-you's).
        let shots = match (&input, decision.example) {
            (TurnInput::User(_), Some(example))
                if example.calls().is_empty() && example.answer_text().is_some() =>
            {
                vec![example]
            }
            _ => Vec::new(),
        };
        self.answer(input, text, &values, shots, &mut turn).await
    }

    /// The arguments a call of `tool` must write: those the nearest example wrote and the
    /// optional ones whose value the person said — a value named, a free-text one labelled
    /// ("메모: …") — read off this turn's narrowed `values` (see `tool::values::said`).
    fn required(
        &self,
        tool: &str,
        nearest: Option<&Vec<String>>,
        values: &ValueSets,
        text: &str,
    ) -> Vec<String> {
        let mut require = nearest.cloned().unwrap_or_default();
        let Some(definition) = self.dispatcher.get(tool) else {
            return require;
        };
        let mut add = |name: String| {
            if !require.contains(&name) {
                require.push(name);
            }
        };
        if let Some(params) = values.get(tool) {
            crate::tool::values::said(definition, params, text)
                .into_iter()
                .for_each(&mut add);
        }
        require
    }

    /// A one-step plan made once per value the request writes for a required parameter of
    /// its tool ("1번이랑 3번 오늘 완료" is two calls), where the examples declare such a
    /// plan; the router alone weighs one step over two, as the request reads like both.
    fn repeat_for_values(&self, decision: Decision, text: &str, values: &ValueSets) -> Decision {
        let [tool] = decision.plan.as_slice() else {
            return decision;
        };
        let (Some(definition), Some(params)) = (self.dispatcher.get(tool), values.get(tool)) else {
            return decision;
        };
        let written = crate::tool::values::most_written(definition, params, text);
        if written < 2 {
            return decision;
        }
        let repeated = vec![tool.clone(); written];
        if decision.ranked.iter().any(|r| r.plan == repeated) {
            self.chooser.replan(decision, repeated)
        } else {
            decision
        }
    }

    /// No tool where the router's best plan is none and the chosen one-step call would ask
    /// nothing the request said (see `tool::values::asks_nothing`): the model's scores of a
    /// general question ("의지력이 약한 사람도 바꿀 수 있나요?") favour a tool that reads
    /// like it, and a call with nothing from the request answers no question it asked.
    fn restrain(&self, decision: Decision, values: &ValueSets, text: &str) -> Decision {
        let [tool] = decision.plan.as_slice() else {
            return decision;
        };
        let router_says_none = decision
            .ranked
            .first()
            .is_some_and(|best| best.plan.is_empty());
        let asks_nothing = self.dispatcher.get(tool).is_some_and(|definition| {
            crate::tool::values::asks_nothing(definition, values.get(tool), text)
        });
        if router_says_none && asks_nothing {
            self.chooser.replan(decision, Vec::new())
        } else {
            decision
        }
    }

    /// Readies tool choice before the first message, which otherwise does it: where the
    /// session can read (see [`ChatSession::read_texts`]), the model reads the declared
    /// examples and the chooser learns from them — once per chooser; a session that cannot
    /// read leaves it without. An application calls this while it starts — or while the
    /// person types the first message — so the first answer is not the slow one. Dropping
    /// the future before it finishes leaves the work to the next call (or the first
    /// message; a Gemma session keeps the vectors it already read).
    ///
    /// # Errors
    /// [`AgentError::Interrupted`] when interrupted; a failed reading is not an error.
    pub async fn prepare(&mut self) -> Result<(), AgentError> {
        if self.chooser.wants_reading() {
            let texts = self.chooser.reading_texts();
            let vectors = self.read_texts(&texts).await?;
            self.chooser.learn(vectors.as_deref());
        }
        Ok(())
    }

    /// The tool-choice stage: the router, and the model's reading of the request (or,
    /// for a session that cannot read, its channel scores where they change the decision).
    async fn decide(&mut self, text: &str) -> Result<Decision, AgentError> {
        self.prepare().await?;
        let reading = if self.chooser.reads() {
            let texts = self.chooser.texts_to_read(text);
            self.read_texts(&texts).await?
        } else {
            None
        };
        let ranked = self.chooser.router().rank(text);
        let wanted = self.chooser.channels_to_score(&ranked);
        let scores = if wanted.is_empty() {
            None
        } else {
            let interrupter = self.interrupter.clone();
            tokio::select! {
                biased;
                () = interrupter.requested() => {
                    return Err(AgentError::Interrupted { completed: Vec::new() });
                }
                scores = self.session.score(text, &wanted) => scores?,
            }
        };
        Ok(self
            .chooser
            .decide(text, ranked, &wanted, scores.as_deref(), reading.as_deref()))
    }

    /// The model's reading of `texts`; `None` when the session cannot read or failed to
    /// (tool choice then does without it: a failed reading costs a better choice, never the
    /// turn).
    async fn read_texts(&mut self, texts: &[String]) -> Result<Option<Vec<Vec<f32>>>, AgentError> {
        let interrupter = self.interrupter.clone();
        tokio::select! {
            biased;
            () = interrupter.requested() => {
                Err(AgentError::Interrupted { completed: Vec::new() })
            }
            read = self.session.read_texts(texts) => Ok(read.ok().flatten()),
        }
    }

    /// The closing model turn: text only. After results the answer is held back until it
    /// is judged ([`is_grounded`]), so an answer that is replaced is never shown.
    async fn answer(
        &mut self,
        input: TurnInput,
        request_text: &str,
        values: &Arc<ValueSets>,
        shots: Vec<Example>,
        turn: &mut Turn,
    ) -> Result<String, AgentError> {
        let after_results = turn.last.is_some();
        let shown = shots
            .first()
            .and_then(Example::answer_text)
            .map(str::to_owned);
        let request = TurnRequest {
            input,
            tool_choice: ToolChoice::None,
            values: Arc::clone(values),
            require: Vec::new(),
            quote: String::new(),
            examples: shots,
        };
        // Buffered, not streamed: the answer is shown only once it is checked.
        let (answer, calls) = self.read(request, turn, false).await?;
        let answer = without_stray_tail(answer.trim()).to_owned();
        if !calls.is_empty() {
            // No call was allowed; each still gets its result in the history.
            let refused = calls.into_iter().map(|call| self.refuse(call)).collect();
            self.session.record_results(refused);
        }
        if after_results && is_grounded(&answer, request_text, &turn.seen) {
            self.emit(AgentEvent::TextDelta(answer.trim().to_owned()));
            return self.finish(answer.trim().to_owned(), turn);
        }
        if !after_results && is_usable(&answer) && !repeats_earlier(&answer, &self.earlier) {
            if let Some(shown) = shown.filter(|shown| self.copies_another_answer(&answer, shown)) {
                // Shown the nearest example's answer, the model copied another one's word
                // for word (a thank-you's for a greeting, after a few turns): that answer
                // was written for another request; the shown one was chosen for this one.
                turn.held_back = Some(answer.trim().to_owned());
                self.emit(AgentEvent::TextDelta(shown.clone()));
                self.emit(AgentEvent::DefaultAnswer {
                    text: shown.clone(),
                    held_back: turn.held_back.clone(),
                });
                return self.finish(shown, turn);
            }
            self.emit(AgentEvent::TextDelta(answer.trim().to_owned()));
            return self.finish(answer.trim().to_owned(), turn);
        }
        turn.held_back = Some(answer.trim().to_owned()).filter(|a| !a.is_empty());
        self.finish(String::new(), turn)
    }

    /// Whether `answer` is, letter for letter, the answer of a declared example that needs
    /// no tool other than the `shown` one.
    fn copies_another_answer(&self, answer: &str, shown: &str) -> bool {
        let answer = squash(answer);
        answer != squash(shown)
            && self.registry.examples().any(|example| {
                example.calls().is_empty()
                    && example
                        .answer_text()
                        .is_some_and(|declared| squash(declared) == answer)
            })
    }

    /// Ends the user turn with `answer`, or — when the model wrote nothing usable — with the
    /// default text for how the turn went: the last successful tool's own sentence, or
    /// [`Messages`]' words for a cancel, an error, or no answer at all.
    fn finish(&mut self, answer: String, turn: &Turn) -> Result<String, AgentError> {
        let answer = if is_usable(&answer) {
            answer
        } else {
            let text = match turn.last {
                None => self.messages.no_answer.to_string(),
                Some(Outcome::Ok) => turn
                    .reply
                    .clone()
                    .unwrap_or_else(|| self.messages.after_success.to_string()),
                Some(Outcome::Cancelled) => self.messages.after_cancel.to_string(),
                Some(Outcome::Error) => self.messages.after_error.to_string(),
            };
            self.emit(AgentEvent::TextDelta(text.clone()));
            self.emit(AgentEvent::DefaultAnswer {
                text: text.clone(),
                held_back: turn.held_back.clone(),
            });
            text
        };
        self.emit(AgentEvent::Finished {
            text: answer.clone(),
        });
        Ok(answer)
    }

    /// [`Strategy::Model`]: the model decides every turn.
    async fn model_decides(
        &mut self,
        text: &str,
        values: Arc<ValueSets>,
    ) -> Result<String, AgentError> {
        let mut turn = Turn::new();
        let mut input = TurnInput::User(text.to_owned());
        let mut choice = ToolChoice::Auto;
        for model_turn in 1.. {
            let request = TurnRequest {
                input,
                tool_choice: choice,
                values: Arc::clone(&values),
                require: Vec::new(),
                quote: text.to_owned(),
                examples: Vec::new(),
            };
            let (answer, calls) = self.read(request, &turn, true).await?;
            if calls.is_empty() {
                return self.finish(answer, &turn);
            }
            if model_turn >= self.max_turns {
                let refused = calls.into_iter().map(|call| self.refuse(call)).collect();
                self.session.record_results(refused);
                self.emit(AgentEvent::TurnLimitReached {
                    max_turns: self.max_turns,
                });
                return Err(AgentError::TurnLimit {
                    max_turns: self.max_turns,
                });
            }
            let results = self.run_calls(calls, &mut turn).await?;
            input = TurnInput::Results(results);
            // After a cancel, a refusal or a repeat the model may only answer; the last turn
            // before the limit too.
            choice = if turn.all_ok && model_turn + 1 < self.max_turns {
                ToolChoice::Auto
            } else {
                ToolChoice::None
            };
        }
        unreachable!("the loop returns")
    }

    /// Reads one model turn: collects its text (streaming it to the sink when `stream`) and
    /// its calls. Interruptible.
    async fn read(
        &mut self,
        request: TurnRequest,
        turn: &Turn,
        stream_text: bool,
    ) -> Result<(String, Vec<ToolCall>), AgentError> {
        let interrupter = self.interrupter.clone();
        let reporter = Arc::clone(&self.reporter);
        let mut stream = self.session.turn(request);
        let mut answer = String::new();
        let mut calls = Vec::new();
        loop {
            let event = tokio::select! {
                biased;
                () = interrupter.requested() => {
                    return Err(AgentError::Interrupted { completed: turn.completed.clone() });
                }
                event = stream.next() => event,
            };
            match event {
                None => break,
                Some(Ok(ChatEvent::TextDelta(delta))) => {
                    answer.push_str(&delta);
                    if stream_text {
                        reporter.emit(AgentEvent::TextDelta(delta));
                    }
                }
                Some(Ok(ChatEvent::Call(call))) => calls.push(call),
                Some(Err(error)) => return Err(error.into()),
            }
        }
        Ok((answer, calls))
    }

    /// Runs the calls of one model turn in order; a call that started is never abandoned.
    async fn run_calls(
        &mut self,
        calls: Vec<ToolCall>,
        turn: &mut Turn,
    ) -> Result<Vec<ResultMessage>, AgentError> {
        let mut results = Vec::with_capacity(calls.len());
        for mut call in calls {
            if let (Some(tool), Some(args)) =
                (self.dispatcher.get(&call.name), call.args.as_object_mut())
            {
                // Before the person sees it: see `repeated_copies`.
                for name in crate::tool::values::repeated_copies(tool, args) {
                    args.remove(&name);
                }
            }
            if self.interrupter.is_requested() {
                return Err(AgentError::Interrupted {
                    completed: turn.completed.clone(),
                });
            }
            let call_id = self.announce(&call);
            turn.written.push((call.name.clone(), call.args.clone()));
            let key = CallHistory::key(&call);
            let result = if turn.history.is_repeat(&key) {
                ToolResult::error(
                    ErrorCode::RepeatedCall,
                    self.messages.repeated_call.to_string(),
                )
            } else {
                self.reporter.call_id.store(call_id, Ordering::SeqCst);
                let result = self.dispatcher.dispatch(&call.name, call.args).await;
                let changed_state = result.is_ok()
                    && self
                        .registry
                        .get(&call.name)
                        .is_some_and(|tool| tool.is_destructive());
                turn.history.record(key, changed_state);
                turn.completed.push(CompletedCall {
                    name: call.name.clone(),
                    label: self.label(&call.name),
                    result: result.clone(),
                });
                result
            };
            let reply = match &result {
                ToolResult::Ok { data } => {
                    let reply = self
                        .dispatcher
                        .get(&call.name)
                        .and_then(|tool| tool.reply(data));
                    turn.reply.clone_from(&reply);
                    reply
                }
                _ => None,
            };
            let mut message = self.answer_call(call_id, call.name, result.clone());
            message.reply = reply;
            turn.observe(&result, &message.result);
            results.push(message);
        }
        if self.interrupter.is_requested() {
            return Err(AgentError::Interrupted {
                completed: turn.completed.clone(),
            });
        }
        Ok(results)
    }

    /// Answers a call that may not run (the turn's limit, or no call was allowed).
    fn refuse(&mut self, call: ToolCall) -> ResultMessage {
        let call_id = self.announce(&call);
        let result = ToolResult::error(ErrorCode::TurnLimit, self.messages.turn_limit.to_string());
        self.answer_call(call_id, call.name, result)
    }

    fn announce(&mut self, call: &ToolCall) -> u64 {
        let call_id = self.next_call_id;
        self.next_call_id += 1;
        self.emit(AgentEvent::ToolCallRequested {
            call_id,
            name: call.name.clone(),
            label: self.label(&call.name),
            args: call.args.clone(),
        });
        call_id
    }

    fn answer_call(&self, call_id: u64, name: String, result: ToolResult) -> ResultMessage {
        let capped = self.registry.result_cap().apply(&result);
        self.emit(AgentEvent::ToolResult {
            call_id,
            name: name.clone(),
            label: self.label(&name),
            result,
            sent: capped.value.clone(),
            truncated: capped.truncated,
        });
        ResultMessage {
            name,
            result: capped.value,
            reply: None,
        }
    }

    fn label(&self, name: &str) -> String {
        self.dispatcher
            .get(name)
            .map_or_else(|| name.to_owned(), |tool| tool.label().to_owned())
    }

    fn emit(&self, event: AgentEvent) {
        self.reporter.emit(event);
    }
}

/// The first sentence of the description of a parameter `tool` requires that has no value to
/// take this turn (its provider has nothing to offer), if one has none.
fn nothing_to_choose(dispatcher: &Dispatcher, tool: &str, values: &ValueSets) -> Option<String> {
    let definition = dispatcher.get(tool)?;
    let params = values.get(tool)?;
    crate::tool::values::required(definition)
        .into_iter()
        .find(|param| params.get(*param).is_some_and(Vec::is_empty))
        .map(|param| crate::layer::confirm::parameter_label(definition, param))
}

fn dispatcher(
    registry: &Arc<Registry>,
    confirmer: &Arc<dyn Confirmer>,
    reporter: &Arc<Reporter>,
) -> Dispatcher {
    Dispatcher::new(
        Arc::clone(registry),
        ReportingConfirmer {
            inner: Arc::clone(confirmer),
            reporter: Arc::clone(reporter),
        },
    )
}

/// How many times more alike than the runner-up a value must be to be the only one allowed.
const CLEAR_MATCH: f32 = 1.5;
/// The least similarity (0 to 1) that can be a clear match: below it the ranking is noise.
const CLEAR_MATCH_MIN: f32 = 0.15;

/// Orders every parameter's values by how much their labels (and words, and the values
/// themselves) look like the `request`, most alike first, so a backend that can show only a
/// few shows the ones the request is probably about. Numbers the request writes that are
/// values come first, in the order written ("2번이랑 3번"); in a later step, text values the
/// results so far contain (`results`, their JSON) come before those they do not — the id to
/// add is one the search just found. Equally alike values keep the provider's order.
///
/// A value the request names clearly is left alone, so the model cannot pick another (it
/// would otherwise pick by what it likes to write): one far more alike than the runner-up —
/// among all values, or among those the results contain — or, failing that, the only value
/// the request writes as a number ("목록 보여주고 2번 연속 기록도" means habit 2 after a
/// list of every habit).
fn rank_values(
    values: &mut ValueSets,
    router: &crate::choice::Router,
    request: &str,
    results: Option<&str>,
) {
    for params in values.values_mut() {
        for choices in params.values_mut() {
            let scores: Vec<f32> = choices
                .iter()
                .map(|choice| router.similarity(request, &choice.text()))
                .collect();
            let found: Vec<bool> = choices
                .iter()
                .map(|choice| match (&choice.value, results) {
                    (Value::String(text), Some(results)) => {
                        results.contains(&Value::String(text.clone()).to_string())
                    }
                    _ => false,
                })
                .collect();
            let written = crate::tool::values::numbers_written(request, choices);
            let mut order: Vec<usize> = (0..choices.len())
                .filter(|i| !written.contains(i))
                .collect();
            order.sort_by(|&a, &b| {
                found[b]
                    .cmp(&found[a])
                    .then(scores[b].total_cmp(&scores[a]))
            });
            let among_found: Vec<usize> = order.iter().copied().filter(|&i| found[i]).collect();
            let mut by_score = order.clone();
            by_score.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
            let clear = clear_best(&by_score, &scores)
                .or_else(|| clear_best(&among_found, &scores))
                .or(match written.as_slice() {
                    [only] => Some(*only),
                    _ => None,
                });
            let order: Vec<usize> = match clear {
                Some(i) => vec![i],
                None => written.into_iter().chain(order).collect(),
            };
            let mut taken: Vec<Option<crate::tool::ValueChoice>> =
                choices.drain(..).map(Some).collect();
            choices.extend(
                order
                    .into_iter()
                    .filter_map(|i| taken.get_mut(i).and_then(Option::take)),
            );
        }
    }
}

/// The first of `order` (indices into `scores`, best first) if it is far more alike than
/// the runner-up.
fn clear_best(order: &[usize], scores: &[f32]) -> Option<usize> {
    match order {
        [best, second, ..]
            if scores[*best] >= CLEAR_MATCH_MIN
                && scores[*best] >= CLEAR_MATCH * scores[*second] =>
        {
            Some(*best)
        }
        _ => None,
    }
}

/// Moves the values earlier calls of this turn wrote for the same tool and parameter behind
/// the others, so the second of two calls of one tool ("2번이랑 3번 둘 다") is not the first
/// again. A value that is the only one left stays.
fn demote_written(values: &mut ValueSets, written: &[(String, Value)]) {
    for (tool, args) in written {
        let Some(params) = values.get_mut(tool) else {
            continue;
        };
        for (param, choices) in params.iter_mut() {
            let Some(used) = args.get(param) else {
                continue;
            };
            let (again, fresh): (Vec<_>, Vec<_>) =
                choices.drain(..).partition(|c| c.value == *used);
            choices.extend(fresh);
            choices.extend(again);
        }
    }
}

/// Whether some stretch of six characters occurs twice (`text` is squashed to letters and
/// digits): a model looping — "먹고 싶으면 5분 걷기. 먹고 싶으면 5분" says one thing twice.
fn repeats(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(6).any(|window| {
        let needle: String = window.iter().collect();
        text.matches(&needle).count() >= 2
    })
}

/// `answer` without a tail in another script after its last sentence: a small model that
/// has finished a Korean sentence often goes on with a word of another language instead of
/// ending its turn ("…해 보세요. convirtió"). The tail is cut when the answer before it has
/// Hangul and the tail has Latin letters but none.
fn without_stray_tail(answer: &str) -> &str {
    let is_hangul = |c: char| matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}');
    let Some((end, mark)) = answer
        .char_indices()
        .rfind(|(_, c)| matches!(c, '.' | '!' | '?' | '…' | '~'))
    else {
        return answer;
    };
    let (body, tail) = answer.split_at(end + mark.len_utf8());
    let foreign = tail.chars().any(char::is_alphabetic) && !tail.chars().any(is_hangul);
    if foreign && body.chars().any(is_hangul) {
        body
    } else {
        answer
    }
}

/// Text worth showing as an answer: words, not whitespace and punctuation, and not markup.
fn is_usable(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric) && !looks_like_markup(text)
}

/// Whether `text` is written like data rather than prose: it has a bracket, brace, arrow,
/// equals sign, backslash or backtick, an unclosed parenthesis, or an identifier — a letter,
/// `.` or `_`, a lowercase ASCII letter (`diet.dash`, `search_catalog`). A small model asked
/// for words after a result often copies the result's own rendering
/// (`diet.dash → {"status":"ok",…}`), which is true but no answer.
fn looks_like_markup(text: &str) -> bool {
    const MARKS: &[char] = &['{', '}', '[', ']', '<', '>', '=', '→', '\\', '`', '|'];
    if text.contains(MARKS) || text.matches('(').count() != text.matches(')').count() {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(3)
        .any(|w| w[0].is_alphabetic() && matches!(w[1], '.' | '_') && w[2].is_ascii_lowercase())
}

impl<S> std::fmt::Debug for Agent<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("registry", &self.registry)
            .field("strategy", &self.chooser.strategy())
            .field("max_turns", &self.max_turns)
            .field("user_turns", &self.user_turns)
            .finish_non_exhaustive()
    }
}

/// How the calls of one user turn went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    Cancelled,
    Error,
}

/// The state of one user turn.
struct Turn {
    history: CallHistory,
    completed: Vec<CompletedCall>,
    /// Whether every call so far succeeded.
    all_ok: bool,
    /// The outcome of the last call.
    last: Option<Outcome>,
    /// The tool's own sentence about its last successful result, if it has one.
    reply: Option<String>,
    /// The values the results showed the model (strings and numbers), for grounding.
    seen: String,
    /// The model's closing answer when it was not good enough to show.
    held_back: Option<String>,
    /// Every call written so far (tool, arguments), run or not.
    written: Vec<(String, Value)>,
}

impl Turn {
    fn new() -> Self {
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

    fn observe(&mut self, result: &ToolResult, sent: &Value) {
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

/// Every string and number inside `value` (not its keys), space-separated.
fn collect_values(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push_str(text);
            out.push(' ');
        }
        Value::Number(n) => {
            out.push_str(&n.to_string());
            out.push(' ');
        }
        Value::Array(items) => items.iter().for_each(|v| collect_values(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_values(v, out)),
        _ => {}
    }
}

/// Letters and digits an answer after results needs at least: "빌딩." says nothing.
const MIN_ANSWER_CHARS: usize = 4;

/// Whether an answer after results says something of its own and claims nothing the turn
/// did not show: not an echo of the request, and every number in it found in the request or
/// in the results' values. A small model's most common failures after a result are exactly
/// these — repeating the user, or a count or a streak it made up.
fn is_grounded(answer: &str, request: &str, seen: &str) -> bool {
    let answer = answer.trim();
    if !is_usable(answer) || squash(answer).chars().count() < MIN_ANSWER_CHARS {
        return false;
    }
    if echoes(answer, request) || repeats(&squash(answer)) || !ends_like_a_sentence(answer) {
        return false;
    }
    let numbers = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let known: Vec<String> = numbers(request).into_iter().chain(numbers(seen)).collect();
    numbers(answer).iter().all(|n| known.contains(n))
}

/// Hangul syllables a Korean sentence ends with when it has no final mark (`했어요`,
/// `좋습니다`, `그렇죠`, `할까`, `좋네`).
const SENTENCE_ENDINGS: &[char] = &['요', '다', '죠', '까', '네'];

/// Whether `answer` ends as a sentence does: with a mark, an emoji or other symbol, or a
/// Korean sentence ending. A small model cut off in the middle of copying a result ends
/// on a bare word ("인테리어", "…25분 집중", "… · 만들 습관") — words, but no answer.
fn ends_like_a_sentence(answer: &str) -> bool {
    let last = answer
        .trim_end()
        .trim_end_matches(['"', '\'', ')', '’', '”'])
        .chars()
        .next_back();
    last.is_some_and(|c| !c.is_alphanumeric() || SENTENCE_ENDINGS.contains(&c))
}

/// Whether `answer` repeats one of the conversation's earlier user messages ([`echoes`]).
fn repeats_earlier(answer: &str, earlier: &[String]) -> bool {
    earlier.iter().any(|m| echoes(answer, m))
}

/// Fewer letter-and-digit bytes than this (two Hangul syllables, six ASCII characters) are
/// too little to call an answer an echo.
const ECHO_BYTES: usize = 6;

/// An answer of fewer character pairs than this is not judged by its share of the message's.
const ECHO_PAIRS: usize = 4;

/// Whether `answer` echoes `message`: of their letters and digits, one contains the other,
/// or three quarters of the answer's character pairs are the message's. Only letters and
/// digits are compared, so an echo with other spacing or punctuation still counts. Either
/// side shorter than [`ECHO_BYTES`] is no echo: a message of "네", "1번" or "?" is contained
/// in almost any answer (and an empty one in every answer).
fn echoes(answer: &str, message: &str) -> bool {
    let (a, m) = (squash(answer), squash(message));
    if a.len() < ECHO_BYTES || m.len() < ECHO_BYTES {
        return false;
    }
    if m.contains(&a) || a.contains(&m) {
        return true;
    }
    // Nearly all of the answer's character pairs taken from the message: the message said
    // again with a word changed ("운동 습관 1개만 보여줄래?" for "운동쪽 습관 1개만 보여줄래?").
    let pairs = |text: &str| -> Vec<(char, char)> {
        let chars: Vec<char> = text.chars().collect();
        chars.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let (from_answer, from_message) = (pairs(&a), pairs(&m));
    let shared = from_answer
        .iter()
        .filter(|pair| from_message.contains(pair))
        .count();
    from_answer.len() >= ECHO_PAIRS && shared * 4 >= from_answer.len() * 3
}

/// `text`'s letters and digits alone.
fn squash(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// The calls made during one user turn, and whether state changed since.
#[derive(Default)]
struct CallHistory {
    /// Bumped whenever a destructive call succeeds: a read after it may differ.
    generation: u64,
    seen: HashMap<String, u64>,
}

impl CallHistory {
    fn key(call: &ToolCall) -> String {
        let mut key = call.name.clone();
        key.push('\0');
        canonical_json(&call.args, &mut key);
        key
    }

    fn is_repeat(&self, key: &str) -> bool {
        self.seen.get(key) == Some(&self.generation)
    }

    fn record(&mut self, key: String, changed_state: bool) {
        self.seen.insert(key, self.generation);
        if changed_state {
            self.generation += 1;
        }
    }
}

/// JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one call.
fn canonical_json(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical_json(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn habits() -> ValueSets {
        let choices = vec![
            crate::tool::ValueChoice::new(1, "아침 커피 후 10분 걷기").with_words(["산책"]),
            crate::tool::ValueChoice::new(2, "자기 전 책 10쪽 읽기").with_words(["독서"]),
            crate::tool::ValueChoice::new(3, "밤 9시 이후 보리차 마시기"),
        ];
        let params = std::iter::once(("habit_id".to_owned(), choices)).collect();
        std::iter::once(("log".to_owned(), params)).collect()
    }

    fn ranked(request: &str, results: Option<&str>, written: &[(String, Value)]) -> Vec<Value> {
        let router = crate::choice::Router::train([
            ("1번 오늘 했어", vec!["log".to_owned()], 1.0),
            ("안녕", Vec::new(), 1.0),
        ]);
        let mut values = habits();
        rank_values(&mut values, &router, request, results);
        demote_written(&mut values, written);
        values["log"]["habit_id"]
            .iter()
            .map(|c| c.value.clone())
            .collect()
    }

    #[test]
    fn values_the_request_names_come_first() {
        assert_eq!(
            ranked("독서 며칠째야?", None, &[])[0],
            json!(2),
            "by a word: first"
        );
        assert_eq!(
            ranked("보리차 마셨어", None, &[]),
            [json!(3)],
            "by the label"
        );
        assert_eq!(
            ranked(
                "목록 보여주고 2번 연속 기록도",
                Some(r#"{"items":[1,2,3]}"#),
                &[]
            ),
            [json!(2)],
            "by the only number that is a value, whatever the results show"
        );
        assert_eq!(
            ranked("오늘 3번이랑 1번 했어", None, &[]),
            [json!(3), json!(1), json!(2)],
            "two numbers: first as written"
        );
        let first = [("log".to_owned(), json!({"habit_id": 3}))];
        assert_eq!(
            ranked("오늘 3번이랑 1번 했어", None, &first),
            [json!(1), json!(2), json!(3)],
            "the second call does not write the first one's value again"
        );
    }

    #[test]
    fn a_later_step_prefers_what_the_results_contain() {
        let router = crate::choice::Router::train([("물 찾아줘", vec!["q".to_owned()], 1.0)]);
        let choices = ["a.walk", "b.water", "c.tea"]
            .map(|id| crate::tool::ValueChoice::new(id, "습관"))
            .to_vec();
        let params = std::iter::once(("id".to_owned(), choices)).collect();
        let mut values: ValueSets = std::iter::once(("q".to_owned(), params)).collect();
        rank_values(
            &mut values,
            &router,
            "자세히 알려줘",
            Some(r#"{"items":[{"id":"c.tea"},{"id":"b.water"}]}"#),
        );
        let order: Vec<&Value> = values["q"]["id"].iter().map(|c| &c.value).collect();
        assert_eq!(
            order,
            [&json!("b.water"), &json!("c.tea"), &json!("a.walk")]
        );
    }

    #[test]
    fn canonical_json_ignores_key_order() {
        let mut a = String::new();
        let mut b = String::new();
        canonical_json(&json!({"b": [1, {"y": 1, "x": 2}], "a": "가"}), &mut a);
        canonical_json(&json!({"a": "가", "b": [1, {"x": 2, "y": 1}]}), &mut b);
        assert_eq!(a, b);
        assert_eq!(a, r#"{"a":"가","b":[1,{"x":2,"y":1}]}"#);
    }

    #[test]
    fn repeats_are_allowed_again_after_a_state_change() {
        let mut history = CallHistory::default();
        let call = ToolCall {
            name: "list".into(),
            args: json!({}),
        };
        let key = CallHistory::key(&call);
        assert!(!history.is_repeat(&key));
        history.record(key.clone(), false);
        assert!(history.is_repeat(&key));
        history.record("add\0{}".into(), true);
        assert!(
            !history.is_repeat(&key),
            "a destructive success may change the answer"
        );
    }

    #[test]
    fn a_chat_answer_may_not_repeat_an_earlier_message() {
        let earlier = ["1번 습관 오늘 했어".to_owned()];
        assert!(repeats_earlier("1번 습관 오늘 했어", &earlier));
        assert!(repeats_earlier(" 1번 습관, 오늘 했어!", &earlier));
        assert!(!repeats_earlier(
            "안녕하세요! 무엇을 도와드릴까요?",
            &earlier
        ));
        assert!(!repeats_earlier("네", &earlier));
    }

    #[test]
    fn grounded_answers_repeat_neither_the_user_nor_made_up_numbers() {
        let seen = "아침 10분 걷기 3 12 ";
        assert!(is_grounded("지금 3일 연속이에요!", "1번 연속 기록", seen));
        assert!(
            !is_grounded("지금 4일 연속이에요!", "1번 연속 기록", seen),
            "4 is made up"
        );
        assert!(is_grounded(
            "1번은 30일 중 12번 했어요",
            "1번 30일 동안 몇 번?",
            seen
        ));
        assert!(!is_grounded(
            "1번 습관 연속 기록 알려줘",
            "1번 습관 연속 기록 알려줘",
            seen
        ));
        assert!(!is_grounded("  ", "x", seen));
        assert!(
            !is_grounded("빌딩.", "x", seen),
            "too short to say anything"
        );
        assert!(
            !is_grounded(
                "운동 습관 1개만 보여줄래?",
                "운동쪽 습관 1개만 보여줄래?",
                seen
            ),
            "the request again with a word changed"
        );
        assert!(
            is_grounded(
                "채소 먼저 먹기 습관 4번으로 추가했어요.",
                "채소 먼저 먹기 습관으로 등록할게요. 점심 먹을 때 샐러드부터 먹기",
                "4"
            ),
            "an answer may reuse the request's words"
        );
        for short in ["?", "👍", "1번", ""] {
            assert!(
                is_grounded("아침 10분 걷기를 했어요.", short, seen),
                "a request of {short:?} is too short to be echoed"
            );
        }
        assert!(!is_grounded(
            "걷기 습관을 걷기 습관으로 걷기 습관을 걷기",
            "걷기",
            "걷기"
        ));
        for unfinished in [
            "인테리어",
            "25분 집중 블록, 매일 책 10쪽, 25분 집중",
            "빌딩.휴대폰은 거실에서 충전 · 만들 습관",
        ] {
            assert!(
                !is_grounded(unfinished, "집중", "25 10"),
                "{unfinished:?} ends on a bare word"
            );
        }
        for finished in [
            "1번을 기록했어요",
            "좋습니다",
            "잘했어요 💪",
            "'아침 10분 걷기'를 추가했어요.\"",
            "계속할까",
        ] {
            assert!(
                is_grounded(finished, "x", "1 10"),
                "{finished:?} is a sentence"
            );
        }
        assert!(!is_grounded(
            "먹고 싶으면 5분 걷기. 먹고 싶으면 5분",
            "흡연 습관 바꾸기는 어떤 방법이에요?",
            "먹고 싶으면 5분 걷기"
        ));
    }

    #[test]
    fn a_stray_word_of_another_script_after_the_last_sentence_is_cut() {
        for (said, kept) in [
            (
                "매일 같은 때에 해 보세요. convirtió",
                "매일 같은 때에 해 보세요.",
            ),
            ("큰 변화를 만들어요! anschließend", "큰 변화를 만들어요!"),
            ("2번 습관 10일째야? convirtió", "2번 습관 10일째야?"),
            // Kept: no sentence end, a Korean tail, an English answer, digits only.
            ("오늘 했어요 thereupon", "오늘 했어요 thereupon"),
            ("좋아요. 내일도 해요", "좋아요. 내일도 해요"),
            ("Good job. Keep going", "Good job. Keep going"),
            ("기록했어요. 2025", "기록했어요. 2025"),
        ] {
            assert_eq!(without_stray_tail(said), kept, "{said}");
        }
    }

    #[test]
    fn usable_answers_have_letters() {
        assert!(is_usable("완료했어요."));
        assert!(!is_usable("  \n"));
        assert!(!is_usable("..."));
    }

    #[test]
    fn usable_answers_are_prose_not_data() {
        for data in [
            r#"diet.dash → {"status":"ok","data":{"id":"diet."#,
            "read-10-pages → {\"status\"",
            "diet.plant-forward",
            "빌딩.phone-outside-bedroom",
            "search_catalog를 썼어요",
            "limit = 3",
            "[1, 2]",
            "밤잠 시계 맞추기.)길이: 10분",
        ] {
            assert!(!is_usable(data), "{data}");
        }
        for prose in [
            "'채소 먼저 먹기' 습관을 추가했어요.",
            "1.5km 걸었어요!",
            "U.S. 식단도 있어요.",
            "좋아요 (내일도 화이팅)",
        ] {
            assert!(is_usable(prose), "{prose}");
        }
    }
}
