//! The `rmcp` server handler of one connection: what the server declares in the handshake
//! (tools only, protocol versions up to 2025-11-25), and `tools/list` and `tools/call`, both
//! answered from one [`Dispatcher`] for [`Caller::Assistant`](crate::Caller).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::convert;
use super::elicit::{CALL_CANCELLED, Cancelled, PeerSlot};
use crate::dispatch::Dispatcher;

/// The newest protocol version served: the last with the `initialize` handshake, where a
/// server asks the client (elicitation) with a request of its own while a call waits. From
/// 2026-07-28 on a server may not send requests; a call would have to end with
/// `input_required` and be re-sent with the answer, which the confirmation gate, a future
/// that waits for its answer, does not fit.
const NEWEST: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// Serves one connection's tool requests.
pub(super) struct Handler {
    dispatcher: Dispatcher,
    /// Filled with the client at its first call, for the confirmer.
    peer: PeerSlot,
    /// The `tools/list` answer, computed once: the admitted tools in registration order.
    tools: Arc<[Tool]>,
    info: ServerConfig,
}

impl Handler {
    /// A handler answering from `dispatcher`, whose confirmer asks the client put in `peer`.
    pub(super) fn new(
        dispatcher: Dispatcher,
        peer: PeerSlot,
        name: String,
        version: String,
        instructions: Option<String>,
    ) -> Self {
        let tools = dispatcher.tools().map(convert::tool).collect();
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(name, version))
            .with_protocol_version(NEWEST);
        info.instructions = instructions;
        Self {
            dispatcher,
            peer,
            tools,
            info,
        }
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&NEWEST))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    /// Every call is answered with a tool result, whatever the name or arguments: an unknown
    /// or not-admitted name, and arguments the schema refuses, are the dispatcher's
    /// `unknown_tool` and `validation` errors, so the calling model can correct itself.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // One handler serves one connection, so its first caller is the client to ask.
        self.peer.get_or_init(|| context.peer.clone());
        let args = request.arguments.map_or(Value::Null, Value::Object);
        // The confirmer withdraws an open form when the client cancels this call; once a
        // call is confirmed it runs to its end, so what the client is told later is true.
        let ct = context.ct.clone();
        let cancelled: Cancelled = Arc::new(move || {
            let ct = ct.clone();
            Box::pin(async move { ct.cancelled().await })
        });
        let result = CALL_CANCELLED
            .scope(cancelled, self.dispatcher.dispatch(&request.name, args))
            .await;
        let cap = self.dispatcher.registry().result_cap();
        let tool = self.dispatcher.get(&request.name);
        Ok(convert::call_result(tool, &result, cap).into())
    }
}
