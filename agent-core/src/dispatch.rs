//! The dispatcher: runs one tool call for one kind of caller and always answers with a
//! [`ToolResult`].
//!
//! A [`Dispatcher`] is built from a registry, a [`Confirmer`] and a [`Caller`] class. Building
//! it layers every tool's handler once — the time limit innermost, the confirmation gate
//! (owning the confirmer) around every destructive tool — so a call is then only:
//!
//! 1. **lookup** — a name that is not registered, or whose [`Access`](crate::Access) level
//!    does not admit this caller, → `unknown_tool` (the same answer for both, so a caller
//!    cannot probe for tools it may not use), listing the names it may use;
//! 2. **validation** ([`tool::validate`](crate::tool)) — depth, then the tool's JSON Schema
//!    → `validation`, naming each failing field and rule. Unknown extra keys are dropped
//!    (small models invent them): nobody confirms, and no handler receives, a key its schema
//!    does not name, and `null` args count as `{}`;
//! 3. **the layered handler**: the confirmation gate (→ `cancelled`), the time limit
//!    (→ `timeout`), the tool fn (its `Err` → that error). A panic anywhere in there →
//!    `handler_error`.
//!
//! Each destructive call that ran is journaled (the journal gate, inside the confirmation
//! gate); [`Dispatcher::undo`] reverses a journaled call through the tool's undo fn, asking
//! the same confirmer first.
//!
//! [`Dispatcher::dispatch`] never panics and never returns a Rust error. A per-conversation
//! confirmer (a terminal, a reporting wrapper, an MCP client) is simply another dispatcher
//! over the same `Arc<Registry>`: building one costs a few allocations per tool.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use serde_json::Value;

use crate::layer::confirm::{ConfirmLayer, ConfirmRequest, Confirmation, Confirmer};
use crate::layer::journal::JournalGate;
use crate::layer::timeout::Timeout;
use crate::messages::Messages;
use crate::registry::Registry;
use crate::tool::{
    BoxFuture, CallContext, Caller, Confirmed, ErrorCode, JournalEntry, JournalRecord,
    NOT_CONFIRMED, ToolDefinition, ToolError, ToolHandler, ToolResult, UndoCall, ValueSets,
    validate,
};

/// Runs calls against a registry, for one caller class, behind one confirmer; see the module
/// doc.
#[derive(Clone)]
pub struct Dispatcher {
    registry: Arc<Registry>,
    caller: Caller,
    confirmer: Arc<dyn Confirmer>,
    /// Parallel to the registry's tools: the layered handler, or `None` where the caller's
    /// class is not admitted.
    handlers: Arc<Vec<Option<Arc<dyn ToolHandler>>>>,
}

impl Dispatcher {
    /// A dispatcher for the app's own agent ([`Caller::App`]) asking `confirmer`.
    pub fn new(registry: Arc<Registry>, confirmer: impl Confirmer) -> Self {
        Self::for_caller(registry, Caller::App, confirmer)
    }

    /// A dispatcher for `caller`, asking `confirmer`: only the tools whose access level
    /// admits `caller` exist for it.
    pub fn for_caller(registry: Arc<Registry>, caller: Caller, confirmer: impl Confirmer) -> Self {
        let confirmer: Arc<dyn Confirmer> = Arc::new(confirmer);
        let confirm = ConfirmLayer::new(Arc::clone(&confirmer));
        let handlers = registry
            .names()
            .map(|name| {
                let tool = registry.get_arc(name)?;
                if !tool.access().admits(caller) {
                    return None;
                }
                let mut handler = Arc::clone(tool.handler());
                if let Some(after) = tool.timeout() {
                    handler = Arc::new(Timeout::new(handler, after));
                }
                if tool.is_destructive() {
                    handler = Arc::new(JournalGate {
                        tool: Arc::clone(tool),
                        inner: handler,
                        journal: Arc::clone(registry.journal()),
                        caller,
                    });
                    handler = Arc::new(confirm.layer(Arc::clone(tool), handler));
                }
                Some(handler)
            })
            .collect();
        Self {
            registry,
            caller,
            confirmer,
            handlers: Arc::new(handlers),
        }
    }

    /// The registry calls run against.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// The caller class this dispatcher serves.
    pub fn caller(&self) -> Caller {
        self.caller
    }

