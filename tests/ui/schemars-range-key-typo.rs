use agent_core::tool;

/// Picks a frame level.
#[tool]
async fn pick(
    /// Frame level.
    #[schemars(range(mni = 1, max = 3))]
    level: u8,
) -> u8 {
    level
}

fn main() {}
