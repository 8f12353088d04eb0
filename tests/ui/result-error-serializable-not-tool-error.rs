use agent_core::tool;

#[derive(serde::Serialize)]
enum HabitError {
    NotFound,
}

type HabitResult<T> = Result<T, HabitError>;

/// Finds a habit.
#[tool]
async fn find_habit(
    /// The habit's id.
    id: u32,
) -> HabitResult<String> {
    if id == 1 { Ok("walk".to_owned()) } else { Err(HabitError::NotFound) }
}

fn main() {}
