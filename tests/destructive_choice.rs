//! A destructive step needs the request to ask for it, whatever the model's reading says: on a
//! scripted reading that is sure of the destructive tool, a message that asks *about* the
//! action, one that negates it before the verb ("안 지워도 돼"), and one that asks to change
//! something without naming the value the tool needs (a new day) get no destructive step,
//! while the plain requests do; a refusal leaves only what the request asks for by its
//! words; a request of two clauses gets the steps its action words say, not a step a noun of
//! some label suggests; and in a conversation, a change whose thing the conversation names
//! (the chore just moved) is that tool's; a request to leave things alone gets no
//! destructive step, and one whose main verb is an action no tool does gets words; a
//! question for information ("언제였지?") gets no write; an ask ("…해줘") that names
//! what a write is to write (a new day) is evidence for it where the reading is unsure; a
//! request that says one write's action gets that write, not the one the reading is sure
//! of; the last word on an action decides it ("지울까 하다가 말았어. 지우지 마"); and two
//! clauses that each say one write's action compose, whatever the reading chose.

use std::sync::{Arc, Mutex};

use agent_core::choice::{Background, Chooser, Strategy};
use agent_core::llm::scripted::{ScriptedSession, call, text};
use agent_core::{Agent, ApproveAll, ChatConfig, Dep, Registry, ValueChoice, tool};
use agent_tests::plans;
use serde_json::json;

/// Chores, numbered from 1.
struct Chores(Vec<String>);

/// The chores' numbers, each labelled with its name.
fn chore_numbers(chores: Dep<Chores>) -> Vec<ValueChoice> {
    (1..)
        .zip(chores.0.iter())
        .map(|(n, name)| ValueChoice::new(n, name.clone()))
        .collect()
}

/// The days a chore may move to.
fn days() -> Vec<ValueChoice> {
    vec![
        ValueChoice::new("today", "오늘"),
        ValueChoice::new("tomorrow", "내일"),
    ]
}

/// 할 일 목록을 봅니다.
#[tool(
    label = "할 일 목록",
    example(request = "할 일 목록 보여줘"),
    example(request = "뭐 남았어?"),
    example(request = "오늘 할 일 뭐 있지?")
)]
async fn list_chores(chores: Dep<Chores>) -> Vec<String> {
    chores.0.clone()
}

/// 할 일 하나를 목록에서 지웁니다.
#[tool(
    destructive,
    label = "할 일 삭제",
    example(request = "2번 지워줘", args = { "number": 2 }),
    example(request = "설거지 삭제해줘", args = { "number": 1 }),
    example(request = "청소는 목록에서 지워", args = { "number": 3 })
)]
async fn remove_chore(
    /// 할 일 번호
    #[values(chore_numbers)]
    #[from_request]
    number: i64,
) -> i64 {
    number
}

/// 할 일 하나의 날짜를 바꿉니다.
#[tool(
    destructive,
    label = "할 일 날짜 변경",
    example(request = "1번 내일로 바꿔줘", args = { "number": 1, "day": "tomorrow" }),
    example(request = "빨래 오늘로 변경", args = { "number": 2, "day": "today" }),
    example(request = "3번 내일로 바꿔", args = { "number": 3, "day": "tomorrow" })
)]
async fn move_chore(
    /// 할 일 번호
    #[values(chore_numbers)]
    #[from_request]
    number: i64,
    /// 새 날짜
    #[values(days)]
    #[from_request]
    day: String,
) -> String {
    format!("{number} → {day}")
}

/// A stand-in for the model's reading, sure of what the words say: a list (목록, 남았,
/// 뭐 있), a removal (지우, 지워, 삭제), a change (바꿔, 변경), or none of these.
fn meaning(text: &str) -> Result<Vec<f32>, agent_core::LlmError> {
    let has = |words: &[&str]| f32::from(u8::from(words.iter().any(|w| text.contains(w))));
    let list = has(&["목록 보", "남았", "뭐 있"]);
    let remove = has(&["지우", "지워", "삭제"]);
    let change = has(&["바꿔", "변경"]);
    Ok(vec![
        list,
        remove,
        change,
        1.0 - list.max(remove).max(change),
    ])
}

/// The plan the agent made for `request`, on a reading sure of what its words say.
async fn plan_for(request: &str) -> Vec<String> {
    plans_in(&[request], Vec::new())
        .await
        .into_iter()
        .next()
        .expect("a plan")
}

/// The plans the agent made for the messages of one conversation, each confirmed, on a
/// reading sure of what their words say, its session playing back `script` (or a list and
/// words when empty).
async fn plans_in(requests: &[&str], script: Vec<Vec<agent_core::ChatEvent>>) -> Vec<Vec<String>> {
    plans_with(requests, script, &Background::none()).await
}

