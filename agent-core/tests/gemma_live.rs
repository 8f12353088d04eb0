//! Live tests of the llama.cpp Gemma backend with the real Gemma 3 270M (feature `llama`).
//!
//! The model is found through `$GEMMA_MODEL` or the cache of `scripts/fetch-model.sh`. When
//! it is missing the tests skip locally but fail under `CI=true`, so CI cannot pass without
//! having run them. The tests share one loaded model and run one at a time (a mutex), since
//! two inferences on a 2-core machine only slow each other down.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, GemmaSession, PromptFormat, TurnStats};
use agent_core::llm::{
    ChatConfig, ChatEvent, ChatSession, FunctionCall, LlmError, ToolChoice, ToolResponse,
};
use agent_core::tool::ToolDeclaration;
use agent_core::{Agent, AgentError, AgentEvent, ApproveAll, DenyAll, Registry};
use futures::StreamExt;
use habit_tools::{Coach, Store};
use serde_json::json;

const INSTRUCTIONS: &str =
    "너는 습관 코치 앱의 도우미야. 필요하면 도구를 호출하고, 아니면 한국어로 짧게 답해.";

fn model_path() -> Option<PathBuf> {
    let path = GemmaBackend::default_model_path();
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "no model at {}: CI must run scripts/fetch-model.sh (or set GEMMA_MODEL) before the live tests",
        path.display()
    );
    eprintln!(
        "skipping live test: no model at {} (run scripts/fetch-model.sh)",
        path.display()
    );
    None
}

/// The shared model, loaded once with small limits, and the lock serializing the tests.
fn backend() -> Option<(GemmaBackend, MutexGuard<'static, ()>)> {
    static BACKEND: OnceLock<GemmaBackend> = OnceLock::new();
    static SERIAL: Mutex<()> = Mutex::new(());
    let path = model_path()?;
    let guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let backend = BACKEND.get_or_init(|| {
        let options = GemmaOptions {
            context_size: 2048,
            max_tokens_per_turn: 192,
            ..GemmaOptions::default()
        };
        GemmaBackend::load(&path, options)
            .unwrap_or_else(|e| panic!("loading {}: {e}", path.display()))
    });
    Some((backend.clone(), guard))
}

/// The six habit tools exactly as the demo registers them, over a fresh in-memory store.
fn habit_registry(confirmer: impl agent_core::Confirmer) -> Registry {
    let store = Store::open_in_memory().expect("in-memory store");
    let coach = Coach::with_system_clock(Arc::new(store));
    habit_tools::registry_builder(coach)
        .confirmer(confirmer)
        .build()
        .expect("the habit registry builds")
}

fn habit_tools() -> Vec<ToolDeclaration> {
    habit_registry(DenyAll).declarations()
}

fn config(tool_choice: ToolChoice) -> ChatConfig {
    ChatConfig {
        instructions: INSTRUCTIONS.to_owned(),
        tools: habit_tools(),
        tool_choice,
    }
}

enum Input<'a> {
    User(&'a str),
    Results(Vec<ToolResponse>),
}

fn turn(
    session: &mut GemmaSession,
    input: Input<'_>,
) -> (Vec<Result<ChatEvent, LlmError>>, TurnStats) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let events = runtime.block_on(async {
        let stream = match input {
            Input::User(text) => session.send_user(text),
            Input::Results(results) => session.send_tool_results(results),
        };
        stream.collect::<Vec<_>>().await
    });
    (events, session.stats().last_turn)
}

fn calls(events: &[Result<ChatEvent, LlmError>]) -> Vec<FunctionCall> {
    events
        .iter()
        .filter_map(|e| match e {
            Ok(ChatEvent::FunctionCall(call)) => Some(call.clone()),
            _ => None,
        })
        .collect()
}

/// The call names a registered tool and its arguments pass that tool's own validator.
fn assert_valid_call(call: &FunctionCall, registry: &Registry) {
    let tool = registry
        .get(&call.name)
        .unwrap_or_else(|| panic!("the model called an unregistered tool: {call:?}"));
    let validator = jsonschema::validator_for(tool.validation_schema()).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&call.args)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "arguments of {call:?} break the schema: {errors:?}"
    );
}

