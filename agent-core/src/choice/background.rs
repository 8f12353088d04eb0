//! The background: requests that need no tool in almost any app — greetings, thanks, small
//! talk, general questions, advice, asks for actions an app often cannot do (delete, edit,
//! undo, export, reminders, translation), and withdrawals ("아니 그냥 물어본 거야") — in
//! Korean and English, each with a short answer that uses no tool. The tool-choice stage
//! learns from them beside an app's own examples, so an app that declared few requests
//! needing no tool (or none) still answers these in words instead of calling the nearest
//! tool.
//!
//! The set shipped with agent-core is `background.json` beside this file ([`Background::builtin`],
//! the default). An app can replace it ([`Background::from_json`], the same format) or go
//! without ([`Background::none`]).
//!
//! A background request never competes with an app's own tools: one that asks for an action
//! (its `actions`: the words the action is spelt with, "삭제", "delete", …) is left out when
//! some tool's label, name, description or parameter docs use one of those words — an app
//! with a delete tool learns nothing against deleting — and any other is left out when it is
//! much like one of the app's own requests for a tool (a weather app keeps "오늘 날씨 어때?").

use serde::Deserialize;
use serde_json::Value;

use super::router::Router;
use crate::registry::Registry;
use crate::tool::Example;

/// The least similarity (router cosine, 0 to 1) to one of an app's requests for a tool at
/// which a background request is left out.
const SIMILAR_TO_A_TOOL: f32 = 0.5;

/// Requests that need no tool in almost any app; see the module doc.
#[derive(Debug, Clone, PartialEq)]
pub struct Background {
    entries: Vec<Entry>,
}

/// One background request.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    request: String,
    answer: String,
    /// The words the action it asks for is spelt with (empty: it asks for none).
    #[serde(default)]
    actions: Vec<String>,
}

/// The file: sections of entries, each with an optional note.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default, rename = "about")]
    _about: Option<String>,
    #[serde(default)]
    examples: Vec<Entry>,
    #[serde(default)]
    sections: Vec<Section>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    #[serde(default, rename = "about")]
    _about: Option<String>,
    examples: Vec<Entry>,
}

impl Background {
    /// The set shipped with agent-core (Korean and English; see `background.json`).
    pub fn builtin() -> Self {
        // Parsed by a unit test, so it cannot fail here.
        Self::from_json(include_str!("background.json")).unwrap_or_else(|_| Self::none())
    }

    /// No background: the app's own examples alone.
    pub fn none() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// A background read from JSON in the shipped file's format: an object with `"examples"`
    /// and/or `"sections": [{"about": "…", "examples": [...]}]`, each example `{"request":
    /// "…", "answer": "…", "actions": ["…"]}` (`actions` optional).
    ///
    /// # Errors
    /// The JSON's own error, with its line and column, when it is not in that format.
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        let file: File = serde_json::from_str(json)?;
        let mut entries = file.examples;
        entries.extend(file.sections.into_iter().flat_map(|s| s.examples));
        Ok(Self { entries })
    }

    /// How many requests it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The requests that do not compete with `registry`'s tools (see the module doc), as
    /// examples that need no tool, each with the words of the action it asks for (none for
    /// small talk); `router` is trained on the app's own texts.
    pub(super) fn kept_for(
        &self,
        registry: &Registry,
        router: &Router,
    ) -> Vec<(Example, Vec<String>)> {
        let vocabulary = tool_words(registry);
        let requests: Vec<&str> = registry
            .examples()
            .filter(|e| !e.calls().is_empty())
            .map(Example::request)
            .collect();
        self.entries
            .iter()
            .filter(|entry| {
                if entry.actions.is_empty() {
                    let query = router.query(&entry.request);
                    !requests
                        .iter()
                        .any(|r| router.similarity_to(&query, r) >= SIMILAR_TO_A_TOOL)
                } else {
                    !entry
                        .actions
                        .iter()
                        .any(|word| vocabulary.contains(&word.to_lowercase()))
                }
            })
            .map(|entry| {
                let example = Example::new(&entry.request).answer(&entry.answer);
                let actions = entry.actions.iter().map(|a| a.to_lowercase()).collect();
                (example, actions)
            })
            .collect()
    }
}

impl Default for Background {
    fn default() -> Self {
        Self::builtin()
    }
}

/// What `registry`'s tools say they do, lower-cased: every label, name (its `_` as spaces),
/// description and parameter description.
fn tool_words(registry: &Registry) -> String {
    let mut text = String::new();
    for tool in registry.tools() {
        for part in [
            tool.label(),
            &tool.name().replace('_', " "),
            tool.description(),
        ] {
            text.push_str(&part.to_lowercase());
            text.push('\n');
        }
        if let Some(properties) = tool
            .parameters()
            .get("properties")
            .and_then(Value::as_object)
        {
            for property in properties.values() {
                if let Some(doc) = property.get("description").and_then(Value::as_str) {
                    text.push_str(&doc.to_lowercase());
                    text.push('\n');
                }
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::{ToolDefinition, ToolResult, ToolSchema};

    fn registry(tools: &[(&str, &str, &str)]) -> Registry {
        tools
            .iter()
            .fold(
                Registry::builder(),
                |builder, (name, label, description)| {
                    builder.definition(
                        ToolDefinition::builder(name.to_string(), description.to_string())
                            .label(label.to_string())
                            .schema(ToolSchema::from_validation(
                                serde_json::json!({"type": "object", "properties": {}}),
                            ))
                            .example("오늘 날씨 어때?", serde_json::json!({}))
                            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
                            .build()
                            .expect("tool"),
                    )
                },
            )
            .build()
            .expect("registry")
    }

    #[test]
    fn the_shipped_set_parses_and_speaks_both_languages() {
        let builtin = Background::from_json(include_str!("background.json")).expect("parses");
        assert!(builtin.len() >= 100, "{}", builtin.len());
        assert!(builtin.entries.iter().any(|e| e.request.is_ascii()));
        assert!(builtin.entries.iter().any(|e| !e.request.is_ascii()));
        assert!(Background::none().is_empty());
    }

    #[test]
    fn requests_for_an_action_a_tool_does_are_left_out() {
        let background = Background::from_json(
            r#"{"examples": [
                {"request": "이거 삭제해줘", "answer": "못 해요.", "actions": ["삭제", "delete"]},
                {"request": "번역해줘", "answer": "못 해요.", "actions": ["번역", "translate"]},
                {"request": "고마워", "answer": "천만에요."},
                {"request": "오늘 날씨 어때?", "answer": "모르겠어요."}
            ]}"#,
        )
        .expect("background");
        let app = registry(&[("delete_note", "메모 삭제", "메모를 지웁니다.")]);
        let router = Router::train(app.examples().map(|e| (e.request(), vec![], 1.0)));
        let kept: Vec<String> = background
            .kept_for(&app, &router)
            .iter()
            .map(|(e, _)| e.request().to_owned())
            .collect();
        assert_eq!(
            kept,
            ["번역해줘", "고마워"],
            "the app deletes; a request like one of its own is left to it"
        );
    }
}
