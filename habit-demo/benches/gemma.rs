//! Speed of the Gemma backend on the habit coach (issue 12), printed as tables in one run with
//! one thread count:
//!
//! 1. **calls** — for each of the six habit tools, one typical request asked the way the agent
//!    asks it (`ToolChoice::Call` of that tool, the turn's value sets, the router's required
//!    arguments), in the coach's session (its preamble and channels): the call's tokens (how
//!    many of them forced), the wall time of writing it (name + arguments, with jump-forward
//!    and batched copies), the wall time of free-decoding as many tokens from the same context
//!    ([`GemmaSession::free_decode`]), their ratio (target ≤ 0.6, never above 1) and the
//!    effective tokens/s. Both times start once the input is evaluated; the inputs' own
//!    evaluation is printed below the table. The value sets are in the provider's order, not
//!    ranked by the request as the agent ranks them, so an argument may differ from the demo's.
//! 2. **raw speed** — the project's prefill and greedy decode (a session with no preamble, one
//!    input of about 480 tokens evaluated as one batch, then 128 tokens) against llama.cpp's
//!    own C API on the same counts and threads (`minibench`, below), run between our
//!    repetitions; the ratio is the median of the per-pair ratios: target ≥ 0.95×.
//! 3. **first token** — of a new conversation, from asking for it (a new session, or `/new`)
//!    to the first text its first reply streams (a text turn): the first conversation after
//!    load (preamble evaluated), `/new`, another session of the loaded model (preamble from
//!    memory), a restart (model loaded again in this process, so only the cache file can
//!    help: also the first conversation of an app after `habit-demo prepare`); then with the file cache off; then a first conversation whose session started in
//!    the background (as the demo starts it, while the person types), asked once it is
//!    ready. Target ≤ 0.3 s. Model loading is not included (it
//!    is printed apart), nor the agent's tool-choice scoring.
//! 4. **threads** — prefill and decode at 1 and 2 threads, project and C.
//! 5. **busy machine** — the same prefill and decode with the default thread setting
//!    ([`Threads::Auto`]) and with each fixed count, first idle, then beside one busy-looping
//!    process per core (children of this bench, stopped after the section): the time of
//!    the section-2 workload (prefill + decode) loaded as a multiple of idle; target ≤ 3×
//!    for the default.
//!
//! Every figure is the median of `BENCH_REPS` repetitions. Figures taken while other processes
//! run (a build, a test) are not figures: the load average is printed at the start and end.
//!
//! Run `scripts/bench.sh` (builds the C reference, then this), or
//! `cargo bench -p habit-demo --bench gemma`. Environment:
//! - `GEMMA_MODEL` — the GGUF (default: the cache of `scripts/fetch-model.sh`);
//! - `GEMMA_THREADS` — threads for sections 1–3 (default: the library's default, `auto`);
//! - `BENCH_REPS` — repetitions (default 5; 3 for section 3, which reloads the model);
//! - `BENCH_QUICK=1` — one repetition and short decodes: a smoke test of the bench itself;
//! - `BENCH_ONLY=calls,raw,first,threads,busy` — the sections to run;
//! - `MINIBENCH` — the C reference's binary (default `/tmp/minibench/minibench`); when it is
//!   missing it is built with `MINIBENCH_BUILD` (default `../shared/bench/build-minibench.sh`
//!   beside the workspace) against the llama.cpp of the locked `llama-cpp-sys-2`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agent_core::choice::{Chooser, NoModel, Strategy};
use agent_core::llm::gemma::{
    GemmaBackend, GemmaOptions, GemmaSession, PrefixCache, PrefixSource, Threads, TurnStats,
};
use agent_core::{
    ApproveAll, ChatConfig, ChatEvent, ChatSession, Dispatcher, Registry, ToolCall, ToolChoice,
    TurnInput, TurnRequest,
};
use futures::StreamExt;
use habit_tools::COACH_INSTRUCTIONS;

// The eval's seeded store, one file for both (see its module doc).
#[path = "../examples/eval/world.rs"]
mod world;

/// One typical request per tool (from the eval's dev set), in `TOOL_NAMES` order.
const CALLS: [(&str, &str); 6] = [
    ("search_catalog", "집중력 높이는 습관 검색해줘"),
    ("query_protocol", "diet.16-8-fasting 상세 정보 부탁해요"),
    ("list_active_habits", "내 습관 보여줘"),
    ("get_streak", "1번 습관 연속 기록 알려줘"),
    (
        "add_habit",
        "채소 먼저 먹기 습관으로 등록할게요. 점심 먹을 때 샐러드부터 먹기",
    ),
    ("log_tracker_entry", "오늘 걷기 했어!"),
];

/// The first message of the conversations of section 3.
const FIRST_MESSAGE: &str = "오늘 걷기 했어!";

/// Input tokens of the raw-speed prefill: one llama.cpp batch (the default batch is 512).
const RAW_PROMPT_TOKENS: usize = 480;

