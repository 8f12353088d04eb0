//! [`Agent`]: one conversation, a message at a time — ask the tool-choice stage for the
//! turn's plan, have the model write each step's call, run it, and end with words.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::StreamExt;

use super::answer::{
    is_grounded, is_usable, only_repeats, opens_with_a_request, repeats_earlier, squash,
    without_stray_tail,
};
use super::calls::Calls;
use super::claims::Claims;
use super::error::AgentError;
use super::events::AgentEvent;
use super::interrupt::{Interrupter, Interruptible};
use super::report::Reporter;
use super::turn::{Outcome, Turn};
use crate::choice::{Chooser, Conversation, Step};
use crate::messages::Messages;
use crate::registry::Registry;
use crate::session::{ChatEvent, ChatSession, ToolCall, ToolChoice, TurnInput, TurnRequest};
use crate::tool::{ErrorCode, Example, JournalEntry, ToolResult, ValueSets};

/// The default cap on model turns per user message.
pub const DEFAULT_MAX_TURNS: usize = 4;
/// The default number of user turns after which the long-conversation notice is shown.
pub const DEFAULT_SOFT_HISTORY_LIMIT: usize = 8;

/// How many earlier user messages an answer is checked against.
const EARLIER_MESSAGES: usize = 8;

/// A conversation between a user, a model and the registry's tools.
pub struct Agent<S> {
    pub(super) session: S,
    pub(super) registry: Arc<Registry>,
    pub(super) calls: Calls,
    pub(super) reporter: Arc<Reporter>,
    pub(super) chooser: Chooser,
    pub(super) messages: Messages,
    pub(super) max_turns: usize,
    pub(super) soft_history_limit: usize,
    pub(super) user_turns: usize,
    /// The conversation's earlier user messages (the last few), which an answer must not
    /// repeat: the small model's favourite answer to a greeting is the previous request.
    pub(super) earlier: Vec<String>,
    pub(super) interrupter: Interrupter,
    /// The calls of the conversation's earlier turns, which a follow-up is read with.
    pub(super) conversation: Conversation,
    /// The words by which an answer says an action was done, for this registry's tools.
    pub(super) claims: Claims,
}

impl<S: ChatSession> Agent<S> {
    /// An agent over `session` (started with [`ChatConfig::new`](crate::ChatConfig::new) of
    /// the same registry) and `registry`, with its one tool-choice stage. Destructive calls
    /// are denied until [`with_confirmer`](Self::with_confirmer) says who asks.
    pub fn new(session: S, registry: Arc<Registry>) -> Self {
        let reporter = Arc::new(Reporter::new());
        Self {
            session,
            chooser: Chooser::new(&registry),
            claims: Claims::new(&registry),
            calls: Calls::new(Arc::clone(&registry), Arc::clone(&reporter)),
            registry,
            reporter,
            messages: Messages::default(),
            max_turns: DEFAULT_MAX_TURNS,
            soft_history_limit: DEFAULT_SOFT_HISTORY_LIMIT,
            user_turns: 0,
            earlier: Vec::new(),
            interrupter: Interrupter::default(),
            conversation: Conversation::new(),
        }
    }

    /// Starts a new conversation.
    pub fn clear(&mut self) {
        self.session.clear();
        self.user_turns = 0;
        self.earlier.clear();
        self.conversation.clear();
        self.calls.take_ran();
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
        self.conversation.record(self.calls.take_ran());
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
        let mut evidence = Interruptible {
            session: &mut self.session,
            interrupter: self.interrupter.clone(),
        };
        self.chooser.prepare(&mut evidence).await
    }

