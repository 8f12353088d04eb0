//! Every gate of the dispatcher, through `Dispatcher::dispatch`: unknown tool, validation
//! (types, required, ranges, enums, patterns, lengths, nested fields), extra keys, `null`
//! arguments, handler errors, panics and timeouts — and the wire envelope of each.

use std::time::Duration;

use agent_core::{ApproveAll, Dispatcher, Registry, ToolError, ToolResult, tool};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The kind of a habit.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    /// A habit to build.
    Build,
    /// A habit to break.
    Break,
}

/// A time of day.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
struct TimeOfDay {
    /// Hour, 0–23.
    #[schemars(range(max = 23))]
    hour: u8,
    /// Minute, 0–59.
    #[schemars(range(max = 59))]
    minute: u8,
}

/// Echoes its validated arguments.
#[tool(label = "메아리")]
async fn echo(
    /// A protocol id such as `build.morning-walk`.
    #[schemars(regex(pattern = r"^(build|break|diet)\.[a-z0-9-]+$"))]
    protocol_id: String,
    /// Frame level, 1 to 3.
    #[schemars(range(min = 1, max = 3))]
    frame_level: u8,
    /// Build or break.
    kind: Kind,
    /// The habit text.
    #[schemars(length(min = 1, max = 20))]
    text: String,
    /// When (optional).
    when: Option<TimeOfDay>,
) -> Value {
    json!({
        "protocol_id": protocol_id,
        "frame_level": frame_level,
        "kind": kind,
        "text": text,
        "when": when,
    })
}

/// Always refuses with a domain error.
#[tool]
async fn refuse() -> Result<(), ToolError> {
    Err(ToolError::new("r3_quota", "이미 활성 습관이 3개입니다"))
}

/// Panics.
#[tool]
async fn explode() -> u8 {
    panic!("boom: 습관 저장소가 사라졌습니다")
}

/// Takes too long.
#[tool(timeout_ms = 50)]
async fn slow() -> u8 {
    tokio::time::sleep(Duration::from_secs(30)).await;
    1
}

fn registry() -> Dispatcher {
    let registry = Registry::builder().discover().build().expect("registry");
    Dispatcher::new(std::sync::Arc::new(registry), ApproveAll)
}

fn valid_args() -> Value {
    json!({"protocol_id": "build.morning-walk", "frame_level": 2, "kind": "build", "text": "아침 걷기"})
}

fn error(result: &ToolResult) -> (&str, &str) {
    let error = result
        .as_error()
        .unwrap_or_else(|| panic!("expected an error, got {result:?}"));
    (error.code(), error.reason())
}

#[tokio::test]
async fn valid_calls_run_and_answer_ok() {
    let result = registry().dispatch("echo", valid_args()).await;
    assert_eq!(
        result.encode(2048),
        r#"{"status":"ok","data":{"protocol_id":"build.morning-walk","frame_level":2,"kind":"build","text":"아침 걷기","when":null}}"#
    );
}

#[tokio::test]
async fn unknown_tools_list_the_available_names() {
    let result = registry().dispatch("delete_everything", json!({})).await;
    let (code, reason) = error(&result);
    assert_eq!(code, "unknown_tool");
    assert_eq!(
        reason,
        "unknown tool `delete_everything`; available tools: echo, refuse, explode, slow"
    );
}

#[tokio::test]
async fn validation_names_each_field_and_rule() {
    let registry = registry();
    let cases = [
        (
            json!({"frame_level": "two"}),
            "`frame_level`: \"two\" is not of type \"integer\" (type)",
        ),
        (
            json!({"frame_level": 7}),
            "`frame_level`: 7 is greater than the maximum of 3 (maximum)",
        ),
        (
            json!({"frame_level": 0}),
            "`frame_level`: 0 is less than the minimum of 1 (minimum)",
        ),
        (
            json!({"kind": "maybe"}),
            "`kind`: \"maybe\" is not one of \"build\" or \"break\" (enum)",
        ),
        (
            json!({"protocol_id": "walk"}),
            "`protocol_id`: \"walk\" does not match \"^(build|break|diet)\\.[a-z0-9-]+$\" (pattern)",
        ),
        (
            json!({"text": ""}),
            "`text`: \"\" is shorter than 1 character (minLength)",
        ),
        (
            json!({"when": {"hour": 25, "minute": 0}}),
            "`when.hour`: 25 is greater than the maximum of 23 (maximum)",
        ),
    ];
    for (patch, expected) in cases {
        let mut args = valid_args();
        for (key, value) in patch.as_object().expect("object") {
            args[key] = value.clone();
        }
        let result = registry.dispatch("echo", args).await;
        let (code, reason) = error(&result);
        assert_eq!(code, "validation");
        assert_eq!(
            reason,
            format!("invalid arguments: {expected}"),
            "for {patch}"
        );
    }
}

#[tokio::test]
async fn every_missing_required_field_is_reported() {
    let result = registry().dispatch("echo", json!({"text": "걷기"})).await;
    let (code, reason) = error(&result);
    assert_eq!(code, "validation");
    for field in ["protocol_id", "frame_level", "kind"] {
        assert!(
            reason.contains(&format!("`{field}` is missing (required)")),
            "{reason}"
        );
    }
    assert!(!reason.contains("`text`"), "{reason}");
}

#[tokio::test]
async fn arguments_must_be_an_object_but_null_means_none() {
    let registry = registry();
    let result = registry.dispatch("echo", json!([1, 2])).await;
    assert_eq!(
        error(&result),
        (
            "validation",
            "invalid arguments: `arguments`: expected a JSON object of arguments, got an array (type)"
        )
    );
    let result = registry.dispatch("refuse", Value::Null).await;
    assert_eq!(
        error(&result).0,
        "r3_quota",
        "null arguments reached the handler"
    );
}

#[tokio::test]
async fn extra_keys_and_null_optionals_are_tolerated() {
    let mut args = valid_args();
    args["hallucinated"] = json!("ignored");
    args["when"] = Value::Null;
    let result = registry().dispatch("echo", args).await;
    assert!(result.is_ok(), "{result:?}");
    assert!(
        result
            .data()
            .is_some_and(|d| d.get("hallucinated").is_none())
    );
}

#[tokio::test]
async fn handler_errors_pass_through_with_their_code() {
    let result = registry().dispatch("refuse", json!({})).await;
    assert_eq!(
        result.encode(2048),
        r#"{"status":"error","code":"r3_quota","reason":"이미 활성 습관이 3개입니다"}"#
    );
}

#[tokio::test]
async fn panics_become_handler_errors() {
    let result = registry().dispatch("explode", json!({})).await;
    assert_eq!(
        error(&result),
        (
            "handler_error",
            "the tool failed unexpectedly: boom: 습관 저장소가 사라졌습니다"
        )
    );
}

#[tokio::test(start_paused = true)]
async fn slow_tools_time_out() {
    let result = registry().dispatch("slow", json!({})).await;
    assert_eq!(
        error(&result),
        ("timeout", "the tool did not finish within 50 ms")
    );
}

#[tokio::test]
async fn results_over_the_cap_stay_valid_json_within_it() {
    let long = "가".repeat(19);
    let registry = registry();
    let mut args = valid_args();
    args["text"] = json!(long);
    let result = registry.dispatch("echo", args).await;
    let capped = agent_core::ResultCap::new(100).apply(&result);
    assert!(capped.truncated);
    assert!(capped.json.len() <= 100, "{}", capped.json);
    let parsed: Value = serde_json::from_str(&capped.json).expect("valid JSON");
    assert_eq!(parsed["status"], "ok");
}