/// Set in the bench's own children that play the other processes of section 5.
const HOG_ENV: &str = "AGENT_RS_BENCH_HOG";

fn main() {
    if let Ok(parent) = std::env::var(HOG_ENV) {
        hog(parent.parse().unwrap_or(0));
    }
    let settings = Settings::from_env();
    let path = GemmaBackend::default_model_path();
    if !path.exists() {
        fail(&format!(
            "model not found at {} — run scripts/fetch-model.sh or set GEMMA_MODEL",
            path.display()
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    println!("gemma bench · {}", path.display());
    println!(
        "commit {} · threads {} · {} repetitions (median){} · load average {}",
        commit(),
        settings.threads,
        settings.reps,
        if settings.quick {
            " · BENCH_QUICK: a smoke test, not figures"
        } else {
            ""
        },
        load_average()
    );
    let reference = (settings.wants("raw") || settings.wants("threads"))
        .then(reference_binary)
        .flatten();
    let mut raw_rows: Vec<RawRow> = Vec::new();
    if settings.wants("calls") {
        calls(&runtime, &path, &settings);
    }
    if settings.wants("raw") {
        let row = raw_row(
            &runtime,
            &path,
            settings.threads,
            &settings,
            reference.as_deref(),
        );
        print_raw(&row);
        raw_rows.push(row);
    }
    if settings.wants("first") {
        first_token(&runtime, &path, &settings);
    }
    if settings.wants("threads") {
        println!();
        println!("4. threads: prefill and decode tok/s (same counts as section 2)");
        println!("   (C runs with the count the project's session chose)");
        println!(
            "{:<9}{:>16}{:>12}{:>8}{:>16}{:>12}{:>8}",
            "threads", "prefill (ours)", "C", "ratio", "decode (ours)", "C", "ratio"
        );
        for threads in [1, 2] {
            let row = match raw_rows.iter().position(|r| r.threads == threads) {
                Some(i) => raw_rows.swap_remove(i),
                None => raw_row(
                    &runtime,
                    &path,
                    Threads::from_count(threads),
                    &settings,
                    reference.as_deref(),
                ),
            };
            let (c_prefill, c_decode) = row
                .reference
                .as_ref()
                .map_or((f64::NAN, f64::NAN), |r| (r.prefill, r.decode));
            println!(
                "{:<9}{:>16.1}{:>12.1}{:>8.2}{:>16.1}{:>12.1}{:>8.2}",
                threads,
                row.prefill,
                c_prefill,
                row.prefill / c_prefill,
                row.decode,
                c_decode,
                row.decode / c_decode
            );
        }
    }
    if settings.wants("busy") {
        busy(&runtime, &path, &settings);
    }
    println!();
    println!("load average at the end {}", load_average());
}

/// What the environment asks for; see the module doc.
struct Settings {
    threads: Threads,
    reps: usize,
    quick: bool,
    only: Option<Vec<String>>,
}

impl Settings {
    fn from_env() -> Self {
        let quick = std::env::var("BENCH_QUICK").is_ok_and(|v| v == "1");
        let number = |name: &str| {
            std::env::var(name).ok().map(|v| {
                v.parse::<usize>()
                    .ok()
                    .filter(|n| *n > 0)
                    .unwrap_or_else(|| fail(&format!("{name}={v}: expected a positive number")))
            })
        };
        let threads = number("GEMMA_THREADS")
            .map_or_else(|| GemmaOptions::default().threads, Threads::from_count);
        let reps = number("BENCH_REPS").unwrap_or(if quick { 1 } else { 5 });
        let only = std::env::var("BENCH_ONLY")
            .ok()
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
        Self {
            threads,
            reps,
            quick,
            only,
        }
    }

    fn wants(&self, section: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|s| s == section))
    }

    /// Tokens decoded for the raw speed.
    fn decode_tokens(&self) -> usize {
        if self.quick { 32 } else { 128 }
    }

    /// Options for a model in this bench: the thread count, and a prefix cache that never
    /// touches the user's.
    fn options(&self, threads: Threads, cache: PrefixCache) -> GemmaOptions {
        let mut options = GemmaOptions::default();
        options.threads = threads;
        options.prefix_cache = cache;
        options
    }
}

// ---------------------------------------------------------------------------------------------
// 1. calls

/// Medians of one tool's repetitions.
struct CallRow {
    tool: &'static str,
    call: Option<ToolCall>,
    /// The input's tokens (request, turn markers, value hints).
    input_tokens: usize,
    tokens: usize,
    forced: usize,
    call_time: Duration,
    free_time: Duration,
    call_input: Duration,
    free_input: Duration,
    sampler: String,
    error: Option<String>,
}

fn calls(runtime: &tokio::runtime::Runtime, path: &Path, settings: &Settings) {
    let cache = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("temporary dir: {e}")));
    let backend = load(
        path,
        settings.options(settings.threads, PrefixCache::Dir(cache.path().into())),
    );
    let registry = seeded_registry();
    let mut session = backend
        .session(ChatConfig::new(COACH_INSTRUCTIONS, &registry))
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let dispatcher = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    let chooser = Chooser::new(&registry).with_strategy(Strategy::Router);
    let mut rows = Vec::new();
    for (tool, text) in CALLS {
        eprintln!("[bench] calls: {tool}");
        let plan = match runtime.block_on(chooser.clone().plan(text, &dispatcher, &mut NoModel)) {
            Ok(plan) => plan,
            Err(never) => match never {},
        };
        let decision = plan.decision;
        let require = if decision.plan.first().is_some_and(|t| t == tool) {
            decision.arguments.first().cloned().unwrap_or_default()
        } else {
            Vec::new()
        };
        let request = TurnRequest {
            input: TurnInput::User(text.to_owned()),
            tool_choice: ToolChoice::Call(vec![tool.to_owned()]),
            // As the agent narrows them: `from_request` values to what the request mentions.
            values: Arc::new(agent_core::choice::values_for(&dispatcher, text)),
            require,
            quote: text.to_owned(),
            // The coach's texts are all `from_request`: none is narrowed further.
            copy_sources: Default::default(),
            examples: Vec::new(),
        };
        rows.push(call_row(
            runtime,
            &mut session,
            tool,
            &request,
            settings.reps,
        ));
    }

    println!();
    println!(
        "1. tool calls: constrained call (name + arguments, jump-forward, copies of the request verified in batches) vs free decoding of as many tokens, same context"
    );
    println!(
        "{:<19}{:>8}{:>8}{:>10}{:>10}{:>8}{:>11}{:>11}   verdict",
        "tool", "tokens", "forced", "call ms", "free ms", "ratio", "call tok/s", "free tok/s"
    );
    let (mut call_total, mut free_total) = (Duration::ZERO, Duration::ZERO);
    let (mut call_input, mut free_input) = (Duration::ZERO, Duration::ZERO);
    for row in &rows {
        if let Some(error) = &row.error {
            println!("{:<19}failed: {error}", row.tool);
            continue;
        }
        call_total += row.call_time;
        free_total += row.free_time;
        call_input += row.call_input;
        free_input += row.free_input;
        let ratio = secs(row.call_time) / secs(row.free_time);
        println!(
            "{:<19}{:>8}{:>8}{:>10.1}{:>10.1}{:>8.2}{:>11.1}{:>11.1}   {}",
            row.tool,
            row.tokens,
            row.forced,
            ms(row.call_time),
            ms(row.free_time),
            ratio,
            row.tokens as f64 / secs(row.call_time),
            row.tokens as f64 / secs(row.free_time),
            verdict(ratio <= 0.6, ratio <= 1.0),
        );
    }
    let ratio = secs(call_total) / secs(free_total);
    println!(
        "{:<19}{:>8}{:>8}{:>10.1}{:>10.1}{:>8.2}{:>11}{:>11}   {}",
        "all six",
        "",
        "",
        ms(call_total),
        ms(free_total),
        ratio,
        "",
        "",
        verdict(ratio <= 0.6, ratio <= 1.0)
    );
    println!(
        "target: ratio ≤ 0.60, never above 1.00. Not in the ratio: evaluating the inputs before the replies, {:.1} ms in all before the calls (building their constraints included) and {:.1} ms before free decoding.",
        ms(call_input),
        ms(free_input)
    );
    println!(
        "calls written, with their input's tokens and the constrained sampler's paths (first pick / window / full vocabulary; request tokens kept of those drafted):"
    );
    for row in rows.iter().filter(|r| r.error.is_none()) {
        let call = row.call.as_ref().map_or_else(
            || "(no call)".to_owned(),
            |c| format!("{}({})", c.name, c.args),
        );
        println!(
            "  {call}  [input {} tokens; {}]",
            row.input_tokens, row.sampler
        );
    }
}

