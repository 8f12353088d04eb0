//! The JSON format: a call is one JSON object, `{"name":"…","arguments":{…}}`; results go
//! back as a user turn `{"tool_results":[{"name":"…","result":{…}}]}`; tools are declared
//! as one-line signatures.
//!
//! ```text
//! <start_of_turn>user
//! {instructions}
//!
//! To call a tool, reply with one JSON object: {"name":"…","arguments":{…}}
//! Otherwise reply in words.
//! Tools:
//! - get_streak(habit_id: integer): 습관의 연속 기록을 봅니다.
//!
//! {example request}<end_of_turn>
//! <start_of_turn>model
//! {"name":"get_streak","arguments":{"habit_id":3}}<end_of_turn>
//! ```
//!
//! Signatures rather than JSON Schema: the constraint already enforces the schema, so the
//! prompt only has to tell the model what exists, and signatures cost a fraction of the
//! tokens.

use serde_json::{Value, json};

use super::prompt::{Format, Prompt, PromptFormat, State, signature};
use crate::llm::gemma::constrain::schema::ArgStyle;
use crate::session::ResultMessage;
use crate::tool::ToolDeclaration;

/// See the module doc.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Json;

impl Format for Json {
    fn kind(&self) -> PromptFormat {
        PromptFormat::Json
    }

    fn style(&self) -> &'static ArgStyle {
        &ArgStyle::JSON
    }

    fn call_frame(&self, tool: &str) -> (String, String) {
        (
            format!(
                r#"{{"name":{},"arguments":"#,
                Value::String(tool.to_owned())
            ),
            "}".to_owned(),
        )
    }

    fn declarations(&self, tools: &[ToolDeclaration], prompt: &mut Prompt) {
        if tools.is_empty() {
            return;
        }
        prompt.text(
            "To call a tool, reply with one JSON object: {\"name\":\"…\",\"arguments\":{…}}\n",
        );
        prompt.text("Otherwise reply in words.\nTools:");
        for tool in tools {
            prompt.text("\n").text(&signature(tool));
        }
    }

    fn results(&self, _: State, results: &[ResultMessage], prompt: &mut Prompt) {
        let results: Vec<Value> = results
            .iter()
            .map(|r| match &r.reply {
                Some(reply) => json!({ "name": r.name, "result": r.result, "summary": reply }),
                None => json!({ "name": r.name, "result": r.result }),
            })
            .collect();
        prompt.text(&json!({ "tool_results": results }).to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::config;
    use super::super::{TurnInput, input, preamble};
    use super::*;

    #[test]
    fn golden_preamble_and_turns() {
        let text = preamble(&Json, &config(), 2).as_string();
        let expected_start = concat!(
            "<start_of_turn>user\n",
            "너는 습관 코치야.\n\n",
            "To call a tool, reply with one JSON object: {\"name\":\"…\",\"arguments\":{…}}\n",
            "Otherwise reply in words.\nTools:\n",
            "- search_catalog(keyword?: string, limit?: integer 1..10): 카탈로그에서 습관 프로토콜을 찾습니다.\n",
            "  keyword: 검색어\n",
        );
        assert!(text.starts_with(expected_start), "{text}");
        let results = vec![ResultMessage {
            name: "get_streak".into(),
            result: json!({"status": "ok", "data": {"current_streak": 4}}),
            reply: None,
        }];
        let state = State {
            model_turn_open: true,
            after_call: true,
        };
        let prompt = input(&Json, state, &TurnInput::Results(results.clone()), "", true);
        let body = json!({"tool_results": [{"name": "get_streak", "result": results[0].result}]});
        assert_eq!(
            prompt.as_string(),
            format!(
                "<end_of_turn>\n<start_of_turn>user\n{body}<end_of_turn>\n<start_of_turn>model\n"
            )
        );
        // Recorded results close the exchange without opening a model turn.
        let prompt = input(&Json, state, &TurnInput::Results(results), "", false);
        assert!(prompt.as_string().ends_with("}]}<end_of_turn>\n"));
    }
}
