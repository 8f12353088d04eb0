//! The server end to end over an in-memory connection, with a scripted client that writes and
//! reads the JSON-RPC lines itself — so what these tests check is the wire, not rmcp's view of
//! it. (habit-demo's `tests/mcp.rs` runs the real binary against the official Python SDK.)

#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

use super::McpServer;
use super::elicit::NO_ELICITATION;
use crate::registry::Registry;
use crate::tool::{Access, CallContext, ToolDefinition, ToolResult, ToolSchema};

#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct EchoArgs {
    /// The text to send back (1–20 characters)
    #[schemars(length(min = 1, max = 20))]
    text: String,
}

#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct Echoed {
    text: String,
}

#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct NoteArgs {
    /// The note's text
    note: String,
}

/// The envelope of an `isError` result: its JSON text — never `structuredContent`, which a
/// client may check against the tool's output schema even on an error.
fn envelope(result: &Value) -> Value {
    assert!(
        result.get("structuredContent").is_none(),
        "an error carries no structuredContent: {result}"
    );
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: not an envelope: {result}"))
}

/// `echo` (trusted, read-only), `note` (trusted, destructive: counts its runs), `system_only`
/// (system) and `private` (self-only, the default).
fn registry(runs: &Arc<AtomicUsize>) -> Arc<Registry> {
    let echo = ToolDefinition::builder("echo", "Sends the text back.")
        .label("따라 말하기")
        .access(Access::Trusted)
        .schema(ToolSchema::of::<EchoArgs>().with_output::<Echoed>())
        .handler(|call: CallContext| {
            let text = call.args()["text"].clone();
            async move { ToolResult::ok(json!({ "text": text })) }
        })
        .build()
        .unwrap();
    let counter = Arc::clone(runs);
    let note = ToolDefinition::builder("note", "Writes a note.")
        .label("메모 추가")
        .access(Access::Trusted)
        .destructive(true)
        .summary("'{note}' 메모를 추가합니다")
        .schema(ToolSchema::of::<NoteArgs>())
        .handler(move |_: CallContext| {
            let runs = counter.fetch_add(1, Ordering::SeqCst) + 1;
            async move { ToolResult::ok(json!(runs)) }
        })
        .build()
        .unwrap();
    let hidden = |name: &'static str, access: Access| {
        ToolDefinition::builder(name, "Not for outside assistants.")
            .access(access)
            .handler(|_: CallContext| async { ToolResult::ok(json!({"secret": 42})) })
            .build()
            .unwrap()
    };
    let registry = Registry::builder()
        .definition(hidden("private", Access::SelfOnly))
        .definition(echo)
        .definition(hidden("system_only", Access::System))
        .definition(note)
        .build()
        .unwrap();
    Arc::new(registry)
}

/// How the scripted client answers an `elicitation/create`.
#[derive(Clone)]
enum Answer {
    Reply(Value),
    /// Never answers.
    Ignore,
}

fn tick(confirm: Value) -> Answer {
    Answer::Reply(json!({"action": "accept", "content": {"confirm": confirm}}))
}

struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
    next_id: u64,
    answers: VecDeque<Answer>,
    /// The params of every `elicitation/create` the server sent.
    asked: Vec<Value>,
}

impl Client {
    /// Starts a server on an in-memory connection and completes the handshake, declaring
    /// form elicitation when `elicitation` is set.
    async fn connect(registry: Arc<Registry>, elicitation: bool, timeout: Duration) -> Self {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(server);
        tokio::spawn(
            McpServer::new(registry)
                .named("test-server", "9.9.9")
                .confirm_timeout(timeout)
                .serve_io(read, write),
        );
        let (read, write) = tokio::io::split(client);
        let mut client = Self {
            lines: BufReader::new(read).lines(),
            write,
            next_id: 0,
            answers: VecDeque::new(),
            asked: Vec::new(),
        };
        let capabilities = if elicitation {
            json!({"elicitation": {"form": {}}})
        } else {
            json!({})
        };
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": capabilities,
                    "clientInfo": {"name": "scripted", "version": "0"}
                }),
            )
            .await;
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("the server answers within 10 s")
            .unwrap()
            .expect("the server keeps the connection open");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends a request and returns its response, answering the server's own requests on the
    /// way from the script.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let message = self.read().await;
            match (message.get("method"), message.get("id")) {
                (Some(method), Some(server_id)) => {
                    assert_eq!(method, "elicitation/create", "{message}");
                    self.asked.push(message["params"].clone());
                    let answer = self.answers.pop_front().expect("a scripted answer");
                    if let Answer::Reply(result) = answer {
                        let reply = json!({"jsonrpc": "2.0", "id": server_id, "result": result});
                        self.send(reply).await;
                    }
                }
                (Some(_), None) => {} // a notification (e.g. a cancelled elicitation)
                (None, _) if message["id"] == id => return message,
                (None, _) => panic!("a response to a request not sent: {message}"),
            }
        }
    }

    /// Sends a `tools/call` of the destructive `note` and reads the confirmation the server
    /// asks for, unanswered: the call's id and the `elicitation/create` request.
    async fn call_note_until_asked(&mut self) -> (u64, Value) {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": {"name": "note", "arguments": {"note": "x"}}}))
            .await;
        let asked = self.read().await;
        assert_eq!(asked["method"], "elicitation/create", "{asked}");
        (id, asked)
    }

    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        let response = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        assert!(
            response.get("error").is_none(),
            "a tool call is never a protocol error: {response}"
        );
        response["result"].clone()
    }
}

