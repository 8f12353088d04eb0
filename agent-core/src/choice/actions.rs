//! Whether a request asks for the action of a tool: each tool's *cues* — the stems of the
//! words its label, name and own examples use that no other tool's do ("삭제" for "할 일
//! 삭제", "추가" for "습관 추가", "delete") — found in the request, or negated there ("지우지는
//! 말고", "don't delete"). A destructive call needs more than the nearest tool: the request
//! must ask for that action, or the evidence for the tool must be strong.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::registry::Registry;
use crate::request::{self, Request, Said};

/// The cues of each tool of a registry; see the module doc.
#[derive(Debug, Clone, Default)]
pub(super) struct Actions {
    cues: HashMap<String, Vec<String>>,
    /// The cues of each tool that its label and name give and that are words of action (in a
    /// group of verbs), and the words those groups join (see [`Actions::of`]): neither the
    /// nouns of its label ("마감" of "마감일 변경") nor the words its examples happen to use.
    named: HashMap<String, Vec<String>>,
}

impl Actions {
    /// The cues of `registry`'s tools: the stems of each one's label and name that no other
    /// tool's label and name have ("추가" of "습관 추가", "delete" of `delete_task`), and the
    /// stems its one-call examples use often that no other tool's label, name or examples
    /// have — leaving out the words of the values the tools take now (a habit's or an
    /// order's name says nothing of the action). Then each group of `verbs` (words that
    /// ask for one action, see [`Background::verbs`](super::Background::verbs)) of which
    /// exactly one tool's label or name has a word adds its other words to that tool's cues — except those
    /// another tool's label, name or examples use, or a value's words: "넣어줘" asks for the
    /// tool labelled "할 일 추가" though none of its examples says it.
    pub(super) fn of(registry: &Registry, verbs: &[Vec<String>]) -> Self {
        let values = value_words(registry);
        let declared: Vec<(String, BTreeSet<String>)> = registry
            .tools()
            .map(|tool| {
                let text = format!("{} {}", tool.label(), tool.name().replace('_', " "));
                (tool.name().to_owned(), stems_of(&text))
            })
            .collect();
        // Per tool: how many of its one-call examples use each stem.
        let used: Vec<HashMap<String, usize>> = registry
            .tools()
            .map(|tool| {
                let mut counts: HashMap<String, usize> = HashMap::new();
                for example in registry.examples() {
                    if example.plan().as_slice() == [tool.name()] {
                        for stem in stems_of(example.request()) {
                            *counts.entry(stem).or_default() += 1;
                        }
                    }
                }
                counts
            })
            .collect();
        let examples_of = |i: usize| -> usize {
            registry
                .examples()
                .filter(|e| {
                    registry
                        .tools()
                        .nth(i)
                        .is_some_and(|t| e.plan().as_slice() == [t.name()])
                })
                .count()
        };
        let mut cues = HashMap::new();
        let mut named = HashMap::new();
        for (i, (tool, own)) in declared.iter().enumerate() {
            let elsewhere = |stem: &String, in_examples: bool| {
                declared.iter().enumerate().any(|(j, (_, theirs))| {
                    j != i && (theirs.contains(stem) || (in_examples && used[j].contains_key(stem)))
                })
            };
            let often = (examples_of(i) / EXAMPLES_PER_USE).max(1);
            let mut tool_cues: Vec<String> = own
                .iter()
                .filter(|stem| !values.contains(*stem) && !elsewhere(stem, false))
                .cloned()
                .collect();
            named.insert(
                tool.clone(),
                tool_cues
                    .iter()
                    .filter(|cue| verbs.iter().any(|group| group.contains(cue)))
                    .cloned()
                    .collect::<Vec<_>>(),
            );
            for (stem, count) in &used[i] {
                if *count >= often
                    && !values.contains(stem)
                    && !own.contains(stem)
                    && !elsewhere(stem, true)
                {
                    tool_cues.push(stem.clone());
                }
            }
            cues.insert(tool.clone(), tool_cues);
        }
        let texts: Vec<(String, String)> = registry
            .tools()
            .map(|tool| {
                let mut text = format!("{} {}", tool.label(), tool.name().replace('_', " "));
                for example in registry.examples() {
                    if example.plan().as_slice() == [tool.name()] {
                        text.push('\n');
                        text.push_str(example.request());
                    }
                }
                (tool.name().to_owned(), text.to_lowercase())
            })
            .collect();
        let joined = joined_verbs([&named, &cues], verbs, &texts, &values);
        for (tool, words) in joined {
            if let Some(tool_cues) = named.get_mut(&tool) {
                tool_cues.extend(words.iter().cloned());
            }
            if let Some(tool_cues) = cues.get_mut(&tool) {
                tool_cues.extend(words);
            }
        }
        for tool_cues in cues.values_mut().chain(named.values_mut()) {
            let mut spelt: Vec<String> = tool_cues
                .iter()
                .flat_map(|cue| request::spellings(cue))
                .collect();
            spelt.sort_unstable();
            spelt.dedup();
            *tool_cues = spelt;
        }
        Self { cues, named }
    }

