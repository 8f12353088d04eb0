//! [`ToolDefinition`]: everything the runtime knows about one tool — what the model sees
//! (name, description, parameter schema), what a human sees (Korean label, confirmation
//! summary), whether it is destructive, and the type-erased handler that runs it.
//!
//! `#[tool]` builds definitions through [`ToolDefinition::builder`]; hand-written tools (e.g.
//! ones loaded from configuration) use the same builder, so both kinds behave identically.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::deps::{Dep, Dependency, Deps};
use super::result::ToolResult;
use super::schema::ToolSchema;
use super::summary::{Summary, SummaryTemplate};
use crate::confirm::Confirmer;
use crate::dispatch::DispatchError;

/// A boxed, `Send` future: what handlers and confirmers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One call of a tool, as its handler receives it: the validated arguments, the registry's
/// dependencies, and who confirms destructive calls.
pub struct ToolCall {
    args: Value,
    deps: Deps,
    confirmer: Arc<dyn Confirmer>,
}

impl ToolCall {
    /// A call with the given arguments, dependencies and confirmer.
    pub fn new(args: Value, deps: Deps, confirmer: Arc<dyn Confirmer>) -> Self {
        Self {
            args,
            deps,
            confirmer,
        }
    }

    /// The arguments (already validated against the tool's schema).
    pub fn args(&self) -> &Value {
        &self.args
    }

    /// The dependencies the registry was built with.
    pub fn deps(&self) -> &Deps {
        &self.deps
    }

    /// Who confirms destructive calls for this dispatch.
    pub fn confirmer(&self) -> &Arc<dyn Confirmer> {
        &self.confirmer
    }

    /// The dependency of type `T`, or the error a tool answers when it is missing.
    pub fn dep<T: std::any::Any + Send + Sync>(&self) -> Result<Dep<T>, DispatchError> {
        self.deps
            .get::<T>()
            .ok_or_else(|| DispatchError::MissingDependency {
                type_name: std::any::type_name::<T>(),
            })
    }
}

impl fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("args", &self.args)
            .field("deps", &self.deps)
            .finish_non_exhaustive()
    }
}

/// Runs a tool call. The one type-erased boundary between typed tool fns and the registry.
///
/// Implemented for every `Fn(ToolCall) -> impl Future<Output = ToolResult>`; decorators (the
/// confirmation gate, the timeout) implement it by wrapping another handler.
pub trait ToolHandler: Send + Sync + 'static {
    /// Runs the call. Must not block the async runtime for long: do I/O in
    /// `spawn_blocking` or with async clients.
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult>;
}

impl<F, Fut> ToolHandler for F
where
    F: Fn(ToolCall) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ToolResult> + Send + 'static,
{
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        Box::pin(self(call))
    }
}

/// A per-call predicate: does this call of a destructive tool need confirmation?
pub type ConfirmPredicate = Arc<dyn Fn(&Value) -> bool + Send + Sync>;

/// Where a tool was declared, for duplicate-name errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceLocation {
    /// `module_path!()` of the declaration.
    pub module: &'static str,
    /// `file!()`.
    pub file: &'static str,
    /// `line!()`.
    pub line: u32,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} ({})", self.file, self.line, self.module)
    }
}

