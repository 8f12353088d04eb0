//! Declarations that are legal Rust and common, accepted and meaning what they say: a
//! suffixed or constant `timeout_ms`, a trait-object dependency (`Dep<dyn Clock + Send +
//! Sync>`), a `# Arguments` list that also documents the injected parameter, an `Err(String)`
//! that reaches the model as an error with a code, `Ok(())` answering `{}` like a tool
//! without a return type, and a `range` written with quoted numbers, which bounds like one
//! written without.

use std::sync::Arc;
use std::time::Duration;

use agent_core::{ApproveAll, Dep, Dispatcher, Registry, ToolResult, tool};
use serde_json::json;

const DB_TIMEOUT_MS: u64 = 2_500;

trait Clock {
    fn today(&self) -> String;
}

struct FixedClock;

impl Clock for FixedClock {
    fn today(&self) -> String {
        "2025-03-10".to_owned()
    }
}

/// Says what day it is.
///
/// # Arguments
///
/// * `clock` - where today comes from (injected; the model never sees it)
/// * `prefix` - put before the date
#[tool(timeout_ms = 5_000u32)]
async fn today(clock: Dep<dyn Clock + Send + Sync>, prefix: String) -> String {
    format!("{prefix}{}", clock.today())
}

/// Looks a habit up.
#[tool(timeout_ms = DB_TIMEOUT_MS)]
async fn find_habit(
    /// The habit's id.
    id: u32,
) -> Result<String, String> {
    if id == 1 {
        Ok("아침 걷기".to_owned())
    } else {
        Err(format!("no habit with id {id}"))
    }
}

/// Sets how many reminders a day.
#[tool(destructive)]
async fn set_reminders(
    /// Reminders a day.
    #[schemars(range(min = "1", max = "3"))]
    count: u8,
) -> u8 {
    count
}

/// Forgets everything.
#[tool(destructive, timeout_ms = DB_TIMEOUT_MS * 2)]
async fn forget() -> Result<(), agent_core::ToolError> {
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let clock: Arc<dyn Clock + Send + Sync> = Arc::new(FixedClock);
    let registry = Registry::builder()
        .tool::<today>()
        .tool::<find_habit>()
        .tool::<forget>()
        .tool::<set_reminders>()
        .dependency_arc(clock)
        .build()
        .expect("registry");
    let timeout = |name: &str| registry.get(name).and_then(|t| t.timeout());
    assert_eq!(timeout("today"), Some(Duration::from_millis(5_000)));
    assert_eq!(timeout("find_habit"), Some(Duration::from_millis(2_500)));
    assert_eq!(timeout("forget"), Some(Duration::from_millis(5_000)));
    let schema = registry.get("today").expect("today").parameters().clone();
    assert_eq!(schema["required"], json!(["prefix"]), "{schema}");
    assert!(schema["properties"].get("clock").is_none(), "{schema}");

    let tools = Dispatcher::new(Arc::new(registry), ApproveAll);
    assert_eq!(
        tools.dispatch("today", json!({"prefix": "오늘은 "})).await,
        ToolResult::ok(json!("오늘은 2025-03-10"))
    );
    assert_eq!(
        tools.dispatch("find_habit", json!({"id": 1})).await,
        ToolResult::ok(json!("아침 걷기"))
    );
    assert_eq!(
        tools.dispatch("find_habit", json!({"id": 7})).await,
        ToolResult::error("failed", "no habit with id 7")
    );
    assert_eq!(tools.dispatch("forget", json!({})).await, ToolResult::ok(json!({})));
    let reminders = tools.dispatch("set_reminders", json!({"count": 9})).await;
    assert!(
        matches!(&reminders, ToolResult::Error(e) if e.code() == "validation"),
        "{reminders:?}"
    );
    assert_eq!(
        tools.dispatch("set_reminders", json!({"count": 2})).await,
        ToolResult::ok(json!(2))
    );
}
