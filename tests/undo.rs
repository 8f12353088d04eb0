//! The journal and undo, end to end: every destructive call that ran is journaled (with how
//! it got through the gate), nothing else is; `Dispatcher::undo` asks the confirmer first,
//! runs the tool's undo fn, journals the undo and refuses what cannot be undone; and an agent
//! plans "방금 거 취소해줘" as the undo of the last journaled call, answered without the model.

use std::sync::{Arc, Mutex};

use agent_core::choice::Strategy;
use agent_core::llm::scripted::{ScriptedSession, call, text};
use agent_core::{
    Agent, AgentEvent, ApproveAll, Caller, ChatConfig, ConfirmRequest, Confirmation, Confirmed,
    Dep, Dispatcher, Messages, Registry, ToolError, UndoCall, tool,
};
use serde_json::json;

#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl Notes {
    fn all(&self) -> Vec<String> {
        self.0.lock().expect("notes").clone()
    }
}

/// 메모를 추가합니다.
#[tool(
    destructive,
    label = "메모 추가",
    summary = "'{text}' 메모를 추가합니다",
    confirm_if = !text.starts_with('~'),
    undo = remove_note,
    example(request = "물 마시기 메모 추가해줘", args = { "text": "물 마시기" })
)]
async fn add_note(
    notes: Dep<Notes>,
    /// 메모 내용
    #[from_request]
    text: String,
) -> Result<usize, ToolError> {
    let mut all = notes
        .0
        .lock()
        .map_err(|_| ToolError::new("storage", "잠금 실패"))?;
    all.push(text);
    Ok(all.len())
}

/// Takes back one `add_note`: the note it added leaves, unless another was added after it.
async fn remove_note(call: UndoCall, notes: Dep<Notes>) -> Result<(), ToolError> {
    let count: usize = call.data()?;
    let text: String = call.argument("text")?.unwrap_or_default();
    let mut all = notes
        .0
        .lock()
        .map_err(|_| ToolError::new("storage", "잠금 실패"))?;
    if all.len() != count || all.last() != Some(&text) {
        return Err(ToolError::new(
            "state_changed",
            "그 뒤로 메모가 바뀌어 되돌릴 수 없어요",
        ));
    }
    all.pop();
    Ok(())
}

/// 메모를 모두 지웁니다.
#[tool(destructive, label = "메모 비우기")]
async fn clear_notes(notes: Dep<Notes>) -> Result<(), ToolError> {
    notes
        .0
        .lock()
        .map_err(|_| ToolError::new("storage", "잠금 실패"))?
        .clear();
    Ok(())
}

/// 메모 수를 셉니다.
#[tool(label = "메모 수")]
async fn count_notes(notes: Dep<Notes>) -> usize {
    notes.all().len()
}

fn registry(notes: &Arc<Notes>) -> Arc<Registry> {
    Arc::new(
        Registry::builder()
            .discover()
            .dependency_arc(Arc::clone(notes))
            .build()
            .expect("registry"),
    )
}

/// A confirmer answering `answer` and keeping what it was shown.
fn recording(answer: bool) -> (impl agent_core::Confirmer, Arc<Mutex<Vec<ConfirmRequest>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let confirmer = move |request: ConfirmRequest| {
        log.lock().expect("seen").push(request);
        async move { Confirmation::from(answer) }
    };
    (confirmer, seen)
}

#[tokio::test]
async fn only_destructive_calls_that_ran_are_journaled_with_how_they_got_through() {
    let notes = Arc::new(Notes::default());
    let registry = registry(&notes);
    let approve = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    let deny = Dispatcher::for_caller(Arc::clone(&registry), Caller::App, agent_core::DenyAll);
    assert!(approve.dispatch("count_notes", json!({})).await.is_ok());
    assert!(
        approve
            .dispatch("add_note", json!({"text": "물"}))
            .await
            .is_ok()
    );
    assert!(
        approve
            .dispatch("add_note", json!({"text": "~조용히"}))
            .await
            .is_ok()
    );
    assert!(
        !deny
            .dispatch("add_note", json!({"text": "안 됨"}))
            .await
            .is_ok()
    );
    assert!(
        !approve
            .dispatch("add_note", json!({"text": 3}))
            .await
            .is_ok()
    );

    let entries = registry.journal().recent(10).expect("journal");
    let summary: Vec<(&str, &str, Confirmed)> = entries
        .iter()
        .map(|e| {
            (
                e.record.tool.as_str(),
                e.record.summary.as_str(),
                e.record.confirmed,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "add_note",
                "'~조용히' 메모를 추가합니다",
                Confirmed::NotAsked
            ),
            ("add_note", "'물' 메모를 추가합니다", Confirmed::Confirmer),
        ]
    );
    assert_eq!(entries[1].record.arguments, json!({"text": "물"}));
    assert_eq!(entries[1].record.result, json!(1));
    assert_eq!(entries[1].record.caller, Caller::App);
    assert_eq!(notes.all(), ["물", "~조용히"]);
}

