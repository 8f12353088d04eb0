use agent_core::tool;

/// Lists the build habits.
#[tool(name = "list_habits")]
async fn list_build_habits() -> Vec<String> {
    Vec::new()
}

/// Lists the break habits.
#[tool(name = "list_habits")]
async fn list_break_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