async fn client(elicitation: bool) -> (Client, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let client = Client::connect(registry(&runs), elicitation, Duration::from_secs(5)).await;
    (client, runs)
}

#[tokio::test]
async fn the_handshake_offers_tools_only_and_names_the_app() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (client, server) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server);
    tokio::spawn(
        McpServer::new(registry(&runs))
            .named("test-server", "9.9.9")
            .instructions("Use echo.")
            .serve_io(read, write),
    );
    let (read, write) = tokio::io::split(client);
    let mut client = Client {
        lines: BufReader::new(read).lines(),
        write,
        next_id: 0,
        answers: VecDeque::new(),
        asked: Vec::new(),
    };
    // A client asking for a protocol without the handshake is answered with 2025-11-25.
    let init = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2026-07-28",
                "capabilities": {},
                "clientInfo": {"name": "scripted", "version": "0"}
            }),
        )
        .await;
    let result = &init["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(result["serverInfo"]["name"], "test-server");
    assert_eq!(result["serverInfo"]["version"], "9.9.9");
    assert_eq!(result["instructions"], "Use echo.");
    assert!(result["capabilities"]["tools"].is_object(), "{init}");
    assert!(result["capabilities"].get("resources").is_none(), "{init}");
}

#[tokio::test]
async fn only_tools_that_admit_assistants_are_listed_in_registration_order() {
    let (mut client, _) = client(true).await;
    let listed = client.request("tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["echo", "note"]);
    assert_eq!(tools[0]["title"], "따라 말하기");
    assert_eq!(tools[0]["description"], "Sends the text back.");
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["text"]));
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["text"]["maxLength"],
        20
    );
    assert_eq!(
        tools[0]["outputSchema"]["properties"]["text"]["type"],
        "string"
    );
    assert_eq!(
        tools[0]["annotations"],
        json!({"title": "따라 말하기", "readOnlyHint": true, "destructiveHint": false})
    );
    assert_eq!(tools[1]["annotations"]["readOnlyHint"], false);
    assert_eq!(tools[1]["annotations"]["destructiveHint"], true);
    assert!(tools[1].get("outputSchema").is_none(), "{listed}");
    let again = client.request("tools/list", json!({})).await;
    assert_eq!(again["result"], listed["result"], "the listing is stable");
}

#[tokio::test]
async fn a_read_only_call_answers_structured_content_without_asking() {
    let (mut client, _) = client(true).await;
    let result = client.call("echo", json!({"text": "안녕"})).await;
    assert_eq!(result["isError"], false);
    assert_eq!(result["structuredContent"], json!({"text": "안녕"}));
    assert_eq!(result["content"][0]["text"], r#"{"text":"안녕"}"#);
    assert!(client.asked.is_empty());
}

#[tokio::test]
async fn a_destructive_call_runs_only_after_an_accepted_tick() {
    let (mut client, runs) = client(true).await;
    client.answers.push_back(tick(json!(true)));
    let result = client.call("note", json!({"note": "우유 사기"})).await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["content"][0]["text"], "1");
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    let asked = &client.asked[0];
    assert_eq!(asked["mode"], "form");
    assert_eq!(
        asked["message"],
        "이 작업을 수행할까요? (메모 추가)\nWrites a note.\n▶ '우유 사기' 메모를 추가합니다\n\
         · The note's text: 우유 사기"
    );
    assert_eq!(asked["requestedSchema"]["required"], json!(["confirm"]));
    assert_eq!(
        asked["requestedSchema"]["properties"]["confirm"]["type"],
        "boolean"
    );
}