/// [`plans_in`], with `background` as the requests that need no tool.
async fn plans_with(
    requests: &[&str],
    script: Vec<Vec<agent_core::ChatEvent>>,
    background: &Background,
) -> Vec<Vec<String>> {
    plans_read(requests, script, background, meaning).await
}

/// [`plans_with`], on the reading `read` instead of [`meaning`].
async fn plans_read(
    requests: &[&str],
    script: Vec<Vec<agent_core::ChatEvent>>,
    background: &Background,
    read: impl Fn(&str) -> Result<Vec<f32>, agent_core::LlmError> + Send + 'static,
) -> Vec<Vec<String>> {
    let chores = Arc::new(Chores(vec!["설거지".into(), "빨래".into(), "청소".into()]));
    let registry = Arc::new(
        Registry::builder()
            .discover()
            .dependency_arc(chores)
            .build()
            .expect("registry"),
    );
    let session = ScriptedSession::new(
        ChatConfig::new("할 일 도우미입니다.", &registry),
        if script.is_empty() {
            vec![vec![call("list_chores", json!({}))], text("네.")]
        } else {
            script
        },
    )
    .with_reading(read);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let chooser = Chooser::with_background(&registry, background);
    let mut agent = Agent::new(session, registry)
        .with_chooser(chooser)
        .with_strategy(Strategy::Combined)
        .with_confirmer(ApproveAll)
        .with_events(move |event| sink.lock().expect("events").push(event));
    // The script answers whatever was planned; only the plans are looked at.
    for request in requests {
        let _answer = agent.send(request).await;
    }
    plans(&events)
}

#[tokio::test]
async fn a_plain_request_gets_its_destructive_step() {
    assert_eq!(plan_for("2번 지워줘").await, ["remove_chore"]);
    assert_eq!(plan_for("2번 내일로 바꿔줘").await, ["move_chore"]);
}

#[tokio::test]
async fn a_question_about_the_action_gets_none() {
    // It names a chore, so only its asking *about* the action stands in the way.
    let plan = plan_for("2번 지우는 방법이 궁금해").await;
    assert!(!plan.contains(&"remove_chore".to_owned()), "{plan:?}");
}

#[tokio::test]
async fn a_negation_before_the_verb_refuses_it() {
    let plan = plan_for("2번은 안 지워도 돼").await;
    assert!(!plan.contains(&"remove_chore".to_owned()), "{plan:?}");
}

#[tokio::test]
async fn a_refusal_leaves_only_what_the_request_asks_for_by_its_words() {
    // Not the refused action's neighbour (another change): words.
    assert!(plan_for("2번 지우지 마").await.is_empty());
    // What the rest of the request asks for stands.
    assert_eq!(
        plan_for("2번 지우지 말고 목록 보여줘").await,
        ["list_chores"]
    );
}

#[tokio::test]
async fn a_change_that_names_no_new_value_is_not_that_tools() {
    // "바꿔" asks for a change, but of the name: no day is named for `move_chore` to write.
    let plan = plan_for("2번 이름을 '빨래 개기'로 바꿔줘").await;
    assert!(!plan.contains(&"move_chore".to_owned()), "{plan:?}");
}

#[tokio::test]
async fn two_clauses_are_two_steps_by_their_action_words_not_their_nouns() {
    // "날짜" is a word of `move_chore`'s label alone, but the second clause asks to be
    // shown things ("보여줘"): it adds a list, never a change nobody asked for.
    assert_eq!(
        plan_for("2번 지워주고 오늘 날짜인 거 보여줘").await,
        ["remove_chore", "list_chores"]
    );
}

#[tokio::test]
async fn a_change_the_conversation_names_the_thing_of_is_that_tools() {
    // Alone, "오늘로 바꿔줘" names no chore: no change of a guessed one.
    let alone = plan_for("아 그냥 오늘로 바꿔줘").await;
    assert!(!alone.contains(&"move_chore".to_owned()), "{alone:?}");
    // Right after chore 2 was moved, it is chore 2 that moves again.
    let script = vec![
        vec![call("move_chore", json!({"number": 2, "day": "tomorrow"}))],
        text("2번을 내일로 옮겼어요."),
        vec![call("move_chore", json!({"number": 2, "day": "today"}))],
        text("2번을 오늘로 옮겼어요."),
    ];
    let plans = plans_in(&["2번 내일로 바꿔줘", "아 그냥 오늘로 바꿔줘"], script).await;
    assert_eq!(plans, [["move_chore"], ["move_chore"]]);
}

