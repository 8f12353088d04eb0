//! Shared helpers for the cross-crate tests.

use std::sync::Mutex;

use agent_core::AgentEvent;

/// The plan of every turn among `events` (their [`AgentEvent::Planned`]), in order.
pub fn plans(events: &Mutex<Vec<AgentEvent>>) -> Vec<Vec<String>> {
    events
        .lock()
        .expect("events")
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Planned(decision) => Some(decision.plan.clone()),
            _ => None,
        })
        .collect()
}

/// The plan of the first turn among `events`.
///
/// # Panics
/// When no turn was planned.
pub fn planned(events: &Mutex<Vec<AgentEvent>>) -> Vec<String> {
    plans(events).into_iter().next().expect("a plan")
}
