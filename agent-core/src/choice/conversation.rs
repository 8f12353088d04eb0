//! The conversation so far as evidence for the next message's plan ([`Conversation`]): the
//! calls of the last turns that made any, with what they returned. A follow-up is read with
//! it:
//!
//! - an elliptical one ("3번은?", "책 읽기는?", "and habit 2?") — a few words that name a
//!   value of the last tool's parameters, or a place in a list, and ask for no tool's action —
//!   continues the last tool;
//! - one that points at a place in what a result listed ("두 번째 거 자세히", "the first
//!   one") takes that item's value;
//! - a parameter the message does not name keeps the value the conversation is about: the
//!   one the last call of the same tool wrote ("걷기도 했어" after a check-in for today is
//!   for today), or, for a required one, the one the last turn's calls and results were about
//!   (the habit just added, the protocol just described).

use std::collections::VecDeque;

use serde_json::Value;

use crate::request::{self, Ordinal, Request};
use crate::tool::{ValueChoice, ValueSets};

/// How many of the latest turns that made calls are kept.
const KEPT_TURNS: usize = 4;

/// The most words an elliptical follow-up has ("아 그리고 보리차도", "and habit 2?").
const ELLIPTICAL_WORDS: usize = 4;

/// The calls of a conversation's latest turns that made any; see the module doc. An agent
/// keeps one per conversation ([`Agent`](crate::Agent) does so itself); an evaluation or a
/// test builds one with [`record`](Self::record).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conversation {
    /// Oldest first; each a turn's calls in order.
    turns: VecDeque<Vec<PastCall>>,
}

/// One call an earlier turn made.
#[derive(Debug, Clone, PartialEq)]
pub struct PastCall {
    /// The tool.
    pub tool: String,
    /// The arguments it was called with.
    pub args: Value,
    /// The data of its result, when it succeeded.
    pub data: Option<Value>,
}

impl Conversation {
    /// A conversation with nothing said yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Notes a finished turn's calls, in order. A turn that made none leaves the conversation
    /// about what it was about ("그게 왜 좋은데?" between a description and "그걸로 추가해줘").
    pub fn record(&mut self, calls: Vec<PastCall>) {
        if calls.is_empty() {
            return;
        }
        if self.turns.len() == KEPT_TURNS {
            self.turns.pop_front();
        }
        self.turns.push_back(calls);
    }

    /// Forgets everything (a new conversation).
    pub fn clear(&mut self) {
        self.turns.clear();
    }

    /// Whether no turn made a call yet.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The last call of the latest turn that made one.
    fn last_call(&self) -> Option<&PastCall> {
        self.turns.back().and_then(|calls| calls.last())
    }

    /// The tool an elliptical follow-up continues: the last call's (if it succeeded), when
    /// `request` is a few words that name one of its parameters' values as words of their
    /// own (`full`: every value the providers offer now; "보리차도", not the "감사" of
    /// "감사합니다") or a place in a list the conversation showed. Whether the request asks for
    /// another tool's action is the caller's to judge.
    pub(super) fn continued(&self, request: &Request, full: &ValueSets) -> Option<&str> {
        let last = self.last_call().filter(|call| call.data.is_some())?;
        if request.text().split_whitespace().count() > ELLIPTICAL_WORDS {
            return None;
        }
        let names_a_value = full.get(&last.tool).is_some_and(|params| {
            params
                .values()
                .any(|choices| request::named_as_words(request, choices).contains(&true))
        });
        let names_a_place = request.ordinal().is_some() && self.listed().is_some();
        (names_a_value || names_a_place).then_some(last.tool.as_str())
    }

    /// The values of the item `request` points at by its place in a list ("두 번째 거"), if
    /// it points at one the conversation showed.
    pub(super) fn pointed(&self, request: &Request) -> Option<Vec<&Value>> {
        let item = self.item(request.ordinal()?)?;
        Some(identity(item))
    }

