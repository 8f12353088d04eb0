//! The slash commands of the chat: `/new`, `/tools`, `/habits`, `/history`, `/help`, `/quit`.
//!
//! [`parse`] decides whether a line is a command at all (it starts with `/`); anything else is
//! a message for the model. An unknown command gets a line naming the real ones, with a
//! suggestion when the typo is close, and is never sent to the model.

use agent_core::Registry;
use habit_tools::Coach;

use crate::ui::{Style, Ui, one_line};
use agent_core::inert::clip;

/// A command typed in the chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// `/new`: forget the conversation (새 대화).
    New,
    /// `/tools`: list the tools, their labels and which ask first.
    Tools,
    /// `/habits`: the active habits and their streaks, from the database.
    Habits,
    /// `/history`: the journal of writes that ran, and their undos, from the database.
    History,
    /// `/help`: the commands.
    Help,
    /// `/quit`: leave.
    Quit,
    /// Anything else starting with `/`.
    Unknown(String),
}

/// The commands with their aliases and one-line help, in the order `/help` lists them.
const COMMANDS: &[(&str, &[&str], Command, &str)] = &[
    (
        "/habits",
        &[],
        Command::Habits,
        "내 습관과 연속 기록 (DB에서 바로 읽음)",
    ),
    (
        "/history",
        &[],
        Command::History,
        "실행된 쓰기 작업 기록 — 누가 확인했는지, 되돌렸는지 (\"방금 거 취소해줘\"로 되돌리기)",
    ),
    (
        "/tools",
        &[],
        Command::Tools,
        "모델이 쓸 수 있는 도구와 확인이 필요한 도구",
    ),
    (
        "/new",
        &["/clear"],
        Command::New,
        "새 대화 — 대화 기록을 비웁니다 (저장된 습관은 그대로)",
    ),
    ("/help", &["/?"], Command::Help, "이 도움말"),
    ("/quit", &["/exit"], Command::Quit, "종료 (Ctrl-D도 됩니다)"),
];

/// The command `line` names, or `None` when it is a message for the model.
pub(crate) fn parse(line: &str) -> Option<Command> {
    let line = line.trim();
    if !line.starts_with('/') {
        return None;
    }
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or(line)
        .to_lowercase();
    let command = COMMANDS
        .iter()
        .find(|(name, aliases, _, _)| *name == word || aliases.contains(&word.as_str()))
        .map_or_else(|| Command::Unknown(word.clone()), |(_, _, c, _)| c.clone());
    Some(command)
}

/// The line shown for an unknown command.
pub(crate) fn unknown_line(word: &str) -> String {
    let names: Vec<&str> = COMMANDS.iter().map(|(name, ..)| *name).collect();
    let mut line = format!(
        "알 수 없는 명령어입니다: {} — 쓸 수 있는 명령어: {} (자세히: /help)",
        one_line(word, 40),
        names.join(" ")
    );
    if let Some(close) = suggestion(word) {
        line.push_str(&format!(". 혹시 {close} ?"));
    }
    line
}

/// A command `word` was probably meant to be: one it starts, or one a single edit away.
fn suggestion(word: &str) -> Option<&'static str> {
    let word = word.to_lowercase();
    if word.len() < 2 {
        return None;
    }
    COMMANDS.iter().map(|(name, ..)| *name).find(|name| {
        name.starts_with(&word) || word.starts_with(name) || edit_distance(name, &word) <= 1
    })
}

/// Levenshtein distance over chars (commands are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// Prints `/help`.
pub(crate) fn print_help(ui: &Ui) {
    ui.line(Style::Bold, "명령어");
    for (name, aliases, _, help) in COMMANDS {
        let alias = if aliases.is_empty() {
            String::new()
        } else {
            format!(" ({})", aliases.join(", "))
        };
        ui.line(Style::Plain, &format!("  {name:<8}{help}{alias}"));
    }
    ui.line(
        Style::Dim,
        "그 밖의 입력은 코치에게 보냅니다. 예: \"아침 운동 습관을 찾아줘\", \"1번 습관 오늘 했어\"",
    );
    ui.line(
        Style::Dim,
        "쓰기 작업은 먼저 묻습니다: y/yes/예/네만 수행, 그 밖의 답·Enter·Ctrl-C는 취소.",
    );
}

/// Prints `/tools`: label, name, and whether the tool asks before it runs.
pub(crate) fn print_tools(ui: &Ui, registry: &Registry) {
    ui.line(Style::Bold, &format!("도구 {}개", registry.len()));
    for tool in registry.tools() {
        let gate = if tool.is_destructive() {
            (Style::Warn, "실행 전 확인")
        } else {
            (Style::Dim, "바로 실행")
        };
        let head = format!("  {} {} — ", pad(tool.label(), 14), pad(tool.name(), 18));
        ui.spans(&[(Style::Plain, &head), gate]);
    }
    ui.line(
        Style::Dim,
        "확인이 필요한 도구라도 도구가 해가 없다고 정한 호출은 바로 실행됩니다 (예: 기록하기의 blank).",
    );
}

