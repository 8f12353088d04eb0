//! The coach's own sentence about each tool's successful result, which the runtime answers
//! with when the model's words are not usable (see `agent_core::ToolDefinitionBuilder::reply`):
//! factual, short, and written only from the result, so it can never claim what did not
//! happen. A result of an unexpected shape gets no sentence (the runtime's generic one
//! stands in).

use serde_json::Value;

fn text<'a>(data: &'a Value, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Value::as_str)
}

fn number(data: &Value, key: &str) -> Option<i64> {
    data.get(key).and_then(Value::as_i64)
}

/// `search_catalog`: "2개를 찾았어요: 아침 10분 걷기, 양치 후 푸시업."
pub fn search(data: &Value) -> Option<String> {
    let items = data.get("items")?.as_array()?;
    if items.is_empty() {
        return Some("찾는 습관이 카탈로그에 없어요. 다른 말로 찾아볼까요?".to_owned());
    }
    let titles: Vec<&str> = items
        .iter()
        .take(3)
        .filter_map(|i| text(i, "title"))
        .collect();
    let more = if items.len() > titles.len() {
        " 등"
    } else {
        ""
    };
    Some(format!(
        "{}개를 찾았어요: {}{more}.",
        items.len(),
        titles.join(", ")
    ))
}

/// `query_protocol`: "'아침 10분 걷기': 아침에 10분 걸으며 몸을 깨우고 햇빛 쬐기."
pub fn protocol(data: &Value) -> Option<String> {
    let title = text(data, "title")?;
    let summary = text(data, "summary")?;
    Some(format!("'{title}': {summary}."))
}

/// `list_active_habits`: "지금 습관은 3개예요: 1번 …, 2번 …."
pub fn habits(data: &Value) -> Option<String> {
    let items = data.get("items")?.as_array()?;
    if items.is_empty() {
        return Some("아직 진행 중인 습관이 없어요. 카탈로그에서 찾아볼까요?".to_owned());
    }
    let listed: Vec<String> = items
        .iter()
        .filter_map(|h| {
            Some(format!(
                "{}번 {}",
                number(h, "id")?,
                text(h, "framed_text")?
            ))
        })
        .collect();
    Some(format!(
        "지금 습관은 {}개예요: {}.",
        items.len(),
        listed.join(", ")
    ))
}

/// `get_streak`: "지금 3일 연속이에요. 최근 30일 동안 5번 했어요."
pub fn streak(data: &Value) -> Option<String> {
    let current = number(data, "current_streak")?;
    let recent = number(data, "done_count_30d")?;
    Some(format!(
        "지금 {current}일 연속이에요. 최근 30일 동안 {recent}번 했어요."
    ))
}

/// `add_habit`: "'아침 10분 걷기' 습관을 4번으로 추가했어요."
pub fn added(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let title = text(data, "title")?;
    Some(format!("'{title}' 습관을 {id}번으로 추가했어요."))
}

/// `log_tracker_entry`: "1번 습관에 2025-03-10 '완료'를 기록했어요."
pub fn logged(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let date = text(data, "date")?;
    let value = match text(data, "value")? {
        "done" => "'완료'를",
        "blank" => "'쉼'을",
        _ => return None,
    };
    Some(format!("{id}번 습관에 {date} {value} 기록했어요."))
}

/// `stop_habit`: "2번 습관 '점심 먹고 걷기'를 그만뒀어요. 기록은 남아 있어요."
pub fn stopped(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let text = text(data, "framed_text")?;
    Some(format!(
        "{id}번 습관 '{text}'를 그만뒀어요. 기록은 남아 있어요."
    ))
}

/// `update_habit_text`: "1번 습관 문장을 '점심 먹고 10분 걷기'로 바꿨어요."
pub fn updated(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let text = text(data, "framed_text")?;
    Some(format!("{id}번 습관 문장을 '{text}'로 바꿨어요."))
}

/// `correct_tracker_entry`: "1번 습관의 2025-03-09 기록을 '쉼'으로 고쳤어요."
pub fn corrected(data: &Value) -> Option<String> {
    let id = number(data, "habit_id")?;
    let date = text(data, "date")?;
    let value = match text(data, "value")? {
        "done" => "'완료'로",
        "blank" => "'쉼'으로",
        _ => return None,
    };
    Some(format!("{id}번 습관의 {date} 기록을 {value} 고쳤어요."))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sentences_come_from_the_result_only() {
        let found = json!({"count": 2, "items": [{"title": "아침 10분 걷기"}, {"title": "양치 후 푸시업"}]});
        assert_eq!(
            search(&found).as_deref(),
            Some("2개를 찾았어요: 아침 10분 걷기, 양치 후 푸시업.")
        );
        assert_eq!(
            streak(&json!({"current_streak": 3, "done_count_30d": 5})).as_deref(),
            Some("지금 3일 연속이에요. 최근 30일 동안 5번 했어요.")
        );
        assert_eq!(
            logged(&json!({"habit_id": 1, "date": "2025-03-10", "value": "blank"})).as_deref(),
            Some("1번 습관에 2025-03-10 '쉼'을 기록했어요.")
        );
        assert_eq!(search(&json!({"unexpected": true})), None);
        assert_eq!(
            logged(&json!({"habit_id": 1, "date": "d", "value": "other"})),
            None
        );
    }
}
