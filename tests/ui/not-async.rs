use agent_core::tool;

/// Lists the habits.
#[tool]
fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
