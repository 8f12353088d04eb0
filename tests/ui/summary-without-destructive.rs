use agent_core::tool;

/// Lists the habits.
#[tool(summary = "습관 목록을 보여줍니다")]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
