use agent_core::tool;

/// Lists the habits.
#[tool(label = "습관 목록")]
#[tool]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {
    let _ = agent_core::Registry::builder().tool::<list_habits>();
}
