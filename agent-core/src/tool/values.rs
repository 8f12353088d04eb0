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

/// Narrows one tool's value sets for this turn (parameter → choices) to what the user's
/// `request` mentions, for its parameters declared
/// [`from_request`](crate::ToolDefinitionBuilder::from_request) that are not free text:
///
/// - a parameter with a value provider keeps the values the request mentions — by the value
///   itself (`"수면"`) or by a word of its label (`수면 (잠, 숙면, …)` is mentioned by "잠이
///   안 와요"; words of digits alone do not count) — in the order they had;
/// - an integer parameter gets the numbers the request contains, within its schema's range
///   ("3개만" → `3`).
/// - a free-text parameter the request labels ("메모: 20쪽 읽음") gets the labelled text
///   alone (see [`labelled`]).
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
    let lower = request.to_lowercase();
    let required = required(tool);
    for param in &tool.from_request {
        let prop = property(tool, param);
        let is_required = required.contains(&param.as_str());
        if let Some(choices) = params.get_mut(param) {
            let said = mentioned(&lower, choices);
            let kept: Vec<ValueChoice> = choices
                .iter()
                .zip(said)
                .filter(|(_, said)| *said)
                .map(|(c, _)| c.clone())
                .collect();
            if !kept.is_empty() || !is_required {
                *choices = kept;
            }
        } else if prop.is_some_and(|prop| has_type(prop, "integer")) {
            // A number written with the parameter's unit ("3개", "1단계") is the value; other
            // numbers are offered to an optional parameter only (to a required one they are
            // as likely a dose, "10분 걷기", as its value).
            let with_unit = numbers_with_unit(&lower, prop);
            if !with_unit.is_empty() {
                params.insert(param.clone(), with_unit);
            } else if !is_required {
                params.insert(param.clone(), numbers_within(&lower, prop));
            }
        }
    }
    // A labelled value is the only one the call may write (see `labelled`).
    for (param, value) in labelled(tool, request) {
        params.insert(param, vec![ValueChoice::new(value.clone(), value)]);
    }
}

/// The optional parameters of `tool` whose value the request said, judged from this turn's
/// narrowed `params` (see [`keep_mentioned`]): `from_request` parameters with a value
/// provider that kept a value, and free-text ones the request labels (see [`labelled`]).
/// The person said "어제", so the call writes `date: "yesterday"` rather than leaving it out
/// and meaning today; they said "수면", so the search names it; they wrote "메모: 20쪽 읽음",
/// so the call carries the note; they wrote "3개만", so the search asks for three. Numbers
/// without the parameter's unit are not made to appear: a bare number in a request is as
/// often a dose ("10분 걷기") as a count, and unlabelled free text is the model's to copy or
/// leave out.
pub(crate) fn said(
    tool: &super::ToolDefinition,
    params: &std::collections::BTreeMap<String, Vec<ValueChoice>>,
    request: &str,
) -> Vec<String> {
    let required = required(tool);
    let lower = request.to_lowercase();
    let free_text =
        |param: &str| property(tool, param).is_some_and(|prop| has_type(prop, "string"));
    let with_unit = |param: &str| {
        property(tool, param).is_some_and(|prop| {
            has_type(prop, "integer") && !numbers_with_unit(&lower, Some(prop)).is_empty()
        })
    };
    tool.from_request
        .iter()
        .filter(|param| {
            tool.values.iter().any(|(name, _)| name == *param)
                || free_text(param.as_str())
                || with_unit(param.as_str())
        })
        .filter(|param| params.get(*param).is_some_and(|kept| !kept.is_empty()))
        .filter(|param| !required.contains(&param.as_str()))
        .cloned()
        .collect()
}

/// The optional free-text [`from_request`](crate::ToolDefinitionBuilder::from_request)
/// parameters of a call of `tool` whose value repeats another argument's, word for word
/// (spaces at the ends aside): the same words of a request cannot be both the habit and when
/// it happens, and a small model that copies one stretch into every slot
/// (`framed_text`, `anchor_when` and `dose_text` all "마음 날씨") means none of the extra ones.
/// The agent leaves them out of a model's call before it is confirmed or run.
pub(crate) fn repeated_copies(
    tool: &super::ToolDefinition,
    args: &serde_json::Map<String, Value>,
) -> Vec<String> {
    let required = required(tool);
    let text = |name: &str| args.get(name).and_then(Value::as_str).map(str::trim);
    tool.from_request
        .iter()
        .filter(|param| !required.contains(&param.as_str()))
        .filter(|param| property(tool, param).is_some_and(|prop| has_type(prop, "string")))
        .filter(|param| !tool.values.iter().any(|(name, _)| name == *param))
        .filter(|param| {
            text(param).is_some_and(|value| {
                args.keys()
                    .filter(|other| *other != *param)
                    .any(|other| text(other) == Some(value))
            })
        })
        .cloned()
        .collect()
}

