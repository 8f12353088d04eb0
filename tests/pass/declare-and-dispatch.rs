//! The issue's own example: a destructive tool with an injected store, a ranged integer, an
//! optional argument, a summary template and a per-call confirmation predicate.

use std::sync::Mutex;

use agent_core::{ApproveAll, Dep, Dispatcher, Registry, Tool, ToolError, ToolResult, tool};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Default)]
struct HabitStore(Mutex<Vec<String>>);

#[derive(Serialize)]
struct AddedHabit {
    habit_id: usize,
    frame_level: u8,
}

/// 새 습관을 추가합니다. 카탈로그의 프로토콜 하나를 골라 사용자의 말로 다시 씁니다.
#[tool(destructive, label = "습관 추가", summary = "'{framed_text}' 습관을 추가합니다")]
async fn add_habit(
    store: Dep<HabitStore>,
    /// 카탈로그 프로토콜 ID (예: build.morning-walk)
    protocol_id: String,
    /// 프레임 단계 (1~3)
    #[schemars(range(min = 1, max = 3))]
    frame_level: u8,
    /// 사용자의 말로 다시 쓴 습관 문장
    framed_text: String,
    /// 언제 할지 (선택)
    anchor_when: Option<String>,
) -> Result<AddedHabit, ToolError> {
    if protocol_id.starts_with("diet.") {
        return Err(ToolError::new("r8_xor", "diets cannot be habits"));
    }
    let mut habits = store.0.lock().map_err(|_| ToolError::new("storage", "poisoned"))?;
    habits.push(format!("{framed_text} {}", anchor_when.unwrap_or_default()));
    Ok(AddedHabit { habit_id: habits.len(), frame_level })
}

/// 기록 값
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Entry {
    /// 했어요
    Done,
    /// 의도적으로 비워 둔 날
    Blank,
}

/// 오늘의 기록을 남깁니다.
#[tool(
    destructive,
    label = "기록하기",
    summary = format!("{habit_id}번 습관: {}", if *value == Entry::Done { "완료" } else { "쉼" }),
    confirm_if = *value != Entry::Blank
)]
async fn log_entry(
    /// 습관 ID
    habit_id: u32,
    /// 기록 값
    value: Entry,
) -> String {
    format!("{habit_id}: {value:?}")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // The fn stays an ordinary fn.
    let store = Dep::new(HabitStore::default());
    let added = add_habit(store.clone(), "build.walk".into(), 2, "걷기".into(), None).await;
    assert_eq!(added.ok().map(|a| a.habit_id), Some(1));

    assert_eq!(<add_habit as Tool>::NAME, "add_habit");
    let registry = Registry::builder()
        .tool::<add_habit>()
        .tool::<log_entry>()
        .dependency_arc(store.into_arc())
        .build()
        .expect("registry");
    let registry = std::sync::Arc::new(registry);
    let tools = Dispatcher::new(std::sync::Arc::clone(&registry), ApproveAll);
    let tool = registry.get("add_habit").expect("add_habit");
    assert_eq!(tool.label(), "습관 추가");
    assert!(tool.is_destructive());
    assert_eq!(
        tool.summarize(&json!({"framed_text": "아침 걷기"})),
        "'아침 걷기' 습관을 추가합니다"
    );
    assert_eq!(tool.parameters()["required"], json!(["protocol_id", "frame_level", "framed_text"]));

    let result = tools
        .dispatch("add_habit", json!({"protocol_id": "build.walk", "frame_level": 3, "framed_text": "걷기"}))
        .await;
    assert_eq!(result, ToolResult::ok(json!({"habit_id": 2, "frame_level": 3})));

    let log = registry.get("log_entry").expect("log_entry");
    assert!(!log.needs_confirmation(&json!({"habit_id": 1, "value": "blank"})));
    assert!(log.needs_confirmation(&json!({"habit_id": 1, "value": "done"})));
    assert_eq!(log.summarize(&json!({"habit_id": 4, "value": "done"})), "4번 습관: 완료");
}