/// Prints `/habits`: every active habit with its streak, read from the store.
pub(crate) fn print_habits(ui: &Ui, coach: &Coach) {
    let habits = match coach.list_active_habits() {
        Ok(habits) => habits,
        Err(error) => {
            ui.error(&format!("습관 목록을 읽지 못했습니다: {error}"));
            return;
        }
    };
    ui.line(
        Style::Bold,
        &format!(
            "내 습관 {}개 — 만들 습관 {}개(남은 자리 {}) · 끊을 습관 {}개(남은 자리 {})",
            habits.count,
            habits.build_count,
            habits.build_quota_remaining,
            habits.break_count,
            habits.break_quota_remaining
        ),
    );
    if habits.items.is_empty() {
        ui.line(
            Style::Dim,
            "  아직 습관이 없습니다. 예: \"아침 운동 습관을 찾아줘\"",
        );
        return;
    }
    for habit in &habits.items {
        ui.line(
            Style::Plain,
            &format!(
                "  #{} {} — {}",
                habit.id,
                agent_core::inert::clip(&habit.framed_text, 80),
                habit.title
            ),
        );
        let streak = match coach.get_streak(habit.id) {
            Ok(streak) => {
                let mut line = format!(
                    "     연속 {}일 · 최장 {}일 · 최근 30일 {}회 · {}",
                    streak.current_streak,
                    streak.longest_streak,
                    streak.done_count_30d,
                    streak.tier.label_ko()
                );
                if streak.never_miss_twice_broken {
                    line.push_str(" · 이틀 연속 빠진 적 있음");
                }
                line
            }
            Err(error) => format!("     연속 기록을 읽지 못했습니다: {error}"),
        };
        ui.line(Style::Dim, &streak);
    }
}

/// How many journal entries `/history` shows.
const HISTORY_ENTRIES: usize = 20;
/// Characters of one stored text `/history` shows before clipping it.
const HISTORY_TEXT: usize = 120;

/// Prints `/history`: the newest journal entries, oldest of them first — when, what (label
/// and summary), with which arguments, who confirmed, and which were undone. Everything in
/// an entry was stored from a model's or a client's call, so each text is clipped here and
/// made inert by [`Ui`] like every other line.
pub(crate) fn print_history(ui: &Ui, registry: &Registry) {
    let entries = match registry.journal().recent(HISTORY_ENTRIES) {
        Ok(entries) => entries,
        Err(error) => {
            ui.error(&format!("작업 기록을 읽지 못했습니다: {error}"));
            return;
        }
    };
    ui.line(
        Style::Bold,
        &format!("작업 기록 — 최근 {}개 (오래된 것부터)", entries.len()),
    );
    if entries.is_empty() {
        ui.line(
            Style::Dim,
            "  아직 실행된 쓰기 작업이 없습니다. 습관 추가·기록이 여기에 남습니다.",
        );
        return;
    }
    for entry in entries.iter().rev() {
        let record = &entry.record;
        let who = match record.confirmed {
            agent_core::Confirmed::Confirmer => "확인 후 실행",
            agent_core::Confirmed::NotAsked => "확인 없이 실행(해가 없는 호출)",
            _ => "실행",
        };
        let caller = match record.caller {
            agent_core::Caller::App => "앱의 코치",
            agent_core::Caller::Assistant => "외부 어시스턴트(MCP)",
            _ => "시스템",
        };
        let state = match (record.undo_of, entry.undone_by) {
            (Some(of), _) => format!(" · #{of}을(를) 되돌림"),
            (None, Some(by)) => format!(" · 되돌려짐(#{by})"),
            (None, None) => String::new(),
        };
        ui.line(
            Style::Plain,
            &format!(
                "  #{} {} {} — {}",
                entry.id,
                when(record.at_ms),
                clip(&record.label, 40),
                clip(&record.summary, HISTORY_TEXT)
            ),
        );
        ui.line(
            Style::Dim,
            &format!(
                "     {}{state} · {caller} · {who}",
                arguments(&record.arguments)
            ),
        );
    }
}

/// A journaled call's arguments as `name=value, …`, each value clipped.
fn arguments(arguments: &serde_json::Value) -> String {
    let Some(object) = arguments.as_object().filter(|o| !o.is_empty()) else {
        return "인자 없음".to_owned();
    };
    object
        .iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(name, value)| {
            let value = match value {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("{}={}", clip(name, 40), clip(&value, 60))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// When a journal entry ran, in the local time zone, to the minute.
fn when(at_ms: i64) -> String {
    jiff::Timestamp::from_millisecond(at_ms).map_or_else(
        |_| "(시각 불명)".to_owned(),
        |at| {
            at.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        },
    )
}

/// Pads `text` with spaces to `width` terminal columns (Hangul counts two).
fn pad(text: &str, width: usize) -> String {
    let columns: usize = text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(columns)))
}

fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF00..=0xFF60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_aliases_and_messages() {
        assert_eq!(parse("/new"), Some(Command::New));
        assert_eq!(parse("  /HABITS  "), Some(Command::Habits));
        assert_eq!(parse("/quit now"), Some(Command::Quit));
        assert_eq!(parse("/exit"), Some(Command::Quit));
        assert_eq!(parse("/?"), Some(Command::Help));
        assert_eq!(parse("/foo"), Some(Command::Unknown("/foo".into())));
        assert_eq!(parse("/"), Some(Command::Unknown("/".into())));
        assert_eq!(parse("아침 운동 /new"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn unknown_commands_get_a_helpful_line() {
        let line = unknown_line("/hab");
        assert!(
            line.contains("/habits /history /tools /new /help /quit"),
            "{line}"
        );
        assert!(line.ends_with("혹시 /habits ?"), "{line}");
        assert!(unknown_line("/tols").ends_with("혹시 /tools ?"));
        assert!(!unknown_line("/zzzzzz").contains("혹시"));
    }

    #[test]
    fn pad_counts_hangul_as_two_columns() {
        assert_eq!(pad("습관", 6), "습관  ");
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(pad("abcdef", 4), "abcdef");
    }
}
