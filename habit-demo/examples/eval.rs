//! The habit coach's evaluation: how well the on-device model uses the nine tools, on a Korean
//! set of requests split into a dev half (tune on it) and a held-out half (only report it),
//! plus a probe split of requests written later, to tune on like dev (see
//! `examples/eval/cases.schema.md`).
//!
//! ```sh
//! cargo run --release -p habit-demo --example eval                       # dev, every case shown
//! cargo run --release -p habit-demo --example eval -- --split heldout    # figures only
//! cargo run --release -p habit-demo --example eval -- --split probe      # tuned on, shown
//! cargo run --release -p habit-demo --example eval -- --router-only      # tool choice without a model
//! cargo run --release -p habit-demo --example eval -- --domain todo --examples 3   # another app
//! ```
//!
//! Besides the coach (`--domain habit`, splits `dev`, `probe`, `heldout`, and `fresh-dev` /
//! `fresh-heldout` and `fresh2-heldout`, requests written later by someone who saw neither the
//! examples nor the code; `conversations-dev`, `conversations-heldout`, `conversations-fresh-heldout`,
//! `conversations-fresh2-heldout`, `conversations-fresh3-dev` / `conversations-fresh3-heldout`
//! (one writer's 40 conversations, alternately), `conversations-fresh4-dev` (40 more, held out
//! until reported once, then tuned on), `conversations-fresh5-heldout`,
//! `conversations-fresh6-heldout`, `conversations-fresh7-heldout`,
//! `conversations-fresh8-heldout` and `conversations-fresh9-heldout` (40 more each, all held
//! out), multi-turn conversations
//! judged turn by turn, see `examples/eval/conversations.schema.md`), two apps declared from
//! the README by a newcomer are measured the same way:
//! `--domain todo` (a to-do list, four of its six tools destructive) and `--domain expense` (an
//! expense book, three of six) (`examples/eval/domains/`), splits `dev`, `heldout`, `fresh-dev`,
//! `fresh2-dev`, `fresh3-dev`, `fresh4-heldout`, `fresh5-heldout`, `fresh6-heldout`,
//! `fresh7-heldout`, `fresh8-heldout`, `fresh9-heldout`, `fresh10-heldout`,
//! `fresh11-heldout`, `fresh12-heldout`, `fresh13-heldout`, `fresh14-heldout` and
//! `fresh15-heldout` (each written
//! later by someone who had read only
//! the tools' declarations; the first three have been looked at and are tuned on like dev;
//! the figures of the first four held-out ones have been reported), with
//! `--examples N` of each tool's eight declared examples (default 3; 0 leaves the tools with
//! their declarations alone). `--domain kitchen` is an English cooking helper whose seven
//! tools arrive at run time as OpenAI-style JSON with no parameter marked (so its arguments
//! are grounded by the runtime's defaults alone) and three examples each; splits `dev` /
//! `heldout`, `fresh-dev` / `fresh-heldout`, `fresh2-dev` / `fresh2-heldout` and `fresh3-dev` /
//! `fresh3-heldout` (four writers' sets, each split at random by category), written by someone who had read only
//! the declarations, and judged with the runtime's English words. A held-out split (any whose name ends in `heldout`) prints its
//! figures only, never its cases.
//!
//! Each case runs in a fresh session (the preamble restored, not re-evaluated) over a fresh
//! in-memory database holding three habits (see `examples/eval/cases.schema.md`), with today
//! fixed at 2025-03-10, greedy decoding, and every confirmation approved. What is measured:
//!
//! - **valid calls** — of all calls the model wrote, those the dispatcher did not refuse as
//!   `validation` or `unknown_tool`;
//! - **right tool** — cases whose sequence of tools matches the expected one (or an
//!   alternative);
//! - **right arguments** — cases whose calls match in tools *and* arguments;
//! - **restraint** — cases needing no tool in which none was called;
//! - **ended in text** — cases with calls whose turn ended in words, the model's or the
//!   runtime's default answer (the tool's own sentence, or the words for a cancel or error);
//! - **text after results** — cases with calls whose turn ended in the model's own words,
//!   which passed the agent's checks (not the runtime's default answer);
//! - **unasked destructive** — calls of a destructive tool that no expected sequence of the
//!   case has: a confirmation the person never asked for;
//! - median time to the first answer character and to the end of the turn, tool execution
//!   included.
//!
//! Flags: `--domain habit|todo|expense|kitchen`, `--split NAME`, `--examples N`, `--strategy combined|router|channels|model`,
//! `--format json|python|function_gemma`, `--limit N`, `--hints N` (labelled values listed
//! per restricted parameter, 0 = none), `--preamble-examples N` (per tool), `--reading-blocks N`
//! (blocks of the model tool choice reads requests with, 0 = none), `--reading-channels W`
//! (how much channel scores count beside the reading; 0 = not scored), `--threads N`,
//! `--router-only` (the decision with the router alone, no model), `--router-cv K` (K-fold
//! cross-validation of the router on dev: would dev's requests help as examples?),
//! `--choice-only` (tool choice alone: the decision the agent ships, `Chooser::plan`, on the
//! model's recorded reading and channel scores, under the default tuning and a grid of
//! others; then the default's misses), `--quiet`, `--record` (append the figures to
//! `examples/eval/RESULTS.md`).
//! Model: `$GEMMA_MODEL` or the cache of `scripts/fetch-model.sh`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent_core::choice::{Candidate, Chooser, Evidence, NoModel, Replay, Strategy};
use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, PromptFormat, Threads};
use agent_core::{
    Agent, AgentEvent, ApproveAll, ChatConfig, Dispatcher, Messages, Registry, ToolResult,
};
use habit_tools::COACH_INSTRUCTIONS;
use serde_json::Value;

