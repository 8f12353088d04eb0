//! The registry served to outside assistants over the Model Context Protocol ([`McpServer`]),
//! built on `rmcp`, the official Rust SDK.
//!
//! An MCP client is just another caller class: the server runs every call through one
//! [`Dispatcher::for_caller`]`(registry, Caller::Assistant, confirmer)` — the same lookup,
//! validation, confirmation gate, time limit and result cap as the app's own agent, with no
//! second dispatch path. What is particular to MCP lives in four files:
//!
//! | file | owns |
//! |---|---|
//! | `convert` | a [`ToolDefinition`](crate::ToolDefinition) as an MCP tool (`tools/list`), a [`ToolResult`](crate::ToolResult) as a `tools/call` result |
//! | `elicit` | the confirmer that asks the person through the client (MCP elicitation), failing closed |
//! | `handler` | the `rmcp` server handler: capabilities, protocol versions, the two tool methods |
//! | `wire` | the newline-delimited JSON-RPC lines: every line the server cannot read gets the error answer JSON-RPC asks for |
//!
//! # What a client sees
//!
//! - **`tools/list`**: only the tools whose [`Access`](crate::Access) level admits outside
//!   assistants (`#[tool(access = trusted)]`), in registration order, each with its label as
//!   `title`, its description, its argument schema as `inputSchema`, its result schema as
//!   `outputSchema` where it has one, and annotations from the declaration: `readOnlyHint` /
//!   `destructiveHint` (destructive means "asks first"). Annotations are hints to the client;
//!   the confirmation gate is the authority. The `outputSchema` is what `#[tool]` derives
//!   from the fn's result type when it implements `JsonSchema` (or what
//!   [`ToolSchema::with_output`](crate::ToolSchema::with_output) gives), generated for
//!   serialization, and only when every value it admits is an object (`type: object`, MCP's
//!   rule): an `Option<T>`, a list or a string result lists none.
//! - **`tools/call`**: always a tool result, never a protocol error. `ok` → the result data as
//!   `structuredContent` (when it is an object) and as JSON text; `error` (an unknown or
//!   not-admitted name — the same `unknown_tool` answer for both, so nothing can be probed —
//!   invalid arguments, a domain rule, a panic, a timeout) and `cancelled` → `isError: true`
//!   with the envelope `{"status":…,"code":…,"reason":…}` as JSON text, so the calling model
//!   can correct itself — and without `structuredContent`, which some clients check against
//!   the tool's `outputSchema` even on an error (the TypeScript SDK 1.x throws `-32602`
//!   there, hiding the error). Results pass the registry's result cap.
//! - **A tool with an `outputSchema`** keeps MCP's promise that its `structuredContent`
//!   conforms: its `ok` data goes out only complete and checked against the schema. The cap
//!   cannot apply to it as it does elsewhere — a cut result carries `_truncated`/`_hint`,
//!   misses array items or, when nothing fits, is only those markers, none of which the schema
//!   describes, and sending text alone instead breaks the same promise (the Python SDK raises
//!   on an `ok` result without `structuredContent`). So a result over the cap is the error
//!   `result_too_large` (`isError: true`, saying how big it was and to ask for less); a tool
//!   that must stay usable keeps its own results within the cap, as habit-tools does. Data
//!   that does not match its schema (a hand-written `Serialize` or `JsonSchema` that disagree)
//!   is a `handler_error`. Error results carry no `structuredContent` at all.
//! - **A destructive call** asks the person through the client with a form elicitation (see
//!   `elicit`), showing the tool's label, the call's summary and every argument, like the
//!   terminal dialog. Only an accepted form with the box ticked runs the tool; a client that
//!   cannot elicit, a decline, a cancel, a timeout or a broken connection answer `cancelled`.
//! - **A line the server cannot read** gets the error answer JSON-RPC 2.0 asks for instead of
//!   silence: `-32700` for text that is not JSON (or nests deeper than 128 levels), `-32600`
//!   for a batch or anything but one message object, `-32602` with the request's id for
//!   params that do not fit the method. A notification is never answered. An answer to the
//!   server's confirmation question that carries both `result` and `error`, or cannot be read
//!   at all, counts as an error answer at once: the call is `cancelled` without waiting for
//!   the time limit.
//!
//! The protocol implemented is MCP 2025-11-25 (and the versions before it, down to
//! 2024-11-05): the handshake versions, in which a server asks the client with an
//! `elicitation/create` request while the call waits. A client asking for a newer version is
//! answered with 2025-11-25.
//!
//! ```no_run
//! use std::sync::Arc;
//! use agent_core::{McpServer, Registry};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = Arc::new(Registry::builder().discover().build()?);
//! // Stdout now carries only JSON-RPC: log to stderr.
//! McpServer::new(registry).named("my-app", "1.0.0").serve_stdio().await?;
//! # Ok(()) }
//! ```

