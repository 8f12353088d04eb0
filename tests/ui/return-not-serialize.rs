use agent_core::tool;

struct Habits(Vec<String>);

/// Lists the habits.
#[tool]
async fn list_habits() -> Habits {
    Habits(Vec::new())
}

fn main() {}
