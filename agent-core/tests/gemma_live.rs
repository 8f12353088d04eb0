//! Live tests of the llama.cpp backend with the real Gemma 3 270M (feature `llama`), over a
//! small tool set of their own (a notebook): the runtime's tests do not need any domain.
//!
//! The model is found through `$GEMMA_MODEL` or the cache of `scripts/fetch-model.sh`. When
//! it is missing the tests skip locally but fail under `CI=true`, so CI cannot pass without
//! having run them. The tests share one loaded model and run one at a time (a mutex), since
//! two inferences on a 2-core machine only slow each other down.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

mod live;
use live::{model_path, options, runtime};

use agent_core::llm::gemma::{CacheFault, GemmaBackend, GemmaSession, PrefixCache, PrefixSource};
use agent_core::{
    Agent, AgentEvent, ApproveAll, ChatConfig, ChatEvent, ChatSession, Dep, Example, LlmError,
    Registry, ResultMessage, ToolCall, ToolChoice, ToolDefinition, ToolResult, ToolSchema,
    TurnRequest, ValueChoice, ValueSets, tool,
};
use futures::StreamExt;
use serde_json::{Value, json};

const INSTRUCTIONS: &str = "너는 메모 앱의 도우미야. 한국어로 짧게 답해.";

/// The notebook the tools work on.
#[derive(Default)]
struct Notebook(Mutex<Vec<String>>);

impl Notebook {
    fn notes(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// 메모를 추가합니다.
#[tool(
    destructive,
    label = "메모 추가",
    summary = "'{text}' 메모를 추가합니다",
    example(request = "우유 사기 메모해줘", args = { "text": "우유 사기" }),
    example(request = "내일 회의 준비 메모 남겨줘", args = { "text": "내일 회의 준비" })
)]
async fn add_note(
    notebook: Dep<Notebook>,
    /// 메모 내용
    #[schemars(length(min = 1, max = 60))]
    #[from_request]
    text: String,
) -> usize {
    let mut notes = notebook.0.lock().unwrap_or_else(PoisonError::into_inner);
    notes.push(text);
    notes.len()
}

/// 메모 목록을 봅니다.
#[tool(
    label = "메모 목록",
    example(request = "메모 목록 보여줘"),
    example(request = "내 메모 뭐 있어?")
)]
async fn list_notes(notebook: Dep<Notebook>) -> Vec<String> {
    notebook.notes()
}

/// 메모 하나를 번호로 봅니다.
#[tool(
    label = "메모 보기",
    example(request = "2번 메모 보여줘", args = { "id": 2 }),
    example(request = "1번 메모 뭐였지?", args = { "id": 1 })
)]
async fn get_note(
    notebook: Dep<Notebook>,
    /// 메모 번호
    #[values(note_ids)]
    id: i64,
) -> Option<String> {
    let index = usize::try_from(id).ok()?.checked_sub(1)?;
    notebook.notes().get(index).cloned()
}

/// The numbers of the notes that exist, labelled with their text.
fn note_ids(notebook: Dep<Notebook>) -> Vec<ValueChoice> {
    notebook
        .notes()
        .into_iter()
        .enumerate()
        .map(|(i, text)| ValueChoice::new(i as i64 + 1, text))
        .collect()
}

static SERIAL: Mutex<()> = Mutex::new(());

/// The shared model and the lock serializing the tests.
fn backend() -> Option<(GemmaBackend, MutexGuard<'static, ()>)> {
    static BACKEND: OnceLock<GemmaBackend> = OnceLock::new();
    let path = model_path()?;
    let guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let backend = BACKEND.get_or_init(|| {
        GemmaBackend::load(&path, options())
            .unwrap_or_else(|e| panic!("loading {}: {e}", path.display()))
    });
    Some((backend.clone(), guard))
}

fn registry(notes: &[&str]) -> Arc<Registry> {
    let notebook = Notebook(Mutex::new(notes.iter().map(|n| (*n).to_owned()).collect()));
    Arc::new(
        Registry::builder()
            .tool::<add_note>()
            .tool::<list_notes>()
            .tool::<get_note>()
            .dependency(notebook)
            .example(Example::new("고마워").answer("천만에요!"))
            .build()
            .expect("the notebook registry builds"),
    )
}

