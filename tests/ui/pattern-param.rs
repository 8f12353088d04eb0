use agent_core::tool;

/// Moves a habit on the board.
#[tool]
async fn move_habit(
    /// The new position.
    (x, y): (u8, u8),
) -> u8 {
    x + y
}

fn main() {}
