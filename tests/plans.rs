//! The tool-choice stage's plans end to end, on a scripted session with the router: a step
//! made once for each value the request writes, and a request that asks two things matched
//! part by part to a declared two-step plan; and with a scripted reading of the requests,
//! the model's reading deciding where the router's letters mislead it, and composing a
//! two-step plan from a request's parts where the whole reads as one step — a declared one
//! from any two parts, any two tools from two sentences; a step whose required value has
//! nothing to choose from, answered without the model; and a call made once for each member
//! of a list the request names where the tool takes one value.

use std::sync::{Arc, Mutex};

use agent_core::choice::{Background, Chooser, Evidence, Replay, Strategy};
use agent_core::llm::scripted::{ScriptedSession, call, text};
use agent_core::{
    Agent, AgentEvent, ChatConfig, Dep, Example, Registry, ToolDefinition, ToolResult, ToolSchema,
    ValueChoice, tool,
};
use agent_tests::{planned, plans};
use serde_json::json;

/// Chores, numbered from 1; a checked chore is done.
struct Chores(Mutex<Vec<(String, bool)>>);

/// The chores' numbers, each labelled with its name.
fn chore_numbers(chores: Dep<Chores>) -> Vec<ValueChoice> {
    let all = chores.0.lock().expect("chores");
    (1..)
        .zip(all.iter())
        .map(|(n, (name, _))| ValueChoice::new(n, name.clone()))
        .collect()
}

/// 할 일 목록을 봅니다.
#[tool(
    label = "할 일 목록",
    example(request = "할 일 목록 보여줘"),
    example(request = "오늘 할 일 뭐 있지?")
)]
async fn list_chores(chores: Dep<Chores>) -> Vec<String> {
    let all = chores.0.lock().expect("chores");
    all.iter().map(|(name, _)| name.clone()).collect()
}

/// 할 일 하나를 끝낸 것으로 표시합니다.
#[tool(
    label = "할 일 완료",
    example(request = "1번 할 일 끝났어", args = { "number": 1 }),
    example(request = "2번 완료 체크", args = { "number": 2 }),
    example(request = "3번 다 했어", args = { "number": 3 })
)]
async fn check_chore(
    chores: Dep<Chores>,
    /// 할 일 번호
    #[values(chore_numbers)]
    number: i64,
) -> bool {
    let mut all = chores.0.lock().expect("chores");
    usize::try_from(number - 1)
        .ok()
        .and_then(|i| all.get_mut(i))
        .map(|chore| chore.1 = true)
        .is_some()
}

fn agent(
    script: Vec<Vec<agent_core::ChatEvent>>,
) -> (Agent<ScriptedSession>, Arc<Mutex<Vec<AgentEvent>>>) {
    agent_with(script, Strategy::Router, |session| session)
}

fn agent_with(
    script: Vec<Vec<agent_core::ChatEvent>>,
    strategy: Strategy,
    session: impl FnOnce(ScriptedSession) -> ScriptedSession,
) -> (Agent<ScriptedSession>, Arc<Mutex<Vec<AgentEvent>>>) {
    agent_over(&["설거지", "빨래", "청소"], script, strategy, session)
}

/// An agent over these `chores`.
fn agent_over(
    chores: &[&str],
    script: Vec<Vec<agent_core::ChatEvent>>,
    strategy: Strategy,
    session: impl FnOnce(ScriptedSession) -> ScriptedSession,
) -> (Agent<ScriptedSession>, Arc<Mutex<Vec<AgentEvent>>>) {
    let chores = Arc::new(Chores(Mutex::new(
        chores
            .iter()
            .map(|name| ((*name).to_owned(), false))
            .collect(),
    )));
    let registry = Registry::builder()
        .discover()
        .dependency_arc(chores)
        .example(
            Example::new("1번이랑 2번 다 끝났어")
                .call("check_chore", json!({"number": 1}))
                .call("check_chore", json!({"number": 2})),
        )
        .example(
            Example::new("목록 보고 나서 설거지 완료 체크")
                .call("list_chores", json!({}))
                .call("check_chore", json!({"number": 1})),
        )
        .example(Example::new("고마워").answer("천만에요!"))
        .build()
        .expect("registry");
    let registry = Arc::new(registry);
    let session = session(ScriptedSession::new(
        ChatConfig::new("할 일 도우미입니다.", &registry),
        script,
    ));
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    // The plans here are the examples' and the readings' alone: without the background of
    // requests that need no tool, which the fake readings cannot tell apart.
    let chooser = Chooser::with_background(&registry, &Background::none());
    let agent = Agent::new(session, registry)
        .with_chooser(chooser)
        .with_strategy(strategy)
        .with_events(move |event| sink.lock().expect("events").push(event));
    (agent, events)
}