fn run(session: &mut GemmaSession, request: TurnRequest) -> Vec<Result<ChatEvent, LlmError>> {
    runtime().block_on(session.turn(request).collect::<Vec<_>>())
}

/// A session of `backend` over the notebook holding `notes`, with the tests' instructions.
fn notebook_session(backend: &GemmaBackend, notes: &[&str]) -> GemmaSession {
    let registry = registry(notes);
    backend
        .session(ChatConfig::new(INSTRUCTIONS, &registry))
        .expect("session")
}

/// One turn on `input` in which the model may only answer in words.
fn chat(session: &mut GemmaSession, input: &str) -> Vec<Result<ChatEvent, LlmError>> {
    run(
        session,
        TurnRequest::user(input).with_choice(ToolChoice::None),
    )
}

fn calls(events: &[Result<ChatEvent, LlmError>]) -> Vec<ToolCall> {
    events
        .iter()
        .filter_map(|e| match e {
            Ok(ChatEvent::Call(call)) => Some(call.clone()),
            _ => None,
        })
        .collect()
}

fn text(events: &[Result<ChatEvent, LlmError>]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Ok(ChatEvent::TextDelta(delta)) => Some(delta.as_str()),
            _ => None,
        })
        .collect()
}

fn call_request(text: &str, tool: &str, values: ValueSets) -> TurnRequest {
    TurnRequest {
        values: Arc::new(values),
        ..TurnRequest::user(text).with_choice(ToolChoice::Call(vec![tool.to_owned()]))
    }
}

#[test]
fn a_requested_call_is_valid_and_its_forced_text_is_written_in_batches() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &[]);
    let events = run(
        &mut session,
        call_request(
            "장보기 목록 정리하기 메모해줘",
            "add_note",
            ValueSets::new(),
        ),
    );
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let made = calls(&events);
    assert_eq!(made.len(), 1, "{events:?}");
    assert_eq!(made[0].name, "add_note");
    let text = made[0].args["text"].as_str().expect("a text argument");
    assert!(
        "장보기 목록 정리하기 메모해줘".contains(text),
        "`from_request` text must be copied from the request: {text:?}"
    );
    let stats = session.stats().last_turn;
    assert!(stats.constrained);
    assert!(
        stats.forced_tokens > 0,
        "the call's frame is forced: {stats:?}"
    );
    assert!(stats.sampler.forced_runs > 0, "{stats:?}");
}

#[test]
fn a_copy_verified_in_batches_writes_the_same_call_as_one_token_at_a_time() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let Some(path) = model_path() else {
        return;
    };
    let mut stepwise_options = options();
    stepwise_options.copy_drafts = false;
    let stepwise = GemmaBackend::load(&path, stepwise_options).expect("loading the model again");
    // Requests whose note is a longer stretch of their own words.
    let requests = [
        "'우유 두 개랑 계란 한 판 사기' 메모해줘",
        "메모: 내일 아침 아홉 시에 치과 예약 전화하기",
        "장보기 목록 정리하기 메모해줘",
    ];
    let mut kept = 0;
    for request in requests {
        let mut written = Vec::new();
        for backend in [&backend, &stepwise] {
            let mut session = notebook_session(backend, &[]);
            let events = run(
                &mut session,
                call_request(request, "add_note", ValueSets::new()),
            );
            assert!(events.iter().all(Result::is_ok), "{events:?}");
            written.push((calls(&events), session.stats().last_turn.sampler));
        }
        let (batched, stepwise) = (&written[0], &written[1]);
        assert_eq!(
            batched.0, stepwise.0,
            "the same call either way for {request:?}"
        );
        assert_eq!(batched.0.len(), 1, "{batched:?}");
        assert_eq!(stepwise.1.draft_tokens, 0, "{stepwise:?}");
        kept += batched.1.draft_accepted;
    }
    assert!(kept > 0, "some copied text was verified in batches");
}

