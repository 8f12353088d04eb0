//! [`ScriptedSession`]: a [`ChatSession`] that plays back a script instead of running a
//! model, and records everything it was sent — for tests of the agent loop and of UIs.
//!
//! The script is a FIFO of model turns; each turn is the list of events the "model" emits.
//! Every turn consumes one scripted turn, whatever its tool choice. A [`Transcript`] handle, cloned
//! before the session is moved into an agent, shows what the session received.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use futures::stream;
use serde_json::Value;

use crate::session::{
    ChatConfig, ChatEvent, ChatSession, EventStream, LlmError, ResultMessage, ToolCall, ToolChoice,
    TurnInput, TurnRequest,
};
use crate::tool::{BoxFuture, ValueSets};

/// Builds a script turn holding one text answer.
pub fn text(answer: impl Into<String>) -> Vec<ChatEvent> {
    vec![ChatEvent::TextDelta(answer.into())]
}

/// Builds a script event calling `name` with `args`.
pub fn call(name: impl Into<String>, args: Value) -> ChatEvent {
    ChatEvent::Call(ToolCall {
        name: name.into(),
        args,
    })
}

/// What a [`ScriptedSession`] received, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Received {
    /// Every user message.
    pub user_inputs: Vec<String>,
    /// Every batch of tool results (one batch per results turn or `record_results`).
    pub tool_results: Vec<Vec<ResultMessage>>,
    /// The tool choice of every turn, in order.
    pub choices: Vec<ToolChoice>,
    /// The values restricted parameters could take in every turn (tool → parameter →
    /// choices), in order.
    pub values: Vec<ValueSets>,
    /// The arguments every turn's call had to write (the request's `require`), in order.
    pub required: Vec<Vec<String>>,
    /// The requests of the worked examples every turn asked to show, in order.
    pub shown_examples: Vec<Vec<String>>,
    /// How many times the conversation was cleared.
    pub clears: usize,
    /// Every batch of texts the session was asked to read, in order.
    pub read: Vec<Vec<String>>,
    /// Every exchange recorded without a turn (`record_exchange`): request and answer.
    pub exchanges: Vec<(String, String)>,
}

/// A shared view of what a [`ScriptedSession`] received.
#[derive(Debug, Clone, Default)]
pub struct Transcript(Arc<Mutex<Received>>);

impl Transcript {
    /// A snapshot of everything received so far.
    pub fn received(&self) -> Received {
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Received> {
        // A panic while holding this lock can only come from a test assertion elsewhere;
        // the data is still a valid record.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// How a scripted session reads a text (see [`ScriptedSession::with_reading`]).
type ReadFn = Box<dyn Fn(&str) -> Result<Vec<f32>, LlmError> + Send>;

/// A chat session that plays back a script (the reference spec's `MockLlmChatSession`).
pub struct ScriptedSession {
    config: ChatConfig,
    script: VecDeque<Vec<ChatEvent>>,
    transcript: Transcript,
    reading: Option<ReadFn>,
}

impl std::fmt::Debug for ScriptedSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedSession")
            .field("config", &self.config)
            .field("script", &self.script)
            .field("reads", &self.reading.is_some())
            .finish_non_exhaustive()
    }
}

impl ScriptedSession {
    /// A session that will answer with `turns`, one per message it is sent.
    pub fn new(config: ChatConfig, turns: impl IntoIterator<Item = Vec<ChatEvent>>) -> Self {
        Self {
            config,
            script: turns.into_iter().collect(),
            transcript: Transcript::default(),
            reading: None,
        }
    }

    /// The same session, reading texts with `read` (a stand-in for the model's reading, see
    /// [`ChatSession::read_texts`]); without it the session cannot read.
    #[must_use]
    pub fn with_reading(
        mut self,
        read: impl Fn(&str) -> Result<Vec<f32>, LlmError> + Send + 'static,
    ) -> Self {
        self.reading = Some(Box::new(read));
        self
    }

