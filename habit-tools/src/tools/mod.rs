//! The nine tools an on-device model calls, declared with `#[tool]`, and the entry point apps use
//! to get them: [`registry_builder`] (the nine tools plus the [`Coach`] they share and the
//! journal of their writes),
//! [`TOOL_NAMES`] and the model's instructions, [`COACH_INSTRUCTIONS`].
//!
//! Each tool is a thin async wrapper over one [`Coach`] method. The wrappers own what the model
//! and the person see — Korean descriptions, labels, confirmation summaries, schema limits — and
//! moving the synchronous SQLite work off the async thread (`on_blocking_thread`). The rules
//! themselves live in the domain layer, so a tool call and a direct `Coach` call behave alike.
//!
//! | file | tools |
//! |---|---|
//! | [`catalog`] | `search_catalog`, `query_protocol` |
//! | [`habits`] | `list_active_habits`, `add_habit`, `stop_habit`, `update_habit_text` |
//! | [`tracker`] | `get_streak`, `log_tracker_entry`, `correct_tracker_entry` |
//! | `examples.json` | more examples, as data: other phrasings, two-call requests, requests needing no tool ([`EXAMPLES`]) |
//! | [`replies`] | each tool's own sentence about a successful result |
//! | [`values`] | value providers: catalog ids, active habit ids, categories, search terms, tracker values, the days of the past week |
//! | [`instructions`] | [`COACH_INSTRUCTIONS`] |

pub mod catalog;
pub mod habits;
pub mod instructions;
pub mod replies;
pub mod tracker;
pub mod values;

use agent_core::{Dep, RegistryBuilder, ToolError};

use crate::coach::Coach;
use crate::error::HabitError;
use crate::store::SqliteJournal;

pub use catalog::{query_protocol, search_catalog};
pub use habits::{add_habit, list_active_habits, stop_habit, update_habit_text};
pub use instructions::COACH_INSTRUCTIONS;
pub use tracker::{correct_tracker_entry, get_streak, log_tracker_entry};

/// The coach's examples beyond each tool's own few, as data (`examples.json` beside this
/// file): more ways people ask for each tool, requests that take two calls, and requests that
/// need no tool with the kind of answer the coach gives. [`registry_builder`] adds them with
/// `RegistryBuilder::examples_json`; the registry checks each against the tools' schemas.
pub const EXAMPLES: &str = include_str!("examples.json");

/// The nine tool names, in the order [`registry_builder`] registers them (and the model sees
/// them): read-only tools first, then the two that write most, then the three that change what
/// is there.
pub const TOOL_NAMES: [&str; 9] = [
    "search_catalog",
    "query_protocol",
    "list_active_habits",
    "get_streak",
    "add_habit",
    "log_tracker_entry",
    "stop_habit",
    "update_habit_text",
    "correct_tracker_entry",
];

/// A registry builder with the nine tools (in [`TOOL_NAMES`] order), their examples, `coach`
/// as their shared dependency, and the journal of their writes in the coach's store
/// ([`SqliteJournal`]). Build it, then give it to a dispatcher or an agent with
/// a confirmer:
///
/// ```
/// # use std::sync::Arc;
/// use agent_core::{ConfirmRequest, Confirmation, Dispatcher};
///
/// # async fn ask_user(_label: &str, _summary: &str) -> Confirmation { Confirmation::deny() }
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let coach = habit_tools::Coach::with_system_clock(Arc::new(habit_tools::Store::open_in_memory()?));
/// let registry = Arc::new(habit_tools::registry_builder(coach).build()?);
/// assert_eq!(registry.names().collect::<Vec<_>>(), habit_tools::TOOL_NAMES);
/// let tools = Dispatcher::new(registry, |request: ConfirmRequest| async move {
///     // e.g. a dialog titled "이 작업을 수행할까요?" showing the label, the summary and
///     // every argument, with 취소 / 수행.
///     ask_user(&request.label, &request.summary).await
/// });
/// # let _ = tools;
/// # Ok(()) }
/// ```
///
/// With `DenyAll` (what an app gets without a confirmer) every call that needs confirmation is
/// cancelled, while read-only tools and blank tracker entries still run.
pub fn registry_builder(coach: Coach) -> RegistryBuilder {
    let builder = agent_core::Registry::builder()
        .tool::<search_catalog>()
        .tool::<query_protocol>()
        .tool::<list_active_habits>()
        .tool::<get_streak>()
        .tool::<add_habit>()
        .tool::<log_tracker_entry>()
        .tool::<stop_habit>()
        .tool::<update_habit_text>()
        .tool::<correct_tracker_entry>()
        .journal(SqliteJournal::new(std::sync::Arc::clone(coach.store())))
        .dependency(coach);
    builder.examples_json("habit-tools/src/tools/examples.json", EXAMPLES)
}

