//! The agent loop on a scripted session. With [`Strategy::Model`] (the model decides every
//! turn): text answers, single and parallel calls, the confirmation paths, errors fed back and
//! recovered from, the turn cap, the repeated-call guard, an optional copy that repeats
//! another argument left out before confirmation, result truncation, the soft history notice
//! and `clear`. With the tool-choice stage (the default): plans, text-only answers after
//! results, default answers, and interruption that never abandons a started write.

use std::sync::{Arc, Mutex};

use agent_core::choice::Strategy;
use agent_core::llm::scripted::{ScriptedSession, Transcript, call, text};
use agent_core::{
    Agent, AgentError, AgentEvent, ApproveAll, ChatConfig, ChatEvent, ConfirmRequest, Confirmation,
    Confirmer, DenyAll, Dep, Example, LlmError, Messages, Registry, ToolChoice, ToolResult, tool,
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
#[tool(label = "메모 검색", example(request = "걷기 메모 찾아줘", args = { "keyword": "걷기" }))]
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
    summary = "'{text}' 메모를 추가합니다",
    example(request = "물 마시기 메모 추가해줘", args = { "text": "물 마시기" }),
    reply = |data: &serde_json::Value| Some(format!("메모를 {}번째로 추가했어요.", data))
)]
async fn add_note(
    notes: Dep<Notes>,
    /// 메모 내용
    #[from_request]
    text: String,
    /// 언제 볼 메모인지(선택)
    #[from_request]
    when: Option<String>,
) -> usize {
    let text = match when {
        Some(when) => format!("{text} ({when})"),
        None => text,
    };
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

/// An agent over the tools of this file whose model decides every turn.
fn harness(script: Vec<Vec<ChatEvent>>, confirmer: Option<Arc<dyn Confirmer>>) -> Harness {
    routed(script, confirmer, Strategy::Model)
}

/// An agent over the tools of this file with `strategy`, asking `confirmer` (none: the
/// default, `DenyAll`).
fn routed(
    script: Vec<Vec<ChatEvent>>,
    confirmer: Option<Arc<dyn Confirmer>>,
    strategy: Strategy,
) -> Harness {
    let notes = Arc::new(Notes(Mutex::new(vec!["아침 걷기".into()])));
    let registry = Registry::builder()
        .discover()
        .dependency_arc(Arc::clone(&notes))
        .example(Example::new("안녕").answer("안녕하세요!"))
        .example(Example::new("고마워").answer("천만에요!"))
        .build()
        .expect("registry");
    let registry = Arc::new(registry);
    let session = ScriptedSession::new(ChatConfig::new("메모 도우미입니다.", &registry), script);
    let transcript = session.transcript();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut agent = Agent::new(session, registry)
        .with_strategy(strategy)
        .with_events(move |event| sink.lock().expect("events").push(event));
    if let Some(confirmer) = confirmer {
        agent = agent.with_confirmer(confirmer);
    }
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
            // Judged whole before it is shown.
            AgentEvent::TextDelta("안녕하세요".into()),
            AgentEvent::Finished {
                text: "안녕하세요".into()
            },
        ]
    );
    assert_eq!(h.transcript.received().user_inputs, ["안녕?"]);
    assert!(h.fed_back().is_empty());
}