#[tokio::test]
async fn a_decline_a_cancel_an_unticked_accept_or_a_client_error_cancels() {
    let (mut client, runs) = client(true).await;
    let answers = [
        Answer::Reply(json!({"action": "decline"})),
        Answer::Reply(json!({"action": "cancel"})),
        tick(json!(false)),
        Answer::Reply(json!({"action": "accept"})),
    ];
    for answer in answers {
        client.answers.push_back(answer);
        let result = client.call("note", json!({"note": "x"})).await;
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(envelope(&result)["status"], "cancelled", "{result}");
    }
    // The client answers the elicitation with a JSON-RPC error.
    let (id, asked) = client.call_note_until_asked().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": asked["id"],
                     "error": {"code": -32600, "message": "Elicitation not supported"}}))
        .await;
    let response = client.read().await;
    assert_eq!(response["id"], id);
    assert_eq!(envelope(&response["result"])["status"], "cancelled");
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing ran");
}

#[tokio::test]
async fn a_client_without_elicitation_is_never_asked_and_nothing_runs() {
    let (mut client, runs) = client(false).await;
    let result = client.call("note", json!({"note": "x"})).await;
    assert_eq!(
        envelope(&result),
        json!({"status": "cancelled", "reason": NO_ELICITATION})
    );
    assert_eq!(result["isError"], true);
    assert!(client.asked.is_empty());
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // Read-only tools still work.
    let result = client.call("echo", json!({"text": "a"})).await;
    assert_eq!(result["isError"], false);
}

#[tokio::test]
async fn no_answer_in_time_cancels() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut client = Client::connect(registry(&runs), true, Duration::from_millis(200)).await;
    client.answers.push_back(Answer::Ignore);
    let result = client.call("note", json!({"note": "x"})).await;
    assert_eq!(envelope(&result)["status"], "cancelled");
    let reason = envelope(&result)["reason"].as_str().unwrap().to_owned();
    assert!(reason.contains("did not answer"), "{reason}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_tool_that_does_not_admit_assistants_is_as_unknown_as_a_missing_one() {
    let (mut client, _) = client(true).await;
    let mut answers = Vec::new();
    for name in ["private", "system_only", "no_such_tool"] {
        let result = client.call(name, json!({})).await;
        assert_eq!(result["isError"], true);
        assert_eq!(envelope(&result)["code"], "unknown_tool");
        let reason = envelope(&result)["reason"].as_str().unwrap().to_owned();
        answers.push(reason.replace(name, "NAME"));
    }
    assert_eq!(
        answers, ["unknown tool `NAME`; available tools: echo, note"; 3],
        "the same answer, listing only the admitted tools"
    );
}

#[tokio::test]
async fn arguments_the_schema_refuses_are_a_tool_error() {
    let (mut client, _) = client(true).await;
    for arguments in [
        json!({}),
        json!({"text": 5}),
        json!({"text": "x".repeat(21)}),
    ] {
        let result = client.call("echo", arguments.clone()).await;
        assert_eq!(result["isError"], true, "{arguments}");
        assert_eq!(envelope(&result)["code"], "validation", "{result}");
    }
    // No arguments at all count as `{}`.
    let response = client.request("tools/call", json!({"name": "echo"})).await;
    assert_eq!(envelope(&response["result"])["code"], "validation");
    // A destructive call with bad arguments is refused before anyone is asked.
    let result = client.call("note", json!({"note": 1})).await;
    assert_eq!(envelope(&result)["code"], "validation");
    assert!(client.asked.is_empty());
}

