//! What the model sees (declarations, instructions) and what a person sees (labels,
//! confirmation summaries), and that both ways of registering the tools agree.

use std::sync::Arc;

use agent_core::{DenyAll, Registry};
use habit_tools::catalog::search::MAX_LIMIT;
use habit_tools::rules::{
    FRAME_LEVELS, MAX_FRAMED_TEXT_CHARS, MAX_NOTE_CHARS, MAX_QUERY_CHARS, MAX_SHORT_TEXT_CHARS,
};
use habit_tools::{COACH_INSTRUCTIONS, TOOL_NAMES};
use serde_json::{Value, json};

use crate::support::Harness;

fn harness() -> Harness {
    Harness::in_memory(Arc::new(DenyAll))
}

fn is_korean(text: &str) -> bool {
    text.chars().any(|c| ('가'..='힣').contains(&c))
}

#[test]
fn the_nine_tools_are_registered_in_order() {
    let h = harness();
    assert_eq!(h.registry.names().collect::<Vec<_>>(), TOOL_NAMES);
}

#[test]
fn labels_and_confirmation_match_the_spec() {
    let h = harness();
    let expected = [
        ("search_catalog", "습관 검색", false),
        ("query_protocol", "프로토콜 조회", false),
        ("list_active_habits", "활성 습관 목록", false),
        ("get_streak", "연속 기록 조회", false),
        ("add_habit", "습관 추가", true),
        ("log_tracker_entry", "기록하기", true),
    ];
    for (name, label, destructive) in expected {
        let tool = h.registry.get(name).unwrap();
        assert_eq!(tool.label(), label, "{name}");
        assert_eq!(tool.is_destructive(), destructive, "{name}");
    }
    let log = h.registry.get("log_tracker_entry").unwrap();
    assert!(log.needs_confirmation(&json!({"habit_id": 1, "value": "done"})));
    assert!(!log.needs_confirmation(&json!({"habit_id": 1, "value": "blank"})));
    let add = h.registry.get("add_habit").unwrap();
    assert!(
        add.needs_confirmation(&json!({"protocol_id": "x", "frame_level": 1, "framed_text": "y"}))
    );
}

#[test]
fn every_tool_and_parameter_is_described_in_korean() {
    for declaration in harness().registry.declarations() {
        assert!(is_korean(&declaration.description), "{}", declaration.name);
        let properties = declaration.parameters["properties"].as_object().unwrap();
        for (param, schema) in properties {
            let description = schema["description"].as_str().unwrap_or_default();
            assert!(is_korean(description), "{}.{param}", declaration.name);
        }
    }
}

