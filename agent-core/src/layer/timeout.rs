//! The time limit around a handler: a call that does not finish in time answers `timeout`.
//!
//! It sits *inside* the confirmation gate, so a person thinking about a dialog is never
//! counted against the tool.

use std::sync::Arc;
use std::time::Duration;

use crate::tool::{BoxFuture, CallContext, ErrorCode, ToolHandler, ToolResult};

/// Cuts `inner` off after `after`.
pub(crate) struct Timeout {
    inner: Arc<dyn ToolHandler>,
    after: Duration,
}

impl Timeout {
    pub(crate) fn new(inner: Arc<dyn ToolHandler>, after: Duration) -> Self {
        Self { inner, after }
    }
}

impl ToolHandler for Timeout {
    fn call(&self, call: CallContext) -> BoxFuture<'static, ToolResult> {
        let future = self.inner.call(call);
        let after = self.after;
        Box::pin(async move {
            match tokio::time::timeout(after, future).await {
                Ok(result) => result,
                Err(_) => ToolResult::error(
                    ErrorCode::Timeout,
                    format!("the tool did not finish within {} ms", after.as_millis()),
                ),
            }
        })
    }
}
