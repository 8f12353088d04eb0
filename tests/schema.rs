//! Schema shaping, checked against a golden file: what a small model sees for a tool with
//! optional, enum, ranged, length-limited and nested parameters.
//!
//! After an intended change, refresh with `UPDATE_GOLDEN=1 cargo test -p agent-tests --test
//! schema` and read the diff.

use agent_core::{Registry, tool};
use serde::Deserialize;
use serde_json::Value;

/// How a habit is framed.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Frame {
    /// What you do ("I walk").
    Action,
    /// Who you become ("I am a walker").
    Identity,
}

/// Where in the day the habit fits.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // Only its schema matters here.
struct Anchor {
    /// After what existing routine, e.g. "아침 커피를 내린 뒤".
    after_what: String,
    /// Hour of day, 0–23.
    #[schemars(range(max = 23))]
    hour: Option<u8>,
}

/// Plans a new habit without saving it.
#[tool(label = "습관 계획")]
async fn plan_habit(
    /// Catalog protocol id, e.g. `build.morning-walk`.
    protocol_id: String,
    /// Frame level, 1 to 3.
    #[schemars(range(min = 1, max = 3))]
    frame_level: u8,
    /// The framing style.
    frame: Frame,
    /// The habit in the user's words.
    #[schemars(length(min = 1, max = 120))]
    framed_text: String,
    /// Optional anchor in the day.
    anchor: Option<Anchor>,
    /// Optional tags.
    tags: Option<Vec<String>>,
    /// Optional strength of the habit, 0.0–1.0.
    #[schemars(range(min = 0.0, max = 1.0))]
    weight: Option<f64>,
) -> String {
    let _ = (frame_level, frame, framed_text, anchor, tags, weight);
    protocol_id
}

/// Lists the habits (no parameters).
#[tool]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

#[test]
fn declarations_match_the_golden_file() {
    let registry = Registry::builder().discover().build().expect("registry");
    let actual = serde_json::to_string_pretty(&registry.declarations()).expect("json") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/declarations.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).expect("write golden file");
    }
    let expected =
        std::fs::read_to_string(&path).expect("golden file (UPDATE_GOLDEN=1 creates it)");
    assert_eq!(
        actual, expected,
        "declarations changed; UPDATE_GOLDEN=1 to accept"
    );
}

#[test]
fn shaped_schemas_hold_no_schema_machinery() {
    let registry = Registry::builder().discover().build().expect("registry");
    let text = serde_json::to_string(&registry.declarations()).expect("json");
    for noise in [
        "$schema",
        "\"title\"",
        "$defs",
        "$ref",
        "\"null\"",
        "anyOf",
        "oneOf",
        "uint8",
        "double",
    ] {
        assert!(!text.contains(noise), "{noise} in {text}");
    }
    for tool in registry.tools() {
        assert_eq!(tool.parameters()["type"], "object");
    }
}

#[test]
fn schemas_are_computed_once_per_tool() {
    let registry = Registry::builder().discover().build().expect("registry");
    let first = registry.get("plan_habit").expect("tool").parameters() as *const Value;
    let again = registry.get("plan_habit").expect("tool").parameters() as *const Value;
    assert_eq!(
        first, again,
        "the registry hands out the schema it built, not a new one"
    );
}
