//! Kakao's FunctionChat-Bench, SingleCall set, through the agent as it ships: each item is a
//! Korean request and 1, 4 or 8 tools declared as OpenAI-style JSON — registered at run time
//! with `ToolDefinition::builder`, with no examples — and the agent's first call is compared
//! with the expected one.
//!
//! ```sh
//! cargo run --release -p habit-demo --example fcbench -- --data path/to/FunctionChat-Singlecall.jsonl
//! ```
//!
//! The benchmark (Apache-2.0, github.com/kakao/FunctionChat-Bench) is not vendored: pass its
//! `data/FunctionChat-Singlecall.jsonl` (25 lines; each line is one target function with 4
//! requests and 5 tool lists, `exact`, `4_random`, `4_close`, `8_random`, `8_close`: 500
//! items) with `--data` or `$FCBENCH_DATA`.
//!
//! What is measured, per tool-set type and overall:
//!
//! - **name** — the first call names the expected function;
//! - **name + arguments** — and its arguments are the expected ones: the same keys (a `null`
//!   value counts as absent), strings equal once whitespace is removed and case ignored (or
//!   equal to one of the item's acceptable alternatives for that key), numbers and booleans
//!   equal as values. This is an exact match; the benchmark's own harness passes an item
//!   that fails it to a GPT judge, so its published figures are upper bounds of this one.
//!
//! Every item is a fresh conversation with the benchmark's system prompt as the
//! instructions, greedy decoding, every confirmation approved, and the tools' handlers
//! answering `{"ok": true}`. Flags: `--limit N` (items), `--types exact,4_random,…`,
//! `--half dev|heldout` (the items of the odd-numbered target functions, to tune on, or of the
//! even-numbered ones, to report), `--threads N`, `--quiet` (figures only).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, PrefixCache, Threads};
use agent_core::{
    Agent, AgentEvent, ApproveAll, ChatConfig, Registry, ToolDefinition, ToolResult, ToolSchema,
};
use serde_json::{Map, Value, json};

/// The benchmark's system prompt (`data/system_prompt.txt`), sent as the instructions.
const SYSTEM_PROMPT: &str = "AI assistant로서, user와 한국어로 대화를 나누세요. 적합한 function이 있으면, 자체 지식으로 답하지 말고 function 호출을 통해 user의 요청을 해결하세요. function 호출에 필요한 파라미터 값을 임의로 생성하지 마세요. 필수 정보가 부족할 경우 user에게 질문해 정보를 얻으세요. 누락된 필수 정보가 여러가지이면, 각각을 모두 빠짐없이 구체적으로 요청하세요. 특별한 이유가 없다면, 파라미터 값을 생성할 때 user의 한국어 표현을 영어로 변경하지 마세요.";

/// The tool-set types, in the file's order.
const TYPES: [&str; 5] = ["exact", "4_random", "4_close", "8_random", "8_close"];