/// Why a tool definition could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The name does not match `[a-zA-Z_][a-zA-Z0-9_]{0,63}`.
    #[error(
        "invalid tool name `{0}`: use 1 to 64 ASCII letters, digits or `_`, not starting with a digit"
    )]
    InvalidName(String),
    /// The description is empty.
    #[error("tool `{0}` has no description; small models choose tools by their description")]
    MissingDescription(String),
    /// The label is empty.
    #[error("tool `{0}` has an empty label")]
    EmptyLabel(String),
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
    /// The summary template does not parse or names an unknown parameter.
    #[error("tool `{name}` has an invalid summary template: {reason}")]
    InvalidSummary {
        /// The tool.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

/// Everything the runtime knows about one tool. Cheap to clone (shared parts are `Arc`s).
#[derive(Clone)]
pub struct ToolDefinition {
    pub(crate) name: Cow<'static, str>,
    pub(crate) description: Cow<'static, str>,
    pub(crate) label: Cow<'static, str>,
    pub(crate) schema: Arc<ToolSchema>,
    pub(crate) validator: Arc<jsonschema::Validator>,
    pub(crate) destructive: bool,
    pub(crate) confirm_if: Option<ConfirmPredicate>,
    pub(crate) summary: Summary,
    pub(crate) handler: Arc<dyn ToolHandler>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) dependencies: Vec<Dependency>,
    pub(crate) source: Option<SourceLocation>,
}

impl ToolDefinition {
    /// Starts a definition with the two things every tool needs: a name and a description.
    pub fn builder(
        name: impl Into<Cow<'static, str>>,
        description: impl Into<Cow<'static, str>>,
    ) -> ToolDefinitionBuilder {
        ToolDefinitionBuilder {
            name: name.into(),
            description: description.into(),
            label: None,
            schema: None,
            destructive: false,
            confirm_if: None,
            summary: SummarySource::Default,
            handler: None,
            timeout: None,
            dependencies: Vec::new(),
            source: None,
        }
    }

    /// The name the model calls the tool by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does (the model reads this to choose tools).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The human label shown in UIs and confirmation prompts (the name when none was given).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The shaped JSON Schema of the arguments, as the model sees it.
    pub fn parameters(&self) -> &Value {
        &self.schema.parameters
    }

    /// The schema arguments are validated against (see [`ToolSchema`]).
    pub fn validation_schema(&self) -> &Value {
        &self.schema.validation
    }

    /// `true` when calls must be confirmed by a human before they run.
    pub fn is_destructive(&self) -> bool {
        self.destructive
    }

    /// Whether this particular call needs confirmation: `false` for read-only tools, and for
    /// destructive tools whose per-call predicate says the call is harmless.
    pub fn needs_confirmation(&self, args: &Value) -> bool {
        self.destructive
            && self
                .confirm_if
                .as_ref()
                .is_none_or(|predicate| predicate(args))
    }

    /// The confirmation summary for these arguments.
    pub fn summarize(&self, args: &Value) -> String {
        self.summary.render(&self.schema.parameters, args)
    }

    /// The per-call time limit, if any.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The `Dep<T>` types the tool needs.
    pub fn dependencies(&self) -> &[Dependency] {
        &self.dependencies
    }

    /// Where the tool was declared, for `#[tool]` fns.
    pub fn source(&self) -> Option<SourceLocation> {
        self.source
    }

    /// The handler (decorated by the registry for destructive tools).
    pub fn handler(&self) -> &Arc<dyn ToolHandler> {
        &self.handler
    }

    /// What the model sees of this tool.
    pub fn declaration(&self) -> super::ToolDeclaration {
        super::ToolDeclaration {
            name: self.name.to_string(),
            description: self.description.to_string(),
            parameters: self.schema.parameters.clone(),
        }
    }
}

impl fmt::Debug for ToolDefinition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDefinition")
            .field("name", &self.name)
            .field("label", &self.label)
            .field("destructive", &self.destructive)
            .field("parameters", &self.schema.parameters)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