/// One tool: each repetition writes the call once and free-decodes once, alternating which
/// goes first (the call, in the first, to learn its length), so a change in the machine's
/// load weighs on both.
fn call_row(
    runtime: &tokio::runtime::Runtime,
    session: &mut GemmaSession,
    tool: &'static str,
    request: &TurnRequest,
    reps: usize,
) -> CallRow {
    let mut row = CallRow {
        tool,
        call: None,
        input_tokens: 0,
        tokens: 0,
        forced: 0,
        call_time: Duration::ZERO,
        free_time: Duration::ZERO,
        call_input: Duration::ZERO,
        free_input: Duration::ZERO,
        sampler: String::new(),
        error: None,
    };
    let (mut call_times, mut free_times) = (Vec::new(), Vec::new());
    let (mut call_inputs, mut free_inputs) = (Vec::new(), Vec::new());
    for rep in 0..reps {
        for call_first in [rep % 2 == 0, rep % 2 == 1] {
            if call_first {
                session.clear();
                let turn = run_turn(runtime, session, request.clone(), Instant::now());
                if let Some(error) = turn.error {
                    row.error = Some(error);
                    return row;
                }
                let Some(call) = turn.call else {
                    row.error = Some(format!("no call; the model wrote {:?}", turn.text));
                    return row;
                };
                let stats = turn.stats;
                row.input_tokens = stats.tokens_appended;
                row.tokens = stats.generated_tokens();
                row.forced = stats.forced_tokens;
                row.sampler = format!(
                    "{} / {} / {}; drafts {}/{}",
                    stats.sampler.fast_accepts,
                    stats.sampler.window_passes,
                    stats.sampler.full_vocabulary_passes,
                    stats.sampler.draft_accepted,
                    stats.sampler.draft_tokens
                );
                row.call = Some(call);
                call_times.push(stats.generation_time);
                call_inputs.push(stats.prefill_time);
            } else if row.tokens > 0 {
                // From the same context as the call: the preamble, then this input.
                session.clear();
                let stats = runtime
                    .block_on(session.free_decode(request.clone(), row.tokens))
                    .unwrap_or_else(|e| fail(&format!("free decoding for {tool}: {e}")));
                free_times.push(stats.generation_time);
                free_inputs.push(stats.prefill_time);
            }
        }
    }
    row.call_time = median(&mut call_times);
    row.free_time = median(&mut free_times);
    row.call_input = median(&mut call_inputs);
    row.free_input = median(&mut free_inputs);
    row
}

