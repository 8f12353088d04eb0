use agent_core::tool;

const DB_TIMEOUT_MS: u64 = 0;

/// Lists the habits.
#[tool(timeout_ms = DB_TIMEOUT_MS)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