// `mod world;` would look for `examples/world.rs`, which cargo would take for an example.
#[path = "eval/world.rs"]
mod world;
// Multi-turn conversations (`--split conversations-dev|conversations-heldout`).
#[path = "eval/conversations.rs"]
mod conversations;
// Test domains declared as a newcomer would (see `eval/domains/NEWCOMER_NOTES.md`).
#[path = "eval/domains/expense.rs"]
mod expense;
#[path = "eval/domains/kitchen.rs"]
mod kitchen;
#[path = "eval/domains/todo.rs"]
mod todo;

fn main() {
    let args = Args::parse();
    if args.split.starts_with("conversations") {
        conversations::run(&args);
        return;
    }
    let cases = load_cases(&args.domain, &args.split);
    let cases: Vec<Case> = cases
        .into_iter()
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    if let Some(folds) = args.router_cv {
        router_cv(&cases, &args, folds);
        return;
    }
    if args.router_only {
        router_only(&cases, &args);
        return;
    }
    let choice_only = args.choice_only;
    let backend = load_backend(&args);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    println!(
        "{} · split {} · {} examples per tool · {} cases · strategy {:?} · format {} · threads {} · load average {}",
        args.domain,
        args.split,
        if args.domain == "habit" {
            "all".to_owned()
        } else {
            args.examples.to_string()
        },
        cases.len(),
        args.strategy,
        backend.format().name(),
        backend.options().threads,
        load_average()
    );
    if choice_only {
        choice_grid(&backend, &runtime, &cases, &args);
        return;
    }
    let mut tally = Tally::default();
    let chooser = agent_chooser(&backend, &args);
    let started = Instant::now();
    for case in &cases {
        let registry = args.registry();
        let config = args.config(&registry);
        let session = backend
            .session(config)
            .unwrap_or_else(|e| fail(&format!("session: {e}")));
        let record = Arc::new(Mutex::new(Record::default()));
        let sink = Arc::clone(&record);
        let turn_started = Instant::now();
        let mut agent = Agent::new(session, Arc::clone(&registry))
            .with_messages(args.messages())
            .with_confirmer(ApproveAll)
            .with_chooser(chooser.clone())
            .with_events(move |event| {
                sink.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .observe(event, turn_started)
            });
        let outcome = runtime.block_on(agent.send(&case.request));
        let total = turn_started.elapsed();
        let record = record.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let verdict = judge(case, &record, outcome.as_ref().err().map(|e| e.to_string()));
        tally.add(case, &record, &verdict, total, &registry);
        if !args.quiet && !args.split.ends_with("heldout") {
            println!(
                "{} {} {} [{}] {}\n    plan {:?} ← router {} · reading {} · channels {}\n    made {}\n    said {:?}{}  ({:.1} s)",
                mark(verdict.tool_ok),
                mark(verdict.args_ok),
                case.id,
                case.category,
                case.request,
                record.plan,
                record.ranked.join(" | "),
                record.reading.join(" | "),
                record.channels.join(", "),
                record.describe_calls(),
                record.answer.trim(),
                if record.default_answer {
                    " (default)"
                } else {
                    ""
                },
                total.as_secs_f64()
            );
            if let Some(held_back) = &record.held_back {
                println!("    held back {held_back:?}");
            }
            if let Some(error) = &verdict.error {
                println!("    error {error}");
            }
            print_unasked(case, &record, &registry);
        }
    }
    println!();
    let summary = tally.summary(started.elapsed());
    print!("{summary}");
    if args.record {
        record("full eval", &summary);
    }
}

/// The model of `$GEMMA_MODEL` (or the cache of `scripts/fetch-model.sh`) with the options
/// the flags set.
fn load_backend(args: &Args) -> GemmaBackend {
    let path = GemmaBackend::default_model_path();
    if !path.exists() {
        fail(&format!(
            "model not found at {} — run scripts/fetch-model.sh or set GEMMA_MODEL",
            path.display()
        ));
    }
    let mut options = GemmaOptions::default();
    options.format = args.format;
    if let Some(threads) = args.threads {
        options.threads = Threads::from_count(threads);
    }
    if let Some(hints) = args.hints {
        options.value_hints = hints;
    }
    if let Some(examples) = args.preamble_examples {
        options.preamble_examples = examples;
    }
    if let Some(blocks) = args.reading_blocks {
        options.reading_blocks = blocks;
    }
    GemmaBackend::load(&path, options).unwrap_or_else(|e| fail(&e.to_string()))
}

/// What one case should lead to.
#[derive(Debug, Clone)]
struct Case {
    id: String,
    category: String,
    request: String,
    /// The expected call sequence, then its alternatives.
    expectations: Vec<Vec<ExpectedCall>>,
}

#[derive(Debug, Clone)]
struct ExpectedCall {
    tool: String,
    /// Alternatives: each maps an argument to a matcher.
    args: Vec<BTreeMap<String, Value>>,
}

fn load_cases(domain: &str, split: &str) -> Vec<Case> {
    let eval = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join("eval");
    let path = match domain {
        "habit" => eval.join(format!("{split}.json")),
        other => eval
            .join("domains")
            .join(other)
            .join(format!("{split}.json")),
    };
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let file: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    file["cases"]
        .as_array()
        .unwrap_or_else(|| fail("no cases"))
        .iter()
        .map(case_of)
        .collect()
}

