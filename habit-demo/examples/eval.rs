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
//! per restricted parameter, 0 = none), `--preamble-examples N` (per tool), `--threads N`,
//! `--router-only`, `--router-cv K` (K-fold cross-validation of the router on dev: would dev's
//! requests help as examples?), `--choice-only` (tool choice with the model's channel scores, under a
//! grid of combination weights), `--embed-probe` (tool choice by the model's own hidden
//! states: nearest examples over pooled embeddings, alone and added to the router), `--quiet`.
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
    if args.embed_probe {
        embed_probe(&backend, &runtime, &cases);
        return;
    }
    let mut tally = Tally::default();
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
            .with_chooser(
                Chooser::new(&registry, &Messages::default().chat_channel)
                    .with_strategy(args.strategy),
            )
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
                "{} {} {} [{}] {}\n    plan {:?} ← router {} · channels {}\n    made {}\n    said {:?}{}  ({:.1} s)",
                mark(verdict.tool_ok),
                mark(verdict.args_ok),
                case.id,
                case.category,
                case.request,
                record.plan,
                record.ranked.join(" | "),
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

/// Tool choice alone, with the model's channel scores for every channel: how the combined
/// strategy would decide under several weightings (no calls are written).
fn choice_grid(backend: &GemmaBackend, runtime: &tokio::runtime::Runtime, cases: &[Case]) {
    use agent_core::ChatSession;
    let registry = seeded_registry();
    let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
    let mut session = backend
        .session(config)
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let base = Chooser::new(&registry, &Messages::default().chat_channel);
    let all: Vec<usize> = (0..base.channels().len()).collect();
    let mut scored = Vec::new();
    let started = Instant::now();
    for case in cases {
        let scores = runtime
            .block_on(session.score(&case.request, &all))
            .unwrap_or_else(|e| fail(&format!("score: {e}")))
            .unwrap_or_default();
        scored.push(scores);
    }
    println!(
        "scored {} cases in {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    let judge_plan = |case: &Case, plan: &[String]| right_tools(case, plan);
    let mut rows = Vec::new();
    for strategy in [Strategy::Router, Strategy::Channels] {
        let chooser = base.clone().with_strategy(strategy);
        let right = cases
            .iter()
            .zip(&scored)
            .filter(|(case, scores)| {
                let ranked = chooser.router().rank(&case.request);
                judge_plan(case, &chooser.decide(ranked, &all, Some(scores)).plan)
            })
            .count();
        rows.push((format!("{strategy:?}"), right));
    }
    for candidates in [2, 3, 7] {
        for router_t in [0.02, 0.05, 0.1] {
            for channel_t in [1.0, 3.0] {
                for weight in [0.25, 0.5, 1.0] {
                    let chooser = base
                        .clone()
                        .with_strategy(Strategy::Combined)
                        .with_tuning(candidates, router_t, channel_t, weight);
                    let right = cases
                        .iter()
                        .zip(&scored)
                        .filter(|(case, scores)| {
                            let ranked = chooser.router().rank(&case.request);
                            let wanted = chooser.channels_to_score(&ranked);
                            let picked: Vec<f32> = wanted.iter().map(|&i| scores[i]).collect();
                            judge_plan(case, &chooser.decide(ranked, &wanted, Some(&picked)).plan)
                        })
                        .count();
                    rows.push((
                        format!("combined k{candidates} rt{router_t} ct{channel_t} w{weight}"),
                        right,
                    ));
                }
            }
        }
    }
    let default = Chooser::new(&registry, &Messages::default().chat_channel);
    let right = cases
        .iter()
        .zip(&scored)
        .filter(|(case, scores)| {
            let ranked = default.router().rank(&case.request);
            let wanted = default.channels_to_score(&ranked);
            let picked: Vec<f32> = wanted.iter().map(|&i| scores[i]).collect();
            judge_plan(case, &default.decide(ranked, &wanted, Some(&picked)).plan)
        })
        .count();
    println!(
        "{:<40} {right}/{}",
        "combined (the default tuning)",
        cases.len()
    );
    for (name, right) in &rows[..2] {
        println!("{name:<40} {right}/{}", cases.len());
    }
    rows.sort_by_key(|row| std::cmp::Reverse(row.1));
    println!("the grid, best first:");
    for (name, right) in &rows {
        println!("  {name:<38} {right}/{}", cases.len());
    }
}

/// Pooled hidden states, per template and pooling, of `--embed-probe`.
const EMBED_TEMPLATES: [&str; 3] = ["{}", "요청: {}", "사용자: {}\n"];
/// Weights of the embedding score added to the router's, of `--embed-probe` (100 ≈ the
/// embeddings alone).
const EMBED_WEIGHTS: [f32; 7] = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 100.0];