mod convert;
mod elicit;
mod handler;
#[cfg(test)]
mod tests;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::dispatch::Dispatcher;
use crate::messages::Messages;
use crate::registry::Registry;
use crate::tool::Caller;

/// Serves a registry's tools to one MCP client; see the module docs.
///
/// Built once per connection: [`McpServer::serve_stdio`] (the usual way, as a child process of
/// the client) or [`McpServer::serve_io`] (any byte streams) run until the client disconnects.
#[derive(Debug, Clone)]
#[must_use]
pub struct McpServer {
    registry: Arc<Registry>,
    name: String,
    version: String,
    instructions: Option<String>,
    confirm_timeout: Duration,
    messages: Messages,
}

impl McpServer {
    /// How long a confirmation question waits for the person by default: five minutes.
    pub const DEFAULT_CONFIRM_TIMEOUT: Duration = Duration::from_secs(300);

    /// A server for `registry`'s tools that admit outside assistants, introducing itself as
    /// `agent-core` until [`McpServer::named`] says otherwise.
    pub fn new(registry: Arc<Registry>) -> Self {
        Self {
            registry,
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            instructions: None,
            confirm_timeout: Self::DEFAULT_CONFIRM_TIMEOUT,
            messages: Messages::default(),
        }
    }

    /// The name and version the server gives in the handshake (`serverInfo`).
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Instructions for the client's model, sent in the handshake.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How long a confirmation question waits for the person before the call is cancelled
    /// (default [`McpServer::DEFAULT_CONFIRM_TIMEOUT`]).
    pub fn confirm_timeout(mut self, timeout: Duration) -> Self {
        self.confirm_timeout = timeout;
        self
    }

    /// The words of the confirmation form ([`Messages::confirm_question`],
    /// [`Messages::confirm_approve`]).
    pub fn messages(mut self, messages: Messages) -> Self {
        self.messages = messages;
        self
    }

    /// Serves one client on this process's stdin and stdout until it disconnects. Stdout then
    /// carries only JSON-RPC messages: anything else the program prints must go to stderr.
    ///
    /// # Errors
    /// [`McpError::Handshake`] when the client does not complete the handshake,
    /// [`McpError::Stopped`] when the connection's task fails.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        self.serve_io(stdin, stdout).await
    }

    /// Serves one client on a pair of byte streams (newline-delimited JSON-RPC, as on stdio)
    /// until it disconnects.
    ///
    /// # Errors
    /// As [`McpServer::serve_stdio`].
    pub async fn serve_io<R, W>(self, read: R, write: W) -> Result<(), McpError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let confirmer = elicit::ElicitConfirmer::new(self.confirm_timeout, &self.messages);
        let peer = confirmer.peer_slot();
        let dispatcher = Dispatcher::for_caller(self.registry, Caller::Assistant, confirmer);
        let handler =
            handler::Handler::new(dispatcher, peer, self.name, self.version, self.instructions);
        let running = handler
            .serve(wire::LineTransport::new(read, write))
            .await
            .map_err(|error| McpError::Handshake(Box::new(error)))?;
        running
            .waiting()
            .await
            .map(drop)
            .map_err(|error| McpError::Stopped(Box::new(error)))
    }
}

/// Why serving a client ended with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The client did not complete the MCP handshake (it closed the connection, or sent
    /// something other than `initialize` first).
    #[error("mcp handshake failed: {0}")]
    Handshake(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The task serving the connection failed.
    #[error("mcp connection failed: {0}")]
    Stopped(#[source] Box<dyn std::error::Error + Send + Sync>),
}