/// A case (or a conversation's turn) of a request file, as `cases.schema.md` describes it.
fn case_of(case: &Value) -> Case {
    let calls = |list: &Value| -> Vec<ExpectedCall> {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|call| ExpectedCall {
                tool: call["tool"].as_str().unwrap_or_default().to_owned(),
                args: call["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|alt| {
                        alt.as_object()
                            .map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                            .unwrap_or_default()
                    })
                    .collect(),
            })
            .collect()
    };
    let mut expectations = vec![calls(&case["expect"])];
    for alternative in case["alternatives"].as_array().into_iter().flatten() {
        expectations.push(calls(alternative));
    }
    Case {
        id: case["id"].as_str().unwrap_or_default().to_owned(),
        category: case["category"].as_str().unwrap_or_default().to_owned(),
        request: case["request"].as_str().unwrap_or_default().to_owned(),
        expectations,
    }
}

/// Whether `value` (absent: `None`) satisfies a matcher of the case file.
fn matches(matcher: &Value, value: Option<&Value>) -> bool {
    let lower = |v: &Value| v.as_str().map(str::to_lowercase);
    if let Some(expected) = matcher.get("eq") {
        return value == Some(expected);
    }
    if let Some(options) = matcher.get("one_of").and_then(Value::as_array) {
        return value.is_some_and(|v| options.contains(v));
    }
    if let Some(options) = matcher.get("absent_or_one_of").and_then(Value::as_array) {
        return value.is_none_or(|v| v.is_null() || options.contains(v));
    }
    if let Some(words) = matcher.get("contains_any").and_then(Value::as_array) {
        let Some(text) = value.and_then(lower) else {
            return false;
        };
        return words.iter().filter_map(lower).any(|w| text.contains(&w));
    }
    if matcher.get("absent").is_some() {
        return value.is_none_or(Value::is_null);
    }
    false
}

/// What happened in one case.
#[derive(Debug, Clone, Default)]
struct Record {
    plan: Vec<String>,
    ranked: Vec<String>,
    channels: Vec<String>,
    reading: Vec<String>,
    calls: Vec<(String, Value)>,
    statuses: Vec<ToolResult>,
    answer: String,
    default_answer: bool,
    /// The model's own answer when the runtime replaced it.
    held_back: Option<String>,
    first_text: Option<Duration>,
}

impl Record {
    fn observe(&mut self, event: AgentEvent, started: Instant) {
        match event {
            AgentEvent::Planned(decision) => {
                self.plan = decision.plan;
                let mut reading = decision.reading_scores.clone();
                reading.sort_by(|a, b| b.1.total_cmp(&a.1));
                self.reading = reading
                    .iter()
                    .take(3)
                    .map(|(plan, lp)| format!("{plan:?} {:.2}", lp.exp()))
                    .collect();
                self.ranked = decision
                    .ranked
                    .iter()
                    .take(3)
                    .map(|r| format!("{:?} {:.2}", r.plan, r.score))
                    .collect();
                self.channels = decision
                    .channel_scores
                    .iter()
                    .map(|(c, s)| {
                        format!(
                            "{} {s:.1}",
                            match c {
                                Candidate::Tool(t) => t.as_str(),
                                Candidate::Chat => "chat",
                            }
                        )
                    })
                    .collect();
            }
            AgentEvent::ToolCallRequested { name, args, .. } => self.calls.push((name, args)),
            AgentEvent::ToolResult { result, .. } => self.statuses.push(result),
            AgentEvent::TextDelta(delta) => {
                if !delta.trim().is_empty() {
                    self.first_text.get_or_insert_with(|| started.elapsed());
                }
                self.answer.push_str(&delta);
            }
            AgentEvent::DefaultAnswer { held_back, .. } => {
                self.default_answer = true;
                self.held_back = held_back;
            }
            _ => {}
        }
    }

