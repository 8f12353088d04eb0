use agent_core::{Dep, tool};

struct Policy {
    strict: bool,
}

/// Deletes a habit.
#[tool(destructive, confirm_if = policy.strict || *habit_id > 3)]
async fn delete_habit(
    policy: Dep<Policy>,
    /// The habit.
    habit_id: u32,
) -> u32 {
    let _ = policy;
    habit_id
}

fn main() {}