    /// Whether `word` (a stem or one of its [spellings](request::spellings)) is a cue of
    /// some tool.
    pub(super) fn is_cue(&self, word: &str) -> bool {
        let spellings = request::spellings(word);
        self.cues
            .values()
            .any(|cues| cues.iter().any(|cue| spellings.contains(cue)))
    }

    /// What `request` says of `tool`'s action: asked for (a cue is in it), refused (every
    /// cue in it is negated), or nothing.
    pub(super) fn said(&self, tool: &str, request: &Request) -> Said {
        self.said_by(tool, |cue| request.said(cue))
    }

    /// [`said`](Self::said), counting only cues that start a word of `request` (see
    /// `Request::said_as_word`).
    pub(super) fn said_as_word(&self, tool: &str, request: &Request) -> Said {
        self.said_by(tool, |cue| request.said_as_word(cue))
    }

    /// Whether `request` names `tool`'s action ([`Request::said_as_action`]), counting only
    /// the cues of its label, name and the verbs they join: what the request names the
    /// action with, not a word an example happened to use (nor a cue inside another word,
    /// nor one used as a place or a topic: "목록에서 빼줘").
    pub(super) fn named(&self, tool: &str, request: &Request) -> Said {
        Self::said_in(&self.named, tool, |cue| request.said_as_action(cue))
    }

    fn said_by(&self, tool: &str, said_of: impl Fn(&str) -> Said) -> Said {
        Self::said_in(&self.cues, tool, said_of)
    }

    fn said_in(
        cues: &HashMap<String, Vec<String>>,
        tool: &str,
        said_of: impl Fn(&str) -> Said,
    ) -> Said {
        let Some(cues) = cues.get(tool) else {
            return Said::Nothing;
        };
        let mut said = Said::Nothing;
        for cue in cues {
            match said_of(cue) {
                Said::Asked => return Said::Asked,
                Said::Refused => said = Said::Refused,
                Said::Nothing => {}
            }
        }
        said
    }
}

/// The words of `verbs` each tool's cues gain (see [`Actions::of`]): those of every group
/// owned by that tool, less the words another tool's `texts` (label, name and examples,
/// lower-cased) contain and those among the value words. A group's owner is the one tool
/// with a word of it among its `named` cues (the words of action its label or name gives),
/// or, where no tool has, the one tool with a word of it among its `cues` at all.
fn joined_verbs(
    [named, cues]: [&HashMap<String, Vec<String>>; 2],
    verbs: &[Vec<String>],
    texts: &[(String, String)],
    values: &BTreeSet<String>,
) -> HashMap<String, Vec<String>> {
    let owners = |cues: &HashMap<String, Vec<String>>, group: &[String]| -> Vec<String> {
        cues.iter()
            .filter(|(_, tool_cues)| {
                tool_cues.iter().any(|cue| {
                    let spellings = request::spellings(cue);
                    group.iter().any(|word| spellings.contains(word))
                })
            })
            .map(|(tool, _)| tool.clone())
            .collect()
    };
    let mut joined: HashMap<String, Vec<String>> = HashMap::new();
    for group in verbs {
        let mut owner = owners(named, group);
        if owner.is_empty() {
            owner = owners(cues, group);
        }
        let [owner] = owner.as_slice() else {
            continue;
        };
        for word in group {
            let used_elsewhere = texts
                .iter()
                .any(|(tool, text)| tool != owner && text.contains(word.as_str()));
            let a_value = stem(word).is_some_and(|s| values.contains(&s));
            if !used_elsewhere && !a_value {
                joined.entry(owner.clone()).or_default().push(word.clone());
            }
        }
    }
    joined
}

/// One in this many of a tool's examples must use a stem for it to be a cue (at least one):
/// a word a tool's examples use once in fifty is no sign of its action.
const EXAMPLES_PER_USE: usize = 10;

/// The stems of `text`'s words (see [`stem`]).
fn stems_of(text: &str) -> BTreeSet<String> {
    text.split_whitespace().filter_map(stem).collect()
}

