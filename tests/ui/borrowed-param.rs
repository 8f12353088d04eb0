use agent_core::tool;

/// Finds a protocol.
#[tool]
async fn query_protocol(
    /// The protocol id.
    id: &str,
) -> String {
    id.to_owned()
}

fn main() {}
