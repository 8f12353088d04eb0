//! Injection is decided by the real path or a `#[dep]` marker, not by a last segment `Dep`:
//! the application's own `model::Dep` is an ordinary argument, an alias of `Dep<T>` is
//! injected when marked `#[dep]`, and `agent_core::Dep<T>` written in full is injected too.

use std::sync::Arc;

use agent_core::{DenyAll, Dispatcher, Registry, ToolResult, tool};
use serde_json::json;

struct Coach {
    name: &'static str,
}

type CoachDep = agent_core::Dep<Coach>;

mod model {
    /// A department: an application type that happens to be called `Dep`.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Dep {
        /// The department's code.
        pub code: String,
    }
}

/// Files a request with a department.
#[tool]
async fn file_request(
    /// The coach, injected through an alias.
    #[dep]
    coach: CoachDep,
    /// The department to file with.
    department: model::Dep,
) -> String {
    format!("{} → {}", coach.name, department.code)
}

/// Names the coach.
#[tool]
async fn coach_name(coach: agent_core::Dep<Coach>) -> &'static str {
    coach.name
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder()
        .discover()
        .dependency(Coach { name: "민지" })
        .build()
        .expect("registry");
    let file = registry.get("file_request").expect("tool");
    assert_eq!(
        file.parameters()["properties"].as_object().expect("properties").keys().collect::<Vec<_>>(),
        ["department"],
        "the injected alias is not in the schema; the own `Dep` type is"
    );
    assert_eq!(file.dependencies().len(), 1);
    let tools = Dispatcher::new(Arc::new(registry), DenyAll);
    let result = tools
        .dispatch("file_request", json!({"department": {"code": "HR"}}))
        .await;
    assert_eq!(result, ToolResult::ok(json!("민지 → HR")));
    assert_eq!(tools.dispatch("coach_name", json!({})).await, ToolResult::ok(json!("민지")));
}