#[test]
fn value_sets_restrict_what_the_model_may_write() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(
        &backend,
        &["우유 사기", "회의 준비", "운동하기", "책 반납", "청소"],
    );
    let values = ValueSets::from([(
        "get_note".to_owned(),
        [(
            "id".to_owned(),
            vec![
                ValueChoice::new(2, "회의 준비"),
                ValueChoice::new(5, "청소"),
            ],
        )]
        .into_iter()
        .collect(),
    )]);
    for request in ["3번 메모 보여줘", "회의 메모 보여줘", "1번 메모 뭐였지?"] {
        let events = run(
            &mut session,
            call_request(request, "get_note", values.clone()),
        );
        let made = calls(&events);
        assert_eq!(made.len(), 1, "{request}: {events:?}");
        assert!(
            made[0].args["id"] == json!(2) || made[0].args["id"] == json!(5),
            "{request}: only the values of this turn may be written: {:?}",
            made[0].args
        );
        session.clear();
    }
}

#[test]
fn the_conversation_is_evaluated_once_and_a_new_one_keeps_the_preamble() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &["우유 사기"]);
    let started = session.stats();
    assert!(started.preamble_tokens > 50, "{started:?}");
    let events = run(
        &mut session,
        call_request("메모 목록 보여줘", "list_notes", ValueSets::new()),
    );
    let first = session.stats().last_turn;
    assert_eq!(calls(&events).len(), 1, "{events:?}");
    let results = vec![ResultMessage {
        name: "list_notes".into(),
        result: json!({"status": "ok", "data": ["우유 사기"]}),
        reply: None,
    }];
    let events = run(
        &mut session,
        TurnRequest::results(results).with_choice(ToolChoice::None),
    );
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let second = session.stats().last_turn;
    assert!(
        second.tokens_appended < 60,
        "only the results are evaluated, not the conversation again: {second:?}"
    );
    assert_eq!(second.kv_cache_tokens, second.context_tokens, "{second:?}");
    assert!(second.context_tokens > first.context_tokens);
    // A new conversation starts from the preamble, without evaluating it again.
    session.clear();
    chat(&mut session, "안녕");
    let fresh = session.stats().last_turn;
    assert!(fresh.tokens_appended < 20, "{fresh:?}");
    assert!(
        fresh.context_tokens < started.preamble_tokens + 60,
        "{fresh:?}"
    );
}

#[test]
fn text_answers_stream_start_with_words_and_stop() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &[]);
    let events = chat(&mut session, "안녕하세요!");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert!(calls(&events).is_empty());
    let answer = text(&events);
    let first = answer.trim_start().chars().next().expect("an answer");
    assert!(
        first.is_alphanumeric(),
        "an answer starts with a letter: {answer:?}"
    );
    assert!(!answer.contains('\n'), "one line: {answer:?}");
    let stats = session.stats().last_turn;
    assert!(!stats.constrained);
    assert!(stats.sampled_tokens <= backend.options().max_text_tokens);
}

#[test]
fn a_dropped_turn_stops_generating_within_a_token() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &[]);
    let runtime = runtime();
    runtime.block_on(async {
        let mut stream = session.turn(
            TurnRequest::user("메모 앱 사용법을 아주 길게 설명해줘").with_choice(ToolChoice::None),
        );
        let _ = stream.next().await;
    });
    // The next command waits for the worker, which must have noticed the dropped stream.
    let started = Instant::now();
    let events = chat(&mut session, "고마워");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(5),
        "the cancelled turn kept generating: {waited:?}"
    );
    // The same holds in the middle of a call, when nothing has been sent yet.
    runtime.block_on(async {
        let stream = session.turn(call_request(
            "우유 사기 메모해줘",
            "add_note",
            ValueSets::new(),
        ));
        drop(stream);
    });
    let events = chat(&mut session, "안녕");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
}

#[test]
fn a_call_near_its_token_limit_closes_instead_of_being_cut_off() {
    let Some(path) = model_path() else { return };
    let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let mut short = options();
    // Room for the call's frame and a few words, not for the whole list the request names.
    short.max_call_tokens = 32;
    let backend = GemmaBackend::load(&path, short).expect("model");
    let mut session = notebook_session(&backend, &[]);
    let request = "퇴근하고 마트 들러서 우유 계란 두부 사과 바나나 식빵 사고 세탁소에서 정장 찾아오기 메모해줘";
    let events = run(
        &mut session,
        call_request(request, "add_note", ValueSets::new()),
    );
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let made = calls(&events);
    assert_eq!(made.len(), 1, "{events:?}");
    let text = made[0].args["text"].as_str().expect("a text argument");
    assert!(
        !text.is_empty() && request.contains(text),
        "a copy of part of the request: {text:?}"
    );
    assert!(
        session.stats().last_turn.sampled_tokens + session.stats().last_turn.forced_tokens <= 32
    );
}