/// Runs one synchronous [`Coach`] operation on Tokio's blocking pool, so a SQLite transaction
/// (which may wait up to the store's busy timeout for another writer) never stalls the async
/// thread that also drives the model. Outside a Tokio runtime it runs in place: the dispatcher
/// does not require Tokio, and the call is one short transaction.
///
/// A panic in `op` becomes the same `handler_error` the dispatcher reports for a panicking tool.
pub(crate) async fn on_blocking_thread<T, F>(coach: Dep<Coach>, op: F) -> Result<T, ToolError>
where
    T: Send + 'static,
    F: FnOnce(&Coach) -> Result<T, HabitError> + Send + 'static,
{
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return op(&coach).map_err(ToolError::from);
    };
    match runtime.spawn_blocking(move || op(&coach)).await {
        Ok(result) => result.map_err(ToolError::from),
        Err(error) if error.is_panic() => Err(ToolError::from_panic(error.into_panic())),
        // Only when the runtime shuts down under the call; the transaction either committed or
        // rolled back as a whole, but the caller cannot know which.
        Err(_) => Err(ToolError::new(
            "handler_error",
            "the tool was interrupted because the app is shutting down; check the result before retrying",
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::sync::Arc;
    use std::task::{Context, Poll, Waker};

    use super::*;
    use crate::{FixedClock, Store};

    fn coach() -> Dep<Coach> {
        let store = Arc::new(Store::open_in_memory().unwrap());
        let clock = Arc::new(FixedClock::new(jiff::civil::date(2025, 3, 10)));
        Dep::new(Coach::new(store, clock))
    }

    #[tokio::test]
    async fn a_panicking_operation_becomes_a_handler_error() {
        let result: Result<(), _> =
            on_blocking_thread(coach(), |_| panic!("boom in the store")).await;
        let error = result.unwrap_err();
        assert_eq!(error.code(), "handler_error");
        assert!(error.reason().contains("boom in the store"), "{error}");
    }

    #[tokio::test]
    async fn domain_errors_keep_their_code() {
        let result = on_blocking_thread(coach(), |c| c.get_streak(99)).await;
        assert_eq!(result.unwrap_err().code(), "not_found");
    }

    #[test]
    fn outside_tokio_the_operation_runs_in_place() {
        // No runtime: the future must complete on its first poll instead of panicking in
        // `spawn_blocking`.
        let mut future = pin!(on_blocking_thread(coach(), |c| c.list_active_habits()));
        let poll = future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        let Poll::Ready(result) = poll else {
            panic!("did not complete in place");
        };
        assert_eq!(result.unwrap().count, 0);
    }

    #[test]
    fn every_example_has_a_request_and_either_calls_or_an_answer() {
        let registry = registry_builder(Coach::new(
            Arc::new(Store::open_in_memory().unwrap()),
            Arc::new(FixedClock::new(crate::Date::constant(2025, 3, 10))),
        ))
        .build()
        .unwrap();
        assert!(registry.examples().count() > TOOL_NAMES.len());
        for example in registry.examples() {
            assert!(!example.request().trim().is_empty());
            assert!(
                !example.calls().is_empty() || example.answer_text().is_some(),
                "{example:?}"
            );
        }
    }
}
