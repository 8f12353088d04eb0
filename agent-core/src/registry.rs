//! The registry: which tools exist, with what dependencies and examples — and the
//! declarations the model sees. How a call runs (who confirms, who is calling) is the
//! dispatcher's business, one layer up.
//!
//! Tools are discovered from every `#[tool]` linked into the binary
//! ([`RegistryBuilder::discover`], like the platform's "enable all"), from one crate of tools
//! ([`RegistryBuilder::discover_crate`]), named by id ([`RegistryBuilder::discover_only`], like
//! "add these ids"), named by type ([`RegistryBuilder::tool`], checked at compile time), or
//! built by hand ([`RegistryBuilder::definition`]). [`RegistryBuilder::build`] refuses two
//! different tools with one name, names that match no tool, a crate of tools with none linked,
//! tools whose `Dep<T>` was not provided, and examples that call an unknown tool or break its
//! schema — all at start-up, before a model is involved.
//!
//! # Tools in another crate
//!
//! `discover()` reads a list the linker assembles, and the linker leaves out a dependency the
//! binary never names: a crate of tools that is only listed in `Cargo.toml` contributes
//! nothing, silently. So a crate of tools declares itself once with
//! [`tool_crate!`](crate::tool_crate!), and the binary names it where it builds its registry:
//!
//! ```text
//! // in the tools crate's lib.rs
//! agent_core::tool_crate!();
//!
//! // in the binary
//! let registry = Registry::builder().discover_crate(&habit_tools::TOOLS).build()?;
//! ```
//!
//! Naming `TOOLS` links the crate, and `build` fails with [`RegistryError::NoToolsInCrate`] if
//! it still contributes no tool. [`RegistryBuilder::discover_only`] and
//! [`RegistryBuilder::tool`] are just as safe: a name that is not linked is an error, a type
//! names its crate.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::tool::{
    Caller, DefinitionError, Deps, Example, Journal, MemoryJournal, ResultCap, SourceLocation,
    Tool, ToolDeclaration, ToolDefinition, deps::DepsBuilder,
};

/// A `#[tool]` fn's entry in the binary-wide list that [`RegistryBuilder::discover`] reads.
/// Submitted by the macro; not meant to be created by hand.
pub struct ToolRegistration {
    /// The tool name.
    pub name: &'static str,
    /// Builds the definition.
    pub definition: fn() -> Result<ToolDefinition, DefinitionError>,
    /// Where the tool was declared.
    pub source: SourceLocation,
}

inventory::collect!(ToolRegistration);

/// A crate (or module) of `#[tool]`s, as [`tool_crate!`](crate::tool_crate!) declares it: what
/// [`RegistryBuilder::discover_crate`] takes. Naming it from a binary is what links the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolCrate {
    module: &'static str,
}

impl ToolCrate {
    /// Used by [`tool_crate!`](crate::tool_crate!); `module` is the `module_path!()` where it
    /// was invoked.
    #[doc(hidden)]
    pub const fn __new(module: &'static str) -> Self {
        Self { module }
    }

    /// The crate's name (or the module path [`tool_crate!`](crate::tool_crate!) was invoked in).
    pub fn name(&self) -> &'static str {
        self.module
    }

    /// Whether a tool declared in `module` belongs to this crate.
    fn contains(&self, module: &str) -> bool {
        module
            .strip_prefix(self.module)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    }
}

/// Declares the `#[tool]`s of this crate as a `pub static TOOLS: ToolCrate`, for binaries to
/// pass to [`RegistryBuilder::discover_crate`]. Invoke it once at the crate root (invoked in a
/// module, it stands for that module's tools); `tool_crate!(pub HABIT_TOOLS)` picks another
/// name.
///
/// A binary that only lists a crate of tools in `Cargo.toml` never links it, and `discover()`
/// then finds none of its tools; naming `TOOLS` links it (see the [registry
/// docs](crate::Registry)).
#[macro_export]
macro_rules! tool_crate {
    () => {
        $crate::tool_crate!(pub TOOLS);
    };
    ($vis:vis $name:ident) => {
        /// The `#[tool]`s of this crate: pass it to `RegistryBuilder::discover_crate`.
        $vis static $name: $crate::ToolCrate = $crate::ToolCrate::__new(::core::module_path!());
    };
}

