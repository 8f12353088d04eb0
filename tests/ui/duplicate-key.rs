use agent_core::tool;

/// Lists the habits.
#[tool(label = "습관 목록", label = "목록")]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
