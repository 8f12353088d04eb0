use agent_core::tool;

/// Sets a timer.
#[tool]
async fn set_timer(
    /// Minutes.
    minutes: u32,
    /// Also minutes, by mistake.
    #[serde(rename = "minutes")]
    length: u32,
) -> u32 {
    minutes + length
}

fn main() {}
