//! Gemma backend benchmark: one run prints, for the same model and threads,
//! constrained vs unconstrained decode speed, KV-cache reuse per turn, declaration tokens for
//! the six habit tools, model load time and time to first token.
//!
//! `cargo bench -p agent-core --features llama --bench gemma`
//! (model: `$GEMMA_MODEL` or the cache of `scripts/fetch-model.sh`; threads: `$GEMMA_THREADS`,
//! default all cores).

use std::time::Duration;

use agent_core::llm::gemma::{
    ConstrainedSampling, GemmaBackend, GemmaOptions, GemmaSession, TurnStats,
};
use agent_core::llm::{ChatConfig, ChatEvent, ChatSession, LlmError, ToolChoice, ToolResponse};
use agent_core::tool::ToolDeclaration;
use futures::StreamExt;
use serde_json::{Value, json};

const INSTRUCTIONS: &str =
    "너는 습관 코치 앱의 도우미야. 필요하면 도구를 호출하고, 아니면 한국어로 짧게 답해.";

/// Requests the full-vocabulary reference runs (of [`REQUESTS`]).
const FULL_VOCABULARY_REQUESTS: usize = 2;

const REQUESTS: [&str; 4] = [
    "아침 운동 습관을 찾아줘",
    "지금 진행 중인 습관 목록 보여줘",
    "3번 습관 오늘 했어. 기록해줘",
    "습관을 오래 유지하는 요령을 길게 설명해줘",
];

