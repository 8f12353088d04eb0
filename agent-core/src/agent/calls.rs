//! Running the calls a model wrote ([`Calls`]): each through the dispatcher — and so, for a
//! destructive tool, through the confirmation gate — announced and answered as events, and
//! capped before its result goes back to the model. Every call gets exactly one result.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::answer::result_facts;
use super::error::{AgentError, CompletedCall};
use super::events::AgentEvent;
use super::history::CallHistory;
use super::interrupt::Interrupter;
use super::report::{Reporter, ReportingConfirmer};
use super::turn::Turn;
use crate::choice::PastCall;
use crate::dispatch::Dispatcher;
use crate::layer::confirm::{Confirmer, DenyAll};
use crate::messages::Messages;
use crate::registry::Registry;
use crate::session::{ResultMessage, ToolCall};
use crate::tool::{ErrorCode, JournalEntry, ToolResult};

/// The part of an agent that runs calls; see the module doc.
pub(super) struct Calls {
    registry: Arc<Registry>,
    dispatcher: Dispatcher,
    reporter: Arc<Reporter>,
    next_call_id: u64,
    /// The calls run since [`take_ran`](Self::take_ran) was last asked, for the
    /// conversation.
    ran: Vec<PastCall>,
}

impl Calls {
    /// Calls of `registry`'s tools, reported to `reporter`, with destructive ones denied
    /// until [`set_confirmer`](Self::set_confirmer) says who asks.
    pub(super) fn new(registry: Arc<Registry>, reporter: Arc<Reporter>) -> Self {
        let dispatcher = dispatcher(&registry, Arc::new(DenyAll), &reporter);
        Self {
            registry,
            dispatcher,
            reporter,
            next_call_id: 1,
            ran: Vec::new(),
        }
    }

    /// Who confirms destructive calls from now on.
    pub(super) fn set_confirmer(&mut self, confirmer: Arc<dyn Confirmer>) {
        self.dispatcher = dispatcher(&self.registry, confirmer, &self.reporter);
    }

    /// The calls run since the last time this was asked (tool, arguments, result data).
    pub(super) fn take_ran(&mut self) -> Vec<PastCall> {
        std::mem::take(&mut self.ran)
    }

