//! agent-core: the runtime (crate docs being written).

// Lets `#[tool]` (which emits `::agent_core::…` paths) be used inside this crate too.
extern crate self as agent_core;

pub mod agent;
pub mod confirm;
pub mod dispatch;
pub mod llm;
pub mod registry;
pub mod tool;

pub use agent::{Agent, AgentError, AgentEvent, EventSink};
pub use agent_macros::tool;
pub use confirm::{ApproveAll, ConfirmRequest, Confirmation, Confirmer, DenyAll};
pub use dispatch::{ArgumentError, DispatchError};
pub use llm::{ChatConfig, ChatEvent, ChatSession, LlmError, ToolChoice};
pub use registry::{Registry, RegistryBuilder, RegistryError};
pub use tool::{
    DefinitionError, Dep, ResultCap, Tool, ToolCall, ToolDeclaration, ToolDefinition, ToolError,
    ToolResult, ToolSchema,
};

/// What `#[tool]`'s generated code uses, so a crate declaring tools needs no direct
/// dependency on serde, schemars or inventory (and their versions cannot skew). Not public API.
#[doc(hidden)]
pub mod __private {
    pub use ::inventory;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    pub use crate::dispatch::parse_args;
    pub use crate::registry::ToolRegistration;
    pub use crate::tool::{
        BoxFuture, DefinitionError, Injected, IntoToolResult, SourceLocation, Tool, ToolCall,
        ToolDefinition, ToolResult, ToolSchema,
    };

    use serde::Serialize;

    /// A tool fn without a return type answers `{}`.
    pub fn unit_result(_: ()) -> ToolResult {
        ToolResult::ok(serde_json::Value::Object(serde_json::Map::new()))
    }

    /// How the generated handler obtains one injected parameter, and what it declares.
    pub struct Injector<T> {
        /// The declared dependency.
        pub dependency: crate::tool::Dependency,
        /// Takes the value out of a call.
        pub from_call: fn(&ToolCall) -> Result<T, crate::DispatchError>,
    }

    /// The single place an injected parameter's type is checked (spanned on that type).
    pub fn injector<T: Injected>() -> Injector<T> {
        Injector {
            dependency: T::dependency(),
            from_call: T::from_call,
        }
    }

    /// Converts a `Result`/`ToolResult` return value (spanned on the return type).
    pub fn convert_output<T: IntoToolResult>(output: T) -> ToolResult {
        output.into_tool_result()
    }

    /// Converts a plain `T: Serialize` return value (spanned on the return type).
    pub fn convert_plain<T: Serialize>(output: T) -> ToolResult {
        crate::tool::result::serialize_output(&output)
    }
}
