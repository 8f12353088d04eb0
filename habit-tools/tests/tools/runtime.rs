//! The tools need no Tokio runtime of their own: the dispatcher is executor-agnostic, and
//! without Tokio the SQLite work runs in place instead of on the blocking pool.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use agent_core::{ApproveAll, ToolResult};
use serde_json::{Value, json};

use crate::support::Harness;

/// Polls a dispatch once, outside any runtime. Nothing in these calls waits on I/O readiness,
/// so one poll must finish them.
fn dispatch_once(h: &Harness, name: &str, args: Value) -> ToolResult {
    let mut future = pin!(h.tools.dispatch(name, args));
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(result) => result,
        Poll::Pending => panic!("{name} did not finish outside a runtime"),
    }
}

#[test]
fn tools_run_outside_a_tokio_runtime() {
    let h = Harness::in_memory(Arc::new(ApproveAll));
    let args =
        json!({"protocol_id": "build.morning-walk", "frame_level": 1, "framed_text": "10분 걷기"});
    let added = dispatch_once(&h, "add_habit", args);
    assert!(added.is_ok(), "{}", added.to_value());
    let logged = dispatch_once(
        &h,
        "log_tracker_entry",
        json!({"habit_id": 1, "value": "done"}),
    );
    assert!(logged.is_ok(), "{}", logged.to_value());
    let streak = dispatch_once(&h, "get_streak", json!({"habit_id": 1}));
    assert_eq!(
        streak.data().map(|d| d["current_streak"].clone()),
        Some(json!(1))
    );
}
