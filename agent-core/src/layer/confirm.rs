//! Human in the loop: where a destructive call gets confirmed.
//!
//! Every dispatcher puts a [`ConfirmGate`] in front of each destructive tool when it is
//! built — a decorator around the tool's handler, like a tower layer, which owns its
//! [`Confirmer`]. The gate asks it — the UI's dialog, the terminal prompt, an MCP client's
//! elicitation, or a stock confirmer — and runs the tool only on [`Confirmation::Approve`];
//! anything else answers the model `{"status":"cancelled",…}`.
//!
//! What the confirmer is shown is the whole call ([`ConfirmRequest`]): besides the one-line
//! summary, every argument the call carries, in schema order, with the parameter's
//! description and — for a value the app knows, such as an id — what it refers to. A summary
//! is never the only thing a person sees: it is written by the tool's author, and a hostile
//! model can make a text argument say anything.
//!
//! Nothing runs destructive without a yes: [`DenyAll`] is what an app gets when it configures
//! no confirmer, and [`ApproveAll`] must be chosen explicitly.

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use crate::inert::clip;

use crate::tool::{
    BoxFuture, CallContext, Confirmed, NOT_CONFIRMED, ToolDefinition, ToolHandler, ToolResult,
};

/// What a confirmer is shown about a destructive call.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfirmRequest {
    /// The tool name.
    pub tool: String,
    /// The tool's human label (e.g. "습관 추가").
    pub label: String,
    /// The tool's description.
    pub description: String,
    /// The call's confirmation summary (e.g. "'아침 걷기' 습관을 추가합니다").
    pub summary: String,
    /// Every argument of the call, in the schema's order; see [`ConfirmArgument`].
    pub arguments: Vec<ConfirmArgument>,
    /// The validated arguments as JSON, exactly as the tool receives them.
    pub args: Value,
    /// For the undo of a journaled call, that entry's id: the arguments are the undone
    /// call's, and the label and summary say it is being undone.
    pub undo_of: Option<u64>,
}

/// One argument of a call being confirmed.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfirmArgument {
    /// The argument's JSON name.
    pub name: String,
    /// What the parameter is, for a person: the first sentence of its description.
    pub label: String,
    /// The value, as the tool receives it.
    pub value: Value,
    /// What the value refers to, when the tool's value provider knows (a habit's text, a
    /// protocol's title).
    pub meaning: Option<String>,
}

impl ConfirmRequest {
    /// The request for a call of `tool` with validated `call` arguments.
    pub(crate) fn new(tool: &ToolDefinition, call: &CallContext) -> Self {
        let args = call.args().clone();
        let values = tool.current_values(call.deps());
        let properties = tool
            .parameters()
            .get("properties")
            .and_then(Value::as_object);
        let mut names: Vec<&String> = properties.into_iter().flatten().map(|(k, _)| k).collect();
        if let Some(object) = args.as_object() {
            // Keys the schema does not name reach a tool only where its schema admits them
            // (the dispatcher drops the others): what is shown is what runs.
            let extra: Vec<&String> = object.keys().filter(|k| !names.contains(k)).collect();
            names.extend(extra);
        }
        let arguments = names
            .into_iter()
            .filter_map(|name| {
                let value = args.get(name).filter(|v| !v.is_null())?;
                let meaning = values
                    .iter()
                    .find(|(param, _)| param == name)
                    .and_then(|(_, choices)| choices.iter().find(|c| c.value == *value))
                    .map(|choice| choice.label.clone());
                Some(ConfirmArgument {
                    name: name.clone(),
                    label: parameter_label(tool, name),
                    value: value.clone(),
                    meaning,
                })
            })
            .collect();
        Self {
            tool: tool.name().to_owned(),
            label: tool.label().to_owned(),
            description: tool.description().to_owned(),
            summary: tool.summarize(&args),
            arguments,
            args,
            undo_of: None,
        }
    }
}

/// The most characters of one value [`ConfirmRequest::lines`] shows before clipping it
/// (with a marker saying how many were left out).
pub const MAX_SHOWN_CHARS: usize = 300;

/// What a person is shown of a call, each line inert — every character a terminal, a form or
/// a dialog could interpret, or that draws nothing, shown as a visible escape (see
/// [`inert`](crate::inert)) — and each text clipped at [`MAX_SHOWN_CHARS`] with a marker. No
/// line holds a line break, so nothing the model or a client wrote can draw a line of its
/// own; a UI wraps each line itself (e.g. with [`inert::wrap`](crate::inert::wrap)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmLines {
    /// The tool's label ("습관 추가"), for the title.
    pub label: String,
    /// The tool's description, one entry per non-empty line.
    pub description: Vec<String>,
    /// The call's summary.
    pub summary: String,
    /// One line per argument: `label: value` and, when the app knows, ` — meaning`.
    pub arguments: Vec<String>,
}

impl ConfirmRequest {
    /// The call as a person is shown it, made inert and bounded; see [`ConfirmLines`]. The
    /// terminal dialog, the MCP confirmation form and any app's dialog show these lines.
    pub fn lines(&self) -> ConfirmLines {
        let description = self
            .description
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|line| clip(line, MAX_SHOWN_CHARS))
            .collect();
        let arguments = self
            .arguments
            .iter()
            .map(|argument| {
                let value = match &argument.value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                let meaning = argument
                    .meaning
                    .as_ref()
                    .map(|meaning| format!(" — {}", clip(meaning, MAX_SHOWN_CHARS)))
                    .unwrap_or_default();
                format!(
                    "{}: {}{meaning}",
                    clip(&argument.label, MAX_SHOWN_CHARS),
                    clip(&value, MAX_SHOWN_CHARS)
                )
            })
            .collect();
        ConfirmLines {
            label: clip(self.label.trim(), MAX_SHOWN_CHARS),
            description,
            summary: clip(self.summary.trim(), MAX_SHOWN_CHARS),
            arguments,
        }
    }
}

