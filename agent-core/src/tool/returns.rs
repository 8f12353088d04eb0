//! How the value a `#[tool]` fn returns becomes a [`ToolResult`], decided by the type system
//! rather than by how the return type is spelled.
//!
//! A macro only sees tokens: `HabitResult<T>` (an alias of `Result<T, ToolError>`) does not
//! look like a `Result`, and a user's own `Result` struct does. So the generated handler does
//! not choose; it calls `Output(value).__agent_tool_convert()` with three candidate impls,
//! and method resolution picks the first whose bounds hold (autoref specialization, which
//! works here because the handler names the fn's concrete return type):
//!
//! 1. [`ReturnResult`] on `Output<T>` where `T: IntoToolResult` — a `Result<T, E>` with
//!    `E: Into<ToolError>` (under any alias) or a [`ToolResult`]: an `Err` reaches the model as
//!    an error;
//! 2. [`ReturnPlain`] on `&Output<T>` where `T: Serialize` — any other serializable value is
//!    `ok` data;
//! 3. [`ReturnOther`] on `&mut Output<T>`, always applicable, returning [`Unsupported`]: the
//!    return type fits neither, and [`finish_result`]/[`finish_plain`] then fail to compile
//!    with the reason (the spelling only picks which of the two explains it).

use serde::Serialize;

use super::result::{IntoToolResult, ToolResult, serialize_output};

/// A tool fn's return value on its way to a [`ToolResult`] (see the module docs).
pub struct Output<T>(pub T);

/// What a return type that fits no conversion produces; no [`finish_result`] or
/// [`finish_plain`] accepts it.
pub struct Unsupported<T>(T);

/// The first choice: the value converts itself ([`IntoToolResult`]).
pub trait ReturnResult {
    /// Converts.
    fn __agent_tool_convert(self) -> ToolResult;
}

impl<T: IntoToolResult> ReturnResult for Output<T> {
    fn __agent_tool_convert(self) -> ToolResult {
        self.0.into_tool_result()
    }
}

/// The second choice: the value is serialized as `ok` data.
pub trait ReturnPlain {
    /// Converts.
    fn __agent_tool_convert(self) -> ToolResult;
}

impl<T: Serialize> ReturnPlain for &Output<T> {
    fn __agent_tool_convert(self) -> ToolResult {
        serialize_output(&self.0)
    }
}

/// The last resort: nothing converts the value, so it is handed on unconverted.
pub trait ReturnOther<T> {
    /// Hands the value on.
    fn __agent_tool_convert(self) -> Unsupported<T>;
}

impl<T> ReturnOther<T> for &mut Output<T> {
    fn __agent_tool_convert(self) -> Unsupported<T> {
        // Never runs: a fn whose return type ends up here does not compile (no `finish_*`
        // accepts an `Unsupported`), so there is no program in which this is reached.
        unreachable!("a #[tool] return type that converts to no ToolResult was compiled")
    }
}

/// A converted result, or an [`Unsupported`] value whose type explains why it is not one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` fn",
    label = "return `Result<T, E>` with `T: Serialize` and `E: Into<ToolError>`, a `ToolResult`, or a plain `T: Serialize`"
)]
pub trait FinishResult {
    /// The result.
    fn finish(self) -> ToolResult;
}

impl FinishResult for ToolResult {
    fn finish(self) -> ToolResult {
        self
    }
}

// Holds only when `T` converts, i.e. never for a value that reached `Unsupported`: the point
// is the error, which names the failing bound of `IntoToolResult` (`E: Into<ToolError>`, `T:
// Serialize`) on the user's return type.
impl<T: IntoToolResult> FinishResult for Unsupported<T> {
    fn finish(self) -> ToolResult {
        self.0.into_tool_result()
    }
}

/// [`FinishResult`] for a return type not spelled like a `Result`: the error then names
/// `T: Serialize`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` fn",
    label = "return `Result<T, E>` with `T: Serialize` and `E: Into<ToolError>`, a `ToolResult`, or a plain `T: Serialize`"
)]
pub trait FinishPlain {
    /// The result.
    fn finish(self) -> ToolResult;
}

impl FinishPlain for ToolResult {
    fn finish(self) -> ToolResult {
        self
    }
}

impl<T: Serialize> FinishPlain for Unsupported<T> {
    fn finish(self) -> ToolResult {
        serialize_output(&self.0)
    }
}

/// The handler's last step for a return type spelled `Result<…>`/`ToolResult`.
pub fn finish_result(converted: impl FinishResult) -> ToolResult {
    converted.finish()
}

/// The handler's last step for any other return type.
pub fn finish_plain(converted: impl FinishPlain) -> ToolResult {
    converted.finish()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tool::error::ToolError;
    use serde_json::json;

    type Aliased<T> = Result<T, ToolError>;

    #[test]
    fn the_type_decides_not_the_spelling() {
        let err: Aliased<u8> = Err(ToolError::new("nope", "no"));
        assert_eq!(
            finish_plain(Output(err).__agent_tool_convert()),
            ToolResult::error("nope", "no")
        );
        let ok: Aliased<u8> = Ok(3);
        assert_eq!(
            finish_plain(Output(ok).__agent_tool_convert()),
            ToolResult::ok(json!(3))
        );
        assert_eq!(
            finish_plain(Output("text").__agent_tool_convert()),
            ToolResult::ok(json!("text"))
        );
        assert_eq!(
            finish_result(Output(ToolResult::cancelled()).__agent_tool_convert()),
            ToolResult::cancelled()
        );
    }
}
