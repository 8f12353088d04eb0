use agent_core::tool;

fn lenient<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    <u32 as serde::Deserialize>::deserialize(deserializer)
}

/// Sets a timer.
#[tool]
async fn set_timer(
    /// Minutes.
    #[serde(deserialize_with = "lenient")]
    minutes: u32,
) -> u32 {
    minutes
}

fn main() {}