    async fn run(&mut self, text: &str) -> Result<String, AgentError> {
        let mut evidence = Interruptible {
            session: &mut self.session,
            interrupter: self.interrupter.clone(),
        };
        self.chooser.prepare(&mut evidence).await?;
        let mut plan = self
            .chooser
            .plan_in(
                text,
                &self.conversation,
                self.calls.dispatcher(),
                &mut evidence,
            )
            .await?;
        if let Some(entry) = plan.undo() {
            let entry = entry.clone();
            return self.undo(text, &entry).await;
        }
        if plan.model_decides() {
            return self.model_decides(text, Arc::clone(plan.values())).await;
        }
        self.emit(AgentEvent::Planned(plan.decision.clone()));
        let mut turn = Turn::new();
        let mut values = Arc::clone(plan.values());
        let mut input = TurnInput::User(text.to_owned());
        // One model turn is kept for the answer.
        let mut index = 0;
        while index < plan.decision.plan.len().min(self.max_turns - 1) {
            let results: Vec<&serde_json::Value> = match &input {
                TurnInput::Results(results) => results.iter().map(|r| &r.result).collect(),
                TurnInput::User(_) => Vec::new(),
            };
            let step = self.chooser.step(
                &plan,
                index,
                self.calls.dispatcher(),
                &results,
                &turn.written,
            );
            let (tool, allowed, require) = match step {
                Some(Step::Call {
                    tool,
                    values,
                    require,
                }) => (tool, values, require),
                Some(Step::Unavailable { label, param, .. }) => {
                    if index > 0 {
                        // The results so far are answered in words.
                        break;
                    }
                    return self.nothing_to_choose(text, &label, &param, &turn);
                }
                _ => break,
            };
            values = allowed;
            let copy_sources = BTreeMap::from([(tool.clone(), self.copy_sources(&tool, text))]);
            let request = TurnRequest {
                input,
                tool_choice: ToolChoice::Call(vec![tool]),
                values: Arc::clone(&values),
                require,
                quote: text.to_owned(),
                copy_sources,
                examples: Vec::new(),
            };
            // Buffered, not streamed: words where a call was asked for are judged first.
            let (answer, calls) = self.read(request, &turn).await?;
            if calls.is_empty() {
                // A backend that answered in words where a call was asked for: its words
                // are the answer, unless they say the call it did not write was done.
                return self.words_instead_of_a_call(answer, text, &mut turn);
            }
            if !answer.is_empty() {
                self.emit(AgentEvent::TextDelta(answer));
            }
            let results = self
                .calls
                .run(calls, &mut turn, &self.interrupter, &self.messages)
                .await?;
            input = TurnInput::Results(results);
            if !turn.all_ok {
                break;
            }
            if index == 0 {
                // A list where the call took one value: a call for each other member, as
                // many as the turn has model turns for.
                let room = self.max_turns.saturating_sub(2);
                let added = self.chooser.repeat_for_list(
                    &mut plan,
                    self.calls.dispatcher(),
                    &turn.written,
                    room,
                );
                if added > 0 {
                    self.emit(AgentEvent::Planned(plan.decision.clone()));
                }
            }
            index += 1;
        }
        let shots = match &input {
            TurnInput::User(_) => plan.shot().cloned().into_iter().collect(),
            TurnInput::Results(_) => Vec::new(),
        };
        self.answer(input, text, &values, shots, &mut turn).await
    }

    /// Answers a request whose first step cannot be called — a parameter it requires has
    /// nothing to choose from (`param`) — without the model: there is nothing to ask it for,
    /// or a person to confirm, as the call could only name something that does not exist.
    /// The exchange joins the model's history as the person saw it, so the next message
    /// does not follow a gap.
    fn nothing_to_choose(
        &mut self,
        text: &str,
        label: &str,
        param: &str,
        turn: &Turn,
    ) -> Result<String, AgentError> {
        let answer = self
            .messages
            .nothing_to_choose
            .replace("{tool}", label)
            .replace("{param}", param);
        self.session.record_exchange(text, &answer);
        self.emit(AgentEvent::TextDelta(answer.clone()));
        self.emit(AgentEvent::DefaultAnswer {
            text: answer.clone(),
            held_back: None,
        });
        self.finish(answer, turn)
    }