/// Every `#[tool]` linked into this binary, ordered by module path and line (so prompts are
/// stable from run to run).
pub(crate) fn registered_tools() -> Vec<&'static ToolRegistration> {
    let mut all: Vec<_> = inventory::iter::<ToolRegistration>.into_iter().collect();
    all.sort_by_key(|r| (r.source.module, r.source.file, r.source.line));
    all
}

/// Why a registry could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two different tools have the same name.
    #[error(
        "two tools are named `{name}`: {first} and {second}; rename one with #[tool(name = \"…\")]"
    )]
    DuplicateName {
        /// The name.
        name: String,
        /// Where the first one was declared.
        first: String,
        /// Where the second one was declared.
        second: String,
    },
    /// A name passed to `discover_only` matches no `#[tool]` in the binary.
    #[error(
        "no tool named `{name}` is linked into this binary (linked: {available}); a tool declared in another crate is only linked when the binary names that crate: add it with `RegistryBuilder::discover_crate(&that_crate::TOOLS)`"
    )]
    UnknownTool {
        /// The name asked for.
        name: String,
        /// The names that exist.
        available: String,
    },
    /// A crate passed to `discover_crate` has no `#[tool]` linked into the binary.
    #[error(
        "the crate `{krate}` contributes no tool to this binary: it declares none, or all of them are disabled by `cfg`"
    )]
    NoToolsInCrate {
        /// The crate (or module) asked for.
        krate: &'static str,
    },
    /// `discover` found no `#[tool]` linked into the binary.
    #[error(
        "discover() found no #[tool] in this binary: a crate of tools that the binary lists in Cargo.toml but never names is not linked; name it with `RegistryBuilder::discover_crate(&that_crate::TOOLS)` (or `use that_crate as _;`), or add tools with `tool::<T>()` or `definition`"
    )]
    NothingDiscovered,
    /// A tool takes a `Dep<T>` that was not provided with `dependency`.
    #[error("tool `{tool}` needs a `{type_name}`: provide it with RegistryBuilder::dependency")]
    MissingDependency {
        /// The tool.
        tool: String,
        /// The missing type.
        type_name: &'static str,
    },
    /// A definition is invalid.
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    /// A JSON document of examples could not be read.
    #[error("the examples of {source_name} could not be read: {reason}")]
    ExamplesJson {
        /// What the document was called when it was added.
        source_name: String,
        /// What is wrong, with the line and column.
        reason: String,
    },
    /// An example calls a tool that is not registered, or with arguments its schema refuses.
    #[error("the example {request:?} calls `{tool}` wrongly: {reason}")]
    InvalidExample {
        /// The example's request.
        request: String,
        /// The tool it calls.
        tool: String,
        /// What is wrong.
        reason: String,
    },
}

/// The tools a model may call, with their dependencies. Share it behind an `Arc`; calls go
/// through a [`Dispatcher`](crate::Dispatcher).
pub struct Registry {
    tools: Vec<Arc<ToolDefinition>>,
    index: HashMap<String, usize>,
    deps: Deps,
    cap: ResultCap,
    examples: Vec<Example>,
    journal: Arc<dyn Journal>,
}

impl Registry {
    /// Starts building a registry.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// The tool with this name.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.index.get(name).map(|&i| &*self.tools[i])
    }

    /// The index of the tool with this name, in registration order.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The shared definition with this name (what the dispatcher's layers hold).
    pub(crate) fn get_arc(&self, name: &str) -> Option<&Arc<ToolDefinition>> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    /// All tools, in registration order.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolDefinition> {
        self.tools.iter().map(|tool| &**tool)
    }

    /// The tools a caller of this class may list and call, in registration order.
    pub fn tools_for(&self, caller: Caller) -> impl Iterator<Item = &ToolDefinition> {
        self.tools()
            .filter(move |tool| tool.access().admits(caller))
    }

    /// The tool names, in registration order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.tools.iter().map(|tool| tool.name())
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// `true` when the registry has no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// What the model sees: name, description and parameter schema of every tool.
    pub fn declarations(&self) -> Vec<ToolDeclaration> {
        self.tools().map(ToolDefinition::declaration).collect()
    }

    /// Every example: each tool's own (in registration order), then the registry's.
    pub fn examples(&self) -> impl Iterator<Item = &Example> {
        self.tools()
            .flat_map(ToolDefinition::examples)
            .chain(self.examples.iter())
    }

    /// The cap applied to results sent back to the model.
    pub fn result_cap(&self) -> &ResultCap {
        &self.cap
    }

    /// The dependencies tools receive.
    pub fn deps(&self) -> &Deps {
        &self.deps
    }

    /// The journal every dispatcher over this registry writes the destructive calls that
    /// ran to (see [`RegistryBuilder::journal`]).
    pub fn journal(&self) -> &Arc<dyn Journal> {
        &self.journal
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names().collect::<Vec<_>>())
            .field("deps", &self.deps)
            .field("cap", &self.cap)
            .finish_non_exhaustive()
    }
}

