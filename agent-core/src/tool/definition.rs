//! [`ToolDefinition`]: everything the runtime knows about one tool — what the model sees
//! (name, description, parameter schema, examples, the values its parameters may take now),
//! what a person sees (Korean label, confirmation summary), who may call it ([`Access`]),
//! whether it is destructive, and the type-erased handler that runs it.
//!
//! `#[tool]` builds definitions through [`ToolDefinition::builder`]; hand-written tools (e.g.
//! ones loaded from configuration) use the same builder, so both kinds behave identically.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::call::ToolHandler;
use super::deps::{Dependency, Deps};
use super::error::DefinitionError;
use super::example::Example;
use super::schema::{ToolSchema, check_enforced};
use super::summary::{Summary, SummaryTemplate};
use super::undo::{IntoUndo, UndoHandler};
use super::validate;
use super::values::{IntoValueProvider, ValueChoice, ValueProvider};

/// A per-call predicate: does this call of a destructive tool need confirmation?
pub type ConfirmPredicate = Arc<dyn Fn(&Value) -> bool + Send + Sync>;

/// Who may call a tool — the access levels of the platform guide this project follows
/// (`ACCESS_LEVEL_SELF` 100, `ACCESS_LEVEL_SYSTEM` 200, `ACCESS_LEVEL_ANDROID_TRUSTED` 300).
///
/// The default is [`Access::SelfOnly`], deliberately stricter than the platform's default
/// (trusted): nothing leaves the app's own agent unless its declaration says so, because a
/// tool exposed by accident is a tool an outside assistant can call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Access {
    /// Only the app's own agent (level 100).
    #[default]
    SelfOnly,
    /// The app and privileged system callers (level 200).
    System,
    /// Also outside assistants the user connected, e.g. over MCP (level 300).
    Trusted,
}

impl Access {
    /// The platform's numeric level (100, 200, 300).
    pub const fn level(self) -> u16 {
        match self {
            Self::SelfOnly => 100,
            Self::System => 200,
            Self::Trusted => 300,
        }
    }

    /// Whether a caller of this class may list and call a tool of this level.
    pub const fn admits(self, caller: Caller) -> bool {
        match caller {
            Caller::App => true,
            Caller::System => matches!(self, Self::System | Self::Trusted),
            Caller::Assistant => matches!(self, Self::Trusted),
        }
    }

    /// The spelling `#[tool(access = …)]` uses: `self_only`, `system`, `trusted`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SelfOnly => "self_only",
            Self::System => "system",
            Self::Trusted => "trusted",
        }
    }
}

/// Who is calling a tool; see [`Access::admits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Caller {
    /// The app's own agent (its on-device model).
    #[default]
    App,
    /// A privileged system caller.
    System,
    /// An outside assistant, e.g. an MCP client.
    Assistant,
}

impl Caller {
    /// The stored form: `app`, `system` or `assistant`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::App => "app",
            Self::System => "system",
            Self::Assistant => "assistant",
        }
    }

    /// The caller whose [`as_str`](Self::as_str) is `text`.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::App, Self::System, Self::Assistant]
            .into_iter()
            .find(|c| c.as_str() == text)
    }
}

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

/// Everything the runtime knows about one tool. Cheap to clone (shared parts are `Arc`s).
#[derive(Clone)]
pub struct ToolDefinition {
    pub(crate) name: Cow<'static, str>,
    pub(crate) description: Cow<'static, str>,
    pub(crate) label: Cow<'static, str>,
    pub(crate) schema: Arc<ToolSchema>,
    pub(crate) validator: Arc<jsonschema::Validator>,
    /// The output schema compiled, when there is one (checked before MCP sends a result as
    /// conforming to it).
    #[cfg(feature = "mcp")]
    pub(crate) output_validator: Option<Arc<jsonschema::Validator>>,
    pub(crate) destructive: bool,
    pub(crate) confirm_if: Option<ConfirmPredicate>,
    pub(crate) summary: Summary,
    pub(crate) handler: Arc<dyn ToolHandler>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) dependencies: Vec<Dependency>,
    pub(crate) source: Option<SourceLocation>,
    pub(crate) access: Access,
    pub(crate) examples: Vec<Example>,
    pub(crate) values: Vec<(String, ValueProvider)>,
    pub(crate) from_request: Vec<String>,
    /// Parameters read from the request by default (see [`ToolDefinition::grounded_parameters`]).
    pub(crate) grounded: Vec<String>,
    pub(crate) reply: Option<ReplyFn>,
    pub(crate) undo: Option<Arc<dyn UndoHandler>>,
}

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
    /// The parameters a model takes from the user's message: the `from_request` ones and
    /// the [grounded](ToolDefinition::grounded_parameters) ones. The strings among them are
    /// copied from it.
    #[serde(skip)]
    pub copied: Vec<String>,
    /// What the tool does, from the fn's doc comment.
    pub description: String,
    /// The shaped JSON Schema of the arguments (root `type: object`).
    pub parameters: Value,
}

