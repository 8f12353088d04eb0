//! The hidden test mode: `--script FILE` plays model turns from a JSON file through agent-core's
//! `ScriptedSession` instead of loading a model, and `--script-log FILE` writes down what that
//! session received, so tests can drive the real binary end to end and check what the model
//! was told (e.g. `"cancelled"`).
//!
//! Script format — a list of model turns, each a list of events (or a string for a turn that
//! is one text answer):
//!
//! ```json
//! [
//!   [{"call": {"name": "add_habit", "args": {"protocol_id": "build.morning-walk"}}}],
//!   "추가했어요.",
//!   [{"text": "둘로 나눈 "}, {"text": "답변"}]
//! ]
//! ```

use std::path::Path;

use agent_core::ChatEvent;
use agent_core::llm::scripted::{self, Received};
use serde_json::{Value, json};

use crate::error::DemoError;

/// Reads and parses a script file.
///
/// # Errors
/// When the file cannot be read or does not follow the format.
pub(crate) fn load(path: &Path) -> Result<Vec<Vec<ChatEvent>>, DemoError> {
    let error = |reason: String| DemoError::Script {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    parse(&text).map_err(error)
}

/// Parses the script format described in the module docs.
pub(crate) fn parse(text: &str) -> Result<Vec<Vec<ChatEvent>>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let turns = value
        .as_array()
        .ok_or("the script must be a JSON list of turns")?;
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| parse_turn(turn).map_err(|e| format!("turn {}: {e}", i + 1)))
        .collect()
}

fn parse_turn(turn: &Value) -> Result<Vec<ChatEvent>, String> {
    match turn {
        Value::String(answer) => Ok(scripted::text(answer.clone())),
        Value::Array(events) => events.iter().map(parse_event).collect(),
        _ => Err("a turn is a string or a list of events".to_owned()),
    }
}

fn parse_event(event: &Value) -> Result<ChatEvent, String> {
    if let Some(text) = event.get("text").and_then(Value::as_str) {
        return Ok(ChatEvent::TextDelta(text.to_owned()));
    }
    if let Some(call) = event.get("call") {
        let name = call
            .get("name")
            .and_then(Value::as_str)
            .ok_or("a call needs a string \"name\"")?;
        let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
        return Ok(scripted::call(name, args));
    }
    Err(format!(
        "an event is {{\"text\": …}} or {{\"call\": {{\"name\": …, \"args\": …}}}}, not {event}"
    ))
}

/// Writes what the scripted session received as JSON:
/// `{"user_inputs": […], "tool_results": [[{"name", "result"}…]…], "clears": n}`.
///
/// # Errors
/// When the file cannot be written.
pub(crate) fn write_log(path: &Path, received: &Received) -> Result<(), DemoError> {
    let batches: Vec<Value> = received
        .tool_results
        .iter()
        .map(|batch| {
            batch
                .iter()
                .map(|r| json!({"name": r.name, "result": r.result}))
                .collect()
        })
        .collect();
    let log = json!({
        "user_inputs": received.user_inputs,
        "tool_results": batches,
        "clears": received.clears,
    });
    std::fs::write(path, log.to_string()).map_err(|e| DemoError::Script {
        path: path.display().to_string(),
        reason: format!("cannot write the log: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_strings_texts_and_calls() {
        let turns = parse(
            r#"["안녕", [{"call": {"name": "get_streak", "args": {"habit_id": 1}}}, {"text": "끝"}], []]"#,
        )
        .expect("valid");
        assert_eq!(turns.len(), 3);
        assert_eq!(turns[0], scripted::text("안녕"));
        assert_eq!(
            turns[1],
            vec![
                scripted::call("get_streak", json!({"habit_id": 1})),
                ChatEvent::TextDelta("끝".into())
            ]
        );
        assert!(turns[2].is_empty());
    }

    #[test]
    fn rejects_malformed_scripts_with_the_turn_number() {
        assert!(parse("{}").is_err());
        let error = parse(r#"["ok", [{"call": {}}]]"#).expect_err("no name");
        assert!(error.starts_with("turn 2:"), "{error}");
        assert!(parse("[1]").is_err());
    }
}
