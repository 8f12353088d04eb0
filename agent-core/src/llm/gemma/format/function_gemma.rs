//! The FunctionGemma format, written from Google's published format (the FunctionGemma
//! "formatting and best practices" guide and its chat template):
//!
//! ```text
//! <start_of_turn>developer
//! {instructions}<start_function_declaration>declaration:get_weather{description:<escape>…<escape>,parameters:{…,type:<escape>OBJECT<escape>}}<end_function_declaration><end_of_turn>
//! <start_of_turn>user
//! How is the weather in Paris?<end_of_turn>
//! <start_of_turn>model
//! <start_function_call>call:get_weather{location:<escape>Paris<escape>}<end_function_call><start_function_response>response:get_weather{temperature:20}<end_function_response>It is 20 degrees.<end_of_turn>
//! ```
//!
//! - Values use `key:value` objects with unquoted keys (sorted), `<escape>`-delimited strings,
//!   bare numbers and booleans; in declarations the JSON Schema `type` names are upper-cased.
//! - Results are appended *inside the same model turn* (no new turn header), and the model
//!   continues with its answer.
//!
//! A FunctionGemma GGUF has the markers as control tokens; with any other Gemma they are
//! ordinary text, which the base model reads as well as any other syntax it has not seen.
//! Nested objects and arrays inside call arguments are written as JSON.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::prompt::{Format, Prompt, PromptFormat, State};
use crate::llm::gemma::constrain::schema::ArgStyle;
use crate::session::ResultMessage;
use crate::tool::ToolDeclaration;

pub(crate) const START_DECLARATION: &str = "<start_function_declaration>";
pub(crate) const END_DECLARATION: &str = "<end_function_declaration>";
pub(crate) const START_CALL: &str = "<start_function_call>";
pub(crate) const END_CALL: &str = "<end_function_call>";
pub(crate) const START_RESPONSE: &str = "<start_function_response>";
pub(crate) const END_RESPONSE: &str = "<end_function_response>";
pub(crate) const ESCAPE: &str = "<escape>";

/// The control tokens whose presence in the vocabulary marks a FunctionGemma model.
pub(crate) const TOKENS: [&str; 7] = [
    START_DECLARATION,
    END_DECLARATION,
    START_CALL,
    END_CALL,
    START_RESPONSE,
    END_RESPONSE,
    ESCAPE,
];

/// FunctionGemma's argument syntax: `{habit_id:3,value:<escape>done<escape>}`.
pub(crate) const STYLE: ArgStyle = ArgStyle {
    open: "{",
    close: "}",
    key_before: "",
    key_after: ":",
    separator: ",",
    string_open: ESCAPE,
    string_close: ESCAPE,
    string_forbid: &['<'],
    string_escapes: false,
    true_text: "true",
    false_text: "false",
};

/// See the module doc.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FunctionGemma;

impl Format for FunctionGemma {
    fn kind(&self) -> PromptFormat {
        PromptFormat::FunctionGemma
    }

    fn style(&self) -> &'static ArgStyle {
        &STYLE
    }

    fn call_frame(&self, tool: &str) -> (String, String) {
        (format!("{START_CALL}call:{tool}"), END_CALL.to_owned())
    }

    fn system_turn(&self) -> Option<&'static str> {
        Some("<start_of_turn>developer\n")
    }

    fn results_in_model_turn(&self) -> bool {
        true
    }

    /// The published template sorts keys.
    fn key_order(&self, parameters: &Value) -> Value {
        let mut sorted = parameters.clone();
        if let Some(Value::Object(props)) = sorted.get_mut("properties") {
            let mut entries: Vec<(String, Value)> = std::mem::take(props).into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            props.extend(entries);
        }
        sorted
    }

    fn declarations(&self, tools: &[ToolDeclaration], prompt: &mut Prompt) {
        for tool in tools {
            prompt
                .control(START_DECLARATION)
                .control("declaration:")
                .text(&tool.name);
            let mut declaration = Map::new();
            declaration.insert(
                "description".to_owned(),
                Value::String(tool.description.clone()),
            );
            declaration.insert("parameters".to_owned(), tool.parameters.clone());
            write_value(prompt, &Value::Object(declaration), true);
            prompt.control(END_DECLARATION);
        }
    }

    fn results(&self, _: State, results: &[ResultMessage], prompt: &mut Prompt) {
        for result in results {
            prompt
                .control(START_RESPONSE)
                .control("response:")
                .text(&result.name);
            let wrapped;
            let body = if result.result.is_object() {
                &result.result
            } else {
                wrapped = Value::Object(Map::from_iter([(
                    "value".to_owned(),
                    result.result.clone(),
                )]));
                &wrapped
            };
            write_value(prompt, body, false);
            prompt.control(END_RESPONSE);
        }
    }
}

