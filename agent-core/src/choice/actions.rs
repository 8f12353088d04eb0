//! Whether a request asks for the action of a tool: each tool's *cues* — the stems of the
//! words its label, name and own examples use (not the words of the values they pass) that
//! no other tool's do ("삭제" for "할 일 삭제", "추가" for "습관 추가", "delete") — found in
//! the request, or negated there ("지우지는 말고", "don't delete"). A destructive call needs
//! more than the nearest tool: the request must ask for that action, or the evidence for
//! the tool must be strong. Each tool's *topic* — the stems of its label and description —
//! tells whether a request names what it is about; its *names* — the words of its name and
//! label no other tool has that ask for no common action ("streak" of `get_streak`) — tell
//! whether a request names what it alone shows or keeps.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::registry::Registry;
use crate::request::verbs;
use crate::request::{self, Request, Said};

/// The cues of each tool of a registry; see the module doc.
#[derive(Debug, Clone, Default)]
pub(super) struct Actions {
    cues: HashMap<String, Vec<String>>,
    /// The words of the common actions (see `verbs.rs`) each tool alone of its app does.
    verb_cues: HashMap<String, Vec<String>>,
    /// The tools whose name or label says an action done to something that exists
    /// (completing, deleting, changing, cancelling one).
    on_what_exists: BTreeSet<String>,
    /// The stems of each tool's label and description: what it is about ("recipe" is no
    /// word of a shopping list's tools).
    topics: HashMap<String, BTreeSet<String>>,
    /// Per tool, the words of its name and label that no other tool's have and that ask
    /// for no common action: what it alone shows or keeps ("streak" of `get_streak`,
    /// "catalog" of `search_catalog`), with their spellings.
    names: HashMap<String, Vec<String>>,
    /// Per tool that only reads, the words of its name and label that no other reading
    /// tool's have and that ask for no common action: which of the app's views it is
    /// ("요약" of "월별 요약", and "예산" of "예산 현황" where the other budget tool writes).
    reader_names: HashMap<String, Vec<String>>,
    /// The words of the common actions each tool alone of its app does, as
    /// [`verb_cues`](Self::verb_cues) but also those other tools' examples use ("보여줘" of
    /// the list where a search's examples end "찾아서 보여줘").
    verb_words: HashMap<String, Vec<String>>,
    /// Per tool, the words of its name that name what it acts on — not an action's
    /// ("expense" of `delete_expense`, "budget" of `set_budget`), singular.
    name_things: HashMap<String, BTreeSet<String>>,
    /// The one tool of the app whose name or label says it completes something
    /// ("complete_task", "할 일 완료"), if exactly one does.
    completer: Option<String>,
    /// Per tool, the common actions (indices into `verbs::VERBS`) its name, label or
    /// description says, whether or not other tools do them too.
    actions_of: HashMap<String, Vec<usize>>,
}