// ---------------------------------------------------------------------------------------------
// 2. and 4. raw speed

/// The project's and the reference's prefill and decode at one thread count.
struct RawRow {
    threads: usize,
    /// The bare session's preamble (`<bos>` and the format's frame), before the input.
    preamble_tokens: usize,
    prompt_tokens: usize,
    decode_tokens: usize,
    prefill: f64,
    decode: f64,
    reference: Option<Reference>,
    reference_error: Option<String>,
}

/// The C reference's medians, and the medians of our rates over its in the same pair of
/// runs (see [`raw_row`]; a single `run_reference` leaves the ratios at 0).
struct Reference {
    load: f64,
    prefill: f64,
    decode: f64,
    prefill_ratio: f64,
    decode_ratio: f64,
}

/// Prefill and decode in a session with no preamble, so both start where llama.cpp's C
/// program starts: at the beginning of the context. Decoding asks for one token more than
/// it times, because the C program samples its first token before its clock starts.
fn raw_row(
    runtime: &tokio::runtime::Runtime,
    path: &Path,
    setting: Threads,
    settings: &Settings,
    reference: Option<&Path>,
) -> RawRow {
    eprintln!("[bench] raw speed, threads {setting}: ours");
    let backend = load(path, settings.options(setting, PrefixCache::Off));
    let mut session = backend
        .session(ChatConfig::default())
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let preamble_tokens = session.stats().preamble_tokens;
    let threads = session.stats().threads;
    let text = long_input(&backend, RAW_PROMPT_TOKENS);
    let request = TurnRequest::user(text).with_choice(ToolChoice::None);
    let decode_tokens = settings.decode_tokens();
    let (mut prefill, mut decode) = (Vec::new(), Vec::new());
    // The C reference runs between our repetitions, so both see the same moments of a
    // machine whose speed drifts (seen here: the same program 20 % apart a minute later);
    // the ratios are taken per pair.
    let (mut c_prefill, mut c_decode, mut c_load) = (Vec::new(), Vec::new(), Vec::new());
    let (mut prefill_ratios, mut decode_ratios) = (Vec::new(), Vec::new());
    let mut reference_error = None;
    let mut prompt_tokens = 0;
    for _ in 0..settings.reps {
        let stats = runtime
            .block_on(session.free_decode(request.clone(), decode_tokens + 1))
            .unwrap_or_else(|e| fail(&format!("free decoding: {e}")));
        prompt_tokens = stats.tokens_appended;
        let ours_prefill = prompt_tokens as f64 / secs(stats.prefill_time);
        let ours_decode = decode_tokens as f64 / secs(stats.generation_time);
        prefill.push(ours_prefill);
        decode.push(ours_decode);
        let Some(binary) = reference else {
            reference_error = Some("no C reference (see MINIBENCH)".to_owned());
            continue;
        };
        eprintln!("[bench] raw speed, {threads} threads: C reference");
        // Three repetitions in one process, their median: its first is a cold start.
        match run_reference(binary, path, prompt_tokens, decode_tokens, threads, 3) {
            Ok(r) => {
                prefill_ratios.push(ours_prefill / r.prefill);
                decode_ratios.push(ours_decode / r.decode);
                c_prefill.push(r.prefill);
                c_decode.push(r.decode);
                c_load.push(r.load);
            }
            Err(e) => reference_error = Some(e),
        }
    }
    drop(session);
    drop(backend);
    let reference = (!c_prefill.is_empty() && reference_error.is_none()).then(|| Reference {
        load: median_f64(&mut c_load),
        prefill: median_f64(&mut c_prefill),
        decode: median_f64(&mut c_decode),
        prefill_ratio: median_f64(&mut prefill_ratios),
        decode_ratio: median_f64(&mut decode_ratios),
    });
    RawRow {
        threads,
        preamble_tokens,
        prompt_tokens,
        decode_tokens,
        prefill: median_f64(&mut prefill),
        decode: median_f64(&mut decode),
        reference,
        reference_error,
    }
}

