use agent_core::tool;

/// Adds a habit.
#[tool(destructive, summary = "'{framed_txt}' 습관을 추가합니다")]
async fn add_habit(
    /// The habit, in the user's words.
    framed_text: String,
) -> String {
    framed_text
}

fn main() {}