#[tokio::test]
async fn an_undo_is_confirmed_first_and_then_reverses_the_call_once() {
    let notes = Arc::new(Notes::default());
    let registry = registry(&notes);
    let tools = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    assert!(
        tools
            .dispatch("add_note", json!({"text": "물"}))
            .await
            .is_ok()
    );
    let entry = tools.last_undoable().expect("an open call");
    let messages = Messages::default();

    let (no, shown) = recording(false);
    let declining = Dispatcher::new(Arc::clone(&registry), no);
    let result = declining.undo(&entry, &messages).await;
    assert!(
        matches!(result, agent_core::ToolResult::Cancelled { .. }),
        "{result:?}"
    );
    assert_eq!(notes.all(), ["물"], "nothing undone without a yes");
    let shown = shown.lock().expect("seen").clone();
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].label, "메모 추가 되돌리기");
    assert_eq!(shown[0].summary, "되돌릴 작업: '물' 메모를 추가합니다");
    assert_eq!(shown[0].undo_of, Some(entry.id));
    assert_eq!(shown[0].arguments[0].value, json!("물"));

    let result = tools.undo(&entry, &messages).await;
    assert!(result.is_ok(), "{result:?}");
    assert!(notes.all().is_empty());
    let journal = registry.journal().recent(10).expect("journal");
    assert_eq!(journal[0].record.undo_of, Some(entry.id));
    assert_eq!(journal[1].undone_by, Some(journal[0].id));
    assert!(
        tools.last_undoable().is_none(),
        "an undo is not itself undone"
    );

    let again = tools.undo(&journal[1], &messages).await;
    assert_eq!(
        again.as_error().map(ToolError::code),
        Some("already_undone")
    );
}

#[tokio::test]
async fn an_undo_refuses_when_the_state_moved_on_and_a_tool_without_undo_says_so() {
    let notes = Arc::new(Notes::default());
    let registry = registry(&notes);
    let tools = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    let messages = Messages::default();
    assert!(
        tools
            .dispatch("add_note", json!({"text": "물"}))
            .await
            .is_ok()
    );
    let first = tools.last_undoable().expect("an open call");
    // Changed behind the journal's back (another app screen, say).
    notes.0.lock().expect("notes").push("손으로 쓴 메모".into());
    let refused = tools.undo(&first, &messages).await;
    let error = refused.as_error().expect("refused");
    assert_eq!(error.code(), "state_changed");
    assert_eq!(notes.all(), ["물", "손으로 쓴 메모"], "nothing changed");
    assert!(
        tools.last_undoable().is_some(),
        "a refused undo leaves the call open"
    );

    assert!(tools.dispatch("clear_notes", json!({})).await.is_ok());
    let cleared = tools.last_undoable().expect("the clear");
    let refused = tools.undo(&cleared, &messages).await;
    assert_eq!(
        refused.as_error().map(ToolError::code),
        Some("not_undoable")
    );
}

#[tokio::test]
async fn an_agent_plans_take_it_back_as_the_undo_of_the_last_call() {
    let notes = Arc::new(Notes::default());
    let registry = registry(&notes);
    let session = ScriptedSession::new(
        ChatConfig::new("메모 도우미입니다.", &registry),
        vec![
            vec![call("add_note", json!({"text": "물 마시기"}))],
            text("메모를 추가했어요."),
        ],
    );
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut agent = Agent::new(session, Arc::clone(&registry))
        .with_strategy(Strategy::Router)
        .with_confirmer(ApproveAll)
        .with_events(move |event| sink.lock().expect("events").push(event));
    agent.send("물 마시기 메모 추가해줘").await.expect("answer");
    assert_eq!(notes.all(), ["물 마시기"]);

    // No model turn is scripted for this message: the undo is answered by the runtime.
    let answer = agent.send("방금 거 취소해줘").await.expect("answer");
    assert_eq!(answer, "되돌렸어요. ('물 마시기' 메모를 추가합니다)");
    assert!(notes.all().is_empty());
    let events = events.lock().expect("events").clone();
    assert!(events.iter().any(|e| matches!(
        e,
        AgentEvent::ConfirmationRequested { request, .. } if request.label == "메모 추가 되돌리기"
    )));

    // Nothing left to take back: the message is chosen for like any other.
    assert!(registry.journal().last_open().expect("journal").is_none());
}
