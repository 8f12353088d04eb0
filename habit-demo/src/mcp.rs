//! `habit-demo mcp`: the habit tools served to another assistant over MCP on stdin/stdout,
//! instead of the chat — agent-core's [`McpServer`] over the same registry, so the same gates
//! apply: only the tools declared `access = trusted` exist for the client, every call is
//! validated, and a destructive one runs only after the person ticks "수행" in the client's
//! confirmation form (no model is loaded).
//!
//! Stdout carries only MCP's JSON-RPC messages; this mode's own lines (what it serves, why it
//! stopped) go to stderr, which MCP clients show in their server log — made inert like every
//! other line the demo prints ([`agent_core::inert`]), since an error can quote what the client sent.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use agent_core::{Caller, McpError, McpServer, ToolDefinition};
use clap::builder::RangedU64ValueParser;
use habit_tools::{Coach, Store};

use crate::error::DemoError;

/// What the client's model is told about this server in the handshake.
const INSTRUCTIONS: &str = "습관 코치의 도구입니다: 습관 카탈로그 검색과 조회, 사용자의 활성 습관과 \
연속 기록 조회, 습관 추가. 습관 추가는 실행 전에 사용자에게 확인을 받으며, 사용자가 거절하면 \
cancelled로 답합니다. 도구의 설명과 결과는 한국어입니다.";

/// The flags of `habit-demo mcp`.
#[derive(Debug, clap::Args)]
pub(crate) struct McpArgs {
    /// The habit database (SQLite; created if missing) [default: the chat's,
    /// habit-coach/habits.sqlite3 in the user data directory]
    #[arg(long, value_name = "PATH")]
    pub(crate) db: Option<PathBuf>,

    /// Seconds the client's confirmation form may wait for the person; no answer by then
    /// cancels the call
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = RangedU64ValueParser::<u64>::new().range(1..=3600))]
    pub(crate) confirm_timeout: u64,
}

/// Why the server stopped with an error.
#[derive(Debug, thiserror::Error)]
enum McpModeError {
    #[error(transparent)]
    Start(#[from] DemoError),
    #[error("MCP 연결이 끊겼습니다: {0}")]
    Serve(#[from] McpError),
}

/// Runs the server until the client disconnects.
pub(crate) fn main(args: McpArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&DemoError::Runtime(error).into()),
    };
    let outcome = runtime.block_on(serve(args));
    // Tokio reads stdin on a blocking thread, which an ended connection may leave waiting.
    runtime.shutdown_timeout(Duration::from_millis(100));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

fn fail(error: &McpModeError) -> ExitCode {
    log(&error.to_string());
    ExitCode::FAILURE
}

/// One line on stderr.
fn log(line: &str) {
    eprintln!("habit-demo mcp: {}", agent_core::inert::inert(line));
}

async fn serve(args: McpArgs) -> Result<(), McpModeError> {
    let db_path = match args.db {
        Some(path) => path,
        None => Store::default_path().map_err(DemoError::from)?,
    };
    let store = Store::open(&db_path).map_err(DemoError::from)?;
    let coach = Coach::with_system_clock(Arc::new(store));
    let registry = Arc::new(
        habit_tools::registry_builder(coach)
            .build()
            .map_err(DemoError::from)?,
    );
    let served: Vec<&ToolDefinition> = registry.tools_for(Caller::Assistant).collect();
    let names = |destructive: bool| {
        let names: Vec<&str> = served
            .iter()
            .filter(|tool| tool.is_destructive() == destructive)
            .map(|tool| tool.name())
            .collect();
        names.join(", ")
    };
    log(&format!(
        "습관 DB {} · 도구 {}개를 stdio로 제공합니다 — 읽기: {} · 확인 후 쓰기: {}",
        db_path.display(),
        served.len(),
        names(false),
        names(true),
    ));
    McpServer::new(Arc::clone(&registry))
        .named("habit-demo", env!("CARGO_PKG_VERSION"))
        .instructions(INSTRUCTIONS)
        .confirm_timeout(Duration::from_secs(args.confirm_timeout))
        .serve_stdio()
        .await?;
    log("클라이언트가 연결을 닫았습니다");
    Ok(())
}