#[tokio::test]
async fn a_step_is_made_once_for_each_value_the_request_writes() {
    let (mut agent, events) = agent(vec![
        vec![call("check_chore", json!({"number": 2}))],
        vec![call("check_chore", json!({"number": 3}))],
        text("둘 다 표시했어요."),
    ]);
    // Worded like the one-step examples ("2번 완료 체크"), not like the two-step one.
    agent.send("2번, 3번 완료 체크").await.expect("answer");
    assert_eq!(planned(&events), ["check_chore", "check_chore"]);

    let (mut agent, events) = agent_one();
    agent.send("3번 완료").await.expect("answer");
    assert_eq!(planned(&events), ["check_chore"], "one value, one call");
}

fn agent_one() -> (Agent<ScriptedSession>, Arc<Mutex<Vec<AgentEvent>>>) {
    agent(vec![
        vec![call("check_chore", json!({"number": 3}))],
        text("표시했어요."),
    ])
}

#[tokio::test]
async fn a_step_with_nothing_to_choose_is_answered_without_the_model() {
    // No chore yet: a number the model wrote could only name one that does not exist.
    let (mut agent, events) = agent_over(&[], Vec::new(), Strategy::Router, |session| session);
    let transcript = agent.session().transcript();
    let answer = agent.send("2번 완료 체크").await.expect("answer");
    assert_eq!(planned(&events), ["check_chore"]);
    assert_eq!(
        answer,
        "지금은 '할 일 완료' 할 수 없어요. 고를 수 있는 할 일 번호 값이 아직 없어요."
    );
    let events = events.lock().expect("events");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, AgentEvent::ToolCallRequested { .. })),
        "no call written: {events:?}"
    );
    let received = transcript.received();
    assert!(received.choices.is_empty(), "the model was not asked");
    assert_eq!(
        received.exchanges,
        [("2번 완료 체크".to_owned(), answer)],
        "but its history holds what the person asked and was told"
    );
}

#[tokio::test]
async fn a_request_in_two_parts_finds_the_declared_two_step_plan() {
    let (mut agent, events) = agent(vec![
        vec![call("list_chores", json!({}))],
        vec![call("check_chore", json!({"number": 2}))],
        text("목록을 보고 2번을 표시했어요."),
    ]);
    agent
        .send("할 일 목록 보여주고 2번 완료 체크해줘")
        .await
        .expect("answer");
    assert_eq!(planned(&events), ["list_chores", "check_chore"]);
}

/// A stand-in for the model's reading: what a text means, as a direction — a list (목록,
/// 뭐 있), done (끝, 완료, 다 했), both, or neither.
fn meaning(text: &str) -> Result<Vec<f32>, agent_core::LlmError> {
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    let list = if has(&["목록", "뭐 있"]) {
        1.0
    } else {
        0.0
    };
    let done = if has(&["끝", "완료", "다 했"]) {
        1.0
    } else {
        0.0
    };
    Ok(vec![list, done, 1.0 - list.max(done)])
}