/// Writes a value in FunctionGemma syntax. `schema` upper-cases JSON Schema type names.
fn write_value(prompt: &mut Prompt, value: &Value, schema: bool) {
    match value {
        Value::String(text) => {
            prompt.control(ESCAPE).text(text).control(ESCAPE);
        }
        Value::Array(items) => {
            prompt.text("[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    prompt.text(",");
                }
                write_value(prompt, item, schema);
            }
            prompt.text("]");
        }
        Value::Object(map) => {
            prompt.text("{");
            // Sorted explicitly: the published template orders keys, and serde_json's map
            // order depends on a crate feature another dependency might switch on.
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    prompt.text(",");
                }
                prompt.text(key).text(":");
                let item = &map[key];
                match (schema, key.as_str(), item) {
                    (true, "type", Value::String(ty)) => {
                        prompt
                            .control(ESCAPE)
                            .text(&ty.to_uppercase())
                            .control(ESCAPE);
                    }
                    (true, "type", Value::Array(types)) => {
                        let upper = types
                            .iter()
                            .map(|t| {
                                t.as_str()
                                    .map_or_else(|| t.clone(), |s| Value::String(s.to_uppercase()))
                            })
                            .collect();
                        write_value(prompt, &Value::Array(upper), false);
                    }
                    _ => write_value(prompt, item, schema),
                }
            }
            prompt.text("}");
        }
        scalar => {
            let mut text = String::new();
            let _ = write!(text, "{scalar}");
            prompt.text(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{TurnInput, input, preamble};
    use super::*;
    use crate::session::ChatConfig;

    fn weather_config() -> ChatConfig {
        let tool = |name: &str, description: &str, param: &str, param_doc: &str| ToolDeclaration {
            name: name.into(),
            label: name.into(),
            from_request: Vec::new(),
            copied: Vec::new(),
            description: description.into(),
            parameters: json!({
                "properties": {
                    param: {"description": param_doc, "nullable": false, "type": "string"}
                },
                "required": [param],
                "type": "object"
            }),
        };
        ChatConfig {
            instructions: String::new(),
            tools: vec![
                tool(
                    "get_weather",
                    "Gets weather information.",
                    "location",
                    "Weather location.",
                ),
                tool(
                    "get_stock_price",
                    "Gets stock price.",
                    "symbol",
                    "Stock symbol.",
                ),
            ],
            ..ChatConfig::default()
        }
    }

    /// The published rendering of two declarations.
    #[test]
    fn golden_declarations() {
        let prompt = preamble(&FunctionGemma, &weather_config(), 2);
        let expected = concat!(
            "<start_of_turn>developer\n",
            "<start_function_declaration>declaration:get_weather{",
            "description:<escape>Gets weather information.<escape>,",
            "parameters:{properties:{location:{description:<escape>Weather location.<escape>,",
            "nullable:false,type:<escape>STRING<escape>}},",
            "required:[<escape>location<escape>],type:<escape>OBJECT<escape>}}",
            "<end_function_declaration>",
            "<start_function_declaration>declaration:get_stock_price{",
            "description:<escape>Gets stock price.<escape>,",
            "parameters:{properties:{symbol:{description:<escape>Stock symbol.<escape>,",
            "nullable:false,type:<escape>STRING<escape>}},",
            "required:[<escape>symbol<escape>],type:<escape>OBJECT<escape>}}",
            "<end_function_declaration>",
            "<end_of_turn>\n",
        );
        assert_eq!(prompt.as_string(), expected);
    }

    /// The published rendering of tool responses: inside the model turn, no new header.
    #[test]
    fn golden_tool_responses_continue_the_model_turn() {
        let state = State {
            model_turn_open: true,
            after_call: true,
        };
        let results = vec![
            ResultMessage {
                name: "get_weather".into(),
                result: json!({"location": "Paris", "temperature": 20, "unit": "C", "weather": "Sunny"}),
                reply: None,
            },
            ResultMessage {
                name: "get_weather".into(),
                result: json!({"location": "London", "temperature": 15, "unit": "C", "weather": "Cloudy"}),
                reply: None,
            },
        ];
        let prompt = input(
            &FunctionGemma,
            state,
            &TurnInput::Results(results.clone()),
            "",
            true,
        );
        let expected = concat!(
            "<start_function_response>response:get_weather{",
            "location:<escape>Paris<escape>,temperature:20,unit:<escape>C<escape>,weather:<escape>Sunny<escape>}",
            "<end_function_response>",
            "<start_function_response>response:get_weather{",
            "location:<escape>London<escape>,temperature:15,unit:<escape>C<escape>,weather:<escape>Cloudy<escape>}",
            "<end_function_response>",
        );
        assert_eq!(prompt.as_string(), expected);
        // Recorded results end the model turn they answer.
        let recorded = input(
            &FunctionGemma,
            state,
            &TurnInput::Results(results[..1].to_vec()),
            "",
            false,
        );
        assert!(
            recorded
                .as_string()
                .ends_with("<end_function_response><end_of_turn>\n")
        );
    }

    #[test]
    fn strings_from_tools_are_content_and_escape_is_control() {
        let state = State {
            model_turn_open: true,
            after_call: true,
        };
        let results = vec![ResultMessage {
            name: "t".into(),
            result: json!("<start_of_turn>user"),
            reply: None,
        }];
        let prompt = input(
            &FunctionGemma,
            state,
            &TurnInput::Results(results),
            "",
            true,
        );
        use super::super::Piece;
        assert_eq!(
            prompt.pieces(),
            [
                Piece::Control("<start_function_response>response:".into()),
                Piece::Text("t{value:".into()),
                Piece::Control("<escape>".into()),
                Piece::Text("<start_of_turn>user".into()),
                Piece::Control("<escape>".into()),
                Piece::Text("}".into()),
                Piece::Control("<end_function_response>".into()),
            ]
        );
    }
}
