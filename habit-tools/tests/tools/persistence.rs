//! What the tools write is in the file: a new store, coach and registry over the same path
//! finds it, and the rules keep holding against it.

use std::sync::Arc;

use agent_core::ApproveAll;
use serde_json::json;

use crate::support::{Harness, code};

#[tokio::test]
async fn habits_and_entries_survive_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("habits.sqlite3");
    let (walk, snack) = {
        let h = Harness::on_file(&path, Arc::new(ApproveAll));
        let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
        let snack = h
            .add("break.late-night-snacking", "밤 9시 이후엔 보리차 마시기")
            .await;
        h.ok(
            "log_tracker_entry",
            json!({"habit_id": walk, "value": "done"}),
        )
        .await;
        h.ok(
            "log_tracker_entry",
            json!({"habit_id": snack, "value": "blank", "note": "회식"}),
        )
        .await;
        (walk, snack)
        // Registry, coach and store (the only connection) are dropped here.
    };

    let reopened = Harness::on_file(&path, Arc::new(ApproveAll));
    let listed = reopened.ok("list_active_habits", json!({})).await;
    assert_eq!(
        (
            listed["count"].clone(),
            listed["build_count"].clone(),
            listed["break_count"].clone()
        ),
        (json!(2), json!(1), json!(1))
    );
    assert_eq!(listed["items"][0]["id"], walk);
    assert_eq!(listed["items"][0]["framed_text"], "아침 커피 후 10분 걷기");
    assert_eq!(listed["items"][1]["id"], snack);

    let streak = reopened.ok("get_streak", json!({"habit_id": walk})).await;
    assert_eq!(
        (
            streak["current_streak"].clone(),
            streak["done_count_30d"].clone()
        ),
        (json!(1), json!(1))
    );
    // R5 and R3 see the old rows. (A `done` would replace the old blank; a second blank or
    // done is a duplicate.)
    for (habit, value) in [(snack, "blank"), (walk, "done"), (walk, "blank")] {
        let again = reopened
            .call(
                "log_tracker_entry",
                json!({"habit_id": habit, "value": value}),
            )
            .await;
        assert_eq!(code(&again), "duplicate", "{habit} {value}");
    }
    let second_break = reopened
        .call("add_habit", json!({"protocol_id": "break.snooze", "frame_level": 1, "framed_text": "알람이 울리면 창문 열기"}))
        .await;
    assert_eq!(code(&second_break), "r3_quota");
    // New ids continue after the old ones.
    let pushups = reopened
        .add("build.daily-pushups", "양치 후 푸시업 5개")
        .await;
    assert!(pushups > snack);
}
