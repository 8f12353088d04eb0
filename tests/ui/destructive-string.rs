use agent_core::tool;

/// Deletes every habit.
#[tool(destructive = "yes")]
async fn delete_all() -> u32 {
    0
}

fn main() {}