enum Selection {
    All,
    Crate(ToolCrate),
    Named(String),
    Definition(Box<Result<ToolDefinition, DefinitionError>>),
}

/// Builds a [`Registry`]; see [`Registry::builder`].
#[must_use]
#[derive(Default)]
pub struct RegistryBuilder {
    selections: Vec<Selection>,
    deps: DepsBuilder,
    cap: ResultCap,
    default_timeout: Option<Duration>,
    examples: Vec<Example>,
    /// JSON documents of examples, by name, read when the registry is built.
    example_files: Vec<(String, String)>,
    journal: Option<Arc<dyn Journal>>,
}

/// A JSON document of examples: the examples, or sections of them, each with an optional
/// note for the people who keep the file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExampleFile {
    #[serde(default, rename = "about")]
    _about: Option<String>,
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default)]
    sections: Vec<ExampleSection>,
}

/// A section of an [`ExampleFile`].
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExampleSection {
    #[serde(default, rename = "about")]
    _about: Option<String>,
    examples: Vec<Example>,
}

impl RegistryBuilder {
    /// Adds every `#[tool]` linked into the binary; finding none is an error at
    /// [`build`](Self::build) ([`RegistryError::NothingDiscovered`]).
    ///
    /// The tools of a crate the binary only lists in `Cargo.toml` are not linked: name the
    /// crate — [`discover_crate`](Self::discover_crate), which also fails if the crate
    /// contributes none, or `use that_crate as _;` in the binary.
    pub fn discover(mut self) -> Self {
        self.selections.push(Selection::All);
        self
    }

    /// Adds every `#[tool]` of one crate, declared there with [`tool_crate!`](crate::tool_crate!):
    /// `.discover_crate(&habit_tools::TOOLS)`. Unlike [`discover`](Self::discover), this cannot
    /// silently find nothing: naming the crate links it, and a crate that still contributes no
    /// tool is an error at [`build`](RegistryBuilder::build).
    pub fn discover_crate(mut self, tools: &ToolCrate) -> Self {
        self.selections.push(Selection::Crate(*tools));
        self
    }

