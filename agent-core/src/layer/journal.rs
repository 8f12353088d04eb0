//! The journal gate: writes each destructive call that succeeded to the registry's
//! [`Journal`] — the tool, its arguments, its result, when, who called, whether a person
//! was asked.
//!
//! It sits inside the confirmation gate (which tells it how the call got through) and
//! outside the time limit, so only a call that ran to an `ok` result is journaled: a
//! cancelled, refused, failed or timed-out call is not something to undo.

use std::sync::Arc;

use crate::tool::{
    BoxFuture, CallContext, Caller, Confirmed, Journal, JournalRecord, ToolDefinition, ToolHandler,
    ToolResult,
};

/// Journals the successful calls of the destructive `tool`, run by `inner`.
pub(crate) struct JournalGate {
    pub(crate) tool: Arc<ToolDefinition>,
    pub(crate) inner: Arc<dyn ToolHandler>,
    pub(crate) journal: Arc<dyn Journal>,
    pub(crate) caller: Caller,
}

impl ToolHandler for JournalGate {
    fn call(&self, call: CallContext) -> BoxFuture<'static, ToolResult> {
        let tool = Arc::clone(&self.tool);
        let journal = Arc::clone(&self.journal);
        let caller = self.caller;
        let confirmed = call.confirmation().unwrap_or(Confirmed::NotAsked);
        let arguments = call.args().clone();
        let future = self.inner.call(call);
        Box::pin(async move {
            let result = future.await;
            if let ToolResult::Ok { data } = &result {
                let record = JournalRecord {
                    tool: tool.name().to_owned(),
                    label: tool.label().to_owned(),
                    summary: tool.summarize(&arguments),
                    arguments,
                    result: data.clone(),
                    at_ms: JournalRecord::now_ms(),
                    caller,
                    confirmed,
                    undo_of: None,
                };
                // The call ran whatever the journal says: its result stands. A journal that
                // cannot write reports that itself; the call is then not undoable.
                let _ = journal.record(record);
            }
            result
        })
    }
}