#[tokio::test]
async fn a_request_to_leave_things_alone_gets_no_destructive_step() {
    // The reading is sure of the removal its words mention, and "지우" is that tool's cue.
    let plan = plan_for("2번 지우려다가 그냥 두기로 했어. 건드리지 마").await;
    assert!(!plan.contains(&"remove_chore".to_owned()), "{plan:?}");
}

#[tokio::test]
async fn an_action_no_tool_does_as_the_main_verb_gets_words() {
    // The reading is sure of the list ("목록 보…"), and "목록" is the list tool's word; but
    // what is asked, last, is to send it — which no tool does (the shipped background's
    // unsupported actions).
    let plans = plans_with(
        &["할 일 목록 보내줄 수 있어?"],
        Vec::new(),
        &Background::builtin(),
    )
    .await;
    assert_eq!(plans, [Vec::<String>::new()]);
    // Asked first and then shown, the list stands.
    let plans = plans_with(&["할 일 목록 보여줘"], Vec::new(), &Background::builtin()).await;
    assert_eq!(plans, [["list_chores"]]);
}

#[tokio::test]
async fn a_question_for_information_gets_no_write() {
    // The reading is sure of the removal its words mention, and "삭제" is that
    // tool's cue; but it asks when, and a question is answered.
    let plan = plan_for("2번 삭제한 게 언제였지?").await;
    assert!(!plan.contains(&"remove_chore".to_owned()), "{plan:?}");
    // Asked for, the removal stands.
    assert_eq!(
        plan_for("2번 언제든 상관없으니 지워줘").await,
        ["remove_chore"]
    );
}

#[tokio::test]
async fn an_ask_that_names_what_to_write_is_evidence_for_an_uncertain_write() {
    // A reading unsure of the move (no example says "…하는 걸로"): some of it a change,
    // more of it nothing; no word of the request is a cue of the move.
    let unsure = |text: &str| -> Result<Vec<f32>, agent_core::LlmError> {
        if text.contains("걸로") {
            Ok(vec![0.0, 0.0, 0.2, 0.8])
        } else {
            meaning(text)
        }
    };
    // Asked for ("…해줘") with the new day named, the move stands.
    assert_eq!(
        plan_with_reading("빨래는 내일 하는 걸로 해줘", unsure).await,
        ["move_chore"]
    );
    // Thought aloud, it is no ask.
    assert_eq!(
        plan_with_reading("빨래는 내일 하는 걸로 할까 싶네", unsure).await,
        Vec::<String>::new()
    );
}

/// The plan the agent made for `request`, on the reading `read`.
async fn plan_with_reading(
    request: &str,
    read: impl Fn(&str) -> Result<Vec<f32>, agent_core::LlmError> + Send + 'static,
) -> Vec<String> {
    plans_read(&[request], vec![text("네.")], &Background::none(), read)
        .await
        .into_iter()
        .next()
        .expect("a plan")
}

#[tokio::test]
async fn the_write_the_request_says_is_planned_not_the_one_the_reading_is_sure_of() {
    // A reading sure of a change, for a request that says to delete: the delete.
    let sure_of_a_change =
        |_: &str| -> Result<Vec<f32>, agent_core::LlmError> { Ok(vec![0.0, 0.0, 1.0, 0.0]) };
    assert_eq!(
        plan_with_reading("설거지 그거 삭제해줘. 오늘 안 해도 된대", sure_of_a_change).await,
        ["remove_chore"]
    );
}

#[tokio::test]
async fn the_last_word_on_an_action_decides_it() {
    // "지울까" asks, "지우지 마" after it refuses: the person decided not to.
    let plan = plan_for("2번 지울까 하다가 말았어. 지우지 마").await;
    assert!(!plan.contains(&"remove_chore".to_owned()), "{plan:?}");
    // Refused for one chore and then asked for another, it is asked.
    assert_eq!(
        plan_for("2번은 지우지 말고 3번 지워줘").await,
        ["remove_chore"]
    );
}

#[tokio::test]
async fn two_clauses_that_each_say_one_writes_action_compose_whatever_the_reading_chose() {
    // A reading sure of the list, which neither clause asks for: each clause says the
    // action of one write alone (a change, then a delete).
    let sure_of_the_list =
        |_: &str| -> Result<Vec<f32>, agent_core::LlmError> { Ok(vec![1.0, 0.0, 0.0, 0.0]) };
    assert_eq!(
        plan_with_reading("2번 내일로 바꾸고 3번은 지워줘", sure_of_the_list).await,
        ["move_chore", "remove_chore"]
    );
}