fn print_raw(row: &RawRow) {
    println!();
    println!(
        "2. raw speed, {} threads: prefill of {} tokens (one batch; ours after a {}-token frame), then greedy decode of {} tokens",
        row.threads, row.prompt_tokens, row.preamble_tokens, row.decode_tokens
    );
    println!("{:<34}{:>14}{:>14}", "", "prefill tok/s", "decode tok/s");
    println!(
        "{:<34}{:>14.1}{:>14.1}",
        "agent-rs (GemmaSession)", row.prefill, row.decode
    );
    match (&row.reference, &row.reference_error) {
        (Some(reference), _) => {
            println!(
                "{:<34}{:>14.1}{:>14.1}   (load {:.2} s)",
                "llama.cpp C API (minibench)", reference.prefill, reference.decode, reference.load
            );
            let (prefill, decode) = (reference.prefill_ratio, reference.decode_ratio);
            println!(
                "{:<34}{:>14.2}{:>14.2}   target ≥ 0.95: prefill {}, decode {}",
                "ratio (median of paired runs)",
                prefill,
                decode,
                verdict(prefill >= 0.95, true),
                verdict(decode >= 0.95, true)
            );
        }
        (None, error) => println!(
            "{:<34}{}",
            "llama.cpp C API",
            error.as_deref().unwrap_or("not run")
        ),
    }
}

/// A Korean text of about `tokens` tokens as an input (turn markers included).
fn long_input(backend: &GemmaBackend, tokens: usize) -> String {
    const SENTENCES: [&str; 4] = [
        "작은 습관은 매일 같은 시간에 같은 자리에서 시작하면 오래 갑니다. ",
        "하루를 빠뜨려도 다음 날 다시 하면 흐름은 끊기지 않아요. ",
        "아침 커피를 내린 뒤 10분 걷기처럼 이미 하는 일에 붙이면 쉽습니다. ",
        "기록을 남기면 내가 얼마나 해 왔는지 한눈에 보여서 힘이 납니다. ",
    ];
    // The turn markers around a user message.
    let budget = tokens.saturating_sub(8);
    let mut text = String::new();
    for sentence in SENTENCES.iter().cycle() {
        let longer = format!("{text}{sentence}");
        if backend.count_tokens(&longer) > budget {
            break;
        }
        text = longer;
    }
    text
}

// ---------------------------------------------------------------------------------------------
// 3. first token

/// One way of starting a conversation, measured.
#[derive(Default)]
struct FirstRow {
    /// The preamble's tokens and the number of channels, of the last new session.
    shape: (usize, usize),
    preamble: Vec<(PrefixSource, Duration)>,
    channels: Vec<(PrefixSource, Duration)>,
    start: Vec<Duration>,
    ttft: Vec<Duration>,
    total: Vec<Duration>,
}

impl FirstRow {
    /// Records a conversation whose session took `start` to be ready and its first `turn`;
    /// `fresh` for a new session (whose prefixes were just restored or evaluated).
    fn record(&mut self, session: &GemmaSession, start: Duration, turn: &Turn, fresh: bool) {
        if let Some(error) = &turn.error {
            fail(&format!("first turn: {error}"));
        }
        let stats = session.stats();
        if fresh {
            self.shape = (stats.preamble_tokens, stats.channels);
            self.preamble
                .push((stats.preamble_source, stats.preamble_time));
            self.channels
                .push((stats.channels_source, stats.channels_time));
        }
        self.start.push(start);
        self.ttft
            .push(turn.stats.time_to_first_token.unwrap_or_default());
        self.total.push(turn.first_event.unwrap_or_default());
    }
}

/// Starts a session of `backend`, times it, and runs the first turn.
fn new_conversation(
    runtime: &tokio::runtime::Runtime,
    backend: &GemmaBackend,
    config: &ChatConfig,
    row: &mut FirstRow,
) -> GemmaSession {
    let began = Instant::now();
    let mut session = backend
        .session(config.clone())
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let start = began.elapsed();
    let turn = run_turn(runtime, &mut session, first_request(), began);
    row.record(&session, start, &turn, true);
    session
}

/// A new session started in the background, as the demo starts one (see
/// [`GemmaBackend::session_in_background`]): `start` is the time until it is ready, which a
/// person spends typing; the turn is timed from the request, sent once it is.
fn background_conversation(
    runtime: &tokio::runtime::Runtime,
    backend: &GemmaBackend,
    config: &ChatConfig,
    row: &mut FirstRow,
) {
    let began = Instant::now();
    let mut session = backend
        .session_in_background(config.clone())
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    runtime
        .block_on(session.ready())
        .unwrap_or_else(|e| fail(&format!("session start: {e}")));
    let start = began.elapsed();
    let turn = run_turn(runtime, &mut session, first_request(), Instant::now());
    row.record(&session, start, &turn, true);
}

