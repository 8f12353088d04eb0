//! The eval's conversations (`--split conversations-dev|conversations-heldout`): each a few
//! turns with one agent over a fresh world, every confirmation approved, so a turn is read
//! after the earlier turns' calls, results and answers, as in the demo. Every turn is judged
//! like a case of `cases.schema.md`; the figures are reported for first turns, for later turns
//! that need the conversation to be understood (`"category": "follow"`), and for later turns
//! that stand alone. The files' format is in `conversations.schema.md`.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use agent_core::{Agent, ApproveAll};
use serde_json::{Value, json};

use super::{
    Args, Case, Record, Tally, agent_chooser, case_of, fail, judge, load_average, load_backend,
    mark, print_unasked, record,
};

/// One scripted conversation.
struct Conversation {
    id: String,
    turns: Vec<Case>,
}

/// The conversations of `split` (`examples/eval/{split}.json`).
fn load(split: &str) -> Vec<Conversation> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join("eval")
        .join(format!("{split}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let file: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    file["conversations"]
        .as_array()
        .unwrap_or_else(|| fail(&format!("{}: no conversations", path.display())))
        .iter()
        .map(|conversation| {
            let id = conversation["id"].as_str().unwrap_or_default().to_owned();
            let turns = conversation["turns"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, turn)| {
                    let mut case = case_of(turn);
                    case.id = format!("{id}/{}", i + 1);
                    case
                })
                .collect();
            Conversation { id, turns }
        })
        .collect()
}

/// Runs every conversation of `args.split` and prints (and with `--record`, records) the
/// figures.
pub(crate) fn run(args: &Args) {
    let conversations: Vec<Conversation> = load(&args.split)
        .into_iter()
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    let backend = load_backend(args);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    let turns: usize = conversations.iter().map(|c| c.turns.len()).sum();
    println!(
        "{} · split {} · {} conversations, {turns} turns · strategy {:?} · format {} · threads {} · load average {}",
        args.domain,
        args.split,
        conversations.len(),
        args.strategy,
        backend.format().name(),
        backend.options().threads,
        load_average()
    );
    let show = !args.quiet && !args.split.ends_with("heldout");
    let chooser = agent_chooser(&backend, args);
    let (mut first, mut follow, mut alone) = (Tally::default(), Tally::default(), Tally::default());
    let started = Instant::now();
    for conversation in &conversations {
        let registry = args.registry();
        let config = args.config(&registry);
        let session = backend
            .session(config)
            .unwrap_or_else(|e| fail(&format!("session: {e}")));
        let log = Arc::new(Mutex::new((Record::default(), Instant::now())));
        let sink = Arc::clone(&log);
        let mut agent = Agent::new(session, Arc::clone(&registry))
            .with_confirmer(ApproveAll)
            .with_chooser(chooser.clone())
            .with_events(move |event| {
                let mut log = sink.lock().unwrap_or_else(|p| p.into_inner());
                let turn_started = log.1;
                log.0.observe(event, turn_started);
            });
        if show {
            println!("── {}", conversation.id);
        }
        // The data of every result so far, oldest first: what `shown` matchers refer to.
        let mut results: Vec<Value> = Vec::new();
        for (i, turn) in conversation.turns.iter().enumerate() {
            *log.lock().unwrap_or_else(|p| p.into_inner()) = (Record::default(), Instant::now());
            let turn_started = Instant::now();
            let outcome = runtime.block_on(agent.send(&turn.request));
            let total = turn_started.elapsed();
            let made = log.lock().unwrap_or_else(|p| p.into_inner()).0.clone();
            let case = resolve_shown(turn, &results);
            let verdict = judge(&case, &made, outcome.as_ref().err().map(|e| e.to_string()));
            let tally = if i == 0 {
                &mut first
            } else if turn.category == "follow" {
                &mut follow
            } else {
                &mut alone
            };
            tally.add(&case, &made, &verdict, total, &registry);
            if show {
                println!(
                    "{} {} {} [{}] {}\n    plan {:?} ← router {} · reading {}\n    made {}\n    said {:?}  ({:.1} s)",
                    mark(verdict.tool_ok),
                    mark(verdict.args_ok),
                    case.id,
                    case.category,
                    case.request,
                    made.plan,
                    made.ranked.join(" | "),
                    made.reading.join(" | "),
                    made.describe_calls(),
                    made.answer.trim(),
                    total.as_secs_f64()
                );
                if let Some(held_back) = &made.held_back {
                    println!("    held back {held_back:?}");
                }
                if let Some(error) = &verdict.error {
                    println!("    error {error}");
                }
                print_unasked(&case, &made, &registry);
            }
            results.extend(made.statuses.iter().filter_map(|s| s.data().cloned()));
        }
    }
    let elapsed = started.elapsed();
    let summary = format!(
        "first turns\n{}\nfollow-ups (need the conversation)\n{}\nlater turns that stand alone\n{}",
        first.summary(elapsed),
        follow.summary(elapsed),
        alone.summary(elapsed)
    );
    println!();
    print!("{summary}");
    if args.record {
        record("conversations", &summary);
    }
}

/// `case` with every `{"shown": {"item": N, "field": F}}` matcher replaced by `{"eq": V}`,
/// V being field F of the N-th item (from 1) of the latest result in `results` that lists
/// items with that field — what the person last saw listed. With no such result, a matcher
/// nothing satisfies.
fn resolve_shown(case: &Case, results: &[Value]) -> Case {
    let mut case = case.clone();
    for calls in &mut case.expectations {
        for call in calls {
            for alternative in &mut call.args {
                for matcher in alternative.values_mut() {
                    let Some(shown) = matcher.get("shown") else {
                        continue;
                    };
                    let item = shown["item"].as_u64().unwrap_or(0) as usize;
                    let field = shown["field"].as_str().unwrap_or("id");
                    let value = results
                        .iter()
                        .rev()
                        .find_map(|data| listed(data, field))
                        .and_then(|items| items.get(item.wrapping_sub(1)).cloned());
                    *matcher = match value {
                        Some(value) => json!({ "eq": value }),
                        None => json!({ "one_of": [] }),
                    };
                }
            }
        }
    }
    case
}

/// The values of `field` of the first list of objects in `data` (itself, or found depth
/// first in its fields) whose items have that field.
fn listed(data: &Value, field: &str) -> Option<Vec<Value>> {
    match data {
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|item| item.get(field).is_some()) =>
        {
            Some(
                items
                    .iter()
                    .filter_map(|item| item.get(field).cloned())
                    .collect(),
            )
        }
        Value::Array(items) => items.iter().find_map(|item| listed(item, field)),
        Value::Object(fields) => fields.values().find_map(|value| listed(value, field)),
        _ => None,
    }
}