/// Whether a call of `tool` would say nothing the request asked for: the tool takes
/// parameters; the request names none of the values of its required ones (each of which
/// has a value provider); and its optional ones are all read from the request, which named
/// a value for none of them (judged from this turn's `params`, narrowed by
/// [`keep_mentioned`]). `search_catalog({})` for "21일 법칙이 진짜야?" lists the whole
/// catalog, and `query_protocol` for "작은 습관이 왜 효과가 있어요?" describes whichever
/// protocol the model picks — answers to no question the person asked.
pub(crate) fn asks_nothing(
    tool: &super::ToolDefinition,
    params: Option<&std::collections::BTreeMap<String, Vec<ValueChoice>>>,
    request: &str,
) -> bool {
    let Some(properties) = tool
        .parameters()
        .get("properties")
        .and_then(Value::as_object)
    else {
        return false;
    };
    let lower = request.to_lowercase();
    let required = required(tool);
    let choices = |name: &str| params.and_then(|params| params.get(name));
    !properties.is_empty()
        && properties.keys().all(|name| {
            if required.contains(&name.as_str()) {
                // A word most values share ("습관" in the label of every build and break
                // protocol) names none of them.
                choices(name).is_some_and(|choices| {
                    let named = mentioned(&lower, choices).iter().filter(|m| **m).count();
                    named == 0 || named > (choices.len() / 2).max(1)
                })
            } else {
                tool.from_request.contains(name) && choices(name).is_none_or(Vec::is_empty)
            }
        })
}

/// The optional free-text parameters of `tool` that the request labels — by the parameter's
/// name or a word of its description, followed by a colon ("메모: 20쪽 읽음" labels a `note`
/// described as "짧은 메모(선택)") or by a quoted text after at most a particle ("메모로 '비
/// 와서 조금만' 남겨줘", "메모는 \"회식\"이라고") — each with what follows the colon to the end
/// of its line, or what the quotes hold (a label with nothing after it, or more than the
/// schema's `maxLength`, gives nothing). A person who writes the label means the value after
/// it; without this, a free-text parameter is the model's to copy or leave out (see
/// [`said`]), and a small model leaves it out or copies the wrong words.
pub(crate) fn labelled(tool: &super::ToolDefinition, request: &str) -> Vec<(String, String)> {
    let lower = request.to_lowercase();
    let required = required(tool);
    tool.from_request
        .iter()
        .filter(|param| !tool.values.iter().any(|(name, _)| name == *param))
        .filter(|param| !required.contains(&param.as_str()))
        .filter_map(|param| {
            let prop = property(tool, param)?;
            if !has_type(prop, "string") {
                return None;
            }
            let description = prop
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            let (start, end) = std::iter::once(param.as_str())
                .chain(description.split(|c: char| !c.is_alphanumeric()))
                .filter(|word| word.chars().count() >= 2)
                .find_map(|label| value_after(&lower, label))?;
            // Lower-casing can change byte lengths; the value is cut from the original only
            // where it did not.
            let value = (lower.len() == request.len())
                .then(|| request.get(start..end).unwrap_or(""))
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .filter(|v| {
                    prop.get("maxLength")
                        .and_then(Value::as_u64)
                        .is_none_or(|max| v.chars().count() as u64 <= max)
                })?;
            Some((param.clone(), value))
        })
        .collect()
}

/// Quote pairs a labelled value may be written in (see [`labelled`]).
const QUOTES: [(char, char); 6] = [
    ('\'', '\''),
    ('"', '"'),
    ('‘', '’'),
    ('“', '”'),
    ('「', '」'),
    ('『', '』'),
];
/// The most letters glued to a label before the quote of its value: a particle ("메모로
/// '…'", "메모는 '…'"); a longer word ("메모하는 습관 '일기'") makes it no label.
const MAX_PARTICLE_CHARS: usize = 3;

