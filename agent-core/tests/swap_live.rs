//! A live test of run-time tool sets with the real Gemma 3 270M (feature `llama`): an app that
//! swaps 200 of them keeps memory and the prefix cache's directory flat. It is a test binary
//! of its own so that the resident memory it measures is its own process's alone, not that of
//! other tests' models and freed buffers.
//!
//! The model is found as in `gemma_live.rs`; without it the test skips locally and fails under
//! `CI=true`.

use std::sync::Arc;
use std::time::Instant;

mod live;
use live::{model_path, options, runtime};

use agent_core::llm::gemma::{GemmaBackend, PrefixCache, PrefixSource};
use agent_core::{ChatConfig, ChatSession, Registry, ToolDefinition, ToolResult, ToolSchema};
use serde_json::{Value, json};

const INSTRUCTIONS: &str = "너는 플러그인 앱의 도우미야. 한국어로 짧게 답해.";

/// The bytes of the prefix states (`.kv` and `.meta`) in `dir`.
fn state_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    e.path()
                        .extension()
                        .is_some_and(|x| x == "kv" || x == "meta")
                })
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The resident memory of this process, in bytes (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Tool set `set` of a plugin host: two tools declared at run time from JSON Schemas, as an
/// app gets them from an MCP server or a plugin, named and described differently per set.
fn plugin_tools(set: usize) -> Arc<Registry> {
    // Three digits in every set's names: every preamble is as long as the others, so the
    // buffers llama.cpp sizes to a prompt settle with the first set and growth is a leak.
    let tool = |name: String, description: String, parameters: Value| {
        ToolDefinition::builder(name, description)
            .schema(ToolSchema::from_validation(parameters))
            .handler(|call: agent_core::CallContext| {
                let args = call.args().clone();
                async move { ToolResult::ok(json!({ "args": args })) }
            })
            .build()
            .expect("a plugin tool registers")
    };
    Arc::new(
        Registry::builder()
            .definition(tool(
                format!("plugin{set:03}.lookup"),
                format!("플러그인 {set:03}번의 자료를 찾습니다."),
                json!({"type": "object", "properties": {
                    "query": {"type": "string", "description": "찾을 말"}
                }, "required": ["query"]}),
            ))
            .definition(tool(
                format!("plugin{set:03}.count"),
                format!("플러그인 {set:03}번의 항목 수를 셉니다."),
                json!({"type": "object", "properties": {
                    "limit": {"type": "integer", "format": "int32", "description": "최대 개수"}
                }}),
            ))
            .build()
            .expect("the plugin registry builds"),
    )
}

#[test]
fn an_app_that_swaps_200_tool_sets_keeps_memory_and_disk_flat() {
    let Some(path) = model_path() else { return };
    let dir = std::env::temp_dir().join(format!("agent-rs-swap-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = |set: usize| ChatConfig::new(INSTRUCTIONS, &plugin_tools(set));
    let mut options = options();
    options.prefix_cache = PrefixCache::Dir(dir.clone());

    // One tool set's preamble: what it holds in memory and on disk.
    let probe = GemmaBackend::load(&path, options.clone()).expect("model");
    drop(probe.session(config(0)).expect("session"));
    let (_, one_in_memory) = probe.kept_prefixes();
    let one_on_disk = state_bytes(&dir);
    assert!(one_in_memory > 0 && one_on_disk > 0);
    drop(probe);
    let _ = std::fs::remove_dir_all(&dir);

    // Room for two and a half of them; 200 sets, one after another, each used for a scoring
    // pass as an app would before it drops the set.
    options.prefix_memory_limit = one_in_memory * 5 / 2;
    options.prefix_cache_limit = one_on_disk * 5 / 2;
    let backend = GemmaBackend::load(&path, options.clone()).expect("model");
    let runtime = runtime();
    const SETS: usize = 200;
    const SETTLED: usize = 50;
    let mut settled_rss = None;
    let mut peak_rss = 0;
    let started = Instant::now();
    for set in 0..SETS {
        let mut session = backend.session(config(set)).expect("session");
        assert_eq!(session.stats().preamble_source, PrefixSource::Evaluated);
        let scores = runtime
            .block_on(session.score("자료 찾아줘", &[0]))
            .expect("scores")
            .expect("the backend scores");
        assert!(
            scores.iter().all(|s| s.is_finite()),
            "set {set}: {scores:?}"
        );
        drop(session);
        let (kept, bytes) = backend.kept_prefixes();
        assert!(
            bytes <= options.prefix_memory_limit,
            "set {set}: {kept} prefixes, {bytes} bytes in memory"
        );
        let on_disk = state_bytes(&dir);
        assert!(
            on_disk <= options.prefix_cache_limit,
            "set {set}: {on_disk} bytes on disk"
        );
        if let Some(rss) = resident_bytes() {
            if set + 1 == SETTLED {
                settled_rss = Some(rss);
            }
            if set + 1 >= SETTLED {
                peak_rss = peak_rss.max(rss);
            }
            if (set + 1) % 25 == 0 {
                eprintln!(
                    "after {:>3} sets: resident {:>6.1} MiB, kept {kept} prefixes ({:.1} MiB), \
                     cache dir {:.1} MiB, {:.1} s",
                    set + 1,
                    rss as f64 / 1048576.0,
                    bytes as f64 / 1048576.0,
                    on_disk as f64 / 1048576.0,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    // Flat memory: once the allocator and llama.cpp's buffers have settled (the first sets),
    // the process grows by less than four preambles' states over the next 150 sets — a leak
    // of 100 KiB a set would not pass.
    if let Some(settled) = settled_rss {
        let growth = peak_rss.saturating_sub(settled);
        assert!(
            growth < 4 * one_in_memory as u64,
            "resident memory grew by {growth} bytes over {} sets (one preamble is {one_in_memory})",
            SETS - SETTLED
        );
    }
    // The latest sets come back from memory; the first was dropped from memory and disk.
    let latest = backend.session(config(SETS - 1)).expect("session");
    assert_eq!(latest.stats().preamble_source, PrefixSource::Memory);
    let first = backend.session(config(0)).expect("session");
    assert_eq!(first.stats().preamble_source, PrefixSource::Evaluated);
    drop((latest, first, backend));
    // After a restart the sets still on disk are restored from it.
    let restarted = GemmaBackend::load(&path, options).expect("model");
    let from_disk = restarted.session(config(0)).expect("session");
    assert_eq!(from_disk.stats().preamble_source, PrefixSource::File);
    let _ = std::fs::remove_dir_all(&dir);
}
