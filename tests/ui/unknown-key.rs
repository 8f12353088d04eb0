use agent_core::tool;

/// Lists the habits.
#[tool(destructve)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
