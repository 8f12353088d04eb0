use agent_core::tool;

/// Echoes a value.
#[tool]
async fn echo<T: serde::Serialize>(
    /// The value.
    value: T,
) -> T {
    value
}

fn main() {}
