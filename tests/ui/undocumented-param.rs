use agent_core::tool;

/// Adds a habit.
#[tool]
async fn add_habit(protocol_id: String, frame_level: u8) -> String {
    format!("{protocol_id} {frame_level}")
}

fn main() {}
