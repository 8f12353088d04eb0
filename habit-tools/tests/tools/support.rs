//! Shared set-up: a registry over an in-memory or on-disk store with a pinned clock, a
//! confirmer that records what it was asked, and helpers to read results.

use std::path::Path;
use std::sync::{Arc, Mutex};

use agent_core::{BoxFuture, ConfirmRequest, Confirmation, Confirmer, Dispatcher, ToolResult};
use habit_tools::{Coach, Date, FixedClock, Store};
use serde_json::{Value, json};

/// 2025-03-10, a Monday: "today" in every test unless a test moves the clock.
pub(crate) const TODAY: Date = jiff::civil::date(2025, 3, 10);

/// Approves or denies every destructive call, and records each request it was shown.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    approve: bool,
    requests: Mutex<Vec<ConfirmRequest>>,
}

impl Recorder {
    pub(crate) fn approving() -> Arc<Self> {
        Arc::new(Self {
            approve: true,
            ..Self::default()
        })
    }

    pub(crate) fn denying() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// The requests shown so far.
    pub(crate) fn requests(&self) -> Vec<ConfirmRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Confirmer for Recorder {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        self.requests.lock().unwrap().push(request);
        Box::pin(std::future::ready(Confirmation::from(self.approve)))
    }
}

/// The six tools over one store — the registry and a dispatcher over it — and handles to look
/// behind it.
pub(crate) struct Harness {
    pub(crate) registry: Arc<agent_core::Registry>,
    pub(crate) tools: Dispatcher,
    pub(crate) coach: Coach,
    pub(crate) clock: Arc<FixedClock>,
}

impl Harness {
    /// The six tools over a fresh in-memory store, with `confirmer`.
    pub(crate) fn in_memory(confirmer: Arc<dyn Confirmer>) -> Self {
        Self::over(Store::open_in_memory().unwrap(), confirmer)
    }

    /// The six tools over the SQLite file at `path`, with `confirmer`.
    pub(crate) fn on_file(path: &Path, confirmer: Arc<dyn Confirmer>) -> Self {
        Self::over(Store::open(path).unwrap(), confirmer)
    }

    fn over(store: Store, confirmer: Arc<dyn Confirmer>) -> Self {
        let clock = Arc::new(FixedClock::new(TODAY));
        let coach = Coach::new(Arc::new(store), clock.clone());
        let registry = Arc::new(
            habit_tools::registry_builder(coach.clone())
                .build()
                .unwrap(),
        );
        let tools = Dispatcher::new(Arc::clone(&registry), confirmer);
        Self {
            registry,
            tools,
            coach,
            clock,
        }
    }

    pub(crate) async fn call(&self, name: &str, args: Value) -> ToolResult {
        self.tools.dispatch(name, args).await
    }

    /// Calls a tool that must succeed and returns its data.
    pub(crate) async fn ok(&self, name: &str, args: Value) -> Value {
        data(self.call(name, args.clone()).await, name, &args)
    }

    /// Adds a habit from `protocol_id` that must succeed; returns its id.
    pub(crate) async fn add(&self, protocol_id: &str, framed_text: &str) -> i64 {
        let args = json!({
            "protocol_id": protocol_id,
            "frame_level": 2,
            "framed_text": framed_text,
        });
        self.ok("add_habit", args).await["habit_id"]
            .as_i64()
            .unwrap()
    }

    /// The values the model may write for `tool`'s `param` when answering `request` (see
    /// `agent_core::choice::values_for`); empty when the parameter is not restricted.
    pub(crate) fn values_for(&self, tool: &str, param: &str, request: &str) -> Vec<Value> {
        agent_core::choice::values_for(&self.tools, request)
            .get(tool)
            .and_then(|params| params.get(param))
            .map(|choices| choices.iter().map(|c| c.value.clone()).collect())
            .unwrap_or_default()
    }

    /// The number of active habits, as `list_active_habits` reports it.
    pub(crate) async fn active_count(&self) -> u64 {
        self.ok("list_active_habits", json!({})).await["count"]
            .as_u64()
            .unwrap()
    }
}

/// The keys of a JSON object, in their order: a result's shape.
pub(crate) fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The data of an `ok` result (panics with the whole result otherwise).
pub(crate) fn data(result: ToolResult, name: &str, args: &Value) -> Value {
    match result {
        ToolResult::Ok { data } => data,
        other => panic!("{name}({args}) was not ok: {}", other.to_value()),
    }
}

/// The error code of an `error` result (panics with the whole result otherwise).
pub(crate) fn code(result: &ToolResult) -> String {
    match result.as_error() {
        Some(error) => error.code().to_owned(),
        None => panic!("expected an error, got {}", result.to_value()),
    }
}

/// The error reason of an `error` result.
pub(crate) fn reason(result: &ToolResult) -> String {
    result
        .as_error()
        .map(|e| e.reason().to_owned())
        .unwrap_or_default()
}
