//! The human-in-the-loop decorator: destructive tools run only on an explicit approval;
//! deny, a missing confirmer, or a denial with a reason all answer `cancelled` and run nothing.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_core::{
    ApproveAll, ConfirmArgument, ConfirmRequest, Confirmation, Confirmer, DenyAll, Dep, Dispatcher,
    Registry, ToolResult, tool,
};
use serde_json::json;

/// Counts how many times the destructive tools really ran.
#[derive(Default)]
struct Ledger(AtomicUsize);

/// 습관을 삭제합니다.
#[tool(
    destructive,
    label = "습관 삭제",
    summary = "{habit_id}번 습관을 삭제합니다"
)]
async fn delete_habit(
    ledger: Dep<Ledger>,
    /// 삭제할 습관 ID
    habit_id: u32,
) -> u32 {
    ledger.0.fetch_add(1, Ordering::SeqCst);
    habit_id
}

/// 오늘의 기록을 남깁니다. `blank`(의도적 공란)는 확인 없이 기록합니다.
#[tool(destructive, label = "기록하기", confirm_if = value != "blank")]
async fn log_entry(
    ledger: Dep<Ledger>,
    /// done 또는 blank
    value: String,
) -> String {
    ledger.0.fetch_add(1, Ordering::SeqCst);
    value
}

/// 습관 목록을 봅니다.
#[tool(label = "습관 목록")]
async fn list_habits() -> Vec<u32> {
    vec![1, 2]
}

/// A dispatcher over every tool of this file, asking `confirmer` (none: `DenyAll`, what an
/// app gets when it gives none).
fn registry(confirmer: Option<Arc<dyn Confirmer>>) -> (Dispatcher, Arc<Ledger>) {
    let ledger = Arc::new(Ledger::default());
    let registry = Registry::builder()
        .discover()
        .dependency_arc(Arc::clone(&ledger))
        .build()
        .expect("registry");
    let confirmer = confirmer.unwrap_or_else(|| Arc::new(DenyAll));
    (Dispatcher::new(Arc::new(registry), confirmer), ledger)
}

fn runs(ledger: &Ledger) -> usize {
    ledger.0.load(Ordering::SeqCst)
}

#[tokio::test]
async fn approved_calls_run() {
    let (registry, ledger) = registry(Some(Arc::new(ApproveAll)));
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": 3}))
        .await;
    assert_eq!(result, ToolResult::ok(json!(3)));
    assert_eq!(runs(&ledger), 1);
}

#[tokio::test]
async fn denied_calls_are_cancelled_and_do_not_run() {
    let (registry, ledger) = registry(Some(Arc::new(DenyAll)));
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": 3}))
        .await;
    assert_eq!(
        result.encode(2048),
        r#"{"status":"cancelled","reason":"user did not confirm"}"#
    );
    assert_eq!(runs(&ledger), 0);
}

#[tokio::test]
async fn without_a_confirmer_destructive_calls_fail_closed() {
    let (registry, ledger) = registry(None);
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": 3}))
        .await;
    assert_eq!(result, ToolResult::cancelled());
    assert_eq!(runs(&ledger), 0);
    // Read-only tools are not gated.
    assert!(registry.dispatch("list_habits", json!({})).await.is_ok());
}

#[tokio::test]
async fn the_confirmer_sees_label_description_summary_and_every_argument() {
    let seen: Arc<Mutex<Vec<ConfirmRequest>>> = Arc::default();
    let log = Arc::clone(&seen);
    let confirmer = move |request: ConfirmRequest| {
        let log = Arc::clone(&log);
        async move {
            log.lock().expect("log").push(request);
            Confirmation::Deny {
                reason: Some("사용자가 나중에 하겠다고 했습니다".into()),
            }
        }
    };
    let (registry, ledger) = registry(Some(Arc::new(confirmer)));
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": 7, "extra": 1}))
        .await;
    assert_eq!(
        result,
        ToolResult::Cancelled {
            reason: "사용자가 나중에 하겠다고 했습니다".into()
        }
    );
    assert_eq!(runs(&ledger), 0);
    let seen = seen.lock().expect("log");
    assert_eq!(
        seen.as_slice(),
        [ConfirmRequest {
            tool: "delete_habit".into(),
            label: "습관 삭제".into(),
            description: "습관을 삭제합니다.".into(),
            summary: "7번 습관을 삭제합니다".into(),
            arguments: vec![
                ConfirmArgument {
                    name: "habit_id".into(),
                    label: "삭제할 습관 ID".into(),
                    value: json!(7),
                    meaning: None,
                },
                // `extra` is no parameter: it was dropped before anyone was asked, so what
                // the person confirms is exactly what the tool would receive.
            ],
            args: json!({"habit_id": 7}),
            undo_of: None,
        }]
    );
}

#[tokio::test]
async fn invalid_arguments_are_refused_before_anyone_is_asked() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let confirmer = move |_: ConfirmRequest| {
        counter.fetch_add(1, Ordering::SeqCst);
        async { Confirmation::Approve }
    };
    let (registry, ledger) = registry(Some(Arc::new(confirmer)));
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": "seven"}))
        .await;
    assert_eq!(result.as_error().map(|e| e.code()), Some("validation"));
    assert_eq!(asked.load(Ordering::SeqCst), 0);
    assert_eq!(runs(&ledger), 0);
}

#[tokio::test]
async fn the_per_call_predicate_skips_confirmation_for_harmless_calls() {
    let (registry, ledger) = registry(Some(Arc::new(DenyAll)));
    let blank = registry
        .dispatch("log_entry", json!({"value": "blank"}))
        .await;
    assert_eq!(
        blank,
        ToolResult::ok(json!("blank")),
        "a deliberate blank is not asked about"
    );
    let done = registry
        .dispatch("log_entry", json!({"value": "done"}))
        .await;
    assert_eq!(
        done,
        ToolResult::cancelled(),
        "a real entry still needs a yes"
    );
    assert_eq!(runs(&ledger), 1);
}

#[tokio::test]
async fn each_dispatcher_asks_its_own_confirmer() {
    let (denying, ledger) = registry(None);
    let approving = Dispatcher::new(Arc::clone(denying.registry()), ApproveAll);
    let result = approving
        .dispatch("delete_habit", json!({"habit_id": 1}))
        .await;
    assert!(result.is_ok());
    assert_eq!(runs(&ledger), 1);
    let result = denying
        .dispatch("delete_habit", json!({"habit_id": 1}))
        .await;
    assert!(matches!(result, ToolResult::Cancelled { .. }), "{result:?}");
    assert_eq!(
        runs(&ledger),
        1,
        "the other dispatcher's yes does not carry over"
    );
}

#[tokio::test]
async fn a_panicking_confirmer_is_a_handler_error_not_a_crash() {
    let confirmer = |_: ConfirmRequest| async { panic!("dialog crashed") };
    let (registry, ledger) = registry(Some(Arc::new(confirmer)));
    let result = registry
        .dispatch("delete_habit", json!({"habit_id": 1}))
        .await;
    assert_eq!(result.as_error().map(|e| e.code()), Some("handler_error"));
    assert_eq!(runs(&ledger), 0);
}
