use agent_core::tool;

/// Lists the habits.
#[tool(name = "list habits")]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