enum SummarySource {
    Default,
    Template(Cow<'static, str>),
    Custom(Arc<dyn Fn(&Value) -> String + Send + Sync>),
}

/// Builds a [`ToolDefinition`]; see [`ToolDefinition::builder`].
#[must_use]
pub struct ToolDefinitionBuilder {
    name: Cow<'static, str>,
    description: Cow<'static, str>,
    label: Option<Cow<'static, str>>,
    schema: Option<ToolSchema>,
    destructive: bool,
    confirm_if: Option<ConfirmPredicate>,
    summary: SummarySource,
    handler: Option<Arc<dyn ToolHandler>>,
    timeout: Option<Duration>,
    dependencies: Vec<Dependency>,
    source: Option<SourceLocation>,
}

impl ToolDefinitionBuilder {
    /// The human label (e.g. "습관 추가").
    pub fn label(mut self, label: impl Into<Cow<'static, str>>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The argument schemas (see [`ToolSchema::of`] and [`ToolSchema::from_validation`]).
    /// Without one the tool takes no arguments.
    pub fn schema(mut self, schema: ToolSchema) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Marks the tool destructive: the registry puts the confirmation gate in front of it.
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.destructive = destructive;
        self
    }

    /// A per-call predicate for a destructive tool: calls for which it returns `false` run
    /// without confirmation (e.g. logging a deliberate blank).
    pub fn confirm_if(
        mut self,
        predicate: impl Fn(&Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.confirm_if = Some(Arc::new(predicate));
        self
    }

    /// A summary template: `{param}` placeholders are replaced with the call's arguments,
    /// `{{` and `}}` are literal braces.
    pub fn summary(mut self, template: impl Into<Cow<'static, str>>) -> Self {
        self.summary = SummarySource::Template(template.into());
        self
    }

    /// A summary computed by a function of the arguments.
    pub fn summary_fn(
        mut self,
        summarize: impl Fn(&Value) -> String + Send + Sync + 'static,
    ) -> Self {
        self.summary = SummarySource::Custom(Arc::new(summarize));
        self
    }

    /// The handler that runs calls.
    pub fn handler(mut self, handler: impl ToolHandler) -> Self {
        self.handler = Some(Arc::new(handler));
        self
    }

    /// A time limit for each call (the human's confirmation time is not counted).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Declares a `Dep<T>` the handler needs, so the registry can check it at build time.
    pub fn dependency(mut self, dependency: Dependency) -> Self {
        if !self.dependencies.contains(&dependency) {
            self.dependencies.push(dependency);
        }
        self
    }

    /// Where the tool was declared.
    pub fn source(mut self, source: SourceLocation) -> Self {
        self.source = Some(source);
        self
    }

    /// Checks the definition and compiles its validator (once per tool, not per call).
    pub fn build(self) -> Result<ToolDefinition, DefinitionError> {
        let name = self.name;
        if !is_valid_tool_name(&name) {
            return Err(DefinitionError::InvalidName(name.into_owned()));
        }
        if self.description.trim().is_empty() {
            return Err(DefinitionError::MissingDescription(name.into_owned()));
        }
        let label = match self.label {
            Some(label) if label.trim().is_empty() => {
                return Err(DefinitionError::EmptyLabel(name.into_owned()));
            }
            Some(label) => label,
            None => name.clone(),
        };
        let Some(handler) = self.handler else {
            return Err(DefinitionError::MissingHandler(name.into_owned()));
        };
        let schema = self.schema.unwrap_or_else(|| {
            ToolSchema::from_validation(serde_json::json!({"type": "object", "properties": {}}))
        });
        if schema.parameters.get("type") != Some(&Value::from("object")) {
            return Err(DefinitionError::InvalidSchema {
                name: name.into_owned(),
                reason: "the root must be `type: object`".into(),
            });
        }
        let validator = jsonschema::validator_for(&schema.validation).map_err(|error| {
            DefinitionError::InvalidSchema {
                name: name.to_string(),
                reason: error.to_string(),
            }
        })?;
        let summary = match self.summary {
            SummarySource::Default => Summary::Default,
            SummarySource::Custom(summarize) => Summary::Custom(summarize),
            SummarySource::Template(template) => {
                let template =
                    SummaryTemplate::parse(&template, &schema.parameters).map_err(|reason| {
                        DefinitionError::InvalidSummary {
                            name: name.to_string(),
                            reason,
                        }
                    })?;
                Summary::Template(Arc::new(template))
            }
        };
        Ok(ToolDefinition {
            name,
            description: self.description,
            label,
            schema: Arc::new(schema),
            validator: Arc::new(validator),
            destructive: self.destructive,
            confirm_if: self.confirm_if,
            summary,
            handler,
            timeout: self.timeout,
            dependencies: self.dependencies,
            source: self.source,
        })
    }
}

/// `[a-zA-Z_][a-zA-Z0-9_]{0,63}`: what function-calling APIs and grammars accept as a name.
pub fn is_valid_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A tool declared with `#[tool]`: the macro implements this for a unit-like struct named
/// after the fn, so a registry can take exactly the tools it names, checked at compile time:
/// `Registry::builder().tool::<add_habit>()`.
pub trait Tool {
    /// The tool name.
    const NAME: &'static str;

