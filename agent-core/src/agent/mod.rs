//! The agent loop: observe → reason → act → feed back, for one user message at a time.
//!
//! [`Agent::send`] gives the user's text to the [`ChatSession`], reads the model's turn, and
//! either finishes (plain text) or runs **every** tool call of the turn, in order, through the
//! registry's dispatcher, and sends all their capped results back for the next model turn.
//! It stops at `max_turns` model turns (default 4) with "도구 호출 루프가 너무 길어
//! 중단했습니다."; the calls of that last turn are answered with a `turn_limit` error rather
//! than left unanswered. Every call the model emits gets exactly one result.
//!
//! Improvements over the reference loop: parallel calls all run (it ran only the first), a
//! call identical to one already made in this user turn — with nothing changed since by a
//! destructive tool — is answered `repeated_call` instead of running again, confirmation is
//! reported as events, and a notice is emitted once the conversation reaches the soft history
//! limit (default 8 user turns).

mod events;

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use serde_json::Value;

pub use events::{AgentEvent, EventSink, IgnoreEvents};

use crate::llm::{ChatEvent, ChatSession, EventStream, FunctionCall, LlmError, ToolResponse};
use crate::registry::Registry;
use crate::tool::ToolResult;
use events::ReportingConfirmer;

/// The default cap on model turns per user message.
pub const DEFAULT_MAX_TURNS: usize = 4;
/// The default number of user turns after which the long-conversation notice is shown.
pub const DEFAULT_SOFT_HISTORY_LIMIT: usize = 8;
/// Told to the user (and to the model, for the calls it made last) at the turn limit.
pub const TURN_LIMIT_MESSAGE: &str = "도구 호출 루프가 너무 길어 중단했습니다.";
/// The notice shown when the conversation reaches the soft history limit.
pub const LONG_CONVERSATION_NOTICE: &str =
    "대화가 길어졌어요. 새 대화를 시작하면 더 정확하게 답할 수 있어요.";
/// The reason given to the model for a repeated call.
pub const REPEATED_CALL_REASON: &str =
    "같은 도구를 같은 인자로 이미 호출했습니다. 앞의 결과를 사용해 답하세요.";

/// Why a user turn did not end with an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The model was still calling tools after `max_turns` turns.
    #[error("도구 호출 루프가 너무 길어 중단했습니다. (max {max_turns} turns)")]
    TurnLimit {
        /// The limit.
        max_turns: usize,
    },
    /// The model backend failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
}

impl AgentError {
    /// A stable code: `turn_limit`, or the backend's code (`context_full`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::TurnLimit { .. } => "turn_limit",
            Self::Llm(error) => error.code(),
        }
    }
}

/// A conversation between a user, a model and the registry's tools.
pub struct Agent<S> {
    session: S,
    registry: Arc<Registry>,
    sink: Arc<dyn EventSink>,
    max_turns: usize,
    soft_history_limit: usize,
    user_turns: usize,
    next_call_id: u64,
}

impl<S: ChatSession> Agent<S> {
    /// An agent over `session` (started with the registry's declarations) and `registry`.
    pub fn new(session: S, registry: Arc<Registry>) -> Self {
        Self {
            session,
            registry,
            sink: Arc::new(IgnoreEvents),
            max_turns: DEFAULT_MAX_TURNS,
            soft_history_limit: DEFAULT_SOFT_HISTORY_LIMIT,
            user_turns: 0,
            next_call_id: 1,
        }
    }

    /// Where events go (default: nowhere).
    #[must_use]
    pub fn with_events(mut self, sink: impl EventSink) -> Self {
        self.sink = Arc::new(sink);
        self
    }

