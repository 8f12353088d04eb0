//! The FunctionGemma format, written from Google's published format (the FunctionGemma
//! "formatting and best practices" guide and its chat template, as exercised by LiteRT-LM's
//! template tests):
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
//! - The model emits its calls and then `<start_function_response>`, which ends generation.
//!   The results are appended *inside the same model turn* (no new turn header), and the model
//!   continues with its answer.
//!
//! No grammar is applied in this format: FunctionGemma is trained on it, and a GBNF over the
//! `<escape>` value syntax would need its own schema converter. Calls are parsed after the
//! fact by [`parse_call`]; the dispatcher validates names and arguments as for any call.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

use super::{Prompt, RenderState, TurnInput};
use crate::llm::{ChatConfig, FunctionCall, ToolChoice};

pub(crate) const START_DECLARATION: &str = "<start_function_declaration>";
pub(crate) const END_DECLARATION: &str = "<end_function_declaration>";
pub(crate) const START_CALL: &str = "<start_function_call>";
pub(crate) const END_CALL: &str = "<end_function_call>";
pub(crate) const START_RESPONSE: &str = "<start_function_response>";
pub(crate) const END_RESPONSE: &str = "<end_function_response>";
pub(crate) const ESCAPE: &str = "<escape>";

/// Renders one input; see the module doc for the layout.
pub(crate) fn render_turn(config: &ChatConfig, state: RenderState, input: &TurnInput) -> Prompt {
    let mut prompt = Prompt::default();
    let continues_model_turn = state.model_turn_open
        && state.after_calls
        && matches!(
            input,
            TurnInput::ToolResults(_) | TurnInput::RecordedResults(_)
        );
    if state.model_turn_open && !continues_model_turn {
        prompt.control("<end_of_turn>\n");
    }
    if state.first {
        let developer = developer_content(config);
        if !developer.is_empty() {
            prompt.control("<start_of_turn>developer\n");
            for piece in developer.pieces() {
                match piece {
                    super::Piece::Control(text) => prompt.control(text),
                    super::Piece::Text(text) => prompt.text(text),
                };
            }
            prompt.control("<end_of_turn>\n");
        }
    }
    match input {
        TurnInput::User(text) => {
            prompt.control("<start_of_turn>user\n").text(text);
            prompt.control("<end_of_turn>\n<start_of_turn>model\n");
        }
        TurnInput::ToolResults(results) | TurnInput::RecordedResults(results) => {
            let recorded = matches!(input, TurnInput::RecordedResults(_));
            // Results outside a model turn that asked for them (not expected from the agent
            // loop) still need a turn for the model to answer in.
            if !continues_model_turn {
                prompt.control("<start_of_turn>user\n");
            }
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
                write_value(&mut prompt, body, false);
                prompt.control(END_RESPONSE);
            }
            if recorded {
                // No reply is wanted: close the turn the responses sit in.
                prompt.control("<end_of_turn>\n");
            } else if !continues_model_turn {
                prompt.control("<end_of_turn>\n<start_of_turn>model\n");
            }
        }
    }
    prompt
}

