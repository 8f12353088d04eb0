//! `log_tracker_entry` and `get_streak` through the dispatcher: R5, dates, values, unknown
//! habits, and a streak built day by day with a moving clock.

use std::sync::Arc;

use agent_core::ApproveAll;
use jiff::ToSpan;
use serde_json::json;

use crate::support::{Harness, TODAY, code, keys, reason};

/// A harness with one build habit added on `added`, and the clock at `TODAY`.
async fn with_habit_added(added: habit_tools::Date) -> (Harness, i64) {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    h.clock.set(added);
    let id = h.add("build.morning-walk", "아침 10분 걷기").await;
    h.clock.set(TODAY);
    (h, id)
}

#[tokio::test]
async fn logging_returns_the_entry_and_defaults_to_today() {
    let (h, id) = with_habit_added(TODAY).await;
    let logged = h
        .ok(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "note": "상쾌했다"}),
        )
        .await;
    assert_eq!(keys(&logged), ["entry_id", "habit_id", "date", "value"]);
    assert_eq!(
        (
            logged["habit_id"].as_i64(),
            logged["date"].as_str(),
            logged["value"].as_str()
        ),
        (Some(id), Some("2025-03-10"), Some("done"))
    );
}

#[tokio::test]
async fn r5_one_entry_per_habit_and_day_whatever_the_value() {
    let (h, id) = with_habit_added(TODAY - 3.days()).await;
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": id, "value": "done"}),
    )
    .await;
    for (value, date) in [
        ("done", json!(null)),
        ("blank", json!("2025-03-10")),
        ("done", json!("오늘")),
    ] {
        let again = h
            .call(
                "log_tracker_entry",
                json!({"habit_id": id, "value": value, "date": date}),
            )
            .await;
        assert_eq!(code(&again), "duplicate", "{value} {date}");
        assert!(reason(&again).contains("R5"), "{}", reason(&again));
    }
    // Other days are free.
    let yesterday = h
        .ok(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "date": "yesterday"}),
        )
        .await;
    assert_eq!(yesterday["date"], "2025-03-09");
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": id, "value": "blank", "date": "2025-03-08"}),
    )
    .await;
    let streak = streak(&h, id).await;
    assert_eq!(
        streak["done_count_30d"], 2,
        "the refused duplicates wrote nothing"
    );
}

#[tokio::test]
async fn dates_that_are_not_dates_or_in_the_future_are_refused() {
    let (h, id) = with_habit_added(TODAY - 10.days()).await;
    for date in [
        "2025-02-30",
        "2025-3-1",
        "03/01/2025",
        "tomorrow",
        "2025-03-01T09:00",
        "9".repeat(1000).as_str(),
    ] {
        let result = h
            .call(
                "log_tracker_entry",
                json!({"habit_id": id, "value": "done", "date": date}),
            )
            .await;
        assert_eq!(code(&result), "invalid_date", "{date:.20}");
        assert!(reason(&result).len() < 200);
    }
    let future = h
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "date": "2025-03-11"}),
        )
        .await;
    assert_eq!(code(&future), "future_date");
    assert!(
        reason(&future).contains("2025-03-10"),
        "{}",
        reason(&future)
    );
    // A blank in the future is refused too, even though it needs no confirmation.
    let future_blank = h
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "blank", "date": "2026-01-01"}),
        )
        .await;
    assert_eq!(code(&future_blank), "future_date");
    // Before the habit existed.
    let before = h
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "date": "2025-02-27"}),
        )
        .await;
    assert_eq!(code(&before), "invalid_date");
    let streak = streak(&h, id).await;
    assert_eq!(streak["done_count_30d"], 0);
    assert_eq!(streak["longest_streak"], 0);
}

#[tokio::test]
async fn values_outside_done_and_blank_are_validation_errors() {
    let (h, id) = with_habit_added(TODAY).await;
    for value in [
        json!("maybe"),
        json!("DONE"),
        json!("완료"),
        json!(true),
        json!(null),
    ] {
        let result = h
            .call("log_tracker_entry", json!({"habit_id": id, "value": value}))
            .await;
        assert_eq!(code(&result), "validation", "{value}");
        assert!(reason(&result).contains("value"), "{}", reason(&result));
    }
    let missing = h.call("log_tracker_entry", json!({"habit_id": id})).await;
    assert_eq!(code(&missing), "validation");
    let note = h
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "note": "메".repeat(281)}),
        )
        .await;
    assert_eq!(code(&note), "validation");
    let note = h
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done", "note": "a\u{0}b"}),
        )
        .await;
    assert_eq!(code(&note), "invalid_text");
    let streak = streak(&h, id).await;
    assert_eq!(streak["done_count_30d"], 0);
}