/// `/new` in the demo: the agent clears its session.
fn clear_conversation(
    runtime: &tokio::runtime::Runtime,
    session: &mut GemmaSession,
    row: &mut FirstRow,
) {
    let began = Instant::now();
    session.clear();
    let turn = run_turn(runtime, session, first_request(), began);
    row.record(session, Duration::ZERO, &turn, false);
}

fn first_request() -> TurnRequest {
    TurnRequest::user(FIRST_MESSAGE).with_choice(ToolChoice::None)
}

fn first_token(runtime: &tokio::runtime::Runtime, path: &Path, settings: &Settings) {
    let registry = seeded_registry();
    let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
    // Each repetition loads the model four times; three are plenty.
    let reps = settings.reps.min(3);
    let names = [
        "first conversation after load",
        "/new (clear)",
        "another session (memory)",
        "after prepare, restart (file)",
        "first conversation after load",
        "/new (clear)",
        "restart (no file)",
        "first conversation after load",
    ];
    let mut rows: Vec<FirstRow> = names.iter().map(|_| FirstRow::default()).collect();
    let mut loads = Vec::new();
    for rep in 0..reps {
        eprintln!("[bench] first token: repetition {}/{reps}", rep + 1);
        let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("temporary dir: {e}")));
        let on = settings.options(settings.threads, PrefixCache::Dir(dir.path().into()));
        let off = settings.options(settings.threads, PrefixCache::Off);
        for (options, first) in [(on, 0), (off, 4)] {
            let backend = load(path, options.clone());
            loads.push(backend.load_time());
            let mut session = new_conversation(runtime, &backend, &config, &mut rows[first]);
            clear_conversation(runtime, &mut session, &mut rows[first + 1]);
            let restart = if first == 0 {
                let other = new_conversation(runtime, &backend, &config, &mut rows[2]);
                drop(other);
                3
            } else {
                6
            };
            // Everything of the first model goes, so only the file can help the next one.
            drop(session);
            drop(backend);
            let backend = load(path, options);
            loads.push(backend.load_time());
            drop(new_conversation(
                runtime,
                &backend,
                &config,
                &mut rows[restart],
            ));
        }
        // The demo's way: an empty cache file's folder, the session started in the
        // background.
        let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("temporary dir: {e}")));
        let backend = load(
            path,
            settings.options(settings.threads, PrefixCache::Dir(dir.path().into())),
        );
        loads.push(backend.load_time());
        background_conversation(runtime, &backend, &config, &mut rows[7]);
    }
    println!();
    println!(
        "3. first token of a new conversation (from asking for it to the first token of the reply to {FIRST_MESSAGE:?}; model load of {:.2} s not included)",
        secs(median(&mut loads))
    );
    let (preamble_tokens, channels) = rows[0].shape;
    println!(
        "the coach's preamble is {preamble_tokens} tokens; {channels} tool-choice channels; times in ms"
    );
    println!(
        "{:<32}{:>18}{:>18}{:>10}{:>10}{:>10}   ≤ 300 ms",
        "", "preamble", "channels", "start", "TTFT", "total"
    );
    for (i, (name, row)) in names.iter().zip(&mut rows).enumerate() {
        if i == 0 {
            println!("prefix cache in a file:");
        } else if i == 4 {
            println!("prefix cache off (memory only):");
        } else if i == 7 {
            println!(
                "started in the background (as the demo does; no cache file yet), the request sent once it is ready:"
            );
        }
        let total = median(&mut row.total);
        println!(
            "  {:<30}{:>18}{:>18}{:>10.1}{:>10.1}{:>10.1}   {}",
            name,
            prefix(&row.preamble),
            prefix(&row.channels),
            ms(median(&mut row.start)),
            ms(median(&mut row.ttft)),
            ms(total),
            verdict(total <= Duration::from_millis(300), true)
        );
    }
    println!(
        "start: the session's creation (its context, preamble and tool-choice channels); TTFT: the turn's own time to its first token; total: both, as the user waits."
    );
    println!(
        "in the background the start runs while the person reads the prompt and types: total is what they wait if they send the request {:.1} s or more after the model loaded; sooner, the rest of the start too.",
        secs(median(&mut rows[7].start.clone()))
    );
}

/// "memory 12.3", the (last) source and median time of a prefix.
fn prefix(entries: &[(PrefixSource, Duration)]) -> String {
    let Some(&(source, _)) = entries.last() else {
        return "-".to_owned();
    };
    let mut times: Vec<Duration> = entries.iter().map(|e| e.1).collect();
    let name = match source {
        PrefixSource::Evaluated => "evaluated",
        PrefixSource::Memory => "memory",
        PrefixSource::File => "file",
        _ => "other",
    };
    format!("{name} {:.1}", ms(median(&mut times)))
}

