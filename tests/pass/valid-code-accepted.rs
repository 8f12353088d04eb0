//! Valid code that `#[tool]` once refused or mis-expanded: a parameter named like the fn,
//! `#[doc = "…"]` docs, a parameter documented by `#[schemars(description = …)]`, rustc's lint
//! attributes on a parameter, a documented dependency, a `#[deprecated]` tool under
//! `deny(warnings)`, and a renamed `agent_core` through `crate = …`.

#![deny(warnings)]

use std::sync::Arc;

use agent_core::{DenyAll, Dep, Dispatcher, Registry, ToolResult, tool};
use serde_json::json;

use agent_core as runtime;

struct Catalog;

#[doc = "Searches the catalog."]
#[tool]
async fn query(
    #[doc = "What to look for."]
    query: String,
    /// The catalog.
    catalog: Dep<Catalog>,
    #[schemars(description = concat!("How many", " results."))]
    #[allow(unused_variables)]
    limit: Option<u8>,
) -> String {
    let _ = catalog;
    query
}

/// The old way to search.
#[deprecated = "use `query`"]
#[tool]
async fn old_query(
    /// What to look for.
    text: String,
) -> String {
    text
}

/// Counts words, declared through a renamed `agent_core`.
#[tool(crate = runtime, label = "단어 세기")]
async fn word_count(
    /// The text.
    text: String,
) -> usize {
    text.split_whitespace().count()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder()
        .discover()
        .dependency(Catalog)
        .build()
        .expect("registry");
    let declared = &registry.get("query").expect("query").parameters()["properties"];
    assert_eq!(declared["query"]["description"], "What to look for.");
    assert_eq!(declared["limit"]["description"], "How many results.");
    assert_eq!(registry.get("query").expect("query").description(), "Searches the catalog.");
    let tools = Dispatcher::new(Arc::new(registry), DenyAll);
    assert_eq!(
        tools.dispatch("query", json!({"query": "걷기"})).await,
        ToolResult::ok(json!("걷기"))
    );
    assert_eq!(
        tools.dispatch("old_query", json!({"text": "물"})).await,
        ToolResult::ok(json!("물"))
    );
    assert_eq!(
        tools.dispatch("word_count", json!({"text": "a b c"})).await,
        ToolResult::ok(json!(3))
    );
}