    fn describe_calls(&self) -> String {
        if self.calls.is_empty() {
            return "-".to_owned();
        }
        self.calls
            .iter()
            .zip(
                self.statuses
                    .iter()
                    .map(Some)
                    .chain(std::iter::repeat(None)),
            )
            .map(|((name, args), status)| {
                let status = status.map_or("?".to_owned(), |s| match s {
                    ToolResult::Error(e) => e.code().to_owned(),
                    other => other.status().to_owned(),
                });
                format!("{name}({args}) → {status}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

struct Verdict {
    tool_ok: bool,
    args_ok: bool,
    error: Option<String>,
}

/// How many of `tools` (the calls made, or the steps planned) are destructive and in no
/// expected call sequence of the case: confirmations the person never asked for.
fn unasked_destructive<S: AsRef<str>>(
    case: &Case,
    tools: impl IntoIterator<Item = S>,
    is_destructive: impl Fn(&str) -> bool,
) -> usize {
    tools
        .into_iter()
        .filter(|tool| is_destructive(tool.as_ref()))
        .filter(|tool| {
            !case
                .expectations
                .iter()
                .any(|calls| calls.iter().any(|c| c.tool == tool.as_ref()))
        })
        .count()
}

/// Prints, under a case's line, how many of its calls were of a destructive tool no expected
/// sequence has, where any were.
fn print_unasked(case: &Case, record: &Record, registry: &Registry) {
    let unasked = unasked_destructive(case, record.calls.iter().map(|(name, _)| name), |name| {
        registry.get(name).is_some_and(|t| t.is_destructive())
    });
    if unasked > 0 {
        println!("    unasked destructive {unasked}");
    }
}

/// Whether `tools`, in order, are the tools of one of the case's expected call sequences.
fn right_tools<S: AsRef<str>>(case: &Case, tools: &[S]) -> bool {
    case.expectations.iter().any(|expected| {
        expected.len() == tools.len()
            && expected
                .iter()
                .zip(tools)
                .all(|(e, t)| e.tool == t.as_ref())
    })
}

/// The lexical router's training texts, as the chooser builds them: every example's request
/// (weight 1), every tool's label (weight 0.5).
fn router_texts(registry: &Registry) -> Vec<(String, Vec<String>, f32)> {
    let mut texts: Vec<(String, Vec<String>, f32)> = registry
        .examples()
        .map(|e| {
            let plan = e.plan().into_iter().map(str::to_owned).collect();
            (e.request().to_owned(), plan, 1.0)
        })
        .collect();
    texts.extend(
        registry
            .tools()
            .map(|t| (t.label().to_owned(), vec![t.name().to_owned()], 0.5)),
    );
    texts
}

fn judge(case: &Case, record: &Record, error: Option<String>) -> Verdict {
    let names: Vec<&str> = record.calls.iter().map(|(n, _)| n.as_str()).collect();
    let tool_ok = right_tools(case, &names);
    let args_ok = case.expectations.iter().any(|expected| {
        expected.len() == record.calls.len()
            && expected.iter().zip(&record.calls).all(|(e, (name, args))| {
                e.tool == *name
                    && e.args
                        .iter()
                        .any(|alt| alt.iter().all(|(key, m)| matches(m, args.get(key))))
            })
    });
    Verdict {
        tool_ok,
        args_ok,
        error,
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    tool_ok: usize,
    args_ok: usize,
    none_cases: usize,
    restrained: usize,
    calls: usize,
    valid_calls: usize,
    with_calls: usize,
    ended_in_text: usize,
    text_after: usize,
    errors: usize,
    /// Destructive calls the case's expectations do not have.
    unasked_destructive: usize,
    first_text: Vec<Duration>,
    totals: Vec<Duration>,
    by_category: BTreeMap<String, (usize, usize, usize)>,
}

impl Tally {
    fn add(
        &mut self,
        case: &Case,
        record: &Record,
        verdict: &Verdict,
        total: Duration,
        registry: &Registry,
    ) {
        self.cases += 1;
        // A destructive call no expected sequence has: a confirmation the person never asked
        // for.
        self.unasked_destructive +=
            unasked_destructive(case, record.calls.iter().map(|(name, _)| name), |name| {
                registry.get(name).is_some_and(|t| t.is_destructive())
            });
        self.tool_ok += usize::from(verdict.tool_ok);
        self.args_ok += usize::from(verdict.args_ok);
        self.errors += usize::from(verdict.error.is_some());
        let entry = self.by_category.entry(case.category.clone()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(verdict.tool_ok);
        entry.2 += usize::from(verdict.args_ok);
        if case.expectations.first().is_some_and(Vec::is_empty) {
            self.none_cases += 1;
            self.restrained += usize::from(record.calls.is_empty());
        }
        self.calls += record.calls.len();
        self.valid_calls += record
            .statuses
            .iter()
            .filter(|s| {
                !s.as_error()
                    .is_some_and(|e| e.code() == "validation" || e.code() == "unknown_tool")
            })
            .count();
        if !record.calls.is_empty() {
            self.with_calls += 1;
            self.ended_in_text +=
                usize::from(record.answer.trim().chars().any(char::is_alphanumeric));
            self.text_after += usize::from(
                !record.default_answer && record.answer.trim().chars().any(char::is_alphanumeric),
            );
        }
        if let Some(first) = record.first_text {
            self.first_text.push(first);
        }
        self.totals.push(total);
    }

    /// The figures, one per line.
    fn summary(&self, elapsed: Duration) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let pct = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let _ = writeln!(
            out,
            "valid calls        {:5.1}%  ({}/{})",
            pct(self.valid_calls, self.calls),
            self.valid_calls,
            self.calls
        );
        let _ = writeln!(
            out,
            "right tool         {:5.1}%  ({}/{})",
            pct(self.tool_ok, self.cases),
            self.tool_ok,
            self.cases
        );
        let _ = writeln!(
            out,
            "right arguments    {:5.1}%  ({}/{})",
            pct(self.args_ok, self.cases),
            self.args_ok,
            self.cases
        );
        let _ = writeln!(
            out,
            "restraint          {:5.1}%  ({}/{})",
            pct(self.restrained, self.none_cases),
            self.restrained,
            self.none_cases
        );
        let _ = writeln!(
            out,
            "ended in text      {:5.1}%  ({}/{})",
            pct(self.ended_in_text, self.with_calls),
            self.ended_in_text,
            self.with_calls
        );
        let _ = writeln!(
            out,
            "text after results {:5.1}%  ({}/{})",
            pct(self.text_after, self.with_calls),
            self.text_after,
            self.with_calls
        );
        let _ = writeln!(out, "turn errors        {}", self.errors);
        let _ = writeln!(
            out,
            "unasked destructive {} (calls of a destructive tool no expected sequence has)",
            self.unasked_destructive
        );
        let _ = writeln!(
            out,
            "median first text  {:.2} s",
            median(&self.first_text).as_secs_f64()
        );
        let _ = writeln!(
            out,
            "median full turn   {:.2} s",
            median(&self.totals).as_secs_f64()
        );
        for (category, (n, tool, args)) in &self.by_category {
            let _ = writeln!(out, "  {category:<7} tool {tool}/{n}  args {args}/{n}");
        }
        let _ = writeln!(out, "({:.0} s in all)", elapsed.as_secs_f64());
        out
    }
}

fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

/// The chooser every agent of a full eval runs with: learned once, with `--strategy` and
/// `--reading-channels`.
fn agent_chooser(backend: &GemmaBackend, args: &Args) -> Chooser {
    let chooser = learned_chooser(backend, &args.registry(), args.strategy);
    match args.reading_channels {
        Some(weight) => chooser.with_reading_channels(weight),
        None => chooser,
    }
}

/// A chooser over `registry` whose reading classifier has learned from the model's reading
/// of the declared examples (as an agent's does at its first turn): the eval trains it once,
/// not once per case, so a case's time is a turn's.
fn learned_chooser(backend: &GemmaBackend, registry: &Registry, strategy: Strategy) -> Chooser {
    let mut chooser = Chooser::new(registry).with_strategy(strategy);
    if chooser.wants_reading() {
        let vectors = backend
            .read_texts(&chooser.reading_texts())
            .unwrap_or_else(|e| fail(&format!("reading: {e}")));
        let vectors: Option<Vec<Vec<f32>>> =
            vectors.map(|v| v.iter().map(|x| x.to_vec()).collect());
        chooser.learn(vectors.as_deref());
    }
    chooser
}

/// Tool choice alone (no calls are written): the decision the agent ships
/// ([`Chooser::plan`]), driven by recordings of the model's evidence ([`Replay`]) — its
/// reading of every text the decision asks about and every request's scores under every
/// channel, each taken once — under the default tuning and a grid of others: the router,
/// the channels and the reading alone, then the combined strategy with the reading (the
/// default) and with channels instead.
fn choice_grid(
    backend: &GemmaBackend,
    runtime: &tokio::runtime::Runtime,
    cases: &[Case],
    args: &Args,
) {
    let record_run = args.record;
    use agent_core::ChatSession;
    let registry = args.registry();
    let tools = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    let config = args.config(&registry);
    let mut session = backend
        .session(config)
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let started = Instant::now();
    let reading = learned_chooser(backend, &registry, Strategy::Combined);
    println!(
        "read and learned {} examples in {:.2} s",
        reading.reading_texts().len(),
        started.elapsed().as_secs_f64()
    );
    // Without the reading: the combination with channel scores, as for a session that
    // cannot read.
    let mut channels = Chooser::new(&registry);
    channels.learn(None);
    let all: Vec<usize> = (0..agent_core::choice::channels(&registry, "").len()).collect();
    // The texts the decision reads for each request, asked of a recorder first.
    let started = Instant::now();
    let mut recorder = Recorder::default();
    for case in cases {
        let _ = runtime.block_on(reading.plan(&case.request, &tools, &mut recorder));
    }
    let texts = recorder.texts;
    let vectors = backend
        .read_texts(&texts)
        .unwrap_or_else(|e| fail(&format!("reading: {e}")))
        .unwrap_or_default();
    let mut replay = Replay::new();
    for (text, vector) in texts.iter().zip(vectors) {
        replay.record_reading(text.clone(), vector.to_vec());
    }
    println!(
        "read {} cases ({} texts with their parts) in {:.2} s",
        cases.len(),
        texts.len(),
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    for case in cases {
        let scores = runtime
            .block_on(session.score(&case.request, &all))
            .unwrap_or_else(|e| fail(&format!("score: {e}")))
            .unwrap_or_default();
        replay.record_scores(case.request.clone(), scores);
    }
    println!(
        "scored {} cases under {} channels in {:.1} s",
        cases.len(),
        all.len(),
        started.elapsed().as_secs_f64()
    );
    let plan_of = |chooser: &Chooser, case: &Case, whole_only: bool| -> Vec<String> {
        let plan = if whole_only {
            runtime.block_on(chooser.plan(&case.request, &tools, &mut WholeOnly(&replay)))
        } else {
            runtime.block_on(chooser.plan(&case.request, &tools, &mut &replay))
        };
        match plan {
            Ok(plan) => plan.decision.plan,
            Err(never) => match never {},
        }
    };
    let count = |chooser: &Chooser, whole_only: bool| {
        cases
            .iter()
            .filter(|case| right_tools(case, &plan_of(chooser, case, whole_only)))
            .count()
    };
    let mut rows = vec![
        (
            "Router".to_owned(),
            count(&channels.clone().with_strategy(Strategy::Router), false),
        ),
        (
            "Channels".to_owned(),
            count(&channels.clone().with_strategy(Strategy::Channels), false),
        ),
        ("Reading".to_owned(), {
            let classifier = reading.reading();
            cases
                .iter()
                .filter(|case| {
                    let best = classifier
                        .and_then(|c| {
                            let texts = [case.request.clone()];
                            let vectors = runtime
                                .block_on(Evidence::read(&mut &replay, &texts))
                                .ok()
                                .flatten()?;
                            let lp = c.log_probabilities(vectors.first()?)?;
                            let best = lp
                                .iter()
                                .enumerate()
                                .max_by(|a, b| a.1.total_cmp(b.1))
                                .map(|(i, _)| i)?;
                            c.classes().get(best).cloned()
                        })
                        .unwrap_or_default();
                    right_tools(case, &best)
                })
                .count()
        }),
        (
            "combined with channels (no reading)".to_owned(),
            count(&channels, false),
        ),
        (
            "combined with the reading, whole only".to_owned(),
            count(&reading, true),
        ),
        (
            "combined with the reading (default)".to_owned(),
            count(&reading, false),
        ),
    ];
    let destructive: Vec<String> = registry
        .tools()
        .filter(|t| t.is_destructive())
        .map(|t| t.name().to_owned())
        .collect();
    let unasked = cases
        .iter()
        .map(|case| {
            unasked_destructive(case, plan_of(&reading, case, false), |step| {
                destructive.iter().any(|d| d == step)
            })
        })
        .sum::<usize>();
    let none_cases: Vec<&Case> = cases
        .iter()
        .filter(|c| c.expectations.first().is_some_and(Vec::is_empty))
        .collect();
    let restrained = none_cases
        .iter()
        .filter(|case| plan_of(&reading, case, false).is_empty())
        .count();
    let mut headline = String::new();
    for (name, right) in &rows {
        let line = format!("{name:<40} {right}/{}", cases.len());
        println!("{line}");
        headline.push_str(&line);
        headline.push('\n');
    }
    let line = format!(
        "the default: restraint {restrained}/{}, unasked destructive steps {unasked}",
        none_cases.len()
    );
    for confidence in [0.0, 0.2, 0.3, 0.4, 0.5, 0.7] {
        let chooser = reading.clone().with_destructive_confidence(confidence);
        let (right, unasked) = cases.iter().fold((0, 0), |(right, unasked), case| {
            let plan = plan_of(&chooser, case, false);
            let wrong =
                unasked_destructive(case, &plan, |step| destructive.iter().any(|d| d == step));
            (
                right + usize::from(right_tools(case, &plan)),
                unasked + wrong,
            )
        });
        println!(
            "  destructive confidence {confidence}: right {right}/{}, unasked destructive steps {unasked}",
            cases.len()
        );
    }
    println!("{line}");
    headline.push_str(&line);
    headline.push('\n');
    if record_run {
        record("choice-only", &headline);
    }
    if std::env::var_os("EVAL_CHANNEL_MISSES").is_some() {
        println!("the channels' misses (EVAL_CHANNEL_MISSES):");
        let alone = channels.clone().with_strategy(Strategy::Channels);
        for case in cases {
            let plan = plan_of(&alone, case, false);
            if !right_tools(case, &plan) {
                println!(
                    "  {} [{}] {} -> {plan:?}",
                    case.id, case.category, case.request
                );
            }
        }
    }
    println!("the default's misses:");
    for case in cases {
        let plan = plan_of(&reading, case, false);
        if !right_tools(case, &plan) {
            println!(
                "  {} [{}] {} -> {}",
                case.id,
                case.category,
                case.request,
                if plan.is_empty() {
                    "(none)".to_owned()
                } else {
                    plan.join("+")
                }
            );
        }
    }
    for confidence in [0.7, 0.8, 0.9, 0.95, 2.0] {
        for floor in [0.0, 0.01, 0.03, 0.1] {
            let chooser = reading.clone().with_sentence_composition(confidence, floor);
            rows.push((
                format!("sentences c{confidence} f{floor}"),
                count(&chooser, false),
            ));
        }
    }
    for router_t in [0.02, 0.05, 0.1] {
        for weight in [0.25, 0.5, 1.0, 2.0] {
            let chooser = reading
                .clone()
                .with_tuning(3, router_t, 3.0, 1.0)
                .with_reading_weight(weight);
            rows.push((
                format!("reading rt{router_t} w{weight}"),
                count(&chooser, false),
            ));
        }
    }
    for candidates in [3, 7] {
        for channel_t in [1.0, 3.0] {
            for weight in [0.25, 0.5, 1.0] {
                let chooser = reading
                    .clone()
                    .with_tuning(candidates, 0.05, channel_t, 1.0)
                    .with_reading_channels(weight);
                rows.push((
                    format!("reading+channels k{candidates} ct{channel_t} w{weight}"),
                    count(&chooser, false),
                ));
            }
        }
    }
    for candidates in [2, 3, 7] {
        for router_t in [0.02, 0.05, 0.1] {
            for channel_t in [1.0, 3.0] {
                for weight in [0.25, 0.5, 1.0] {
                    let chooser = channels
                        .clone()
                        .with_tuning(candidates, router_t, channel_t, weight);
                    rows.push((
                        format!("channels k{candidates} rt{router_t} ct{channel_t} w{weight}"),
                        count(&chooser, false),
                    ));
                }
            }
        }
    }
    let rows: Vec<_> = {
        let mut grid = rows.split_off(6);
        grid.sort_by_key(|row| std::cmp::Reverse(row.1));
        grid
    };
    println!("the grid, best first:");
    for (name, right) in &rows {
        println!("  {name:<38} {right}/{}", cases.len());
    }
}

/// Evidence that records which texts the decision asks to read, and gives none: the first
/// pass of [`choice_grid`], so that every text is read once, in one batch.
#[derive(Default)]
struct Recorder {
    texts: Vec<String>,
}

impl Evidence for Recorder {
    type Error = std::convert::Infallible;

    fn read<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> agent_core::BoxFuture<'a, Result<agent_core::choice::Readings, Self::Error>> {
        for text in texts {
            if !self.texts.contains(text) {
                self.texts.push(text.clone());
            }
        }
        Box::pin(std::future::ready(Ok(None)))
    }

    fn score<'a>(
        &'a mut self,
        _request: &'a str,
        _channels: &'a [usize],
    ) -> agent_core::BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// Recorded evidence with the reading of the whole request only, not of its parts: what
/// the parts add to the decision.
struct WholeOnly<'r>(&'r Replay);

impl Evidence for WholeOnly<'_> {
    type Error = std::convert::Infallible;

    fn read<'a>(
        &'a mut self,
        texts: &'a [String],
    ) -> agent_core::BoxFuture<'a, Result<agent_core::choice::Readings, Self::Error>> {
        let whole = &texts[..texts.len().min(1)];
        let replay = self.0;
        Box::pin(async move {
            let mut replay = replay;
            replay.read(whole).await
        })
    }

    fn score<'a>(
        &'a mut self,
        request: &'a str,
        channels: &'a [usize],
    ) -> agent_core::BoxFuture<'a, Result<Option<Vec<f32>>, Self::Error>> {
        let replay = self.0;
        Box::pin(async move {
            let mut replay = replay;
            replay.score(request, channels).await
        })
    }
}

