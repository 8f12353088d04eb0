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
}

impl ValueChoice {
    /// A value with its label.
    pub fn new(value: impl Into<Value>, label: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            label: label.into(),
        }
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

/// Narrows one tool's value sets for this turn (parameter → choices) to what the user's
/// `request` mentions, for its parameters declared
/// [`from_request`](crate::ToolDefinitionBuilder::from_request) that are not free text:
///
/// - a parameter with a value provider keeps the values the request mentions — by the value
///   itself (`"수면"`) or by a word of its label (`수면 (잠, 숙면, …)` is mentioned by "잠이
///   안 와요"; words of digits alone do not count) — in the order they had;
/// - an integer parameter gets the numbers the request contains, within its schema's range
///   ("3개만" → `3`).
///
/// An empty set means the model leaves the parameter out; a *required* parameter the request
/// does not mention keeps its provider's values (or stays unrestricted), since the call
/// cannot be written without it. Matching is case-insensitive on the raw text, so "수면을"
/// mentions `수면`.
pub(crate) fn keep_mentioned(
    tool: &super::ToolDefinition,
    params: &mut std::collections::BTreeMap<String, Vec<ValueChoice>>,
    request: &str,
) {
    let request = request.to_lowercase();
    let schema = tool.parameters();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for param in &tool.from_request {
        let prop = schema.get("properties").and_then(|p| p.get(param));
        let is_required = required.contains(&param.as_str());
        if let Some(choices) = params.get_mut(param) {
            let kept: Vec<ValueChoice> = choices
                .iter()
                .filter(|c| mentions(&request, c))
                .cloned()
                .collect();
            if !kept.is_empty() || !is_required {
                *choices = kept;
            }
        } else if prop.is_some_and(is_integer) {
            let numbers = numbers_within(&request, prop);
            if !numbers.is_empty() || !is_required {
                params.insert(param.clone(), numbers);
            }
        }
    }
}

/// Whether the (lowercased) request mentions `choice`: its value, or a word of its label
/// that is not only digits.
fn mentions(request: &str, choice: &ValueChoice) -> bool {
    let value = match &choice.value {
        Value::String(text) => text.to_lowercase(),
        other => other.to_string(),
    };
    let by_value = match &choice.value {
        Value::String(_) => contains_term(request, &value),
        _ => digit_runs(request).any(|n| n == value),
    };
    by_value
        || choice
            .label
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.chars().all(|c| c.is_ascii_digit()))
            .any(|word| contains_term(request, word))
}

/// Whether `term` occurs in `text`. Where the term begins or ends with an ASCII letter or
/// digit, the text must not continue it there (`rest` is not in "interest"); Korean terms
/// match inside words, so "수면을" contains `수면`.
fn contains_term(text: &str, term: &str) -> bool {
    if term.is_empty() {
        return false;
    }
    let ascii_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let (first, last) = (term.chars().next(), term.chars().next_back());
    text.match_indices(term).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + term.len()..].chars().next();
        let glued_before = ascii_word(first) && ascii_word(before);
        let glued_after = ascii_word(last) && ascii_word(after);
        !glued_before && !glued_after
    })
}

fn is_integer(prop: &Value) -> bool {
    match prop.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
        _ => false,
    }
}

/// The distinct numbers written in `request` that `prop`'s `minimum`/`maximum` allow, in the
/// order they appear, each labelled with itself.
fn numbers_within(request: &str, prop: Option<&Value>) -> Vec<ValueChoice> {
    let bound = |key: &str| prop.and_then(|p| p.get(key)).and_then(Value::as_f64);
    let (min, max) = (bound("minimum"), bound("maximum"));
    let mut out: Vec<ValueChoice> = Vec::new();
    for run in digit_runs(request) {
        let Ok(n) = run.parse::<i64>() else { continue };
        #[allow(clippy::cast_precision_loss)] // bounds are small; a huge n fails either way
        let f = n as f64;
        let fits = min.is_none_or(|m| f >= m) && max.is_none_or(|m| f <= m);
        if fits && !out.iter().any(|c| c.value == n) {
            out.push(ValueChoice::new(n, n.to_string()));
        }
    }
    out
}

/// The runs of ASCII digits in `text`.
fn digit_runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
}

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

    fn search_tool() -> super::super::ToolDefinition {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["kind"],
            "properties": {
                "category": {"type": "string"},
                "keyword": {"type": "string"},
                "kind": {"type": "string"},
                "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 10},
                "note": {"type": "string"}
            }
        });
        super::super::ToolDefinition::builder("search", "d")
            .schema(super::super::ToolSchema::from_validation(schema))
            .values("category", || {
                vec![
                    ValueChoice::new("수면", "수면 (잠, 숙면)"),
                    ValueChoice::new("디지털", "디지털 (스마트폰, 폰)"),
                    ValueChoice::new("오늘", "오늘 (2025-03-10)"),
                ]
            })
            .values("keyword", || {
                vec![
                    ValueChoice::new("커피", "커피"),
                    ValueChoice::new("물", "물"),
                ]
            })
            .values("kind", || {
                vec![ValueChoice::new("a", "에이"), ValueChoice::new("b", "비")]
            })
            .from_request("category")
            .from_request("keyword")
            .from_request("kind")
            .from_request("limit")
            .from_request("note")
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool")
    }

    fn narrowed(request: &str) -> std::collections::BTreeMap<String, Vec<Value>> {
        let tool = search_tool();
        let mut params: std::collections::BTreeMap<_, _> =
            tool.current_values(&Deps::default()).into_iter().collect();
        keep_mentioned(&tool, &mut params, request);
        params
            .into_iter()
            .map(|(param, choices)| (param, choices.into_iter().map(|c| c.value).collect()))
            .collect()
    }

    #[test]
    fn from_request_values_are_those_the_request_mentions() {
        let params = narrowed("잠이 안 와요, 커피 때문에. 3개만 보여줘");
        assert_eq!(params["category"], [Value::from("수면")], "by a label word");
        assert_eq!(params["keyword"], [Value::from("커피")], "by the value");
        assert_eq!(params["limit"], [Value::from(3)], "a number in the request");
        assert!(!params.contains_key("note"), "free text stays a copy");
        assert_eq!(
            params["kind"].len(),
            2,
            "required and unmentioned: all kept"
        );

        let params = narrowed("2025년 3월 10일 폰 사용 30분 줄이기, 물 5잔");
        assert_eq!(
            params["category"],
            [Value::from("디지털")],
            "words of digits alone mention nothing"
        );
        assert_eq!(params["keyword"], [Value::from("물")]);
        assert_eq!(
            params["limit"],
            [Value::from(3), Value::from(10), Value::from(5)]
        );

        let params = narrowed("KIND b, 아무거나. interest: abc");
        assert!(
            params["category"].is_empty(),
            "optional and unmentioned: left out"
        );
        assert!(params["limit"].is_empty());
        assert_eq!(params["kind"], [Value::from("b")], "case-insensitive");
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
