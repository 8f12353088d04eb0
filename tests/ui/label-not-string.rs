use agent_core::tool;

/// Lists the habits.
#[tool(label = 5)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
