use agent_core::tool;

/// Finds a protocol.
///
/// # Arguments
///
/// * `id` - the protocol id
/// * `kind` - build or break
#[tool]
async fn query_protocol(id: String) -> String {
    id
}

fn main() {}
