//! Human in the loop: where a destructive call gets confirmed.
//!
//! The registry wraps every destructive tool's handler in a `ConfirmGate` when it is built,
//! so confirmation is a decorator around the tool, not a branch in the dispatcher. The gate
//! asks a [`Confirmer`] — the UI's dialog, the terminal prompt, or a stock confirmer — and
//! runs the tool only on [`Confirmation::Approve`]; anything else answers the model with
//! `{"status":"cancelled",…}`.
//!
//! With no confirmer configured the registry uses [`DenyAll`]: fail closed, nothing
//! destructive runs without someone saying yes. [`ApproveAll`] must be chosen explicitly.

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use crate::tool::{BoxFuture, NOT_CONFIRMED, ToolCall, ToolDefinition, ToolHandler, ToolResult};

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
    /// The validated arguments.
    pub args: Value,
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
///     // Show request.label and request.summary to the user and wait for an answer.
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

/// The decorator the registry puts in front of every destructive tool.
///
/// It holds the undecorated definition, asks the call's confirmer (unless the tool's
/// per-call predicate says this call is harmless), and only then runs the inner handler.
pub(crate) struct ConfirmGate {
    tool: Arc<ToolDefinition>,
}

impl ConfirmGate {
    pub(crate) fn wrap(tool: ToolDefinition) -> ToolDefinition {
        let inner = Arc::new(tool);
        let mut outer = ToolDefinition::clone(&inner);
        outer.handler = Arc::new(Self { tool: inner });
        outer
    }
}

impl ToolHandler for ConfirmGate {
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        let tool = Arc::clone(&self.tool);
        Box::pin(async move {
            if !tool.needs_confirmation(call.args()) {
                return tool.handler.call(call).await;
            }
            let request = ConfirmRequest {
                tool: tool.name().to_owned(),
                label: tool.label().to_owned(),
                description: tool.description().to_owned(),
                summary: tool.summarize(call.args()),
                args: call.args().clone(),
            };
            let confirmer = Arc::clone(call.confirmer());
            match confirmer.confirm(request).await {
                Confirmation::Approve => tool.handler.call(call).await,
                Confirmation::Deny { reason } => ToolResult::Cancelled {
                    reason: reason.unwrap_or_else(|| NOT_CONFIRMED.to_owned()),
                },
            }
        })
    }
}