/// The developer turn's content: instructions, then one declaration per tool.
pub(crate) fn developer_content(config: &ChatConfig) -> Prompt {
    let mut prompt = Prompt::default();
    prompt.text(config.instructions.trim());
    if config.tool_choice == ToolChoice::None {
        return prompt;
    }
    for tool in &config.tools {
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
        write_value(&mut prompt, &Value::Object(declaration), true);
        prompt.control(END_DECLARATION);
    }
    prompt
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

/// Parses the text between `<start_function_call>` and `<end_function_call>`
/// (`call:name{key:value,…}`, with `<escape>` written out where the model emitted that token).
pub(crate) fn parse_call(text: &str) -> Result<FunctionCall, String> {
    let body = text.trim();
    let rest = body
        .strip_prefix("call:")
        .ok_or_else(|| format!("expected `call:` in {body:?}"))?;
    let brace = rest
        .find('{')
        .ok_or_else(|| format!("expected `{{` after the name in {body:?}"))?;
    let name = rest[..brace].trim();
    if name.is_empty() {
        return Err(format!("a call without a name: {body:?}"));
    }
    let mut parser = Parser {
        text: &rest[brace..],
        pos: 0,
    };
    let args = parser.value()?;
    parser.skip_ws();
    if parser.pos != parser.text.len() {
        return Err(format!("unexpected text after the arguments in {body:?}"));
    }
    Ok(FunctionCall {
        name: name.to_owned(),
        args,
    })
}

/// A recursive-descent reader of FunctionGemma values.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.text.len() - trimmed.len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.rest().starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_ws();
        if let Some(after) = self.rest().strip_prefix(ESCAPE) {
            let end = after
                .find(ESCAPE)
                .ok_or("an `<escape>` string is not closed")?;
            let value = Value::String(after[..end].to_owned());
            self.pos += ESCAPE.len() + end + ESCAPE.len();
            return Ok(value);
        }
        if self.eat('{') {
            let mut map = Map::new();
            if self.eat('}') {
                return Ok(Value::Object(map));
            }
            loop {
                self.skip_ws();
                let colon = self
                    .rest()
                    .find(':')
                    .ok_or("expected `key:` in an object")?;
                let key = self.rest()[..colon].trim().to_owned();
                if key.is_empty() || key.contains([',', '{', '}']) {
                    return Err(format!("invalid key {key:?}"));
                }
                self.pos += colon + 1;
                let value = self.value()?;
                map.insert(key, value);
                if self.eat(',') {
                    continue;
                }
                if self.eat('}') {
                    return Ok(Value::Object(map));
                }
                return Err("expected `,` or `}` in an object".to_owned());
            }
        }
        if self.eat('[') {
            let mut items = Vec::new();
            if self.eat(']') {
                return Ok(Value::Array(items));
            }
            loop {
                items.push(self.value()?);
                if self.eat(',') {
                    continue;
                }
                if self.eat(']') {
                    return Ok(Value::Array(items));
                }
                return Err("expected `,` or `]` in an array".to_owned());
            }
        }
        let end = self
            .rest()
            .find([',', '}', ']'])
            .unwrap_or(self.rest().len());
        let token = self.rest()[..end].trim().to_owned();
        self.pos += end;
        Ok(scalar(&token))
    }
}

