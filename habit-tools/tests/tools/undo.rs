//! Undo through the dispatcher, on a real SQLite file: each destructive tool's call is
//! journaled in the file, and its undo returns the database to its state before the call —
//! or is refused, changing nothing, when the state has moved on since. The journal and the
//! undo survive reopening the file.

use std::path::Path;
use std::sync::Arc;

use agent_core::{ApproveAll, Confirmed, JournalEntry, Messages};
use serde_json::json;

use crate::support::{Harness, code};

/// Every row of `table`, in id order, each column as SQLite's value (debug text).
fn rows(path: &Path, table: &str) -> Vec<Vec<String>> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare(&format!("SELECT * FROM {table} ORDER BY id"))
        .unwrap();
    let columns = stmt.column_count();
    stmt.query_map([], |row| {
        (0..columns)
            .map(|i| {
                row.get::<_, rusqlite::types::Value>(i)
                    .map(|v| format!("{v:?}"))
            })
            .collect::<Result<Vec<_>, _>>()
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

fn last(h: &Harness) -> JournalEntry {
    h.tools.last_undoable().expect("a call to undo")
}

#[tokio::test]
async fn undoing_a_check_in_removes_the_entry_it_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    h.clock.set(crate::support::TODAY.tomorrow().unwrap());
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done", "date": "yesterday"}),
    )
    .await;
    let before = rows(&path, "tracker_entries");

    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done", "note": "공원"}),
    )
    .await;
    let entry = last(&h);
    assert_eq!(entry.record.tool, "log_tracker_entry");
    assert_eq!(entry.record.confirmed, Confirmed::Confirmer);
    let undone = h.tools.undo(&entry, &Messages::default()).await;
    assert!(undone.is_ok(), "{}", undone.to_value());
    assert_eq!(rows(&path, "tracker_entries"), before);
}

#[tokio::test]
async fn undoing_a_done_that_replaced_a_blank_brings_the_blank_back_with_its_note() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "blank", "note": "비"}),
    )
    .await;
    let blank = last(&h);
    assert_eq!(blank.record.confirmed, Confirmed::NotAsked);
    let before = rows(&path, "tracker_entries");

    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done"}),
    )
    .await;
    assert_ne!(rows(&path, "tracker_entries"), before);
    let undone = h.tools.undo(&last(&h), &Messages::default()).await;
    assert!(undone.is_ok(), "{}", undone.to_value());
    assert_eq!(rows(&path, "tracker_entries"), before);

    // Done again, then the *blank's* call undone: the day no longer holds what it wrote.
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done"}),
    )
    .await;
    let after = rows(&path, "tracker_entries");
    let refused = h.tools.undo(&blank, &Messages::default()).await;
    assert_eq!(code(&refused), "state_changed");
    assert_eq!(
        rows(&path, "tracker_entries"),
        after,
        "a refused undo changes nothing"
    );
}

#[tokio::test]
async fn undoing_an_added_habit_takes_it_off_the_list_unless_it_was_logged_since() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    let listed_before = h.ok("list_active_habits", json!({})).await;
    let entries_before = rows(&path, "tracker_entries");

    let stairs = h.add("build.take-stairs", "계단 오르기").await;
    let added = last(&h);
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": stairs, "value": "done"}),
    )
    .await;
    let habits = rows(&path, "habits");
    let refused = h.tools.undo(&added, &Messages::default()).await;
    assert_eq!(code(&refused), "state_changed");
    assert_eq!(
        rows(&path, "habits"),
        habits,
        "a refused undo changes nothing"
    );

    // Undo walks back: first the check-in, then the habit.
    assert!(h.tools.undo(&last(&h), &Messages::default()).await.is_ok());
    let undone = h.tools.undo(&last(&h), &Messages::default()).await;
    assert!(undone.is_ok(), "{}", undone.to_value());
    assert_eq!(h.ok("list_active_habits", json!({})).await, listed_before);
    assert_eq!(rows(&path, "tracker_entries"), entries_before);
    // Archived, not deleted: the journal's ids keep naming the same habit.
    assert_eq!(rows(&path, "habits").len(), 2);
    // Its slot is free again: the same protocol can be added anew.
    h.add("build.take-stairs", "계단 오르기").await;
}

