use agent_core::tool;

/// Lists the habits.
#[tool(access = everyone)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