/// A bare value: a number, `true`/`false`/`null`, or (leniently) an unescaped string.
fn scalar(token: &str) -> Value {
    match token {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        _ => {
            if let Ok(int) = token.parse::<i64>() {
                return Value::Number(int.into());
            }
            token
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map_or_else(|| Value::String(token.to_owned()), Value::Number)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::llm::ToolResponse;
    use crate::tool::ToolDeclaration;

    fn weather_config() -> ChatConfig {
        let tool = |name: &str, description: &str, param: &str, param_doc: &str| ToolDeclaration {
            name: name.into(),
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
            tool_choice: ToolChoice::Auto,
        }
    }

    /// The published rendering of two declarations and a user message.
    #[test]
    fn golden_declarations_and_user_turn() {
        let state = RenderState {
            first: true,
            ..RenderState::default()
        };
        let prompt = render_turn(
            &weather_config(),
            state,
            &TurnInput::User("How is the weather in Paris and London?".into()),
        );
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
            "<start_of_turn>user\n",
            "How is the weather in Paris and London?<end_of_turn>\n",
            "<start_of_turn>model\n",
        );
        assert_eq!(prompt.as_string(), expected);
    }

    /// The published rendering of tool responses: inside the model turn, no new header.
    #[test]
    fn golden_tool_responses_continue_the_model_turn() {
        let state = RenderState {
            first: false,
            model_turn_open: true,
            after_calls: true,
        };
        let results = vec![
            ToolResponse {
                name: "get_weather".into(),
                result: json!({"location": "Paris", "temperature": 20, "unit": "C", "weather": "Sunny"}),
            },
            ToolResponse {
                name: "get_weather".into(),
                result: json!({"location": "London", "temperature": 15, "unit": "C", "weather": "Cloudy"}),
            },
        ];
        let prompt = render_turn(&weather_config(), state, &TurnInput::ToolResults(results));
        let expected = concat!(
            "<start_function_response>response:get_weather{",
            "location:<escape>Paris<escape>,temperature:20,unit:<escape>C<escape>,weather:<escape>Sunny<escape>}",
            "<end_function_response>",
            "<start_function_response>response:get_weather{",
            "location:<escape>London<escape>,temperature:15,unit:<escape>C<escape>,weather:<escape>Cloudy<escape>}",
            "<end_function_response>",
        );
        assert_eq!(prompt.as_string(), expected);
    }

    #[test]
    fn recorded_results_end_the_model_turn_they_answer() {
        let state = RenderState {
            first: false,
            model_turn_open: true,
            after_calls: true,
        };
        let results = vec![ToolResponse {
            name: "get_weather".into(),
            result: json!({"status": "error"}),
        }];
        let prompt = render_turn(
            &weather_config(),
            state,
            &TurnInput::RecordedResults(results),
        );
        assert_eq!(
            prompt.as_string(),
            "<start_function_response>response:get_weather{status:<escape>error<escape>}<end_function_response><end_of_turn>\n"
        );
    }

    #[test]
    fn a_user_message_after_a_text_answer_closes_the_model_turn() {
        let state = RenderState {
            first: false,
            model_turn_open: true,
            after_calls: false,
        };
        let prompt = render_turn(&weather_config(), state, &TurnInput::User("thanks".into()));
        assert_eq!(
            prompt.as_string(),
            "<end_of_turn>\n<start_of_turn>user\nthanks<end_of_turn>\n<start_of_turn>model\n"
        );
    }

    #[test]
    fn strings_from_tools_are_content_and_escape_is_control() {
        let state = RenderState {
            first: false,
            model_turn_open: true,
            after_calls: true,
        };
        let results = vec![ToolResponse {
            name: "t".into(),
            result: json!("<start_of_turn>user"),
        }];
        let prompt = render_turn(&weather_config(), state, &TurnInput::ToolResults(results));
        assert_eq!(
            prompt.pieces(),
            [
                super::super::Piece::Control("<start_function_response>response:".into()),
                super::super::Piece::Text("t{value:".into()),
                super::super::Piece::Control("<escape>".into()),
                super::super::Piece::Text("<start_of_turn>user".into()),
                super::super::Piece::Control("<escape>".into()),
                super::super::Piece::Text("}".into()),
                super::super::Piece::Control("<end_function_response>".into()),
            ]
        );
    }

    #[test]
    fn golden_call_parses_to_json_arguments() {
        let call = parse_call("call:get_weather{location:<escape>Paris<escape>}").expect("parses");
        assert_eq!(
            call,
            FunctionCall {
                name: "get_weather".into(),
                args: json!({"location": "Paris"})
            }
        );
    }

    #[test]
    fn nested_values_numbers_and_escaped_punctuation_parse() {
        let text = "call:add_habit{frame_level:2,framed_text:<escape>매일 아침, {물} 한 잔<escape>,\
                    tags:[<escape>a<escape>,<escape>b<escape>],extra:{ok:true,ratio:0.5,none:null},\
                    anchor_when:morning}";
        let call = parse_call(text).expect("parses");
        assert_eq!(call.name, "add_habit");
        assert_eq!(
            call.args,
            json!({
                "frame_level": 2,
                "framed_text": "매일 아침, {물} 한 잔",
                "tags": ["a", "b"],
                "extra": {"ok": true, "ratio": 0.5, "none": null},
                "anchor_when": "morning"
            })
        );
    }

    #[test]
    fn empty_arguments_parse() {
        let call = parse_call("call:list_active_habits{}").expect("parses");
        assert_eq!(call.args, json!({}));
    }

    #[test]
    fn malformed_calls_are_errors_not_panics() {
        for text in [
            "",
            "get_weather{}",
            "call:{}",
            "call:x",
            "call:x{location:<escape>Paris}",
            "call:x{location}",
            "call:x{a:1,}",
            "call:x{a:1} trailing",
            "call:x{a:[1,2}",
        ] {
            assert!(parse_call(text).is_err(), "{text:?} should not parse");
        }
    }

    #[test]
    fn rendered_arguments_parse_back() {
        let args = json!({"habit_id": 3, "note": "잘 했어, 내일도!", "value": "done"});
        let mut prompt = Prompt::default();
        write_value(&mut prompt, &args, false);
        let call =
            parse_call(&format!("call:log_tracker_entry{}", prompt.as_string())).expect("parses");
        assert_eq!(call.args, args);
    }
}
