use agent_core::tool;

/// Greets.
#[tool]
async fn greet(#[dep] name: String) -> String {
    name
}

fn main() {}