    /// Narrows `values` of `tool` (the plan's first step) by the conversation, as the module
    /// doc says, from `full` (every value the providers offer now). Returns the parameters
    /// given a value the request did not name, which the call must write.
    pub(super) fn carry(
        &self,
        tool: &str,
        required: &[&str],
        request: &Request,
        values: &mut ValueSets,
        full: &ValueSets,
    ) -> Vec<String> {
        let mut carried = Vec::new();
        let Some(params) = full.get(tool) else {
            return carried;
        };
        let item = request.ordinal().and_then(|ordinal| self.item(ordinal));
        for (param, choices) in params {
            let pick = |wanted: &Value| choices.iter().find(|c| c.value == *wanted).cloned();
            let by_place = item.and_then(|item| identity(item).into_iter().find_map(pick));
            let chosen = by_place.or_else(|| {
                if request::mentioned(request, choices).contains(&true) {
                    return None;
                }
                self.same_tool(tool, param).and_then(pick).or_else(|| {
                    required
                        .contains(&param.as_str())
                        .then(|| self.subject(param).into_iter().find_map(pick))
                        .flatten()
                })
            });
            if let Some(choice) = chosen {
                set(values, tool, param, choice);
                carried.push(param.clone());
            }
        }
        carried
    }

    /// Whether the conversation gives a value to a parameter `tool` requires that `request`
    /// does not name (of those the providers restrict, `full`): the call would be about what
    /// the conversation is about.
    pub(super) fn supplies(
        &self,
        tool: &str,
        required: &[&str],
        request: &Request,
        full: &ValueSets,
    ) -> bool {
        let mut scratch = full.clone();
        self.carry(tool, required, request, &mut scratch, full)
            .iter()
            .any(|param| required.contains(&param.as_str()))
    }

    /// Whether a call of `tool` would be about what the conversation is about: the
    /// conversation [supplies](Self::supplies) a required parameter, or the request names,
    /// for one, the very value the last turn was about ("치실 습관 추가해줘" right after the
    /// flossing protocol was described).
    pub(super) fn is_about(
        &self,
        tool: &str,
        required: &[&str],
        request: &Request,
        full: &ValueSets,
    ) -> bool {
        if self.supplies(tool, required, request, full) {
            return true;
        }
        let Some(params) = full.get(tool) else {
            return false;
        };
        params
            .iter()
            .filter(|(param, _)| required.contains(&param.as_str()))
            .any(|(param, choices)| {
                let subject = self.subject(param);
                request::mentioned(request, choices)
                    .into_iter()
                    .zip(choices)
                    .any(|(said, choice)| said && subject.contains(&&choice.value))
            })
    }

    /// The value the last call of `tool` wrote for `param`, in the latest turn that called it.
    fn same_tool(&self, tool: &str, param: &str) -> Option<&Value> {
        self.turns
            .iter()
            .rev()
            .flat_map(|calls| calls.iter().rev())
            .find(|call| call.tool == tool)
            .and_then(|call| call.args.get(param))
    }

    /// What the latest turn was about, for `param`: the values its calls' results and
    /// arguments hold under a key like `param` (`habit_id`, or `id` for a `…_id`), the last
    /// call's first, its result before its arguments; values inside a list are not a
    /// subject, unless the list holds one item only (a search that found one protocol is
    /// about that protocol).
    fn subject(&self, param: &str) -> Vec<&Value> {
        let mut found = Vec::new();
        for call in self.turns.back().into_iter().flatten().rev() {
            if let Some(data) = &call.data {
                keyed(data, param, &mut found);
                if let Some([item]) = list_of_objects(data).map(Vec::as_slice) {
                    keyed(item, param, &mut found);
                }
            }
            keyed(&call.args, param, &mut found);
        }
        found
    }

    /// The items of the latest result that lists objects.
    fn listed(&self) -> Option<&Vec<Value>> {
        self.turns
            .iter()
            .rev()
            .flat_map(|calls| calls.iter().rev())
            .filter_map(|call| call.data.as_ref())
            .find_map(list_of_objects)
    }

    /// The item of the latest list at `ordinal`; "the next one" is the one after the item
    /// the last call named.
    fn item(&self, ordinal: Ordinal) -> Option<&Value> {
        let items = self.listed()?;
        match ordinal {
            Ordinal::Nth(n) => items.get(n.checked_sub(1)?),
            Ordinal::Last => items.last(),
            Ordinal::Next => {
                let last = self.last_call()?;
                let named = scalars(&last.args);
                let at = items
                    .iter()
                    .position(|item| scalars(item).iter().any(|v| named.contains(v)))?;
                items.get(at + 1)
            }
        }
    }
}

/// Whether a result's `key` stands for a parameter `param`: the same name, or `id` for a
/// `…_id` (and the other way round).
fn key_fits(key: &str, param: &str) -> bool {
    key == param
        || (key == "id" && param.ends_with("_id"))
        || (param == "id" && key.ends_with("_id"))
}