#[tokio::test]
async fn the_journal_and_its_undo_survive_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    {
        let h = Harness::on_file(&path, Arc::new(ApproveAll));
        h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    }
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    let history = h.registry.journal().recent(10).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        history[0].record.summary,
        "'아침 커피 후 10분 걷기' 습관을 추가합니다"
    );
    let undone = h.tools.undo(&last(&h), &Messages::default()).await;
    assert!(undone.is_ok(), "{}", undone.to_value());
    assert_eq!(h.active_count().await, 0);
    let history = h.registry.journal().recent(10).unwrap();
    assert_eq!(history[0].record.undo_of, Some(history[1].id));
    assert_eq!(history[0].record.label, "습관 추가 되돌리기");
}

#[tokio::test]
async fn stopping_rewording_and_correcting_are_each_undone_to_the_state_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    h.clock.set(crate::support::TODAY.tomorrow().unwrap());
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done", "date": "yesterday"}),
    )
    .await;
    let (habits, entries) = (rows(&path, "habits"), rows(&path, "tracker_entries"));

    let stopped = h.ok("stop_habit", json!({"habit_id": walk})).await;
    assert_eq!(stopped["framed_text"], "아침 커피 후 10분 걷기");
    assert_eq!(h.active_count().await, 0);
    assert!(h.tools.undo(&last(&h), &Messages::default()).await.is_ok());
    assert_eq!(rows(&path, "habits"), habits);

    let updated = h
        .ok(
            "update_habit_text",
            json!({"habit_id": walk, "framed_text": "점심 먹고 10분 걷기"}),
        )
        .await;
    assert_eq!(updated["previous_text"], "아침 커피 후 10분 걷기");
    assert!(h.tools.undo(&last(&h), &Messages::default()).await.is_ok());
    assert_eq!(rows(&path, "habits"), habits);

    let corrected = h
        .ok(
            "correct_tracker_entry",
            json!({"habit_id": walk, "value": "blank", "date": "yesterday"}),
        )
        .await;
    assert_eq!(corrected["previous_value"], "done");
    assert!(h.tools.undo(&last(&h), &Messages::default()).await.is_ok());
    assert_eq!(rows(&path, "tracker_entries"), entries);
}

#[tokio::test]
async fn undoing_a_stop_is_refused_once_the_slot_or_the_protocol_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let h = Harness::on_file(&path, Arc::new(ApproveAll));
    let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    h.ok("stop_habit", json!({"habit_id": walk})).await;
    let stop = last(&h);
    h.add("build.morning-walk", "아침 20분 걷기").await;
    let habits = rows(&path, "habits");
    let refused = h.tools.undo(&stop, &Messages::default()).await;
    assert_eq!(code(&refused), "state_changed");
    assert_eq!(rows(&path, "habits"), habits);

    let reworded = h.add("build.take-stairs", "계단 오르기").await;
    h.ok(
        "update_habit_text",
        json!({"habit_id": reworded, "framed_text": "계단으로 3층"}),
    )
    .await;
    let update = last(&h);
    h.ok(
        "update_habit_text",
        json!({"habit_id": reworded, "framed_text": "계단으로 5층"}),
    )
    .await;
    let habits = rows(&path, "habits");
    assert_eq!(
        code(&h.tools.undo(&update, &Messages::default()).await),
        "state_changed"
    );
    assert_eq!(rows(&path, "habits"), habits);
}

#[tokio::test]
async fn a_correction_needs_an_entry_and_a_change() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let walk = h.add("build.morning-walk", "아침 커피 후 10분 걷기").await;
    let missing = h
        .call(
            "correct_tracker_entry",
            json!({"habit_id": walk, "value": "blank"}),
        )
        .await;
    assert_eq!(code(&missing), "not_found");
    h.ok(
        "log_tracker_entry",
        json!({"habit_id": walk, "value": "done"}),
    )
    .await;
    let same = h
        .call(
            "correct_tracker_entry",
            json!({"habit_id": walk, "value": "done"}),
        )
        .await;
    assert_eq!(code(&same), "duplicate");
    let avoidance = h
        .call(
            "update_habit_text",
            json!({"habit_id": walk, "framed_text": "야식 먹지 않기"}),
        )
        .await;
    assert_eq!(code(&avoidance), "r7_avoidance");
}