/// Where the value labelled `label` lies in `lower` (a lower-cased request), as a byte range:
/// after `label` and a colon, to the end of its line (inside quotes, if it starts with one);
/// or inside the quotes that follow `label` and at most a particle. `label` must start a
/// word.
fn value_after(lower: &str, label: &str) -> Option<(usize, usize)> {
    let label = label.to_lowercase();
    lower.match_indices(&label).find_map(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(char::is_alphanumeric) {
            return None;
        }
        let rest = &lower[at + label.len()..];
        let offset = |tail: &str| lower.len() - tail.len();
        let after = rest.trim_start();
        if let Some(colon) = after.chars().next().filter(|c| [':', '：'].contains(c)) {
            let value = after[colon.len_utf8()..].trim_start();
            let line_end = value.find('\n').map_or(lower.len(), |i| offset(value) + i);
            return Some(quoted(value, offset(value)).unwrap_or((offset(value), line_end)));
        }
        let particle: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .take(MAX_PARTICLE_CHARS + 1)
            .collect();
        if particle.chars().count() > MAX_PARTICLE_CHARS {
            return None;
        }
        let tail = rest[particle.len()..].trim_start();
        quoted(tail, offset(tail))
    })
}

/// The byte range inside the quotes `text` starts with (`at` is where `text` starts), if it
/// starts with an opening quote that closes on the same line.
fn quoted(text: &str, at: usize) -> Option<(usize, usize)> {
    let open = text.chars().next()?;
    let (_, close) = QUOTES.iter().find(|(o, _)| *o == open)?;
    let inner = &text[open.len_utf8()..];
    let end = inner.find(*close)?;
    (!inner[..end].contains('\n')).then(|| (at + open.len_utf8(), at + open.len_utf8() + end))
}

/// The most distinct values that `text` writes as numbers for any one required parameter of
/// `tool` with a value provider, judged from this turn's `params`: "1번이랑 3번 오늘 완료"
/// writes two habits, so the call is made once for each.
pub(crate) fn most_written(
    tool: &super::ToolDefinition,
    params: &std::collections::BTreeMap<String, Vec<ValueChoice>>,
    text: &str,
) -> usize {
    required(tool)
        .iter()
        .filter_map(|name| params.get(*name))
        .map(|choices| numbers_written(text, choices).len())
        .max()
        .unwrap_or(0)
}

/// The names the tool's parameter schema requires.
pub(crate) fn required(tool: &super::ToolDefinition) -> Vec<&str> {
    tool.parameters()
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The choices with a number for a value that `text` writes as a number of its own, in the
/// order written (each once).
pub(crate) fn numbers_written(text: &str, choices: &[ValueChoice]) -> Vec<usize> {
    let mut found = Vec::new();
    for run in digit_runs(text) {
        let hit = choices
            .iter()
            .position(|c| c.value.as_number().is_some_and(|n| n.to_string() == run));
        if let Some(i) = hit
            && !found.contains(&i)
        {
            found.push(i);
        }
    }
    found
}

/// Which of `choices` the (lowercased) request mentions: by the value itself, or by a word
/// of its label or one of its [`words`](ValueChoice::words) (words of digits alone do not
/// count). Where a word of one value lies inside a longer word of another at the same place
/// ("했" inside "못 했"), only the longer one is mentioned there.
pub(crate) fn mentioned(request: &str, choices: &[ValueChoice]) -> Vec<bool> {
    let spans: Vec<Vec<(usize, usize)>> = choices.iter().map(|c| spans(request, c)).collect();
    spans
        .iter()
        .enumerate()
        .map(|(i, own)| {
            own.iter().any(|&(start, end)| {
                !spans.iter().enumerate().any(|(j, other)| {
                    j != i
                        && other
                            .iter()
                            .any(|&(s, e)| s <= start && end <= e && e - s > end - start)
                })
            })
        })
        .collect()
}

/// Where in the (lowercased) request `choice` is mentioned, as byte ranges.
fn spans(request: &str, choice: &ValueChoice) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    match &choice.value {
        Value::String(text) => out.extend(term_spans(request, &text.to_lowercase())),
        other => {
            let value = other.to_string();
            out.extend(
                digit_spans(request)
                    .filter(|&(s, e)| request[s..e] == value)
                    .collect::<Vec<_>>(),
            );
        }
    }
    let label = choice.label.to_lowercase();
    let words = label
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_owned)
        .chain(choice.words.iter().map(|w| w.trim().to_lowercase()))
        .filter(|word| !word.chars().all(|c| c.is_ascii_digit()));
    for word in words {
        out.extend(term_spans(request, &word));
    }
    out
}

