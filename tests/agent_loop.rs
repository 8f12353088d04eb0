//! The agent loop on a scripted session: text answers, single and parallel calls, the
//! confirmation paths, errors fed back and recovered from, the turn cap, the repeated-call
//! guard, result truncation, the soft history notice and `clear`.

use std::sync::{Arc, Mutex};

use agent_core::agent::{LONG_CONVERSATION_NOTICE, REPEATED_CALL_REASON, TURN_LIMIT_MESSAGE};
use agent_core::llm::scripted::{ScriptedSession, Transcript, call, text};
use agent_core::llm::{ChatConfig, ChatEvent, LlmError};
use agent_core::{
    Agent, AgentError, AgentEvent, ApproveAll, Confirmer, DenyAll, Dep, Registry, ToolResult, tool,
};
use serde_json::{Value, json};

#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl Notes {
    fn all(&self) -> Vec<String> {
        self.0.lock().expect("notes").clone()
    }
}

/// 메모를 검색합니다.
#[tool(label = "메모 검색")]
async fn search_notes(
    notes: Dep<Notes>,
    /// 찾을 낱말
    keyword: String,
) -> Vec<String> {
    notes
        .all()
        .into_iter()
        .filter(|n| n.contains(&keyword))
        .collect()
}

/// 메모를 추가합니다.
#[tool(
    destructive,
    label = "메모 추가",
    summary = "'{text}' 메모를 추가합니다"
)]
async fn add_note(
    notes: Dep<Notes>,
    /// 메모 내용
    text: String,
) -> usize {
    let mut all = notes.0.lock().expect("notes");
    all.push(text);
    all.len()
}

/// 모든 기록을 한꺼번에 돌려줍니다 (아주 큽니다).
#[tool(label = "전체 덤프")]
async fn huge_dump() -> Value {
    let items: Vec<Value> = (0..200)
        .map(|i| json!({"id": i, "title": format!("습관 {i}"), "summary": "매일 아침 10분 동네를 걷습니다"}))
        .collect();
    json!({"count": 200, "items": items})
}

struct Harness {
    agent: Agent<ScriptedSession>,
    transcript: Transcript,
    events: Arc<Mutex<Vec<AgentEvent>>>,
    notes: Arc<Notes>,
}

fn harness(script: Vec<Vec<ChatEvent>>, confirmer: Option<Arc<dyn Confirmer>>) -> Harness {
    let notes = Arc::new(Notes(Mutex::new(vec!["아침 걷기".into()])));
    let mut builder = Registry::builder()
        .discover()
        .dependency_arc(Arc::clone(&notes));
    if let Some(confirmer) = confirmer {
        builder = builder.confirmer_arc(confirmer);
    }
    let registry = Arc::new(builder.build().expect("registry"));
    let session = ScriptedSession::new(ChatConfig::new("메모 도우미입니다.", &registry), script);
    let transcript = session.transcript();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let agent = Agent::new(session, registry)
        .with_events(move |event| sink.lock().expect("events").push(event));
    Harness {
        agent,
        transcript,
        events,
        notes,
    }
}

impl Harness {
    fn events(&self) -> Vec<AgentEvent> {
        self.events.lock().expect("events").clone()
    }

    /// The status of every result fed back to the model, batch by batch.
    fn fed_back(&self) -> Vec<Vec<(String, Value)>> {
        self.transcript
            .received()
            .tool_results
            .into_iter()
            .map(|batch| batch.into_iter().map(|r| (r.name, r.result)).collect())
            .collect()
    }
}

#[tokio::test]
async fn a_text_answer_finishes_the_turn() {
    let mut h = harness(
        vec![vec![
            ChatEvent::TextDelta("안녕".into()),
            ChatEvent::TextDelta("하세요".into()),
        ]],
        None,
    );
    assert_eq!(h.agent.send("안녕?").await.expect("answer"), "안녕하세요");
    assert_eq!(
        h.events(),
        [
            AgentEvent::TextDelta("안녕".into()),
            AgentEvent::TextDelta("하세요".into()),
            AgentEvent::Finished {
                text: "안녕하세요".into()
            },
        ]
    );
    assert_eq!(h.transcript.received().user_inputs, ["안녕?"]);
    assert!(h.fed_back().is_empty());
}