    /// Adds the `#[tool]`s with these names, in this order. A name that matches no tool is
    /// an error at [`build`](RegistryBuilder::build).
    pub fn discover_only<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.selections
            .extend(names.into_iter().map(|name| Selection::Named(name.into())));
        self
    }

    /// Adds the `#[tool]` fn whose generated type is `T`: `.tool::<add_habit>()`.
    pub fn tool<T: Tool>(mut self) -> Self {
        self.selections
            .push(Selection::Definition(Box::new(T::definition())));
        self
    }

    /// Adds a hand-built definition.
    pub fn definition(mut self, definition: ToolDefinition) -> Self {
        self.selections
            .push(Selection::Definition(Box::new(Ok(definition))));
        self
    }

    /// Provides a dependency: every `Dep<T>` parameter receives this value.
    pub fn dependency<T: Send + Sync + 'static>(self, value: T) -> Self {
        self.dependency_arc(Arc::new(value))
    }

    /// Provides an already shared dependency — also a trait object, for a `Dep<dyn Clock +
    /// Send + Sync>` parameter:
    /// `.dependency_arc::<dyn Clock + Send + Sync>(Arc::new(SystemClock))`.
    pub fn dependency_arc<T: ?Sized + Send + Sync + 'static>(mut self, value: Arc<T>) -> Self {
        self.deps.insert(value);
        self
    }

    /// Adds an example that is not one tool's own: several calls in order, or a request that
    /// needs no tool at all (with the answer's words). Checked by [`build`](Self::build).
    pub fn example(mut self, example: Example) -> Self {
        self.examples.push(example);
        self
    }

    /// Adds the examples of a JSON document — a file kept beside the app's code, say, with
    /// `include_str!` — named `source` in errors. The document is an object with
    /// `"examples": [...]` (each as [`Example`] serializes: `{"request": "…", "calls":
    /// [{"tool": "…", "args": {…}}], "answer": "…"}`), and/or `"sections": [{"about": "…",
    /// "examples": [...]}, …]`, and an optional `"about"`; unknown fields are refused. Read
    /// and checked like every example by [`build`](Self::build).
    pub fn examples_json(mut self, source: impl Into<String>, json: impl Into<String>) -> Self {
        self.example_files.push((source.into(), json.into()));
        self
    }

    /// Sets the cap on results sent back to the model (default 2 KB).
    pub fn result_cap(mut self, cap: ResultCap) -> Self {
        self.cap = cap;
        self
    }

    /// Where the destructive calls that ran, and their undos, are journaled: the app's own
    /// storage, so the journal survives a restart and can be shown as an audit log. Without
    /// one the registry keeps a [`MemoryJournal`].
    pub fn journal(mut self, journal: impl Journal) -> Self {
        self.journal = Some(Arc::new(journal));
        self
    }

    /// A time limit for tools that set none themselves.
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = Some(timeout);
        self
    }

    /// Checks and decorates the selected tools.
    pub fn build(self) -> Result<Registry, RegistryError> {
        let deps = self.deps.build();
        let mut tools: Vec<Arc<ToolDefinition>> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for selection in self.selections {
            for candidate in expand(selection)? {
                let candidate = candidate?;
                if let Some(&existing) = index.get(candidate.name()) {
                    let existing = &tools[existing];
                    // The same #[tool] selected twice (e.g. `discover()` and `tool::<T>()`)
                    // is one tool, not a clash.
                    if existing.source().is_some() && existing.source() == candidate.source() {
                        continue;
                    }
                    return Err(RegistryError::DuplicateName {
                        name: candidate.name().to_owned(),
                        first: describe_source(existing.source()),
                        second: describe_source(candidate.source()),
                    });
                }
                if let Some(missing) = candidate.dependencies().iter().find(|d| !deps.provides(d)) {
                    return Err(RegistryError::MissingDependency {
                        tool: candidate.name().to_owned(),
                        type_name: missing.type_name(),
                    });
                }
                let mut candidate = candidate;
                if candidate.timeout.is_none() {
                    candidate.timeout = self.default_timeout;
                }
                index.insert(candidate.name().to_owned(), tools.len());
                tools.push(Arc::new(candidate));
            }
        }
        let mut examples = self.examples;
        for (source_name, json) in self.example_files {
            let file: ExampleFile =
                serde_json::from_str(&json).map_err(|e| RegistryError::ExamplesJson {
                    source_name: source_name.clone(),
                    reason: e.to_string(),
                })?;
            examples.extend(file.examples);
            examples.extend(file.sections.into_iter().flat_map(|s| s.examples));
        }
        let registry = Registry {
            tools,
            index,
            deps,
            cap: self.cap,
            examples,
            journal: self
                .journal
                .unwrap_or_else(|| Arc::new(MemoryJournal::new())),
        };
        for example in registry.examples() {
            check_example(&registry, example)?;
        }
        Ok(registry)
    }
}

