//! Errors of the tool layer: [`ToolError`], what a call answers the model when it fails, the
//! runtime's own stable codes ([`ErrorCode`]), and [`DefinitionError`], why a tool could not
//! be defined.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The codes the runtime itself answers with — one list, so the model, apps and logs can
/// match on them without repeating string literals. Tools add their own domain codes
/// (`r3_quota`, `not_found`, …) as strings; see [`ToolError::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// No tool of that name is available to the caller.
    UnknownTool,
    /// The arguments do not satisfy the tool's schema (or are nested too deep to check).
    Validation,
    /// The tool panicked, could not serialize its result, or lacked a dependency; over MCP
    /// also: its result does not match the output schema it declares.
    HandlerError,
    /// The tool did not finish within its time limit.
    Timeout,
    /// The model repeated a call it already made in this user turn.
    RepeatedCall,
    /// The model was still calling tools at the agent's turn limit.
    TurnLimit,
    /// An undo was asked of a call whose tool declares no undo.
    NotUndoable,
    /// An undo was asked of a call that was already undone.
    AlreadyUndone,
    /// Over MCP, the result of a tool that declares an output schema was over the result cap:
    /// cut, it would no longer be what the schema promises, so it is not sent.
    ResultTooLarge,
    /// The tool failed with only a message: its `Err` was a `String` or a `&str`.
    Failed,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 10] = [
        Self::UnknownTool,
        Self::Validation,
        Self::HandlerError,
        Self::Timeout,
        Self::RepeatedCall,
        Self::TurnLimit,
        Self::NotUndoable,
        Self::AlreadyUndone,
        Self::ResultTooLarge,
        Self::Failed,
    ];

    /// The wire form: `unknown_tool`, `validation`, `handler_error`, `timeout`,
    /// `repeated_call`, `turn_limit`, `not_undoable`, `already_undone`, `result_too_large`,
    /// `failed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnknownTool => "unknown_tool",
            Self::Validation => "validation",
            Self::HandlerError => "handler_error",
            Self::Timeout => "timeout",
            Self::RepeatedCall => "repeated_call",
            Self::TurnLimit => "turn_limit",
            Self::NotUndoable => "not_undoable",
            Self::AlreadyUndone => "already_undone",
            Self::ResultTooLarge => "result_too_large",
            Self::Failed => "failed",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<ErrorCode> for Cow<'static, str> {
    fn from(code: ErrorCode) -> Self {
        Cow::Borrowed(code.as_str())
    }
}

impl PartialEq<ErrorCode> for &str {
    fn eq(&self, code: &ErrorCode) -> bool {
        *self == code.as_str()
    }
}

/// An error a tool reports to the model: a stable machine `code` (`r3_quota`, `duplicate`,
/// `not_found`, or one of the runtime's [`ErrorCode`]s) and a human `reason` the model can
/// explain to the user.
///
/// Domain crates usually keep their own `thiserror` enum and convert it with `From`:
///
/// ```
/// use agent_core::ToolError;
///
/// #[derive(Debug, thiserror::Error)]
/// enum HabitError {
///     #[error("at most 3 build habits can be active")]
///     Quota,
/// }
///
/// impl From<HabitError> for ToolError {
///     fn from(error: HabitError) -> Self {
///         let code = match error {
///             HabitError::Quota => "r3_quota",
///         };
///         ToolError::new(code, error.to_string())
///     }
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {reason}")]
pub struct ToolError {
    code: Cow<'static, str>,
    reason: String,
}

impl ToolError {
    /// A new error. `code` should be a short, stable `snake_case` identifier (an
    /// [`ErrorCode`] converts too).
    pub fn new(code: impl Into<Cow<'static, str>>, reason: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            reason: reason.into(),
        }
    }

    /// The stable machine code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Whether this is the runtime's `code`.
    pub fn is(&self, code: ErrorCode) -> bool {
        self.code == code.as_str()
    }

    /// The human-readable reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The `handler_error` for a caught panic, with its message (`panic!("…")` payloads are
    /// `&str` or `String`). For tools that run work elsewhere, e.g. on `spawn_blocking`, and
    /// catch its panic there.
    pub fn from_panic(payload: Box<dyn std::any::Any + Send>) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Self::new(
            ErrorCode::HandlerError,
            format!("the tool failed unexpectedly: {message}"),
        )
    }
}

/// An `Err(String)` from a tool: a `failed` error with the message as its reason, so a tool
/// returning `Result<T, String>` answers the model with an error it can read.
impl From<String> for ToolError {
    fn from(reason: String) -> Self {
        Self::new(ErrorCode::Failed, reason)
    }
}

/// An `Err(&str)` from a tool: a `failed` error with the message as its reason.
impl From<&str> for ToolError {
    fn from(reason: &str) -> Self {
        Self::new(ErrorCode::Failed, reason)
    }
}

/// Why a tool definition could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The name does not match `[a-zA-Z_][a-zA-Z0-9_.-]{0,63}`.
    #[error(
        "invalid tool name `{0}`: use 1 to 64 ASCII letters, digits, `_`, `-` or `.`, starting with a letter or `_`"
    )]
    InvalidName(String),
    /// The description is empty.
    #[error("tool `{0}` has no description; small models choose tools by their description")]
    MissingDescription(String),
    /// The label is empty.
    #[error("tool `{0}` has an empty label")]
    EmptyLabel(String),
    /// An undo was given to a tool that is not destructive.
    #[error(
        "tool `{0}` declares an undo but is not destructive; only calls that change something are journaled and undone"
    )]
    UndoWithoutDestructive(String),
    /// No handler was given.
    #[error("tool `{0}` has no handler")]
    MissingHandler(String),
    /// The parameter schema is not a valid JSON Schema or has no object root.
    #[error("tool `{name}` has an invalid parameter schema: {reason}")]
    InvalidSchema {
        /// The tool.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The result schema has no object root or is not a valid JSON Schema.
    #[error("tool `{name}` has an invalid output schema: {reason}")]
    InvalidOutputSchema {
        /// The tool.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The summary template does not parse or names an unknown parameter.
    #[error("tool `{name}` has an invalid summary template: {reason}")]
    InvalidSummary {
        /// The tool.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A value provider or `from_request` names a parameter the tool does not have.
    #[error("tool `{name}` restricts `{param}`, which is not one of its parameters")]
    UnknownValuesParameter {
        /// The tool.
        name: String,
        /// The parameter named.
        param: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_and_distinct() {
        let all: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        for (i, code) in all.iter().enumerate() {
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
            assert!(!all[..i].contains(code), "{code} twice");
        }
        let error = ToolError::new(ErrorCode::Timeout, "slow");
        assert!(error.is(ErrorCode::Timeout));
        assert_eq!(error.code(), "timeout");
        assert!(error.code() == ErrorCode::Timeout);
    }
}