#[tokio::test]
async fn one_call_runs_and_its_result_goes_back() {
    let mut h = harness(
        vec![
            vec![call("search_notes", json!({"keyword": "걷기"}))],
            text("'아침 걷기' 메모가 있어요."),
        ],
        None,
    );
    assert_eq!(
        h.agent.send("걷기 메모 있어?").await.expect("answer"),
        "'아침 걷기' 메모가 있어요."
    );
    assert_eq!(
        h.fed_back(),
        [vec![(
            "search_notes".into(),
            json!({"status": "ok", "data": ["아침 걷기"]})
        )]]
    );
    let events = h.events();
    assert_eq!(
        events[0],
        AgentEvent::ToolCallRequested {
            call_id: 1,
            name: "search_notes".into(),
            label: "메모 검색".into(),
            args: json!({"keyword": "걷기"}),
        }
    );
    assert!(
        matches!(&events[1], AgentEvent::ToolResult { call_id: 1, label, truncated: false, .. } if label == "메모 검색")
    );
}

#[tokio::test]
async fn every_parallel_call_runs_in_order_and_is_answered() {
    let mut h = harness(
        vec![
            vec![
                call("add_note", json!({"text": "물 마시기"})),
                call("search_notes", json!({"keyword": "물"})),
                call("add_note", json!({"text": "스트레칭"})),
            ],
            text("두 개를 추가했어요."),
        ],
        Some(Arc::new(ApproveAll)),
    );
    h.agent
        .send("물 마시기와 스트레칭 추가해줘")
        .await
        .expect("answer");
    assert_eq!(h.notes.all(), ["아침 걷기", "물 마시기", "스트레칭"]);
    let batch = &h.fed_back()[0];
    let names: Vec<&str> = batch.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["add_note", "search_notes", "add_note"]);
    assert_eq!(
        batch[1].1,
        json!({"status": "ok", "data": ["물 마시기"]}),
        "the search sees the first add"
    );
    assert_eq!(batch[2].1, json!({"status": "ok", "data": 3}));
}

#[tokio::test]
async fn approved_destructive_calls_report_the_confirmation() {
    let mut h = harness(
        vec![
            vec![call("add_note", json!({"text": "물 마시기"}))],
            text("추가했어요."),
        ],
        Some(Arc::new(ApproveAll)),
    );
    h.agent.send("물 마시기 추가").await.expect("answer");
    let events = h.events();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            AgentEvent::ToolCallRequested { .. } => "requested",
            AgentEvent::ConfirmationRequested { .. } => "confirm?",
            AgentEvent::ConfirmationResolved { approved: true, .. } => "approved",
            AgentEvent::ConfirmationResolved {
                approved: false, ..
            } => "denied",
            AgentEvent::ToolResult { .. } => "result",
            AgentEvent::TextDelta(_) => "text",
            AgentEvent::Finished { .. } => "finished",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "requested",
            "confirm?",
            "approved",
            "result",
            "text",
            "finished"
        ]
    );
    let AgentEvent::ConfirmationRequested {
        request,
        call_id: 1,
    } = &events[1]
    else {
        panic!("{:?}", events[1]);
    };
    assert_eq!(request.label, "메모 추가");
    assert_eq!(request.summary, "'물 마시기' 메모를 추가합니다");
    assert_eq!(h.notes.all().len(), 2);
}

#[tokio::test]
async fn denied_or_unconfirmable_calls_are_cancelled_and_the_model_is_told() {
    for confirmer in [Some(Arc::new(DenyAll) as Arc<dyn Confirmer>), None] {
        let mut h = harness(
            vec![
                vec![call("add_note", json!({"text": "물 마시기"}))],
                text("알겠어요, 추가하지 않았어요."),
            ],
            confirmer,
        );
        h.agent.send("물 마시기 추가").await.expect("answer");
        assert_eq!(h.notes.all(), ["아침 걷기"], "nothing was written");
        assert_eq!(
            h.fed_back(),
            [vec![(
                "add_note".into(),
                json!({"status": "cancelled", "reason": "user did not confirm"})
            )]]
        );
    }
}

#[tokio::test]
async fn errors_go_back_to_the_model_which_recovers() {
    let mut h = harness(
        vec![
            vec![call("find_notes", json!({"keyword": "걷기"}))],
            vec![call("search_notes", json!({"word": "걷기"}))],
            vec![call("search_notes", json!({"keyword": "걷기"}))],
            text("찾았어요."),
        ],
        None,
    );
    assert_eq!(
        h.agent.send("걷기 메모 찾아줘").await.expect("answer"),
        "찾았어요."
    );
    let fed = h.fed_back();
    assert_eq!(fed[0][0].1["code"], "unknown_tool");
    assert!(
        fed[0][0].1["reason"]
            .as_str()
            .is_some_and(|r| r.contains("search_notes"))
    );
    assert_eq!(fed[1][0].1["code"], "validation");
    assert_eq!(fed[2][0].1["status"], "ok");
}