#[test]
fn a_free_form_object_is_written_as_pairs_the_request_holds() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let profile = ToolDefinition::builder("save_profile", "Saves a contact's profile fields.")
        .schema(ToolSchema::from_validation(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The contact's name"},
                "fields": {"type": "object", "description": "Other fields, by name"}
            },
            "required": ["name", "fields"]
        })))
        .handler(|call: agent_core::CallContext| {
            let args = call.args().clone();
            async move { ToolResult::ok(args) }
        })
        .build()
        .expect("a tool with a free-form object");
    let registry = Arc::new(
        Registry::builder()
            .definition(profile)
            .build()
            .expect("registry"),
    );
    let mut session = backend
        .session(ChatConfig::new("You keep a contact book.", &registry))
        .expect("session");
    let request = "Save Mina's profile: city Busan, team design";
    let events = run(
        &mut session,
        call_request(request, "save_profile", ValueSets::new()),
    );
    let made = calls(&events);
    assert_eq!(made.len(), 1, "{events:?}");
    let fields = made[0].args["fields"]
        .as_object()
        .expect("an object of fields");
    eprintln!("fields: {fields:?}");
    assert!(!fields.is_empty(), "the request names fields: {fields:?}");
    for (key, value) in fields {
        let words = match value {
            Value::String(text) => vec![key.as_str(), text.as_str()],
            other => panic!("{key}: {other} is no text of the request"),
        };
        assert!(
            words.iter().all(|w| !w.is_empty() && request.contains(w)),
            "{key}: {value} is not written in {request:?}"
        );
    }
}

#[test]
fn limits_end_turns_with_errors_and_the_session_survives() {
    let Some(path) = model_path() else { return };
    let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let mut small = options();
    small.context_size = 512;
    let backend = GemmaBackend::load(&path, small).expect("model");
    let mut session = notebook_session(&backend, &[]);
    let long = "메모 ".repeat(400);
    let events = chat(&mut session, &long);
    assert!(
        matches!(
            events.last(),
            Some(Err(
                LlmError::PromptTooLong { .. } | LlmError::ContextFull { .. }
            ))
        ),
        "{events:?}"
    );
    session.clear();
    let events = chat(&mut session, "안녕");
    assert!(
        events.iter().all(Result::is_ok),
        "the session recovers: {events:?}"
    );
}

#[test]
fn recorded_results_join_the_kv_cache_without_a_reply() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &[]);
    let events = run(
        &mut session,
        call_request("메모 목록", "list_notes", ValueSets::new()),
    );
    assert_eq!(calls(&events).len(), 1);
    session.record_results(vec![ResultMessage {
        name: "list_notes".into(),
        result: json!({"status": "error", "code": "turn_limit", "reason": "stop"}),
        reply: None,
    }]);
    let events = chat(&mut session, "안녕");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let stats = session.stats();
    assert_eq!(stats.turns, 2, "recording runs no turn");
    assert_eq!(
        stats.last_turn.kv_cache_tokens, stats.last_turn.context_tokens,
        "{stats:?}"
    );
}

#[test]
fn a_recorded_exchange_joins_the_kv_cache_without_a_reply() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    // What the turn after it starts from, generated words aside.
    let before_reply = |session: &GemmaSession| {
        let last = session.stats().last_turn;
        last.context_tokens - last.generated_tokens()
    };
    let mut plain = notebook_session(&backend, &[]);
    let events = chat(&mut plain, "안녕");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let without = before_reply(&plain);

    let mut session = notebook_session(&backend, &[]);
    session.record_exchange("3번 메모 지워줘", "지금은 지울 수 있는 메모가 아직 없어요.");
    let events = chat(&mut session, "안녕");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let stats = session.stats();
    assert_eq!(stats.turns, 1, "recording runs no turn");
    assert!(
        before_reply(&session) >= without + 15,
        "the exchange is in the context: {} against {without}",
        before_reply(&session)
    );
    assert_eq!(
        stats.last_turn.kv_cache_tokens, stats.last_turn.context_tokens,
        "{stats:?}"
    );
}