    /// Takes back the journaled call `entry`, as the request asked, and answers without the
    /// model: the undo is the runtime's own action, so are its words — what was undone, why
    /// it could not be, or that nothing ran without a yes. The exchange joins the model's
    /// history as the person saw it.
    async fn undo(&mut self, text: &str, entry: &JournalEntry) -> Result<String, AgentError> {
        let mut turn = Turn::new();
        let result = self.calls.undo(entry, &mut turn, &self.messages).await;
        let answer = match &result {
            ToolResult::Ok { .. } => {
                turn.last = Some(Outcome::Ok);
                self.messages
                    .undone
                    .replace("{summary}", &entry.record.summary)
            }
            ToolResult::Cancelled { .. } => {
                turn.last = Some(Outcome::Cancelled);
                self.messages.after_cancel.to_string()
            }
            ToolResult::Error(error) => {
                turn.last = Some(Outcome::Error);
                if error.is(ErrorCode::NotUndoable) {
                    self.messages
                        .not_undoable
                        .replace("{tool}", &self.calls.label(&entry.record.tool))
                } else {
                    self.messages
                        .undo_failed
                        .replace("{reason}", error.reason())
                }
            }
        };
        self.session.record_exchange(text, &answer);
        self.emit(AgentEvent::TextDelta(answer.clone()));
        self.finish(answer, &turn)
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
            copy_sources: BTreeMap::new(),
            examples: shots,
        };
        // Buffered, not streamed: the answer is shown only once it is checked.
        let (answer, calls) = self.read(request, turn).await?;
        let answer = without_stray_tail(answer.trim()).to_owned();
        if !calls.is_empty() {
            // No call was allowed; each still gets its result in the history.
            let refused = calls
                .into_iter()
                .map(|call| self.calls.refuse(call, &self.messages.turn_limit))
                .collect();
            self.session.record_results(refused);
        }
        // A claim that something was done stands only in a turn where a write succeeded:
        // the model reports the write the request asked for whether or not it ran.
        let false_claim = self.claims.claims_done(&answer) && !self.wrote(turn);
        // A no-tool example's answer ("안녕하세요! 무엇을 도와드릴까요?") was written for a
        // request that needs no tool, and an example's request is the prompt's next example:
        // after results neither says anything of them.
        if after_results
            && !false_claim
            && is_grounded(&answer, request_text, &turn.seen)
            && !self.is_a_chat_answer(&answer)
            && !opens_with_a_request(&answer, self.registry.examples().map(|e| e.request()))
        {
            self.emit(AgentEvent::TextDelta(answer.trim().to_owned()));
            return self.finish(answer.trim().to_owned(), turn);
        }
        if !after_results && false_claim {
            return self.refuse_claim(&answer, request_text, shown, turn);
        }
        if !after_results
            && is_usable(&answer)
            && !only_repeats(&answer, request_text)
            && !repeats_earlier(&answer, &self.earlier)
            && !self.speaks_as_the_user(&answer)
        {
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

    /// Ends the turn with the words the model wrote where it could have called a tool:
    /// shown as they are, unless they say something was done that was not — then, after a
    /// call, the default words for how it went ([`finish`](Self::finish)), and with no call
    /// [`refuse_claim`](Self::refuse_claim)'s.
    fn words_instead_of_a_call(
        &mut self,
        answer: String,
        request_text: &str,
        turn: &mut Turn,
    ) -> Result<String, AgentError> {
        if self.claims.claims_done(&answer) && !self.wrote(turn) {
            if turn.last.is_some() {
                turn.held_back = Some(answer.trim().to_owned());
                return self.finish(String::new(), turn);
            }
            return self.refuse_claim(&answer, request_text, None, turn);
        }
        // Words `finish` replaces are not shown first.
        if is_usable(&answer) {
            self.emit(AgentEvent::TextDelta(answer.clone()));
        }
        self.finish(answer, turn)
    }

    /// Ends a turn in which no write succeeded but the model's `answer` says one was done:
    /// the answer is held back, and the person is told that nothing was done where the
    /// request asked for something; a request that asked for nothing ("고마워", "👍") gets
    /// the answer of the chat example `shown` for it instead, where there is one.
    fn refuse_claim(
        &mut self,
        answer: &str,
        request_text: &str,
        shown: Option<String>,
        turn: &mut Turn,
    ) -> Result<String, AgentError> {
        turn.held_back = Some(answer.trim().to_owned());
        let asked = self.chooser.asks_an_action(request_text)
            || crate::request::Request::new(request_text).asks_to_do();
        let text = match shown {
            Some(shown) if !asked => shown,
            _ => self.messages.nothing_done.to_string(),
        };
        self.emit(AgentEvent::TextDelta(text.clone()));
        self.emit(AgentEvent::DefaultAnswer {
            text: text.clone(),
            held_back: turn.held_back.clone(),
        });
        self.finish(text, turn)
    }

    /// Whether a words-only `answer` asks, as the person would, for the action of one of the
    /// app's tools ("3번 할 일 삭제해줘", "2번 마감일 내일로 바꿔줘"): the model wrote the
    /// person's next message, not an answer to this one.
    fn speaks_as_the_user(&self, answer: &str) -> bool {
        crate::request::Request::new(answer).asks_to_do() && self.chooser.asks_an_action(answer)
    }

    /// Whether a call of a destructive tool succeeded in `turn`.
    fn wrote(&self, turn: &Turn) -> bool {
        turn.completed.iter().any(|call| {
            matches!(call.result, ToolResult::Ok { .. })
                && self
                    .registry
                    .get(&call.name)
                    .is_some_and(crate::tool::ToolDefinition::is_destructive)
        })
    }

    /// Whether `answer` is, letter for letter, the answer of a declared example that needs
    /// no tool other than the `shown` one.
    fn copies_another_answer(&self, answer: &str, shown: &str) -> bool {
        squash(answer) != squash(shown) && self.is_a_chat_answer(answer)
    }

    /// Whether `answer` is, letter for letter, the answer of a declared example that needs
    /// no tool.
    fn is_a_chat_answer(&self, answer: &str) -> bool {
        let answer = squash(answer);
        self.registry.examples().any(|example| {
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

    /// Per grounded text parameter of `tool`, what a call made for the request `text` may
    /// copy (see [`TurnRequest::copy_sources`]).
    fn copy_sources(&self, tool: &str, text: &str) -> BTreeMap<String, String> {
        self.registry
            .get(tool)
            .map(|tool| crate::request::copy_sources(tool, &crate::request::Request::new(text)))
            .unwrap_or_default()
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
                copy_sources: self
                    .registry
                    .tools()
                    .map(|tool| (tool.name().to_owned(), self.copy_sources(tool.name(), text)))
                    .filter(|(_, sources)| !sources.is_empty())
                    .collect(),
                examples: Vec::new(),
            };
            // Buffered, not streamed: words that end the turn are judged first.
            let (answer, calls) = self.read(request, &turn).await?;
            if calls.is_empty() {
                return self.words_instead_of_a_call(answer, text, &mut turn);
            }
            if !answer.is_empty() {
                self.emit(AgentEvent::TextDelta(answer));
            }
            if model_turn >= self.max_turns {
                let refused = calls
                    .into_iter()
                    .map(|call| self.calls.refuse(call, &self.messages.turn_limit))
                    .collect();
                self.session.record_results(refused);
                self.emit(AgentEvent::TurnLimitReached {
                    max_turns: self.max_turns,
                });
                return Err(AgentError::TurnLimit {
                    max_turns: self.max_turns,
                });
            }
            let results = self
                .calls
                .run(calls, &mut turn, &self.interrupter, &self.messages)
                .await?;
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

    /// Reads one model turn: collects its text and its calls. The text is not streamed: the
    /// words a turn ends with are judged before they are shown. Interruptible.
    async fn read(
        &mut self,
        request: TurnRequest,
        turn: &Turn,
    ) -> Result<(String, Vec<ToolCall>), AgentError> {
        let interrupter = self.interrupter.clone();
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
                Some(Ok(ChatEvent::TextDelta(delta))) => answer.push_str(&delta),
                Some(Ok(ChatEvent::Call(call))) => calls.push(call),
                Some(Err(error)) => return Err(error.into()),
            }
        }
        Ok((answer, calls))
    }

    fn emit(&self, event: AgentEvent) {
        self.reporter.emit(event);
    }
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