// ---------------------------------------------------------------------------------------------
// Shared

/// What one turn did.
struct Turn {
    stats: TurnStats,
    /// From the caller's `since` to the turn's first event.
    first_event: Option<Duration>,
    call: Option<ToolCall>,
    text: String,
    error: Option<String>,
}

fn run_turn(
    runtime: &tokio::runtime::Runtime,
    session: &mut GemmaSession,
    request: TurnRequest,
    since: Instant,
) -> Turn {
    let (mut first_event, mut call, mut text, mut error) = (None, None, String::new(), None);
    runtime.block_on(async {
        let mut events = session.turn(request);
        while let Some(event) = events.next().await {
            first_event.get_or_insert_with(|| since.elapsed());
            match event {
                Ok(ChatEvent::Call(c)) => call = Some(c),
                Ok(ChatEvent::TextDelta(delta)) => text.push_str(&delta),
                Ok(_) => {}
                Err(e) => error = Some(e.to_string()),
            }
        }
    });
    Turn {
        stats: session.stats().last_turn,
        first_event,
        call,
        text,
        error,
    }
}

// ---------------------------------------------------------------------------------------------
// 5. busy machine

/// Section 5: the raw workload with each thread setting, idle and beside one busy process per
/// core; the default's loaded time as a multiple of its idle time.
fn busy(runtime: &tokio::runtime::Runtime, path: &Path, settings: &Settings) {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    let setups: Vec<Threads> = std::iter::once(Threads::Auto)
        .chain((1..=cores).map(Threads::from_count))
        .collect();
    let run = |label: &str| -> Vec<RawRow> {
        setups
            .iter()
            .map(|&setting| {
                eprintln!("[bench] busy machine ({label}), threads {setting}");
                raw_row(runtime, path, setting, settings, None)
            })
            .collect()
    };
    let idle = run("idle");
    let hogs = Hogs::start(cores);
    let loaded = run(&format!("{cores} busy processes"));
    drop(hogs);
    println!();
    println!(
        "5. busy machine: section 2's workload idle, then beside {cores} busy-looping processes (one per core)"
    );
    println!(
        "{:<10}{:>9}{:>18}{:>18}{:>20}{:>8}",
        "setting", "threads", "prefill tok/s", "decode tok/s", "workload s", "ratio"
    );
    println!(
        "{:<10}{:>9}{:>18}{:>18}{:>20}",
        "", "idle/busy", "idle / busy", "idle / busy", "idle / busy"
    );
    for ((setting, idle), loaded) in setups.iter().zip(&idle).zip(&loaded) {
        let (idle_s, loaded_s) = (workload_secs(idle), workload_secs(loaded));
        let ratio = loaded_s / idle_s;
        let mark = if *setting == Threads::Auto {
            if ratio <= 3.0 {
                "  ✓ default ≤ 3×"
            } else {
                "  ✗ default > 3×"
            }
        } else {
            ""
        };
        println!(
            "{:<10}{:>9}{:>18}{:>18}{:>20}{:>8.2}{mark}",
            setting.to_string(),
            format!("{}/{}", idle.threads, loaded.threads),
            format!("{:.1} / {:.1}", idle.prefill, loaded.prefill),
            format!("{:.1} / {:.1}", idle.decode, loaded.decode),
            format!("{idle_s:.2} / {loaded_s:.2}"),
            ratio
        );
    }
}

/// Seconds of one prefill and decode of section 2's counts at a row's rates.
fn workload_secs(row: &RawRow) -> f64 {
    row.prompt_tokens as f64 / row.prefill + row.decode_tokens as f64 / row.decode
}

/// Busy-looping children of this bench, killed when dropped.
struct Hogs(Vec<std::process::Child>);

