//! The habit coach's evaluation: how well the on-device model uses the six tools, on a Korean
//! set of requests split into a dev half (tune on it) and a held-out half (only report it),
//! plus a probe split of requests written later, to tune on like dev (see
//! `examples/eval/cases.schema.md`).
//!
//! ```sh
//! cargo run --release -p habit-demo --example eval                       # dev, every case shown
//! cargo run --release -p habit-demo --example eval -- --split heldout    # figures only
//! cargo run --release -p habit-demo --example eval -- --split probe      # tuned on, shown
//! cargo run --release -p habit-demo --example eval -- --router-only      # tool choice without a model
//! ```
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
//! - median time to the first answer character and to the end of the turn, tool execution
//!   included.
//!
//! Flags: `--split dev|probe|heldout`, `--strategy combined|router|channels|model`,
//! `--format json|python|function_gemma`, `--limit N`, `--hints N` (labelled values listed
//! per restricted parameter, 0 = none), `--preamble-examples N` (per tool), `--reading-blocks N`
//! (blocks of the model tool choice reads requests with, 0 = none), `--reading-channels W`
//! (how much channel scores count beside the reading; 0 = not scored), `--threads N`,
//! `--router-only`, `--router-cv K` (K-fold cross-validation of the router on dev: would dev's
//! requests help as examples?), `--choice-only` (tool choice alone: router, channel scores,
//! the model's reading, and their combinations under a grid of weights; then the default's
//! misses), `--quiet`.
//! Model: `$GEMMA_MODEL` or the cache of `scripts/fetch-model.sh`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent_core::choice::{Candidate, Chooser, Strategy};
use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, PromptFormat, Threads};
use agent_core::{Agent, AgentEvent, ApproveAll, ChatConfig, Messages, Registry, ToolResult};
use habit_tools::COACH_INSTRUCTIONS;
use serde_json::Value;

// `mod world;` would look for `examples/world.rs`, which cargo would take for an example.
#[path = "eval/world.rs"]
mod world;