    /// Builds the definition (the registry calls this once).
    fn definition() -> Result<ToolDefinition, DefinitionError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn noop(_: ToolCall) -> std::future::Ready<ToolResult> {
        std::future::ready(ToolResult::ok(json!({})))
    }

    #[test]
    fn names_follow_the_function_calling_rule() {
        for good in ["a", "_", "search_catalog", "A1", &"x".repeat(64)] {
            assert!(is_valid_tool_name(good), "{good}");
        }
        for bad in ["", "1a", "a-b", "습관", "a b", &"x".repeat(65)] {
            assert!(!is_valid_tool_name(bad), "{bad}");
        }
    }

    #[test]
    fn builder_checks_name_description_label_and_handler() {
        let err = ToolDefinition::builder("bad name", "d")
            .handler(noop)
            .build();
        assert!(matches!(err, Err(DefinitionError::InvalidName(_))));
        let err = ToolDefinition::builder("t", "  ").handler(noop).build();
        assert!(matches!(err, Err(DefinitionError::MissingDescription(_))));
        let err = ToolDefinition::builder("t", "d")
            .label("")
            .handler(noop)
            .build();
        assert!(matches!(err, Err(DefinitionError::EmptyLabel(_))));
        let err = ToolDefinition::builder("t", "d").build();
        assert!(matches!(err, Err(DefinitionError::MissingHandler(_))));
        let tool = ToolDefinition::builder("t", "d")
            .handler(noop)
            .build()
            .unwrap();
        assert_eq!(tool.label(), "t", "the label defaults to the name");
        assert_eq!(
            tool.parameters(),
            &json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn invalid_schemas_and_summaries_are_rejected() {
        let err = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(json!({"type": "string"})))
            .handler(noop)
            .build();
        assert!(matches!(err, Err(DefinitionError::InvalidSchema { .. })));
        let err = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(
                json!({"type": "object", "properties": {"a": {"type": 5}}}),
            ))
            .handler(noop)
            .build();
        assert!(matches!(err, Err(DefinitionError::InvalidSchema { .. })));
        let err = ToolDefinition::builder("t", "d")
            .summary("{nope}")
            .handler(noop)
            .build();
        assert!(matches!(err, Err(DefinitionError::InvalidSummary { .. })));
    }

    #[test]
    fn confirmation_predicate_applies_only_to_destructive_tools() {
        let schema = ToolSchema::from_validation(
            json!({"type": "object", "properties": {"value": {"type": "string"}}}),
        );
        let tool = ToolDefinition::builder("log", "d")
            .schema(schema)
            .destructive(true)
            .confirm_if(|args| args["value"] != "blank")
            .handler(noop)
            .build()
            .unwrap();
        assert!(tool.needs_confirmation(&json!({"value": "done"})));
        assert!(!tool.needs_confirmation(&json!({"value": "blank"})));
        let read_only = ToolDefinition::builder("read", "d")
            .handler(noop)
            .build()
            .unwrap();
        assert!(!read_only.needs_confirmation(&json!({})));
    }
}
