use agent_core::{Registry, tool};

/// Adds a habit.
#[tool(destructive, label = "", timeout_ms = 0, summary = "{frame}", example(request = "걷기", args = { "txt": "걷기" }))]
async fn add_habit(
    framed_text: String,
    #[schemars(rnage(max = 3))]
    /// Frame level.
    level: u8,
) -> String {
    let _ = level;
    framed_text
}

fn main() {
    // The tool failed to expand, yet naming it adds no error of its own.
    let _ = Registry::builder().tool::<add_habit>().build();
}
