use agent_core::{Dep, tool};

struct Store;

/// Adds a habit.
#[tool(destructive, summary = "{store}에 '{framed_text}'을 추가합니다")]
async fn add_habit(
    store: Dep<Store>,
    /// The habit, in the user's words.
    framed_text: String,
) -> String {
    let _ = store;
    framed_text
}

fn main() {}