#[tokio::test]
async fn unknown_habits_are_not_found() {
    let (h, id) = with_habit_added(TODAY).await;
    for missing in [id + 1, 0, -5, i64::MAX] {
        let log = h
            .call(
                "log_tracker_entry",
                json!({"habit_id": missing, "value": "done"}),
            )
            .await;
        assert_eq!(code(&log), "not_found", "{missing}");
        let blank = h
            .call(
                "log_tracker_entry",
                json!({"habit_id": missing, "value": "blank"}),
            )
            .await;
        assert_eq!(code(&blank), "not_found", "{missing}");
        let streak = h.call("get_streak", json!({"habit_id": missing})).await;
        assert_eq!(code(&streak), "not_found", "{missing}");
    }
    for bad in [json!("1"), json!(1.5), json!(null)] {
        assert_eq!(
            code(&h.call("get_streak", json!({"habit_id": bad})).await),
            "validation",
            "{bad}"
        );
    }
}

/// The streak of habit `id`, which must exist.
async fn streak(h: &Harness, id: i64) -> serde_json::Value {
    h.ok("get_streak", json!({"habit_id": id})).await
}

/// A habit followed for real, one tool call per day: the streak grows, crosses a tier,
/// survives a deliberate blank for never-miss-twice, and breaks on two missed days.
#[tokio::test]
async fn a_streak_built_day_by_day() {
    let start = TODAY - 30.days();
    let (h, id) = with_habit_added(start).await;
    // Days 1–8 done.
    for day in 0..8 {
        h.clock.set(start + day.days());
        h.ok(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done"}),
        )
        .await;
    }
    let s = streak(&h, id).await;
    assert_eq!(
        (s["current_streak"].as_u64(), s["tier"].as_str()),
        (Some(8), Some("sprout"))
    );
    assert_eq!(s["never_miss_twice_broken"], false);

    // Day 9 a deliberate blank, day 10 done: the streak restarts but nothing was missed.
    h.clock.set(start + 8.days());
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": id, "value": "blank"}),
    )
    .await;
    h.clock.set(start + 9.days());
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": id, "value": "done"}),
    )
    .await;
    let s = streak(&h, id).await;
    assert_eq!(
        (s["current_streak"].as_u64(), s["longest_streak"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(
        (s["tier"].as_str(), s["never_miss_twice_broken"].as_bool()),
        (Some("seed"), Some(false))
    );

    // Days 11 and 12 missed entirely; day 13 done, logged the next day as "yesterday".
    h.clock.set(start + 13.days());
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": id, "value": "done", "date": "어제"}),
    )
    .await;
    let s = streak(&h, id).await;
    assert_eq!(
        s["current_streak"], 1,
        "ends yesterday while today is still open"
    );
    assert_eq!(s["never_miss_twice_broken"], true);
    assert_eq!(s["done_count_30d"], 10);
    assert_eq!(s["done_count_phase42"], 10);
    assert_eq!(
        keys(&s),
        [
            "current_streak",
            "longest_streak",
            "done_count_30d",
            "done_count_phase42",
            "tier",
            "never_miss_twice_broken"
        ]
    );
}

#[tokio::test]
async fn a_log_that_was_missed_is_not_a_day_off() {
    let (h, _) = with_habit_added(TODAY).await;
    let values_said = |request: &str| h.values_for("log_tracker_entry", "value", request);
    assert_eq!(values_said("1번 오늘 했어"), ["done"]);
    assert_eq!(values_said("1번 오늘은 못 했어"), ["blank"]);
    assert_eq!(values_said("오늘은 쉴게"), ["blank"]);
    // What was not done is the logging: the habit was.
    assert_eq!(
        values_said("아 어제 걷기 깜빡하고 기록 안 했네. 넣어줘"),
        ["done"]
    );
    assert_eq!(values_said("1번 체크 못 했는데 지금 해줘"), ["done"]);
}

#[tokio::test]
async fn with_no_habit_yet_there_is_no_habit_id_to_write() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let habit_ids = |h: &Harness, tool: &str| {
        agent_core::choice::values_for(&h.tools, "오늘 걷기 했어")
            .get(tool)
            .and_then(|params| params.get("habit_id"))
            .map(|choices| choices.iter().map(|c| c.value.clone()).collect::<Vec<_>>())
    };
    // An empty list, not an unrestricted parameter: the agent answers that there is
    // nothing to choose instead of letting the model invent an id for a person to confirm.
    for tool in ["log_tracker_entry", "get_streak"] {
        assert_eq!(habit_ids(&h, tool), Some(Vec::new()), "{tool}");
    }
    let id = h.add("build.morning-walk", "아침 10분 걷기").await;
    assert_eq!(habit_ids(&h, "log_tracker_entry"), Some(vec![json!(id)]));
}
