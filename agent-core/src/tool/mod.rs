//! The leaf layer: tools themselves — their definitions, the context a handler receives,
//! results and errors, argument schemas, dependencies, examples, value providers,
//! confirmation summaries, and the size cap on what goes back to the model. Nothing here
//! knows about confirmation, registries or models.
//!
//! | file | owns |
//! |---|---|
//! | `definition.rs` | [`ToolDefinition`] and its builder, [`ToolDeclaration`], [`Tool`], [`Access`]/[`Caller`] |
//! | `call.rs` | [`CallContext`], [`ToolHandler`], [`Injected`], [`Confirmed`] |
//! | `result.rs` | [`ToolResult`], [`IntoToolResult`] |
//! | `returns.rs` | how `#[tool]`'s handler converts a fn's return value, chosen by its type |
//! | `error.rs` | [`ToolError`], [`ErrorCode`], [`DefinitionError`] |
//! | `schema.rs` | [`ToolSchema`]: the model's schema and the validation schema |
//! | `deps.rs` | [`Dep`], [`Deps`], and why a `Dep` is never an argument |
//! | `example.rs` | [`Example`] |
//! | `values.rs` | [`ValueChoice`], value providers, [`ValueSets`] |
//! | `validate.rs` | the validation gate's rules: depth, schema, deserialization |
//! | `summary.rs` | confirmation summaries |
//! | `cap.rs` | [`ResultCap`] |
//! | `journal.rs` | [`Journal`]: the destructive calls that ran, and their undos |
//! | `undo.rs` | [`UndoCall`], [`IntoUndo`]: how a tool's call is undone |

pub(crate) mod call;
pub(crate) mod cap;
pub(crate) mod definition;
pub(crate) mod deps;
pub(crate) mod error;
pub(crate) mod example;
pub(crate) mod journal;
pub(crate) mod result;
pub(crate) mod returns;
pub(crate) mod schema;
pub(crate) mod summary;
pub(crate) mod undo;
pub(crate) mod validate;
pub(crate) mod values;

pub use call::{BoxFuture, CallContext, Confirmed, Injected, ToolHandler};
pub use cap::{Capped, DEFAULT_MAX_BYTES, ResultCap};
pub use definition::{
    Access, Caller, ConfirmPredicate, ReplyFn, SourceLocation, Tool, ToolDeclaration,
    ToolDefinition, ToolDefinitionBuilder, is_valid_tool_name,
};
pub use deps::{Dep, Dependency, Deps};
pub use error::{DefinitionError, ErrorCode, ToolError};
pub use example::{Example, ExampleCall};
pub use journal::{
    DEFAULT_MEMORY_ENTRIES, Journal, JournalEntry, JournalError, JournalRecord, MemoryJournal,
};
pub use result::{IntoToolResult, NOT_CONFIRMED, ToolResult};
pub use schema::{ToolSchema, shape};
pub use undo::{IntoUndo, UndoCall, UndoHandler};
pub use validate::{ArgumentError, ArgumentReader, InvalidArguments, MAX_DEPTH};
pub use values::{IntoChoices, IntoValueProvider, ValueChoice, ValueProvider, ValueSets};