/// Where `term` occurs in `text`, as byte ranges. Where the term begins or ends with an
/// ASCII letter or digit, the text must not continue it there (`rest` is not in
/// "interest"); Korean terms match inside words, so "수면을" contains `수면`.
fn term_spans<'a>(text: &'a str, term: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
    let ascii_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let (first, last) = (term.chars().next(), term.chars().next_back());
    text.match_indices(term)
        .filter(move |_| !term.is_empty())
        .filter(move |(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + term.len()..].chars().next();
            let glued_before = ascii_word(first) && ascii_word(before);
            let glued_after = ascii_word(last) && ascii_word(after);
            !glued_before && !glued_after
        })
        .map(move |(at, _)| (at, at + term.len()))
}

/// The schema of `tool`'s parameter `param`, if it declares one.
fn property<'t>(tool: &'t super::ToolDefinition, param: &str) -> Option<&'t Value> {
    tool.parameters().get("properties")?.get(param)
}

/// Whether `prop`'s schema admits JSON type `name` (`"type": "string"` or a list holding it).
fn has_type(prop: &Value, name: &str) -> bool {
    match prop.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
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

/// The numbers of [`numbers_within`] that `request` writes with the parameter's unit: right
/// before (or one space before) letters that begin with a word of `prop`'s description, which
/// names the unit ("최대 개수(개)" → "3개만", "습관 문장의 단계" → "1단계로"). "10분" is no
/// count of results; "3개" is.
fn numbers_with_unit(request: &str, prop: Option<&Value>) -> Vec<ValueChoice> {
    let description = prop
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_lowercase();
    let units: Vec<&str> = description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && word.chars().all(char::is_alphabetic))
        .collect();
    if units.is_empty() {
        return Vec::new();
    }
    let written: String = digit_spans(request)
        .filter(|&(_, end)| {
            let after = request[end..].strip_prefix(' ').unwrap_or(&request[end..]);
            let letters: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
            !letters.is_empty() && units.iter().any(|unit| letters.starts_with(unit))
        })
        .map(|(start, end)| format!(" {} ", &request[start..end]))
        .collect();
    numbers_within(&written, prop)
}

/// The numbers written in `text` (see [`digit_spans`]).
fn digit_runs(text: &str) -> impl Iterator<Item = &str> {
    digit_spans(text).map(|(s, e)| &text[s..e])
}

/// Characters that join two runs of digits into one date, time or decimal ("3/7",
/// "2025-03-08", "9:30", "1.5").
const NUMBER_JOINERS: [char; 4] = ['/', '-', ':', '.'];