    /// The tool with this name, if this caller may use it.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.registry
            .get(name)
            .filter(|tool| tool.access().admits(self.caller))
    }

    /// The tools this caller may use, in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.registry.tools_for(self.caller)
    }

    /// What every restricted parameter of this caller's tools may take now (see
    /// [`ToolDefinition::current_values`]): tool name → parameter → choices.
    pub fn current_values(&self) -> ValueSets {
        self.tools()
            .filter_map(|tool| {
                let values = tool.current_values(self.registry.deps());
                (!values.is_empty()).then(|| (tool.name().to_owned(), values.into_iter().collect()))
            })
            .collect()
    }

    /// Runs the call `name(args)`.
    pub async fn dispatch(&self, name: &str, args: Value) -> ToolResult {
        let handler = self
            .registry
            .position(name)
            .and_then(|i| self.handlers.get(i).cloned().flatten());
        let (Some(handler), Some(tool)) = (handler, self.get(name)) else {
            validate::dispose(args);
            let available: Vec<&str> = self.tools().map(ToolDefinition::name).collect();
            return ToolResult::error(
                ErrorCode::UnknownTool,
                format!(
                    "unknown tool `{}`; available tools: {}",
                    clip(name, 64),
                    available.join(", ")
                ),
            );
        };
        let args = match tool.check_arguments(args) {
            Ok(args) => args,
            Err(error) => return ToolError::from(error).into(),
        };
        let call = CallContext::new(args, self.registry.deps().clone());
        caught(|| handler.call(call)).await
    }
}

/// Runs the future `start` makes, answering a panic — while it is made as well as while it
/// runs — with a `handler_error`.
async fn caught(start: impl FnOnce() -> BoxFuture<'static, ToolResult>) -> ToolResult {
    let future = match std::panic::catch_unwind(AssertUnwindSafe(start)) {
        Ok(future) => future,
        Err(panic) => return ToolError::from_panic(panic).into(),
    };
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => ToolError::from_panic(panic).into(),
    }
}

impl Dispatcher {
    /// The newest journaled call this caller may undo: open (not an undo, not undone yet)
    /// and of a tool this caller may use. `None` when there is none, or the journal cannot
    /// be read.
    pub fn last_undoable(&self) -> Option<JournalEntry> {
        let entry = self.registry.journal().last_open().ok()??;
        self.get(&entry.record.tool).is_some().then_some(entry)
    }

    /// Undoes the journaled call `entry`: asks this dispatcher's confirmer first — the undo
    /// is shown like any destructive call, with the undone call's arguments and `messages`'
    /// [`undo_label`](Messages::undo_label) and [`undo_summary`](Messages::undo_summary) —
    /// then runs the tool's undo fn and journals the undo. Answers like
    /// [`dispatch`](Self::dispatch): `not_undoable` for a tool that declares no undo (or an
    /// entry that is itself an undo), `already_undone`, `unknown_tool` for a tool this
    /// caller may not use, `cancelled` without a yes, or the undo fn's own result — its
    /// `Err` when the state has moved on since the call.
    pub async fn undo(&self, entry: &JournalEntry, messages: &Messages) -> ToolResult {
        let Some(tool) = self.get(&entry.record.tool) else {
            return ToolResult::error(
                ErrorCode::UnknownTool,
                format!("unknown tool `{}`", clip(&entry.record.tool, 64)),
            );
        };
        if let Some(by) = entry.undone_by {
            return ToolResult::error(
                ErrorCode::AlreadyUndone,
                format!(
                    "journal entry {} was already undone (by entry {by})",
                    entry.id
                ),
            );
        }
        let Some(undo) = tool
            .undo_handler()
            .filter(|_| entry.record.undo_of.is_none())
        else {
            return ToolResult::error(
                ErrorCode::NotUndoable,
                format!("`{}` declares no undo", tool.name()),
            );
        };
        let undo = Arc::clone(undo);
        let call = CallContext::new(entry.record.arguments.clone(), self.registry.deps().clone());
        let mut request = ConfirmRequest::new(tool, &call);
        request.label = messages.undo_label.replace("{tool}", tool.label());
        request.summary = messages
            .undo_summary
            .replace("{summary}", &entry.record.summary);
        request.undo_of = Some(entry.id);
        let (label, summary) = (request.label.clone(), request.summary.clone());
        if let Confirmation::Deny { reason } = self.confirmer.confirm(request).await {
            return ToolResult::Cancelled {
                reason: reason.unwrap_or_else(|| NOT_CONFIRMED.to_owned()),
            };
        }
        let undo_call = UndoCall {
            id: entry.id,
            tool: entry.record.tool.clone(),
            arguments: entry.record.arguments.clone(),
            result: entry.record.result.clone(),
            at_ms: entry.record.at_ms,
        };
        let deps = self.registry.deps().clone();
        let result = caught(|| undo.undo(undo_call, &deps)).await;
        if let ToolResult::Ok { data } = &result {
            let record = JournalRecord {
                tool: entry.record.tool.clone(),
                label,
                summary,
                arguments: entry.record.arguments.clone(),
                result: data.clone(),
                at_ms: JournalRecord::now_ms(),
                caller: self.caller,
                confirmed: Confirmed::Confirmer,
                undo_of: Some(entry.id),
            };
            // The undo ran whatever the journal says (as for any journaled call).
            let _ = self.registry.journal().record_undo(entry.id, record);
        }
        result
    }
}

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("caller", &self.caller)
            .field(
                "tools",
                &self.tools().map(ToolDefinition::name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// At most `chars` characters of an untrusted name, for messages.
fn clip(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}
