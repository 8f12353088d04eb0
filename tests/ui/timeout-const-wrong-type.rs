use agent_core::tool;

const DB_TIMEOUT_MS: u32 = 5_000;

/// Lists the habits.
#[tool(timeout_ms = DB_TIMEOUT_MS)]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