fn main() {
    let path = GemmaBackend::default_model_path();
    if !path.exists() {
        eprintln!(
            "model not found at {} — run scripts/fetch-model.sh or set GEMMA_MODEL",
            path.display()
        );
        std::process::exit(1);
    }
    let threads = std::env::var("GEMMA_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| GemmaOptions::default().threads);
    let options = GemmaOptions {
        threads,
        max_tokens_per_turn: 96,
        ..GemmaOptions::default()
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(runtime) => runtime,
        Err(e) => fail(&format!("tokio runtime: {e}")),
    };
    let tools = habit_tools();

    let backend =
        GemmaBackend::load(&path, options.clone()).unwrap_or_else(|e| fail(&e.to_string()));
    println!("model            {}", path.display());
    println!("format           {:?}, threads {threads}", backend.format());
    println!("load time        {:.0} ms", ms(backend.load_time()));
    // Other processes on a 2-core machine skew every figure; say how busy it was.
    println!("load average     {} (at start)", load_average());

    let bare = |choice| ChatConfig {
        instructions: String::new(),
        tools: tools.clone(),
        tool_choice: choice,
    };
    println!(
        "declarations     six habit tools: {} tokens (auto), {} tokens (required); with instructions: {}",
        backend.preamble_tokens(&bare(ToolChoice::Auto)),
        backend.preamble_tokens(&bare(ToolChoice::Required)),
        backend.preamble_tokens(&config(&tools, ToolChoice::Auto)),
    );

    // The full-vocabulary reference needs its own backend (the option is per model).
    let slow_backend = GemmaBackend::load(
        &path,
        GemmaOptions {
            constrained_sampling: ConstrainedSampling::FullVocabulary,
            ..options.clone()
        },
    )
    .unwrap_or_else(|e| fail(&e.to_string()));
    // Unconstrained (plain text, no grammar); constrained with the default fast path; and the
    // full-vocabulary pass for reference. Interleaved request by request, so that load from
    // other processes on the machine weighs on every variant alike.
    let variants: [(&GemmaBackend, ToolChoice); 4] = [
        (&backend, ToolChoice::None),
        (&backend, ToolChoice::Auto),
        (&backend, ToolChoice::Required),
        (&slow_backend, ToolChoice::Auto),
    ];
    let mut totals: [Totals; 4] = Default::default();
    for (i, request) in REQUESTS.iter().enumerate() {
        for (v, ((variant_backend, choice), total)) in
            variants.iter().zip(totals.iter_mut()).enumerate()
        {
            // The full-vocabulary reference costs up to a second per token once the grammar
            // has many live alternatives; two requests show the point.
            if v == 3 && i >= FULL_VOCABULARY_REQUESTS {
                continue;
            }
            measure(
                &runtime,
                variant_backend,
                &tools,
                *choice,
                request,
                i == 0,
                total,
            );
        }
    }
    drop(slow_backend);
    let [plain, auto, required, slow] = totals;

    let constrained = auto.merge(&required);
    println!();
    println!(
        "decode (tokens / generation time; {} requests each, {FULL_VOCABULARY_REQUESTS} for the full-vocab reference)",
        REQUESTS.len()
    );
    plain.print("unconstrained");
    auto.print("constrained auto");
    required.print("constrained required");
    slow.print("full-vocab grammar");
    println!(
        "ratio            constrained / unconstrained = {:.2} (target >= 0.80); full-vocab / unconstrained = {:.2}",
        constrained.rate() / plain.rate(),
        slow.rate() / plain.rate()
    );
    println!(
        "time to first token: first turn {:.0} ms (prefill {} tokens), later turns {:.0} ms on average",
        ms(auto.first_ttft),
        auto.first_prefill_tokens,
        ms(auto.later_ttft / auto.later_turns.max(1))
    );

    println!();
    println!("KV-cache reuse (auto mode, one conversation)");
    kv_reuse(&runtime, &backend, &tools);
    println!("load average     {} (at end)", load_average());
}

/// Totals over the requests, each in a fresh session.
#[derive(Default)]
struct Totals {
    tokens: usize,
    time: Duration,
    fast: usize,
    window: usize,
    slow: usize,
    first_ttft: Duration,
    first_prefill_tokens: usize,
    later_ttft: Duration,
    later_turns: u32,
}

impl Totals {
    fn rate(&self) -> f64 {
        let seconds = self.time.as_secs_f64();
        if seconds > 0.0 {
            self.tokens as f64 / seconds
        } else {
            0.0
        }
    }

    fn merge(&self, other: &Totals) -> Totals {
        Totals {
            tokens: self.tokens + other.tokens,
            time: self.time + other.time,
            ..Totals::default()
        }
    }

    fn print(&self, label: &str) {
        println!(
            "{label:<21}{:>6.1} tok/s  ({} tokens in {:.2} s; grammar: first pick accepted {}, window passes {}, full-vocab passes {})",
            self.rate(),
            self.tokens,
            self.time.as_secs_f64(),
            self.fast,
            self.window,
            self.slow
        );
    }
}

/// One request in a fresh session, then a short follow-up turn in the same session.
fn measure(
    runtime: &tokio::runtime::Runtime,
    backend: &GemmaBackend,
    tools: &[ToolDeclaration],
    choice: ToolChoice,
    request: &str,
    first: bool,
    totals: &mut Totals,
) {
    let mut session = backend
        .session(config(tools, choice))
        .unwrap_or_else(|e| fail(&e.to_string()));
    let turn = run(runtime, &mut session, request);
    totals.tokens += turn.generated_tokens;
    totals.time += turn.generation_time;
    totals.fast += turn.sampler.fast_accepts;
    totals.window += turn.sampler.window_passes;
    totals.slow += turn.sampler.full_vocabulary_passes;
    if first {
        totals.first_ttft = turn.time_to_first_token.unwrap_or_default();
        totals.first_prefill_tokens = turn.prompt_tokens_evaluated;
    }
    // Only the follow-up's own tokens are evaluated before its first token.
    let turn = run(runtime, &mut session, "고마워");
    totals.later_ttft += turn.time_to_first_token.unwrap_or_default();
    totals.later_turns += 1;
}

fn kv_reuse(runtime: &tokio::runtime::Runtime, backend: &GemmaBackend, tools: &[ToolDeclaration]) {
    let mut session = backend
        .session(config(tools, ToolChoice::Auto))
        .unwrap_or_else(|e| fail(&e.to_string()));
    println!("turn  input           appended  evaluated  ratio  context  kv-cache  generated");
    let print = |n: usize, input: &str, turn: &TurnStats| {
        println!(
            "{n:<6}{input:<16}{:>8}  {:>9}  {:>5.2}  {:>7}  {:>8}  {:>9}",
            turn.tokens_appended,
            turn.prompt_tokens_evaluated,
            turn.prompt_tokens_evaluated as f64 / turn.tokens_appended.max(1) as f64,
            turn.context_tokens,
            turn.kv_cache_tokens,
            turn.generated_tokens,
        );
    };
    let (events, turn) = run_events(
        runtime,
        &mut session,
        ChatInput::User("아침 운동 습관을 찾아줘"),
    );
    print(1, "user", &turn);
    let calls: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::FunctionCall(call) => Some(call.name.clone()),
            _ => None,
        })
        .collect();
    let results = if calls.is_empty() {
        vec![ToolResponse {
            name: "search_catalog".into(),
            result: sample_result(),
        }]
    } else {
        calls
            .into_iter()
            .map(|name| ToolResponse {
                name,
                result: sample_result(),
            })
            .collect()
    };
    let (_, turn) = run_events(runtime, &mut session, ChatInput::Results(results));
    print(2, "tool results", &turn);
    for (n, text) in [(3, "두 번째 걸로 할게"), (4, "고마워")] {
        let (_, turn) = run_events(runtime, &mut session, ChatInput::User(text));
        print(n, "user", &turn);
    }
}

