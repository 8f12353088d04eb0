//! Rules that must hold when two writers race: two registries, each with its own coach and
//! SQLite connection, over one file, dispatching at the same moment on a multi-threaded
//! runtime (the tools' SQLite work runs on the blocking pool, so the calls really overlap).

use std::sync::Arc;

use agent_core::{ApproveAll, ToolResult};
use jiff::ToSpan;
use serde_json::json;

use crate::support::{Harness, TODAY, code};

/// Two registries over one fresh file, with one build habit added 30 days ago.
async fn two_writers(dir: &tempfile::TempDir) -> (Harness, Harness, i64) {
    let path = dir.path().join("habits.sqlite3");
    let a = Harness::on_file(&path, Arc::new(ApproveAll));
    let b = Harness::on_file(&path, Arc::new(ApproveAll));
    a.clock.set(TODAY - 30.days());
    let id = a.add("build.morning-walk", "아침 10분 걷기").await;
    a.clock.set(TODAY);
    (a, b, id)
}

/// Exactly one of two results is `ok`; the other is an error with `loser_code`.
fn exactly_one_wins(first: &ToolResult, second: &ToolResult, loser_code: &str) {
    let (winner, loser) = match (first.is_ok(), second.is_ok()) {
        (true, false) => (first, second),
        (false, true) => (second, first),
        _ => panic!(
            "expected exactly one winner: {} / {}",
            first.to_value(),
            second.to_value()
        ),
    };
    assert!(winner.is_ok());
    assert_eq!(code(loser), loser_code, "{}", loser.to_value());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r5_holds_when_two_writers_log_the_same_day() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, id) = two_writers(&dir).await;
    // Thirty rounds, one per day, alternating values, so the race is run many times.
    for day in 0..30 {
        let date = (TODAY - day.days()).to_string();
        let value = if day % 2 == 0 { "done" } else { "blank" };
        let args = json!({"habit_id": id, "value": value, "date": date});
        let (first, second) = tokio::join!(
            a.call("log_tracker_entry", args.clone()),
            b.call("log_tracker_entry", args.clone()),
        );
        exactly_one_wins(&first, &second, "duplicate");
    }
    // One entry per day in the file, whoever won: 15 done days in the last 30.
    let streak = b.ok("get_streak", json!({"habit_id": id})).await;
    assert_eq!(streak["done_count_30d"], 15);
}

/// A blank (which runs unasked) racing a confirmed done on the same day: whichever commits
/// first, the done is recorded and the day holds exactly one entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racing_blank_never_beats_a_done() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, id) = two_writers(&dir).await;
    for day in 0..20 {
        let date = (TODAY - day.days()).to_string();
        let (blank, done) = tokio::join!(
            a.call(
                "log_tracker_entry",
                json!({"habit_id": id, "value": "blank", "date": date})
            ),
            b.call(
                "log_tracker_entry",
                json!({"habit_id": id, "value": "done", "date": date})
            ),
        );
        assert!(done.is_ok(), "{date}: {}", done.to_value());
        // The blank either came first (and was replaced) or came second (and was refused).
        assert!(
            blank.is_ok() || code(&blank) == "duplicate",
            "{date}: {}",
            blank.to_value()
        );
    }
    let streak = a.ok("get_streak", json!({"habit_id": id})).await;
    assert_eq!(streak["current_streak"], 20);
    assert_eq!(streak["done_count_30d"], 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r3_holds_when_two_writers_take_the_last_slot() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, _) = two_writers(&dir).await;
    a.add("build.read-10-pages", "자기 전 책 10쪽 읽기").await;
    let add = |protocol_id: &str, text: &str| json!({"protocol_id": protocol_id, "frame_level": 1, "framed_text": text});
    let (first, second) = tokio::join!(
        a.call(
            "add_habit",
            add("build.water-first", "일어나면 물 한 컵 마시기")
        ),
        b.call("add_habit", add("build.pomodoro", "25분 집중하고 5분 쉬기")),
    );
    exactly_one_wins(&first, &second, "r3_quota");
    assert_eq!(a.active_count().await, 3);
    assert_eq!(b.active_count().await, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_protocol_stays_one_habit_when_two_writers_add_it() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, _) = two_writers(&dir).await;
    let args = json!({"protocol_id": "build.water-first", "frame_level": 1, "framed_text": "일어나면 물 한 컵 마시기"});
    let (first, second) =
        tokio::join!(a.call("add_habit", args.clone()), b.call("add_habit", args));
    exactly_one_wins(&first, &second, "duplicate");
    assert_eq!(b.active_count().await, 2);
}