/// The parameters each tool takes, as the seed lists them, and which are required.
#[test]
fn parameters_are_the_seeds() {
    let expected: [(&str, &[&str], &[&str]); 6] = [
        ("search_catalog", &["category", "keyword", "limit"], &[]),
        ("query_protocol", &["id"], &["id"]),
        ("list_active_habits", &[], &[]),
        ("get_streak", &["habit_id"], &["habit_id"]),
        (
            "add_habit",
            &[
                "protocol_id",
                "frame_level",
                "framed_text",
                "anchor_when",
                "anchor_after_what",
                "dose_text",
            ],
            &["protocol_id", "frame_level", "framed_text"],
        ),
        (
            "log_tracker_entry",
            &["habit_id", "value", "date", "note"],
            &["habit_id", "value"],
        ),
    ];
    let h = harness();
    for (name, params, required) in expected {
        let parameters = h.registry.get(name).unwrap().parameters();
        let names: Vec<&str> = parameters["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(names, params, "{name}");
        let listed: Vec<&str> = parameters
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert_eq!(listed, required, "{name}");
    }
}

/// The schema carries the domain's own limits, so a grammar-constrained model cannot exceed
/// them and an unconstrained one is told before any code runs.
#[test]
fn the_schema_enforces_the_domains_limits() {
    let h = harness();
    let param = |tool: &str, name: &str| {
        h.registry.get(tool).unwrap().parameters()["properties"][name].clone()
    };
    let search_limit = param("search_catalog", "limit");
    assert_eq!(
        (
            search_limit["minimum"].as_i64(),
            search_limit["maximum"].as_i64()
        ),
        (Some(1), Some(MAX_LIMIT))
    );
    for name in ["category", "keyword"] {
        assert_eq!(
            param("search_catalog", name)["maxLength"],
            json!(MAX_QUERY_CHARS)
        );
    }
    let frame = param("add_habit", "frame_level");
    assert_eq!(
        (frame["minimum"].as_i64(), frame["maximum"].as_i64()),
        (Some(*FRAME_LEVELS.start()), Some(*FRAME_LEVELS.end()))
    );
    let framed = param("add_habit", "framed_text");
    assert_eq!(
        (framed["minLength"].clone(), framed["maxLength"].clone()),
        (json!(1), json!(MAX_FRAMED_TEXT_CHARS))
    );
    for name in ["anchor_when", "anchor_after_what", "dose_text"] {
        assert_eq!(
            param("add_habit", name)["maxLength"],
            json!(MAX_SHORT_TEXT_CHARS),
            "{name}"
        );
    }
    assert_eq!(
        param("log_tracker_entry", "note")["maxLength"],
        json!(MAX_NOTE_CHARS)
    );
    assert_eq!(
        param("log_tracker_entry", "value")["enum"],
        json!(["done", "blank"])
    );
}

/// Everything the model reads before the first user message: the nine declarations (compact
/// JSON, as a chat template embeds them) and the instructions. A budget, so growth is a
/// decision rather than an accident.
#[test]
fn the_prompt_budget_holds() {
    let declarations = serde_json::to_string(&harness().registry.declarations()).unwrap();
    let chars = declarations.chars().count() + COACH_INSTRUCTIONS.chars().count();
    let bytes = declarations.len() + COACH_INSTRUCTIONS.len();
    println!(
        "declarations: {} chars / {} bytes; instructions: {} chars / {} bytes; total {chars} chars / {bytes} bytes",
        declarations.chars().count(),
        declarations.len(),
        COACH_INSTRUCTIONS.chars().count(),
        COACH_INSTRUCTIONS.len(),
    );
    // About 3,600 with nine tools; raise deliberately, not by drift.
    assert!(chars <= 3_700, "{chars} characters");
}

/// `discover_only(TOOL_NAMES)` (the `#[tool]` inventory) and `registry_builder` give the model
/// the same tools; only `log_tracker_entry`'s human summary differs (computed vs template).
#[test]
fn discovering_the_tools_by_name_gives_the_same_declarations() {
    let h = harness();
    let discovered = Registry::builder()
        .discover_only(TOOL_NAMES)
        .dependency(h.coach.clone())
        .build()
        .unwrap();
    assert_eq!(discovered.declarations(), h.registry.declarations());
    for (a, b) in discovered.tools().zip(h.registry.tools()) {
        assert_eq!(
            (a.label(), a.is_destructive(), a.source()),
            (b.label(), b.is_destructive(), b.source())
        );
        for value in ["done", "blank"] {
            let args = json!({"habit_id": 1, "value": value});
            assert_eq!(
                a.needs_confirmation(&args),
                b.needs_confirmation(&args),
                "{}",
                a.name()
            );
        }
    }
    // Both paths build the same definition, computed summary included.
    let args = json!({"habit_id": 3, "value": "done"});
    let summary = |registry: &Registry| registry.get("log_tracker_entry").unwrap().summarize(&args);
    assert_eq!(summary(&discovered), summary(&h.registry));
    assert_eq!(
        summary(&discovered),
        "3번 습관에 오늘 '완료' 기록을 남깁니다"
    );
}

#[test]
fn confirmation_summaries_read_well() {
    let h = harness();
    let add = h.registry.get("add_habit").unwrap();
    assert_eq!(
        add.summarize(&json!({"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "아침 커피 후 10분 걷기"})),
        "'아침 커피 후 10분 걷기' 습관을 추가합니다"
    );
    let log = h.registry.get("log_tracker_entry").unwrap();
    let cases = [
        (
            json!({"habit_id": 3, "value": "done"}),
            "3번 습관에 오늘 '완료' 기록을 남깁니다",
        ),
        (
            json!({"habit_id": 3, "value": "done", "date": null}),
            "3번 습관에 오늘 '완료' 기록을 남깁니다",
        ),
        (
            json!({"habit_id": 3, "value": "done", "date": " "}),
            "3번 습관에 오늘 '완료' 기록을 남깁니다",
        ),
        (
            json!({"habit_id": 3, "value": "done", "date": "Yesterday"}),
            "3번 습관에 어제 '완료' 기록을 남깁니다",
        ),
        (
            json!({"habit_id": 3, "value": "done", "date": "2025-03-08"}),
            "3번 습관에 2025-03-08 '완료' 기록을 남깁니다",
        ),
        (
            json!({"habit_id": 7, "value": "blank", "date": "오늘"}),
            "7번 습관에 오늘 '쉼' 기록을 남깁니다",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(log.summarize(&args), expected, "{args}");
    }
    // A long date string (refused by the tool afterwards) cannot make the dialog huge.
    let long = log.summarize(&json!({"habit_id": 1, "value": "done", "date": "9".repeat(5000)}));
    assert!(long.chars().count() < 60, "{long}");
}
