//! How a destructive tool is undone: [`UndoCall`] (the journaled call an undo fn receives),
//! [`UndoHandler`] (the erased form a definition keeps) and [`IntoUndo`], which turns an
//! app's async fn — `fn(UndoCall)` or `fn(UndoCall, Dep<T>)` — into one (`#[tool(destructive,
//! undo = undo_fn)]`, or [`ToolDefinitionBuilder::undo`](crate::ToolDefinitionBuilder::undo)).
//!
//! An undo fn reverses one call the journal recorded, from what the call received and
//! returned, and refuses (an `Err` with its own code) when the state has moved on since —
//! the entry was changed again, the habit was logged since: the person then sees why.

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::call::BoxFuture;
use super::deps::{Dep, Dependency, Deps};
use super::error::{ErrorCode, ToolError};
use super::result::{IntoToolResult, ToolResult};

/// The call being undone, as the journal recorded it.
#[derive(Debug, Clone, PartialEq)]
pub struct UndoCall {
    /// The journal entry's id.
    pub id: u64,
    /// The tool's name.
    pub tool: String,
    /// The arguments the call ran with.
    pub arguments: Value,
    /// The `data` of its `ok` result.
    pub result: Value,
    /// When it ran, in milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl UndoCall {
    /// The argument `name`, read as a `T`: `None` where the call did not carry it (an
    /// optional parameter left out).
    ///
    /// # Errors
    /// A `handler_error` naming the argument when it does not read as a `T` (a journal
    /// written by another version of the tool).
    pub fn argument<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, ToolError> {
        read(self.arguments.get(name), "argument", name)
    }

    /// The call's whole result data, read as a `T` (the value the tool fn returned).
    ///
    /// # Errors
    /// A `handler_error` when it does not read as a `T`.
    pub fn data<T: DeserializeOwned>(&self) -> Result<T, ToolError> {
        serde_json::from_value(self.result.clone()).map_err(|e| {
            ToolError::new(
                ErrorCode::HandlerError,
                format!("the journaled result does not read: {e}"),
            )
        })
    }

    /// The field `name` of the call's result data, read as a `T`.
    ///
    /// # Errors
    /// A `handler_error` naming the field when it is missing or does not read as a `T`.
    pub fn result_field<T: DeserializeOwned>(&self, name: &str) -> Result<T, ToolError> {
        read(self.result.get(name), "result field", name)?.ok_or_else(|| {
            ToolError::new(
                ErrorCode::HandlerError,
                format!("the journaled result has no `{name}`"),
            )
        })
    }
}

fn read<T: DeserializeOwned>(
    value: Option<&Value>,
    what: &str,
    name: &str,
) -> Result<Option<T>, ToolError> {
    match value.filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(value) => serde_json::from_value(value.clone())
            .map(Some)
            .map_err(|e| {
                ToolError::new(
                    ErrorCode::HandlerError,
                    format!("the journaled {what} `{name}` does not read: {e}"),
                )
            }),
    }
}

/// Reverses one journaled call of a tool; see the module doc.
pub trait UndoHandler: Send + Sync + 'static {
    /// Runs the undo of `call` with the registry's dependencies.
    fn undo(&self, call: UndoCall, deps: &Deps) -> BoxFuture<'static, ToolResult>;

    /// The dependency the undo fn takes, checked when the registry is built.
    fn dependency(&self) -> Option<Dependency>;
}

/// An async fn that can undo a tool's call: `async fn(UndoCall) -> R` or
/// `async fn(UndoCall, Dep<T>) -> R`, where `R` is a `Result<T, E: Into<ToolError>>` or a
/// [`ToolResult`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot undo a tool's call",
    label = "an undo fn is `async fn(UndoCall) -> Result<T, E>` or `async fn(UndoCall, Dep<T>) -> Result<T, E>`"
)]
pub trait IntoUndo<Marker> {
    /// Erases the fn.
    fn into_undo(self) -> Arc<dyn UndoHandler>;
}

struct UndoFn<F>(F);

struct UndoWithDep<F, T>(F, std::marker::PhantomData<fn() -> T>);

impl<F, Fut> UndoHandler for UndoFn<F>
where
    F: Fn(UndoCall) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    fn undo(&self, call: UndoCall, _: &Deps) -> BoxFuture<'static, ToolResult> {
        let future = (self.0)(call);
        Box::pin(async move { future.await.into_tool_result() })
    }

    fn dependency(&self) -> Option<Dependency> {
        None
    }
}

impl<F, T, Fut> UndoHandler for UndoWithDep<F, T>
where
    F: Fn(UndoCall, Dep<T>) -> Fut + Send + Sync + 'static,
    T: Any + Send + Sync,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    fn undo(&self, call: UndoCall, deps: &Deps) -> BoxFuture<'static, ToolResult> {
        let Some(dep) = deps.get::<T>() else {
            let error = ToolError::new(
                ErrorCode::HandlerError,
                format!(
                    "the undo needs a `{}` that was not provided",
                    std::any::type_name::<T>()
                ),
            );
            return Box::pin(std::future::ready(error.into()));
        };
        let future = (self.0)(call, dep);
        Box::pin(async move { future.await.into_tool_result() })
    }

    fn dependency(&self) -> Option<Dependency> {
        Some(Dependency::of::<T>())
    }
}

impl<F, Fut> IntoUndo<(UndoCall,)> for F
where
    F: Fn(UndoCall) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    fn into_undo(self) -> Arc<dyn UndoHandler> {
        Arc::new(UndoFn(self))
    }
}

impl<F, T, Fut> IntoUndo<(UndoCall, Dep<T>)> for F
where
    F: Fn(UndoCall, Dep<T>) -> Fut + Send + Sync + 'static,
    T: Any + Send + Sync,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    fn into_undo(self) -> Arc<dyn UndoHandler> {
        Arc::new(UndoWithDep(self, std::marker::PhantomData))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call() -> UndoCall {
        UndoCall {
            id: 1,
            tool: "t".into(),
            arguments: json!({"habit_id": 3, "note": null}),
            result: json!({"entry_id": 9}),
            at_ms: 0,
        }
    }

    #[test]
    fn arguments_and_result_fields_read_typed() {
        let call = call();
        assert_eq!(call.argument::<i64>("habit_id").unwrap(), Some(3));
        assert_eq!(call.argument::<String>("note").unwrap(), None);
        assert_eq!(call.result_field::<i64>("entry_id").unwrap(), 9);
        let error = call.result_field::<i64>("missing").unwrap_err();
        assert_eq!(error.code(), "handler_error");
        assert!(call.argument::<String>("habit_id").is_err());
    }
}
