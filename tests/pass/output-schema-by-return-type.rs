//! A `#[tool]` whose result data has a JSON Schema declares it as its output schema (MCP's
//! `outputSchema`), decided by the type system like the conversion: through an alias of
//! `Result`, a plain type, even an `impl Serialize + JsonSchema`. A result with none — `impl
//! Serialize`, a type without `JsonSchema`, a `ToolResult` — or one that is not always an
//! object (`String`, `Option<T>`) declares none, and still compiles and runs.

use std::sync::Arc;

use agent_core::{ApproveAll, Dep, Dispatcher, Registry, Tool, ToolError, ToolResult, tool};
use serde_json::json;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Found {
    /// How many items follow.
    count: u32,
    /// The items.
    items: Vec<String>,
}

fn found_two() -> Found {
    Found {
        count: 2,
        items: vec!["a".into(), "b".into()],
    }
}

/// Serializable, without a schema.
#[derive(serde::Serialize)]
struct Unschematic {
    count: u32,
}

type HabitResult<T> = Result<T, ToolError>;

struct Store;

/// A `Result` of a type with a schema.
#[tool]
async fn found() -> Result<Found, ToolError> {
    Ok(found_two())
}

/// The same through an alias, with an argument and a dependency.
#[tool]
async fn aliased(
    store: Dep<Store>,
    /// How many.
    limit: u8,
) -> HabitResult<Found> {
    let _ = (store, limit);
    Ok(found_two())
}

/// A plain value with a schema.
#[tool]
async fn plain() -> Found {
    found_two()
}

/// An opaque value whose bounds include `JsonSchema`.
#[tool]
async fn opaque_with_schema() -> impl serde::Serialize + schemars::JsonSchema {
    found_two()
}

/// An opaque value: only `Serialize` is known of it.
#[tool]
async fn opaque() -> impl serde::Serialize {
    found_two()
}

/// A value without a schema.
#[tool]
async fn unschematic() -> Result<Unschematic, ToolError> {
    Ok(Unschematic { count: 1 })
}

/// Text: not an object.
#[tool]
async fn text() -> Result<String, ToolError> {
    Ok("done".into())
}

/// Maybe nothing: sent as `null` then.
#[tool]
async fn maybe() -> Option<Found> {
    None
}

/// Answers its own result.
#[tool]
async fn passthrough() -> ToolResult {
    ToolResult::ok(json!({"count": 1}))
}

/// Answers `{}`.
#[tool]
async fn unit() {}

fn output<T: Tool>() -> Option<serde_json::Value> {
    T::definition()
        .expect("definition")
        .output_schema()
        .cloned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    for (name, schema) in [
        ("found", output::<found>()),
        ("aliased", output::<aliased>()),
        ("plain", output::<plain>()),
        ("opaque_with_schema", output::<opaque_with_schema>()),
    ] {
        let schema = schema.unwrap_or_else(|| panic!("{name}: no output schema"));
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["required"], json!(["count", "items"]), "{name}");
        assert_eq!(
            schema["properties"]["count"]["description"],
            "How many items follow."
        );
    }
    for (name, schema) in [
        ("opaque", output::<opaque>()),
        ("unschematic", output::<unschematic>()),
        ("text", output::<text>()),
        ("maybe", output::<maybe>()),
        ("passthrough", output::<passthrough>()),
        ("unit", output::<unit>()),
    ] {
        assert!(schema.is_none(), "{name}: {schema:?}");
    }

    // What the tool sends is what its schema describes.
    let registry = Registry::builder()
        .discover()
        .dependency(Store)
        .build()
        .expect("registry");
    let tools = Dispatcher::new(Arc::new(registry), ApproveAll);
    let schema = output::<aliased>().expect("a schema");
    let sent = tools.dispatch("aliased", json!({"limit": 2})).await;
    let data = sent.data().expect("ok data");
    assert!(jsonschema::is_valid(&schema, data), "{data}");
    assert_eq!(
        tools.dispatch("maybe", json!({})).await,
        ToolResult::ok(json!(null))
    );
}
