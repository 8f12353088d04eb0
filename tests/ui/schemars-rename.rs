use agent_core::tool;

/// Sets a timer.
#[tool]
async fn set_timer(
    /// Minutes.
    #[schemars(rename = "mins")]
    minutes: u32,
) -> u32 {
    minutes
}

fn main() {}