#[tokio::test]
async fn a_words_only_answer_that_says_the_request_again_is_not_shown() {
    let request = "안녕하세요, 오늘은 날씨가 참 좋네요";
    let mut h = routed(vec![text(request)], None, Strategy::Router);
    let answer = h.agent.send(request).await.expect("answer");
    assert!(h.fed_back().is_empty(), "no tool for small talk");
    assert_ne!(answer, request);
    assert!(
        h.events()
            .iter()
            .any(|event| matches!(event, AgentEvent::DefaultAnswer { .. })),
        "the turn ends with the default words instead"
    );
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
async fn a_tool_without_a_sentence_of_its_own_is_answered_with_its_results_facts() {
    // The model's closing words are unusable (only punctuation): the turn ends with the
    // result's key facts, not a bare "done".
    let mut h = harness(
        vec![
            vec![call("search_notes", json!({"keyword": "걷기"}))],
            text("..."),
        ],
        None,
    );
    assert_eq!(
        h.agent.send("걷기 메모 있어?").await.expect("answer"),
        "메모 검색 결과예요 — 1개: 아침 걷기"
    );
    assert!(h.events().iter().any(|e| matches!(
        e,
        AgentEvent::DefaultAnswer { text, .. } if text.contains("아침 걷기")
    )));
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
async fn an_optional_copy_that_repeats_another_argument_is_left_out_before_confirmation() {
    let mut h = harness(
        vec![
            vec![call(
                "add_note",
                json!({"text": "물 마시기", "when": "물 마시기"}),
            )],
            text("추가했어요."),
            vec![call(
                "add_note",
                json!({"text": "스트레칭", "when": "저녁"}),
            )],
            text("추가했어요."),
        ],
        Some(Arc::new(ApproveAll)),
    );
    h.agent.send("물 마시기 메모 추가").await.expect("answer");
    h.agent.send("저녁에 스트레칭 메모").await.expect("answer");
    assert_eq!(
        h.notes.all(),
        ["아침 걷기", "물 마시기", "스트레칭 (저녁)"],
        "the repeat was not run, a different value was"
    );
    let confirmed: Vec<Vec<String>> = h
        .events()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ConfirmationRequested { request, .. } => {
                Some(request.arguments.iter().map(|a| a.name.clone()).collect())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        confirmed,
        [vec!["text"], vec!["text", "when"]],
        "the person is shown what runs"
    );
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
    let turn_limit = Messages::default().turn_limit;
    let fed = h.fed_back();
    assert_eq!(
        fed.len(),
        4,
        "three batches sent for new turns, the fourth only recorded"
    );
    assert_eq!(
        fed[3][0].1,
        json!({"status": "error", "code": "turn_limit", "reason": turn_limit})
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
    let mut agent = agent.with_max_turns(2);
    assert!(matches!(
        agent.send("x").await,
        Err(AgentError::TurnLimit { max_turns: 2 })
    ));
    assert_eq!(
        transcript.received().tool_results.len(),
        2,
        "one sent, one recorded"
    );
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
        json!({"status": "error", "code": "repeated_call", "reason": Messages::default().repeated_call})
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
            .filter(|e| **e == AgentEvent::Notice(Messages::default().long_conversation.into()))
            .count()
    };
    assert_eq!(notices(&h), 1);
    assert_eq!(h.agent.user_turns(), 9);
    h.agent.clear();
    assert_eq!(h.agent.user_turns(), 0);
    assert_eq!(h.transcript.received().clears, 1);
}

#[tokio::test]
async fn a_plan_asks_for_exactly_its_calls_then_for_words_only() {
    let mut h = routed(
        vec![
            vec![call("search_notes", json!({"keyword": "걷기"}))],
            text("걷기 메모가 있어요: 아침 걷기."),
        ],
        None,
        Strategy::Router,
    );
    let answer = h.agent.send("걷기 메모 찾아줘").await.expect("answer");
    assert_eq!(answer, "걷기 메모가 있어요: 아침 걷기.");
    assert_eq!(
        h.transcript.received().choices,
        [
            ToolChoice::Call(vec!["search_notes".into()]),
            ToolChoice::None
        ]
    );
    let planned = h.events().into_iter().find_map(|e| match e {
        AgentEvent::Planned(decision) => Some(decision.plan),
        _ => None,
    });
    assert_eq!(planned, Some(vec!["search_notes".to_owned()]));
    assert_eq!(
        h.transcript.received().shown_examples,
        [Vec::<String>::new(), Vec::new()],
        "calls and answers after results are shown no worked example"
    );
}

#[tokio::test]
async fn a_request_needing_no_tool_is_answered_in_words() {
    let mut h = routed(vec![text("안녕하세요!")], None, Strategy::Router);
    assert_eq!(h.agent.send("안녕~").await.expect("answer"), "안녕하세요!");
    assert_eq!(h.transcript.received().choices, [ToolChoice::None]);
}

#[tokio::test]
async fn the_nearest_chat_example_is_shown_before_a_request_needing_no_tool() {
    let mut h = routed(
        vec![text("천만에요!"), text("안녕하세요!")],
        None,
        Strategy::Router,
    );
    h.agent.send("고마워요~").await.expect("answer");
    h.agent.send("안녕하세요").await.expect("answer");
    assert_eq!(
        h.transcript.received().shown_examples,
        [vec!["고마워".to_owned()], vec!["안녕".to_owned()]],
        "each request is shown the chat example it is most like"
    );
}

#[tokio::test]
async fn another_examples_answer_copied_word_for_word_gives_way_to_the_shown_one() {
    let mut h = routed(
        vec![text("천만에요!"), text("천만에요!")],
        None,
        Strategy::Router,
    );
    assert_eq!(
        h.agent.send("고마워요~").await.expect("answer"),
        "천만에요!",
        "the shown example's own answer stands"
    );
    assert_eq!(
        h.agent.send("안녕하세요").await.expect("answer"),
        "안녕하세요!",
        "a thank-you's answer to a greeting is replaced by the greeting example's"
    );
    assert!(
        h.events().iter().any(|event| matches!(
            event,
            AgentEvent::DefaultAnswer { text, held_back: Some(held) }
                if text == "안녕하세요!" && held == "천만에요!"
        )),
        "{:?}",
        h.events()
    );
}

#[tokio::test]
async fn words_that_claim_a_write_no_call_made_give_way_to_the_chosen_chat_answer() {
    let claim = "안녕하세요! 메모에 추가했어요.";
    let mut h = routed(vec![text(claim)], None, Strategy::Router);
    let answer = h.agent.send("안녕~").await.expect("answer");
    assert!(h.fed_back().is_empty(), "no tool for a greeting");
    assert_eq!(answer, "안녕하세요!", "the greeting example's answer");
    assert!(
        h.events().iter().any(|event| matches!(
            event,
            AgentEvent::DefaultAnswer { held_back: Some(held), .. } if held == claim
        )),
        "{:?}",
        h.events()
    );
    assert!(
        !h.events()
            .iter()
            .any(|event| matches!(event, AgentEvent::TextDelta(t) if t == claim)),
        "the false claim is never shown"
    );
}

#[tokio::test]
async fn words_written_for_a_planned_call_that_claim_a_write_give_way_to_saying_nothing_was_done() {
    let notes = Arc::new(Notes(Mutex::new(vec!["아침 걷기".into()])));
    let registry = Registry::builder()
        .discover()
        .dependency_arc(Arc::clone(&notes))
        .build()
        .expect("registry");
    let registry = Arc::new(registry);
    let session = ScriptedSession::new(
        ChatConfig::new("메모 도우미입니다.", &registry),
        vec![text("좋아요, 운동 메모를 저장해 뒀어요!")],
    );
    let transcript = session.transcript();
    let mut agent = Agent::new(session, registry).with_strategy(Strategy::Router);
    let answer = agent.send("운동 메모 찾아줘").await.expect("answer");
    assert_eq!(
        transcript.received().choices,
        [ToolChoice::Call(vec!["search_notes".into()])],
        "a call was asked for; the model wrote words instead"
    );
    assert!(transcript.received().tool_results.is_empty(), "no call ran");
    assert_eq!(answer, Messages::default().nothing_done);
    assert_eq!(notes.all(), ["아침 걷기"], "nothing was written");
}

#[tokio::test]
async fn a_cancelled_call_is_never_reported_as_done() {
    let mut h = adding_water("물 마시기 메모를 추가했어요.", None);
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(answer, Messages::default().after_cancel);
    assert_eq!(h.notes.all(), ["아침 걷기"], "nothing was written");
}

#[tokio::test]
async fn after_a_declined_call_a_claim_gives_way_to_the_words_for_a_cancel() {
    // The model decides (no confirmer: the write is declined), then says it was done.
    let mut h = harness(
        vec![
            vec![call("add_note", json!({"text": "물 마시기"}))],
            text("물 마시기 메모를 추가했어요."),
        ],
        None,
    );
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(answer, Messages::default().after_cancel);
    assert_eq!(h.notes.all(), ["아침 걷기"], "nothing was written");
}

/// A request the router plans as one `add_note` call.
const ADD_WATER: &str = "물 마시기 메모 추가해줘";

/// [`routed`] with the router: the model writes the planned `add_note` of [`ADD_WATER`], then
/// `answer`.
fn adding_water(answer: &str, confirmer: Option<Arc<dyn Confirmer>>) -> Harness {
    routed(
        vec![
            vec![call("add_note", json!({"text": "물 마시기"}))],
            text(answer),
        ],
        confirmer,
        Strategy::Router,
    )
}

#[tokio::test]
async fn a_cancelled_call_is_acknowledged_never_retried() {
    let mut h = adding_water("", None);
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(
        answer,
        Messages::default().after_cancel,
        "the runtime's words stand in"
    );
    assert_eq!(
        h.transcript.received().choices.last(),
        Some(&ToolChoice::None)
    );
    assert!(
        h.events()
            .iter()
            .any(|e| matches!(e, AgentEvent::DefaultAnswer { .. }))
    );
    assert_eq!(h.notes.all(), ["아침 걷기"], "nothing was written");
}

#[tokio::test]
async fn an_answer_with_made_up_numbers_gives_way_to_the_tools_own_reply() {
    let approve: Arc<dyn Confirmer> = Arc::new(ApproveAll);
    let mut h = adding_water("메모 7개를 추가했어요!", Some(approve));
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(
        answer, "메모를 2번째로 추가했어요.",
        "7 appears nowhere in the results"
    );
    let shown: String = h
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::TextDelta(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(shown, answer, "the rejected answer was never shown");
}

#[tokio::test]
async fn a_chat_examples_answer_after_results_gives_way_to_the_tools_own_reply() {
    let approve: Arc<dyn Confirmer> = Arc::new(ApproveAll);
    let mut h = adding_water("안녕하세요!", Some(approve));
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(
        answer, "메모를 2번째로 추가했어요.",
        "a greeting's answer says nothing of the write"
    );
    assert_eq!(h.notes.all(), ["아침 걷기", "물 마시기"]);
}

#[tokio::test]
async fn an_answer_that_opens_with_an_examples_request_gives_way_to_the_tools_own_reply() {
    let approve: Arc<dyn Confirmer> = Arc::new(ApproveAll);
    let mut h = adding_water("걷기 메모 찾아줘. 네, 찾았어요.", Some(approve));
    let answer = h.agent.send(ADD_WATER).await.expect("answer");
    assert_eq!(
        answer, "메모를 2번째로 추가했어요.",
        "the prompt's next example says nothing of the write"
    );
}

#[tokio::test]
async fn an_interruption_during_an_approved_write_lets_it_finish_and_says_so() {
    let interrupter: Arc<Mutex<Option<agent_core::Interrupter>>> = Arc::default();
    let handle = Arc::clone(&interrupter);
    let confirmer = move |_: ConfirmRequest| {
        // The person presses Ctrl-C right after saying yes.
        if let Some(interrupter) = handle.lock().expect("lock").as_ref() {
            interrupter.interrupt();
        }
        async { Confirmation::Approve }
    };
    let confirmer: Arc<dyn Confirmer> = Arc::new(confirmer);
    let mut h = adding_water("추가했어요.", Some(confirmer));
    *interrupter.lock().expect("lock") = Some(h.agent.interrupter());
    let error = h.agent.send(ADD_WATER).await.expect_err("interrupted");
    let AgentError::Interrupted { completed } = error else {
        panic!("expected an interruption, got {error:?}");
    };
    assert_eq!(completed.len(), 1);
    assert!(
        completed[0].result.is_ok(),
        "the write that started finished: {completed:?}"
    );
    assert_eq!(h.notes.all(), ["아침 걷기", "물 마시기"]);
}

#[tokio::test]
async fn a_session_error_in_a_plan_ends_the_turn_with_it() {
    let mut h = routed(vec![], None, Strategy::Router);
    let error = h
        .agent
        .send("걷기 메모 찾아줘")
        .await
        .expect_err("script exhausted");
    assert!(matches!(error, AgentError::Llm(LlmError::ScriptExhausted)));
}

#[tokio::test]
async fn words_that_ask_for_a_tools_action_as_the_person_would_are_no_answer() {
    // The model wrote the person's next message ("…추가해줘"), not an answer to this one.
    let next_message = "메모에 아침 걷기 추가해줘";
    let mut h = routed(vec![text(next_message)], None, Strategy::Router);
    let answer = h.agent.send("안녕~").await.expect("answer");
    assert!(h.fed_back().is_empty(), "no tool for a greeting");
    assert_ne!(answer, next_message);
    assert!(
        !h.events()
            .iter()
            .any(|event| matches!(event, AgentEvent::TextDelta(t) if t == next_message)),
        "the person's words are never shown as the answer"
    );
}
