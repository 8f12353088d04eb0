//! What the tool-choice stage learns from a registry: every declared example's request with
//! its plan (and each tool's label, weaker), and the background's requests that need no tool
//! (those that do not compete with the app's tools), which the router is trained on and the
//! model's reading classifier learns from.

use super::background::Background;
use super::router::{Plan, Router};
use super::tuning::{BACKGROUND_WEIGHT, LABEL_WEIGHT};
use crate::registry::Registry;
use crate::tool::Example;

/// A registry's training texts, and the router trained on them.
#[derive(Debug, Clone)]
pub(super) struct Training {
    pub(super) router: Router,
    /// Per training text of the router: the argument names of each call of its example
    /// (`None` for texts that are not examples, such as labels).
    pub(super) example_arguments: Vec<Option<Vec<Vec<String>>>>,
    /// Per training text: the example it is the request of (`None` as above).
    pub(super) examples: Vec<Option<Example>>,
    /// The declared examples' and the background's requests with their plans: what the
    /// reading classifier learns from.
    pub(super) reading_texts: Vec<(String, Plan)>,
    /// Per reading text: how much it counts in the classifier's fit.
    pub(super) reading_weights: Vec<f32>,
    /// The words of the actions the background asks for that no tool of the app does
    /// ("삭제" in an app that deletes nothing).
    pub(super) unsupported: Vec<String>,
    /// How many of the app's example requests each script writes (see [`Script`]).
    scripts: [usize; 2],
}

impl Training {
    /// The texts of `registry`'s examples and tools and of `background`, and the router
    /// trained on them.
    pub(super) fn of(registry: &Registry, background: &Background) -> Self {
        let mut texts: Vec<(&str, Plan, f32)> = Vec::new();
        let mut example_arguments = Vec::new();
        let mut examples = Vec::new();
        let mut reading_texts = Vec::new();
        for example in registry.examples() {
            examples.push(Some(example.clone()));
            let plan: Plan = example.plan().into_iter().map(str::to_owned).collect();
            reading_texts.push((example.request().to_owned(), plan.clone()));
            texts.push((example.request(), plan, 1.0));
            example_arguments.push(Some(
                example
                    .calls()
                    .iter()
                    .map(|call| {
                        call.args
                            .as_object()
                            .map(|args| args.keys().cloned().collect())
                            .unwrap_or_default()
                    })
                    .collect(),
            ));
        }
        for tool in registry.tools() {
            texts.push((tool.label(), vec![tool.name().to_owned()], LABEL_WEIGHT));
            example_arguments.push(None);
            examples.push(None);
        }
        let kept = if background.is_empty() {
            Vec::new()
        } else {
            background.kept_for(registry, &Router::train(texts.iter().cloned()))
        };
        let mut reading_weights = vec![1.0; reading_texts.len()];
        // The background's small talk and general questions weigh, together, as much as a
        // tool's examples on average, however many they are: a hundred of them must not
        // outweigh three of a tool.
        let tool_plans: std::collections::HashSet<&Plan> = reading_texts
            .iter()
            .map(|(_, plan)| plan)
            .filter(|plan| !plan.is_empty())
            .collect();
        let with_tools = reading_texts.iter().filter(|(_, p)| !p.is_empty()).count();
        let per_plan = with_tools as f32 / tool_plans.len().max(1) as f32;
        let generic = kept
            .iter()
            .filter(|(_, actions)| actions.is_empty())
            .count();
        let mut unsupported: Vec<String> = kept
            .iter()
            .flat_map(|(_, actions)| actions.iter().cloned())
            .collect();
        unsupported.sort_unstable();
        unsupported.dedup();
        let background_weight = (per_plan.max(1.0) / generic.max(1) as f32).min(1.0);
        let weight_of = |actions: &Vec<String>| {
            // A request for an action no tool does counts in full: it is what a nearest tool
            // would otherwise be called for, and it never competes with one of the app's.
            if actions.is_empty() {
                background_weight
            } else {
                1.0
            }
        };
        // A language the app's own examples seldom use must not be learnt as a sign of "no
        // tool": in a script that fewer than half of the app's requests use, the background
        // weighs in all no more than one of the app's plans does in it on average (an app
        // declared in Korean keeps a little of the English background, and its English
        // requests are still read for their tools).
        let damped = [Script::Hangul, Script::Latin].map(|script| {
            let app = registry
                .examples()
                .filter(|e| Script::of(e.request()) == script)
                .count() as f32;
            let all = registry.examples().count() as f32;
            let total: f32 = kept
                .iter()
                .filter(|(e, _)| Script::of(e.request()) == script)
                .map(|(_, actions)| weight_of(actions))
                .sum();
            let per_plan = app / tool_plans.len().max(1) as f32;
            // An app with no examples at all has no language to keep the background from.
            if all == 0.0 || app / all >= 0.5 || total <= per_plan {
                1.0
            } else {
                per_plan / total
            }
        });
        for (example, actions) in &kept {
            reading_weights
                .push(weight_of(actions) * damped[Script::of(example.request()) as usize]);
            reading_texts.push((example.request().to_owned(), Vec::new()));
            if BACKGROUND_WEIGHT > 0.0 {
                texts.push((example.request(), Vec::new(), BACKGROUND_WEIGHT));
                example_arguments.push(Some(Vec::new()));
                examples.push(Some(example.clone()));
            }
        }
        let scripts = [Script::Hangul, Script::Latin].map(|script| {
            registry
                .examples()
                .filter(|e| Script::of(e.request()) == script)
                .count()
        });
        Self {
            router: Router::train(texts),
            example_arguments,
            examples,
            reading_texts,
            reading_weights,
            unsupported,
            scripts,
        }
    }