    /// The dispatcher calls run through.
    pub(super) fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// Runs the calls of one model turn in order; a call that started is never abandoned.
    /// An optional argument that only repeats another is left out before anyone sees the
    /// call; a call the model already made this turn, with nothing changed since by a
    /// destructive tool, is answered `repeated_call` instead of running again.
    pub(super) async fn run(
        &mut self,
        calls: Vec<ToolCall>,
        turn: &mut Turn,
        interrupter: &Interrupter,
        messages: &Messages,
    ) -> Result<Vec<ResultMessage>, AgentError> {
        let mut results = Vec::with_capacity(calls.len());
        for mut call in calls {
            if let Some(tool) = self.dispatcher.get(&call.name) {
                crate::choice::arguments::tidy(tool, &mut call.args);
            }
            if interrupter.is_requested() {
                return Err(AgentError::Interrupted {
                    completed: turn.completed.clone(),
                });
            }
            let call_id = self.announce(&call);
            turn.written.push((call.name.clone(), call.args.clone()));
            let key = CallHistory::key(&call);
            let result = if turn.history.is_repeat(&key) {
                ToolResult::error(ErrorCode::RepeatedCall, messages.repeated_call.to_string())
            } else {
                self.reporter.call_id.store(call_id, Ordering::SeqCst);
                let args = call.args.clone();
                let result = self.dispatcher.dispatch(&call.name, call.args).await;
                self.ran.push(PastCall {
                    tool: call.name.clone(),
                    args,
                    data: result.data().cloned(),
                });
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
                    let tool = self.dispatcher.get(&call.name);
                    let reply = tool.and_then(|tool| tool.reply(data));
                    // A tool without a sentence of its own still has its result told: its
                    // key facts, never a bare "done" for a call that did something.
                    turn.reply = reply.clone().or_else(|| {
                        let facts = result_facts(data, &messages.count_of_items)?;
                        Some(
                            messages
                                .result_facts
                                .replace("{tool}", &self.label(&call.name))
                                .replace("{facts}", &facts),
                        )
                    });
                    reply
                }
                _ => None,
            };
            let mut message = self.answer_call(call_id, call.name, result.clone());
            message.reply = reply;
            turn.observe(&result, &message.result);
            results.push(message);
        }
        if interrupter.is_requested() {
            return Err(AgentError::Interrupted {
                completed: turn.completed.clone(),
            });
        }
        Ok(results)
    }

    /// Runs the undo of the journaled call `entry` (see
    /// [`Dispatcher::undo`](crate::Dispatcher::undo)), announced and answered as events like
    /// any call: the undo is confirmed by the same confirmer, under the undo's label.
    pub(super) async fn undo(
        &mut self,
        entry: &JournalEntry,
        turn: &mut Turn,
        messages: &Messages,
    ) -> ToolResult {
        let name = entry.record.tool.clone();
        let label = messages
            .undo_label
            .replace("{tool}", &self.label(&entry.record.tool));
        let call_id = self.announce_as(&name, &label, &entry.record.arguments);
        self.reporter.call_id.store(call_id, Ordering::SeqCst);
        let result = self.dispatcher.undo(entry, messages).await;
        turn.completed.push(CompletedCall {
            name: name.clone(),
            label: label.clone(),
            result: result.clone(),
        });
        self.answer_as(call_id, name, label, result.clone());
        result
    }

    /// Answers a call that may not run (the turn's limit, or no call was allowed) with a
    /// `turn_limit` error giving `reason`.
    pub(super) fn refuse(&mut self, call: ToolCall, reason: &str) -> ResultMessage {
        let call_id = self.announce(&call);
        let result = ToolResult::error(ErrorCode::TurnLimit, reason.to_owned());
        self.answer_call(call_id, call.name, result)
    }

    /// A tool's label, or its name when there is no such tool.
    pub(super) fn label(&self, name: &str) -> String {
        self.dispatcher
            .get(name)
            .map_or_else(|| name.to_owned(), |tool| tool.label().to_owned())
    }

    fn announce(&mut self, call: &ToolCall) -> u64 {
        let label = self.label(&call.name);
        self.announce_as(&call.name, &label, &call.args)
    }

    /// Numbers a call and reports it under `label`.
    fn announce_as(&mut self, name: &str, label: &str, args: &serde_json::Value) -> u64 {
        let call_id = self.next_call_id;
        self.next_call_id += 1;
        self.reporter.emit(AgentEvent::ToolCallRequested {
            call_id,
            name: name.to_owned(),
            label: label.to_owned(),
            args: args.clone(),
        });
        call_id
    }

    fn answer_call(&self, call_id: u64, name: String, result: ToolResult) -> ResultMessage {
        let label = self.label(&name);
        self.answer_as(call_id, name, label, result)
    }

    /// Reports a call's result under `label` and caps it for the model.
    fn answer_as(
        &self,
        call_id: u64,
        name: String,
        label: String,
        result: ToolResult,
    ) -> ResultMessage {
        let capped = self.registry.result_cap().apply(&result);
        self.reporter.emit(AgentEvent::ToolResult {
            call_id,
            name: name.clone(),
            label,
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
}

/// A dispatcher over `registry` whose confirmations are reported to `reporter`.
fn dispatcher(
    registry: &Arc<Registry>,
    confirmer: Arc<dyn Confirmer>,
    reporter: &Arc<Reporter>,
) -> Dispatcher {
    Dispatcher::new(
        Arc::clone(registry),
        ReportingConfirmer {
            inner: confirmer,
            reporter: Arc::clone(reporter),
        },
    )
}
