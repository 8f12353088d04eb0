//! A Korean request of two clauses composes a two-step plan by each clause's words even
//! where the app's examples share them: "보여줘" asks for the list, though the summary's
//! examples say it too, and "완료하고" asks to complete, though the list's examples say
//! "완료한 일"; a clause that writes nothing and names one reading tool by its own words
//! ("요약") asks for that tool, not the one "보여줘" alone would ask for. An English
//! request's clauses are read by the stricter words alone.

use std::sync::{Arc, Mutex};

use agent_core::choice::Strategy;
use agent_core::llm::scripted::{ScriptedSession, call, text};
use agent_core::{Agent, ApproveAll, ChatConfig, Dep, Registry, ValueChoice, tool};
use agent_tests::plans;
use serde_json::json;

/// Tasks, numbered from 1.
struct Tasks(Vec<String>);

/// The tasks' numbers, each labelled with its title.
fn task_numbers(tasks: Dep<Tasks>) -> Vec<ValueChoice> {
    (1..)
        .zip(tasks.0.iter())
        .map(|(n, title)| ValueChoice::new(n, title.clone()))
        .collect()
}

/// 할 일 목록을 봅니다.
#[tool(
    label = "할 일 목록",
    example(request = "할 일 목록 보여줘"),
    example(request = "뭐 남았어?"),
    example(request = "완료한 일도 다 보여줘")
)]
async fn list_tasks(tasks: Dep<Tasks>) -> Vec<String> {
    tasks.0.clone()
}

/// 이번 주에 끝낸 일과 남은 일을 요약합니다.
#[tool(
    label = "주간 요약",
    example(request = "이번 주 요약 보여줘"),
    example(request = "이번 주 어땠는지 정리해서 보여줘"),
    example(request = "주간 요약 좀")
)]
async fn weekly_summary(tasks: Dep<Tasks>) -> String {
    format!("{}개 남음", tasks.0.len())
}

/// 할 일 하나를 완료로 표시합니다.
#[tool(
    destructive,
    label = "완료 표시",
    example(request = "2번 완료", args = { "number": 2 }),
    example(request = "설거지 끝냈어", args = { "number": 1 }),
    example(request = "3번 완료 처리해줘", args = { "number": 3 })
)]
async fn complete_task(
    /// 할 일 번호
    #[values(task_numbers)]
    #[from_request]
    number: i64,
) -> i64 {
    number
}

/// The plan the agent made for `request`, by the router alone (its session plays back a
/// call of each planned tool and words; only the plan is looked at).
async fn plan_for(request: &str) -> Vec<String> {
    let tasks = Arc::new(Tasks(vec!["설거지".into(), "빨래".into(), "청소".into()]));
    let registry = Arc::new(
        Registry::builder()
            .discover()
            .dependency_arc(tasks)
            .build()
            .expect("registry"),
    );
    let session = ScriptedSession::new(
        ChatConfig::new("할 일 도우미입니다.", &registry),
        vec![
            vec![call("complete_task", json!({"number": 2}))],
            vec![call("list_tasks", json!({}))],
            text("네."),
        ],
    );
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut agent = Agent::new(session, registry)
        .with_strategy(Strategy::Router)
        .with_confirmer(ApproveAll)
        .with_events(move |event| sink.lock().expect("events").push(event));
    let _answer = agent.send(request).await;
    plans(&events).into_iter().next().expect("a plan")
}

#[tokio::test]
async fn a_shared_action_word_still_asks_for_its_tool_in_a_clause() {
    assert_eq!(
        plan_for("2번 완료하고 남은 거 보여줘").await,
        ["complete_task", "list_tasks"]
    );
}

#[tokio::test]
async fn a_clause_that_names_one_reading_tool_asks_for_it() {
    assert_eq!(
        plan_for("2번 완료하고 이번 주 요약 보여줘").await,
        ["complete_task", "weekly_summary"]
    );
}