/// Tool choice alone, without a model: the decision the agent ships with
/// [`Strategy::Router`], against the expected tools.
fn router_only(cases: &[Case], args: &Args) {
    let registry = args.registry();
    let tools = Dispatcher::new(Arc::clone(&registry), ApproveAll);
    let chooser = Chooser::new(&registry).with_strategy(Strategy::Router);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    let mut right = 0;
    for case in cases {
        let plan = match runtime.block_on(chooser.plan(&case.request, &tools, &mut NoModel)) {
            Ok(plan) => plan,
            Err(never) => match never {},
        };
        let ok = right_tools(case, &plan.decision.plan);
        right += usize::from(ok);
        if !args.quiet && !args.split.ends_with("heldout") {
            let top: Vec<String> = plan
                .decision
                .ranked
                .iter()
                .take(3)
                .map(|r| format!("{:?} {:.2}", r.plan, r.score))
                .collect();
            println!(
                "{} {} [{}] {}\n    {}",
                mark(ok),
                case.id,
                case.category,
                case.request,
                top.join(" | ")
            );
        }
    }
    println!(
        "router right tool {right}/{} ({:.1}%)",
        cases.len(),
        100.0 * right as f64 / cases.len().max(1) as f64
    );
}

/// Would the dev requests help as examples? K-fold cross-validation of the router on the dev
/// split: each fold is ranked by a router trained on the registry's examples alone, and by one
/// trained on them plus the other folds' requests (each with its expected plan). Dev only —
/// the held-out split must never train anything.
fn router_cv(cases: &[Case], args: &Args, folds: usize) {
    if args.split != "dev" {
        fail("--router-cv runs on the dev split only");
    }
    let folds = folds.clamp(2, cases.len().max(2));
    let registry = args.registry();
    let base = router_texts(&registry);
    let right = |router: &agent_core::choice::Router, case: &Case| {
        let plan: Vec<String> = router
            .rank(&case.request)
            .first()
            .map(|r| r.plan.clone())
            .unwrap_or_default();
        right_tools(case, &plan)
    };
    let train = |texts: &[(String, Vec<String>, f32)]| {
        agent_core::choice::Router::train(texts.iter().map(|(t, p, w)| (t.as_str(), p.clone(), *w)))
    };
    let alone = train(&base);
    let (mut right_alone, mut right_more) = (0, 0);
    for fold in 0..folds {
        let mut texts = base.clone();
        for (i, case) in cases.iter().enumerate() {
            if i % folds != fold {
                let plan = case.expectations[0]
                    .iter()
                    .map(|c| c.tool.clone())
                    .collect();
                texts.push((case.request.clone(), plan, 1.0));
            }
        }
        let more = train(&texts);
        for case in cases
            .iter()
            .enumerate()
            .filter(|(i, _)| i % folds == fold)
            .map(|(_, c)| c)
        {
            right_alone += usize::from(right(&alone, case));
            right_more += usize::from(right(&more, case));
        }
    }
    let percent = |n: usize| 100.0 * n as f64 / cases.len().max(1) as f64;
    println!(
        "router, {folds}-fold on dev: examples alone {right_alone}/{} ({:.1}%), with the other folds' requests {right_more}/{} ({:.1}%)",
        cases.len(),
        percent(right_alone),
        cases.len(),
        percent(right_more)
    );
}