#[tokio::test]
async fn the_turn_cap_stops_the_loop_and_still_answers_every_call() {
    let script: Vec<Vec<ChatEvent>> = (0..10)
        .map(|i| vec![call("search_notes", json!({"keyword": format!("낱말{i}")}))])
        .collect();
    let mut h = harness(script, None);
    let error = h.agent.send("계속 찾아봐").await.expect_err("turn limit");
    assert!(matches!(error, AgentError::TurnLimit { max_turns: 4 }));
    assert_eq!(error.code(), "turn_limit");
    assert!(error.to_string().starts_with(TURN_LIMIT_MESSAGE));
    let fed = h.fed_back();
    assert_eq!(
        fed.len(),
        4,
        "three batches sent for new turns, the fourth only recorded"
    );
    assert_eq!(
        fed[3][0].1,
        json!({"status": "error", "code": "turn_limit", "reason": TURN_LIMIT_MESSAGE})
    );
    assert!(
        h.events()
            .contains(&AgentEvent::TurnLimitReached { max_turns: 4 })
    );
    // Every requested call has exactly one result event.
    let events = h.events();
    let requested = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ToolCallRequested { .. }))
        .count();
    let answered = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ToolResult { .. }))
        .count();
    assert_eq!((requested, answered), (4, 4));
}

#[tokio::test]
async fn max_turns_is_configurable() {
    let script = vec![vec![call("search_notes", json!({"keyword": "a"}))]; 3];
    let Harness {
        agent, transcript, ..
    } = harness(script, None);
    let mut agent = agent.with_max_turns(1);
    assert!(matches!(
        agent.send("x").await,
        Err(AgentError::TurnLimit { max_turns: 1 })
    ));
    assert_eq!(transcript.received().tool_results.len(), 1);
}

#[tokio::test]
async fn identical_calls_are_not_run_again_unless_something_changed() {
    let mut h = harness(
        vec![
            vec![call("search_notes", json!({"keyword": "물"}))],
            vec![call("search_notes", json!({"keyword": "물"}))],
            vec![call("add_note", json!({"text": "물 마시기"}))],
            text("추가했어요."),
        ],
        Some(Arc::new(ApproveAll)),
    );
    h.agent.send("물 메모").await.expect("answer");
    let fed = h.fed_back();
    assert_eq!(fed[0][0].1, json!({"status": "ok", "data": []}));
    assert_eq!(
        fed[1][0].1,
        json!({"status": "error", "code": "repeated_call", "reason": REPEATED_CALL_REASON})
    );
    assert_eq!(fed[2][0].1["status"], "ok");

    // After a destructive success the same read runs again: its answer may differ.
    let mut h = harness(
        vec![
            vec![call("search_notes", json!({"keyword": "물"}))],
            vec![call("add_note", json!({"text": "물 마시기"}))],
            vec![call("search_notes", json!({"keyword": "물"}))],
            text("추가했어요."),
        ],
        Some(Arc::new(ApproveAll)),
    );
    h.agent.send("물 메모").await.expect("answer");
    assert_eq!(
        h.fed_back()[2][0].1,
        json!({"status": "ok", "data": ["물 마시기"]})
    );
}

#[tokio::test]
async fn big_results_are_capped_before_they_reach_the_model() {
    let mut h = harness(
        vec![vec![call("huge_dump", json!({}))], text("많네요.")],
        None,
    );
    h.agent.send("전부 보여줘").await.expect("answer");
    let sent = &h.fed_back()[0][0].1;
    assert!(sent.to_string().len() <= 2048);
    assert_eq!(sent["data"]["_truncated"]["items"]["total"], 200);
    let truncated = h.events().iter().any(|e| {
        matches!(
            e,
            AgentEvent::ToolResult {
                truncated: true,
                result: ToolResult::Ok { .. },
                ..
            }
        )
    });
    assert!(truncated, "the UI is told the result was cut");
}

#[tokio::test]
async fn backend_errors_end_the_turn_with_an_error_event() {
    let mut h = harness(vec![], None);
    let error = h.agent.send("안녕").await.expect_err("script exhausted");
    assert!(matches!(error, AgentError::Llm(LlmError::ScriptExhausted)));
    assert!(
        matches!(h.events().last(), Some(AgentEvent::Error { code, .. }) if code == "script_exhausted")
    );
}

#[tokio::test]
async fn the_long_conversation_notice_comes_once_and_clear_starts_over() {
    let mut h = harness(vec![text("네"); 12], None);
    for i in 1..=9 {
        h.agent.send(&format!("메시지 {i}")).await.expect("answer");
    }
    let notices = |h: &Harness| {
        h.events()
            .iter()
            .filter(|e| **e == AgentEvent::Notice(LONG_CONVERSATION_NOTICE.into()))
            .count()
    };
    assert_eq!(notices(&h), 1);
    assert_eq!(h.agent.user_turns(), 9);
    h.agent.clear();
    assert_eq!(h.agent.user_turns(), 0);
    assert_eq!(h.transcript.received().clears, 1);
}
