//! The grammar that constrains a Gemma JSON reply to registered tools and their schemas.
//!
//! One JSON Schema is assembled for the whole reply and handed to llama.cpp's
//! `json_schema_to_grammar`:
//!
//! ```text
//! auto:     anyOf[ CALLS, {"response": string (minLength 1)} ]
//! required: CALLS
//! none:     no grammar (plain text)
//! CALLS  =  {"tool_calls": [ anyOf[ {"name": const "<tool>", "arguments": <tool's schema>} … ] ]}
//!           with 1 to `max_calls_per_turn` items (an option; default 1)
//! ```
//!
//! Why this shape rather than a lazy grammar behind a trigger: the base 270M model does not
//! emit a trigger (a fenced block, a special prefix) on its own, so with a lazy grammar it
//! would almost never call a tool. A grammar active from the first token makes the choice
//! between `"tool_calls"` and `"response"` the model's first decision, which it makes from the
//! instructions, and everything after that choice is forced to be valid. The price is that
//! text answers come wrapped in JSON; [`super::json_stream`] unwraps them while streaming.
//!
//! The schema is written as text rather than through `serde_json::Value` because key order
//! matters: llama.cpp keeps the order it reads (it parses into an ordered map), so `"name"`
//! comes before `"arguments"` and the model picks the tool before it writes arguments.
//! serde_json's map would sort `arguments` first.

use serde_json::Value;

use crate::llm::{LlmError, ToolChoice};
use crate::tool::ToolDeclaration;

