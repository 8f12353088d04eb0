//! Return types are classified by the type system, not by their spelling: an alias of
//! `Result` sends its `Err` to the model as an error, a user's own type named `Result` is
//! plain data, `impl Serialize` works, and a `ToolResult` is passed through.

use std::sync::Arc;

use agent_core::{DenyAll, Dispatcher, Registry, ToolError, ToolResult, tool};
use serde_json::json;

type HabitResult<T> = Result<T, ToolError>;

mod model {
    /// Not `std::result::Result`: an application type that happens to share the name.
    #[derive(serde::Serialize)]
    pub struct Result {
        pub score: u8,
    }
}

/// Fails through an alias.
#[tool]
async fn aliased(
    /// Whether to fail.
    fail: bool,
) -> HabitResult<u8> {
    if fail {
        Err(ToolError::new("r3_quota", "three habits at most"))
    } else {
        Ok(7)
    }
}

/// Returns the application's own `Result`.
#[tool]
async fn scored() -> model::Result {
    model::Result { score: 9 }
}

/// Returns something serializable, unnamed.
#[tool]
async fn opaque() -> impl serde::Serialize {
    vec!["a", "b"]
}

/// Answers a cancelled result itself.
#[tool]
async fn passthrough() -> ToolResult {
    ToolResult::cancelled()
}

/// Returns an explicit unit.
#[tool]
async fn unit() -> () {}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder().discover().build().expect("registry");
    let tools = Dispatcher::new(Arc::new(registry), DenyAll);
    let error = tools.dispatch("aliased", json!({"fail": true})).await;
    assert_eq!(error.encode(2048), r#"{"status":"error","code":"r3_quota","reason":"three habits at most"}"#);
    assert_eq!(tools.dispatch("aliased", json!({"fail": false})).await, ToolResult::ok(json!(7)));
    assert_eq!(tools.dispatch("scored", json!({})).await, ToolResult::ok(json!({"score": 9})));
    assert_eq!(tools.dispatch("opaque", json!({})).await, ToolResult::ok(json!(["a", "b"])));
    assert_eq!(tools.dispatch("passthrough", json!({})).await, ToolResult::cancelled());
    assert_eq!(tools.dispatch("unit", json!({})).await, ToolResult::ok(json!({})));
}