/// Tool choice from the model's own hidden states (llama.cpp's embedding mode): a
/// nearest-example router over pooled final states of the same training texts as the
/// lexical router, alone and added to the lexical router's scores, with and without the
/// channel scores — under several templates, poolings and weights.
fn embed_probe(backend: &GemmaBackend, runtime: &tokio::runtime::Runtime, cases: &[Case]) {
    use agent_core::ChatSession;
    let registry = seeded_registry();
    let chooser = Chooser::new(&registry, &Messages::default().chat_channel);
    let mut session = backend
        .session(ChatConfig::new(COACH_INSTRUCTIONS, &registry))
        .unwrap_or_else(|e| fail(&format!("session: {e}")));
    let all: Vec<usize> = (0..chooser.channels().len()).collect();
    let scored: Vec<Vec<f32>> = cases
        .iter()
        .map(|case| {
            runtime
                .block_on(session.score(&case.request, &all))
                .unwrap_or_else(|e| fail(&format!("score: {e}")))
                .unwrap_or_default()
        })
        .collect();
    let train = router_texts(&registry);
    for template in EMBED_TEMPLATES {
        let render = |text: &str| template.replace("{}", text);
        let started = Instant::now();
        let embed = |texts: Vec<String>| {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            backend
                .embed(&refs)
                .unwrap_or_else(|e| fail(&e.to_string()))
        };
        let train_states = embed(train.iter().map(|(t, _, _)| render(t)).collect());
        let case_states = embed(cases.iter().map(|c| render(&c.request)).collect());
        let took = started.elapsed().as_secs_f64();
        // The template's own tokens before the text are left out of the pooling.
        let skip = template
            .find("{}")
            .map_or(0, |at| backend.count_tokens(&template[..at]));
        for last in [false, true] {
            let pool = |states: &[Vec<f32>]| pooled(states.get(skip..).unwrap_or(states), last);
            let train_vectors: Vec<Vec<f32>> = train_states.iter().map(|s| pool(s)).collect();
            let center = mean(&train_vectors);
            let train_vectors: Vec<Vec<f32>> = train_vectors
                .iter()
                .map(|v| centered_unit(v, &center))
                .collect();
            let mut right = [[0usize; 2]; EMBED_WEIGHTS.len()];
            for ((case, states), scores) in cases.iter().zip(&case_states).zip(&scored) {
                let query = centered_unit(&pool(states), &center);
                // Per plan: its best and second-best similarity, as the lexical router.
                let mut per_plan: Vec<(&[String], f32, f32)> = Vec::new();
                for ((_, plan, weight), vector) in train.iter().zip(&train_vectors) {
                    let similarity = weight * dot(&query, vector);
                    match per_plan.iter_mut().find(|(p, _, _)| *p == plan.as_slice()) {
                        Some((_, best, second)) if similarity > *best => {
                            *second = *best;
                            *best = similarity;
                        }
                        Some((_, _, second)) => *second = second.max(similarity),
                        None => per_plan.push((plan, similarity, 0.0)),
                    }
                }
                let embedding_score = |plan: &[String]| {
                    per_plan
                        .iter()
                        .find(|(p, _, _)| *p == plan)
                        .map_or(0.0, |(_, best, second)| best + 0.35 * second.max(0.0))
                };
                for (weight, right) in EMBED_WEIGHTS.iter().zip(&mut right) {
                    let mut ranked = chooser.router().rank(&case.request);
                    for r in &mut ranked {
                        r.score = (r.score + weight * embedding_score(&r.plan)) / weight.max(1.0);
                    }
                    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
                    let alone = ranked.first().map(|r| r.plan.clone()).unwrap_or_default();
                    right[0] += usize::from(right_tools(case, &alone));
                    let wanted = chooser.channels_to_score(&ranked);
                    let picked: Vec<f32> = wanted.iter().map(|&i| scores[i]).collect();
                    let combined = chooser.decide(ranked, &wanted, Some(&picked)).plan;
                    right[1] += usize::from(right_tools(case, &combined));
                }
            }
            let row: Vec<String> = EMBED_WEIGHTS
                .iter()
                .zip(&right)
                .map(|(w, [alone, combined])| format!("w{w}: {alone}/{combined}"))
                .collect();
            println!(
                "template {template:?} pooling {} ({took:.1} s to embed) — right tool without/with channels: {}",
                if last { "last" } else { "mean" },
                row.join(" · ")
            );
        }
    }
    println!("({} cases; w0 = the lexical router alone)", cases.len());
}

/// The mean of `states`, or the last one.
fn pooled(states: &[Vec<f32>], last: bool) -> Vec<f32> {
    if last {
        return states.last().cloned().unwrap_or_default();
    }
    mean(states)
}

fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let mut sum = vec![0.0f32; vectors.first().map_or(0, Vec::len)];
    for vector in vectors {
        for (s, x) in sum.iter_mut().zip(vector) {
            *s += x / vectors.len() as f32;
        }
    }
    sum
}

/// `vector` minus `center`, at unit length (a decoder's hidden states share a large common
/// direction that would make every pair look alike).
fn centered_unit(vector: &[f32], center: &[f32]) -> Vec<f32> {
    let centered: Vec<f32> = vector.iter().zip(center).map(|(a, b)| a - b).collect();
    let norm = dot(&centered, &centered).sqrt().max(1e-6);
    centered.iter().map(|x| x / norm).collect()
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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
    threads: Option<usize>,
    router_only: bool,
    router_cv: Option<usize>,
    choice_only: bool,
    embed_probe: bool,
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
            threads: None,
            router_only: false,
            router_cv: None,
            choice_only: false,
            embed_probe: false,
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
                "--threads" => args.threads = value().parse().ok(),
                "--router-only" => args.router_only = true,
                "--router-cv" => args.router_cv = value().parse().ok(),
                "--choice-only" => args.choice_only = true,
                "--embed-probe" => args.embed_probe = true,
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
