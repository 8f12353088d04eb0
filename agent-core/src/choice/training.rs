//! What the tool-choice stage learns from a registry: every declared example's request with
//! its plan (and each tool's label, weaker), which the router is trained on and the model's
//! reading classifier learns from.

use super::router::{Plan, Router};
use super::tuning::LABEL_WEIGHT;
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
    /// The declared examples' requests with their plans: what the reading classifier
    /// learns from.
    pub(super) reading_texts: Vec<(String, Plan)>,
}

impl Training {
    /// The texts of `registry`'s examples and tools, and the router trained on them.
    pub(super) fn of(registry: &Registry) -> Self {
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
        Self {
            router: Router::train(texts),
            example_arguments,
            examples,
            reading_texts,
        }
    }
}
