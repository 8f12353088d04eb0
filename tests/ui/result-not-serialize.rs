use agent_core::{ToolError, tool};

struct Habits(Vec<String>);

/// Lists the habits.
#[tool]
async fn list_habits() -> Result<Habits, ToolError> {
    Ok(Habits(Vec::new()))
}

fn main() {}