impl Actions {
    /// The cues of `registry`'s tools: the stems of each one's label and name that no other
    /// tool's label and name have ("추가" of "습관 추가", "delete" of `delete_task`), and the
    /// stems its one-call examples use often that no other tool's label, name or examples
    /// have — leaving out the words of the values the tools take now (a habit's or an
    /// order's name says nothing of the action): for a word of its own label or an action's
    /// word, those of the values the tool itself takes.
    pub(super) fn of(registry: &Registry) -> Self {
        let own_values = value_words(registry);
        let values: BTreeSet<String> = own_values.values().flatten().cloned().collect();
        let no_values = BTreeSet::new();
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
                        // The words of the values it passes ("milk" of "take milk off the
                        // list") are what it acts on, not the action.
                        let passed: BTreeSet<String> = example
                            .calls()
                            .iter()
                            .flat_map(|call| string_values(&call.args))
                            .flat_map(|text| stems_of(&text))
                            .collect();
                        for stem in stems_of(example.request()) {
                            if !passed.contains(&stem) {
                                *counts.entry(stem).or_default() += 1;
                            }
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
        // The common actions each tool's name or label says, for the words people ask for
        // them with (see `verbs.rs`).
        let verbs_of: Vec<Vec<usize>> = registry
            .tools()
            .map(|tool| verbs::of_tool(tool.name(), &stems_of(tool.label())))
            .collect();
        let on_what_exists = declared
            .iter()
            .zip(&verbs_of)
            .filter(|(_, verbs)| verbs.iter().any(|v| verbs::VERBS[*v].on_what_exists))
            .map(|((tool, _), _)| tool.clone())
            .collect();
        let completers: Vec<&String> = declared
            .iter()
            .zip(&verbs_of)
            .filter(|(_, verbs)| verbs.iter().any(|v| verbs::completes(*v)))
            .map(|((tool, _), _)| tool)
            .collect();
        let completer = match completers.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        };
        // With the actions its description says ("저장된 디데이 목록을 검색해 …" searches).
        let actions_of = registry
            .tools()
            .zip(&verbs_of)
            .map(|(tool, verbs)| {
                let described = stems_of(tool.description());
                let mut all = verbs.clone();
                all.extend(
                    verbs::VERBS
                        .iter()
                        .enumerate()
                        .filter(|(_, verb)| verb.asks.iter().any(|ask| described.contains(*ask)))
                        .map(|(index, _)| index),
                );
                all.sort_unstable();
                all.dedup();
                (tool.name().to_owned(), all)
            })
            .collect();
        let mut cues = HashMap::new();
        let mut verb_cues = HashMap::new();
        let mut verb_words = HashMap::new();
        let mut names = HashMap::new();
        let reads: Vec<bool> = registry.tools().map(|t| !t.is_destructive()).collect();
        let mut reader_names = HashMap::new();
        for (i, (tool, own)) in declared.iter().enumerate() {
            if reads[i] {
                let mut named: Vec<String> = own
                    .iter()
                    .filter(|stem| {
                        !values.contains(*stem)
                            && !GENERIC_NAME_WORDS.contains(&stem.as_str())
                            && !verbs::is_ask(stem)
                            && !declared.iter().enumerate().any(|(j, (_, theirs))| {
                                j != i && reads[j] && theirs.contains(*stem)
                            })
                    })
                    .flat_map(|stem| request::spellings(stem))
                    .collect();
                named.sort_unstable();
                named.dedup();
                reader_names.insert(tool.clone(), named);
            }
            let elsewhere = |stem: &String, in_examples: bool| {
                declared.iter().enumerate().any(|(j, (_, theirs))| {
                    j != i && (theirs.contains(stem) || (in_examples && used[j].contains_key(stem)))
                })
            };
            let often = (examples_of(i) / EXAMPLES_PER_USE).max(1);
            // The words of the values this tool takes: a word of its label that also names
            // one of them ("완료" of a task titled "보고서 완료하기") is no sign of the action.
            // Another tool's values do not count here ("(완료)" marking a done task in the
            // list a delete takes from is no reason "완료" would not ask to complete one).
            let takes = own_values.get(tool).unwrap_or(&no_values);
            // The stems of its name and label alone: cues, and — those that are no generic
            // verb of a name nor a common action's ask, nor a word of any tool's values — its
            // names.
            let mut tool_cues: Vec<String> = own
                .iter()
                .filter(|stem| !takes.contains(*stem) && !elsewhere(stem, false))
                .cloned()
                .collect();
            let mut named: Vec<String> = tool_cues
                .iter()
                .filter(|stem| {
                    !values.contains(*stem)
                        && !GENERIC_NAME_WORDS.contains(&stem.as_str())
                        && !verbs::is_ask(stem)
                })
                .flat_map(|stem| request::spellings(stem))
                .collect();
            named.sort_unstable();
            named.dedup();
            names.insert(tool.clone(), named);
            for (stem, count) in &used[i] {
                if *count >= often
                    && !values.contains(stem)
                    && !own.contains(stem)
                    && !elsewhere(stem, true)
                {
                    tool_cues.push(stem.clone());
                }
            }
            // An action's words, where this tool alone does it.
            let mut words: Vec<String> = Vec::new();
            let mut loose: Vec<String> = Vec::new();
            for verb in &verbs_of[i] {
                if verbs_of.iter().filter(|verbs| verbs.contains(verb)).count() > 1 {
                    continue;
                }
                for ask in verbs::VERBS[*verb].asks {
                    let ask = (*ask).to_owned();
                    loose.extend(request::spellings(&ask));
                    if takes.contains(&ask) {
                        continue;
                    }
                    if !elsewhere(&ask, true) {
                        words.extend(request::spellings(&ask));
                    }
                }
            }
            words.sort_unstable();
            words.dedup();
            verb_cues.insert(tool.clone(), words);
            loose.sort_unstable();
            loose.dedup();
            verb_words.insert(tool.clone(), loose);
            let mut tool_cues: Vec<String> = tool_cues
                .iter()
                .flat_map(|cue| request::spellings(cue))
                .collect();
            tool_cues.sort_unstable();
            tool_cues.dedup();
            cues.insert(tool.clone(), tool_cues);
        }
        let topics = registry
            .tools()
            .map(|tool| {
                // Not the name: its words are an identifier's ("list" of `list_tasks`).
                let text = format!("{} {}", tool.label(), tool.description());
                let stems = stems_of(&text)
                    .into_iter()
                    .filter(|stem| !values.contains(stem))
                    .collect();
                (tool.name().to_owned(), stems)
            })
            .collect();
        let name_things = registry
            .tools()
            .map(|tool| {
                let things = tool
                    .name()
                    .split(['_', '.', '-'])
                    .map(|part| singular(&part.to_lowercase()))
                    .filter(|part| {
                        part.chars().count() >= 3
                            && !GENERIC_NAME_WORDS.contains(&part.as_str())
                            && !verbs::is_action_name(part)
                    })
                    .collect();
                (tool.name().to_owned(), things)
            })
            .collect();
        Self {
            cues,
            verb_cues,
            on_what_exists,
            topics,
            names,
            reader_names,
            verb_words,
            name_things,
            completer,
            actions_of,
        }
    }

