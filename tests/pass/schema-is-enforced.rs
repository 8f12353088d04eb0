//! What the schema shows is what the gate enforces: a `date` format, the bounds of each
//! numeric Rust type (so `1e300` never becomes an `f32` infinity), integers that are JSON
//! integers (`2.0` is refused, naming the field, nested ones too), and a serde error the
//! schema let through names the argument by its JSON name.

use std::sync::Arc;

use agent_core::{DenyAll, Dispatcher, Registry, ToolResult, tool};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

/// When in the day.
#[derive(Deserialize, schemars::JsonSchema)]
struct When {
    /// Hour of day.
    hour: u8,
}

/// A day of the week, read from its Korean name.
struct Weekday(u8);

fn weekday<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Weekday, D::Error> {
    let name = String::deserialize(deserializer)?;
    ["월", "화", "수", "목", "금", "토", "일"]
        .iter()
        .position(|day| *day == name)
        .map(|i| Weekday(i as u8))
        .ok_or_else(|| serde::de::Error::custom(format!("`{name}` is not a weekday")))
}

/// Schedules a reminder.
#[tool]
async fn remind(
    /// The day, YYYY-MM-DD.
    #[schemars(extend("format" = "date"))]
    date: String,
    /// How many times.
    times: u8,
    /// Offset in minutes.
    offset: i32,
    /// A weight.
    weight: Option<f32>,
    /// A big counter.
    counter: Option<i64>,
    /// When in the day.
    when: Option<When>,
    /// The weekday's Korean name.
    #[serde(rename = "weekday", deserialize_with = "weekday", default = "monday")]
    #[schemars(with = "String")]
    day: Weekday,
) -> String {
    let _ = (offset, weight, counter, when);
    format!("{date} ×{times} day {}", day.0)
}

fn monday() -> Weekday {
    Weekday(0)
}

fn error_fields(result: &ToolResult) -> String {
    let error = result.as_error().expect("an error");
    assert_eq!(error.code(), "validation", "{error}");
    error.reason().to_owned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder().discover().build().expect("registry");
    let tool = registry.get("remind").expect("tool");
    let shown = &tool.parameters()["properties"];
    assert_eq!(shown["date"]["format"], "date");
    assert_eq!((&shown["times"]["minimum"], &shown["times"]["maximum"]), (&json!(0), &json!(255)));
    assert_eq!(shown["offset"]["maximum"], json!(i32::MAX));
    assert_eq!(shown["weight"]["maximum"], json!(f64::from(f32::MAX)));
    assert_eq!(shown["when"]["properties"]["hour"]["maximum"], json!(255));
    // 64-bit bounds are enforced but not shown: twenty digits are noise in a prompt.
    assert_eq!(shown["counter"].get("maximum"), None);
    assert_eq!(tool.validation_schema()["properties"]["counter"]["maximum"], json!(i64::MAX));
    assert_eq!(shown["weekday"]["type"], "string");
    assert_eq!(tool.parameters()["required"], json!(["date", "times", "offset"]));

    let tools = Dispatcher::new(Arc::new(registry), DenyAll);
    let call = |args: Value| tools.dispatch("remind", args);
    assert_eq!(
        call(json!({"date": "2025-03-10", "times": 2, "offset": -5, "weekday": "수"})).await,
        ToolResult::ok(json!("2025-03-10 ×2 day 2"))
    );
    let reason = error_fields(&call(json!({"date": "tomorrow", "times": 1, "offset": 0})).await);
    assert!(reason.contains("`date`") && reason.contains("(format)"), "{reason}");
    let reason = error_fields(&call(json!({"date": "2025-03-10", "times": 2.0, "offset": 0})).await);
    assert!(reason.contains("`times`") && reason.contains("(type)"), "{reason}");
    let reason = error_fields(&call(json!({"date": "2025-03-10", "times": 256, "offset": 0})).await);
    assert!(reason.contains("`times`") && reason.contains("(maximum)"), "{reason}");
    let reason =
        error_fields(&call(json!({"date": "2025-03-10", "times": 1, "offset": 0, "weight": 1e300})).await);
    assert!(reason.contains("`weight`") && reason.contains("(maximum)"), "{reason}");
    let reason = error_fields(
        &call(json!({"date": "2025-03-10", "times": 1, "offset": 0, "counter": 10_000_000_000_000_000_000_u64})).await,
    );
    assert!(reason.contains("`counter`") && reason.contains("(maximum)"), "{reason}");
    let reason = error_fields(
        &call(json!({"date": "2025-03-10", "times": 1, "offset": 0, "when": {"hour": 7.0}})).await,
    );
    assert!(reason.contains("`when.hour`") && reason.contains("(type)"), "{reason}");
    let reason =
        error_fields(&call(json!({"date": "2025-03-10", "times": 1, "offset": 0, "weekday": "someday"})).await);
    assert!(reason.contains("`weekday`") && reason.contains("not a weekday"), "{reason}");
}
