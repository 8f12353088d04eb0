use agent_core::tool;

/// Logs a day.
#[tool(destructive, confirm_if = value.len())]
async fn log_entry(
    /// done or blank.
    value: String,
) -> String {
    value
}

fn main() {}
