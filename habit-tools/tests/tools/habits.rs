//! `add_habit` and `list_active_habits` through the dispatcher: R3, R7, R8, unknown ids,
//! bad text, and that every refusal leaves the database as it was.

use std::sync::Arc;

use agent_core::ApproveAll;
use serde_json::{Value, json};

use crate::support::{Harness, code, keys, reason};

fn harness() -> Harness {
    Harness::in_memory(Arc::new(ApproveAll))
}

fn add_args(protocol_id: &str, framed_text: &str) -> Value {
    json!({"protocol_id": protocol_id, "frame_level": 2, "framed_text": framed_text})
}

#[tokio::test]
async fn an_added_habit_is_listed_with_its_fields() {
    let h = harness();
    let added = h
        .ok(
            "add_habit",
            json!({
                "protocol_id": "build.morning-walk",
                "frame_level": 3,
                "framed_text": "  나는 매일 아침 걷는 사람  ",
                "anchor_when": "아침 7시",
                "anchor_after_what": "커피를 내린 후",
                "dose_text": "10분",
            }),
        )
        .await;
    assert_eq!(
        added,
        json!({"habit_id": added["habit_id"], "title": "아침 10분 걷기", "type": "build", "frame_level": 3})
    );
    let listed = h.ok("list_active_habits", json!({})).await;
    assert_eq!(
        listed,
        json!({
            "count": 1, "build_count": 1, "break_count": 0,
            "build_quota_remaining": 2, "break_quota_remaining": 1,
            "items": [{
                "id": added["habit_id"], "title": "아침 10분 걷기", "type": "build",
                "protocol_id": "build.morning-walk", "framed_text": "나는 매일 아침 걷는 사람",
                "anchor_when": "아침 7시", "anchor_after_what": "커피를 내린 후", "dose_text": "10분",
            }],
        })
    );
}

#[tokio::test]
async fn empty_lists_and_blank_optional_text() {
    let h = harness();
    let empty = h.ok("list_active_habits", json!({})).await;
    assert_eq!(
        empty,
        json!({"count": 0, "build_count": 0, "break_count": 0, "build_quota_remaining": 3, "break_quota_remaining": 1, "items": []})
    );
    // Small models send "" or null for optional arguments they do not use.
    let mut args = add_args("build.read-10-pages", "자기 전 책 10쪽 읽기");
    args["anchor_when"] = json!("");
    args["anchor_after_what"] = Value::Null;
    args["dose_text"] = json!("   ");
    h.ok("add_habit", args).await;
    let item = &h.ok("list_active_habits", json!({})).await["items"][0];
    assert_eq!(
        keys(item),
        ["id", "title", "type", "protocol_id", "framed_text"]
    );
}

#[tokio::test]
async fn r3_allows_three_build_habits_and_one_break_habit() {
    let h = harness();
    h.add("build.morning-walk", "아침 10분 걷기").await;
    h.add("build.read-10-pages", "자기 전 책 10쪽 읽기").await;
    h.add("build.water-first", "일어나면 물 한 컵 마시기").await;
    let fourth = h
        .call(
            "add_habit",
            add_args("build.pomodoro", "25분 집중하고 5분 쉬기"),
        )
        .await;
    assert_eq!(code(&fourth), "r3_quota");
    assert!(reason(&fourth).contains("R3"), "{}", reason(&fourth));

    h.add("break.late-night-snacking", "밤 9시 이후엔 보리차 마시기")
        .await;
    let second_break = h
        .call(
            "add_habit",
            add_args("break.snooze", "알람이 울리면 바로 일어나 창문 열기"),
        )
        .await;
    assert_eq!(code(&second_break), "r3_quota");

    let listed = h.ok("list_active_habits", json!({})).await;
    assert_eq!(
        (
            listed["count"].clone(),
            listed["build_quota_remaining"].clone(),
            listed["break_quota_remaining"].clone()
        ),
        (json!(4), json!(0), json!(0))
    );
    // Archiving frees a slot (the domain's way, beside `stop_habit`).
    let first = listed["items"][0]["id"].as_i64().unwrap();
    h.coach.archive_habit(first).unwrap();
    h.add("build.pomodoro", "25분 집중하고 5분 쉬기").await;
}

#[tokio::test]
async fn r7_refuses_avoidance_wording_and_names_it() {
    let h = harness();
    for (text, phrase) in [
        ("야식 안 먹기", "안 먹기"),
        ("밤에 휴대폰 보지 말기", "지 말기"),
        ("군것질 금지", "금지"),
        ("Don't skip the walk", "don't"),
    ] {
        let result = h
            .call("add_habit", add_args("build.morning-walk", text))
            .await;
        assert_eq!(code(&result), "r7_avoidance", "{text}");
        assert!(
            reason(&result).contains(&format!("\"{phrase}\"")),
            "{text}: {}",
            reason(&result)
        );
    }
    // Break habits are framed by their replacement too.
    let result = h
        .call("add_habit", add_args("break.smoking", "담배 끊기"))
        .await;
    assert_eq!(code(&result), "r7_avoidance");
    assert_eq!(h.active_count().await, 0);
}