#[tokio::test]
async fn the_models_reading_decides_where_the_letters_mislead_the_router() {
    // "오늘 할 일" is the list example's wording ("오늘 할 일 뭐 있지?"); what it says is done.
    let request = "오늘 할일 완료";
    let (mut agent, events) = agent(vec![
        vec![call("list_chores", json!({}))],
        text("목록이에요."),
    ]);
    agent.send(request).await.expect("answer");
    assert_eq!(
        planned(&events),
        ["list_chores"],
        "the router alone goes by the letters"
    );

    let (mut agent, events) = agent_with(
        vec![
            vec![call("check_chore", json!({"number": 3}))],
            text("표시했어요."),
        ],
        Strategy::Combined,
        |session| session.with_reading(meaning),
    );
    let transcript = agent.session().transcript();
    agent.send(request).await.expect("answer");
    assert_eq!(planned(&events), ["check_chore"]);
    agent
        .send("할 일 목록 보여줘")
        .await
        .expect_err("script exhausted");
    let read = transcript.received().read;
    assert_eq!(
        read.len(),
        3,
        "the examples once, then each request: {read:?}"
    );
    assert_eq!(read[0].len(), agent.chooser().reading_texts().len());
    assert!(read[0].contains(&"1번 할 일 끝났어".to_owned()));
    assert_eq!(read[1][0], request);
    assert_eq!(
        read[2],
        [
            "할 일 목록 보여줘",
            "할",
            "일 목록 보여줘",
            "할 일",
            "목록 보여줘",
            "할 일 목록",
            "보여줘"
        ],
        "the request, then its parts at each split"
    );
}

/// A reading like the model's of a request for two things: the whole is read as the thing
/// it says last (a list: 목록, 뭐 있; done: 끝, 완료), each part as its own.
fn meaning_last(text: &str) -> Result<Vec<f32>, agent_core::LlmError> {
    let last = |words: &[&str]| words.iter().filter_map(|w| text.rfind(w)).max();
    Ok(match (last(&["목록", "뭐 있"]), last(&["끝", "완료"])) {
        (Some(list), Some(done)) if list > done => vec![1.0, 0.0, 0.0],
        (Some(_), None) => vec![1.0, 0.0, 0.0],
        (_, Some(_)) => vec![0.0, 1.0, 0.0],
        (None, None) => vec![0.0, 0.0, 1.0],
    })
}

#[tokio::test]
async fn the_parts_of_a_request_read_as_two_steps_give_the_declared_two_step_plan() {
    let request = "밀린 거 뭐 있는지 쭉 보여주고 빨래는 끝";
    let (mut agent, events) = agent_with(
        vec![
            vec![call("list_chores", json!({}))],
            vec![call("check_chore", json!({"number": 2}))],
            text("목록을 보고 2번을 표시했어요."),
        ],
        Strategy::Combined,
        |session| session.with_reading(meaning_last),
    );
    let transcript = agent.session().transcript();
    agent.send(request).await.expect("answer");
    assert_eq!(planned(&events), ["list_chores", "check_chore"]);
    let read = transcript.received().read;
    assert_eq!(read[1][0], request);
    assert!(read[1].contains(&"밀린 거 뭐 있는지 쭉 보여주고".to_owned()));
    assert!(read[1].contains(&"빨래는 끝".to_owned()));

    assert_eq!(
        read[1].len(),
        1 + 2 * 7 + 2,
        "the request, 7 splits of 8 words, and the clause joined by 보여주고"
    );

    // The same chooser given only the whole request's reading: the one step it reads.
    let plan = agent
        .chooser()
        .plan(request, agent.dispatcher(), &mut WholeOnly(meaning_last))
        .await
        .expect("plan");
    assert_eq!(plan.decision.plan, ["check_chore"]);
}

/// Evidence with the reading of the whole request only (its parts are not read): what a
/// decision without them would be.
struct WholeOnly(fn(&str) -> Result<Vec<f32>, agent_core::LlmError>);

impl Evidence for WholeOnly {
    type Error = agent_core::LlmError;

    fn read<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> agent_core::BoxFuture<'a, Result<agent_core::choice::Readings, Self::Error>> {
        let whole: Result<Vec<Vec<f32>>, _> = texts.iter().take(1).map(|t| (self.0)(t)).collect();
        Box::pin(std::future::ready(whole.map(Some)))
    }

    fn score<'a>(
        &'a mut self,
        _request: &'a str,
        _channels: &'a [usize],
    ) -> agent_core::BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// A reading like the model's of a request for two things: mostly the thing it says last,
/// partly the other.
fn meaning_mostly_last(text: &str) -> Result<Vec<f32>, agent_core::LlmError> {
    let last = meaning_last(text)?;
    let any = meaning(text)?;
    Ok(last.iter().zip(any).map(|(l, a)| l + 0.5 * a).collect())
}

