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
//!    → `validation`, naming each failing field and rule. Unknown extra keys are ignored
//!    (small models invent them), and `null` args count as `{}`;
//! 3. **the layered handler**: the confirmation gate (→ `cancelled`), the time limit
//!    (→ `timeout`), the tool fn (its `Err` → that error). A panic anywhere in there →
//!    `handler_error`.
//!
//! [`Dispatcher::dispatch`] never panics and never returns a Rust error. A per-conversation
//! confirmer (a terminal, a reporting wrapper, an MCP client) is simply another dispatcher
//! over the same `Arc<Registry>`: building one costs a few allocations per tool.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use serde_json::Value;

use crate::layer::confirm::{ConfirmLayer, Confirmer};
use crate::layer::timeout::Timeout;
use crate::registry::Registry;
use crate::tool::{
    CallContext, Caller, ErrorCode, ToolDefinition, ToolError, ToolHandler, ToolResult, ValueSets,
    validate,
};

/// Runs calls against a registry, for one caller class, behind one confirmer; see the module
/// doc.
#[derive(Clone)]
pub struct Dispatcher {
    registry: Arc<Registry>,
    caller: Caller,
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
        let confirm = ConfirmLayer::new(Arc::new(confirmer));
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
                    handler = Arc::new(confirm.layer(Arc::clone(tool), handler));
                }
                Some(handler)
            })
            .collect();
        Self {
            registry,
            caller,
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
        // A handler may panic while creating its future as well as while it runs.
        let future = match std::panic::catch_unwind(AssertUnwindSafe(|| handler.call(call))) {
            Ok(future) => future,
            Err(panic) => return ToolError::from_panic(panic).into(),
        };
        match AssertUnwindSafe(future).catch_unwind().await {
            Ok(result) => result,
            Err(panic) => ToolError::from_panic(panic).into(),
        }
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