    /// Whether `text` is written in a script that fewer than a fifth of the app's example
    /// requests use (an English request to an app declared in Korean). The model's reading
    /// of it then stands near the few texts of its script the classifier learnt — mostly the
    /// background's — rather than near the tools it asks for, so it is no sure evidence.
    pub(super) fn seldom_script(&self, text: &str) -> bool {
        let all: usize = self.scripts.iter().sum();
        all > 0 && self.scripts[Script::of(text) as usize] * SELDOM_SCRIPT < all
    }
}

/// A script is seldom used by an app when fewer than one in this many of its example
/// requests are written in it.
const SELDOM_SCRIPT: usize = 5;

/// The script a request is mostly written in: Hangul, or Latin letters (and everything else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Hangul = 0,
    Latin = 1,
}

impl Script {
    fn of(text: &str) -> Self {
        let hangul = text
            .chars()
            .filter(|c| ('\u{AC00}'..='\u{D7A3}').contains(c))
            .count();
        let latin = text.chars().filter(char::is_ascii_alphabetic).count();
        if hangul >= latin && hangul > 0 {
            Self::Hangul
        } else {
            Self::Latin
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::{ToolDefinition, ToolResult, ToolSchema};

    fn registry(examples: &[&str]) -> Registry {
        let tool = examples
            .iter()
            .fold(
                ToolDefinition::builder("log_entry", "d"),
                |builder, request| builder.example(*request, serde_json::json!({})),
            )
            .schema(ToolSchema::from_validation(
                serde_json::json!({"type": "object", "properties": {}}),
            ))
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        Registry::builder()
            .definition(tool)
            .build()
            .expect("registry")
    }

    #[test]
    fn a_script_fewer_than_a_fifth_of_the_examples_use_is_seldom() {
        let korean = registry(&["오늘 걷기 했어", "어제 책 읽었어", "물 마셨어 기록해줘"]);
        let training = Training::of(&korean, &Background::default());
        assert!(training.seldom_script("log my walk for today"));
        assert!(!training.seldom_script("오늘 걷기 기록"));
        let mixed = registry(&["오늘 걷기 했어", "어제 책 읽었어", "log my walk"]);
        let training = Training::of(&mixed, &Background::default());
        assert!(!training.seldom_script("log my walk for today"));
        let none = registry(&[]);
        let training = Training::of(&none, &Background::default());
        assert!(
            !training.seldom_script("log my walk for today"),
            "an app without examples has no script of its own"
        );
    }
}