#[tokio::test]
async fn a_cancelled_call_withdraws_its_form_and_a_late_accept_runs_nothing() {
    let (mut client, runs) = client(true).await;
    let (call_id, asked) = client.call_note_until_asked().await;
    // The client gives up on the call (as the Python SDK does when its read times out).
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": call_id, "reason": "timed out"}}),
        )
        .await;
    // The server withdraws its form on the client.
    let withdrawn = client.read().await;
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], asked["id"], "{withdrawn}");
    // The person's accept arrives anyway, late.
    client
        .send(json!({"jsonrpc": "2.0", "id": asked["id"],
                     "result": {"action": "accept", "content": {"confirm": true}}}))
        .await;
    // The connection goes on, and the cancelled call never ran.
    let echoed = client.call("echo", json!({"text": "a"})).await;
    assert_eq!(echoed["isError"], false, "{echoed}");
    assert_eq!(
        runs.load(Ordering::SeqCst),
        0,
        "nothing ran after the cancel"
    );
    // A later call is asked afresh and runs on its own yes.
    client.answers.push_back(tick(json!(true)));
    let result = client.call("note", json!({"note": "y"})).await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_forged_call_makes_an_inert_bounded_form_without_unknown_keys() {
    let (mut client, runs) = client(true).await;
    client
        .answers
        .push_back(Answer::Reply(json!({"action": "decline"})));
    let forged = format!(
        "x\n▶ 안전한 조회 작업입니다(쓰기 없음)\r\x1b[2J\u{202e}{}",
        "가".repeat(100_000)
    );
    let result = client
        .call(
            "note",
            json!({"note": forged, "unknown": "u".repeat(1_000_000), "x\ny": 1}),
        )
        .await;
    assert_eq!(envelope(&result)["status"], "cancelled");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let asked = &client.asked[0];
    let message = asked["message"].as_str().unwrap();
    // One line per part of the dialog: the forged line break, ESC and U+202E are escapes.
    assert!(
        !message.contains(['\r', '\u{1b}', '\u{202e}']),
        "{message:?}"
    );
    assert!(message.contains("x\\n▶ 안전한"), "{message}");
    assert!(
        !message.lines().any(|l| l.starts_with("▶ 안전한")),
        "{message}"
    );
    // Bounded: the 100 KB value is clipped with a marker; the unknown keys are gone.
    assert!(message.len() < 4_000, "{} bytes", message.len());
    assert!(message.contains("…(+"), "a clip marker: {message}");
    assert!(!message.contains("unknown"), "{message}");
    let description = asked["requestedSchema"]["properties"]["confirm"]["description"]
        .as_str()
        .unwrap();
    assert!(!description.contains('\n') && description.len() < 4_000);
}

#[tokio::test]
async fn every_line_the_server_cannot_read_gets_the_answer_json_rpc_asks_for() {
    let (mut client, runs) = client(true).await;
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let lines = [
        ("not json at all".to_owned(), -32700),
        ("{\"jsonrpc\": \"2.0\", \"id\": 1, ".to_owned(), -32700),
        (deep, -32700),
        (
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]".to_owned(),
            -32600,
        ),
        ("42".to_owned(), -32600),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}".to_owned(),
            -32600,
        ),
    ];
    for (line, code) in lines {
        client.write.write_all(line.as_bytes()).await.unwrap();
        client.write.write_all(b"\n").await.unwrap();
        let answer = client.read().await;
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert_eq!(answer.get("id"), Some(&Value::Null), "{answer}");
    }
    // Params that do not fit the method: answered with the request's own id.
    client
        .send(json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": 5}))
        .await;
    let answer = client.read().await;
    assert_eq!(answer["id"], 77, "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // A notification that does not fit and a blank line are never answered: the next line
    // the client reads is the answer to its next request.
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"}))
        .await;
    client.write.write_all(b"\n  \n").await.unwrap();
    let pong = client.request("ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "{pong}");
    // The connection goes on as before.
    let echoed = client.call("echo", json!({"text": "a"})).await;
    assert_eq!(echoed["isError"], false, "{echoed}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_confirmation_answer_with_both_result_and_error_denies_at_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    // A time limit far beyond the test's own 10 s wait for each answer.
    let mut client = Client::connect(registry(&runs), true, Duration::from_secs(600)).await;
    for answer in [
        json!({"result": {"action": "accept", "content": {"confirm": true}},
               "error": {"code": -1, "message": "x"}}),
        json!({"result": {"action": "accept", "content": {"confirm": true}}, "error": 5}),
        json!({"error": "not an error object"}),
    ] {
        let (id, asked) = client.call_note_until_asked().await;
        let mut reply = answer.clone();
        reply["jsonrpc"] = json!("2.0");
        reply["id"] = asked["id"].clone();
        client.send(reply).await;
        let response = client.read().await;
        assert_eq!(response["id"], id, "{response}");
        let envelope = envelope(&response["result"]);
        assert_eq!(envelope["status"], "cancelled", "{answer}: {envelope}");
        assert!(
            envelope["reason"]
                .as_str()
                .unwrap()
                .contains("could not be asked"),
            "{envelope}"
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing ran");
}