/// Where the numbers written in `text` are, as byte ranges: runs of ASCII digits that stand
/// on their own. A run joined to another by one of [`NUMBER_JOINERS`] is part of a date or a
/// time, not a number of its own: "3/7에 1번 했어" writes habit 1, not habits 3 and 1.
fn digit_spans(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let joined = |joiner: Option<char>, beyond: Option<char>| {
        joiner.is_some_and(|c| NUMBER_JOINERS.contains(&c))
            && beyond.is_some_and(|c| c.is_ascii_digit())
    };
    let mut start = None;
    text.char_indices()
        .chain(std::iter::once((text.len(), ' ')))
        .filter_map(move |(at, c)| match (c.is_ascii_digit(), start) {
            (true, None) => {
                start = Some(at);
                None
            }
            (false, Some(s)) => {
                start = None;
                Some((s, at))
            }
            _ => None,
        })
        .filter(move |&(s, e)| {
            let mut before = text[..s].chars().rev();
            let mut after = text[e..].chars();
            !joined(before.next(), before.next()) && !joined(after.next(), after.next())
        })
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
                "limit": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "maximum": 10,
                    "description": "최대 개수(개)"
                },
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
    fn an_optional_copy_that_repeats_another_argument_is_named() {
        let tool = super::super::ToolDefinition::builder("add", "d")
            .schema(super::super::ToolSchema::from_validation(
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "text": {"type": "string"},
                        "when": {"type": "string"},
                        "dose": {"type": "string"},
                        "kind": {"type": "string"},
                        "count": {"type": "integer"}
                    },
                    "required": ["text"]
                }),
            ))
            .values("kind", || vec![ValueChoice::new("a", "에이")])
            .from_request("text")
            .from_request("when")
            .from_request("dose")
            .from_request("kind")
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let repeated = |args: Value| match args {
            Value::Object(args) => repeated_copies(&tool, &args),
            _ => Vec::new(),
        };
        assert_eq!(
            repeated(
                serde_json::json!({"text": "마음 날씨", "when": "마음 날씨 ", "dose": "마음 날씨"})
            ),
            ["when", "dose"],
            "both extra slots repeat the habit"
        );
        assert_eq!(
            repeated(serde_json::json!({"text": "감사 일기", "when": "저녁", "dose": "저녁"})),
            ["when", "dose"],
            "two optional slots with one stretch: neither is meant"
        );
        assert!(
            repeated(
                serde_json::json!({"text": "기상 후 물 한 컵", "when": "기상 후", "dose": "한 컵"})
            )
            .is_empty(),
            "a part of the habit is not a repeat"
        );
        assert!(
            repeated(serde_json::json!({"text": "a", "kind": "a"})).is_empty(),
            "required and value-provided parameters are never left out"
        );
        assert!(repeated(Value::Null).is_empty());
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

        let params = narrowed("폰 사용 30분 줄이기 2개, 물 5잔");
        assert_eq!(
            params["limit"],
            [Value::from(2)],
            "a number with the unit its description names is the value"
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
    fn the_longer_word_is_the_one_a_request_mentions() {
        let choices = [
            ValueChoice::new("done", "했음").with_words(["했", "완료"]),
            ValueChoice::new("blank", "일부러 쉼").with_words(["쉰", "못 했"]),
        ];
        let said = |request: &str| mentioned(&request.to_lowercase(), &choices);
        assert_eq!(said("오늘 했어"), [true, false]);
        assert_eq!(
            said("1번 어제 못 했어"),
            [false, true],
            "`했` is inside `못 했`"
        );
        assert_eq!(
            said("어제는 못 했어, 오늘은 했어"),
            [true, true],
            "a `했` of its own elsewhere still counts"
        );
        assert_eq!(said("쉰 날로, 완료 말고"), [true, true]);
        assert_eq!(said("아무 말"), [false, false]);
        let habit = [ValueChoice::new(2, "자기 전 책 10쪽 읽기").with_words(["독서"])];
        assert_eq!(
            mentioned("독서 기록", &habit),
            [true],
            "by one of its words"
        );
        assert_eq!(mentioned("2번", &habit), [true], "by the value");
        assert_eq!(
            mentioned("10쪽 12번", &habit),
            [true],
            "`10쪽` is a label word"
        );
        assert_eq!(
            mentioned("12번", &habit),
            [false],
            "not inside another number"
        );
    }

    #[test]
    fn a_call_asks_nothing_when_the_request_names_none_of_its_values() {
        let optional = serde_json::json!({
            "type": "object",
            "properties": {
                "keyword": {"type": ["string", "null"]},
                "limit": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "maximum": 10,
                    "description": "최대 몇 개"
                }
            }
        });
        let search = super::super::ToolDefinition::builder("search", "d")
            .schema(super::super::ToolSchema::from_validation(optional))
            .values("keyword", || vec![ValueChoice::new("수면", "수면")])
            .from_request("keyword")
            .from_request("limit")
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let asks = |tool: &super::super::ToolDefinition, request: &str| {
            let mut params: std::collections::BTreeMap<_, _> =
                tool.current_values(&Deps::default()).into_iter().collect();
            keep_mentioned(tool, &mut params, request);
            asks_nothing(tool, Some(&params), request)
        };
        assert!(
            asks(&search, "21일 법칙이 진짜야?"),
            "21 is no count it takes"
        );
        assert!(!asks(&search, "수면 습관"), "a keyword named");
        assert!(!asks(&search, "아무거나 3개"), "a count written");

        let required = serde_json::json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "string"}}
        });
        let query = super::super::ToolDefinition::builder("query", "d")
            .schema(super::super::ToolSchema::from_validation(required))
            .values("id", || {
                vec![
                    ValueChoice::new("a", "걷기 · 만들 습관"),
                    ValueChoice::new("b", "독서 · 만들 습관"),
                    ValueChoice::new("c", "야식 · 끊을 습관"),
                ]
            })
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        assert!(!asks(&query, "독서 자세히"), "one value named");
        assert!(
            asks(&query, "작은 습관이 왜 효과가 있어요?"),
            "a word most values share names none"
        );
        assert!(!asks(&search_tool(), "kind b"), "a required value named");
        assert!(asks(&search_tool(), "아무거나"));
    }

    #[test]
    fn said_values_are_the_optional_ones_the_request_named() {
        let tool = search_tool();
        let said_in = |request: &str| {
            let mut params: std::collections::BTreeMap<_, _> =
                tool.current_values(&Deps::default()).into_iter().collect();
            keep_mentioned(&tool, &mut params, request);
            said(&tool, &params, request)
        };
        assert_eq!(
            said_in("잠이 안 와요, 커피 때문에. 3개만 보여줘"),
            ["category", "keyword", "limit"],
            "not the required kind; the number written with its unit"
        );
        assert_eq!(
            said_in("커피 10분 전에"),
            ["keyword"],
            "a number without the unit is not said"
        );
        assert!(said_in("KIND b, 아무거나").is_empty());
    }

    #[test]
    fn most_written_counts_numbers_of_a_required_provided_parameter() {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["habit_id"],
            "properties": {
                "habit_id": {"type": "integer"},
                "minutes": {"type": ["integer", "null"]}
            }
        });
        let tool = super::super::ToolDefinition::builder("log", "d")
            .schema(super::super::ToolSchema::from_validation(schema))
            .values("habit_id", || {
                (1..=3)
                    .map(|id| ValueChoice::new(id, format!("habit {id}")))
                    .collect::<Vec<_>>()
            })
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let params: std::collections::BTreeMap<_, _> =
            tool.current_values(&Deps::default()).into_iter().collect();
        let written = |text: &str| most_written(&tool, &params, text);
        assert_eq!(written("1번이랑 3번 오늘 완료"), 2);
        assert_eq!(written("3번이랑 3번"), 1, "distinct values");
        assert_eq!(written("2번 30분 했어"), 1, "30 is no habit");
        assert_eq!(written("걷기 했어"), 0);
        assert_eq!(
            written("지난 금요일(3/7)에 1번 했어"),
            1,
            "a date's numbers are no habits"
        );
        assert_eq!(written("1번, 3번 9:30에"), 2);
    }

    #[test]
    fn a_free_text_parameter_the_request_labels_is_written() {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["habit_id"],
            "properties": {
                "habit_id": {"type": "integer"},
                "note": {"type": ["string", "null"], "description": "짧은 메모(선택)"},
                "title": {"type": ["string", "null"], "description": "제목"}
            }
        });
        let tool = super::super::ToolDefinition::builder("log", "d")
            .schema(super::super::ToolSchema::from_validation(schema))
            .from_request("note")
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let labels_note = |request: &str, value: &str, why: &str| {
            assert_eq!(
                labelled(&tool, request),
                [("note".to_owned(), value.to_owned())],
                "{why}"
            );
        };
        let names = |request: &str| -> Vec<String> {
            labelled(&tool, request)
                .into_iter()
                .map(|(name, _)| name)
                .collect()
        };
        labels_note(
            "1번 했어. 메모: 20쪽 읽음\n고마워",
            "20쪽 읽음",
            "the rest of its line",
        );
        labels_note("1번 했어 note : Park", "Park", "by its name");
        labels_note(
            "1번 오늘 완료하고 메모로 '비 와서 조금만' 남겨줘",
            "비 와서 조금만",
            "quoted after a particle",
        );
        labels_note(
            "3번은 쉼, 메모는 “회식”이라고 적어줘",
            "회식",
            "in curly quotes",
        );
        labels_note("메모: '공원'", "공원", "a colon, then quotes");
        assert!(
            names("메모하는 습관 '일기' 추가").is_empty(),
            "a longer word before the quote is no particle"
        );
        assert!(names("메모 '안 닫힘").is_empty(), "an unclosed quote");
        assert!(names("메모:").is_empty(), "nothing after the label");
        assert!(names("1번 했어. 메모 남기지 마").is_empty(), "no colon");
        assert!(
            names("제목: 산책").is_empty(),
            "not a from_request parameter"
        );
        assert!(names("단메모: x").is_empty(), "inside another word");
        let mut params = std::collections::BTreeMap::new();
        keep_mentioned(&tool, &mut params, "1번 했어. 메모: 20쪽 읽음");
        let kept: Vec<&Value> = params["note"].iter().map(|c| &c.value).collect();
        assert_eq!(
            kept,
            [&Value::from("20쪽 읽음")],
            "the only value the call may write"
        );
        assert_eq!(
            said(&tool, &params, "1번 했어. 메모: 20쪽 읽음"),
            ["note"],
            "and the call writes it"
        );
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
