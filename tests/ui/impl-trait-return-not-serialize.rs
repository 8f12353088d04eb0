use agent_core::tool;

/// Shows a value.
#[tool]
async fn show() -> impl std::fmt::Debug {
    42
}

fn main() {}