/// The scalar values of `value` under keys that fit `param`, in objects outside lists.
fn keyed<'v>(value: &'v Value, param: &str, found: &mut Vec<&'v Value>) {
    if let Value::Object(fields) = value {
        for (key, field) in fields {
            if key_fits(key, param) && !field.is_object() && !field.is_array() {
                found.push(field);
            }
        }
        for field in fields.values().filter(|f| f.is_object()) {
            keyed(field, param, found);
        }
    }
}

/// What names an item of a list: its `id`, else its `…_id` fields, else every scalar field
/// (a search hit is its id, not its category).
fn identity(item: &Value) -> Vec<&Value> {
    let Value::Object(fields) = item else {
        return scalars(item);
    };
    if let Some(id) = fields.get("id").filter(|v| !v.is_object() && !v.is_array()) {
        return vec![id];
    }
    let ids: Vec<&Value> = fields
        .iter()
        .filter(|(key, v)| key.ends_with("_id") && !v.is_object() && !v.is_array())
        .map(|(_, v)| v)
        .collect();
    if ids.is_empty() { scalars(item) } else { ids }
}

/// The scalar values of an item (its fields', one level deep).
fn scalars(item: &Value) -> Vec<&Value> {
    match item {
        Value::Object(fields) => fields
            .values()
            .filter(|v| !v.is_object() && !v.is_array())
            .collect(),
        Value::Array(_) => Vec::new(),
        scalar => vec![scalar],
    }
}

/// The first list of objects in `data`: itself, or found depth first in its fields.
fn list_of_objects(data: &Value) -> Option<&Vec<Value>> {
    match data {
        Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
            Some(items)
        }
        Value::Object(fields) => fields.values().find_map(list_of_objects),
        _ => None,
    }
}