#[tokio::test]
async fn two_sentences_that_ask_for_two_tools_give_a_plan_no_example_declares() {
    // The declared two-step plan is list, then check: this asks the other way round.
    let request = "빨래 끝! 이제 남은 거 뭐 있어?";
    let (mut agent, events) = agent_with(
        vec![
            vec![call("check_chore", json!({"number": 2}))],
            vec![call("list_chores", json!({}))],
            text("빨래를 표시했고, 설거지와 청소가 남았어요."),
        ],
        Strategy::Combined,
        |session| session.with_reading(meaning_mostly_last),
    );
    let transcript = agent.session().transcript();
    agent.send(request).await.expect("answer");
    assert_eq!(planned(&events), ["check_chore", "list_chores"]);
    let read = transcript.received().read;
    assert!(read[1].contains(&"빨래 끝!".to_owned()));
    assert!(read[1].contains(&"이제 남은 거 뭐 있어?".to_owned()));

    // One sentence with the same words: the one step the whole reads as.
    let request = "빨래 끝 이제 남은 거 뭐 있어";
    let (mut agent, events) = agent_with(
        vec![vec![call("list_chores", json!({}))], text("목록이에요.")],
        Strategy::Combined,
        |session| session.with_reading(meaning_mostly_last),
    );
    agent.send(request).await.expect("answer");
    assert_eq!(planned(&events), ["list_chores"]);
}

#[tokio::test]
async fn a_one_step_request_is_not_made_two_by_its_parts() {
    // "2번 완료 | 체크" reads as done in both parts: one step, not two.
    let (mut agent, events) = agent_with(
        vec![
            vec![call("check_chore", json!({"number": 2}))],
            text("표시했어요."),
        ],
        Strategy::Combined,
        |session| session.with_reading(meaning_last),
    );
    agent.send("2번 빨래 완료 체크").await.expect("answer");
    assert_eq!(planned(&events), ["check_chore"]);
}

#[tokio::test]
async fn a_session_that_cannot_read_leaves_the_choice_to_the_router() {
    let failing = |_: &str| Err(agent_core::LlmError::Inference("no reading".to_owned()));
    for reads in [false, true] {
        let (mut agent, events) = agent_with(
            vec![vec![call("list_chores", json!({}))], text("목록이에요.")],
            Strategy::Combined,
            |session| {
                if reads {
                    session.with_reading(failing)
                } else {
                    session
                }
            },
        );
        let transcript = agent.session().transcript();
        agent
            .send("오늘 할일 완료")
            .await
            .expect("a failed reading costs no turn");
        assert_eq!(planned(&events), ["list_chores"]);
        assert_eq!(
            transcript.received().read.len(),
            1,
            "asked once, never again"
        );
        assert!(agent.chooser().reading().is_none());
    }
}

/// What an evaluation measures is what the agent ships: the decision the agent plans for a
/// message (its `Planned` event) is the one `Chooser::plan` gives when the same readings
/// are replayed to it — what `eval --choice-only` does with the model's recorded evidence —
/// including the adjustments made after the evidence is weighed: a step made once per value
/// written, and no tool for a request that names nothing a call would ask.
#[tokio::test]
async fn the_eval_replays_the_evidence_into_the_decision_the_agent_ships() {
    for request in [
        "1번이랑 2번 다 끝났어",
        "오늘 할일 완료",
        "밀린 거 뭐 있는지 쭉 보여주고 빨래는 끝",
        "빨래 끝! 이제 남은 거 뭐 있어?",
        "고마워",
        "설거지 끝",
    ] {
        let (mut agent, events) = agent_with(vec![text("네."); 4], Strategy::Combined, |session| {
            session.with_reading(meaning_mostly_last)
        });
        let transcript = agent.session().transcript();
        let _ = agent.send(request).await;
        let shipped = events
            .lock()
            .expect("events")
            .iter()
            .find_map(|e| match e {
                AgentEvent::Planned(decision) => Some(decision.clone()),
                _ => None,
            })
            .expect("a plan");

        // The eval's way: a chooser that learned from the examples' readings, and every text
        // the decision reads replayed from a recording.
        let mut replay = Replay::new();
        for texts in transcript.received().read {
            for text in texts {
                let vector = meaning_mostly_last(&text).expect("read");
                replay.record_reading(text, vector);
            }
        }
        let (fresh, _) = agent_with(Vec::new(), Strategy::Combined, |session| session);
        let mut chooser = fresh.chooser().clone();
        chooser.prepare(&mut replay).await.expect("infallible");
        let replayed = chooser
            .plan(request, agent.dispatcher(), &mut replay)
            .await
            .expect("infallible");
        assert_eq!(replayed.decision, shipped, "{request}");
    }
}

