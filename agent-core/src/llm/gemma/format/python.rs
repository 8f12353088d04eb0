//! The Python format: a call is a Python call in brackets, `[search_catalog(keyword="운동")]`
//! (the style of several small function-calling models); results go back as a user turn,
//! one line per call: `search_catalog → {"status":"ok",…}`.
//!
//! ```text
//! <start_of_turn>user
//! {instructions}
//!
//! To call a tool, reply with [name(argument=value, …)]. Otherwise reply in words.
//! Tools:
//! - get_streak(habit_id: integer): 습관의 연속 기록을 봅니다.
//!
//! {example request}<end_of_turn>
//! <start_of_turn>model
//! [get_streak(habit_id=3)]<end_of_turn>
//! ```

use super::prompt::{Format, Prompt, PromptFormat, State, one_line, signature};
use crate::llm::gemma::constrain::schema::ArgStyle;
use crate::session::ResultMessage;
use crate::tool::ToolDeclaration;

/// Python keyword arguments: `(keyword="운동", limit=3)`.
pub(crate) const STYLE: ArgStyle = ArgStyle {
    open: "(",
    close: ")",
    key_before: "",
    key_after: "=",
    separator: ", ",
    string_open: "\"",
    string_close: "\"",
    string_forbid: &['"', '\\'],
    string_escapes: true,
    true_text: "True",
    false_text: "False",
};

/// See the module doc.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Python;

impl Format for Python {
    fn kind(&self) -> PromptFormat {
        PromptFormat::Python
    }

    fn style(&self) -> &'static ArgStyle {
        &STYLE
    }

    fn call_frame(&self, tool: &str) -> (String, String) {
        (format!("[{tool}"), "]".to_owned())
    }

    fn declarations(&self, tools: &[ToolDeclaration], prompt: &mut Prompt) {
        if tools.is_empty() {
            return;
        }
        prompt.text("To call a tool, reply with [name(argument=value, …)]. Otherwise reply in words.\nTools:");
        for tool in tools {
            prompt.text("\n").text(&signature(tool));
        }
    }

    fn results(&self, _: State, results: &[ResultMessage], prompt: &mut Prompt) {
        for (i, result) in results.iter().enumerate() {
            if i > 0 {
                prompt.text("\n");
            }
            prompt.text(&format!("{} → {}", result.name, result.result));
            if let Some(reply) = &result.reply {
                prompt.text(&format!("\n({})", one_line(reply)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::preamble;
    use super::super::tests::config;
    use super::*;

    #[test]
    fn examples_are_written_as_python_calls() {
        let text = preamble(&Python, &config(), 2).as_string();
        assert!(
            text.contains("<start_of_turn>model\n[search_catalog(keyword=\"운동\")]<end_of_turn>"),
            "{text}"
        );
        let mut prompt = Prompt::default();
        Python.results(
            State::default(),
            &[ResultMessage {
                name: "list_active_habits".into(),
                result: json!({"status": "ok"}),
                reply: None,
            }],
            &mut prompt,
        );
        assert_eq!(
            prompt.as_string(),
            "list_active_habits → {\"status\":\"ok\"}"
        );
        let mut prompt = Prompt::default();
        Python.results(
            State::default(),
            &[ResultMessage {
                name: "get_streak".into(),
                result: json!({"status": "ok", "data": {"current_streak": 2}}),
                reply: Some("지금 2일\n연속이에요.".into()),
            }],
            &mut prompt,
        );
        assert_eq!(
            prompt.as_string(),
            "get_streak → {\"status\":\"ok\",\"data\":{\"current_streak\":2}}\n(지금 2일 연속이에요.)",
            "the tool's sentence follows its result, on one line"
        );
    }
}
