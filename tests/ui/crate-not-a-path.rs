use agent_core::tool;

/// Lists the habits.
#[tool(crate = 5)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
