//! One-line Korean summaries of tool results, so the chat shows `✓ 3개 찾음: 아침 걷기, …`
//! instead of the JSON the model receives (that JSON is shown only with `--verbose`).
//!
//! The habit tools get a summary written for their result shape (the three that change what is
//! there reuse the coach's own sentences); any other tool, or a result whose shape is not the
//! expected one, gets a generic line. Nothing here can fail.

use agent_core::ToolResult;
use serde_json::Value;

use crate::ui::one_line;

/// How a call ended, for the choice of mark and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The tool ran.
    Ok,
    /// The tool refused or failed.
    Error,
    /// The user (or the absence of a yes) cancelled it.
    Cancelled,
}

/// The kind and the one-line text for `result` of tool `name`.
pub(crate) fn summarize(name: &str, result: &ToolResult) -> (Kind, String) {
    match result {
        ToolResult::Ok { data } => (Kind::Ok, ok_line(name, data)),
        ToolResult::Error(error) => (
            Kind::Error,
            format!("실패 ({}): {}", error.code(), one_line(error.reason(), 120)),
        ),
        ToolResult::Cancelled { .. } => (
            Kind::Cancelled,
            "취소했습니다 — 모델에게 'cancelled'로 알렸어요".to_owned(),
        ),
    }
}

fn ok_line(name: &str, data: &Value) -> String {
    let specific = match name {
        "search_catalog" => search_line(data),
        "query_protocol" => protocol_line(data),
        "list_active_habits" => habits_line(data),
        "get_streak" => streak_line(data),
        "add_habit" => added_line(data),
        "log_tracker_entry" => logged_line(data),
        "stop_habit" => habit_tools::tools::replies::stopped(data),
        "update_habit_text" => habit_tools::tools::replies::updated(data),
        "correct_tracker_entry" => habit_tools::tools::replies::corrected(data),
        _ => None,
    };
    specific.unwrap_or_else(|| "완료".to_owned())
}

fn text<'a>(data: &'a Value, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Value::as_str)
}

fn number(data: &Value, key: &str) -> Option<i64> {
    data.get(key).and_then(Value::as_i64)
}

/// `3개 찾음: 아침 걷기, 저녁 스트레칭, 물 마시기` (at most three titles).
fn search_line(data: &Value) -> Option<String> {
    let count = number(data, "count")?;
    let items = data.get("items")?.as_array()?;
    if count == 0 || items.is_empty() {
        return Some("찾은 항목이 없습니다".to_owned());
    }
    let titles: Vec<String> = items
        .iter()
        .take(3)
        .filter_map(|item| {
            let title = text(item, "title")?;
            Some(match text(item, "id") {
                Some(id) => format!("{title} [{id}]"),
                None => title.to_owned(),
            })
        })
        .collect();
    let more = if items.len() > titles.len() {
        " …"
    } else {
        ""
    };
    Some(one_line(
        &format!("{count}개 찾음: {}{more}", titles.join(", ")),
        160,
    ))
}

/// `아침 걷기 [build.morning-walk] — 만들 습관`.
fn protocol_line(data: &Value) -> Option<String> {
    let title = text(data, "title")?;
    let id = text(data, "id").unwrap_or("?");
    let kind = match text(data, "kind") {
        Some("build") => " — 만들 습관",
        Some("break") => " — 끊을 습관",
        Some("diet") => " — 식단",
        _ => "",
    };
    Some(format!("{title} [{id}]{kind}"))
}

/// `활성 습관 2개: #1 아침 커피 후 10분 걷기, #2 …`.
fn habits_line(data: &Value) -> Option<String> {
    let count = number(data, "count")?;
    let items = data.get("items")?.as_array()?;
    if count == 0 || items.is_empty() {
        return Some("활성 습관이 없습니다".to_owned());
    }
    let listed: Vec<String> = items
        .iter()
        .filter_map(|item| {
            Some(format!(
                "#{} {}",
                number(item, "id")?,
                text(item, "framed_text")?
            ))
        })
        .collect();
    Some(one_line(
        &format!("활성 습관 {count}개: {}", listed.join(", ")),
        160,
    ))
}