    /// The cap on model turns per user message (at least 1; default 4).
    #[must_use]
    pub fn with_max_turns(mut self, max_turns: usize) -> Self {
        self.max_turns = max_turns.max(1);
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

    /// User turns in the current conversation.
    pub fn user_turns(&self) -> usize {
        self.user_turns
    }

    /// Starts a new conversation.
    pub fn clear(&mut self) {
        self.session.clear();
        self.user_turns = 0;
    }

    /// Handles one user message and returns the model's final answer.
    pub async fn send(&mut self, text: &str) -> Result<String, AgentError> {
        self.user_turns += 1;
        if self.user_turns == self.soft_history_limit {
            self.sink
                .emit(AgentEvent::Notice(LONG_CONVERSATION_NOTICE.to_owned()));
        }
        let mut history = CallHistory::default();
        let mut results: Option<Vec<ToolResponse>> = None;
        let mut turn = 0;
        loop {
            turn += 1;
            let stream = match results.take() {
                None => self.session.send_user(text),
                Some(results) => self.session.send_tool_results(results),
            };
            let (answer, calls) = match read_turn(stream, &*self.sink).await {
                Ok(read) => read,
                Err(error) => {
                    self.sink.emit(AgentEvent::Error {
                        code: error.code().to_owned(),
                        message: error.to_string(),
                    });
                    return Err(error.into());
                }
            };
            if calls.is_empty() {
                self.sink.emit(AgentEvent::Finished {
                    text: answer.clone(),
                });
                return Ok(answer);
            }
            if turn >= self.max_turns {
                let refused = calls
                    .into_iter()
                    .map(|call| self.refuse_call(call))
                    .collect();
                self.session.record_tool_results(refused);
                self.sink.emit(AgentEvent::TurnLimitReached {
                    max_turns: self.max_turns,
                });
                return Err(AgentError::TurnLimit {
                    max_turns: self.max_turns,
                });
            }
            let mut answered = Vec::with_capacity(calls.len());
            for call in calls {
                answered.push(self.run_call(call, &mut history).await);
            }
            results = Some(answered);
        }
    }

    /// Runs one call (or refuses a repeat) and reports it.
    async fn run_call(&mut self, call: FunctionCall, history: &mut CallHistory) -> ToolResponse {
        let call_id = self.announce(&call);
        let key = history.key(&call);
        let result = if history.is_repeat(&key) {
            ToolResult::error("repeated_call", REPEATED_CALL_REASON)
        } else {
            let confirmer = Arc::new(ReportingConfirmer {
                inner: Arc::clone(self.registry.confirmer()),
                sink: Arc::clone(&self.sink),
                call_id,
            });
            let result = self
                .registry
                .dispatch_with(&call.name, call.args, confirmer)
                .await;
            let changed_state = result.is_ok()
                && self
                    .registry
                    .get(&call.name)
                    .is_some_and(|tool| tool.is_destructive());
            history.record(key, changed_state);
            result
        };
        self.answer(call_id, call.name, result)
    }

    /// Answers a call of the turn that hit the limit, without running it.
    fn refuse_call(&mut self, call: FunctionCall) -> ToolResponse {
        let call_id = self.announce(&call);
        self.answer(
            call_id,
            call.name,
            ToolResult::error("turn_limit", TURN_LIMIT_MESSAGE),
        )
    }

    fn announce(&mut self, call: &FunctionCall) -> u64 {
        let call_id = self.next_call_id;
        self.next_call_id += 1;
        self.sink.emit(AgentEvent::ToolCallRequested {
            call_id,
            name: call.name.clone(),
            label: self.label(&call.name),
            args: call.args.clone(),
        });
        call_id
    }

    fn answer(&self, call_id: u64, name: String, result: ToolResult) -> ToolResponse {
        let capped = self.registry.result_cap().apply(&result);
        self.sink.emit(AgentEvent::ToolResult {
            call_id,
            name: name.clone(),
            label: self.label(&name),
            result,
            sent: capped.value.clone(),
            truncated: capped.truncated,
        });
        ToolResponse {
            name,
            result: capped.value,
        }
    }

    fn label(&self, name: &str) -> String {
        self.registry
            .get(name)
            .map_or_else(|| name.to_owned(), |tool| tool.label().to_owned())
    }
}

impl<S> std::fmt::Debug for Agent<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("registry", &self.registry)
            .field("max_turns", &self.max_turns)
            .field("user_turns", &self.user_turns)
            .finish_non_exhaustive()
    }
}

/// Reads one model turn: streams its text to the sink, collects its calls.
async fn read_turn(
    mut stream: EventStream<'_>,
    sink: &dyn EventSink,
) -> Result<(String, Vec<FunctionCall>), LlmError> {
    let mut answer = String::new();
    let mut calls = Vec::new();
    while let Some(event) = stream.next().await {
        match event? {
            ChatEvent::TextDelta(delta) => {
                answer.push_str(&delta);
                sink.emit(AgentEvent::TextDelta(delta));
            }
            ChatEvent::FunctionCall(call) => calls.push(call),
        }
    }
    Ok((answer, calls))
}

/// The calls made during one user turn, and whether state changed since.
#[derive(Default)]
struct CallHistory {
    /// Bumped whenever a destructive call succeeds: a read after it may differ.
    generation: u64,
    seen: HashMap<String, u64>,
}

impl CallHistory {
    fn key(&self, call: &FunctionCall) -> String {
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
        let call = FunctionCall {
            name: "list".into(),
            args: json!({}),
        };
        let key = history.key(&call);
        assert!(!history.is_repeat(&key));
        history.record(key.clone(), false);
        assert!(history.is_repeat(&key));
        history.record("add\0{}".into(), true);
        assert!(
            !history.is_repeat(&key),
            "a destructive success may change the answer"
        );
    }
}
