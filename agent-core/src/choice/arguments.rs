//! A model's call, tidied before anyone is asked to confirm it: optional free-text
//! arguments that only repeat another argument are left out, and a grounded text copied
//! from the request ends where its words do, not with the particle or the punctuation that
//! followed them (a free-form object's keys and text values too).

use serde_json::{Map, Value};

use crate::request::{TRAILING_PARTICLES, trimmed_copy};
use crate::tool::ToolDefinition;
use crate::tool::schema::{admits_type, is_free_object};

/// The optional free-text parameters copied from the request
/// ([`from_request`](crate::ToolDefinitionBuilder::from_request) or
/// [grounded](ToolDefinition::grounded_parameters)) of a call of `tool` whose value repeats
/// another argument's, word for word (spaces at the ends aside): the same words of a request cannot be both the habit and when
/// it happens, and a small model that copies one stretch into every slot (`framed_text`,
/// `anchor_when` and `dose_text` all "마음 날씨") means none of the extra ones.
pub(crate) fn repeated_copies(tool: &ToolDefinition, args: &Map<String, Value>) -> Vec<String> {
    let required = tool.required_parameters();
    let text = |name: &str| args.get(name).and_then(Value::as_str).map(str::trim);
    let free_text = |param: &str| {
        tool.parameter(param)
            .is_some_and(|p| admits_type(p, "string"))
    };
    tool.copied_parameters()
        .filter(|param| !required.contains(&param.as_str()))
        .filter(|param| free_text(param))
        .filter(|param| !tool.has_value_provider(param))
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

/// `args` without the [`repeated_copies`] of a call of `tool`, its grounded texts and its
/// free-form objects' keys and texts [trimmed](trimmed_copy).
pub(crate) fn tidy(tool: &ToolDefinition, args: &mut Value) {
    if let Some(args) = args.as_object_mut() {
        let topic = topic_words(tool);
        let required = tool.required_parameters();
        for param in tool.grounded_parameters() {
            let Some(Value::String(text)) = args.get_mut(param) else {
                continue;
            };
            let kept = without_topic(text, &topic);
            // An optional text that only names the tool's own topic ("timer" for the label
            // of "set a timer for 10 min") says nothing of its own: it is left out.
            if !required.contains(&param.as_str())
                && kept.len() == text.len()
                && is_topic_only(kept, &topic)
            {
                args.remove(param);
                continue;
            }
            let trimmed = trimmed_copy(kept);
            if !trimmed.is_empty() && trimmed.len() < text.len() {
                *text = trimmed.to_owned();
            }
        }
        for name in repeated_copies(tool, args) {
            args.remove(&name);
        }
        // A free-form object's keys and text values are copies too ("Accept는" → "Accept").
        for (name, value) in args.iter_mut() {
            let free = tool.parameter(name).is_some_and(is_free_object);
            if let (true, Value::Object(pairs)) = (free, value) {
                let mut tidied = Map::new();
                for (key, value) in std::mem::take(pairs) {
                    let value = match value {
                        Value::String(text) if !trimmed_copy(&text).is_empty() => {
                            Value::String(trimmed_copy(&text).to_owned())
                        }
                        other => other,
                    };
                    // A key that trims to nothing, or to another key already there, stays.
                    let trimmed = trimmed_copy(&key);
                    let key = if trimmed.is_empty() || tidied.contains_key(trimmed) {
                        key
                    } else {
                        trimmed.to_owned()
                    };
                    tidied.insert(key, value);
                }
                *pairs = tidied;
            }
        }
    }
}

/// The words of a tool's description — what it does and what about ("특정 지역의 현재 날씨
/// 정보 제공": 특정, 지역, 현재, 날씨, 정보, 제공) — as stems: two syllables or more of
/// Hangul, four letters or more otherwise.
fn topic_words(tool: &ToolDefinition) -> Vec<String> {
    tool.description()
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .map(|word| {
            let stem = TRAILING_PARTICLES
                .iter()
                .find_map(|(p, _)| word.strip_suffix(p).filter(|s| s.chars().count() >= 2))
                .unwrap_or(word);
            stem.to_owned()
        })
        .filter(|w| {
            let hangul = w.chars().filter(|c| ('가'..='힣').contains(c)).count();
            hangul >= 2 || (hangul == 0 && w.len() >= 4)
        })
        .collect()
}

/// Whether every word of `text` names what `tool` is about (a word of its description), so
/// it is no value of its own ("날씨" to a weather tool).
pub(crate) fn names_only_topic(tool: &ToolDefinition, text: &str) -> bool {
    is_topic_only(text, &topic_words(tool))
}

/// Whether every word of `text` names the tool's own topic (see [`topic_words`]).
fn is_topic_only(text: &str, topic: &[String]) -> bool {
    let mut words = text.split_whitespace().peekable();
    words.peek().is_some() && words.all(|word| is_topic(word, topic))
}

/// Whether `word` names the tool's own topic: it contains one of its [`topic_words`] and no
/// digit ("3시간" is a value, whatever it shares with the topic).
fn is_topic(word: &str, topic: &[String]) -> bool {
    let word = word.to_lowercase();
    !word.chars().any(|c| c.is_ascii_digit()) && topic.iter().any(|t| word.contains(t.as_str()))
}

/// A copied `text` without the words that name the tool's own topic (see [`topic_words`]):
/// those it starts with are dropped and it ends before the first other one — the words of
/// "부산은 지금 날씨가 어때?" that say *weather* are the request's question, not the place.
/// A text made only of such words is left as it is.
fn without_topic<'t>(text: &'t str, topic: &[String]) -> &'t str {
    let is_topic = |word: &str| is_topic(word, topic);
    let mut start = None;
    let mut end = text.len();
    for (at, word) in text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
    {
        match (start, is_topic(word)) {
            (None, true) => {}
            (None, false) => start = Some(at),
            (Some(_), true) => {
                end = at;
                break;
            }
            (Some(_), false) => {}
        }
    }
    match start {
        Some(start) => text[start..end].trim_end(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ValueChoice;

    #[test]
    fn a_copied_name_holds_no_word_of_the_tools_topic() {
        let topic: Vec<String> = ["날씨", "현재", "정보"].map(String::from).to_vec();
        assert_eq!(
            without_topic("부산은 지금 날씨가 어때?", &topic),
            "부산은 지금"
        );
        assert_eq!(without_topic("현재 베이징 날씨", &topic), "베이징");
        assert_eq!(without_topic("날씨 정보", &topic), "날씨 정보");
        assert_eq!(without_topic("백현동", &topic), "백현동");
        assert_eq!(without_topic("3현재 뒤", &topic), "3현재 뒤");
    }

    #[test]
    fn a_free_form_objects_keys_and_texts_end_where_their_words_do() {
        let tool = ToolDefinition::builder("profile", "d")
            .schema(crate::tool::ToolSchema::from_validation(
                serde_json::json!({
                    "type": "object",
                    "properties": {"fields": {"type": "object"}},
                    "required": ["fields"]
                }),
            ))
            .handler(|_| std::future::ready(crate::tool::ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let mut args = serde_json::json!({"fields": {"이름은": "철수,", "나이는": 30}});
        tidy(&tool, &mut args);
        assert_eq!(
            args,
            serde_json::json!({"fields": {"이름": "철수", "나이": 30}})
        );
    }

    #[test]
    fn an_optional_copy_that_repeats_another_argument_is_named() {
        let tool = ToolDefinition::builder("add", "d")
            .schema(crate::tool::ToolSchema::from_validation(
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
}