#[tokio::test]
async fn an_elliptical_follow_up_continues_the_last_tool_until_the_conversation_is_cleared() {
    let script = || {
        vec![
            vec![call("check_chore", json!({"number": 2}))],
            text("2번을 끝냈어요."),
            vec![call("check_chore", json!({"number": 1}))],
            text("설거지도 끝냈어요."),
            vec![call("list_chores", json!({}))],
            vec![call("check_chore", json!({"number": 1}))],
            text("목록을 보고 설거지를 끝냈어요."),
        ]
    };
    // Alone, "설거지도?" (chore 1 by its name) reads like the declared list-then-check.
    let (mut alone, alone_events) = agent(script().split_off(4));
    alone.send("설거지도?").await.expect("answer");
    assert_eq!(plans(&alone_events), [["list_chores", "check_chore"]]);

    let (mut agent, events) = agent(script());
    agent.send("2번 완료 체크").await.expect("answer");
    agent.send("설거지도?").await.expect("answer");
    agent.clear();
    agent.send("설거지도?").await.expect("answer");
    let plans = plans(&events);
    assert_eq!(
        plans,
        [
            vec!["check_chore"],
            vec!["check_chore"],
            vec!["list_chores", "check_chore"]
        ],
        "the follow-up continues the check; after clear it stands alone again"
    );
}

/// An agent over three tools declared at run time — removing a shopping item by its number
/// (a provider's values), the weather of a city, recipes for a query (free text grounded in
/// the request) — that confirms every call, playing back `script`.
fn lookup_agent(
    script: Vec<Vec<agent_core::ChatEvent>>,
) -> (
    Agent<ScriptedSession>,
    Arc<Mutex<Vec<AgentEvent>>>,
    agent_core::llm::scripted::Transcript,
) {
    let tool = |name: &'static str, description: &'static str, param: &'static str| {
        ToolDefinition::builder(name, description)
            .schema(ToolSchema::from_validation(json!({
                "type": "object",
                "properties": {param: {"type": "string", "description": "이름"}},
                "required": [param]
            })))
            .handler(|call: agent_core::CallContext| {
                let args = call.args().clone();
                async move { ToolResult::ok(args) }
            })
            .build()
            .expect("a run-time tool")
    };
    let remove = ToolDefinition::builder("remove_item", "장보기 목록에서 항목 하나를 지웁니다.")
        .schema(ToolSchema::from_validation(json!({
            "type": "object",
            "properties": {"number": {"type": "integer", "description": "항목 번호"}},
            "required": ["number"]
        })))
        .values("number", || {
            vec![
                ValueChoice::new(1, "우유"),
                ValueChoice::new(2, "계란"),
                ValueChoice::new(3, "두부"),
            ]
        })
        .destructive(true)
        .handler(|call: agent_core::CallContext| {
            let args = call.args().clone();
            async move { ToolResult::ok(args) }
        })
        .build()
        .expect("a run-time tool with a provider");
    let registry = Registry::builder()
        .definition(remove)
        .example(Example::new("2번 지워줘").call("remove_item", json!({"number": 2})))
        .example(Example::new("두부 목록에서 지워").call("remove_item", json!({"number": 3})))
        .definition(tool("weather", "도시의 현재 날씨를 알려줍니다.", "city"))
        .definition(tool("recipes", "Finds recipes for a query.", "query"))
        .example(Example::new("서울 날씨 알려줘").call("weather", json!({"city": "서울"})))
        .example(Example::new("weather in Paris").call("weather", json!({"city": "Paris"})))
        .example(Example::new("recipes with tofu").call("recipes", json!({"query": "tofu"})))
        .example(Example::new("고마워").answer("천만에요!"))
        .build()
        .expect("registry");
    let registry = Arc::new(registry);
    let session = ScriptedSession::new(ChatConfig::new("도우미입니다.", &registry), script);
    let transcript = session.transcript();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let chooser = Chooser::with_background(&registry, &Background::none());
    let agent = Agent::new(session, registry)
        .with_chooser(chooser)
        .with_strategy(Strategy::Router)
        .with_confirmer(agent_core::ApproveAll)
        .with_events(move |event| sink.lock().expect("events").push(event));
    (agent, events, transcript)
}

