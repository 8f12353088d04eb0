use agent_core::tool;

/// Finds a protocol.
#[tool]
async fn query_protocol(
    /// The protocol id.
    #[validate(length(min = 1))]
    id: String,
) -> String {
    id
}

fn main() {}
