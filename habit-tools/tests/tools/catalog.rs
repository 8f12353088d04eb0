//! `search_catalog` and `query_protocol` through the dispatcher.

use std::sync::Arc;

use agent_core::DenyAll;
use serde_json::{Value, json};

use crate::support::{Harness, code, keys, reason};

fn harness() -> Harness {
    Harness::in_memory(Arc::new(DenyAll))
}

fn ids(found: &Value) -> Vec<String> {
    found["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn search_returns_count_and_the_four_item_fields() {
    let h = harness();
    let found = h.ok("search_catalog", json!({})).await;
    assert_eq!(found["count"], 5, "default limit");
    assert_eq!(found["items"].as_array().unwrap().len(), 5);
    for item in found["items"].as_array().unwrap() {
        assert_eq!(keys(item), ["id", "title", "category", "summary"]);
    }
    let ten = h.ok("search_catalog", json!({"limit": 10})).await;
    assert_eq!(ten["count"], 10);
    let one = h.ok("search_catalog", json!({"limit": 1})).await;
    assert_eq!(one["count"], 1);
}

#[tokio::test]
async fn category_is_tolerant_of_case_and_language() {
    let h = harness();
    let korean = h
        .ok("search_catalog", json!({"category": "수면", "limit": 10}))
        .await;
    assert!(korean["count"].as_u64().unwrap() >= 3);
    for spelling in ["sleep", "Sleep", "SLEEP", " 수면 ", "잠"] {
        let found = h
            .ok("search_catalog", json!({"category": spelling, "limit": 10}))
            .await;
        assert_eq!(ids(&found), ids(&korean), "{spelling}");
    }
    for item in korean["items"].as_array().unwrap() {
        assert_eq!(item["category"], "수면");
    }
}

#[tokio::test]
async fn keyword_matches_korean_and_english() {
    let h = harness();
    let korean = h.ok("search_catalog", json!({"keyword": "걷기"})).await;
    assert!(
        ids(&korean).contains(&"build.morning-walk".to_owned()),
        "{korean}"
    );
    let english = h.ok("search_catalog", json!({"keyword": "walk"})).await;
    assert!(
        ids(&english).contains(&"build.morning-walk".to_owned()),
        "{english}"
    );
    let nothing = h.ok("search_catalog", json!({"keyword": "zzqqxx"})).await;
    assert_eq!(nothing, json!({"count": 0, "items": []}));
}

#[tokio::test]
async fn blank_and_null_optional_arguments_count_as_absent() {
    let h = harness();
    let plain = h.ok("search_catalog", json!({})).await;
    let blank = h
        .ok(
            "search_catalog",
            json!({"category": "", "keyword": "  ", "limit": null}),
        )
        .await;
    assert_eq!(plain, blank);
    // `null` for the whole argument object is accepted as `{}` by the dispatcher.
    assert_eq!(h.ok("search_catalog", Value::Null).await, plain);
}

#[tokio::test]
async fn an_unknown_category_lists_the_known_ones() {
    let h = harness();
    let result = h
        .call("search_catalog", json!({"category": "우주여행"}))
        .await;
    assert_eq!(code(&result), "invalid_value");
    assert!(reason(&result).contains("수면"), "{}", reason(&result));
}

#[tokio::test]
async fn schema_limits_come_back_as_validation() {
    let h = harness();
    for args in [
        json!({"limit": 11}),
        json!({"limit": 0}),
        json!({"limit": "five"}),
        json!({"keyword": "가".repeat(101)}),
        json!({"category": 3}),
    ] {
        let result = h.call("search_catalog", args.clone()).await;
        assert_eq!(code(&result), "validation", "{args}");
    }
    let result = h.call("search_catalog", json!({"limit": 11})).await;
    assert!(reason(&result).contains("`limit`"), "{}", reason(&result));
}

#[tokio::test]
async fn query_protocol_returns_each_kinds_own_fields() {
    let h = harness();
    let build = h
        .ok("query_protocol", json!({"id": "build.morning-walk"}))
        .await;
    assert_eq!(build["kind"], "build");
    for field in [
        "id",
        "title",
        "category",
        "summary",
        "cue",
        "routine",
        "reward",
        "minimum_dose",
        "suggested_anchor",
    ] {
        assert!(build.get(field).is_some(), "build lacks {field}: {build}");
    }
    assert!(build.get("tags").is_none(), "search tags are not returned");

    let catalog = habit_tools::catalog();
    let first = |kind: &str| {
        catalog
            .entries()
            .iter()
            .find(|e| e.details.kind() == kind)
            .map(|e| e.id.clone())
            .unwrap()
    };
    let broken = h.ok("query_protocol", json!({"id": first("break")})).await;
    assert_eq!(broken["kind"], "break");
    for field in ["trigger", "replacement", "friction"] {
        assert!(broken.get(field).is_some(), "break lacks {field}: {broken}");
    }
    let diet = h.ok("query_protocol", json!({"id": first("diet")})).await;
    assert_eq!(diet["kind"], "diet");
    for field in ["rules", "favor", "limit", "duration"] {
        assert!(diet.get(field).is_some(), "diet lacks {field}: {diet}");
    }
}

#[tokio::test]
async fn an_unknown_id_is_not_found() {
    let h = harness();
    for id in ["build.moon-walk", "", "x".repeat(10_000).as_str()] {
        let result = h.call("query_protocol", json!({"id": id})).await;
        assert_eq!(code(&result), "not_found", "{id:.20}");
        assert!(reason(&result).len() < 200, "the id is not echoed whole");
    }
    assert_eq!(
        code(&h.call("query_protocol", json!({})).await),
        "validation"
    );
}