/// The eval's world (`eval/world.rs`), habit 1 done on the two days before today as
/// `eval/cases.schema.md` states.
fn seeded_registry() -> Arc<Registry> {
    world::seeded_registry(&["2025-03-08", "2025-03-09"]).unwrap_or_else(|e| fail(&e))
}

/// The splits of each domain.
const SPLITS: [(&str, &[&str]); 4] = [
    (
        "habit",
        &[
            "dev",
            "probe",
            "heldout",
            "fresh-dev",
            "fresh-heldout",
            "fresh2-heldout",
            "edits-dev",
            "edits-heldout",
            "conversations-dev",
            "conversations-heldout",
            "conversations-fresh-heldout",
            "conversations-fresh2-heldout",
            "conversations-fresh3-dev",
            "conversations-fresh3-heldout",
            "conversations-fresh4-dev",
            "conversations-fresh5-heldout",
            "conversations-fresh6-heldout",
            "conversations-fresh7-heldout",
            "conversations-fresh8-heldout",
            "conversations-fresh9-heldout",
        ],
    ),
    (
        "todo",
        &[
            "dev",
            "heldout",
            "fresh-dev",
            "fresh2-dev",
            "fresh3-dev",
            "fresh4-heldout",
            "fresh5-heldout",
            "fresh6-heldout",
            "fresh7-heldout",
            "fresh8-heldout",
            "fresh9-heldout",
            "fresh10-heldout",
            "fresh11-heldout",
            "fresh12-heldout",
            "fresh13-heldout",
            "fresh14-heldout",
            "fresh15-heldout",
        ],
    ),
    (
        "expense",
        &[
            "dev",
            "heldout",
            "fresh-dev",
            "fresh2-dev",
            "fresh3-dev",
            "fresh4-heldout",
            "fresh5-heldout",
            "fresh6-heldout",
            "fresh7-heldout",
            "fresh8-heldout",
            "fresh9-heldout",
            "fresh10-heldout",
            "fresh11-heldout",
            "fresh12-heldout",
            "fresh13-heldout",
            "fresh14-heldout",
            "fresh15-heldout",
        ],
    ),
    (
        "kitchen",
        &[
            "dev",
            "heldout",
            "fresh-dev",
            "fresh-heldout",
            "fresh2-dev",
            "fresh2-heldout",
            "fresh3-dev",
            "fresh3-heldout",
        ],
    ),
];

