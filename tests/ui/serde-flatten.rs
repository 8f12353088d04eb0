use agent_core::tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct When {
    hour: u8,
}

/// Sets a reminder.
#[tool]
async fn remind(
    /// When.
    #[serde(flatten)]
    when: When,
) -> u8 {
    when.hour
}

fn main() {}
