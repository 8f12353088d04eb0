//! Examples: requests a person might make, with what the assistant should do about them — the
//! calls (one, several in order, or none) and, optionally, the words of its answer.
//!
//! Examples are part of a declaration, like its doc comments: `#[tool(example(…))]` gives a
//! tool its own single-call examples, [`RegistryBuilder::example`](crate::RegistryBuilder::example)
//! adds multi-step ones and requests that need no tool at all. The registry checks every one
//! when it is built (each call names a registered tool, its arguments satisfy that tool's
//! schema), so a bad example is a start-up error, never a silently wrong prompt. They are
//! used three ways: the tool-choice stage learns from the requests, prompt formats show them
//! to the model as few-shot turns, and tests and evaluations can replay them.
//!
//! Examples are also data: an app with many keeps them in a JSON file beside its code
//! ([`RegistryBuilder::examples_json`](crate::RegistryBuilder::examples_json)), each one
//! written as [`Example`] serializes — `{"request": …, "calls": [{"tool": …, "args": {…}}],
//! "result": …, "answer": …}`, every field but `request` optional.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One call of an example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleCall {
    /// The tool called.
    pub tool: String,
    /// Its arguments (a JSON object).
    pub args: Value,
}

/// A request and what it should lead to; see the module doc.
///
/// ```
/// use agent_core::Example;
/// use serde_json::json;
///
/// let search_then_add = Example::new("명상 습관 찾아서 추가해줘")
///     .call("search_catalog", json!({"keyword": "명상"}))
///     .call("add_habit", json!({"protocol_id": "build.breathing-2min", "frame_level": 1, "framed_text": "2분 호흡하기"}));
/// let chat = Example::new("고마워!").answer("천만에요. 언제든 불러 주세요.");
/// assert_eq!(search_then_add.calls().len(), 2);
/// assert!(chat.calls().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    request: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    calls: Vec<ExampleCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
    /// The tool's own sentence about `result`, filled in from the registry.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    reply: Option<String>,
}

impl Example {
    /// An example for `request`; with no calls added it is a request that needs no tool.
    pub fn new(request: impl Into<String>) -> Self {
        Self {
            request: request.into(),
            calls: Vec::new(),
            result: None,
            answer: None,
            reply: None,
        }
    }

    /// Adds the next call the request should lead to.
    #[must_use]
    pub fn call(mut self, tool: impl Into<String>, args: Value) -> Self {
        self.calls.push(ExampleCall {
            tool: tool.into(),
            args,
        });
        self
    }

    /// An illustrative result of the (single) call, as the model receives it
    /// (`{"status":"ok","data":{…}}`, or `cancelled`/`error`), so a prompt can show the whole
    /// exchange: request, call, result, answer. Not checked against the tool — it is what
    /// the tool *might* answer.
    #[must_use]
    pub fn result(mut self, result: Value) -> Self {
        self.result = Some(result);
        self
    }

    /// The words the assistant answers with (for a request that needs no tool, its whole
    /// answer; with a [`result`](Self::result), what it says about the result).
    #[must_use]
    pub fn answer(mut self, text: impl Into<String>) -> Self {
        self.answer = Some(text.into());
        self
    }

    /// The request.
    pub fn request(&self) -> &str {
        &self.request
    }

    /// The calls, in order; empty when the request needs no tool.
    pub fn calls(&self) -> &[ExampleCall] {
        &self.calls
    }

    /// The answer, if one was given.
    pub fn answer_text(&self) -> Option<&str> {
        self.answer.as_deref()
    }

    /// The illustrative result, if one was given.
    pub fn result_value(&self) -> Option<&Value> {
        self.result.as_ref()
    }

    /// The tool's own sentence about the illustrative result (its
    /// [`reply`](crate::ToolDefinitionBuilder::reply)), which a prompt shows beside the
    /// result as it does for real ones. Filled in by
    /// [`ChatConfig::new`](crate::ChatConfig::new) from the registry; `None` before that,
    /// for a result that is not a success, or for a tool without a reply.
    pub fn reply_text(&self) -> Option<&str> {
        self.reply.as_deref()
    }

    /// The data of the illustrative result, if it is a success (`{"status":"ok","data":…}`):
    /// what a tool's [`reply`](crate::ToolDefinitionBuilder::reply) is written from.
    pub(crate) fn ok_data(&self) -> Option<&Value> {
        let result = self.result.as_ref()?;
        (result.get("status") == Some(&Value::from("ok")))
            .then(|| result.get("data"))
            .flatten()
    }

    /// The example with `reply` as its result's reply (see [`reply_text`](Self::reply_text)).
    pub(crate) fn with_reply(mut self, reply: Option<String>) -> Self {
        self.reply = reply;
        self
    }

    /// The tool names of the calls, in order: the example's plan.
    pub fn plan(&self) -> Vec<&str> {
        self.calls.iter().map(|c| c.tool.as_str()).collect()
    }
}
