//! The dispatcher: runs one tool call from a model and always answers with a [`ToolResult`].
//!
//! Gates, in order (as in the reference spec):
//!
//! 1. **lookup** — an unknown name → `unknown_tool`, whose reason lists the available names;
//! 2. **validation** against the tool's JSON Schema — types, required fields, ranges, enums,
//!    lengths, patterns → `validation`, naming each failing field and rule. Unknown extra keys
//!    are ignored (small models invent them), and `null` args count as `{}`;
//! 3. **the tool's handler**, as decorated by the registry: the confirmation gate for
//!    destructive tools (→ `cancelled`), the timeout when set (→ `timeout`), then the tool fn
//!    (its `Err` → that error). A panic anywhere in there → `handler_error`.
//!
//! [`Registry::dispatch`] never panics and never returns a Rust error.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::confirm::Confirmer;
use crate::registry::Registry;
use crate::tool::{BoxFuture, ToolCall, ToolDefinition, ToolError, ToolHandler, ToolResult};

/// Why the runtime (rather than the tool) could not run a call. Reaches the model as a
/// `ToolResult::Error` with [`code`](DispatchError::code) and the message as reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// No tool has this name.
    #[error("unknown tool `{name}`; available tools: {available}")]
    UnknownTool {
        /// The name the model used.
        name: String,
        /// The registered names, comma-separated.
        available: String,
    },
    /// The arguments do not satisfy the tool's schema.
    #[error("invalid arguments: {}", format_argument_errors(.errors))]
    Validation {
        /// Every failing field and rule.
        errors: Vec<ArgumentError>,
    },
    /// The tool fn panicked.
    #[error("the tool failed unexpectedly: {message}")]
    Panicked {
        /// The panic message.
        message: String,
    },
    /// The tool did not finish in time.
    #[error("the tool did not finish within {} ms", .after.as_millis())]
    Timeout {
        /// The limit.
        after: Duration,
    },
    /// A `Dep<T>` the tool needs was not provided (hand-built tools only: the registry checks
    /// `#[tool]` dependencies at build time).
    #[error("the tool needs a `{type_name}` that was not provided")]
    MissingDependency {
        /// The missing type.
        type_name: &'static str,
    },
}

impl DispatchError {
    /// The error for a caught panic, with its message (`panic!("…")` payloads are `&str` or
    /// `String`). For tools that run work elsewhere, e.g. on `spawn_blocking`, and catch it.
    pub fn from_panic(payload: Box<dyn Any + Send>) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Self::Panicked { message }
    }

    /// The stable code the model sees: `unknown_tool`, `validation`, `handler_error` or
    /// `timeout`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnknownTool { .. } => "unknown_tool",
            Self::Validation { .. } => "validation",
            Self::Panicked { .. } | Self::MissingDependency { .. } => "handler_error",
            Self::Timeout { .. } => "timeout",
        }
    }
}

impl From<DispatchError> for ToolError {
    fn from(error: DispatchError) -> Self {
        ToolError::new(error.code(), error.to_string())
    }
}

impl From<DispatchError> for ToolResult {
    fn from(error: DispatchError) -> Self {
        ToolResult::Error(error.into())
    }
}

/// One failed rule of argument validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// The argument, as a path (`frame_level`, `when.hour`, `tags[2]`); `arguments` for the
    /// object as a whole.
    pub field: String,
    /// The JSON Schema keyword that failed (`required`, `type`, `maximum`, `enum`, …).
    pub rule: String,
    /// What is wrong, for the model.
    pub message: String,
}

