//! The eval's world: a fresh in-memory store holding habits 1–3 (`cases.schema.md` beside this
//! file), today 2025-03-10, behind the nine tools.
//!
//! Shared by the eval (`examples/eval.rs`) and the speed bench (`benches/gemma.rs`), which both
//! include it with `#[path]`: habit-demo is a binary crate with no library to hold it, and a file
//! here is no target of its own (cargo builds `examples/*.rs` and `examples/*/main.rs` only).
//! Errors come back as text so each includer reports them its own way.

use std::sync::Arc;

use agent_core::Registry;
use habit_tools::{Coach, Date, FixedClock, NewEntry, NewHabit, Store, TrackerValue};

/// The nine tools over the eval's three habits, habit 1 marked done on each of `habit_1_done`
/// (ISO dates), today 2025-03-10.
pub(crate) fn seeded_registry(habit_1_done: &[&str]) -> Result<Arc<Registry>, String> {
    // The habits are added on 2025-03-01 so that the done days before today fall after their
    // start.
    let clock = Arc::new(FixedClock::new(Date::constant(2025, 3, 1)));
    let store = Store::open_in_memory().map_err(|e| format!("store: {e}"))?;
    let coach = Coach::new(
        Arc::new(store),
        Arc::clone(&clock) as Arc<dyn habit_tools::Clock>,
    );
    for (protocol, text) in [
        ("build.morning-walk", "아침 커피 후 10분 걷기"),
        ("build.read-10-pages", "자기 전 책 10쪽 읽기"),
        ("break.late-night-snacking", "밤 9시 이후 보리차 마시기"),
    ] {
        coach
            .add_habit(NewHabit {
                protocol_id: protocol.into(),
                frame_level: 2,
                framed_text: text.into(),
                anchor_when: None,
                anchor_after_what: None,
                dose_text: None,
            })
            .map_err(|e| format!("seed habit: {e}"))?;
    }
    clock.set(Date::constant(2025, 3, 10));
    for date in habit_1_done {
        coach
            .log_tracker_entry(NewEntry {
                habit_id: 1,
                value: TrackerValue::Done,
                date: Some((*date).into()),
                note: None,
            })
            .map_err(|e| format!("seed entry: {e}"))?;
    }
    let registry = habit_tools::registry_builder(coach)
        .build()
        .map_err(|e| format!("habit registry: {e}"))?;
    Ok(Arc::new(registry))
}