/// Every call of `example` names a registered tool and satisfies its schema.
fn check_example(registry: &Registry, example: &Example) -> Result<(), RegistryError> {
    for call in example.calls() {
        let invalid = |reason: String| RegistryError::InvalidExample {
            request: example.request().to_owned(),
            tool: call.tool.clone(),
            reason,
        };
        let Some(tool) = registry.get(&call.tool) else {
            return Err(invalid("no tool of that name is registered".to_owned()));
        };
        if let Err(error) = tool.check_arguments(call.args.clone()) {
            return Err(invalid(error.to_string()));
        }
        // A model must copy these from the request (or, with a provider or a number, pick
        // a value the request mentions); an example that does not would teach it something
        // it is not allowed to write.
        if tool.from_request_parameters().is_empty() {
            continue;
        }
        // Only these parameters' providers are asked: others may read the app's state.
        let mut allowed: std::collections::BTreeMap<_, _> = tool
            .current_values_where(&registry.deps, |param| {
                tool.from_request_parameters().iter().any(|p| p == param)
            })
            .into_iter()
            .collect();
        let offered = allowed.clone();
        let request = crate::request::Request::new(example.request());
        crate::request::keep_mentioned(tool, &mut allowed, &request);
        for param in tool.from_request_parameters() {
            let Some(value) = call.args.get(param) else {
                continue;
            };
            // A provider with nothing now (no habit yet) says nothing about the example.
            if let Some(choices) = allowed.get(param).filter(|choices| !choices.is_empty()) {
                if !choices.iter().any(|c| c.value == *value) {
                    return Err(invalid(not_mentioned(param, value, choices)));
                }
            } else if let Some(text) = value.as_str()
                && !example.request().contains(text)
            {
                let reason = match offered.get(param).filter(|all| !all.is_empty()) {
                    Some(all) => format!(
                        "`{param}` takes a value the request mentions, but the request mentions \
                         none of its {} values, {value} included; {MENTION_RULE}",
                        all.len()
                    ),
                    None => {
                        format!("`{param}` is copied from the request, but {text:?} is not in it")
                    }
                };
                return Err(invalid(reason));
            }
        }
    }
    Ok(())
}

/// How a request mentions a value, for the errors of [`check_example`].
const MENTION_RULE: &str = "a value is mentioned by itself, or by a word of its label or of \
     its `ValueChoice::with_words` found in the request (a word inside a longer word of \
     another value at the same place does not count)";

/// The reason an example's `value` for `param` is refused: the request mentions other values
/// (`found`), which it names.
fn not_mentioned(
    param: &str,
    value: &serde_json::Value,
    found: &[crate::tool::ValueChoice],
) -> String {
    const SHOWN: usize = 5;
    let mut named: Vec<String> = found
        .iter()
        .take(SHOWN)
        .map(|c| format!("{} ({})", c.value, c.label))
        .collect();
    if found.len() > SHOWN {
        named.push(format!("and {} more", found.len() - SHOWN));
    }
    format!(
        "`{param}` takes a value the request mentions, but the request does not mention \
         {value}: it mentions {}; {MENTION_RULE}",
        named.join(", ")
    )
}

fn expand(
    selection: Selection,
) -> Result<Vec<Result<ToolDefinition, DefinitionError>>, RegistryError> {
    Ok(match selection {
        Selection::All => {
            let found: Vec<_> = registered_tools()
                .into_iter()
                .map(|registration| (registration.definition)())
                .collect();
            if found.is_empty() {
                return Err(RegistryError::NothingDiscovered);
            }
            found
        }
        Selection::Crate(tools) => {
            let found: Vec<_> = registered_tools()
                .into_iter()
                .filter(|registration| tools.contains(registration.source.module))
                .map(|registration| (registration.definition)())
                .collect();
            if found.is_empty() {
                return Err(RegistryError::NoToolsInCrate {
                    krate: tools.name(),
                });
            }
            found
        }
        Selection::Named(name) => {
            let all = registered_tools();
            let matching: Vec<_> = all.iter().filter(|r| r.name == name).collect();
            if matching.is_empty() {
                let mut available: Vec<&str> = all.iter().map(|r| r.name).collect();
                available.sort_unstable();
                let available = if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                };
                return Err(RegistryError::UnknownTool { name, available });
            }
            // Two matches are two different tools with one name: `build` reports the clash.
            matching.iter().map(|r| (r.definition)()).collect()
        }
        Selection::Definition(definition) => vec![*definition],
    })
}

fn describe_source(source: Option<SourceLocation>) -> String {
    source.map_or_else(|| "a hand-built definition".to_owned(), |s| s.to_string())
}