/// A tool's own answer to a successful result: see [`ToolDefinitionBuilder::reply`].
pub type ReplyFn = Arc<dyn Fn(&Value) -> Option<String> + Send + Sync>;

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
            access: Access::default(),
            examples: Vec::new(),
            values: Vec::new(),
            from_request: Vec::new(),
            composed: Vec::new(),
            reply: None,
            undo: None,
            constraints: Vec::new(),
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

    /// The JSON Schema of the result data, when the tool's return type has one and it
    /// describes only JSON objects (see [`ToolSchema::with_output`]); `#[tool]` derives it
    /// from the return type.
    pub fn output_schema(&self) -> Option<&Value> {
        self.schema.output.as_ref()
    }

    /// Why `data` does not conform to the output schema (the first failure found), if it does
    /// not; `Ok` too when the tool has no output schema.
    #[cfg(feature = "mcp")]
    pub(crate) fn check_output(&self, data: &Value) -> Result<(), String> {
        let Some(validator) = &self.output_validator else {
            return Ok(());
        };
        match validator.iter_errors(data).next() {
            None => Ok(()),
            Some(error) if error.instance_path().is_empty() => Err(error.to_string()),
            Some(error) => Err(format!("{error} (at `{}`)", error.instance_path())),
        }
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

    /// The `Dep<T>` types the tool (and its value providers) need.
    pub fn dependencies(&self) -> &[Dependency] {
        &self.dependencies
    }

    /// Where the tool was declared, for `#[tool]` fns.
    pub fn source(&self) -> Option<SourceLocation> {
        self.source
    }

    /// Who may call the tool.
    pub fn access(&self) -> Access {
        self.access
    }

    /// The tool's own examples (each one call of this tool).
    pub fn examples(&self) -> &[Example] {
        &self.examples
    }

    /// The names of the parameters restricted by a value provider.
    pub fn restricted_parameters(&self) -> impl Iterator<Item = &str> {
        self.values.iter().map(|(param, _)| param.as_str())
    }

    /// Whether parameter `name` is restricted by a value provider.
    pub fn has_value_provider(&self, name: &str) -> bool {
        self.values.iter().any(|(param, _)| param == name)
    }

    /// The parameters whose value must be copied from the user's request (see
    /// [`ToolDefinitionBuilder::from_request`]), in declaration order.
    pub fn from_request_parameters(&self) -> &[String] {
        &self.from_request
    }

    /// The parameters a model's call takes from the request without being declared
    /// [`from_request`](ToolDefinitionBuilder::from_request), in declaration order: every
    /// plain string (no `enum`, `const`, `format` or `pattern`, and no description that
    /// prescribes a layout such as `YYYY-MM-DD`) and every number or integer without `enum`
    /// or `const`, unless it has a value provider or is marked
    /// [`composed`](ToolDefinitionBuilder::composed). The model writes such a string as a
    /// stretch of the request, and such a number as one the request writes — in digits or
    /// in Korean number words ("13만", "네 명") — labelled by a word of the parameter's
    /// description where one is ("키 160"); an optional one is written only when the
    /// request labels a quantity for it, and left out otherwise. A string copies only words
    /// that can be its value, judged per request from the parameter's name and description:
    /// not the request's own verb, and for a name not the tool's topic, a question word or
    /// the other end of a from/to pair; a time copies only time words; an optional string
    /// with nothing left to copy is left out. (Booleans are not grounded parameters, but
    /// the same holds for every optional boolean without a value provider: it is written
    /// only where the request says one of its own words.) A tool declared at run
    /// time (from JSON, from an MCP server) so gets arguments a person wrote rather than ones
    /// the model makes up.
    pub fn grounded_parameters(&self) -> &[String] {
        &self.grounded
    }

    /// The parameters whose text a call copies from the request: the
    /// [`from_request`](Self::from_request_parameters) ones, then the
    /// [grounded](Self::grounded_parameters) ones.
    pub(crate) fn copied_parameters(&self) -> impl Iterator<Item = &String> {
        self.from_request.iter().chain(&self.grounded)
    }

    /// The names the parameter schema requires.
    pub fn required_parameters(&self) -> Vec<&str> {
        self.schema
            .parameters
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The schema of parameter `name`, if the tool declares one.
    pub fn parameter(&self, name: &str) -> Option<&Value> {
        self.schema.parameters.get("properties")?.get(name)
    }

    /// Asks every value provider for the values its parameter may take now. A provider that
    /// fails leaves its parameter unrestricted for this turn (the tool's own checks still
    /// apply). One that returns no value at all means there is nothing to choose from (no
    /// habit yet for a habit id): an optional parameter is then left out, and a required one
    /// makes the tool impossible to call now — the agent says so instead of asking the model
    /// to invent a value, and a person to confirm a call on something that does not exist.
    pub fn current_values(&self, deps: &Deps) -> Vec<(String, Vec<ValueChoice>)> {
        self.current_values_where(deps, |_| true)
    }

    /// [`current_values`](Self::current_values) of the parameters `keep` names, asking only
    /// their providers.
    pub(crate) fn current_values_where(
        &self,
        deps: &Deps,
        keep: impl Fn(&str) -> bool,
    ) -> Vec<(String, Vec<ValueChoice>)> {
        self.values
            .iter()
            .filter(|(param, _)| keep(param))
            .filter_map(|(param, provider)| match provider.provide(deps) {
                Ok(choices) => Some((param.clone(), choices)),
                Err(_) => None,
            })
            .collect()
    }

    /// How a call of this tool is undone, if it can be (see
    /// [`ToolDefinitionBuilder::undo`]).
    pub fn undo_handler(&self) -> Option<&Arc<dyn UndoHandler>> {
        self.undo.as_ref()
    }

    /// The tool's own sentence about a successful result's `data`, if it has one (see
    /// [`ToolDefinitionBuilder::reply`]).
    pub fn reply(&self, data: &Value) -> Option<String> {
        self.reply.as_ref().and_then(|reply| reply(data))
    }

    /// The validation gate of this tool's arguments (see [`validate`](super::validate)):
    /// the arguments as the handler receives them, or every field that fails and why.
    pub(crate) fn check_arguments(
        &self,
        args: Value,
    ) -> Result<Value, super::validate::InvalidArguments> {
        let mut args = validate::check_arguments(&self.validator, args)?;
        self.drop_unknown_keys(&mut args);
        Ok(args)
    }

    /// Leaves out the top-level keys the schema does not name — unless it admits others
    /// (`additionalProperties` present and not `false`) — so a person confirms, and the tool
    /// receives, exactly the arguments the schema describes: a key a model or a client made
    /// up is neither shown in a dialog nor handed to a handler.
    fn drop_unknown_keys(&self, args: &mut Value) {
        let parameters = &self.schema.validation;
        let admits_others = parameters
            .get("additionalProperties")
            .is_some_and(|extra| extra != &Value::Bool(false));
        let (Some(object), Some(properties), false) = (
            args.as_object_mut(),
            parameters.get("properties").and_then(Value::as_object),
            admits_others,
        ) else {
            return;
        };
        object.retain(|key, _| properties.contains_key(key));
    }

    /// The handler, undecorated. Only the dispatcher runs it, behind its gates.
    pub(crate) fn handler(&self) -> &Arc<dyn ToolHandler> {
        &self.handler
    }

    /// What the model sees of this tool.
    pub fn declaration(&self) -> ToolDeclaration {
        ToolDeclaration {
            name: self.name.to_string(),
            label: self.label.to_string(),
            from_request: self.from_request.clone(),
            copied: self.copied_parameters().cloned().collect(),
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
            .field("access", &self.access)
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
    access: Access,
    examples: Vec<(String, Value)>,
    values: Vec<(String, ValueProvider)>,
    from_request: Vec<String>,
    composed: Vec<String>,
    reply: Option<ReplyFn>,
    undo: Option<Arc<dyn UndoHandler>>,
    /// `(param, attribute)`: a `#[schemars(range | length | regex …)]` the macro saw, which
    /// must have left a keyword in that argument's schema.
    constraints: Vec<(&'static str, &'static str)>,
}

/// The schema keywords each validation attribute of `#[schemars(...)]` writes (schemars
/// writes none where they do not apply, e.g. `range` on a string).
const CONSTRAINT_KEYWORDS: &[(&str, &[&str], &str)] = &[
    ("range", &["minimum", "maximum"], "numbers"),
    (
        "length",
        &["minLength", "maxLength", "minItems", "maxItems"],
        "strings and lists",
    ),
    ("regex", &["pattern"], "strings"),
    ("pattern", &["pattern"], "strings"),
    ("contains", &["pattern"], "strings"),
];

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

    /// Marks the tool destructive: every dispatcher puts the confirmation gate in front of it.
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.destructive = destructive;
        self
    }

    /// A per-call predicate for a destructive tool: calls for which it returns `false` run
    /// without confirmation.
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

    /// Who may call the tool (default [`Access::SelfOnly`]).
    pub fn access(mut self, access: Access) -> Self {
        self.access = access;
        self
    }

    /// An example request with the arguments it should be called with; checked against the
    /// schema when the registry is built.
    pub fn example(mut self, request: impl Into<String>, args: Value) -> Self {
        self.examples.push((request.into(), args));
        self
    }

    /// Restricts what the model may write for `param` to what `provider` returns each turn
    /// (a [`ValueProvider`]: `fn() -> Vec<ValueChoice>` or `fn(Dep<T>) -> …`).
    pub fn values<M>(
        mut self,
        param: impl Into<String>,
        provider: impl IntoValueProvider<M>,
    ) -> Self {
        let provider = provider.into_provider();
        if let Some(dependency) = provider.dependency() {
            self = self.dependency(dependency);
        }
        self.values.push((param.into(), provider));
        self
    }

    /// Declares that `param` comes from what the user said, not from the model's imagination:
    ///
    /// - a free-text string is a stretch of the user's message, starting at a word (a note, a
    ///   habit in the person's own words);
    /// - a parameter that also has a [value provider](Self::values) takes one of the values
    ///   the message *mentions* — by the value itself or by a word of its label or of its
    ///   [`words`](crate::ValueChoice::with_words) (a category `수면` labelled `수면 (잠,
    ///   숙면)` is mentioned by "잠이 안 와요"); a search keyword whose provider lists the
    ///   words the catalog knows becomes one of those the person used;
    /// - an integer is a number written in the message, within the schema's range
    ///   ("3개만" → `3`).
    ///
    /// An optional parameter the message gives nothing for is left out of the call; an
    /// optional one with a provider whose value the message mentions is written ("어제" →
    /// `date: "yesterday"`, not left out to mean today); a required one the message does not
    /// mention keeps its provider's values. Like a value provider, this restricts only
    /// what the model writes; other callers are held to the schema.
    ///
    /// Examples are held to it when the registry is built: an example's free-text value must
    /// be text of its request, and a value with a provider one the request mentions (when
    /// it mentions any); the error names the values it did find. So label words a person
    /// would not use for that value alone (one syllable, "주", "일") make unrelated requests
    /// mention it.
    pub fn from_request(mut self, param: impl Into<String>) -> Self {
        self.from_request.push(param.into());
        self
    }

    /// Marks parameter `param` as text the model composes — a message it writes, a
    /// translation, a summary — rather than text of the request: it is left out of the
    /// [grounded](ToolDefinition::grounded_parameters) parameters, so the model writes it
    /// freely (within its schema).
    pub fn composed(mut self, param: impl Into<String>) -> Self {
        self.composed.push(param.into());
        self
    }

    /// The sentence the runtime answers with after a successful call of this tool when the
    /// model's own words are not usable (empty, an echo of the request, or a number the
    /// results do not contain): written from the result's `data`, e.g. "운동 습관 2개를
    /// 찾았어요: …". `None` falls back to [`Messages::after_success`](crate::Messages).
    pub fn reply(
        mut self,
        reply: impl Fn(&Value) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.reply = Some(Arc::new(reply));
        self
    }

    /// How a call of this destructive tool that ran is undone: an async fn that reverses
    /// one journaled call (see [`UndoCall`](crate::UndoCall)), `async fn(UndoCall) -> Result<T, E>` or
    /// `async fn(UndoCall, Dep<T>) -> Result<T, E>`. "방금 거 취소해줘" / "undo that" then
    /// plans the undo of the last call the journal holds, confirmed like any destructive
    /// call. [`build`](Self::build) refuses an undo on a tool that is not destructive.
    pub fn undo<M>(mut self, undo: impl IntoUndo<M>) -> Self {
        let undo = undo.into_undo();
        if let Some(dependency) = undo.dependency() {
            self = self.dependency(dependency);
        }
        self.undo = Some(undo);
        self
    }

    /// Used by `#[tool]`: `param` carries `#[schemars(attribute(…))]`, so its schema must show
    /// the limit; [`build`](Self::build) fails when schemars dropped it because it does not
    /// apply to the type (a `range` on a `String`), instead of the limit silently vanishing.
    #[doc(hidden)]
    pub fn __expect_constraint(mut self, param: &'static str, attribute: &'static str) -> Self {
        self.constraints.push((param, attribute));
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
        if self.undo.is_some() && !self.destructive {
            return Err(DefinitionError::UndoWithoutDestructive(name.into_owned()));
        }
        let schema = self.schema.unwrap_or_else(|| {
            ToolSchema::from_validation(serde_json::json!({"type": "object", "properties": {}}))
        });
        if schema.parameters.get("type") != Some(&Value::from("object")) {
            return Err(DefinitionError::InvalidSchema {
                name: name.into_owned(),
                reason: "the root must be `type: object`".into(),
            });
        }
        // A constraint the model is shown is a constraint the gate enforces: formats are
        // asserted, integers are JSON integers, and a limit no validator applies (a `minimum`
        // on a string) is refused here rather than silently ignored.
        let invalid_schema = |reason: String| DefinitionError::InvalidSchema {
            name: name.to_string(),
            reason,
        };
        check_enforced(&schema.validation).map_err(invalid_schema)?;
        for (param, attribute) in &self.constraints {
            let node = &schema.parameters["properties"][param];
            let Some((_, keywords, applies_to)) =
                CONSTRAINT_KEYWORDS.iter().find(|(a, _, _)| a == attribute)
            else {
                continue;
            };
            if !keywords.iter().any(|k| node.get(k).is_some()) {
                let ty = node
                    .get("type")
                    .map_or_else(|| "?".to_owned(), Value::to_string);
                return Err(invalid_schema(format!(
                    "`#[schemars({attribute}(…))]` on `{param}` has no effect: its schema is of type {ty}, and `{attribute}` applies to {applies_to}"
                )));
            }
        }
        let validator = validate::compile(&schema.validation).map_err(invalid_schema)?;
        // Compiled whatever the features, so that a definition which builds without `mcp`
        // builds with it; only the MCP server keeps and uses it.
        let output_validator = schema
            .output
            .as_ref()
            .map(|output| compile_output(output).map(Arc::new))
            .transpose()
            .map_err(|reason| DefinitionError::InvalidOutputSchema {
                name: name.to_string(),
                reason,
            })?;
        #[cfg(not(feature = "mcp"))]
        let _ = output_validator;
        let known = |param: &str| {
            schema
                .parameters
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|props| props.contains_key(param))
        };
        let unknown = self
            .values
            .iter()
            .map(|(param, _)| param)
            .chain(&self.from_request)
            .chain(&self.composed)
            .find(|param| !known(param));
        if let Some(param) = unknown {
            return Err(DefinitionError::UnknownValuesParameter {
                name: name.into_owned(),
                param: param.clone(),
            });
        }
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
        let examples = self
            .examples
            .into_iter()
            .map(|(request, args)| Example::new(request).call(name.to_string(), args))
            .collect();
        let grounded = grounded(&schema.parameters, |param| {
            self.from_request.iter().any(|p| p == param)
                || self.composed.iter().any(|p| p == param)
                || self.values.iter().any(|(p, _)| p == param)
        });
        Ok(ToolDefinition {
            name,
            description: self.description,
            label,
            schema: Arc::new(schema),
            validator: Arc::new(validator),
            #[cfg(feature = "mcp")]
            output_validator,
            destructive: self.destructive,
            confirm_if: self.confirm_if,
            summary,
            handler,
            timeout: self.timeout,
            dependencies: self.dependencies,
            source: self.source,
            access: self.access,
            examples,
            values: self.values,
            grounded,
            from_request: self.from_request,
            reply: self.reply,
            undo: self.undo,
        })
    }
}

