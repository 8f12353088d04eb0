//! A model's call, tidied before anyone is asked to confirm it: optional free-text
//! arguments that only repeat another argument are left out.

use serde_json::{Map, Value};

use crate::tool::ToolDefinition;
use crate::tool::schema::admits_type;

/// The optional free-text [`from_request`](crate::ToolDefinitionBuilder::from_request)
/// parameters of a call of `tool` whose value repeats another argument's, word for word
/// (spaces at the ends aside): the same words of a request cannot be both the habit and when
/// it happens, and a small model that copies one stretch into every slot (`framed_text`,
/// `anchor_when` and `dose_text` all "마음 날씨") means none of the extra ones.
pub(crate) fn repeated_copies(tool: &ToolDefinition, args: &Map<String, Value>) -> Vec<String> {
    let required = tool.required_parameters();
    let text = |name: &str| args.get(name).and_then(Value::as_str).map(str::trim);
    let free_text = |param: &str| {
        tool.parameter(param)
            .is_some_and(|p| admits_type(p, "string"))
    };
    tool.from_request_parameters()
        .iter()
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

/// `args` without the [`repeated_copies`] of a call of `tool`.
pub(crate) fn tidy(tool: &ToolDefinition, args: &mut Value) {
    if let Some(args) = args.as_object_mut() {
        for name in repeated_copies(tool, args) {
            args.remove(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ValueChoice;

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