fn main() {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.data)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", args.data.display())));
    let items = items(&text, &args.types);
    let items: Vec<Item> = items
        .into_iter()
        .filter(|item| {
            args.half
                .is_none_or(|odd| item.function % 2 == u64::from(odd))
        })
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    let path = GemmaBackend::default_model_path();
    let mut options = GemmaOptions::default();
    if let Some(threads) = args.threads {
        options.threads = Threads::from_count(threads);
    }
    // The 125 tool sets' preambles are kept for this run only.
    let cache = std::env::temp_dir().join(format!("fcbench-prefix-{}", std::process::id()));
    options.prefix_cache = PrefixCache::Dir(cache.clone());
    let backend = GemmaBackend::load(&path, options).unwrap_or_else(|e| fail(&e.to_string()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("tokio runtime: {e}")));
    println!(
        "FunctionChat-Bench SingleCall · {} items · model {} · threads {}",
        items.len(),
        path.display(),
        backend.options().threads
    );
    let started = Instant::now();
    let mut tally: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut times = Vec::new();
    // The calls of the item being run.
    let calls: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    // Items of one tool set share a session, cleared between them.
    let mut current: Option<(String, Agent<agent_core::llm::gemma::GemmaSession>)> = None;
    for item in &items {
        let key = format!("{}/{}", item.function, item.kind);
        if current.as_ref().is_none_or(|(k, _)| *k != key) {
            let registry = match registry(&item.tools) {
                Ok(registry) => Arc::new(registry),
                Err(e) => fail(&format!("{key}: {e}")),
            };
            let session = backend
                .session(ChatConfig::new(SYSTEM_PROMPT, &registry))
                .unwrap_or_else(|e| fail(&format!("session: {e}")));
            let sink = Arc::clone(&calls);
            let agent = Agent::new(session, registry)
                .with_confirmer(ApproveAll)
                .with_events(move |event| {
                    if let AgentEvent::ToolCallRequested { name, args, .. } = event {
                        sink.lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((name, args));
                    }
                });
            current = Some((key, agent));
        }
        let Some((_, agent)) = current.as_mut() else {
            continue;
        };
        agent.clear();
        calls.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let turn_started = Instant::now();
        let _ = runtime.block_on(agent.send(&item.query));
        times.push(turn_started.elapsed());
        let first = calls
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .first()
            .cloned();
        let name_ok = first.as_ref().is_some_and(|(name, _)| *name == item.name);
        let args_ok = name_ok
            && first
                .as_ref()
                .is_some_and(|(_, args)| arguments_match(args, &item.arguments, &item.acceptable));
        let entry = tally.entry(item.kind.as_str()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(name_ok);
        entry.2 += usize::from(args_ok);
        if !args.quiet {
            println!(
                "{} {} #{} [{}] {} → {}",
                if name_ok { "✓" } else { "✗" },
                if args_ok { "✓" } else { "✗" },
                item.serial,
                item.kind,
                item.query,
                first.map_or_else(|| "(no call)".to_owned(), |(n, a)| format!("{n}({a})"))
            );
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
    println!();
    let (mut all, mut names, mut both) = (0, 0, 0);
    for kind in TYPES {
        if let Some((n, name, args)) = tally.get(kind) {
            println!(
                "{kind:<9} name {:5.1}% ({name}/{n})  name+arguments {:5.1}% ({args}/{n})",
                pct(*name, *n),
                pct(*args, *n)
            );
            all += n;
            names += name;
            both += args;
        }
    }
    println!(
        "{:<9} name {:5.1}% ({names}/{all})  name+arguments {:5.1}% ({both}/{all})",
        "all",
        pct(names, all),
        pct(both, all)
    );
    times.sort();
    println!(
        "median turn {:.2} s · {:.0} s in all",
        times.get(times.len() / 2).map_or(0.0, |t| t.as_secs_f64()),
        started.elapsed().as_secs_f64()
    );
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// One request with its tool set and the expected call.
struct Item {
    serial: u64,
    function: u64,
    kind: String,
    query: String,
    tools: Vec<Value>,
    name: String,
    arguments: Map<String, Value>,
    /// Per key, the values accepted beside the expected one.
    acceptable: Map<String, Value>,
}

/// The items of the file's lines, the tool-set types of `types` only, in the file's order.
fn items(text: &str, types: &[String]) -> Vec<Item> {
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let row: Value =
            serde_json::from_str(line).unwrap_or_else(|e| fail(&format!("line {}: {e}", n + 1)));
        let function = row["function_num"].as_u64().unwrap_or(0);
        let by_serial = |field: &str, serial: &Value| -> Value {
            row[field]
                .as_array()
                .into_iter()
                .flatten()
                .find(|e| e["serial_num"] == *serial)
                .map(|e| e["content"].clone())
                .unwrap_or(Value::Null)
        };
        for tools in row["tools"].as_array().into_iter().flatten() {
            let kind = tools["type"].as_str().unwrap_or_default().to_owned();
            if !types.is_empty() && !types.contains(&kind) {
                continue;
            }
            for query in row["query"].as_array().into_iter().flatten() {
                let serial = &query["serial_num"];
                let truth: Value = by_serial("ground_truth", serial)
                    .as_str()
                    .and_then(|s| serde_json::from_str(s).ok())
                    .unwrap_or(Value::Null);
                let arguments = truth["arguments"]
                    .as_str()
                    .and_then(|s| serde_json::from_str::<Map<String, Value>>(s).ok())
                    .unwrap_or_default();
                let acceptable = by_serial("acceptable_arguments", serial)
                    .as_str()
                    .and_then(|s| serde_json::from_str::<Map<String, Value>>(s).ok())
                    .unwrap_or_default();
                out.push(Item {
                    serial: serial.as_u64().unwrap_or(0),
                    function,
                    kind: kind.clone(),
                    query: query["content"].as_str().unwrap_or_default().to_owned(),
                    tools: tools["content"].as_array().cloned().unwrap_or_default(),
                    name: truth["name"].as_str().unwrap_or_default().to_owned(),
                    arguments,
                    acceptable,
                });
            }
        }
    }
    out
}

/// A registry of the OpenAI-style declarations `tools`, with handlers answering
/// `{"ok": true}`. A declaration whose parameters are `{}` gets an empty object schema; a
/// second declaration of a name already registered is left out.
fn registry(tools: &[Value]) -> Result<Registry, String> {
    let mut builder = Registry::builder();
    let mut names: Vec<String> = Vec::new();
    for tool in tools {
        let function = &tool["function"];
        let name = function["name"].as_str().unwrap_or_default().to_owned();
        if names.contains(&name) {
            continue;
        }
        let description = function["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let mut parameters = function["parameters"].clone();
        if let Some(map) = parameters.as_object_mut() {
            map.entry("type").or_insert(json!("object"));
            map.entry("properties").or_insert(json!({}));
        } else {
            parameters = json!({"type": "object", "properties": {}});
        }
        let definition = ToolDefinition::builder(name.clone(), description)
            .schema(ToolSchema::from_validation(parameters))
            .handler(|_| std::future::ready(ToolResult::ok(json!({"ok": true}))))
            .build()
            .map_err(|e| format!("{name}: {e}"))?;
        builder = builder.definition(definition);
        names.push(name);
    }
    builder.build().map_err(|e| e.to_string())
}

/// Whether `got` (the call's arguments) are `expected`, key by key (see the module doc).
fn arguments_match(
    got: &Value,
    expected: &Map<String, Value>,
    acceptable: &Map<String, Value>,
) -> bool {
    let present = |map: &Map<String, Value>| -> Vec<String> {
        let mut keys: Vec<String> = map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, _)| k.clone())
            .collect();
        keys.sort();
        keys
    };
    let Some(got) = got.as_object() else {
        return expected.is_empty();
    };
    if present(got) != present(expected) {
        return false;
    }
    expected
        .iter()
        .filter(|(_, v)| !v.is_null())
        .all(|(key, want)| {
            let Some(value) = got.get(key) else {
                return false;
            };
            same(value, want)
                || acceptable
                    .get(key)
                    .is_some_and(|alternatives| match alternatives {
                        Value::Array(options) => options.iter().any(|o| same(value, o)),
                        one => same(value, one),
                    })
        })
}

/// Values equal as the module doc says: strings without whitespace and case, numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => squash(x) == squash(y),
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

struct Args {
    data: PathBuf,
    limit: Option<usize>,
    types: Vec<String>,
    /// `Some(true)`: odd-numbered target functions only (dev); `Some(false)`: even (held out).
    half: Option<bool>,
    threads: Option<usize>,
    quiet: bool,
}

impl Args {
    fn parse() -> Self {
        let mut args = Self {
            data: std::env::var_os("FCBENCH_DATA")
                .map(PathBuf::from)
                .unwrap_or_default(),
            limit: None,
            types: Vec::new(),
            half: None,
            threads: None,
            quiet: false,
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let mut value = || {
                it.next()
                    .unwrap_or_else(|| fail(&format!("{flag} needs a value")))
            };
            match flag.as_str() {
                "--data" => args.data = PathBuf::from(value()),
                "--limit" => args.limit = value().parse().ok(),
                "--types" => {
                    args.types = value().split(',').map(str::to_owned).collect();
                    if let Some(bad) = args.types.iter().find(|t| !TYPES.contains(&t.as_str())) {
                        fail(&format!(
                            "unknown type {bad}; the types are {}",
                            TYPES.join(", ")
                        ));
                    }
                }
                "--half" => {
                    args.half = match value().as_str() {
                        "dev" => Some(true),
                        "heldout" => Some(false),
                        other => fail(&format!(
                            "unknown half {other}; the halves are dev, heldout"
                        )),
                    }
                }
                "--threads" => args.threads = value().parse().ok(),
                "--quiet" => args.quiet = true,
                other => fail(&format!("unknown flag {other}; see the example's docs")),
            }
        }
        if args.data.as_os_str().is_empty() {
            fail("pass the benchmark's FunctionChat-Singlecall.jsonl with --data or $FCBENCH_DATA");
        }
        args
    }
}

fn fail(message: &str) -> ! {
    eprintln!("fcbench: {message}");
    std::process::exit(1)
}