    /// The tools that do (by their name, label or description) the common action the
    /// request asks for above all (its main verb, as [`main_ask`](Self::main_ask) reads it,
    /// but of any action, whether one tool does it or several): "티타임 일정을
    /// 등록해주세요" asks for a tool that adds, whichever of the app's adding tools it is.
    /// Empty when no action's word stands as a main verb.
    pub(super) fn main_action_doers(&self, request: &Request) -> Vec<&str> {
        let korean = request.is_korean();
        let mut found: Option<(usize, usize)> = None;
        for (index, verb) in verbs::VERBS.iter().enumerate() {
            for ask in verb.asks {
                for spelling in request::spellings(ask) {
                    for at in request
                        .asked_at(&spelling)
                        .into_iter()
                        .filter(|at| request.may_be_main_verb(*at))
                    {
                        // The last such word of a Korean message, the first of another.
                        let better = match found {
                            None => true,
                            Some((_, best_at)) if korean => at > best_at,
                            Some((_, best_at)) => at < best_at,
                        };
                        if better {
                            found = Some((index, at));
                        }
                    }
                }
            }
        }
        let Some((action, _)) = found else {
            return Vec::new();
        };
        let mut doers: Vec<&str> = self
            .actions_of
            .iter()
            .filter(|(_, actions)| actions.contains(&action))
            .map(|(tool, _)| tool.as_str())
            .collect();
        doers.sort_unstable();
        doers
    }

    /// The one tool of the app that completes something (its name or label says so), if
    /// exactly one does.
    pub(super) fn completer(&self) -> Option<&str> {
        self.completer.as_deref()
    }

    /// Whether `request` names, by a word of its name, what another tool acts on and
    /// nothing `tool` acts on ("Remove my cafe budget" names the budget of `set_budget`,
    /// not the expense of `delete_expense`): an English request to an app labelled in
    /// another language is read by its tools' names.
    pub(super) fn names_another_tools_thing(&self, tool: &str, request: &Request) -> bool {
        let words: BTreeSet<String> = request
            .lower()
            .split(|c: char| !c.is_alphanumeric())
            .map(singular)
            .collect();
        let names = |things: &BTreeSet<String>| things.iter().any(|t| words.contains(t));
        self.name_things.get(tool).is_some_and(|own| !names(own))
            && self
                .name_things
                .iter()
                .any(|(other, things)| other != tool && names(things))
    }

    /// Whether `request` says not to do some tool's action, by a cue or a common action's
    /// word ("don't put it on the list", "기록은 하지 마").
    pub(super) fn refuses_any(&self, request: &Request) -> bool {
        self.cues
            .values()
            .chain(self.verb_cues.values())
            .flatten()
            .any(|word| request.said(word) == Said::Refused)
    }

    /// The one tool whose own words (see `names`) `request` says, un-negated and as words,
    /// when exactly one tool's are said: "what's my reading streak?" names what
    /// `get_streak` shows, whatever else its words are like.
    pub(super) fn named_tool(&self, request: &Request) -> Option<&str> {
        only_one_named(&self.names, request)
    }

