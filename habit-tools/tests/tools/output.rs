//! The result schemas the tools declare (MCP's `outputSchema`): every tool has one, an object
//! schema, and every result the tools really send — each kind of protocol, a list with every
//! optional text given and none, a streak, an entry — conforms to it.

use std::sync::Arc;

use habit_tools::TOOL_NAMES;
use habit_tools::catalog;
use serde_json::{Value, json};

use crate::support::{Harness, Recorder};

fn validator(h: &Harness, name: &str) -> jsonschema::Validator {
    let tool = h.registry.get(name).unwrap();
    let schema = tool
        .output_schema()
        .unwrap_or_else(|| panic!("{name}: no output schema"));
    assert_eq!(schema["type"], "object", "{name}");
    jsonschema::draft202012::new(schema).unwrap()
}

/// Asserts that `data` conforms to `name`'s output schema, naming the first failure.
fn conforms(h: &Harness, name: &str, data: &Value) {
    let validator = validator(h, name);
    if let Some(error) = validator.iter_errors(data).next() {
        panic!("{name}: {error} at `{}` in {data}", error.instance_path());
    }
}

#[tokio::test]
async fn every_result_conforms_to_the_schema_its_tool_declares() {
    let h = Harness::in_memory(Recorder::approving());
    for name in TOOL_NAMES {
        validator(&h, name);
    }

    conforms(
        &h,
        "search_catalog",
        &h.ok("search_catalog", json!({"limit": 10})).await,
    );
    conforms(
        &h,
        "search_catalog",
        &h.ok("search_catalog", json!({"keyword": "없는말없는말"}))
            .await,
    );
    // One protocol of each kind: their fields differ, flattened next to the common ones.
    for kind in ["build.", "break.", "diet."] {
        let id = catalog()
            .entries()
            .iter()
            .map(|entry| entry.id.as_str())
            .find(|id| id.starts_with(kind))
            .unwrap();
        conforms(
            &h,
            "query_protocol",
            &h.ok("query_protocol", json!({"id": id})).await,
        );
    }
    // Every diet, so that one with and one without its optional caution are both seen.
    for entry in catalog()
        .entries()
        .iter()
        .filter(|e| e.id.starts_with("diet."))
    {
        conforms(
            &h,
            "query_protocol",
            &h.ok("query_protocol", json!({"id": entry.id})).await,
        );
    }

    conforms(
        &h,
        "list_active_habits",
        &h.ok("list_active_habits", json!({})).await,
    );
    let added = h
        .ok(
            "add_habit",
            json!({"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "아침 10분 걷기",
                   "anchor_when": "아침 7시", "anchor_after_what": "커피를 내린 후", "dose_text": "10분"}),
        )
        .await;
    conforms(&h, "add_habit", &added);
    h.add("break.snooze", "알람이 울리면 바로 일어나기").await;
    conforms(
        &h,
        "list_active_habits",
        &h.ok("list_active_habits", json!({})).await,
    );

    let habit = added["habit_id"].clone();
    let logged = h
        .ok(
            "log_tracker_entry",
            json!({"habit_id": habit, "value": "done", "note": "상쾌함"}),
        )
        .await;
    conforms(&h, "log_tracker_entry", &logged);
    conforms(
        &h,
        "get_streak",
        &h.ok("get_streak", json!({"habit_id": habit})).await,
    );
}

#[test]
fn the_schemas_describe_what_is_sent_not_what_is_read() {
    let h = Harness::in_memory(Arc::new(agent_core::DenyAll));
    let list = h.registry.get("list_active_habits").unwrap();
    let habit = &list.output_schema().unwrap()["properties"]["items"]["items"];
    let required: Vec<&str> = habit["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(required.contains(&"framed_text"), "{habit}");
    assert!(
        !required.contains(&"anchor_when"),
        "a field left out when empty is not required: {habit}"
    );
    let added = h.registry.get("add_habit").unwrap();
    let properties = &added.output_schema().unwrap()["properties"];
    assert_eq!(
        properties["type"]["enum"],
        json!(["build", "break"]),
        "{properties}"
    );
}