/// A word's stem, lower-cased: a Korean word's first two syllables ("삭제해줘" → "삭제",
/// "지워줘" → "지워"), an English word of three letters or more whole; `None` for shorter
/// words, numbers and a few words every request has.
fn stem(word: &str) -> Option<String> {
    const COMMON: [&str; 12] = [
        "the", "and", "for", "you", "please", "can", "this", "that", "what", "with", "my", "me",
    ];
    let word: String = word
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    if word.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    if word.chars().all(|c| c.is_ascii_alphabetic()) {
        // "tasks" and "task" are one word.
        let word = match word.strip_suffix('s') {
            Some(singular) if singular.len() >= 3 => singular.to_owned(),
            _ => word,
        };
        return (word.len() >= 3 && !COMMON.contains(&word.as_str())).then_some(word);
    }
    let stem: String = word.chars().take(2).collect();
    (stem.chars().count() == 2).then_some(stem)
}

/// The stems of the words of every value the registry's providers offer now, and of the
/// values themselves.
fn value_words(registry: &Registry) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for tool in registry.tools() {
        for (_, choices) in tool.current_values(registry.deps()) {
            for choice in choices {
                let value = match &choice.value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                words.extend(stems_of(&format!("{value} {}", choice.label)));
                for word in &choice.words {
                    words.extend(stems_of(word));
                }
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::{ToolDefinition, ToolResult, ToolSchema};

    fn tool(name: &str, label: &str, examples: &[&str]) -> ToolDefinition {
        examples
            .iter()
            .fold(
                ToolDefinition::builder(name.to_owned(), "d").label(label.to_owned()),
                |builder, request| builder.example(*request, serde_json::json!({})),
            )
            .schema(ToolSchema::from_validation(
                serde_json::json!({"type": "object", "properties": {}}),
            ))
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool")
    }

    #[test]
    fn a_tools_own_words_are_its_cues_and_shared_ones_are_not() {
        let registry = Registry::builder()
            .definition(tool("delete_task", "할 일 삭제", &["우유 할 일 지워줘"]))
            .definition(tool("list_tasks", "할 일 목록", &["할 일 보여줘"]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry, &[]);
        let said = |text: &str| actions.said("delete_task", &Request::new(text));
        assert_eq!(said("치과 예약 삭제해"), Said::Asked);
        assert_eq!(said("Delete the milk task"), Said::Asked, "by its name");
        assert_eq!(
            said("세탁소 건 지워줘"),
            Said::Asked,
            "by its example's verb"
        );
        assert_eq!(said("삭제는 말고 목록만 보여줘"), Said::Refused);
        assert_eq!(said("지워 말고 둬"), Said::Refused);
        assert_eq!(said("don't delete it"), Said::Refused);
        assert_eq!(said("할 일 뭐 있어?"), Said::Nothing, "할 is every tool's");
    }

    fn verbs() -> Vec<Vec<String>> {
        [
            &["추가", "넣어", "add", "put"][..],
            &["삭제", "지워", "delete", "remove"],
            &["목록", "보여", "show"],
        ]
        .iter()
        .map(|group| group.iter().map(|w| (*w).to_owned()).collect())
        .collect()
    }

    #[test]
    fn a_label_word_of_action_brings_its_verb_group() {
        let registry = Registry::builder()
            .definition(tool("add_task", "할 일 추가", &["우유 사기 추가해줘"]))
            .definition(tool("delete_task", "할 일 삭제", &["우유 할 일 삭제"]))
            .definition(tool(
                "search_tasks",
                "할 일 검색",
                &["보고서 찾아서 보여줘"],
            ))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry, &verbs());
        let named = |tool: &str, text: &str| actions.named(tool, &Request::new(text));
        assert_eq!(named("add_task", "세제 사기 할일에 넣어줘"), Said::Asked);
        assert_eq!(named("add_task", "put milk on my list"), Said::Asked);
        assert_eq!(named("delete_task", "세탁소 건 지워줘"), Said::Asked);
        assert_eq!(
            named("search_tasks", "show me the report"),
            Said::Asked,
            "no label names the group: the one tool whose examples do owns it"
        );
        assert_eq!(
            named("add_task", "할 일 추가하는 방법"),
            Said::Nothing,
            "a description, not an ask"
        );
        assert_eq!(
            named("delete_task", "삭제에 대해 알려줘"),
            Said::Nothing,
            "a word followed by a place particle names a thing"
        );
    }

    #[test]
    fn a_verb_group_two_tools_name_joins_neither() {
        let registry = Registry::builder()
            .definition(tool("add_task", "할 일 추가", &[]))
            .definition(tool("add_note", "메모 넣어두기", &[]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry, &verbs());
        assert_eq!(
            actions.named("add_task", &Request::new("put it on the list")),
            Said::Nothing
        );
        assert_eq!(
            actions.named("add_task", &Request::new("할 일 추가")),
            Said::Asked
        );
    }
}
