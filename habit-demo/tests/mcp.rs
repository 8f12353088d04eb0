//! `habit-demo mcp` against a client this project did not write: the official MCP Python SDK
//! (pinned in scripts/mcp-client.sh), driven by `tests/mcp_client.py` on a temporary SQLite
//! file, which is then read with rusqlite to see exactly which writes happened.
//!
//! scripts/test.sh installs the SDK and sets `MCP_CLIENT_PYTHON` to its interpreter. Without
//! that variable (a plain `cargo test`) the test says so loudly and passes without running; under
//! CI it fails instead, so a broken install step cannot hide.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The variable scripts/test.sh sets to the SDK's python.
const PYTHON_VAR: &str = "MCP_CLIENT_PYTHON";

fn run_client(python: &str, db: &Path) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.py");
    let output = Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_habit-demo"))
        .arg(db)
        .output()
        .expect("the client's python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python client failed ({})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: not JSON:\n{stdout}\n{stderr}"))
}

/// A tool result's structured content — for an error, its envelope, read from its JSON text
/// (an error carries no `structuredContent`) — after checking the call was answered as a tool
/// result (never a JSON-RPC error) with this `isError`, and that the SDK — either client —
/// accepted it (each refuses a result whose structured content breaks the listed schema).
fn structured(out: &Value, call: &str, is_error: bool) -> Value {
    let result = &out[call];
    assert!(
        result.get("protocol_error").is_none(),
        "{call}: a JSON-RPC error instead of a tool result: {result}"
    );
    assert!(
        result.get("client_error").is_none(),
        "{call}: the SDK refused the result: {result}"
    );
    assert_eq!(result["isError"], is_error, "{call}: {result}");
    if !is_error {
        return result["structuredContent"].clone();
    }
    assert!(
        result.get("structuredContent").is_none(),
        "{call}: an error with structuredContent: {result}"
    );
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{call}: {e}: {result}"))
}

fn rows(db: &Path, sql: &str) -> Vec<String> {
    let connection = rusqlite::Connection::open(db).expect("open the test database");
    let mut statement = connection.prepare(sql).expect("valid query");
    statement
        .query_map([], |row| row.get::<_, String>(0))
        .expect("query runs")
        .collect::<Result<_, _>>()
        .expect("rows read")
}