/// The properties of `parameters` that are grounded by default (see
/// [`ToolDefinition::grounded_parameters`]), less those `declared` otherwise.
fn grounded(parameters: &Value, declared: impl Fn(&str) -> bool) -> Vec<String> {
    let Some(properties) = parameters.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(name, _)| !declared(name))
        .filter(|(_, prop)| {
            let has = |key: &str| prop.get(key).is_some();
            let types: Vec<&str> = match prop.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
            let [ty] = types.as_slice() else {
                return false;
            };
            if has("enum") || has("const") {
                return false;
            }
            match *ty {
                "string" => {
                    let description = prop
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    !has("format") && !has("pattern") && !prescribes_layout(description)
                }
                "integer" | "number" => true,
                _ => false,
            }
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// Whether a parameter's description prescribes a layout its text must have (`YYYY-MM-DD`,
/// `HH:MM`, ISO 8601): such text is written by the model, not copied.
fn prescribes_layout(description: &str) -> bool {
    const LAYOUTS: [&str; 7] = [
        "yyyy", "mm-dd", "mm/dd", "hh:mm", "iso 8601", "iso8601", "rfc 3339",
    ];
    let lower = description.to_lowercase();
    LAYOUTS.iter().any(|layout| lower.contains(layout))
}

/// Compiles an output schema, which must have an object root: MCP requires one, and
/// [`ToolSchema::with_output`] only ever makes such schemas, so another one was set by hand.
/// Formats are annotations here, as in MCP clients' validators: the check before sending must
/// not refuse what a client accepts.
fn compile_output(output: &Value) -> Result<jsonschema::Validator, String> {
    if output.get("type") != Some(&Value::from("object")) {
        return Err("the root must be `type: object` (MCP's rule for an `outputSchema`)".into());
    }
    jsonschema::draft202012::new(output).map_err(|error| error.to_string())
}

/// `[a-zA-Z_][a-zA-Z0-9_.-]{0,63}`: a letter or `_`, then letters, digits, `_`, `-` or `.`,
/// 64 at most — the characters MCP allows in a tool name, so a tool that arrives from an MCP
/// server or an OpenAI-style JSON declaration (`math.factorial`, `get-weather`) keeps its own
/// name: it is the name the model writes, the name a call is dispatched by and the name
/// results, the journal and MCP clients show.
pub fn is_valid_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
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
    use crate::tool::call::CallContext;
    use crate::tool::result::ToolResult;
    use serde_json::json;

    fn noop(_: CallContext) -> std::future::Ready<ToolResult> {
        std::future::ready(ToolResult::ok(json!({})))
    }

    #[test]
    fn plain_strings_and_numbers_are_grounded_unless_declared_otherwise() {
        let schema = json!({
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "지역 이름"},
                "date": {"type": "string", "description": "날짜(YYYY-MM-DD)"},
                "day": {"type": "string", "format": "date"},
                "unit": {"type": "string", "enum": ["c", "f"]},
                "message": {"type": "string"},
                "query": {"type": "string"},
                "habit": {"type": "string"},
                "amount": {"type": ["number", "null"]},
                "count": {"type": "integer"},
                "flag": {"type": "boolean"}
            },
            "required": ["location"]
        });
        let tool = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(schema))
            .composed("message")
            .from_request("query")
            .values("habit", || vec![crate::tool::ValueChoice::new("a", "a")])
            .handler(noop)
            .build()
            .expect("tool");
        assert_eq!(tool.grounded_parameters(), ["location", "amount", "count"]);
        let declaration = tool.declaration();
        assert_eq!(declaration.copied, ["query", "location", "amount", "count"]);
        let unknown = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(
                json!({"type": "object", "properties": {}}),
            ))
            .composed("nothing")
            .handler(noop)
            .build();
        assert!(matches!(
            unknown,
            Err(DefinitionError::UnknownValuesParameter { .. })
        ));
    }

    #[test]
    fn names_follow_the_function_calling_rule() {
        for good in [
            "a",
            "_",
            "search_catalog",
            "A1",
            "math.factorial",
            "get-weather",
            &"x".repeat(64),
        ] {
            assert!(is_valid_tool_name(good), "{good}");
        }
        for bad in [
            "",
            "1a",
            ".a",
            "-a",
            "a/b",
            "a(b",
            "습관",
            "a b",
            &"x".repeat(65),
        ] {
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
            tool.access(),
            Access::SelfOnly,
            "nothing leaves the app by default"
        );
        assert_eq!(
            tool.parameters(),
            &json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn an_output_schema_set_by_hand_must_be_an_object_schema() {
        let empty = || ToolSchema::from_validation(json!({"type": "object", "properties": {}}));
        for (output, why) in [
            (json!({"type": "string"}), "not an object"),
            (
                json!({"anyOf": [{"type": "object"}]}),
                "no `type` at the root",
            ),
            (
                json!({"type": "object", "properties": {"a": {"type": 5}}}),
                "not a schema",
            ),
        ] {
            let err = ToolDefinition::builder("t", "d")
                .schema(ToolSchema {
                    output: Some(output),
                    ..empty()
                })
                .handler(noop)
                .build();
            assert!(
                matches!(err, Err(DefinitionError::InvalidOutputSchema { .. })),
                "{why}"
            );
        }
        let tool = ToolDefinition::builder("t", "d")
            .schema(ToolSchema {
                output: Some(json!({"type": "object", "required": ["n"]})),
                ..empty()
            })
            .handler(noop)
            .build()
            .unwrap();
        assert!(tool.output_schema().is_some());
    }

    #[test]
    fn invalid_schemas_summaries_and_value_parameters_are_rejected() {
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
        let err = ToolDefinition::builder("t", "d")
            .values("nope", Vec::<ValueChoice>::new)
            .handler(noop)
            .build();
        assert!(matches!(
            err,
            Err(DefinitionError::UnknownValuesParameter { .. })
        ));
    }

    #[test]
    fn formats_are_enforced() {
        let tool = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(json!({
                "type": "object",
                "properties": {"date": {"type": "string", "format": "date"}}
            })))
            .handler(noop)
            .build()
            .unwrap();
        assert!(tool.validator.is_valid(&json!({"date": "2025-03-10"})));
        assert!(!tool.validator.is_valid(&json!({"date": "tomorrow"})));
    }

    #[test]
    fn access_levels_admit_callers_by_rank() {
        let admitted = |access: Access| {
            [Caller::App, Caller::System, Caller::Assistant].map(|caller| access.admits(caller))
        };
        assert_eq!(admitted(Access::SelfOnly), [true, false, false]);
        assert_eq!(admitted(Access::System), [true, true, false]);
        assert_eq!(admitted(Access::Trusted), [true, true, true]);
        let levels = [Access::SelfOnly, Access::System, Access::Trusted].map(Access::level);
        assert_eq!(levels, [100, 200, 300]);
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
