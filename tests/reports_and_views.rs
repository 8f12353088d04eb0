//! Two plans a request makes by what it says, not by an action's word: a report of having done
//! a listed task ("우유 사왔음") completes it, where the reading chose no tool — and only a
//! report that names the task, is no question, and tells of nothing missed; and a write the
//! reading chose, followed by a clause that asks for one view ("예산 40만원으로 바꾸고 예산
//! 현황 보여줘"), is the write and then the view.

use std::sync::{Arc, Mutex};

use agent_core::choice::{Background, Chooser, Strategy};
use agent_core::llm::scripted::{ScriptedSession, text};
use agent_core::{Agent, ApproveAll, ChatConfig, Dep, Registry, ValueChoice, tool};
use agent_tests::plans;

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
    example(request = "오늘 할 일 뭐 있지?")
)]
async fn list_tasks(tasks: Dep<Tasks>) -> Vec<String> {
    tasks.0.clone()
}

/// 할 일 하나를 완료로 표시합니다.
#[tool(
    destructive,
    label = "할 일 완료",
    example(request = "2번 완료", args = { "number": 2 }),
    example(request = "우유 계란 사기 완료 처리", args = { "number": 1 }),
    example(request = "3번 체크", args = { "number": 3 })
)]
async fn complete_task(
    /// 할 일 번호
    #[values(task_numbers)]
    #[from_request]
    number: i64,
) -> i64 {
    number
}

/// 이번 달 예산 현황을 봅니다.
#[tool(
    label = "예산 현황",
    example(request = "예산 현황 알려줘"),
    example(request = "이번 달 예산 얼마나 남았어?"),
    example(request = "예산 상황 보여줘")
)]
async fn budget_status() -> String {
    "남은 예산 120,000원".to_owned()
}

/// 한 달 예산을 정합니다.
#[tool(
    destructive,
    label = "예산 설정",
    example(request = "예산 30만원으로 설정해줘", args = { "amount": 300000 }),
    example(request = "한 달 예산 50만원으로 정해줘", args = { "amount": 500000 }),
    example(request = "예산을 20만원으로 잡아줘", args = { "amount": 200000 })
)]
async fn set_budget(
    /// 한 달 예산(원)
    #[from_request]
    amount: i64,
) -> i64 {
    amount
}

/// A stand-in for the model's reading, sure of what the words say: the list (목록), a
/// completion (완료, 체크), the budget's state (현황, 상황), its setting (a sum in 만원), or
/// none of these — a report that says no action's word reads as no tool.
fn reading(text: &str) -> Result<Vec<f32>, agent_core::LlmError> {
    let has = |words: &[&str]| f32::from(u8::from(words.iter().any(|w| text.contains(w))));
    let list = has(&["목록", "남았어", "뭐 있"]);
    let complete = has(&["완료", "체크"]);
    let status = has(&["현황", "상황"]);
    let set = has(&["만원"]);
    Ok(vec![
        list,
        complete,
        status,
        set,
        1.0 - list.max(complete).max(status).max(set),
    ])
}

/// The plan the agent made for `request`, in an app of the tools named `tools`.
async fn plan_for(tools: &[&str], request: &str) -> Vec<String> {
    let tasks = Arc::new(Tasks(vec![
        "우유 계란 사기".into(),
        "도서관 책 반납".into(),
        "치과 전화".into(),
    ]));
    let registry = Arc::new(
        Registry::builder()
            .discover_only(tools.iter().copied())
            .dependency_arc(tasks)
            .build()
            .expect("registry"),
    );
    let session = ScriptedSession::new(
        ChatConfig::new("할 일과 예산 도우미입니다.", &registry),
        vec![text("네.")],
    )
    .with_reading(reading);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let chooser = Chooser::with_background(&registry, &Background::builtin());
    let mut agent = Agent::new(session, registry)
        .with_chooser(chooser)
        .with_strategy(Strategy::Combined)
        .with_confirmer(ApproveAll)
        .with_events(move |event| sink.lock().expect("events").push(event));
    let _answer = agent.send(request).await;
    plans(&events).into_iter().next().expect("a plan")
}

/// The to-do app's tools.
const TODO: [&str; 2] = ["list_tasks", "complete_task"];

/// The budget app's tools.
const BUDGET: [&str; 2] = ["budget_status", "set_budget"];

#[tokio::test]
async fn a_report_of_a_listed_task_done_completes_it() {
    assert_eq!(
        plan_for(&TODO, "도서관 책 반납했어").await,
        ["complete_task"]
    );
    assert_eq!(
        plan_for(&TODO, "우유 계란 사왔음 ㅇㅇ").await,
        ["complete_task"]
    );
}

#[tokio::test]
async fn a_question_a_miss_or_an_unlisted_thing_completes_nothing() {
    for request in [
        "도서관 책 반납했어?",
        "도서관 책 반납 깜빡했어",
        "치과 전화 못 했어",
        "어제 영화 봤어",
    ] {
        let plan = plan_for(&TODO, request).await;
        assert!(
            !plan.contains(&"complete_task".to_owned()),
            "{request}: {plan:?}"
        );
    }
}

#[tokio::test]
async fn a_write_then_a_clause_asking_for_a_view_is_both() {
    assert_eq!(
        plan_for(&BUDGET, "예산 40만원으로 바꾸고 예산 현황 보여줘").await,
        ["set_budget", "budget_status"]
    );
}
