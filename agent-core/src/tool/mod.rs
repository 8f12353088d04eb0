//! Tools: their definitions, results, argument schemas, dependencies, confirmation summaries
//! and the size-capped wire envelope sent back to the model.

pub(crate) mod definition;
pub(crate) mod deps;
pub(crate) mod envelope;
pub(crate) mod result;
pub(crate) mod schema;
pub(crate) mod summary;

use serde::Serialize;
use serde_json::Value;

pub use definition::{
    BoxFuture, ConfirmPredicate, DefinitionError, SourceLocation, Tool, ToolCall, ToolDefinition,
    ToolDefinitionBuilder, ToolHandler, is_valid_tool_name,
};
pub use deps::{Dep, Dependency, Deps, Injected};
pub use envelope::{Capped, DEFAULT_HINT, DEFAULT_MAX_BYTES, ResultCap};
pub use result::{IntoToolResult, NOT_CONFIRMED, ToolError, ToolResult};
pub use schema::{ToolSchema, shape};

/// What the model sees of a tool: its name, description and the JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDeclaration {
    /// The tool name (`[a-zA-Z_][a-zA-Z0-9_]{0,63}`).
    pub name: String,
    /// What the tool does, from the fn's doc comment.
    pub description: String,
    /// The shaped JSON Schema of the arguments (root `type: object`).
    pub parameters: Value,
}
