use agent_core::tool;

/// Sets a timer.
#[tool]
async fn set_timer(
    /// Minutes.
    minutes: u32,
    /// Set by the app.
    #[serde(skip)]
    seconds: u32,
) -> u32 {
    minutes * 60 + seconds
}

fn main() {}