    /// Appends a turn to the script.
    pub fn push_turn(&mut self, turn: Vec<ChatEvent>) {
        self.script.push_back(turn);
    }

    /// A handle on what the session receives; keep a clone before moving the session.
    pub fn transcript(&self) -> Transcript {
        self.transcript.clone()
    }

    /// The configuration the session was started with.
    pub fn config(&self) -> &ChatConfig {
        &self.config
    }

    /// How many scripted turns are left.
    pub fn remaining_turns(&self) -> usize {
        self.script.len()
    }

    fn next_turn(&mut self) -> EventStream<'_> {
        let items: Vec<Result<ChatEvent, LlmError>> = match self.script.pop_front() {
            Some(turn) => turn.into_iter().map(Ok).collect(),
            None => vec![Err(LlmError::ScriptExhausted)],
        };
        Box::pin(stream::iter(items))
    }
}

impl ChatSession for ScriptedSession {
    fn turn(&mut self, request: TurnRequest) -> EventStream<'_> {
        {
            let mut received = self.transcript.lock();
            received.choices.push(request.tool_choice);
            received.values.push(ValueSets::clone(&request.values));
            received.required.push(request.require);
            received.shown_examples.push(
                request
                    .examples
                    .iter()
                    .map(|e| e.request().to_owned())
                    .collect(),
            );
            match request.input {
                TurnInput::User(text) => received.user_inputs.push(text),
                TurnInput::Results(results) => received.tool_results.push(results),
            }
        }
        self.next_turn()
    }

    fn clear(&mut self) {
        self.transcript.lock().clears += 1;
    }

    fn record_results(&mut self, results: Vec<ResultMessage>) {
        self.transcript.lock().tool_results.push(results);
    }

    fn record_exchange(&mut self, request: &str, answer: &str) {
        self.transcript
            .lock()
            .exchanges
            .push((request.to_owned(), answer.to_owned()));
    }

    fn read_texts<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<Vec<f32>>>, LlmError>> {
        self.transcript.lock().read.push(texts.to_vec());
        let read = match &self.reading {
            Some(read) => texts
                .iter()
                .map(|text| read(text))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            None => Ok(None),
        };
        Box::pin(std::future::ready(read))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::StreamExt;
    use serde_json::json;

    #[tokio::test]
    async fn plays_turns_in_order_and_records_inputs() {
        let mut session = ScriptedSession::new(
            ChatConfig::default(),
            [vec![call("search", json!({"q": "걷기"}))], text("찾았어요")],
        );
        let transcript = session.transcript();
        let first: Vec<_> = session.turn(TurnRequest::user("걷기 습관")).collect().await;
        assert_eq!(first.len(), 1);
        assert!(matches!(&first[0], Ok(ChatEvent::Call(c)) if c.name == "search"));
        let result = ResultMessage {
            name: "search".into(),
            result: json!({"status": "ok", "data": {}}),
            reply: None,
        };
        let second: Vec<_> = session
            .turn(TurnRequest::results(vec![result.clone()]).with_choice(ToolChoice::None))
            .collect()
            .await;
        assert!(matches!(&second[0], Ok(ChatEvent::TextDelta(t)) if t == "찾았어요"));
        let exhausted: Vec<_> = session.turn(TurnRequest::user("또")).collect().await;
        assert!(matches!(exhausted[0], Err(LlmError::ScriptExhausted)));
        session.clear();
        assert_eq!(
            transcript.received(),
            Received {
                user_inputs: vec!["걷기 습관".into(), "또".into()],
                tool_results: vec![vec![result]],
                choices: vec![ToolChoice::Auto, ToolChoice::None, ToolChoice::Auto],
                values: vec![ValueSets::new(); 3],
                required: vec![Vec::new(); 3],
                shown_examples: vec![Vec::new(); 3],
                clears: 1,
                read: Vec::new(),
                exchanges: Vec::new(),
            }
        );
    }
}
