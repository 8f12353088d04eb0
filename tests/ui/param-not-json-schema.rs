use agent_core::tool;

#[derive(serde::Deserialize)]
struct When {
    hour: u8,
}

/// Schedules a reminder.
#[tool]
async fn remind(
    /// When to remind.
    when: When,
) -> u8 {
    when.hour
}

fn main() {}