    /// The one tool that only reads whose own words among the reading tools (see
    /// `reader_names`) `request` says, un-negated and as words, when exactly one such
    /// tool's are: "이번 달 요약 보여줘" asks for the summary, not the list the word "보여줘"
    /// alone would ask for.
    pub(super) fn named_reader(&self, request: &Request) -> Option<&str> {
        only_one_named(&self.reader_names, request)
    }

    /// Whether `request` names what another tool is about and nothing `tool` is about:
    /// "delete the beef stew recipe" names a recipe, which the app's tool that deletes from
    /// a shopping list is not about.
    pub(super) fn about_another(&self, tool: &str, request: &Request) -> bool {
        let words = stems_of(request.lower());
        let Some(own) = self.topics.get(tool) else {
            return false;
        };
        !words.iter().any(|word| own.contains(word))
            && self.topics.iter().any(|(other, stems)| {
                other != tool && words.iter().any(|word| stems.contains(word))
            })
    }

    /// Whether `tool`'s name or label says an action done to something that exists
    /// ("complete_task", "할 일 삭제", "마감일 변경"): a request for it names what.
    pub(super) fn acts_on_what_exists(&self, tool: &str) -> bool {
        self.on_what_exists.contains(tool)
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

    /// [`said_as_word`](Self::said_as_word), leaving out the words that name what `tool`
    /// alone shows or keeps (its `names`): "list" in "put it on my list" is the place, not
    /// the ask.
    pub(super) fn said_as_action(&self, tool: &str, request: &Request) -> Said {
        let names = self.names.get(tool);
        self.said_by(tool, |cue| {
            if names.is_some_and(|names| names.iter().any(|name| name == cue)) {
                Said::Nothing
            } else {
                request.said_as_word(cue)
            }
        })
    }

    /// Whether `request` says, un-negated and as a word, one of the words of a common action
    /// (see `verbs.rs`) that `tool` alone of its app does.
    pub(super) fn asks_action(&self, tool: &str, request: &Request) -> bool {
        self.verb_cues
            .get(tool)
            .is_some_and(|cues| cues.iter().any(|cue| !request.asked_at(cue).is_empty()))
    }

    /// Whether `request` says, un-negated and as a word, one of the words of a common action
    /// that `tool` alone of its app does, even where other tools' examples use the word too
    /// (see `verb_words`): weaker evidence than [`asks_action`](Self::asks_action), for a
    /// part of a request the evidence already chose a tool of.
    pub(super) fn asks_action_loosely(&self, tool: &str, request: &Request) -> bool {
        self.verb_words
            .get(tool)
            .is_some_and(|words| words.iter().any(|word| !request.asked_at(word).is_empty()))
    }

    /// The tool the request asks for above all by the words of a common action (see
    /// `verbs.rs`; a label's nouns — "마감" of "마감일 변경" — are no ask): of the tools
    /// whose action words stand in it un-negated as words, the one asked for last in a Korean
    /// message (its main verb ends it: "적어둔 거 찾아봐" asks to find) and first in another
    /// (an imperative opens it: "get rid of the dentist one, it's done"); a word that names a
    /// thing by what was done to it ("적어둔 거"), or leads to the next clause ("보여주고"),
    /// is not the main verb. `None` when no such word is asked.
    pub(super) fn main_ask(&self, request: &Request) -> Option<&str> {
        let korean = request.is_korean();
        let mut found: Option<(&str, usize)> = None;
        for (tool, cues) in &self.verb_cues {
            for cue in cues {
                let asked = request.asked_at(cue);
                for at in asked.into_iter().filter(|at| request.may_be_main_verb(*at)) {
                    let better = found.is_none_or(|(best, best_at)| {
                        if korean {
                            at > best_at || (at == best_at && tool.as_str() < best)
                        } else {
                            at < best_at || (at == best_at && tool.as_str() < best)
                        }
                    });
                    if better {
                        found = Some((tool, at));
                    }
                }
            }
        }
        found.map(|(tool, _)| tool)
    }

    /// Where `request` says one of `tool`'s cues or action words, un-negated and as a word's
    /// start: the byte offsets, in no order.
    pub(super) fn asked_at(&self, tool: &str, request: &Request) -> Vec<usize> {
        self.cues
            .get(tool)
            .into_iter()
            .chain(self.verb_cues.get(tool))
            .flatten()
            .flat_map(|cue| request.asked_at(cue))
            .collect()
    }

    fn said_by(&self, tool: &str, said_of: impl Fn(&str) -> Said) -> Said {
        let Some(cues) = self.cues.get(tool) else {
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

/// The one tool of `words` (tool → its own words) whose words `request` says, un-negated
/// and as words, when exactly one tool's are.
fn only_one_named<'a>(
    words: &'a HashMap<String, Vec<String>>,
    request: &Request,
) -> Option<&'a str> {
    let mut named = words.iter().filter(|(_, words)| {
        words
            .iter()
            .any(|word| request.said_as_word(word) == Said::Asked)
    });
    match (named.next(), named.next()) {
        (Some((tool, _)), None) => Some(tool),
        _ => None,
    }
}

/// An English word without a plural "s" ("tasks" → "task"; "status" stays).
fn singular(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') && !stem.ends_with('u') => {
            stem.to_owned()
        }
        _ => word.to_owned(),
    }
}