impl Args {
    /// The domain's tools over its starting state, each with `--examples` of its examples.
    fn registry(&self) -> Arc<Registry> {
        let built = match self.domain.as_str() {
            "todo" => todo::registry_builder(todo::seeded(), self.examples).build(),
            "expense" => expense::registry_builder(expense::seeded(), self.examples).build(),
            "kitchen" => kitchen::registry_builder(kitchen::seeded(), self.examples)
                .unwrap_or_else(|e| fail(&e))
                .build(),
            _ => return seeded_registry(),
        };
        Arc::new(built.unwrap_or_else(|e| fail(&format!("{} registry: {e}", self.domain))))
    }

    /// The domain's instructions for the model.
    fn instructions(&self) -> &'static str {
        match self.domain.as_str() {
            "todo" => todo::INSTRUCTIONS,
            "expense" => expense::INSTRUCTIONS,
            "kitchen" => kitchen::INSTRUCTIONS,
            _ => COACH_INSTRUCTIONS,
        }
    }

    /// The runtime's words for the domain's language: English for the kitchen helper.
    fn messages(&self) -> Messages {
        match self.domain.as_str() {
            "kitchen" => Messages::english(),
            _ => Messages::default(),
        }
    }

    /// The session's configuration: the instructions over `registry`, in the domain's
    /// language.
    fn config(&self, registry: &Registry) -> ChatConfig {
        ChatConfig::new(self.instructions(), registry).with_messages(&self.messages())
    }
}

