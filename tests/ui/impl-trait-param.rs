use agent_core::tool;

/// Shows a value.
#[tool]
async fn show(
    /// The value.
    value: impl std::fmt::Display,
) -> String {
    value.to_string()
}

fn main() {}
