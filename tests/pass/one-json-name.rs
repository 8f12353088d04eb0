//! One JSON name per argument, used everywhere: a renamed argument is documented under
//! `# Arguments` by its JSON name (or its Rust name), named by its JSON name in the summary,
//! the examples, `#[values]` and `#[from_request]`, and sent under it; `#[serde(default)]`
//! makes it optional in the schema and in the deserializer alike.

use std::sync::Arc;

use agent_core::{ApproveAll, Dispatcher, Registry, ToolResult, ValueChoice, tool};
use serde_json::json;

fn units() -> Vec<ValueChoice> {
    vec![ValueChoice::new("분", "분"), ValueChoice::new("시간", "시간")]
}

/// Sets a timer.
///
/// # Arguments
///
/// * `minutes` - how long (documented by its JSON name)
/// * `label_text` - what it is for (documented by its Rust name)
#[tool(
    destructive,
    summary = "{minutes}{unit} 타이머: {label}",
    example(request = "10분 타이머 맞춰줘, 라면", args = { "minutes": 10, "label": "라면" })
)]
async fn set_timer(
    #[serde(rename = "minutes")]
    length: u32,
    #[serde(rename = "label")]
    #[from_request]
    label_text: String,
    /// The unit.
    #[serde(default = "default_unit")]
    #[values(units)]
    unit: String,
) -> String {
    format!("{length}{unit} {label_text}")
}

fn default_unit() -> String {
    "분".to_owned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder().discover().build().expect("registry");
    let tool = registry.get("set_timer").expect("tool");
    let properties = &tool.parameters()["properties"];
    assert_eq!(
        properties.as_object().expect("properties").keys().collect::<Vec<_>>(),
        ["minutes", "label", "unit"]
    );
    assert_eq!(properties["minutes"]["description"], "how long (documented by its JSON name)");
    assert_eq!(properties["label"]["description"], "what it is for (documented by its Rust name)");
    assert_eq!(tool.parameters()["required"], json!(["minutes", "label"]));
    assert_eq!(tool.restricted_parameters().collect::<Vec<_>>(), ["unit"]);
    assert_eq!(tool.declaration().from_request, ["label"]);
    assert_eq!(
        tool.summarize(&json!({"minutes": 3, "label": "차", "unit": "분"})),
        "3분 타이머: 차"
    );
    let tools = Dispatcher::new(Arc::new(registry), ApproveAll);
    let result = tools.dispatch("set_timer", json!({"minutes": 3, "label": "차"})).await;
    assert_eq!(result, ToolResult::ok(json!("3분 차")));
}
