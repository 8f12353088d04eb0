//! Checking a call's arguments: the validation gate's rules, in the layer that owns the
//! schema, so the dispatcher and the registry's example checks apply the very same ones.
//!
//! In order: `null` counts as `{}`; anything but an object is refused; a value nested deeper
//! than [`MAX_DEPTH`] is refused before anything walks it (validators and `serde` recurse,
//! and a value built in Rust can be nested deep enough to overflow the stack); then the
//! tool's JSON Schema, every failing field and rule reported at once. After the schema,
//! [`parse_args`] deserializes into the tool's Rust types and names the real field when
//! `serde` still refuses (say `2.0` for an integer).

use std::fmt;

use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::definition::ToolDefinition;
use super::error::{ErrorCode, ToolError};

/// The deepest nesting of objects and arrays an argument value may have. Real tool
/// arguments are a few levels deep; 32 leaves room for any schema while keeping every
/// recursive walk far from the stack's limit.
pub const MAX_DEPTH: usize = 32;

/// One failed rule of argument validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// The argument, as a path (`frame_level`, `when.hour`, `tags[2]`); `arguments` for the
    /// object as a whole.
    pub field: String,
    /// The JSON Schema keyword that failed (`required`, `type`, `maximum`, `enum`, …), or
    /// `depth`.
    pub rule: String,
    /// What is wrong, for the model.
    pub message: String,
}

/// Why arguments were refused: every failing field and rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid arguments: {}", format_errors(.errors))]
pub struct InvalidArguments {
    /// The failures, in the order the validator found them.
    pub errors: Vec<ArgumentError>,
}

impl InvalidArguments {
    fn one(field: impl Into<String>, rule: &str, message: String) -> Self {
        Self {
            errors: vec![ArgumentError {
                field: field.into(),
                rule: rule.to_owned(),
                message,
            }],
        }
    }
}

impl From<InvalidArguments> for ToolError {
    fn from(error: InvalidArguments) -> Self {
        ToolError::new(ErrorCode::Validation, error.to_string())
    }
}

impl From<InvalidArguments> for super::result::ToolResult {
    fn from(error: InvalidArguments) -> Self {
        Self::Error(error.into())
    }
}

fn format_errors(errors: &[ArgumentError]) -> String {
    errors
        .iter()
        .map(|e| match e.rule.as_str() {
            "required" => format!("`{}` is missing (required)", e.field),
            _ => format!("`{}`: {} ({})", e.field, e.message, e.rule),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The depth of `value` (a scalar is 0, `{}` is 1), computed without recursion and stopping
/// as soon as it passes `limit`.
fn exceeds_depth(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0_usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth + 1 > limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// Drops a value of any depth without recursion (serde_json's own drop recurses, and the
/// value is untrusted).
pub(crate) fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The validation gate for `tool`: see the module doc. Returns the arguments as the handler
/// receives them.
pub(crate) fn check_arguments(
    tool: &ToolDefinition,
    args: Value,
) -> Result<Value, InvalidArguments> {
    let args = match args {
        Value::Null => Value::Object(serde_json::Map::new()),
        Value::Object(_) => args,
        other => {
            let kind = match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            };
            return Err(InvalidArguments::one(
                "arguments",
                "type",
                format!("expected a JSON object of arguments, got {kind}"),
            ));
        }
    };
    if exceeds_depth(&args, MAX_DEPTH) {
        dispose(args);
        return Err(InvalidArguments::one(
            "arguments",
            "depth",
            format!("the arguments are nested more than {MAX_DEPTH} levels deep"),
        ));
    }
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
    Err(InvalidArguments { errors })
}

/// Deserializes validated arguments into a tool's argument type (used by `#[tool]`'s
/// generated handlers). A failure here — the schema allowed what `serde` refuses — is a
/// `validation` error naming the field `serde` stopped at.
pub fn parse_args<T: DeserializeOwned>(args: &Value) -> Result<T, InvalidArguments> {
    serde_path_to_error::deserialize(args).map_err(|error| {
        let path = error.path().to_string();
        let field = if path == "." || path.is_empty() {
            "arguments".to_owned()
        } else {
            path
        };
        InvalidArguments::one(field, "type", error.into_inner().to_string())
    })
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {} ({})", self.field, self.message, self.rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_is_measured_without_recursion() {
        assert!(!exceeds_depth(&json!(1), 0));
        assert!(!exceeds_depth(&json!({"a": [1]}), 2));
        assert!(exceeds_depth(&json!({"a": [1]}), 1));
        // 100 000 levels, built iteratively: checking must neither recurse nor be slow.
        let mut deep = Value::Null;
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        assert!(exceeds_depth(&deep, MAX_DEPTH));
        // Dropping it the usual way would recurse too.
        dispose(deep);
    }

    #[test]
    fn serde_errors_name_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Args {
            count: i64,
        }
        let error = parse_args::<Args>(&json!({"count": 2.0})).unwrap_err();
        assert_eq!(error.errors[0].field, "count", "{error}");
    }
}
