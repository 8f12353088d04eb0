//! How the value a `#[tool]` fn returns becomes a [`ToolResult`], decided by the type system
//! rather than by how the return type is spelled.
//!
//! A macro only sees tokens: `HabitResult<T>` (an alias of `Result<T, ToolError>`) does not
//! look like a `Result`, and a user's own `Result` struct does. So the generated handler does
//! not choose; it calls `Output::new(value).__agent_tool_convert()` with four candidate impls,
//! and method resolution picks the first whose bounds hold (autoref specialization, which
//! works here because the handler names the fn's concrete return type):
//!
//! 1. [`ReturnResult`] on `Output<T>` where `T: IntoToolResult` — a `Result<T, E>` with
//!    `E: Into<ToolError>` (under any alias; `String` and `&str` convert to a `failed` error)
//!    or a [`ToolResult`]: an `Err` reaches the model as an error;
//! 2. [`ReturnUnconverted`] on `&Output<Result<T, E>>` — any other `Result`, returning
//!    [`Unconverted`]: a `Result` whose error does not convert must not reach the model as
//!    `ok` data (`{"Err": …}`), so [`finish_result`]/[`finish_plain`] then fail to compile,
//!    naming the bound that fails (`E: Into<ToolError>`, `T: Serialize`);
//! 3. [`ReturnPlain`] on `&mut Output<T>` where `T: Serialize` — any other serializable value
//!    is `ok` data;
//! 4. [`ReturnOther`] on [`Fallback<T>`] (reached through `Output`'s `Deref`), always
//!    applicable, returning [`Unsupported`]: the return type fits none of the above, and
//!    `finish_*` then fail to compile with the reason (the spelling only picks which of the
//!    two explains it).
//!
//! # The output schema
//!
//! The same decision, made on the type alone (the definition has no value to look at), gives
//! the schema of the `ok` data ([`ToolSchema::output`], MCP's `outputSchema`):
//! `Returns::<R>::new()` with four candidate impls, tried in this order by autoref
//! specialization on `&&&Returns<R>` (each candidate implemented on one reference fewer):
//!
//! 1. [`OutputOfResult`]: `R` is a `Result<T, E>` that converts itself (so the data is `T`)
//!    and `T: JsonSchema` — `T`'s schema;
//! 2. [`OutputOfConverting`]: any other `R: IntoToolResult` (a [`ToolResult`], a `Result` whose
//!    `T` has no schema, an app's own conversion) — none: what it sends is up to its code;
//! 3. [`OutputOfPlain`]: `R: Serialize + JsonSchema` — `R`'s schema, since the data is `R`;
//! 4. [`OutputOfOther`]: always applicable — none (`impl Serialize`, a type without
//!    `JsonSchema`).
//!
//! Candidates 1 and 2 together cover exactly the types [`ReturnResult`] converts, 3 and 4 the
//! rest, so the schema describes the data the handler really produces. Nothing is
//! required of a return type that has no schema: the last candidate always applies, so a tool
//! that compiled without an output schema still compiles. Why specialization rather than a
//! `JsonSchema` bound: many return types have none (`impl Serialize`, other crates' types),
//! and a bound would make an optional MCP feature a requirement of every tool. Only object schemas
//! are kept (see [`ToolSchema::with_output`]).
//!
//! The generated code obtains `R` from the fn item itself — a helper generic over
//! `F: FnOnce(args…) -> Fut` returning `Returns<Fut::Output>` — rather than by naming the
//! return type, so an `impl Serialize` return, which no code can name, is handled like any
//! other: only its bounds are visible, so it has a schema only if they include `JsonSchema`.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::result::{IntoToolResult, ToolResult, serialize_output};
use super::schema::{ToolSchema, output_schema};

/// A tool fn's return value on its way to a [`ToolResult`] (see the module docs).
pub struct Output<T>(pub T, Fallback<T>);

impl<T> Output<T> {
    /// Wraps a tool fn's return value.
    pub fn new(value: T) -> Self {
        Self(value, Fallback(PhantomData))
    }
}

/// Where method resolution ends up when no conversion of an [`Output`] applies: the last
/// candidate, [`ReturnOther`], is implemented on it.
pub struct Fallback<T>(PhantomData<fn() -> T>);

// By hand: a derive would require `T: Copy`. Copy lets `ReturnOther` take it by value through
// `Output`'s `Deref`.
impl<T> Clone for Fallback<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Fallback<T> {}

impl<T> std::ops::Deref for Output<T> {
    type Target = Fallback<T>;

    fn deref(&self) -> &Fallback<T> {
        &self.1
    }
}

/// What a return type that fits no conversion produces; no [`finish_result`] or
/// [`finish_plain`] accepts it.
pub struct Unsupported<T>(T);

/// What a `Result` whose `Err` does not convert to a [`ToolError`](super::ToolError)
/// produces; no [`finish_result`] or [`finish_plain`] accepts it.
pub struct Unconverted<T, E>(Result<T, E>);

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

/// The second choice: a `Result` that does not convert itself is refused, not serialized.
pub trait ReturnUnconverted<T, E> {
    /// Hands the value on.
    fn __agent_tool_convert(self) -> Unconverted<T, E>;
}

