//! Checking a call's arguments: the validation gate's rules, in the layer that owns the
//! schema, so the dispatcher and the registry's example checks apply the very same ones.
//!
//! In order: `null` counts as `{}`; anything but an object is refused; a value nested deeper
//! than [`MAX_DEPTH`] is refused before anything walks it (validators and `serde` recurse,
//! and a value built in Rust can be nested deep enough to overflow the stack); then the
//! tool's JSON Schema, every failing field and rule reported at once. After the schema,
//! [`ArgumentReader`] deserializes each argument into its Rust type and names the real field
//! when `serde` still refuses.
//!
//! The schema is compiled ([`compile`]) so that it promises nothing the gate does not check:
//! `format`s are asserted and an unknown one refuses to compile, and `type: integer` means
//! what it means to serde — a JSON integer. (JSON Schema counts `2.0` as an integer; every
//! Rust integer type refuses it, so the gate does too, naming the field.)

use std::fmt;
use std::marker::PhantomData;

use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{Keyword, ValidationError, Validator};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::{ErrorCode, ToolError};
use super::schema;

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

/// The keyword [`compile`] adds next to every `type: integer`: the value must be a JSON
/// integer (`2`), not a number with a zero fraction (`2.0`).
const WHOLE_INTEGER: &str = "x-agent-integer";

/// Compiles a tool's validation schema (see the module doc). The error is the reason the
/// schema cannot be used, for a `DefinitionError::InvalidSchema`.
pub(crate) fn compile(validation: &Value) -> Result<Validator, String> {
    let mut marked = validation.clone();
    schema::visit_nodes_mut(&mut marked, &mut |node| {
        let types: Vec<&str> = match node.get("type") {
            Some(Value::String(ty)) => vec![ty.as_str()],
            Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"integer") && !types.contains(&"number") {
            node.insert(WHOLE_INTEGER.to_owned(), Value::Bool(true));
        }
    });
    jsonschema::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .with_keyword(WHOLE_INTEGER, |_, _, _: Location| {
            Ok(Box::new(WholeInteger))
        })
        .build(&marked)
        .map_err(|error| error.to_string())
}

/// See [`WHOLE_INTEGER`].
struct WholeInteger;

impl<'i> Keyword<'i> for WholeInteger {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "{instance} is not an integer: write it without a fraction or exponent"
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::Number(number) => number.is_i64() || number.is_u64(),
            // Other types are the `type` keyword's business.
            _ => true,
        }
    }
}

/// The validation gate for a tool whose compiled validation schema is `validator`: see the
/// module doc. Returns the arguments as the handler receives them.
pub(crate) fn check_arguments(
    validator: &Validator,
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
    if validator.is_valid(&args) {
        return Ok(args);
    }
    let errors = validator
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
            let rule = match error.kind().keyword() {
                WHOLE_INTEGER => "type",
                keyword => keyword,
            };
            ArgumentError {
                field,
                rule: rule.to_owned(),
                message: error.to_string(),
            }
        })
        .collect();
    Err(InvalidArguments { errors })
}

/// Reads a tool's arguments one at a time, for `#[tool]`'s generated code: each argument is
/// deserialized into its own Rust type, and every one that fails is recorded under its JSON
/// name (with the path inside it, `when.hour`), so the model hears about all of them at once.
/// A missing argument reads as `null` (an `Option` is then `None`) unless it has a default.
pub struct ArgumentReader<'a> {
    args: Option<&'a serde_json::Map<String, Value>>,
    errors: Vec<ArgumentError>,
}

impl<'a> ArgumentReader<'a> {
    /// Starts reading `args` (validated arguments: an object).
    pub fn new(args: &'a Value) -> Self {
        let mut errors = Vec::new();
        let args = match args {
            Value::Object(map) => Some(map),
            Value::Null => None,
            _ => {
                errors.push(ArgumentError {
                    field: "arguments".to_owned(),
                    rule: "type".to_owned(),
                    message: "expected a JSON object of arguments".to_owned(),
                });
                None
            }
        };
        Self { args, errors }
    }

