use agent_core::tool;

/// Lists the habits.
#[tool(timeout_ms = "5s")]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
