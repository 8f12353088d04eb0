use agent_core::tool;

#[tool]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