/// The greedy answer text of one turn.
fn answer(session: &mut GemmaSession, input: &str) -> String {
    let events = chat(session, input);
    events
        .into_iter()
        .map(|event| match event {
            Ok(ChatEvent::TextDelta(text)) => text,
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

#[test]
fn preambles_are_restored_from_memory_and_from_a_checked_cache_file() {
    let Some(path) = model_path() else { return };
    let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    // Short, and longer than Gemma 3's 512-token sliding window: a restore must bring back
    // every position of both, so that the answer is the one a fresh evaluation gives.
    let long = format!(
        "{INSTRUCTIONS}\n{}",
        "메모는 날짜와 함께 짧게 적고, 목록은 번호를 붙여 보여 줘.\n".repeat(40)
    );
    for (name, instructions) in [("short", INSTRUCTIONS.to_owned()), ("long", long)] {
        let dir = std::env::temp_dir().join(format!(
            "agent-rs-prefix-test-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cached = options();
        cached.prefix_cache = PrefixCache::Dir(dir.clone());
        // Room for a conversation longer than llama.cpp's default sliding-window cache
        // (window + batch: 1,024 cells), which would overwrite the preamble's last window.
        cached.context_size = 4096;
        let registry = registry(&[]);
        let config = ChatConfig::new(&instructions, &registry);
        let first = GemmaBackend::load(&path, cached.clone()).expect("model");
        let mut evaluated = first.session(config.clone()).expect("session");
        assert_eq!(evaluated.stats().preamble_source, PrefixSource::Evaluated);
        if name == "long" {
            assert!(
                evaluated.stats().preamble_tokens > 600,
                "{:?}",
                evaluated.stats()
            );
        }
        let fresh = answer(&mut evaluated, "메모 앱으로 뭘 할 수 있어?");
        let mut again = first.session(config.clone()).expect("session");
        assert_eq!(
            again.stats().preamble_source,
            PrefixSource::Memory,
            "{name}: same process, same preamble"
        );
        assert_eq!(
            answer(&mut again, "메모 앱으로 뭘 할 수 있어?"),
            fresh,
            "{name}: memory"
        );
        // A conversation longer than that cache, then a reset to the preamble: the same
        // answer again.
        let _ = answer(
            &mut again,
            &"오늘 할 일: 우유 사기, 운동, 책 읽기. ".repeat(90),
        );
        again.clear();
        assert_eq!(
            answer(&mut again, "메모 앱으로 뭘 할 수 있어?"),
            fresh,
            "{name}: reset"
        );
        // A new backend (as after a restart) finds the file.
        let second = GemmaBackend::load(&path, cached.clone()).expect("model");
        let mut restored = second.session(config.clone()).expect("session");
        assert_eq!(
            restored.stats().preamble_source,
            PrefixSource::File,
            "{name}"
        );
        assert_eq!(
            answer(&mut restored, "메모 앱으로 뭘 할 수 있어?"),
            fresh,
            "{name}: file"
        );
        // A corrupted file is never trusted: it is rebuilt.
        for entry in std::fs::read_dir(&dir).expect("cache dir").flatten() {
            if entry.path().extension().is_some_and(|e| e == "kv") {
                let mut bytes = std::fs::read(entry.path()).expect("read");
                let middle = bytes.len() / 2;
                bytes[middle] ^= 0xff;
                std::fs::write(entry.path(), bytes).expect("write");
            }
        }
        let third = GemmaBackend::load(&path, cached).expect("model");
        let mut rebuilt = third.session(config).expect("session");
        assert_eq!(
            rebuilt.stats().preamble_source,
            PrefixSource::Evaluated,
            "{name}"
        );
        let repairs = third.cache_repairs();
        assert_eq!(repairs.len(), 1, "{name}: {repairs:?}");
        assert_eq!(repairs[0].fault, CacheFault::Mismatch, "{name}");
        assert!(
            third.cache_repairs().is_empty(),
            "each repair is reported once"
        );
        assert_eq!(
            answer(&mut rebuilt, "메모 앱으로 뭘 할 수 있어?"),
            fresh,
            "{name}: rebuilt"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn channel_scores_are_finite_and_repeatable() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let registry = registry(&[]);
    let config = ChatConfig::new(INSTRUCTIONS, &registry);
    let channels: Vec<usize> = (0..config.channels.len()).collect();
    let mut session = backend.session(config).expect("session");
    let runtime = runtime();
    let first = runtime
        .block_on(session.score("우유 사기 메모해줘", &channels))
        .expect("scores")
        .expect("the backend scores");
    let again = runtime
        .block_on(session.score("우유 사기 메모해줘", &channels))
        .expect("scores")
        .expect("the backend scores");
    assert_eq!(first.len(), channels.len());
    assert!(first.iter().all(|s| s.is_finite() && *s < 0.0), "{first:?}");
    assert_eq!(first, again, "scoring leaves the channels as they were");
}

#[test]
fn the_agent_plans_calls_and_ends_in_words() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let registry = registry(&["우유 사기"]);
    let session = backend
        .session(ChatConfig::new(INSTRUCTIONS, &registry))
        .expect("session");
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut agent = Agent::new(session, Arc::clone(&registry))
        .with_confirmer(ApproveAll)
        .with_events(move |event| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(event)
        });
    let answer = runtime()
        .block_on(agent.send("메모 목록 보여줘"))
        .expect("a turn");
    assert!(answer.chars().any(char::is_alphanumeric), "{answer:?}");
    let events = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let planned = events.iter().find_map(|e| match e {
        AgentEvent::Planned(decision) => Some(decision.plan.clone()),
        _ => None,
    });
    assert_eq!(planned, Some(vec!["list_notes".to_owned()]), "{events:?}");
    let results: Vec<&Value> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolResult { sent, .. } => Some(sent),
            _ => None,
        })
        .collect();
    assert_eq!(results, [&json!({"status": "ok", "data": ["우유 사기"]})]);
}

#[test]
fn free_decoding_evaluates_the_turns_input_decodes_as_asked_and_forgets() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let mut session = notebook_session(&backend, &["우유 사기"]);
    let preamble = session.stats().preamble_tokens;
    let request = call_request("메모 목록 보여줘", "list_notes", ValueSets::new());
    let free = runtime()
        .block_on(session.free_decode(request.clone(), 12))
        .expect("free decoding");
    assert_eq!(
        (free.sampled_tokens, free.forced_tokens),
        (12, 0),
        "{free:?}"
    );
    assert!(free.time_to_first_token.is_some() && free.generation_time > Duration::ZERO);
    // The last token is sampled, not evaluated, as at the end of a turn.
    assert_eq!(
        free.context_tokens,
        preamble + free.tokens_appended + 11,
        "{free:?}"
    );
    assert_eq!(free.kv_cache_tokens, free.context_tokens, "{free:?}");
    // Forgotten: the turn that follows starts from the preamble, with the very same input.
    let events = run(&mut session, request);
    assert_eq!(calls(&events).len(), 1, "{events:?}");
    let turn = session.stats().last_turn;
    assert_eq!(turn.tokens_appended, free.tokens_appended, "{turn:?}");
    assert_eq!(session.stats().turns, 1);
}

#[test]
fn the_reading_model_is_cut_once_checked_at_each_start_and_reads_alike_without_a_cache_too() {
    let Some(path) = model_path() else { return };
    let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let dir = std::env::temp_dir().join(format!("agent-rs-reading-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cached = options();
    cached.prefix_cache = PrefixCache::Dir(dir.clone());
    let registry = registry(&[]);
    let config = ChatConfig::new(INSTRUCTIONS, &registry);
    let declared: Vec<String> = config
        .examples
        .iter()
        .map(|e| e.request().to_owned())
        .collect();
    let runtime = runtime();
    let read = |texts: &[String]| -> Vec<Vec<f32>> {
        let backend = GemmaBackend::load(&path, cached.clone()).expect("model");
        let mut session = backend.session(config.clone()).expect("session");
        runtime
            .block_on(session.read_texts(texts))
            .expect("read")
            .expect("the backend reads")
    };
    let files = |suffix: &str| -> Vec<(PathBuf, std::time::SystemTime)> {
        let mut found: Vec<_> = std::fs::read_dir(&dir)
            .expect("cache dir")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("reading-"))
                    && p.to_string_lossy().ends_with(suffix)
            })
            .filter_map(|p| Some((p.clone(), p.metadata().ok()?.modified().ok()?)))
            .collect();
        found.sort();
        found
    };

    let first = read(&declared);
    assert_eq!(first.len(), declared.len());
    let width = first[0].len();
    assert!(width > 0 && first.iter().all(|v| v.len() == width));
    assert!(first.iter().flatten().all(|x| x.is_finite()));
    let cut = files(".gguf");
    assert_eq!(cut.len(), 1, "one cut model: {cut:?}");
    assert_eq!(
        files(".vectors").len(),
        1,
        "the declared texts' vectors are kept"
    );

    // A restart: the same cut file, the vectors from their file, identical.
    assert_eq!(read(&declared), first);
    assert_eq!(files(".gguf"), cut, "not cut again");

    // What a person writes is read, never kept; a text reads the same every time, and two
    // requests for different things read differently.
    let requests = [
        "우유 사기 메모해줘".to_owned(),
        "메모 목록 보여줘".to_owned(),
    ];
    let twice = read(&[
        requests[0].clone(),
        requests[0].clone(),
        requests[1].clone(),
    ]);
    assert_eq!(twice[0], twice[1]);
    assert_ne!(twice[0], twice[2]);
    assert_eq!(files(".vectors").len(), 1, "no file for requests");

    // A changed record of the cut file is not trusted: the model is cut again.
    let meta = files(".meta");
    assert_eq!(meta.len(), 1);
    std::fs::write(&meta[0].0, "agent-rs reading 1\nsomething else\n").expect("damage");
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(read(&declared), first);
    assert_ne!(files(".gguf"), cut, "cut again");

    // A cache directory that cannot be made (here: under a file) costs time, never the
    // reading: the model is cut for the process alone and reads the same.
    let blocked = dir.join("a-file");
    std::fs::write(&blocked, b"not a directory").expect("write");
    let mut unwritable = cached.clone();
    unwritable.prefix_cache = PrefixCache::Dir(blocked.join("cache"));
    let backend = GemmaBackend::load(&path, unwritable).expect("model");
    let mut session = backend.session(config.clone()).expect("session");
    let without_cache = runtime
        .block_on(session.read_texts(&declared))
        .expect("read")
        .expect("the backend reads without its cache directory");
    assert_eq!(without_cache, first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_session_started_in_the_background_waits_for_its_start_and_reports_a_failed_one() {
    let Some((backend, _guard)) = backend() else {
        return;
    };
    let registry = registry(&["우유 사기"]);
    let mut session = backend
        .session_in_background(ChatConfig::new(INSTRUCTIONS, &registry))
        .expect("a thread");
    // A turn sent at once waits for the start, then runs as in any session.
    let events = chat(&mut session, "안녕");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert!(!text(&events).trim().is_empty(), "{events:?}");
    assert!(!session.is_starting());
    runtime().block_on(session.ready()).expect("started");
    assert!(session.stats().preamble_tokens > 0);

    // A preamble that cannot fit: the start fails, and what waits for it says why.
    let Some(path) = model_path() else { return };
    let mut tiny = options();
    tiny.context_size = 128;
    let tiny = GemmaBackend::load(&path, tiny).expect("model");
    let config = ChatConfig::new(INSTRUCTIONS, &registry);
    assert!(
        matches!(
            tiny.session(config.clone()),
            Err(LlmError::PromptTooLong { .. })
        ),
        "the blocking start fails at once"
    );
    let mut session = tiny.session_in_background(config).expect("a thread");
    let started = runtime().block_on(session.ready());
    assert!(
        matches!(started, Err(LlmError::PromptTooLong { .. })),
        "{started:?}"
    );
    let events = chat(&mut session, "안녕");
    assert!(
        matches!(events.as_slice(), [Err(LlmError::PromptTooLong { .. })]),
        "{events:?}"
    );
    let scored = runtime().block_on(session.score("안녕", &[0]));
    assert!(
        matches!(scored, Err(LlmError::PromptTooLong { .. })),
        "{scored:?}"
    );
}