/// Sets `tool`'s `param` to `choice` alone in `values`.
fn set(values: &mut ValueSets, tool: &str, param: &str, choice: ValueChoice) {
    values
        .entry(tool.to_owned())
        .or_default()
        .insert(param.to_owned(), vec![choice]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn habits() -> ValueSets {
        let choices = vec![
            ValueChoice::new(1, "아침 커피 후 10분 걷기"),
            ValueChoice::new(2, "자기 전 책 10쪽 읽기"),
            ValueChoice::new(3, "밤 9시 이후 보리차 마시기"),
            ValueChoice::new(4, "치실 한 개"),
        ];
        let dates = vec![
            ValueChoice::new("today", "오늘"),
            ValueChoice::new("yesterday", "어제"),
        ];
        let streak = std::iter::once(("habit_id".to_owned(), choices.clone())).collect();
        let log = [("habit_id".to_owned(), choices), ("date".to_owned(), dates)]
            .into_iter()
            .collect();
        [("get_streak".to_owned(), streak), ("log".to_owned(), log)]
            .into_iter()
            .collect()
    }

    fn call(tool: &str, args: Value, data: Value) -> PastCall {
        PastCall {
            tool: tool.to_owned(),
            args,
            data: Some(data),
        }
    }

    fn chosen(values: &ValueSets, tool: &str, param: &str) -> Vec<Value> {
        values[tool][param]
            .iter()
            .map(|c| c.value.clone())
            .collect()
    }

    #[test]
    fn an_elliptical_follow_up_continues_the_last_tool() {
        let mut conversation = Conversation::new();
        assert_eq!(
            conversation.continued(&Request::new("3번은?"), &habits()),
            None
        );
        conversation.record(vec![call(
            "get_streak",
            json!({"habit_id": 1}),
            json!({"current": 2}),
        )]);
        let full = habits();
        assert_eq!(
            conversation.continued(&Request::new("3번은?"), &full),
            Some("get_streak")
        );
        assert_eq!(
            conversation.continued(&Request::new("책 읽기는?"), &full),
            Some("get_streak")
        );
        assert_eq!(
            conversation.continued(&Request::new("아 그리고 보리차도"), &full),
            Some("get_streak")
        );
        assert_eq!(
            conversation.continued(&Request::new("고마워!"), &full),
            None
        );
        assert_eq!(
            conversation.continued(&Request::new("치실하세요"), &full),
            None,
            "a value's word inside another word names nothing"
        );
        assert_eq!(
            conversation.continued(
                &Request::new("그럼 3번 습관은 이제 어떻게 하면 좋을까요?"),
                &full
            ),
            None,
            "a long message stands alone"
        );
    }

    #[test]
    fn a_place_in_a_list_names_that_item() {
        let mut conversation = Conversation::new();
        conversation.record(vec![call(
            "list",
            json!({}),
            json!({"habits": [{"id": 1}, {"id": 2}, {"id": 3}]}),
        )]);
        let full = habits();
        let mut values = full.clone();
        let carried = conversation.carry(
            "get_streak",
            &["habit_id"],
            &Request::new("두 번째 거 연속 기록 알려줘"),
            &mut values,
            &full,
        );
        assert_eq!(carried, ["habit_id"]);
        assert_eq!(chosen(&values, "get_streak", "habit_id"), [json!(2)]);
    }

    #[test]
    fn an_unnamed_value_is_the_one_the_conversation_is_about() {
        let mut conversation = Conversation::new();
        conversation.record(vec![call(
            "log",
            json!({"habit_id": 1, "date": "yesterday"}),
            json!({"habit_id": 1, "date": "2025-03-09"}),
        )]);
        let full = habits();
        // The same tool again: its unnamed values are the last call's.
        let mut values = full.clone();
        let carried = conversation.carry(
            "log",
            &["habit_id"],
            &Request::new("책도 읽었어"),
            &mut values,
            &full,
        );
        assert_eq!(carried, ["date"]);
        assert_eq!(chosen(&values, "log", "date"), [json!("yesterday")]);
        assert_eq!(
            chosen(&values, "log", "habit_id").len(),
            4,
            "named: left alone"
        );
        // Another tool: a required value follows the subject.
        conversation.record(vec![call(
            "add",
            json!({"protocol_id": "build.floss"}),
            json!({"habit_id": 4, "frame_level": 2}),
        )]);
        let mut values = full.clone();
        let carried = conversation.carry(
            "get_streak",
            &["habit_id"],
            &Request::new("방금 그 습관 며칠째야?"),
            &mut values,
            &full,
        );
        assert_eq!(carried, ["habit_id"]);
        assert_eq!(chosen(&values, "get_streak", "habit_id"), [json!(4)]);
    }

    /// `add`'s `protocol_id`, two protocols to choose from.
    fn protocols() -> ValueSets {
        let choices = vec![
            ValueChoice::new("build.posture-reset", "한 시간마다 자세 리셋").with_words(["자세"]),
            ValueChoice::new("build.floss-one-tooth", "치실 한 번").with_words(["치실"]),
        ];
        let params = std::iter::once(("protocol_id".to_owned(), choices)).collect();
        std::iter::once(("add".to_owned(), params)).collect()
    }

    #[test]
    fn a_list_of_one_item_is_about_that_item() {
        let full = protocols();
        let mut conversation = Conversation::new();
        conversation.record(vec![call(
            "search",
            json!({"keyword": "거북목"}),
            json!({"items": [{"id": "build.posture-reset", "title": "한 시간마다 자세 리셋"}]}),
        )]);
        let request = Request::new("좋아, 회의 끝날 때마다 하는 걸로 추가해줘");
        assert!(conversation.is_about("add", &["protocol_id"], &request, &full));
        let mut values = full.clone();
        conversation.carry("add", &["protocol_id"], &request, &mut values, &full);
        assert_eq!(
            chosen(&values, "add", "protocol_id"),
            [json!("build.posture-reset")]
        );
        // Two items found: neither is what the conversation is about.
        conversation.record(vec![call(
            "search",
            json!({}),
            json!({"items": [{"id": "build.posture-reset"}, {"id": "build.floss-one-tooth"}]}),
        )]);
        assert!(!conversation.is_about("add", &["protocol_id"], &request, &full));
    }

    #[test]
    fn naming_the_value_just_described_is_about_it() {
        let full = protocols();
        let mut conversation = Conversation::new();
        conversation.record(vec![call(
            "query",
            json!({"id": "build.floss-one-tooth"}),
            json!({"id": "build.floss-one-tooth", "title": "치실 한 번"}),
        )]);
        let named = Request::new("오 괜찮네. 저녁 양치 후에 치실 하는 걸로 추가해줘");
        assert!(conversation.is_about("add", &["protocol_id"], &named, &full));
        let other = Request::new("자세 리셋 추가해줘");
        assert!(!conversation.is_about("add", &["protocol_id"], &other, &full));
    }
}