impl<T, E> ReturnUnconverted<T, E> for &Output<Result<T, E>> {
    fn __agent_tool_convert(self) -> Unconverted<T, E> {
        // Never runs: no `finish_*` accepts an `Unconverted` that got here (it would have
        // converted as the first choice), so no program reaches this.
        unreachable!("a #[tool] returning a Result that converts to no ToolResult was compiled")
    }
}

/// The third choice: the value is serialized as `ok` data.
pub trait ReturnPlain {
    /// Converts.
    fn __agent_tool_convert(self) -> ToolResult;
}

impl<T: Serialize> ReturnPlain for &mut Output<T> {
    fn __agent_tool_convert(self) -> ToolResult {
        serialize_output(&self.0)
    }
}

/// The last resort: nothing converts the value, so it is handed on unconverted.
pub trait ReturnOther<T> {
    /// Hands the value on.
    fn __agent_tool_convert(self) -> Unsupported<T>;
}

impl<T> ReturnOther<T> for Fallback<T> {
    fn __agent_tool_convert(self) -> Unsupported<T> {
        // Never runs: a fn whose return type ends up here does not compile (no `finish_*`
        // accepts an `Unsupported` of a type no earlier choice took), so no program reaches
        // this.
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

// As for `Unsupported`: holds only when the `Result` converts, never for one that got here.
impl<T, E> FinishResult for Unconverted<T, E>
where
    Result<T, E>: IntoToolResult,
{
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

// Holds for a serializable `T`, which the third choice takes: the point, as above, is the
// error naming `T: Serialize` on the user's return type.
impl<T: Serialize> FinishPlain for Unsupported<T> {
    fn finish(self) -> ToolResult {
        serialize_output(&self.0)
    }
}

impl<T, E> FinishPlain for Unconverted<T, E>
where
    Result<T, E>: IntoToolResult,
{
    fn finish(self) -> ToolResult {
        self.0.into_tool_result()
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

/// A tool fn's return type `R`, without a value: what its output schema is decided on (see
/// the module docs).
pub struct Returns<R>(PhantomData<fn() -> R>);

impl<R> Returns<R> {
    /// The return type `R`.
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<R> Default for Returns<R> {
    fn default() -> Self {
        Self::new()
    }
}

// By hand: a derive would require `R: Copy`. Copy lets the last candidate, which takes
// `Returns<R>` by value, be reached through the references the call starts from.
impl<R> Clone for Returns<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Returns<R> {}

/// The first choice: a `Result<T, E>` that converts itself, with `T: JsonSchema`.
pub trait OutputOfResult {
    /// Adds the output schema, if any, to `schema`.
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema;
}

impl<T: JsonSchema, E> OutputOfResult for &&&Returns<Result<T, E>>
where
    Result<T, E>: IntoToolResult,
{
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema {
        with(schema, output_schema::<T>())
    }
}

/// The second choice: any other type that converts itself; its data has no known schema.
pub trait OutputOfConverting {
    /// Returns `schema` as it is.
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema;
}

impl<R: IntoToolResult> OutputOfConverting for &&Returns<R> {
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema {
        schema
    }
}

/// The third choice: a plain serialized value with a schema.
pub trait OutputOfPlain {
    /// Adds the output schema, if any, to `schema`.
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema;
}

impl<R: Serialize + JsonSchema> OutputOfPlain for &Returns<R> {
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema {
        with(schema, output_schema::<R>())
    }
}

/// The last resort: no schema.
pub trait OutputOfOther {
    /// Returns `schema` as it is.
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema;
}

impl<R> OutputOfOther for Returns<R> {
    fn __agent_tool_output(self, schema: ToolSchema) -> ToolSchema {
        schema
    }
}

fn with(schema: ToolSchema, output: Option<Value>) -> ToolSchema {
    ToolSchema { output, ..schema }
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
            finish_plain(Output::new(err).__agent_tool_convert()),
            ToolResult::error("nope", "no")
        );
        let ok: Aliased<u8> = Ok(3);
        assert_eq!(
            finish_plain(Output::new(ok).__agent_tool_convert()),
            ToolResult::ok(json!(3))
        );
        assert_eq!(
            finish_plain(Output::new("text").__agent_tool_convert()),
            ToolResult::ok(json!("text"))
        );
        assert_eq!(
            finish_result(Output::new(ToolResult::cancelled()).__agent_tool_convert()),
            ToolResult::cancelled()
        );
    }

    #[test]
    fn a_string_error_is_an_error_and_unit_is_an_empty_object() {
        let err: Result<u8, String> = Err("no such habit".to_owned());
        assert_eq!(
            finish_result(Output::new(err).__agent_tool_convert()),
            ToolResult::error("failed", "no such habit")
        );
        let err: Result<u8, &str> = Err("no such habit");
        assert_eq!(
            finish_result(Output::new(err).__agent_tool_convert()),
            ToolResult::error("failed", "no such habit")
        );
        let ok: Result<(), ToolError> = Ok(());
        assert_eq!(
            finish_result(Output::new(ok).__agent_tool_convert()),
            ToolResult::ok(json!({}))
        );
        assert_eq!(
            finish_plain(Output::new(()).__agent_tool_convert()),
            ToolResult::ok(json!({}))
        );
        let none: Option<u8> = None;
        assert_eq!(
            finish_plain(Output::new(none).__agent_tool_convert()),
            ToolResult::ok(json!(null))
        );
    }
}
