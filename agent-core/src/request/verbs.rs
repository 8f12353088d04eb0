//! The actions most apps' tools do — add, find, list, complete, delete, change, cancel, log,
//! play, set — with the words a tool's name uses for each and the words people ask for each
//! with, in Korean and English. A tool whose name or label says one of these actions, and is
//! the only tool of its app to do so, is asked for by any of the action's words: "적어놔줘",
//! "목록에 올려줘" and "put … on my list" ask for the one tool named `add_…`, though its
//! three examples say "추가해줘". This is what a newcomer's app gets without writing an example
//! for every way of saying its actions.

use std::collections::BTreeSet;

/// One action: the words of tool names that do it (snake-case words), and the stems people
/// ask for it with (see the choice stage's `actions::stem`: a Korean word's first two
/// syllables, an English word whole).
pub(crate) struct Verb {
    /// Words a tool's name uses for the action: `add` in `add_task`.
    pub(crate) names: &'static [&'static str],
    /// Stems of the words that ask for it.
    pub(crate) asks: &'static [&'static str],
    /// Whether the action is done to something that already exists (completing, deleting,
    /// changing, cancelling one), which a request for it must then name.
    pub(crate) on_what_exists: bool,
}

/// The actions; see the module doc. A stem here is an ask only in an app where one tool does
/// the action, so the lists may be generous — but each word must ask for its action in
/// nearly every sentence it stands in ("기록" is left out: "기록 보여줘" shows records).
pub(crate) const VERBS: &[Verb] = &[
    Verb {
        names: &[
            "add", "create", "new", "insert", "register", "make", "post", "save", "put", "write",
        ],
        asks: &[
            "추가", "등록", "적어", "넣어", "만들", "저장", "add", "create", "put", "note", "jot",
            "write", "save", "insert", "register",
        ],
        on_what_exists: false,
    },
    Verb {
        names: &["search", "find", "lookup", "query", "filter"],
        asks: &["찾아", "검색", "search", "find", "look"],
        on_what_exists: false,
    },
    Verb {
        names: &["list", "browse"],
        // "목록"/"list" is as often the place ("목록에 넣어줘", "on my list") as the ask.
        asks: &["보여", "show", "view"],
        on_what_exists: false,
    },
    Verb {
        names: &[
            "complete", "finish", "done", "check", "mark", "tick", "resolve", "close",
        ],
        asks: &[
            "완료", "끝냈", "끝났", "다했", "체크", "done", "complete", "finish", "finished",
            "tick", "check", "mark",
        ],
        on_what_exists: true,
    },
    Verb {
        names: &["delete", "remove", "erase", "drop", "clear", "discard"],
        asks: &[
            "삭제", "지워", "지우", "없애", "제거", "빼줘", "delete", "remove", "erase", "rid",
            "drop", "clear",
        ],
        on_what_exists: true,
    },
    Verb {
        names: &[
            "change",
            "update",
            "edit",
            "modify",
            "move",
            "rename",
            "reschedule",
            "postpone",
        ],
        asks: &[
            "변경",
            "바꿔",
            "바꾸",
            "수정",
            "미뤄",
            "미루",
            "옮겨",
            "연기",
            "당겨",
            "change",
            "update",
            "edit",
            "modify",
            "move",
            "push",
            "postpone",
            "reschedule",
            "rename",
            "shift",
        ],
        on_what_exists: true,
    },
    Verb {
        names: &["cancel", "revoke", "abort"],
        asks: &["취소", "cancel"],
        on_what_exists: true,
    },
    Verb {
        names: &["log", "record", "track"],
        // Not "기록" ("기록 보여줘" shows records) nor "record" ("my longest record").
        asks: &["log", "track"],
        on_what_exists: false,
    },
    Verb {
        names: &["play", "start", "resume"],
        // Not "시작" ("걷기 시작할래" starts a habit, not a playback).
        asks: &["틀어", "재생", "play", "start"],
        on_what_exists: false,
    },
    Verb {
        names: &["set", "configure"],
        asks: &["설정", "정해", "set"],
        on_what_exists: false,
    },
];

/// Whether `stem` is a word some common action is asked for with ("추가", "find").
pub(crate) fn is_ask(stem: &str) -> bool {
    VERBS.iter().any(|verb| verb.asks.contains(&stem))
}

/// Whether the action at `index` into [`VERBS`] is completing something (a task, an
/// item): what a report of having done it asks for.
pub(crate) fn completes(index: usize) -> bool {
    VERBS
        .get(index)
        .is_some_and(|verb| verb.names.contains(&"complete"))
}

/// Whether `word` is a word tool names use for a common action (`add`, `delete`, `list`).
pub(crate) fn is_action_name(word: &str) -> bool {
    VERBS.iter().any(|verb| verb.names.contains(&word))
}

/// The actions (indices into [`VERBS`]) a tool does by its name's words (snake_case,
/// camelCase or dotted: `add_task`, `CreateEvent`, `todo.delete`) and its label's stems.
pub(crate) fn of_tool(name: &str, label_stems: &BTreeSet<String>) -> Vec<usize> {
    let words = super::text::name_parts(name);
    VERBS
        .iter()
        .enumerate()
        .filter(|(_, verb)| {
            verb.names.iter().any(|n| words.iter().any(|w| w == n))
                || verb.asks.iter().any(|a| label_stems.contains(*a))
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(words: &[&str]) -> BTreeSet<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn a_tool_does_the_actions_its_name_or_label_says() {
        let add = of_tool("add_task", &stems(&["할일"]));
        assert_eq!(add, vec![0]);
        assert_eq!(of_tool("todo.delete", &BTreeSet::new()), vec![4]);
        assert_eq!(of_tool("CreateEvent", &BTreeSet::new()), vec![0]);
        assert_eq!(of_tool("addMemo", &BTreeSet::new()), vec![0]);
        assert_eq!(
            of_tool("monthly_summary", &stems(&["월별", "요약"])),
            Vec::<usize>::new()
        );
        assert_eq!(of_tool("budget", &stems(&["예산", "설정"])), vec![9]);
        assert_eq!(of_tool("start_playlist", &BTreeSet::new()), vec![8]);
        assert_eq!(of_tool("log_tracker_entry", &BTreeSet::new()), vec![7]);
        assert_eq!(
            of_tool("change_due_date", &stems(&["마감", "변경"])),
            vec![5]
        );
    }
}