#[tokio::test]
async fn r8_refuses_a_diet_and_unknown_ids_are_not_found() {
    let h = harness();
    let diet = h
        .call(
            "add_habit",
            add_args("diet.mediterranean", "매 끼니 채소 한 접시 먹기"),
        )
        .await;
    assert_eq!(code(&diet), "r8_xor");
    for id in ["build.moon-walk", "walk", ""] {
        let result = h.call("add_habit", add_args(id, "아침 10분 걷기")).await;
        assert_eq!(code(&result), "not_found", "{id:?}");
    }
    assert_eq!(h.active_count().await, 0);
}

#[tokio::test]
async fn a_second_active_habit_from_one_protocol_is_a_duplicate() {
    let h = harness();
    let first = h.add("build.morning-walk", "아침 10분 걷기").await;
    let again = h
        .call(
            "add_habit",
            add_args("build.morning-walk", "저녁 10분 걷기"),
        )
        .await;
    assert_eq!(code(&again), "duplicate");
    assert!(
        reason(&again).contains(&first.to_string()),
        "{}",
        reason(&again)
    );
    assert_eq!(h.active_count().await, 1);
}

#[tokio::test]
async fn bad_text_is_refused_by_the_schema_or_the_domain() {
    let h = harness();
    let long = "가".repeat(121);
    let control = "아침\u{7} 걷기";
    let cases = [
        // The schema sees these (length limits, types).
        (add_args("build.morning-walk", ""), "validation"),
        (add_args("build.morning-walk", &long), "validation"),
        (
            json!({"protocol_id": "build.morning-walk", "frame_level": 2}),
            "validation",
        ),
        (
            json!({"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "걷기", "dose_text": "분".repeat(81)}),
            "validation",
        ),
        // The domain sees these (only whitespace; control characters).
        (add_args("build.morning-walk", "   "), "invalid_text"),
        (add_args("build.morning-walk", control), "invalid_text"),
        (
            json!({"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "걷기", "anchor_when": "\u{1b}[2J"}),
            "invalid_text",
        ),
        // Issue 9: invisible-only text is empty; line breaks and bidi controls are refused.
        (add_args("build.morning-walk", "\u{FEFF}"), "invalid_text"),
        (
            add_args(
                "build.morning-walk",
                &format!("걷기{}│ ▶ 가짜", "\n".repeat(40)),
            ),
            "invalid_text",
        ),
        (
            add_args("build.morning-walk", "\u{202E}기걷 분01"),
            "invalid_text",
        ),
        (
            add_args("build.morning-walk", "야식 안\u{200B} 먹기"),
            "invalid_text",
        ),
        // And disguised avoidance wording that uses no invisible character at all.
        (
            add_args("build.morning-walk", "ЅТОР snacking"),
            "r7_avoidance",
        ),
        (
            add_args("build.morning-walk", "ｄｏｎ'ｔ snack"),
            "r7_avoidance",
        ),
    ];
    for (args, expected) in cases {
        let result = h.call("add_habit", args.clone()).await;
        assert_eq!(code(&result), expected, "{args}");
    }
    // Exactly at the limit is fine.
    h.add("build.morning-walk", &"가".repeat(120)).await;
}

#[tokio::test]
async fn frame_level_outside_one_to_three_is_a_validation_error() {
    let h = harness();
    for level in [json!(0), json!(4), json!(-1), json!(2.5), json!("2")] {
        let args = json!({"protocol_id": "build.morning-walk", "frame_level": level, "framed_text": "걷기"});
        let result = h.call("add_habit", args).await;
        assert_eq!(code(&result), "validation", "{level}");
        assert!(
            reason(&result).contains("frame_level"),
            "{}",
            reason(&result)
        );
    }
    assert_eq!(h.active_count().await, 0);
}

#[tokio::test]
async fn unknown_tools_and_extra_arguments() {
    let h = harness();
    let result = h.call("delete_everything", json!({})).await;
    assert_eq!(code(&result), "unknown_tool");
    assert!(
        reason(&result).contains("add_habit"),
        "the reason lists the real tools"
    );
    // Invented extra keys are ignored, as the dispatcher promises.
    let mut args = add_args("build.morning-walk", "아침 10분 걷기");
    args["mood"] = json!("great");
    h.ok("add_habit", args).await;
}

#[tokio::test]
async fn an_identity_sentence_is_written_at_level_three() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let levels = |request: &str| h.values_for("add_habit", "frame_level", request);
    assert_eq!(levels("감사 일기 습관 만들어줘. 정체성으로"), [3]);
    assert_eq!(
        levels("스트레칭 습관 넣어줘: 나는 매일 몸을 푸는 사람"),
        [3]
    );
    assert_eq!(levels("3단계로 독서 습관 추가"), [3]);
    assert_eq!(
        levels("계단 오르기 습관 등록해줘"),
        [1, 2, 3],
        "no level named: the model's choice"
    );
}