fn format_argument_errors(errors: &[ArgumentError]) -> String {
    errors
        .iter()
        .map(|e| match e.rule.as_str() {
            "required" => format!("`{}` is missing (required)", e.field),
            _ => format!("`{}`: {} ({})", e.field, e.message, e.rule),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl Registry {
    /// Runs the call `name(args)` with the registry's confirmer.
    pub async fn dispatch(&self, name: &str, args: Value) -> ToolResult {
        self.dispatch_with(name, args, Arc::clone(&self.confirmer))
            .await
    }

    /// Runs the call `name(args)`, asking `confirmer` about destructive calls — e.g. a UI's
    /// per-conversation dialog, or a confirmer that also reports progress events.
    pub async fn dispatch_with(
        &self,
        name: &str,
        args: Value,
        confirmer: Arc<dyn Confirmer>,
    ) -> ToolResult {
        let Some(tool) = self.get(name) else {
            return DispatchError::UnknownTool {
                name: name.to_owned(),
                available: self.names().collect::<Vec<_>>().join(", "),
            }
            .into();
        };
        let args = match validate(tool, args) {
            Ok(args) => args,
            Err(error) => return error.into(),
        };
        let call = ToolCall::new(args, self.deps.clone(), confirmer);
        // A handler may panic while creating its future as well as while it runs.
        let future = match std::panic::catch_unwind(AssertUnwindSafe(|| tool.handler.call(call))) {
            Ok(future) => future,
            Err(panic) => return panicked(panic),
        };
        match AssertUnwindSafe(future).catch_unwind().await {
            Ok(result) => result,
            Err(panic) => panicked(panic),
        }
    }
}

fn panicked(panic: Box<dyn Any + Send>) -> ToolResult {
    DispatchError::from_panic(panic).into()
}

/// Gate 2: `null` → `{}`, then the tool's schema.
fn validate(tool: &ToolDefinition, args: Value) -> Result<Value, DispatchError> {
    let args = match args {
        Value::Null => Value::Object(serde_json::Map::new()),
        Value::Object(_) => args,
        other => {
            return Err(DispatchError::Validation {
                errors: vec![ArgumentError {
                    field: "arguments".into(),
                    rule: "type".into(),
                    message: format!("expected a JSON object of arguments, got {other}"),
                }],
            });
        }
    };
    if tool.validator.is_valid(&args) {
        return Ok(args);
    }
    let errors = tool
        .validator
        .iter_errors(&args)
        .map(|error| {
            let mut field = String::new();
            for segment in error.instance_path().segments() {
                match segment {
                    LocationSegment::Index(index) => field.push_str(&format!("[{index}]")),
                    LocationSegment::Property(name) => {
                        if !field.is_empty() {
                            field.push('.');
                        }
                        field.push_str(&name);
                    }
                }
            }
            if let ValidationErrorKind::Required { property } = error.kind() {
                let property = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned);
                if !field.is_empty() {
                    field.push('.');
                }
                field.push_str(&property);
            }
            if field.is_empty() {
                field = "arguments".into();
            }
            ArgumentError {
                field,
                rule: error.kind().keyword().to_owned(),
                message: error.to_string(),
            }
        })
        .collect();
    Err(DispatchError::Validation { errors })
}

/// Deserializes validated arguments into a tool's argument type. Used by `#[tool]`'s
/// generated handlers; a failure here (the schema allowed what serde refuses) is a
/// `validation` error too.
pub fn parse_args<T: DeserializeOwned>(args: &Value) -> Result<T, DispatchError> {
    T::deserialize(args).map_err(|error| DispatchError::Validation {
        errors: vec![ArgumentError {
            field: "arguments".into(),
            rule: "type".into(),
            message: error.to_string(),
        }],
    })
}

/// The timeout decorator the registry puts around a handler with a time limit.
pub(crate) struct Timeout {
    inner: Arc<dyn ToolHandler>,
    after: Duration,
}

impl Timeout {
    pub(crate) fn new(inner: Arc<dyn ToolHandler>, after: Duration) -> Self {
        Self { inner, after }
    }
}

impl ToolHandler for Timeout {
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        let future = self.inner.call(call);
        let after = self.after;
        Box::pin(async move {
            match tokio::time::timeout(after, future).await {
                Ok(result) => result,
                Err(_) => DispatchError::Timeout { after }.into(),
            }
        })
    }
}
