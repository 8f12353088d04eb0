use agent_core::tool;

/// Logs a day.
#[tool(confirm_if = value != "blank")]
async fn log_entry(
    /// done or blank.
    value: String,
) -> String {
    value
}

fn main() {}