#[test]
fn the_official_python_sdk_sees_only_admitted_tools_and_every_write_asks_first() {
    let Ok(python) = std::env::var(PYTHON_VAR) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{PYTHON_VAR} is not set under CI: scripts/test.sh must install the MCP client"
        );
        eprintln!(
            "\n!!! SKIPPED: the MCP client test needs {PYTHON_VAR} (run scripts/test.sh, or \
             {PYTHON_VAR}=$(scripts/mcp-client.sh | tail -n 1) cargo test -p habit-demo --test mcp)\n"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("habits.sqlite3");
    let out = run_client(&python, &db);

    // The handshake: 2025-11-25, tools only, under the demo's own name.
    let init = &out["initialize"];
    assert_eq!(init["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["serverInfo"]["name"], "habit-demo");
    assert!(init["capabilities"]["tools"].is_object(), "{init}");
    assert!(init["instructions"].as_str().is_some_and(|t| !t.is_empty()));

    // tools/list: the seven trusted tools in registration order; log_tracker_entry and
    // correct_tracker_entry are the app's own.
    let tools = out["tools"]["tools"].as_array().expect("a tool list");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "search_catalog",
            "query_protocol",
            "list_active_habits",
            "get_streak",
            "add_habit",
            "stop_habit",
            "update_habit_text"
        ]
    );
    for tool in tools {
        let name = &tool["name"];
        assert!(
            tool["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{name}"
        );
        assert!(
            tool["description"].as_str().is_some_and(|t| !t.is_empty()),
            "{name}"
        );
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        let destructive = ["add_habit", "stop_habit", "update_habit_text"]
            .contains(&name.as_str().unwrap_or_default());
        assert_eq!(tool["annotations"]["readOnlyHint"], !destructive, "{name}");
        assert_eq!(
            tool["annotations"]["destructiveHint"], destructive,
            "{name}"
        );
        assert_eq!(tool["annotations"]["title"], tool["title"], "{name}");
    }
    // Every listed tool says what its result looks like — an object schema, as MCP requires
    // of an `outputSchema` — and each call's structured content conforms: the SDK checked it
    // (`structured` fails on its refusal), and so does this test, on its own.
    for tool in tools {
        assert_eq!(tool["outputSchema"]["type"], "object", "{}", tool["name"]);
    }
    let schema_of = |name: &str| {
        let tool = tools.iter().find(|tool| tool["name"] == name);
        let schema = &tool.expect("a listed tool")["outputSchema"];
        jsonschema::draft202012::new(schema).expect("the listed output schema compiles")
    };
    for (call, tool) in [
        ("search", "search_catalog"),
        ("protocol", "query_protocol"),
        ("habits", "list_active_habits"),
        ("streak", "get_streak"),
        ("accepted", "add_habit"),
        ("plain_search", "search_catalog"),
    ] {
        let content = structured(&out, call, false);
        if let Some(error) = schema_of(tool).iter_errors(&content).next() {
            panic!("{call}: {error} at `{}`", error.instance_path());
        }
    }
    assert_eq!(structured(&out, "protocol", false)["kind"], "break");
    assert_eq!(structured(&out, "streak", false)["current_streak"], 0);
    // That check is live in the pinned SDK: made-up results that break the schema, or leave
    // out structured content, are refused by the same code path `call_tool` runs.
    let live = &out["validation_live"];
    assert!(
        live["wrong_type"]
            .as_str()
            .is_some_and(|e| e.contains("Invalid structured content")),
        "{live}"
    );
    assert!(
        live["missing"]
            .as_str()
            .is_some_and(|e| e.contains("did not return structured content")),
        "{live}"
    );

    assert_eq!(tools[0]["title"], "습관 검색");
    assert_eq!(tools[4]["title"], "습관 추가");
    assert_eq!(
        tools[4]["inputSchema"]["properties"]["frame_level"]["maximum"],
        3
    );

    // A read-only call runs without asking.
    let search = structured(&out, "search", false);
    assert!(
        search["count"]
            .as_u64()
            .is_some_and(|n| (1..=3).contains(&n)),
        "{search}"
    );
    assert!(search["items"][0]["id"].is_string(), "{search}");

    // The accepted write ran; the form showed the terminal dialog's content.
    let added = structured(&out, "accepted", false);
    assert_eq!(added["habit_id"], 1, "{added}");
    let asked = out["asked"].as_array().expect("elicitations");
    assert_eq!(asked.len(), 3, "exactly the three writes asked: {asked:?}");
    let message = asked[0]["message"].as_str().expect("a message");
    for expected in [
        "이 작업을 수행할까요? (습관 추가)",
        "카탈로그의 build 또는 break 프로토콜로 새 습관을 추가합니다",
        "▶ '아침 커피 후 10분 걷기' 습관을 추가합니다",
        "· 프로토콜 id: build.morning-walk — ",
    ] {
        assert!(message.contains(expected), "{expected:?} in\n{message}");
    }
    assert_eq!(asked[0]["mode"], "form");
    assert_eq!(asked[0]["requestedSchema"]["required"][0], "confirm");
    assert_eq!(out["unused_answers"], serde_json::json!([]));

    // Declined, and asked without elicitation: cancelled, a tool error the model can read.
    let declined = structured(&out, "declined", true);
    assert_eq!(declined["status"], "cancelled", "{declined}");
    let unasked = structured(&out, "unasked", true);
    assert_eq!(unasked["status"], "cancelled", "{unasked}");
    assert!(
        unasked["reason"]
            .as_str()
            .is_some_and(|r| r.contains("elicitation")),
        "{unasked}"
    );
    assert_eq!(out["plain_client_protocol"], "2025-11-25");
    structured(&out, "plain_search", false);

    // The call the client gave up on while its form was open: the client saw its own
    // timeout, and the accept given after it wrote nothing (checked in the file below).
    assert!(
        out["late"].get("client_timeout").is_some(),
        "{}",
        out["late"]
    );

    // The session's own view agrees with the file below.
    assert_eq!(structured(&out, "habits", false)["count"], 1);

    // A self-only tool by name gets the answer a missing name gets.
    let self_only = structured(&out, "self_only", true);
    let missing = structured(&out, "missing", true);
    assert_eq!(self_only["code"], "unknown_tool", "{self_only}");
    let unnamed =
        |answer: &Value, name: &str| answer["reason"].as_str().map(|r| r.replace(name, "NAME"));
    assert_eq!(
        unnamed(&self_only, "log_tracker_entry"),
        unnamed(&missing, "no_such_tool")
    );
    assert!(
        !unnamed(&self_only, "log_tracker_entry")
            .unwrap_or_default()
            .contains("log_tracker_entry"),
        "the self-only tool is not listed as available: {self_only}"
    );

    // Arguments the schema refuses: a tool error naming the field, asked of nobody.
    let malformed = structured(&out, "malformed", true);
    assert_eq!(malformed["code"], "validation", "{malformed}");
    assert!(
        malformed["reason"]
            .as_str()
            .is_some_and(|r| r.contains("limit")),
        "{malformed}"
    );
    let malformed_write = structured(&out, "malformed_write", true);
    assert_eq!(malformed_write["code"], "validation", "{malformed_write}");

    // The file holds exactly the accepted write.
    assert_eq!(
        rows(&db, "SELECT protocol_id FROM habits ORDER BY id"),
        ["build.morning-walk"]
    );
    assert_eq!(
        rows(&db, "SELECT framed_text FROM habits"),
        ["아침 커피 후 10분 걷기"]
    );
    assert!(rows(&db, "SELECT entry_date FROM tracker_entries").is_empty());
    eprintln!(
        "MCP client test ran against the Python SDK mcp {}",
        out["sdk_version"]
    );
}

/// The variable scripts/test.sh sets to the TypeScript SDK's folder.
const TS_VAR: &str = "MCP_CLIENT_TS";

#[test]
fn the_official_typescript_sdk_reads_every_error_and_a_cancel_writes_nothing() {
    let Ok(sdk) = std::env::var(TS_VAR) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{TS_VAR} is not set under CI: scripts/test.sh must install the TypeScript MCP client"
        );
        eprintln!(
            "\n!!! SKIPPED: the TypeScript MCP client test needs {TS_VAR} (run scripts/test.sh, or \
             {TS_VAR}=$(scripts/mcp-client-ts.sh | tail -n 1) cargo test -p habit-demo --test mcp)\n"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("habits.sqlite3");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.mjs");
    let output = Command::new("node")
        .arg(script)
        .arg(&sdk)
        .arg(env!("CARGO_BIN_EXE_habit-demo"))
        .arg(&db)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the TypeScript client failed ({})\nstdout:\n{stdout}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let out: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: not JSON:\n{stdout}"));

    assert_eq!(
        out["tools"],
        serde_json::json!([
            "search_catalog",
            "query_protocol",
            "list_active_habits",
            "get_streak",
            "add_habit",
            "stop_habit",
            "update_habit_text"
        ])
    );
    // Every read-only tool answers, its structured content accepted by the SDK's own check.
    assert!(
        structured(&out, "search", false)["count"]
            .as_u64()
            .is_some()
    );
    assert_eq!(structured(&out, "protocol", false)["kind"], "break");
    assert_eq!(structured(&out, "habits_before", false)["count"], 0);
    assert_eq!(structured(&out, "streak", false)["current_streak"], 0);
    // Errors of tools that list an outputSchema reach the client with their code and reason.
    for (call, code) in [
        ("malformed", "validation"),
        ("not_found", "not_found"),
        ("self_only", "unknown_tool"),
    ] {
        let error = structured(&out, call, true);
        assert_eq!(error["code"], code, "{call}: {error}");
        assert!(error["reason"].as_str().is_some_and(|r| !r.is_empty()));
    }
    // A write with a yes runs; a decline and no elicitation are cancelled.
    assert_eq!(structured(&out, "accepted", false)["habit_id"], 1);
    assert_eq!(structured(&out, "declined", true)["status"], "cancelled");
    assert_eq!(structured(&out, "unasked", true)["status"], "cancelled");
    // The call the client gave up on (its own timeout, then notifications/cancelled): the SDK
    // reports the timeout, and the accept given 2 s later wrote nothing.
    assert!(
        out["late"]["client_error"]
            .as_str()
            .is_some_and(|e| e.contains("timed out")),
        "{}",
        out["late"]
    );
    assert_eq!(out["asked"], 3, "three writes asked");
    assert_eq!(out["unused_answers"], 0);
    assert_eq!(structured(&out, "habits", false)["count"], 1);
    assert_eq!(
        rows(&db, "SELECT protocol_id FROM habits ORDER BY id"),
        ["build.morning-walk"]
    );
}
