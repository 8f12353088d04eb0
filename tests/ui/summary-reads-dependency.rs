use agent_core::{Dep, tool};

struct Store {
    name: String,
}

/// Adds a habit.
#[tool(destructive, summary = format!("{}에 {framed_text}", store.name))]
async fn add_habit(
    store: Dep<Store>,
    /// The habit.
    framed_text: String,
) -> String {
    let _ = store;
    framed_text
}

fn main() {}