#[test]
fn required_mode_answers_a_korean_request_with_a_valid_registered_call() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    assert_eq!(
        backend.format(),
        PromptFormat::GemmaJson,
        "the base model has no FunctionGemma tokens"
    );
    let registry = habit_registry(DenyAll);
    for request in ["아침 운동 습관을 찾아줘", "3번 습관 오늘 했어. 기록해줘"]
    {
        let mut session = backend
            .session(config(ToolChoice::Required))
            .expect("session");
        let (events, stats) = turn(&mut session, Input::User(request));
        let errors: Vec<_> = events.iter().filter_map(|e| e.as_ref().err()).collect();
        assert!(errors.is_empty(), "{request}: {errors:?}");
        let calls = calls(&events);
        assert!(
            !calls.is_empty(),
            "{request}: required mode produced no call: {events:?}"
        );
        for call in &calls {
            assert_valid_call(call, &registry);
        }
        assert!(
            events
                .iter()
                .all(|e| matches!(e, Ok(ChatEvent::FunctionCall(_)))),
            "required mode streams no text: {events:?}"
        );
        assert!(stats.constrained);
        assert!(
            stats.sampler.fast_accepts > 0,
            "the fast path was never taken: {stats:?}"
        );
        eprintln!("{request} -> {calls:?} ({stats:?})");
    }
}

#[test]
fn a_conversation_is_evaluated_once_and_kept_in_the_kv_cache() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    let registry = habit_registry(DenyAll);
    let mut session = backend.session(config(ToolChoice::Auto)).expect("session");
    let declaration_tokens = session.stats().declaration_tokens;
    assert!(
        declaration_tokens > 100,
        "declarations should cost something: {declaration_tokens}"
    );

    let (events, first) = turn(&mut session, Input::User("아침 운동 습관을 찾아줘"));
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert!(
        first.prompt_tokens_evaluated > declaration_tokens,
        "the first turn carries the declarations"
    );
    for call in calls(&events) {
        assert_valid_call(&call, &registry);
    }

    let made = calls(&events);
    let second_input = if made.is_empty() {
        Input::User("진행 중인 습관도 알려줘")
    } else {
        Input::Results(
            made.iter()
                .map(|call| ToolResponse {
                    name: call.name.clone(),
                    result: json!({"status": "ok", "data": {"count": 1, "items": [
                        {"id": "morning-walk", "title": "아침 산책 10분", "category": "운동"}
                    ]}}),
                })
                .collect(),
        )
    };
    let (events, second) = turn(&mut session, second_input);
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let (events, third) = turn(&mut session, Input::User("고마워"));
    assert!(events.iter().all(Result::is_ok), "{events:?}");

    let mut previous = &first;
    for (n, stats) in [(2, &second), (3, &third)] {
        eprintln!("turn {n}: {stats:?}");
        assert_eq!(
            stats.prompt_tokens_evaluated, stats.tokens_appended,
            "turn {n} evaluated more than it appended"
        );
        assert!(
            stats.prompt_tokens_evaluated < previous.context_tokens,
            "turn {n} evaluated {} tokens, no fewer than the {} of history: the history was re-evaluated",
            stats.prompt_tokens_evaluated,
            previous.context_tokens
        );
        assert!(stats.context_tokens >= previous.context_tokens + stats.tokens_appended);
        assert_eq!(
            stats.kv_cache_tokens, stats.context_tokens,
            "llama.cpp's KV cache disagrees"
        );
        previous = stats;
    }
    assert!(
        third.tokens_appended < 30,
        "a short message costs few tokens: {third:?}"
    );
}

#[test]
fn plain_text_is_streamed_token_by_token() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    let mut session = backend.session(config(ToolChoice::None)).expect("session");
    let (events, stats) = turn(&mut session, Input::User("안녕하세요! 오늘 기분이 어때요?"));
    let deltas: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Ok(ChatEvent::TextDelta(text)) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert!(calls(&events).is_empty(), "no tool calls without tools");
    assert!(!stats.constrained);
    assert!(
        deltas.len() >= 2,
        "expected several deltas, got {deltas:?} ({stats:?})"
    );
    assert!(deltas.iter().all(|d| !d.is_empty()));
}