/// Words tools' names start with whatever they do ("get" of `get_streak`): no sign of
/// what a tool is about.
const GENERIC_NAME_WORDS: [&str; 8] = ["get", "set", "fetch", "show", "query", "run", "make", "do"];

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

/// The strings of a call's arguments, nested ones included.
fn string_values(args: &Value) -> Vec<String> {
    match args {
        Value::String(text) => vec![text.clone()],
        Value::Array(items) => items.iter().flat_map(string_values).collect(),
        Value::Object(map) => map.values().flat_map(string_values).collect(),
        _ => Vec::new(),
    }
}

/// Per tool, the stems of the words of every value its providers offer now, and of the
/// values themselves.
fn value_words(registry: &Registry) -> HashMap<String, BTreeSet<String>> {
    let mut all = HashMap::new();
    for tool in registry.tools() {
        let words: &mut BTreeSet<String> = all.entry(tool.name().to_owned()).or_default();
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
    all
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
        let actions = Actions::of(&registry);
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

    #[test]
    fn a_tool_is_named_by_the_words_of_its_name_and_label_no_other_tool_has() {
        let registry = Registry::builder()
            .definition(tool("get_streak", "연속 기록 조회", &["1번 며칠째야"]))
            .definition(tool("search_catalog", "습관 검색", &["걷기 찾아줘"]))
            .definition(tool("log_entry", "기록하기", &["오늘 했어"]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        let named = |text: &str| actions.named_tool(&Request::new(text));
        assert_eq!(named("what's my reading streak?"), Some("get_streak"));
        assert_eq!(named("걷기 연속 며칠이야"), Some("get_streak"));
        assert_eq!(
            named("anything in the catalog for coffee?"),
            Some("search_catalog")
        );
        assert_eq!(named("get me a coffee"), None, "a name's generic verb");
        assert_eq!(
            named("search for my streak"),
            Some("get_streak"),
            "an ask's word is no name"
        );
        assert_eq!(named("the streak in the catalog"), None, "two tools' words");
        assert_eq!(named("기록 좀 봐줘"), None, "a word two labels share");
        let refuses = |text: &str| actions.refuses_any(&Request::new(text));
        assert!(refuses("don't log it, what's my streak?"));
        assert!(!refuses("what's my streak?"));
    }

    #[test]
    fn an_examples_values_are_no_cues_and_a_request_can_name_another_tools_thing() {
        let example = |tool: &str, request: &str, item: &str| {
            crate::tool::Example::new(request).call(tool, serde_json::json!({"item": item}))
        };
        let registry = Registry::builder()
            .definition(tool("remove_item", "Remove from shopping list", &[]))
            .definition(tool("get_recipe", "Recipe", &[]))
            .example(example("remove_item", "Take milk off the list", "milk"))
            .example(example("remove_item", "Cross milk off", "milk"))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        let said = |text: &str| actions.said("remove_item", &Request::new(text));
        assert_eq!(
            said("Cross the eggs off"),
            Said::Asked,
            "by its examples' verb"
        );
        assert_eq!(
            said("never mind the milk"),
            Said::Nothing,
            "a value is no cue"
        );
        let about = |tool: &str, text: &str| actions.about_another(tool, &Request::new(text));
        assert!(about("remove_item", "delete the beef stew recipe"));
        assert!(!about(
            "remove_item",
            "remove the recipe book from my shopping list"
        ));
        assert!(!about("remove_item", "delete it"), "names nothing");
    }

    #[test]
    fn a_label_word_is_a_cue_though_another_tools_values_use_it() {
        // The delete takes every task, a done one marked "(완료)"; the completion takes the
        // open ones. "완료" is still the completion's word.
        let numbered = |name: &str, label: &str, titles: &'static [&'static str]| {
            ToolDefinition::builder(name.to_owned(), "d")
                .label(label.to_owned())
                .schema(ToolSchema::from_validation(serde_json::json!({
                    "type": "object",
                    "properties": {"number": {"type": "integer"}},
                    "required": ["number"]
                })))
                .values("number", move || {
                    (1..)
                        .zip(titles)
                        .map(|(n, title)| crate::tool::ValueChoice::new(n, *title))
                        .collect::<Vec<_>>()
                })
                .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
                .build()
                .expect("tool")
        };
        let registry = Registry::builder()
            .definition(numbered(
                "delete_task",
                "할 일 삭제",
                &["보고서 (완료)", "우유 사기"],
            ))
            .definition(numbered("complete_task", "완료 표시", &["우유 사기"]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        let said = |tool: &str, text: &str| actions.said(tool, &Request::new(text));
        assert_eq!(
            said("complete_task", "우유 사기 완료로 바꿔줘"),
            Said::Asked
        );
        // A word of the values the tool itself takes is no cue of it.
        let registry = Registry::builder()
            .definition(numbered("complete_task", "완료 표시", &["보고서 완료하기"]))
            .definition(numbered("delete_task", "할 일 삭제", &["보고서 완료하기"]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        assert_eq!(
            actions.said("complete_task", &Request::new("보고서 완료하기 지워줘")),
            Said::Nothing
        );
    }

    #[test]
    fn a_request_names_another_tools_thing_by_that_tools_name() {
        let registry = Registry::builder()
            .definition(tool("delete_expense", "지출 삭제", &[]))
            .definition(tool("set_budget", "예산 설정", &[]))
            .definition(tool("list_expenses", "지출 목록", &[]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        let names =
            |tool: &str, text: &str| actions.names_another_tools_thing(tool, &Request::new(text));
        assert!(names("delete_expense", "Remove my cafe budget"));
        assert!(!names("delete_expense", "Remove the movie ticket entry"));
        assert!(!names("delete_expense", "delete the budget expenses"));
        assert!(!names("set_budget", "set my cafe budget to 50000"));
    }

    #[test]
    fn the_main_ask_is_a_common_actions_word_last_in_korean_and_first_in_english() {
        let registry = Registry::builder()
            .definition(tool("add_task", "할 일 추가", &["우유 사기 추가해줘"]))
            .definition(tool("search_tasks", "할 일 검색", &["우유 찾아줘"]))
            .definition(tool("delete_task", "할 일 삭제", &["우유 할 일 삭제해줘"]))
            .definition(tool("change_due_date", "마감일 변경", &["마감 바꿔줘"]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        let main = |text: &str| actions.main_ask(&Request::new(text));
        assert_eq!(
            main("낼까지 택배 반품 접수하는 거 적어놔줘"),
            Some("add_task")
        );
        assert_eq!(main("세탁소 얘기 적어둔 거 찾아봐"), Some("search_tasks"));
        assert_eq!(
            main("세탁소 코트는 목록에서 아예 없애버려"),
            Some("delete_task")
        );
        assert_eq!(
            main("Get rid of the dentist one, it's done anyway"),
            Some("delete_task")
        );
        assert_eq!(main("Put 'renew passport' on my list"), Some("add_task"));
        assert_eq!(main("마감 언제였지?"), None, "a label's noun is no ask");
        assert_eq!(main("지우지는 말고 그냥 둬"), None, "negated");
        assert_eq!(
            main("코트 얘기 적어둔 거 어딨더라"),
            None,
            "a thing named by a verb"
        );
    }

    #[test]
    fn an_action_two_tools_do_is_no_ones_ask() {
        let registry = Registry::builder()
            .definition(tool("add_task", "할 일 추가", &[]))
            .definition(tool("add_note", "메모 추가", &[]))
            .build()
            .expect("registry");
        let actions = Actions::of(&registry);
        assert_eq!(actions.main_ask(&Request::new("우유 사기 적어줘")), None);
    }
}
