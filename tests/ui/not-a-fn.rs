use agent_core::tool;

/// A habit.
#[tool]
struct Habit;

fn main() {}
