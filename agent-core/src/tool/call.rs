//! What a handler receives and how it is called: [`CallContext`] (the validated arguments and
//! the registry's dependencies) and [`ToolHandler`], the one type-erased boundary between
//! typed tool fns and the runtime.
//!
//! A `CallContext` can only be made by the dispatcher, after the name was looked up, the
//! arguments validated and — for a destructive tool — the person asked. So a handler, even
//! one an app wrote by hand, never runs on arguments that skipped those gates.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::deps::{Dep, Dependency, Deps};
use super::error::{ErrorCode, ToolError};
use super::result::ToolResult;

/// A boxed, `Send` future: what handlers and confirmers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One call of a tool, as its handler receives it.
pub struct CallContext {
    args: Value,
    deps: Deps,
    confirmed: Option<Confirmed>,
}

impl CallContext {
    /// Only the dispatcher creates contexts (see the module doc).
    pub(crate) fn new(args: Value, deps: Deps) -> Self {
        Self {
            args,
            deps,
            confirmed: None,
        }
    }

    /// The context once the confirmation gate let the call through, and how.
    pub(crate) fn confirmed(mut self, how: Confirmed) -> Self {
        self.confirmed = Some(how);
        self
    }

    /// How the confirmation gate let this call through; `None` for a tool that is not
    /// destructive.
    pub fn confirmation(&self) -> Option<Confirmed> {
        self.confirmed
    }

    /// The arguments, already validated against the tool's schema.
    pub fn args(&self) -> &Value {
        &self.args
    }

    /// The dependencies the registry was built with.
    pub fn deps(&self) -> &Deps {
        &self.deps
    }

    /// The dependency of type `T`, or the `handler_error` a tool answers when it is missing
    /// (only hand-built tools can miss one: the registry checks `#[tool]` dependencies when
    /// it is built).
    pub fn dep<T: ?Sized + Send + Sync + 'static>(&self) -> Result<Dep<T>, ToolError> {
        self.deps.get::<T>().ok_or_else(|| {
            ToolError::new(
                ErrorCode::HandlerError,
                format!(
                    "the tool needs a `{}` that was not provided",
                    std::any::type_name::<T>()
                ),
            )
        })
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("args", &self.args)
            .field("deps", &self.deps)
            .field("confirmed", &self.confirmed)
            .finish()
    }
}

/// How a journaled call got to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Confirmed {
    /// A confirmer answered yes: the dialog, the terminal prompt, an MCP client's form — or
    /// a stock confirmer such as [`ApproveAll`](crate::ApproveAll) an app chose.
    Confirmer,
    /// The tool's per-call predicate (`confirm_if`) said this call needs no question.
    NotAsked,
}

impl Confirmed {
    /// The stored form: `confirmer` or `not_asked`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Confirmer => "confirmer",
            Self::NotAsked => "not_asked",
        }
    }

    /// The value whose [`as_str`](Self::as_str) is `text`.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Confirmer, Self::NotAsked]
            .into_iter()
            .find(|c| c.as_str() == text)
    }
}

/// Runs a call.
///
/// Implemented for every `Fn(CallContext) -> impl Future<Output = ToolResult>`, which is what
/// hand-built tools pass to
/// [`ToolDefinitionBuilder::handler`](crate::ToolDefinitionBuilder::handler); the runtime's
/// layers (confirmation, time limit) implement it by wrapping another handler.
pub trait ToolHandler: Send + Sync + 'static {
    /// Runs the call. Must not block the async runtime for long: do I/O in
    /// `spawn_blocking` or with async clients.
    fn call(&self, call: CallContext) -> BoxFuture<'static, ToolResult>;
}

impl<F, Fut> ToolHandler for F
where
    F: Fn(CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ToolResult> + Send + 'static,
{
    fn call(&self, call: CallContext) -> BoxFuture<'static, ToolResult> {
        Box::pin(self(call))
    }
}

/// A parameter type the runtime injects instead of reading it from the model's arguments.
///
/// `#[tool]` injects a parameter whose type is written `Dep<…>` or `agent_core::Dep<…>`, or
/// that is marked `#[dep]` (for an alias of `Dep<T>`); this trait is how the generated code
/// obtains it and declares it to the registry, and its bound is what checks that such a
/// parameter really is a [`Dep`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be injected into a #[tool] fn",
    label = "injected parameters are `agent_core::Dep<T>` with `T: Send + Sync + 'static`",
    note = "a parameter typed `Dep<…>` or marked `#[dep]` is injected; to take a type of your own named `Dep` as an argument, write its path (`model::Dep`)"
)]
pub trait Injected: Sized {
    /// The dependency to declare to the registry.
    fn dependency() -> Dependency;

    /// Takes the value out of a call.
    fn from_call(call: &CallContext) -> Result<Self, ToolError>;
}

impl<T: ?Sized + Send + Sync + 'static> Injected for Dep<T> {
    fn dependency() -> Dependency {
        Dependency::of::<T>()
    }

    fn from_call(call: &CallContext) -> Result<Self, ToolError> {
        call.dep::<T>()
    }
}
