use agent_core::tool;

/// Lists the habits.
#[tool]
async fn list_habits() -> Result<Vec<String>, std::io::Error> {
    Ok(Vec::new())
}

fn main() {}
