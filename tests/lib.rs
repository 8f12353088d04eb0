//! Shared helpers for the cross-crate tests.

use std::sync::Mutex;

use agent_core::AgentEvent;

/// The plan of the first turn among `events` (its [`AgentEvent::Planned`]).
///
/// # Panics
/// When no turn was planned.
pub fn planned(events: &Mutex<Vec<AgentEvent>>) -> Vec<String> {
    events
        .lock()
        .expect("events")
        .iter()
        .find_map(|e| match e {
            AgentEvent::Planned(decision) => Some(decision.plan.clone()),
            _ => None,
        })
        .expect("a plan")
}