struct Args {
    domain: String,
    examples: usize,
    split: String,
    strategy: Strategy,
    format: Option<PromptFormat>,
    limit: Option<usize>,
    hints: Option<usize>,
    preamble_examples: Option<usize>,
    reading_blocks: Option<u32>,
    reading_channels: Option<f32>,
    threads: Option<usize>,
    router_only: bool,
    router_cv: Option<usize>,
    choice_only: bool,
    quiet: bool,
    record: bool,
}

impl Args {
    fn parse() -> Self {
        let mut args = Self {
            domain: "habit".to_owned(),
            examples: 3,
            split: "dev".to_owned(),
            strategy: Strategy::default(),
            format: None,
            limit: None,
            hints: None,
            preamble_examples: None,
            reading_blocks: None,
            reading_channels: None,
            threads: None,
            router_only: false,
            router_cv: None,
            choice_only: false,
            quiet: false,
            record: false,
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let mut value = || {
                it.next()
                    .unwrap_or_else(|| fail(&format!("{flag} needs a value")))
            };
            match flag.as_str() {
                "--split" => args.split = value(),
                "--domain" => args.domain = value(),
                "--examples" => {
                    args.examples = value()
                        .parse()
                        .unwrap_or_else(|_| fail("--examples takes a number"));
                }
                "--strategy" => {
                    args.strategy = match value().as_str() {
                        "combined" => Strategy::Combined,
                        "router" => Strategy::Router,
                        "channels" => Strategy::Channels,
                        "model" => Strategy::Model,
                        other => fail(&format!("unknown strategy {other}")),
                    }
                }
                "--format" => {
                    let name = value();
                    args.format = Some(
                        PromptFormat::ALL
                            .into_iter()
                            .find(|f| f.name() == name)
                            .unwrap_or_else(|| fail(&format!("unknown format {name}"))),
                    );
                }
                "--limit" => args.limit = value().parse().ok(),
                "--hints" => args.hints = value().parse().ok(),
                "--preamble-examples" => args.preamble_examples = value().parse().ok(),
                "--reading-blocks" => args.reading_blocks = value().parse().ok(),
                "--reading-channels" => args.reading_channels = value().parse().ok(),
                "--threads" => args.threads = value().parse().ok(),
                "--router-only" => args.router_only = true,
                "--router-cv" => args.router_cv = value().parse().ok(),
                "--choice-only" => args.choice_only = true,
                "--quiet" => args.quiet = true,
                "--record" => args.record = true,
                other => fail(&format!("unknown flag {other}; see the example's docs")),
            }
        }
        let Some((_, splits)) = SPLITS.iter().find(|(domain, _)| *domain == args.domain) else {
            fail("--domain is habit, todo, expense or kitchen");
        };
        if !splits.contains(&args.split.as_str()) {
            fail(&format!(
                "--split of {} is one of {}",
                args.domain,
                splits.join(", ")
            ));
        }
        args
    }
}

/// Appends this run's figures to `examples/eval/RESULTS.md` (see that file): the date, the
/// commit (`+` when the working tree differs from it), what ran and its command line, then
/// `figures`.
fn record(kind: &str, figures: &str) {
    use std::io::Write as _;
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    // The results file itself changes with every recorded run: it does not make a tree dirty.
    let dirty = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ":/",
        ":(top,exclude)habit-demo/examples/eval/RESULTS.md",
    ])
    .is_some_and(|status| !status.is_empty());
    let command: Vec<String> = std::env::args().skip(1).collect();
    let entry = format!(
        "\n### {} · {commit}{} · {kind} · load average {}\n\n`eval {}`\n\n```text\n{}```\n",
        today(),
        if dirty { "+" } else { "" },
        load_average(),
        command.join(" "),
        figures
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join("eval")
        .join("RESULTS.md");
    let written = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(entry.as_bytes()));
    match written {
        Ok(()) => println!("recorded in {}", path.display()),
        Err(e) => fail(&format!("{}: {e}", path.display())),
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn mark(ok: bool) -> &'static str {
    if ok { "✓" } else { "✗" }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

fn fail(message: &str) -> ! {
    eprintln!("eval: {message}");
    std::process::exit(1)
}