#[test]
fn limits_end_turns_with_errors_and_the_session_survives() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    let path = backend.path().to_path_buf();
    let small = GemmaBackend::load(
        &path,
        GemmaOptions {
            context_size: 256,
            max_tokens_per_turn: 48,
            ..backend.options().clone()
        },
    )
    .expect("load");
    let mut session = small.session(config(ToolChoice::None)).expect("session");

    let long = "습관을 만들고 싶어요. ".repeat(80);
    let (events, _) = turn(&mut session, Input::User(&long));
    assert!(
        matches!(
            events.as_slice(),
            [Err(LlmError::PromptTooLong { capacity: 256, .. })]
        ),
        "{events:?}"
    );

    let mut context_full = false;
    for _ in 0..12 {
        let (events, _) = turn(&mut session, Input::User("습관 이야기를 계속 해 주세요."));
        if events
            .iter()
            .any(|e| matches!(e, Err(LlmError::ContextFull { capacity: 256 })))
        {
            context_full = true;
            break;
        }
        assert!(events.iter().all(Result::is_ok), "{events:?}");
    }
    assert!(context_full, "a 256-token context never filled up");

    session.clear();
    let (events, stats) = turn(&mut session, Input::User("안녕"));
    assert!(
        events.iter().all(Result::is_ok),
        "after clear(): {events:?}"
    );
    assert!(
        stats.context_tokens < 100,
        "clear() starts a new conversation: {stats:?}"
    );
}

#[test]
fn recorded_results_join_the_kv_cache_without_a_reply() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    let mut session = backend
        .session(config(ToolChoice::Required))
        .expect("session");
    let (events, first) = turn(&mut session, Input::User("아침 운동 습관을 찾아줘"));
    let made = calls(&events);
    assert!(!made.is_empty(), "required mode calls a tool: {events:?}");
    // What the agent loop does at its turn limit: answer the calls without a new model turn.
    session.record_tool_results(
        made.iter()
            .map(|call| ToolResponse {
                name: call.name.clone(),
                result: json!({"status": "error", "code": "turn_limit", "reason": "도구 호출 루프가 너무 길어 중단했습니다."}),
            })
            .collect(),
    );
    assert_eq!(session.stats().turns, 1, "recording runs no turn");
    let (events, second) = turn(&mut session, Input::User("고마워"));
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert_eq!(second.prompt_tokens_evaluated, second.tokens_appended);
    assert_eq!(second.kv_cache_tokens, second.context_tokens, "{second:?}");
    let recorded = second.context_tokens
        - first.context_tokens
        - second.tokens_appended
        - second.generated_tokens;
    assert!(
        recorded > 20,
        "the recorded results are in the context ({recorded} tokens): {first:?} {second:?}"
    );
}

#[test]
fn an_auto_run_over_the_habit_tools_completes() {
    let Some((backend, _serial)) = backend() else {
        return;
    };
    let registry = Arc::new(habit_registry(ApproveAll));
    let session = backend
        .session(ChatConfig::new(habit_tools::COACH_INSTRUCTIONS, &registry))
        .expect("session");
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut agent = Agent::new(session, Arc::clone(&registry)).with_events(move |event| {
        sink.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(event)
    });
    // A plain #[test] with its own runtime: the serializing lock is a std Mutex held for the
    // whole test, which must not live inside an async fn.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let outcome = runtime.block_on(agent.send("아침에 할 운동 습관을 추천해 줘"));
    let events = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    eprintln!("outcome: {outcome:?}");
    for event in &events {
        eprintln!("{event:?}");
    }
    // The loop ends either with an answer or at its turn cap, never with a backend error, and
    // every call the model made was answered.
    assert!(
        matches!(outcome, Ok(_) | Err(AgentError::TurnLimit { .. })),
        "{outcome:?}"
    );
    assert!(
        !events.iter().any(|e| matches!(e, AgentEvent::Error { .. })),
        "{events:?}"
    );
    let requested = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ToolCallRequested { .. }))
        .count();
    let answered = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ToolResult { .. }))
        .count();
    assert_eq!(requested, answered);
    // Every call the model emitted was a registered tool with schema-valid arguments (the
    // grammar's promise): none came back as unknown_tool or validation.
    for event in &events {
        if let AgentEvent::ToolResult { result, .. } = event
            && let Some(error) = result.as_error()
        {
            assert!(
                !matches!(error.code(), "unknown_tool" | "validation"),
                "{event:?}"
            );
        }
    }
}