/// What a parameter of `tool` is, for a person: the first sentence of its description, or
/// its name where it has none.
pub(crate) fn parameter_label(tool: &ToolDefinition, name: &str) -> String {
    let description = tool
        .parameters()
        .get("properties")
        .and_then(|properties| properties.get(name))
        .and_then(|schema| schema.get("description"))
        .and_then(Value::as_str)
        .unwrap_or(name);
    first_sentence(description)
}

/// The first sentence (or line) of a parameter description, as a label.
fn first_sentence(description: &str) -> String {
    let line = description.lines().next().unwrap_or_default().trim();
    let end = line
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '.' | '。') && line[i + c.len_utf8()..].starts_with([' ', '\t'])
                || matches!(c, '(' | '\u{FF08}')
        })
        .map_or(line.len(), |(i, _)| i);
    line[..end].trim().to_owned()
}

/// A confirmer's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Run the tool.
    Approve,
    /// Do not run it; the model is told the call was cancelled.
    Deny {
        /// Told to the model instead of "user did not confirm", when given.
        reason: Option<String>,
    },
}

impl Confirmation {
    /// A denial without a reason.
    pub fn deny() -> Self {
        Self::Deny { reason: None }
    }

    /// `true` for [`Confirmation::Approve`].
    pub fn is_approved(&self) -> bool {
        matches!(self, Self::Approve)
    }
}

impl From<bool> for Confirmation {
    fn from(approved: bool) -> Self {
        if approved {
            Self::Approve
        } else {
            Self::deny()
        }
    }
}

/// Decides whether a destructive call may run.
///
/// Implemented for async closures `Fn(ConfirmRequest) -> impl Future<Output = Confirmation>`:
///
/// ```
/// use agent_core::{Confirmation, ConfirmRequest};
///
/// let confirmer = |request: ConfirmRequest| async move {
///     // Show request.label, request.summary and request.arguments; wait for an answer.
///     Confirmation::from(request.summary.len() < 100)
/// };
/// # fn assert_confirmer(_: impl agent_core::Confirmer) {}
/// # assert_confirmer(confirmer);
/// ```
pub trait Confirmer: Send + Sync + 'static {
    /// Asks for a decision about one call.
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation>;
}

impl<F, Fut> Confirmer for F
where
    F: Fn(ConfirmRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Confirmation> + Send + 'static,
{
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(self(request))
    }
}

impl Confirmer for Arc<dyn Confirmer> {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        (**self).confirm(request)
    }
}

/// Denies every call: the default, so a missing confirmer fails closed.
#[derive(Debug, Clone, Copy, Default)]
pub struct DenyAll;

impl Confirmer for DenyAll {
    fn confirm(&self, _: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(std::future::ready(Confirmation::deny()))
    }
}

/// Approves every call. For tests and scripts that opted in explicitly.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApproveAll;

impl Confirmer for ApproveAll {
    fn confirm(&self, _: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(std::future::ready(Confirmation::Approve))
    }
}

/// Builds [`ConfirmGate`]s that all ask one confirmer (tower's `Layer`, specialised to
/// tools).
#[derive(Clone)]
pub(crate) struct ConfirmLayer {
    confirmer: Arc<dyn Confirmer>,
}

impl ConfirmLayer {
    pub(crate) fn new(confirmer: Arc<dyn Confirmer>) -> Self {
        Self { confirmer }
    }

    /// Wraps `inner`, the handler of the destructive `tool`.
    pub(crate) fn layer(
        &self,
        tool: Arc<ToolDefinition>,
        inner: Arc<dyn ToolHandler>,
    ) -> ConfirmGate {
        ConfirmGate {
            tool,
            inner,
            confirmer: Arc::clone(&self.confirmer),
        }
    }
}

/// The decorator in front of a destructive tool: asks its confirmer (unless the tool's
/// per-call predicate says this call is harmless), and only then runs `inner`.
pub(crate) struct ConfirmGate {
    tool: Arc<ToolDefinition>,
    inner: Arc<dyn ToolHandler>,
    confirmer: Arc<dyn Confirmer>,
}

impl ToolHandler for ConfirmGate {
    fn call(&self, call: CallContext) -> BoxFuture<'static, ToolResult> {
        let tool = Arc::clone(&self.tool);
        let inner = Arc::clone(&self.inner);
        let confirmer = Arc::clone(&self.confirmer);
        Box::pin(async move {
            if !tool.needs_confirmation(call.args()) {
                return inner.call(call.confirmed(Confirmed::NotAsked)).await;
            }
            let request = ConfirmRequest::new(&tool, &call);
            match confirmer.confirm(request).await {
                Confirmation::Approve => inner.call(call.confirmed(Confirmed::Confirmer)).await,
                Confirmation::Deny { reason } => ToolResult::Cancelled {
                    reason: reason.unwrap_or_else(|| NOT_CONFIRMED.to_owned()),
                },
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_the_first_sentence() {
        assert_eq!(
            first_sentence("프로토콜 id(build. 또는 break.으로 시작), 예"),
            "프로토콜 id"
        );
        assert_eq!(first_sentence("짧은 메모. 선택"), "짧은 메모");
        assert_eq!(
            first_sentence("build.morning-walk 같은 id"),
            "build.morning-walk 같은 id"
        );
        assert_eq!(first_sentence("두 줄\n둘째"), "두 줄");
    }
}
