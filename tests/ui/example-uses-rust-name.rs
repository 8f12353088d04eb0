use agent_core::tool;

/// Sets a timer.
#[tool(example(request = "10분 타이머", args = { "length": 10 }))]
async fn set_timer(
    /// Minutes.
    #[serde(rename = "minutes")]
    length: u32,
) -> u32 {
    length
}

fn main() {}