/// The JSON Schema of a reply, or `None` when the reply is plain text.
/// `max_calls` bounds the calls of one turn (at least 1).
pub(crate) fn reply_schema(
    tools: &[ToolDeclaration],
    choice: ToolChoice,
    max_calls: usize,
) -> Result<Option<String>, LlmError> {
    let max_calls = max_calls.max(1);
    if choice == ToolChoice::None {
        return Ok(None);
    }
    if tools.is_empty() {
        return match choice {
            ToolChoice::Required => Err(LlmError::Grammar(
                "tool choice is `required` but no tools are declared".to_owned(),
            )),
            _ => Ok(None),
        };
    }
    let calls: Vec<String> = tools.iter().map(call_schema).collect();
    let calls = format!(
        r#"{{"type":"object","properties":{{"tool_calls":{{"type":"array","items":{{"anyOf":[{}]}},"minItems":1,"maxItems":{max_calls}}}}},"required":["tool_calls"],"additionalProperties":false}}"#,
        calls.join(",")
    );
    let response = r#"{"type":"object","properties":{"response":{"type":"string","minLength":1}},"required":["response"],"additionalProperties":false}"#;
    Ok(Some(match choice {
        ToolChoice::Required => calls,
        _ => format!(r#"{{"anyOf":[{calls},{response}]}}"#),
    }))
}

/// `{"name": const, "arguments": schema}` for one tool, in that key order.
fn call_schema(tool: &ToolDeclaration) -> String {
    let name = Value::String(tool.name.clone());
    format!(
        r#"{{"type":"object","properties":{{"name":{{"const":{name}}},"arguments":{}}},"required":["name","arguments"],"additionalProperties":false}}"#,
        arguments_schema(&tool.parameters)
    )
}

/// The tool's argument schema, made strict enough for a grammar: an object without declared
/// properties would otherwise admit any JSON object, and undeclared keys would let the model
/// invent arguments.
fn arguments_schema(parameters: &Value) -> String {
    let mut schema = match parameters {
        Value::Object(map) => map.clone(),
        _ => serde_json::Map::new(),
    };
    schema.insert("type".to_owned(), Value::String("object".to_owned()));
    schema
        .entry("properties")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    schema
        .entry("additionalProperties")
        .or_insert(Value::Bool(false));
    Value::Object(schema).to_string()
}

/// The GBNF grammar of a reply (root rule `root`), or `None` for plain text.
pub(crate) fn reply_grammar(
    tools: &[ToolDeclaration],
    choice: ToolChoice,
    max_calls: usize,
) -> Result<Option<String>, LlmError> {
    let Some(schema) = reply_schema(tools, choice, max_calls)? else {
        return Ok(None);
    };
    llama_cpp_2::json_schema_to_grammar(&schema)
        .map(|grammar| Some(compact(&grammar)))
        .map_err(|e| LlmError::Grammar(format!("json_schema_to_grammar failed: {e}")))
}

/// The rule that lets nothing stand between JSON tokens.
const NO_SPACE: &str = r#"space ::= """#;

/// Removes the optional whitespace between JSON tokens. Left to itself the base model
/// pretty-prints (newlines and indentation), which roughly doubles the tokens of a call for
/// nothing; compact JSON is just as familiar to it.
fn compact(grammar: &str) -> String {
    grammar
        .lines()
        .map(|line| {
            if line.starts_with("space ::=") {
                NO_SPACE
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tools() -> Vec<ToolDeclaration> {
        vec![
            ToolDeclaration {
                name: "get_streak".into(),
                description: "streak".into(),
                parameters: json!({
                    "type": "object",
                    "properties": {"habit_id": {"type": "integer"}},
                    "required": ["habit_id"]
                }),
            },
            ToolDeclaration {
                name: "log_tracker_entry".into(),
                description: "log".into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "habit_id": {"type": "integer"},
                        "value": {"type": "string", "enum": ["done", "blank"]}
                    },
                    "required": ["habit_id", "value"]
                }),
            },
            ToolDeclaration {
                name: "list_active_habits".into(),
                description: "list".into(),
                parameters: json!({"type": "object"}),
            },
        ]
    }

    #[test]
    fn schema_is_valid_json_with_name_before_arguments() {
        let schema = reply_schema(&tools(), ToolChoice::Auto, 4)
            .expect("schema")
            .expect("some");
        let value: Value = serde_json::from_str(&schema).expect("valid JSON");
        assert_eq!(value["anyOf"].as_array().map(Vec::len), Some(2));
        let name_at = schema
            .find(r#""name":{"const":"get_streak"}"#)
            .expect("name");
        let arguments_at = schema.find(r#""arguments""#).expect("arguments");
        assert!(name_at < arguments_at);
        assert!(schema.contains(r#""maxItems":4"#));
    }

    #[test]
    fn tool_choice_shapes_the_root() {
        let required = reply_schema(&tools(), ToolChoice::Required, 4)
            .expect("ok")
            .expect("some");
        assert!(!required.contains(r#""response""#));
        assert_eq!(
            reply_schema(&tools(), ToolChoice::None, 4).expect("ok"),
            None
        );
        assert_eq!(reply_schema(&[], ToolChoice::Auto, 4).expect("ok"), None);
        assert!(matches!(
            reply_schema(&[], ToolChoice::Required, 4),
            Err(LlmError::Grammar(_))
        ));
    }

    #[test]
    fn property_less_objects_get_no_free_form_arguments() {
        let schema: Value =
            serde_json::from_str(&arguments_schema(&json!({"type": "object"}))).expect("JSON");
        assert_eq!(
            schema,
            json!({"additionalProperties": false, "properties": {}, "type": "object"})
        );
    }

    #[test]
    fn grammar_names_only_registered_tools_and_their_enums() {
        let grammar = reply_grammar(&tools(), ToolChoice::Auto, 4)
            .expect("ok")
            .expect("some");
        assert!(grammar.contains("root ::="), "{grammar}");
        for literal in [
            r#"\"get_streak\""#,
            r#"\"log_tracker_entry\""#,
            r#"\"list_active_habits\""#,
            r#"\"done\""#,
            r#"\"blank\""#,
            r#"\"tool_calls\""#,
            r#"\"response\""#,
        ] {
            assert!(grammar.contains(literal), "missing {literal} in\n{grammar}");
        }
        let required = reply_grammar(&tools(), ToolChoice::Required, 4)
            .expect("ok")
            .expect("some");
        assert!(!required.contains(r#"\"response\""#), "{required}");
        assert!(
            grammar.lines().any(|line| line == NO_SPACE),
            "whitespace is left in:\n{grammar}"
        );
    }
}