impl Hogs {
    fn start(count: usize) -> Self {
        let exe = std::env::current_exe().unwrap_or_else(|e| fail(&format!("own binary: {e}")));
        let children = (0..count)
            .map(|_| {
                Command::new(&exe)
                    .env(HOG_ENV, std::process::id().to_string())
                    .spawn()
                    .unwrap_or_else(|e| fail(&format!("could not start a busy process: {e}")))
            })
            .collect();
        // Let them reach the scheduler's steady state before anything is timed.
        std::thread::sleep(Duration::from_millis(500));
        Self(children)
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What a child started by [`Hogs`] does until it is killed — or until the bench that
/// started it is gone (it may end through [`fail`], which skips `Drop`): a hog must never
/// outlive its bench.
fn hog(parent: u32) -> ! {
    let mut n: u64 = 0;
    loop {
        for _ in 0..50_000_000 {
            n = std::hint::black_box(n.wrapping_add(1));
        }
        if std::os::unix::process::parent_id() != parent {
            std::process::exit(0);
        }
    }
}

fn load(path: &Path, options: GemmaOptions) -> GemmaBackend {
    GemmaBackend::load(path, options).unwrap_or_else(|e| fail(&e.to_string()))
}

/// The nine tools over the eval's world (`examples/eval/world.rs`), today 2025-03-10, with
/// habit 1 done on 2025-03-09 only, not on the eval's two days: the figures of issue 12 were
/// taken on this store.
fn seeded_registry() -> Arc<Registry> {
    world::seeded_registry(&["2025-03-09"]).unwrap_or_else(|e| fail(&e))
}

/// The C reference's binary: `$MINIBENCH`, or the build script's default output, built when
/// missing if the script is there.
fn reference_binary() -> Option<PathBuf> {
    if let Some(binary) = std::env::var_os("MINIBENCH").filter(|v| !v.is_empty()) {
        let binary = PathBuf::from(binary);
        if binary.is_file() {
            return Some(binary);
        }
        eprintln!("[bench] MINIBENCH={} is not a file", binary.display());
        return None;
    }
    let default = PathBuf::from("/tmp/minibench/minibench");
    if default.is_file() {
        return Some(default);
    }
    let script = std::env::var_os("MINIBENCH_BUILD")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/build-minibench.sh")
        });
    if !script.is_file() {
        eprintln!(
            "[bench] no C reference: {} not found (set MINIBENCH or MINIBENCH_BUILD)",
            script.display()
        );
        return None;
    }
    eprintln!(
        "[bench] building the C reference with {} (the first build compiles llama.cpp: minutes)",
        script.display()
    );
    let mut command = Command::new("bash");
    command.arg(&script);
    if std::env::var_os("LLAMA_SRC").is_none()
        && let Some(source) = locked_llama_source()
    {
        command.env("LLAMA_SRC", source);
    }
    match command.output() {
        Ok(output) if output.status.success() => String::from_utf8_lossy(&output.stdout)
            .lines()
            .last()
            .map(|line| PathBuf::from(line.trim()))
            .filter(|p| p.is_file()),
        Ok(output) => {
            eprintln!(
                "[bench] building the C reference failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("[bench] could not run {}: {e}", script.display());
            None
        }
    }
}

/// The llama.cpp tree of the `llama-cpp-sys-2` that `Cargo.lock` pins, in cargo's registry.
fn locked_llama_source() -> Option<PathBuf> {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"))
        .ok()?;
    let version = lock
        .split("[[package]]")
        .find(|entry| entry.contains("name = \"llama-cpp-sys-2\""))?
        .lines()
        .find_map(|line| line.strip_prefix("version = "))?
        .trim_matches('"')
        .to_owned();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    std::fs::read_dir(cargo_home.join("registry/src"))
        .ok()?
        .flatten()
        .map(|index| {
            index
                .path()
                .join(format!("llama-cpp-sys-2-{version}/llama.cpp"))
        })
        .find(|p| p.is_dir())
}

/// Runs the C reference; its medians.
fn run_reference(
    binary: &Path,
    model: &Path,
    prompt: usize,
    decode: usize,
    threads: usize,
    reps: usize,
) -> Result<Reference, String> {
    let output = Command::new(binary)
        .arg(model)
        .args([prompt, decode, threads, reps].map(|n| n.to_string()))
        .output()
        .map_err(|e| format!("could not run {}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        return Err(format!("{} failed: {last}", binary.display()));
    }
    // `load_s 0.812` then `rep 0 pp480_tok_s 612.3 tg128_tok_s 58.1` per repetition.
    let (mut load, mut prefill, mut decoded) = (Vec::new(), Vec::new(), Vec::new());
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let value = pair[1].parse::<f64>();
            match (pair[0], value) {
                ("load_s", Ok(v)) => load.push(v),
                (key, Ok(v)) if key.starts_with("pp") && key.ends_with("_tok_s") => {
                    prefill.push(v);
                }
                (key, Ok(v)) if key.starts_with("tg") && key.ends_with("_tok_s") => {
                    decoded.push(v);
                }
                _ => {}
            }
        }
    }
    if prefill.is_empty() || decoded.is_empty() {
        return Err(format!(
            "unexpected output from {}: {stdout}",
            binary.display()
        ));
    }
    Ok(Reference {
        load: median_f64(&mut load),
        prefill: median_f64(&mut prefill),
        decode: median_f64(&mut decoded),
        prefill_ratio: 0.0,
        decode_ratio: 0.0,
    })
}

fn verdict(target: bool, bound: bool) -> &'static str {
    match (target, bound) {
        (true, true) => "✓",
        (false, true) => "✗ misses the target",
        (_, false) => "✗ slower than free decoding",
    }
}

fn median(values: &mut [Duration]) -> Duration {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

fn median_f64(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn secs(duration: Duration) -> f64 {
    duration.as_secs_f64()
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn commit() -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=10"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
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

fn fail(message: &str) -> ! {
    eprintln!("gemma bench: {message}");
    std::process::exit(1)
}
