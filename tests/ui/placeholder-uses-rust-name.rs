use agent_core::tool;

/// Sets a timer.
#[tool(destructive, summary = "{length}분 타이머")]
async fn set_timer(
    /// Minutes.
    #[serde(rename = "minutes")]
    length: u32,
) -> u32 {
    length
}

fn main() {}
