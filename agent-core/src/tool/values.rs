//! Value providers: the values a parameter may take *right now*, which the app knows and the
//! model does not — the ids of the user's active habits, the ids in a catalog, today and
//! yesterday.
//!
//! A provider is declared per parameter (`#[values(active_habit_ids)] habit_id: i64` in a
//! `#[tool]` fn, or [`ToolDefinitionBuilder::values`](crate::ToolDefinitionBuilder::values)).
//! The agent asks every provider before each model turn; the model's decoder then admits only
//! those values, so a model can no longer invent an id — a `not_found` from an invented id
//! becomes impossible instead of merely reported. Each value carries a short label (the
//! habit's text, the protocol's title) that the prompt can show the model and that the
//! confirmation dialog shows the person next to the raw value.
//!
//! Providers restrict what the *model* may write. Other callers (an external assistant over
//! MCP, a test) still go through the schema's own validation and the tool's domain checks.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::deps::{Dep, Dependency, Deps};
use super::error::ToolError;

/// One value a parameter may take, with what it means to a person.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueChoice {
    /// The value as the tool receives it (`3`, `"build.morning-walk"`).
    pub value: Value,
    /// A short description (`"아침 커피 후 10분 걷기"`), shown to the model and to the person
    /// confirming a call.
    pub label: String,
    /// Other words a person may use for the value, shown to no one: a request that says one
    /// of them is about this value (`독서` for a habit written "자기 전 책 10쪽 읽기", `못 했`
    /// for a day not done). See [`ValueChoice::with_words`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<String>,
}

impl ValueChoice {
    /// A value with its label.
    pub fn new(value: impl Into<Value>, label: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            label: label.into(),
            words: Vec::new(),
        }
    }

    /// The value with other `words` people use for it. They count as the label's words do
    /// when the runtime judges which value a request is about — for a
    /// [`from_request`](crate::ToolDefinitionBuilder::from_request) parameter (mentioned or
    /// not) and for ranking any parameter's values — without lengthening the label the
    /// model and the confirmation dialog show. Where one value's word contains another's at
    /// the same place in a request, the longer one is meant: a request saying "못 했어"
    /// mentions the value with the word `못 했`, not the one with `했`.
    #[must_use]
    pub fn with_words<W: Into<String>>(mut self, words: impl IntoIterator<Item = W>) -> Self {
        self.words.extend(words.into_iter().map(Into::into));
        self
    }

    /// The text the value is compared with: the value (if a string), its label and words.
    pub(crate) fn text(&self) -> String {
        let mut text = match &self.value {
            Value::String(s) => format!("{s} {}", self.label),
            other => format!("{other} {}", self.label),
        };
        for word in &self.words {
            text.push(' ');
            text.push_str(word);
        }
        text
    }
}

type ProviderFn = dyn Fn(&Deps) -> Result<Vec<ValueChoice>, ToolError> + Send + Sync;

/// A type-erased provider with the dependency it reads, as a tool definition stores it.
#[derive(Clone)]
pub struct ValueProvider {
    provide: Arc<ProviderFn>,
    dependency: Option<Dependency>,
}

impl ValueProvider {
    /// Asks for the current values.
    pub(crate) fn provide(&self, deps: &Deps) -> Result<Vec<ValueChoice>, ToolError> {
        (self.provide)(deps)
    }

    /// The `Dep<T>` it reads, if any (checked when the registry is built).
    pub(crate) fn dependency(&self) -> Option<Dependency> {
        self.dependency
    }
}

impl fmt::Debug for ValueProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValueProvider")
            .field("dependency", &self.dependency.map(|d| d.type_name()))
            .finish_non_exhaustive()
    }
}

/// What a provider fn may return: the choices, or a `Result` of them.
pub trait IntoChoices {
    /// Converts into choices or an error.
    fn into_choices(self) -> Result<Vec<ValueChoice>, ToolError>;
}

impl IntoChoices for Vec<ValueChoice> {
    fn into_choices(self) -> Result<Vec<ValueChoice>, ToolError> {
        Ok(self)
    }
}

impl<E: Into<ToolError>> IntoChoices for Result<Vec<ValueChoice>, E> {
    fn into_choices(self) -> Result<Vec<ValueChoice>, ToolError> {
        self.map_err(Into::into)
    }
}

/// A fn that can be a value provider: `fn() -> R` or `fn(Dep<T>) -> R`, where `R` is
/// `Vec<ValueChoice>` or `Result<Vec<ValueChoice>, E>` with `E: Into<ToolError>`.
/// `Marker` only tells the two shapes apart.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot provide values for a parameter",
    label = "a value provider is `fn() -> Vec<ValueChoice>` or `fn(Dep<T>) -> Result<Vec<ValueChoice>, E>`"
)]
pub trait IntoValueProvider<Marker> {
    /// Erases the fn.
    fn into_provider(self) -> ValueProvider;
}

impl<F, R> IntoValueProvider<()> for F
where
    F: Fn() -> R + Send + Sync + 'static,
    R: IntoChoices,
{
    fn into_provider(self) -> ValueProvider {
        ValueProvider {
            provide: Arc::new(move |_: &Deps| self().into_choices()),
            dependency: None,
        }
    }
}

impl<F, T, R> IntoValueProvider<(Dep<T>,)> for F
where
    F: Fn(Dep<T>) -> R + Send + Sync + 'static,
    T: Any + Send + Sync,
    R: IntoChoices,
{
    fn into_provider(self) -> ValueProvider {
        ValueProvider {
            provide: Arc::new(move |deps: &Deps| match deps.get::<T>() {
                Some(dep) => self(dep).into_choices(),
                None => Err(ToolError::new(
                    super::error::ErrorCode::HandlerError,
                    format!(
                        "the value provider needs a `{}` that was not provided",
                        std::any::type_name::<T>()
                    ),
                )),
            }),
            dependency: Some(Dependency::of::<T>()),
        }
    }
}

/// The values restricted parameters may take now: tool name → parameter name → choices.
pub type ValueSets = BTreeMap<String, BTreeMap<String, Vec<ValueChoice>>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::deps::DepsBuilder;

    struct Habits(Vec<i64>);

    fn active(habits: Dep<Habits>) -> Vec<ValueChoice> {
        habits
            .0
            .iter()
            .map(|&id| ValueChoice::new(id, format!("habit {id}")))
            .collect()
    }

    fn days() -> Result<Vec<ValueChoice>, ToolError> {
        Ok(vec![ValueChoice::new("today", "오늘")])
    }

    #[test]
    fn providers_read_their_dependency() {
        let mut deps = DepsBuilder::default();
        deps.insert(Arc::new(Habits(vec![1, 3])));
        let deps = deps.build();
        let provider = active.into_provider();
        assert_eq!(
            provider.dependency().map(|d| d.type_name()),
            Some(std::any::type_name::<Habits>())
        );
        let values: Vec<Value> = provider
            .provide(&deps)
            .expect("values")
            .into_iter()
            .map(|c| c.value)
            .collect();
        assert_eq!(values, [Value::from(1), Value::from(3)]);
        assert_eq!(days.into_provider().provide(&deps).expect("ok").len(), 1);
        let missing = active.into_provider().provide(&Deps::default());
        assert_eq!(missing.expect_err("no habits").code(), "handler_error");
    }
}