    /// The argument `name`; a missing one reads as `null`.
    pub fn read<T: DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        match self.args.and_then(|args| args.get(name)) {
            Some(value) => self.deserialize(name, value),
            None => match T::deserialize(&Value::Null) {
                Ok(value) => Some(value),
                Err(_) => {
                    self.errors.push(ArgumentError {
                        field: name.to_owned(),
                        rule: "required".to_owned(),
                        message: format!("`{name}` is a required property"),
                    });
                    None
                }
            },
        }
    }

    /// The argument `name`, or `default()` when it is missing (`#[serde(default)]`).
    pub fn read_or<T: DeserializeOwned>(
        &mut self,
        name: &str,
        default: impl FnOnce() -> T,
    ) -> Option<T> {
        match self.args.and_then(|args| args.get(name)) {
            Some(value) => self.deserialize(name, value),
            None => Some(default()),
        }
    }

    fn deserialize<T: DeserializeOwned>(&mut self, name: &str, value: &Value) -> Option<T> {
        match serde_path_to_error::deserialize(value) {
            Ok(value) => Some(value),
            Err(error) => {
                let path = error.path().to_string();
                let field = if path == "." || path.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}.{path}")
                };
                self.errors.push(ArgumentError {
                    field,
                    rule: "type".to_owned(),
                    message: error.into_inner().to_string(),
                });
                None
            }
        }
    }

    /// Why the arguments were refused (call when a read returned `None`).
    pub fn into_error(self) -> InvalidArguments {
        InvalidArguments {
            errors: self.errors,
        }
    }

    /// Records that `name` cannot be read at all (see `ArgumentType<Dep<T>>` in `deps.rs`).
    pub(crate) fn refuse(&mut self, name: &str, message: &str) {
        self.errors.push(ArgumentError {
            field: name.to_owned(),
            rule: "type".to_owned(),
            message: message.to_owned(),
        });
    }
}

/// The type of one argument, through which `#[tool]`'s generated code reads it:
/// `ArgumentType::<T>::PROBE.read(&mut reader, "name")`.
///
/// The call goes through this probe rather than straight to [`ArgumentReader::read`] so that
/// method resolution can answer for a type: an inherent method of `ArgumentType<Dep<T>>`
/// (in `deps.rs`) wins over [`ReadArgument`]'s. That is how a `Dep` the macro took for an
/// argument — an alias of `Dep<T>` without `#[dep]`, which a macro cannot see through — is
/// reported once, by its schema with a message saying to mark it, instead of a second time
/// for not being `Deserialize`.
pub struct ArgumentType<T>(PhantomData<fn() -> T>);

impl<T> ArgumentType<T> {
    /// The probe for `T`.
    pub const PROBE: Self = Self(PhantomData);
}

/// How an argument of an ordinary type is read (what [`ArgumentType`] falls back to).
pub trait ReadArgument<T> {
    /// [`ArgumentReader::read`].
    fn read(self, reader: &mut ArgumentReader<'_>, name: &str) -> Option<T>
    where
        T: DeserializeOwned;

    /// [`ArgumentReader::read_or`].
    fn read_or(
        self,
        reader: &mut ArgumentReader<'_>,
        name: &str,
        default: impl FnOnce() -> T,
    ) -> Option<T>
    where
        T: DeserializeOwned;

    /// Checks that `T` is not a `Dep`, for an argument whose schema is not derived from its
    /// type (`#[schemars(with = …)]`), so nothing else would. An ordinary type passes.
    fn refuse_injected(self);
}

impl<T> ReadArgument<T> for ArgumentType<T> {
    fn read(self, reader: &mut ArgumentReader<'_>, name: &str) -> Option<T>
    where
        T: DeserializeOwned,
    {
        reader.read(name)
    }

    fn read_or(
        self,
        reader: &mut ArgumentReader<'_>,
        name: &str,
        default: impl FnOnce() -> T,
    ) -> Option<T>
    where
        T: DeserializeOwned,
    {
        reader.read_or(name, default)
    }

    fn refuse_injected(self) {}
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
    fn the_reader_names_every_failing_argument() {
        let args = json!({"count": 2.5, "when": {"hour": "seven"}, "extra": 1});
        let mut reader = ArgumentReader::new(&args);
        assert_eq!(reader.read::<u8>("count"), None);
        assert_eq!(reader.read::<Option<u8>>("absent"), Some(None));
        assert_eq!(reader.read_or::<u8>("unset", || 4), Some(4));
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct When {
            hour: u8,
        }
        assert!(reader.read::<When>("when").is_none());
        assert_eq!(reader.read::<u8>("missing"), None);
        let fields: Vec<_> = reader
            .into_error()
            .errors
            .into_iter()
            .map(|e| (e.field, e.rule))
            .collect();
        assert_eq!(
            fields,
            [
                ("count".to_owned(), "type".to_owned()),
                ("when.hour".to_owned(), "type".to_owned()),
                ("missing".to_owned(), "required".to_owned()),
            ]
        );
    }

    #[test]
    fn serde_errors_name_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Args {
            count: i64,
        }
        let args = json!({"args": {"count": 2.0}});
        let mut reader = ArgumentReader::new(&args);
        assert!(reader.read::<Args>("args").is_none());
        let error = reader.into_error();
        assert_eq!(error.errors[0].field, "args.count", "{error}");
    }
}