fn main() {
    let args = Args::parse();
    let cases = load_cases(&args.split);
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
    let backend = GemmaBackend::load(&path, options).unwrap_or_else(|e| fail(&e.to_string()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    println!(
        "split {} · {} cases · strategy {:?} · format {} · threads {} · load average {}",
        args.split,
        cases.len(),
        args.strategy,
        backend.format().name(),
        backend.options().threads,
        load_average()
    );
    if choice_only {
        choice_grid(&backend, &runtime, &cases);
        return;
    }
    let mut tally = Tally::default();
    let mut chooser = learned_chooser(&backend, &seeded_registry(), args.strategy);
    if let Some(weight) = args.reading_channels {
        chooser = chooser.with_reading_channels(weight);
    }
    let started = Instant::now();
    for case in &cases {
        let registry = seeded_registry();
        let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
        let session = backend
            .session(config)
            .unwrap_or_else(|e| fail(&format!("session: {e}")));
        let record = Arc::new(Mutex::new(Record::default()));
        let sink = Arc::clone(&record);
        let turn_started = Instant::now();
        let mut agent = Agent::new(session, Arc::clone(&registry))
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
        tally.add(case, &record, &verdict, total);
        if !args.quiet && args.split != "heldout" {
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
        }
    }
    println!();
    tally.print(started.elapsed());
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

fn load_cases(split: &str) -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join("eval")
        .join(format!("{split}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let file: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
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
    file["cases"]
        .as_array()
        .unwrap_or_else(|| fail("no cases"))
        .iter()
        .map(|case| {
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
        })
        .collect()
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
    first_text: Vec<Duration>,
    totals: Vec<Duration>,
    by_category: BTreeMap<String, (usize, usize, usize)>,
}

impl Tally {
    fn add(&mut self, case: &Case, record: &Record, verdict: &Verdict, total: Duration) {
        self.cases += 1;
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

    fn print(&self, elapsed: Duration) {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        println!(
            "valid calls        {:5.1}%  ({}/{})",
            pct(self.valid_calls, self.calls),
            self.valid_calls,
            self.calls
        );
        println!(
            "right tool         {:5.1}%  ({}/{})",
            pct(self.tool_ok, self.cases),
            self.tool_ok,
            self.cases
        );
        println!(
            "right arguments    {:5.1}%  ({}/{})",
            pct(self.args_ok, self.cases),
            self.args_ok,
            self.cases
        );
        println!(
            "restraint          {:5.1}%  ({}/{})",
            pct(self.restrained, self.none_cases),
            self.restrained,
            self.none_cases
        );
        println!(
            "ended in text      {:5.1}%  ({}/{})",
            pct(self.ended_in_text, self.with_calls),
            self.ended_in_text,
            self.with_calls
        );
        println!(
            "text after results {:5.1}%  ({}/{})",
            pct(self.text_after, self.with_calls),
            self.text_after,
            self.with_calls
        );
        println!("turn errors        {}", self.errors);
        println!(
            "median first text  {:.2} s",
            median(&self.first_text).as_secs_f64()
        );
        println!(
            "median full turn   {:.2} s",
            median(&self.totals).as_secs_f64()
        );
        for (category, (n, tool, args)) in &self.by_category {
            println!("  {category:<7} tool {tool}/{n}  args {args}/{n}");
        }
        println!("({:.0} s in all)", elapsed.as_secs_f64());
    }
}

fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

/// A chooser over `registry` whose reading classifier has learned from the model's reading
/// of the declared examples (as an agent's does at its first turn): the eval trains it once,
/// not once per case, so a case's time is a turn's.
fn learned_chooser(backend: &GemmaBackend, registry: &Registry, strategy: Strategy) -> Chooser {
    let mut chooser =
        Chooser::new(registry, &Messages::default().chat_channel).with_strategy(strategy);
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

/// Tool choice alone (no calls are written), with the model's channel scores for every
/// channel and its reading of every request: the router, the channels and the reading alone,
/// then the combined strategy with the reading (the default) and with channels instead,
/// under several weightings.
fn choice_grid(backend: &GemmaBackend, runtime: &tokio::runtime::Runtime, cases: &[Case]) {
    use agent_core::ChatSession;
    let registry = seeded_registry();
    let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
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
    let mut channels = Chooser::new(&registry, &Messages::default().chat_channel);
    channels.learn(None);
    let all: Vec<usize> = (0..channels.channels().len()).collect();
    let started = Instant::now();
    // Per case: the vectors of the request and of its parts (see `Chooser::texts_to_read`).
    let texts: Vec<Vec<String>> = cases
        .iter()
        .map(|c| reading.texts_to_read(&c.request))
        .collect();
    let mut vectors = backend
        .read_texts(&texts.concat())
        .unwrap_or_else(|e| fail(&format!("reading: {e}")))
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.to_vec());
    let read: Vec<Vec<Vec<f32>>> = texts
        .iter()
        .map(|t| vectors.by_ref().take(t.len()).collect())
        .collect();
    println!(
        "read {} cases ({} texts with their parts) in {:.2} s",
        cases.len(),
        texts.iter().map(Vec::len).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let mut scored = Vec::new();
    for case in cases {
        let scores = runtime
            .block_on(session.score(&case.request, &all))
            .unwrap_or_else(|e| fail(&format!("score: {e}")))
            .unwrap_or_default();
        scored.push(scores);
    }
    println!(
        "scored {} cases under {} channels in {:.1} s",
        cases.len(),
        all.len(),
        started.elapsed().as_secs_f64()
    );
    let count = |chooser: &Chooser, with_channels: bool| {
        cases
            .iter()
            .zip(&scored)
            .zip(&read)
            .filter(|((case, scores), vector)| {
                let ranked = chooser.router().rank(&case.request);
                let wanted = if with_channels {
                    chooser.channels_to_score(&ranked)
                } else {
                    Vec::new()
                };
                let picked: Vec<f32> = wanted.iter().map(|&i| scores[i]).collect();
                let reading = chooser.reads().then_some(vector.as_slice());
                right_tools(
                    case,
                    &chooser
                        .decide(&case.request, ranked, &wanted, Some(&picked), reading)
                        .plan,
                )
            })
            .count()
    };
    let mut rows = vec![
        (
            "Router".to_owned(),
            count(&channels.clone().with_strategy(Strategy::Router), false),
        ),
        ("Channels".to_owned(), {
            let chooser = channels.clone().with_strategy(Strategy::Channels);
            cases
                .iter()
                .zip(&scored)
                .filter(|(case, scores)| {
                    let ranked = chooser.router().rank(&case.request);
                    let plan = chooser
                        .decide(&case.request, ranked, &all, Some(scores), None)
                        .plan;
                    right_tools(case, &plan)
                })
                .count()
        }),
        ("Reading".to_owned(), {
            let classifier = reading.reading();
            cases
                .iter()
                .zip(&read)
                .filter(|(case, vector)| {
                    let best = classifier
                        .and_then(|c| {
                            let lp = c.log_probabilities(vector.first()?)?;
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
            count(&channels, true),
        ),
        ("combined with the reading, whole only".to_owned(), {
            cases
                .iter()
                .zip(&read)
                .filter(|(case, vectors)| {
                    let ranked = reading.router().rank(&case.request);
                    let whole = &vectors[..vectors.len().min(1)];
                    let plan = reading
                        .decide(&case.request, ranked, &[], None, Some(whole))
                        .plan;
                    right_tools(case, &plan)
                })
                .count()
        }),
        (
            "combined with the reading (default)".to_owned(),
            count(&reading, true),
        ),
    ];
    for (name, right) in &rows {
        println!("{name:<40} {right}/{}", cases.len());
    }
    println!("the default's misses:");
    for ((case, vector), scores) in cases.iter().zip(&read).zip(&scored) {
        let ranked = reading.router().rank(&case.request);
        let wanted = reading.channels_to_score(&ranked);
        let picked: Vec<f32> = wanted.iter().map(|&i| scores[i]).collect();
        let plan = reading
            .decide(&case.request, ranked, &wanted, Some(&picked), Some(vector))
            .plan;
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
                    count(&chooser, true),
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
                        count(&chooser, true),
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

/// Tool choice alone, without a model: the router's plan against the expected tools.
fn router_only(cases: &[Case], args: &Args) {
    let registry = seeded_registry();
    let chooser =
        Chooser::new(&registry, &Messages::default().chat_channel).with_strategy(Strategy::Router);
    let mut right = 0;
    for case in cases {
        let ranked = chooser.router().rank(&case.request);
        let plan: Vec<&str> = ranked
            .first()
            .map(|r| r.plan.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let ok = right_tools(case, &plan);
        right += usize::from(ok);
        if !args.quiet && args.split != "heldout" {
            let top: Vec<String> = ranked
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
    let registry = seeded_registry();
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

struct Args {
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
}

impl Args {
    fn parse() -> Self {
        let mut args = Self {
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
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let mut value = || {
                it.next()
                    .unwrap_or_else(|| fail(&format!("{flag} needs a value")))
            };
            match flag.as_str() {
                "--split" => args.split = value(),
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
                other => fail(&format!("unknown flag {other}; see the example's docs")),
            }
        }
        if !["dev", "probe", "heldout"].contains(&args.split.as_str()) {
            fail("--split is dev, probe or heldout");
        }
        args
    }
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
