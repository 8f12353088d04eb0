use agent_core::tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Habit {
    id: u32,
}

/// Deletes a habit.
#[tool(destructive, summary = habit)]
async fn delete_habit(
    /// The habit.
    habit: Habit,
) -> u32 {
    habit.id
}

fn main() {}
