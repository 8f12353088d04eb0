//! The leaf layer: tools themselves — their definitions, the context a handler receives,
//! results and errors, argument schemas, dependencies, examples, value providers,
//! confirmation summaries, and the size cap on what goes back to the model. Nothing here
//! knows about confirmation, registries or models.
//!
//! | file | owns |
//! |---|---|
//! | `definition.rs` | [`ToolDefinition`] and its builder, [`Tool`], [`Access`]/[`Caller`] |
//! | `call.rs` | [`CallContext`], [`ToolHandler`] |
//! | `result.rs` | [`ToolResult`], [`IntoToolResult`] |
//! | `returns.rs` | how `#[tool]`'s handler converts a fn's return value, chosen by its type |
//! | `error.rs` | [`ToolError`], [`ErrorCode`], [`DefinitionError`] |
//! | `schema.rs` | [`ToolSchema`]: the model's schema and the validation schema |
//! | `deps.rs` | [`Dep`], [`Deps`], and why a `Dep` is never an argument |
//! | `example.rs` | [`Example`] |
//! | `values.rs` | [`ValueChoice`], value providers |
//! | `validate.rs` | the validation gate's rules: depth, schema, deserialization |
//! | `summary.rs` | confirmation summaries |
//! | `cap.rs` | [`ResultCap`] |

pub(crate) mod call;
pub(crate) mod cap;
pub(crate) mod definition;
pub(crate) mod deps;
pub(crate) mod error;
pub(crate) mod example;
pub(crate) mod result;
pub(crate) mod returns;
pub(crate) mod schema;
pub(crate) mod summary;
pub(crate) mod validate;
pub(crate) mod values;

use serde::Serialize;
use serde_json::Value;

pub use call::{BoxFuture, CallContext, ToolHandler};
pub use cap::{Capped, DEFAULT_MAX_BYTES, ResultCap};
pub use definition::{
    Access, Caller, ConfirmPredicate, ReplyFn, SourceLocation, Tool, ToolDefinition,
    ToolDefinitionBuilder, is_valid_tool_name,
};
pub use deps::{Dep, Dependency, Deps, Injected};
pub use error::{DefinitionError, ErrorCode, ToolError};
pub use example::{Example, ExampleCall};
pub use result::{IntoToolResult, NOT_CONFIRMED, ToolResult};
pub use schema::{ToolSchema, shape};
pub use validate::{ArgumentError, ArgumentReader, InvalidArguments, MAX_DEPTH};
pub use values::{IntoChoices, IntoValueProvider, ValueChoice, ValueProvider};

/// What the model sees of a tool: its name, description and the JSON Schema of its
/// arguments — and, for backends, the label people see and the parameters a model must copy
/// from the request. Serialized, it is the function-calling standard's
/// `{"name", "description", "parameters"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDeclaration {
    /// The tool name (`[a-zA-Z_][a-zA-Z0-9_]{0,63}`).
    pub name: String,
    /// The human label ("습관 검색").
    #[serde(skip)]
    pub label: String,
    /// Parameters whose text must be copied from the user's message (see
    /// [`ToolDefinitionBuilder::from_request`]).
    #[serde(skip)]
    pub from_request: Vec<String>,
    /// What the tool does, from the fn's doc comment.
    pub description: String,
    /// The shaped JSON Schema of the arguments (root `type: object`).
    pub parameters: Value,
}
