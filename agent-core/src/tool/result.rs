//! The result of one tool call, as the model sees it: ok / error / cancelled, with the exact
//! wire JSON of the reference spec, and the conversion from what a tool fn returns.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{ErrorCode, ToolError};

/// The reason sent to the model when a destructive call was not confirmed.
pub const NOT_CONFIRMED: &str = "user did not confirm";

/// What one tool call produced. It is always answered to the model, whatever happened.
///
/// Serialized (with [`ToolResult::encode`] or serde) it is exactly one of
///
/// ```json
/// {"status":"ok","data":{…}}
/// {"status":"error","code":"…","reason":"…"}
/// {"status":"cancelled","reason":"user did not confirm"}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum ToolResult {
    /// The tool ran and returned data.
    Ok {
        /// The tool's serialized output.
        data: Value,
    },
    /// The call failed: unknown tool, invalid arguments, a domain rule, a panic, a timeout.
    Error(ToolError),
    /// A destructive call that the user (or the absence of a confirmer) did not approve.
    Cancelled {
        /// Why it did not run; [`NOT_CONFIRMED`] unless the confirmer gave a reason.
        reason: String,
    },
}

impl ToolResult {
    /// An `ok` result with the given data.
    pub fn ok(data: Value) -> Self {
        Self::Ok { data }
    }

    /// An `error` result with a stable `code` and a human `reason`.
    pub fn error(code: impl Into<Cow<'static, str>>, reason: impl Into<String>) -> Self {
        Self::Error(ToolError::new(code, reason))
    }

    /// A `cancelled` result with the reference spec's reason, "user did not confirm".
    pub fn cancelled() -> Self {
        Self::Cancelled {
            reason: NOT_CONFIRMED.to_owned(),
        }
    }

    /// The `status` discriminator: `"ok"`, `"error"` or `"cancelled"`.
    pub fn status(&self) -> &'static str {
        match self {
            Self::Ok { .. } => "ok",
            Self::Error(_) => "error",
            Self::Cancelled { .. } => "cancelled",
        }
    }

    /// `true` for an `ok` result.
    pub fn is_ok(&self) -> bool {
        matches!(self, Self::Ok { .. })
    }

    /// The error, for an `error` result.
    pub fn as_error(&self) -> Option<&ToolError> {
        match self {
            Self::Error(error) => Some(error),
            _ => None,
        }
    }

    /// The data, for an `ok` result.
    pub fn data(&self) -> Option<&Value> {
        match self {
            Self::Ok { data } => Some(data),
            _ => None,
        }
    }

    /// The wire JSON as a value, uncapped.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Ok { data } => serde_json::json!({ "status": "ok", "data": data }),
            Self::Error(error) => serde_json::json!({
                "status": "error",
                "code": error.code(),
                "reason": error.reason(),
            }),
            Self::Cancelled { reason } => {
                serde_json::json!({ "status": "cancelled", "reason": reason })
            }
        }
    }
}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        Self::Error(error)
    }
}

/// Converts what a tool fn returns into a [`ToolResult`].
///
/// Implemented for `Result<T, E>` where `T: Serialize` and `E: Into<ToolError>`, and for
/// [`ToolResult`] itself. A tool fn returning a plain `T: Serialize` is wrapped by the macro.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` fn",
    label = "the return type must be `Result<T, E>` with `T: Serialize` and `E: Into<ToolError>`, or a plain `T: Serialize`"
)]
pub trait IntoToolResult {
    /// Performs the conversion. Serialization failures become a `handler_error`.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl<T: Serialize, E: Into<ToolError>> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(output) => serialize_output(&output),
            Err(error) => ToolResult::Error(error.into()),
        }
    }
}

/// Serializes a tool's output into an `ok` result.
///
/// A value that carries nothing — `()`, as in `Ok(())`, or a unit struct — answers `{}`, as a
/// tool without a return type does, rather than `null`.
pub(crate) fn serialize_output<T: Serialize + ?Sized>(output: &T) -> ToolResult {
    match serde_json::to_value(output) {
        Ok(Value::Null) if std::mem::size_of_val(output) == 0 => ToolResult::Ok {
            data: Value::Object(serde_json::Map::new()),
        },
        Ok(data) => ToolResult::Ok { data },
        Err(error) => ToolResult::error(
            ErrorCode::HandlerError,
            format!("the tool's result could not be serialized: {error}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_json_matches_the_reference_spec() {
        let ok = ToolResult::ok(json!({"count": 1}));
        assert_eq!(
            serde_json::to_string(&ok).unwrap(),
            r#"{"status":"ok","data":{"count":1}}"#
        );
        let error = ToolResult::error("r3_quota", "too many");
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"status":"error","code":"r3_quota","reason":"too many"}"#
        );
        assert_eq!(
            serde_json::to_string(&ToolResult::cancelled()).unwrap(),
            r#"{"status":"cancelled","reason":"user did not confirm"}"#
        );
        for result in [ok, error, ToolResult::cancelled()] {
            assert_eq!(serde_json::to_value(&result).unwrap(), result.to_value());
            let back: ToolResult = serde_json::from_value(result.to_value()).unwrap();
            assert_eq!(back, result);
        }
    }

    #[test]
    fn results_convert_from_fn_outputs() {
        let ok: Result<_, ToolError> = Ok(json!({"a": 1}));
        assert_eq!(ok.into_tool_result(), ToolResult::ok(json!({"a": 1})));
        let err: Result<(), ToolError> = Err(ToolError::new("duplicate", "already logged"));
        assert_eq!(
            err.into_tool_result(),
            ToolResult::error("duplicate", "already logged")
        );
    }

    #[test]
    fn unserializable_output_is_a_handler_error() {
        use std::collections::HashMap;
        // A map with non-string keys cannot become JSON.
        let map: HashMap<(u8, u8), u8> = HashMap::from([((1, 2), 3)]);
        let result = Ok::<_, ToolError>(map).into_tool_result();
        assert_eq!(result.as_error().unwrap().code(), "handler_error");
    }
}
