//! agent-core: the runtime (crate docs being written).

// Lets `#[tool]` (which emits `::agent_core::…` paths) be used inside this crate too.
extern crate self as agent_core;

pub mod confirm;
pub mod dispatch;
pub mod llm;
pub mod registry;
pub mod tool;

pub use agent_macros::tool;
pub use confirm::{ApproveAll, ConfirmRequest, Confirmation, Confirmer, DenyAll};
pub use dispatch::{ArgumentError, DispatchError};
pub use registry::{Registry, RegistryBuilder, RegistryError};
pub use tool::{
    Dep, ResultCap, Tool, ToolCall, ToolDeclaration, ToolDefinition, ToolError, ToolResult,
    ToolSchema,
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
    use serde::de::DeserializeOwned;

    /// A plain `T: Serialize` returned by a tool fn.
    pub struct Plain<T>(pub T);

    impl<T: Serialize> IntoToolResult for Plain<T> {
        fn into_tool_result(self) -> ToolResult {
            crate::tool::result::serialize_output(&self.0)
        }
    }

    /// A tool fn without a return type answers `{}`.
    pub fn unit_result(_: ()) -> ToolResult {
        ToolResult::ok(serde_json::Value::Object(serde_json::Map::new()))
    }

    /// Spanned on a parameter's type: it must come from JSON and describe itself.
    pub fn assert_argument<T: DeserializeOwned + schemars::JsonSchema>() {}

    /// Spanned on an injected parameter's type.
    pub fn assert_injected<T: Injected>() {}

    /// Spanned on a `Result`/`ToolResult` return type.
    pub fn assert_into_tool_result<T: IntoToolResult>() {}

    /// Spanned on a plain return type.
    pub fn assert_serialize<T: Serialize>() {}
}
