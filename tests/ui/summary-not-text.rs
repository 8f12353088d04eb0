use agent_core::tool;

/// Deletes a habit.
#[tool(destructive, summary = 42)]
async fn delete_habit(
    /// The habit id.
    habit_id: u32,
) -> u32 {
    habit_id
}

fn main() {}