/// `연속 3일 · 최장 5일 · 씨앗`.
fn streak_line(data: &Value) -> Option<String> {
    let current = number(data, "current_streak")?;
    let longest = number(data, "longest_streak")?;
    let tier = text(data, "tier").map_or("", tier_ko);
    Some(format!("연속 {current}일 · 최장 {longest}일 · {tier}"))
}

/// `추가됨: #1 아침 걷기 (만들 습관)`.
fn added_line(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let title = text(data, "title")?;
    let kind = match text(data, "type") {
        Some("break") => " (끊을 습관)",
        Some("build") => " (만들 습관)",
        _ => "",
    };
    Some(format!("추가됨: #{id} {title}{kind}"))
}

/// `기록됨: #1 2025-03-10 완료`.
fn logged_line(data: &Value) -> Option<String> {
    let habit = number(data, "habit_id")?;
    let date = text(data, "date")?;
    let value = match text(data, "value")? {
        "done" => "완료",
        "blank" => "쉬는 날(공란)",
        other => other,
    };
    Some(format!("기록됨: #{habit} {date} {value}"))
}

/// The Korean name of a streak tier as it appears in results (`seed` → `씨앗`).
pub(crate) fn tier_ko(tier: &str) -> &str {
    match tier {
        "seed" => "씨앗",
        "sprout" => "새싹",
        "rooting" => "뿌리내림",
        "rooted" => "자리잡음",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(name: &str, data: Value) -> String {
        let (kind, line) = summarize(name, &ToolResult::ok(data));
        assert_eq!(kind, Kind::Ok);
        line
    }

    #[test]
    fn each_habit_tool_has_a_readable_line() {
        assert_eq!(
            ok(
                "search_catalog",
                json!({"count": 4, "items": [
                    {"id": "build.a", "title": "가"}, {"id": "build.b", "title": "나"},
                    {"id": "build.c", "title": "다"}, {"id": "build.d", "title": "라"}]})
            ),
            "4개 찾음: 가 [build.a], 나 [build.b], 다 [build.c] …"
        );
        assert_eq!(
            ok("search_catalog", json!({"count": 0, "items": []})),
            "찾은 항목이 없습니다"
        );
        assert_eq!(
            ok(
                "add_habit",
                json!({"habit_id": 1, "title": "아침 걷기", "type": "build", "frame_level": 2})
            ),
            "추가됨: #1 아침 걷기 (만들 습관)"
        );
        assert_eq!(
            ok(
                "log_tracker_entry",
                json!({"entry_id": 9, "habit_id": 1, "date": "2025-03-10", "value": "done"})
            ),
            "기록됨: #1 2025-03-10 완료"
        );
        assert_eq!(
            ok(
                "get_streak",
                json!({"current_streak": 8, "longest_streak": 8, "tier": "sprout"})
            ),
            "연속 8일 · 최장 8일 · 새싹"
        );
        assert_eq!(
            ok(
                "list_active_habits",
                json!({"count": 1, "items": [{"id": 1, "framed_text": "물 한 잔"}]})
            ),
            "활성 습관 1개: #1 물 한 잔"
        );
    }

    #[test]
    fn unexpected_shapes_and_unknown_tools_fall_back() {
        assert_eq!(ok("add_habit", json!("weird")), "완료");
        assert_eq!(
            ok(
                "query_protocol",
                json!({"id": "break.x", "title": "야식", "kind": "break"})
            ),
            "야식 [break.x] — 끊을 습관"
        );
        assert_eq!(ok("my_tool", json!({"x": 1})), "완료");
    }

    #[test]
    fn errors_and_cancellations_are_one_line() {
        let (kind, line) = summarize("add_habit", &ToolResult::error("r3_quota", "R3:\nfull"));
        assert_eq!(kind, Kind::Error);
        assert_eq!(line, "실패 (r3_quota): R3: full");
        let (kind, line) = summarize("add_habit", &ToolResult::cancelled());
        assert_eq!(kind, Kind::Cancelled);
        assert!(line.contains("cancelled"), "{line}");
    }
}
