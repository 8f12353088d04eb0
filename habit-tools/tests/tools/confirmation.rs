//! The human in the loop: destructive calls ask first, show a readable request, and write
//! nothing when the answer is no; a deliberate blank is recorded without asking.

use std::path::PathBuf;
use std::sync::Arc;

use agent_core::{ApproveAll, DenyAll, ToolResult};
use serde_json::json;

use crate::support::{Harness, Recorder, code, reason};

fn walk() -> serde_json::Value {
    json!({
        "protocol_id": "build.morning-walk",
        "frame_level": 2,
        "framed_text": "아침 커피를 내린 후 동네 10분 걷기",
        "anchor_when": "아침",
    })
}

/// A fresh file in `dir` with one build habit, added through an approving registry; the
/// tests then open registries with other confirmers over the same file.
async fn approved_habit(dir: &tempfile::TempDir) -> (PathBuf, Harness, i64) {
    let path = dir.path().join("habits.sqlite3");
    let approving = Harness::on_file(&path, Arc::new(ApproveAll));
    let id = approving.add("build.morning-walk", "아침 10분 걷기").await;
    (path, approving, id)
}

#[tokio::test]
async fn an_approved_add_asks_once_with_label_and_summary() {
    let recorder = Recorder::approving();
    let h = Harness::in_memory(recorder.clone());
    let added = h.ok("add_habit", walk()).await;
    assert_eq!(added["type"], "build");
    let requests = recorder.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].tool, "add_habit");
    assert_eq!(requests[0].label, "습관 추가");
    assert_eq!(
        requests[0].summary,
        "'아침 커피를 내린 후 동네 10분 걷기' 습관을 추가합니다"
    );
    assert_eq!(requests[0].args, walk());
    assert_eq!(h.active_count().await, 1);
}

#[tokio::test]
async fn a_denied_add_is_cancelled_and_writes_nothing() {
    let h = Harness::in_memory(Arc::new(DenyAll));
    let result = h.call("add_habit", walk()).await;
    assert_eq!(result, ToolResult::cancelled());
    assert_eq!(
        result.to_value(),
        json!({"status": "cancelled", "reason": "user did not confirm"})
    );
    assert_eq!(h.active_count().await, 0);
    // Straight from the domain too, not only through the tool.
    assert_eq!(h.coach.list_active_habits().unwrap().count, 0);
}

#[tokio::test]
async fn a_denied_done_entry_is_cancelled_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // The habit is added with one registry (approving), the entry attempted with another
    // (denying) over the same file: the deny must leave the file without an entry.
    let (path, approving, id) = approved_habit(&dir).await;
    let recorder = Recorder::denying();
    let denying = Harness::on_file(&path, recorder.clone());
    let result = denying
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done"}),
        )
        .await;
    assert_eq!(result, ToolResult::cancelled());
    assert_eq!(recorder.requests().len(), 1);
    assert_eq!(recorder.requests()[0].label, "기록하기");
    assert_eq!(
        recorder.requests()[0].summary,
        format!("{id}번 습관에 오늘 '완료' 기록을 남깁니다")
    );
    let streak = approving.ok("get_streak", json!({"habit_id": id})).await;
    assert_eq!(streak["done_count_30d"], 0);
    // Nothing was written, so the same entry can still be logged once approved.
    approving
        .ok(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "done"}),
        )
        .await;
}

#[tokio::test]
async fn a_blank_entry_runs_without_asking_even_under_deny_all() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _approving, id) = approved_habit(&dir).await;

    let recorder = Recorder::denying();
    let denying = Harness::on_file(&path, recorder.clone());
    let logged = denying
        .ok(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "blank"}),
        )
        .await;
    assert_eq!(logged["value"], "blank");
    assert!(recorder.requests().is_empty(), "a blank must not ask");

    let deny_all = Harness::on_file(&path, Arc::new(DenyAll));
    let yesterday = json!({"habit_id": id, "value": "blank", "date": "2025-03-09"});
    // The habit was added today, so yesterday is before it existed: the tool ran (no
    // confirmation was needed) and answered with the domain's error, not `cancelled`.
    assert_eq!(
        code(&deny_all.call("log_tracker_entry", yesterday).await),
        "invalid_date"
    );
    // And the blank is really in the database, seen by a coach on another connection.
    let again = deny_all
        .call(
            "log_tracker_entry",
            json!({"habit_id": id, "value": "blank"}),
        )
        .await;
    assert_eq!(code(&again), "duplicate");
}

/// Issue 9: a blank runs without asking, so it must not take the day from a `done` the user
/// confirms (R5 would otherwise answer `duplicate`), nor undo one afterwards.
#[tokio::test]
async fn an_unasked_blank_cannot_block_or_undo_a_confirmed_done() {
    let dir = tempfile::tempdir().unwrap();
    let (path, approving, id) = approved_habit(&dir).await;
    let blank = json!({"habit_id": id, "value": "blank"});
    let done = json!({"habit_id": id, "value": "done"});

    // The model records a blank nobody was asked about.
    let unasked = Recorder::denying();
    let denying = Harness::on_file(&path, unasked.clone());
    let blanked = denying.ok("log_tracker_entry", blank.clone()).await;
    assert!(unasked.requests().is_empty());
    // A denied done leaves the blank as it was.
    assert_eq!(
        denying.call("log_tracker_entry", done.clone()).await,
        ToolResult::cancelled()
    );
    let streak = approving.ok("get_streak", json!({"habit_id": id})).await;
    assert_eq!(streak["done_count_30d"], 0);

    // The user confirms a done: it takes the day (the blank's row), not `duplicate`.
    let asked = Recorder::approving();
    let confirming = Harness::on_file(&path, asked.clone());
    let logged = confirming.ok("log_tracker_entry", done.clone()).await;
    assert_eq!(asked.requests().len(), 1);
    assert_eq!(logged["value"], "done");
    assert_eq!(logged["entry_id"], blanked["entry_id"]);

    // A later blank, again unasked, cannot undo it; nor can a second done double it.
    let again = denying.call("log_tracker_entry", blank).await;
    assert_eq!(code(&again), "duplicate");
    assert!(reason(&again).contains("as done"), "{}", reason(&again));
    assert_eq!(
        code(&confirming.call("log_tracker_entry", done).await),
        "duplicate"
    );
    let streak = approving.ok("get_streak", json!({"habit_id": id})).await;
    assert_eq!(
        (
            streak["current_streak"].as_u64(),
            streak["done_count_30d"].as_u64()
        ),
        (Some(1), Some(1))
    );
}

#[tokio::test]
async fn read_only_tools_never_ask() {
    let recorder = Recorder::denying();
    let h = Harness::in_memory(recorder.clone());
    h.ok("search_catalog", json!({"keyword": "걷기"})).await;
    h.ok("query_protocol", json!({"id": "build.morning-walk"}))
        .await;
    h.ok("list_active_habits", json!({})).await;
    assert_eq!(
        code(&h.call("get_streak", json!({"habit_id": 1})).await),
        "not_found"
    );
    assert!(recorder.requests().is_empty());
}

#[tokio::test]
async fn invalid_arguments_are_refused_before_anyone_is_asked() {
    let recorder = Recorder::approving();
    let h = Harness::in_memory(recorder.clone());
    let bad = json!({"protocol_id": "build.morning-walk", "frame_level": 0, "framed_text": "걷기"});
    assert_eq!(code(&h.call("add_habit", bad).await), "validation");
    let bad = json!({"habit_id": 1, "value": "maybe"});
    assert_eq!(code(&h.call("log_tracker_entry", bad).await), "validation");
    assert!(recorder.requests().is_empty());
}