fn sample_result() -> Value {
    json!({"status": "ok", "data": {"count": 2, "items": [
        {"id": "morning-walk", "title": "아침 산책 10분", "category": "운동"},
        {"id": "stretch", "title": "기상 후 스트레칭", "category": "운동"}
    ]}})
}

enum ChatInput<'a> {
    User(&'a str),
    Results(Vec<ToolResponse>),
}

fn run(runtime: &tokio::runtime::Runtime, session: &mut GemmaSession, text: &str) -> TurnStats {
    run_events(runtime, session, ChatInput::User(text)).1
}

fn run_events(
    runtime: &tokio::runtime::Runtime,
    session: &mut GemmaSession,
    input: ChatInput<'_>,
) -> (Vec<ChatEvent>, TurnStats) {
    let events: Vec<Result<ChatEvent, LlmError>> = runtime.block_on(async {
        let stream = match input {
            ChatInput::User(text) => session.send_user(text),
            ChatInput::Results(results) => session.send_tool_results(results),
        };
        stream.collect().await
    });
    let mut ok = Vec::new();
    for event in events {
        match event {
            Ok(event) => ok.push(event),
            Err(error) => eprintln!("  (turn ended with: {error})"),
        }
    }
    (ok, session.stats().last_turn)
}

fn config(tools: &[ToolDeclaration], tool_choice: ToolChoice) -> ChatConfig {
    ChatConfig {
        instructions: INSTRUCTIONS.to_owned(),
        tools: tools.to_vec(),
        tool_choice,
    }
}

/// The six habit tools exactly as the demo registers them (over an in-memory store).
fn habit_tools() -> Vec<ToolDeclaration> {
    let store = habit_tools::Store::open_in_memory()
        .unwrap_or_else(|e| fail(&format!("in-memory store: {e}")));
    let coach = habit_tools::Coach::with_system_clock(std::sync::Arc::new(store));
    habit_tools::registry_builder(coach)
        .build()
        .unwrap_or_else(|e| fail(&format!("habit registry: {e}")))
        .declarations()
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn fail(message: &str) -> ! {
    eprintln!("gemma bench: {message}");
    std::process::exit(1)
}
