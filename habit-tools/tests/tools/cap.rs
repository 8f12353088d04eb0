//! Results stay under the 2 KB cap agent-core applies before a result goes back to the model,
//! so the model sees whole results, never truncated ones, in normal use.

use std::sync::Arc;

use agent_core::{ApproveAll, ResultCap};
use serde_json::{Value, json};

use crate::support::Harness;

/// Dispatches and checks the result fits the default cap uncut; returns its size in bytes.
async fn fits(h: &Harness, name: &str, args: Value) -> usize {
    let result = h.call(name, args.clone()).await;
    assert!(result.is_ok(), "{name}({args}): {}", result.to_value());
    let capped = ResultCap::default().apply(&result);
    assert!(
        !capped.truncated,
        "{name}({args}) is {} bytes",
        result.to_value().to_string().len()
    );
    capped.json.len()
}

#[tokio::test]
async fn every_search_fits() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let mut largest = fits(&h, "search_catalog", json!({"limit": 10})).await;
    for category in habit_tools::catalog().categories() {
        let args = json!({"category": category.id, "limit": 10});
        largest = largest.max(fits(&h, "search_catalog", args).await);
    }
    for keyword in ["습관", "하기", "식단", "수면 운동 마음 건강", "a e i o u"] {
        let args = json!({"keyword": keyword, "limit": 10});
        largest = largest.max(fits(&h, "search_catalog", args).await);
    }
    println!("largest search_catalog result: {largest} bytes");
}

#[tokio::test]
async fn every_catalog_entry_fits() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let mut largest = (0, String::new());
    for entry in habit_tools::catalog().entries() {
        let size = fits(&h, "query_protocol", json!({"id": entry.id})).await;
        largest = largest.max((size, entry.id.clone()));
    }
    println!(
        "largest query_protocol result: {} bytes ({})",
        largest.0, largest.1
    );
}

/// A full house (3 build + 1 break habits, R3's maximum) with every optional text filled in at
/// a generous everyday length.
#[tokio::test]
async fn a_full_list_and_the_write_results_fit() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let habits = [
        (
            "build.morning-walk",
            "아침 커피를 내린 후 현관을 나서서 동네 한 바퀴를 10분 동안 걷기",
        ),
        (
            "build.read-10-pages",
            "잠자리에 들기 전에 거실 소파에서 종이책을 10쪽 읽고 한 줄 남기기",
        ),
        (
            "build.water-first",
            "알람을 끄자마자 머리맡에 둔 물 한 컵을 천천히 다 마시기",
        ),
        (
            "break.late-night-snacking",
            "밤 9시 이후 배가 출출하면 따뜻한 보리차 한 잔을 마시고 양치하기",
        ),
    ];
    for (protocol_id, framed_text) in habits {
        let args = json!({
            "protocol_id": protocol_id,
            "frame_level": 2,
            "framed_text": framed_text,
            "anchor_when": "평일 아침 7시 반쯤",
            "anchor_after_what": "알람을 끄고 이불을 갠 다음",
            "dose_text": "10분 또는 한 컵",
        });
        fits(&h, "add_habit", args).await;
    }
    let size = fits(&h, "list_active_habits", json!({})).await;
    println!("list_active_habits with four habits: {size} bytes");
    let list = h.ok("list_active_habits", json!({})).await;
    for (item, (_, framed_text)) in list["items"].as_array().unwrap().iter().zip(habits) {
        assert_eq!(
            item["framed_text"], framed_text,
            "everyday texts are not clipped"
        );
    }
    fits(&h, "get_streak", json!({"habit_id": 1})).await;
    fits(
        &h,
        "log_tracker_entry",
        json!({"habit_id": 1, "value": "done", "note": "메모".repeat(140)}),
    )
    .await;
}

/// Not normal use, but possible: four habits with every text at its limit (about 5 KB as
/// stored). The tool clips the longest texts so the list still fits whole: every habit and id
/// stays visible to the model, and nothing is cut by the cap.
#[tokio::test]
async fn at_every_text_limit_the_list_is_clipped_but_keeps_every_habit() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    for protocol_id in [
        "build.morning-walk",
        "build.read-10-pages",
        "build.water-first",
        "break.snooze",
    ] {
        let args = json!({
            "protocol_id": protocol_id,
            "frame_level": 1,
            "framed_text": "가".repeat(120),
            "anchor_when": "나".repeat(80),
            "anchor_after_what": "다".repeat(80),
            "dose_text": "라".repeat(80),
        });
        assert!(h.call("add_habit", args).await.is_ok());
    }
    let size = fits(&h, "list_active_habits", json!({})).await;
    println!("list_active_habits at every text limit: {size} bytes after clipping");
    let list = h.ok("list_active_habits", json!({})).await;
    let items = list["items"].as_array().unwrap();
    assert_eq!(
        items
            .iter()
            .map(|i| i["id"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    for item in items {
        let text = item["framed_text"].as_str().unwrap();
        assert!(text.starts_with("가가가") && text.ends_with('…'), "{text}");
    }
    // The database keeps the full text; only the model's view is clipped.
    let stored = h.coach.list_active_habits().unwrap();
    assert_eq!(stored.items[0].framed_text.chars().count(), 120);
}