/// The calls the agent asked to run: tool and arguments.
fn requested(events: &Mutex<Vec<AgentEvent>>) -> Vec<(String, serde_json::Value)> {
    events
        .lock()
        .expect("events")
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallRequested { name, args, .. } => Some((name.clone(), args.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_call_is_made_for_each_member_of_a_list_where_the_tool_takes_one_value() {
    for (request, first, second) in [
        ("서울이랑 부산 날씨 둘 다 알려줘", "서울", "부산"),
        (
            "What's the weather in Seoul and in Busan?",
            "Busan",
            "Seoul",
        ),
    ] {
        let (mut agent, events, transcript) = lookup_agent(vec![
            vec![call("weather", json!({"city": first}))],
            vec![call("weather", json!({"city": second}))],
            text("두 도시의 날씨예요."),
        ]);
        agent.send(request).await.expect("answer");
        assert_eq!(
            plans(&events),
            [vec!["weather"], vec!["weather", "weather"]],
            "{request}: planned, then planned again with the list"
        );
        assert_eq!(
            requested(&events),
            [
                ("weather".to_owned(), json!({"city": first})),
                ("weather".to_owned(), json!({"city": second})),
            ],
            "{request}"
        );
        // The second call could take the other member and nothing else.
        let received = transcript.received();
        assert_eq!(
            received.values[1]["weather"]["city"],
            [ValueChoice::new(second, second)],
            "{request}"
        );
        assert!(
            received.required[1].contains(&"city".to_owned()),
            "{request}"
        );
    }
}

#[tokio::test]
async fn a_call_is_made_for_each_provided_value_a_list_names() {
    for (request, first, second) in [("1번이랑 3번 지워줘", 1, 3), ("우유랑 두부 지워줘", 1, 3)]
    {
        let (mut agent, events, transcript) = lookup_agent(vec![
            vec![call("remove_item", json!({"number": first}))],
            vec![call("remove_item", json!({"number": second}))],
            text("지웠어요."),
        ]);
        agent.send(request).await.expect("answer");
        assert_eq!(
            requested(&events),
            [
                ("remove_item".to_owned(), json!({"number": first})),
                ("remove_item".to_owned(), json!({"number": second})),
            ],
            "{request}"
        );
        let allowed = &transcript.received().values[1]["remove_item"]["number"];
        assert_eq!(allowed.len(), 1, "{request}: {allowed:?}");
        assert_eq!(allowed[0].value, json!(second), "{request}");
    }
    // "말고" is no list: one call.
    let (mut agent, events, _) = lookup_agent(vec![
        vec![call("remove_item", json!({"number": 3}))],
        text("지웠어요."),
    ]);
    agent.send("1번 말고 3번 지워줘").await.expect("answer");
    assert_eq!(requested(&events).len(), 1);
}

#[tokio::test]
async fn a_call_that_took_the_whole_list_or_a_single_value_is_made_once() {
    for (request, tool, args) in [
        (
            "recipes with chicken and rice",
            "recipes",
            json!({"query": "chicken and rice"}),
        ),
        ("부산 날씨 알려줘", "weather", json!({"city": "부산"})),
        ("서울 또는 부산 날씨", "weather", json!({"city": "서울"})),
    ] {
        let (mut agent, events, transcript) =
            lookup_agent(vec![vec![call(tool, args.clone())], text("찾았어요.")]);
        agent.send(request).await.expect("answer");
        assert_eq!(requested(&events), [(tool.to_owned(), args)], "{request}");
        assert_eq!(
            transcript.received().choices.len(),
            2,
            "{request}: one call, one answer"
        );
    }
}
