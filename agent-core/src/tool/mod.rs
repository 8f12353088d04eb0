//! Tools: their definitions, results and the wire envelope sent back to the model.

use serde::Serialize;
use serde_json::Value;

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
