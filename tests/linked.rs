//! A test binary that builds its registry from a crate of tools it depends on
//! (`linked-tools`), naming it only through `discover_crate(&linked_tools::TOOLS)`: that
//! links the crate, so its tools are found (compare `unlinked.rs`), and a crate that still
//! contributes none is a start-up error.

use std::sync::Arc;

use agent_core::{DenyAll, Dispatcher, Registry, RegistryError, ToolResult};
use serde_json::json;

#[test]
fn discover_crate_finds_every_tool_of_that_crate() {
    assert_eq!(linked_tools::TOOLS.name(), "linked_tools");
    let registry = Registry::builder()
        .discover_crate(&linked_tools::TOOLS)
        .build()
        .expect("registry");
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["fixture_hello", "fixture_count"]
    );
}

#[tokio::test]
async fn tools_of_another_crate_dispatch() {
    let registry = Registry::builder()
        .discover_crate(&linked_tools::TOOLS)
        .build()
        .expect("registry");
    let tools = Dispatcher::new(Arc::new(registry), DenyAll);
    let result = tools
        .dispatch("fixture_hello", json!({"name": "민지"}))
        .await;
    assert_eq!(result, ToolResult::ok(json!("hello, 민지")));
}

mod no_tools {
    agent_core::tool_crate!(pub(crate) NONE);
}

#[test]
fn a_crate_of_tools_with_none_linked_is_a_build_error() {
    let error = Registry::builder()
        .discover_crate(&no_tools::NONE)
        .build()
        .expect_err("no tools");
    assert!(
        matches!(
            error,
            RegistryError::NoToolsInCrate {
                krate: "linked::no_tools"
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the crate `linked::no_tools` contributes no tool to this binary: it declares none, or all of them are disabled by `cfg`"
    );
}
