use agent_core::tool;

/// Adds two numbers.
#[tool]
async fn add(
    /// The first.
    n: u8,
    /// The second.
    n: u8,
) -> u8 {
    n
}

fn main() {}
