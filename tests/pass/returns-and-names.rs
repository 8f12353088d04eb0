//! Plain and unit returns, a `name` override, a raw identifier and a serde rename.

use agent_core::{DenyAll, Dispatcher, Registry, ToolResult, tool};
use serde_json::json;

/// Counts things.
#[tool(name = "count_things", timeout_ms = 1000)]
async fn count(
    /// What kind of thing.
    r#type: String,
    /// The maximum to count.
    #[serde(rename = "max")]
    limit: Option<u32>,
) -> u32 {
    r#type.len() as u32 + limit.unwrap_or(0)
}

/// Does nothing, successfully.
#[tool]
async fn noop() {}

/// Forgets nothing, after asking.
#[tool(destructive, summary = "nothing to confirm {{really}}")]
async fn escaped() {}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder().discover().build().expect("registry");
    assert_eq!(registry.names().collect::<Vec<_>>(), ["count_things", "noop", "escaped"]);
    let escaped = registry.get("escaped").expect("escaped");
    assert_eq!(escaped.summarize(&json!({})), "nothing to confirm {really}");
    let tool = registry.get("count_things").expect("count_things");
    assert_eq!(tool.timeout(), Some(std::time::Duration::from_secs(1)));
    let properties = tool.parameters()["properties"].as_object().expect("properties");
    assert_eq!(properties.keys().collect::<Vec<_>>(), ["type", "max"]);

    let tools = Dispatcher::new(std::sync::Arc::new(registry), DenyAll);
    let result = tools.dispatch("count_things", json!({"type": "abc", "max": 2})).await;
    assert_eq!(result, ToolResult::ok(json!(5)));
    assert_eq!(tools.dispatch("noop", json!(null)).await, ToolResult::ok(json!({})));
}
