use agent_core::tool;

/// Echoes a count.
#[tool]
async fn echo(
    /// The count.
    count: u32,
) -> u32
where
    u32: Copy,
{
    count
}

fn main() {}
